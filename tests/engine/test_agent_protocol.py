"""Tests of what the agent protocol promises (docs/agents.md#the-protocol): the phase budget an
agent reads in its view, the event kinds and their data, and the turn event."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.rules.actions import (
    Action,
    Build,
    Event,
    Mortgage,
    ProposeTrade,
    SellBuilding,
    Unmortgage,
)
from engine.rules.agents import RandomAgent
from engine.rules.game import MAX_ACTIONS_PER_PHASE, MAX_TRADES_PER_PHASE, Game
from engine.rules.protocol import EVENT_KINDS, Agent
from engine.rules.streams import ScriptedStream, SeededStream
from engine.rules.view import GameView
from models.rules import PRESETS, Rules
from models.state import GameState
from models.trade import Trade, Transfer
from tests.engine.rules_helpers import ScriptedAgent, make_game, make_state

REPO = Path(__file__).resolve().parents[2]
STREETS = [1, 3, 6, 8, 9, 11, 13, 14, 16, 18, 19, 21, 23, 24, 26, 27, 29, 31, 32, 34, 37, 39]
READING = 5


class BudgetReader(ScriptedAgent):
    """Records ``(actions_left, trades_left)`` at every ``act`` and ``raise_cash`` question, and
    at the other questions; answers from its queues, or a fixed ``answer`` function."""

    def __init__(self, answer: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.answer = answer
        self.seen: list[tuple[str, int | None, int | None]] = []
        self.view: GameView | None = None

    def _note(self, method: str, view: GameView) -> None:
        self.view = view
        self.seen.append((method, view.actions_left, view.trades_left))

    def act(self, view: GameView) -> Action | None:
        self._note("act", view)
        return self.answer(view) if self.answer else super().act(view)

    def raise_cash(self, view: GameView, owed: int) -> Action | None:
        self._note("raise_cash", view)
        return self.answer(view) if self.answer else super().raise_cash(view, owed)

    def buy(self, view: GameView, square: int) -> bool:
        self._note("buy", view)
        return super().buy(view, square)


def _offer(view: GameView) -> ProposeTrade:
    """A legal offer: A's Reading Railroad for $100 of B's."""
    return ProposeTrade(Trade((Transfer("A", "B", ("Reading Railroad",)), Transfer("B", "A", (), 100))))


# ---------------------------------------------------------------------------
# The phase budget
# ---------------------------------------------------------------------------


def test_raise_cash_sees_the_budget_fall_and_the_phase_close_at_the_limit() -> None:
    """A debtor with 88 houses to sell, owing more than it can ever raise: two refused offers, then
    sales; it is asked exactly MAX_ACTIONS_PER_PHASE times, reading 64, 63, ... 1, then goes bankrupt."""
    state = make_state(
        2, cash=[0, 1500], owner={sq: 0 for sq in [*STREETS, READING]}, houses={sq: 4 for sq in STREETS}, rules=Rules(houses=100)
    )

    def answer(view: GameView) -> Action:
        if len(debtor.seen) <= 2:  # the first two questions: an offer (refused)
            return _offer(view)
        return SellBuilding(view.legal_building_sales()[0])

    debtor = BudgetReader(answer)
    h = make_game(state, [debtor, ScriptedAgent(accept=False)])
    assert h.game.views[0].actions_left is None
    assert not h.game._pay(0, 10**6, 1, "rent")
    asked = [s for s in debtor.seen if s[0] == "raise_cash"]
    assert [a for _, a, _ in asked] == list(range(MAX_ACTIONS_PER_PHASE, 0, -1))
    assert [t for _, _, t in asked][:4] == [2, 1, 0, 0]
    assert len(h.log.of("trade")) == 2 and len(h.log.of("sell_building")) == MAX_ACTIONS_PER_PHASE - 2
    assert h.log.of("bankrupt")[0].player == 0
    assert debtor.view is not None and (debtor.view.actions_left, debtor.view.trades_left) == (None, None)


def test_act_sees_the_budget_fall_and_the_phase_close_at_the_limit() -> None:
    state = make_state(2, owner={READING: 0})

    def answer(view: GameView) -> Action:
        return Mortgage(READING) if not view.is_mortgaged(READING) else Unmortgage(READING)

    agent = BudgetReader(answer)
    h = make_game(state, [agent, ScriptedAgent()])
    h.game._act(0)
    assert [a for _, a, _ in agent.seen] == list(range(MAX_ACTIONS_PER_PHASE, 0, -1))
    assert {t for _, _, t in agent.seen} == {MAX_TRADES_PER_PHASE}
    assert len(h.log.of("mortgage")) + len(h.log.of("unmortgage")) == MAX_ACTIONS_PER_PHASE
    assert agent.view is not None and agent.view.actions_left is None


def test_the_third_offer_closes_an_act_phase_unmade() -> None:
    state = make_state(2, owner={READING: 0})
    agent = BudgetReader(_offer)
    h = make_game(state, [agent, ScriptedAgent(accept=False)])
    h.game._act(0)
    assert agent.seen == [("act", 64, 2), ("act", 63, 1), ("act", 62, 0)]
    assert len(h.log.of("trade")) == MAX_TRADES_PER_PHASE


def test_other_questions_see_no_budget() -> None:
    """Between phases (here: the offer to buy a lot) the budget reads None; each act phase starts afresh."""
    state = make_state(2)
    agent = BudgetReader(buy=False, acts=[None, None, None])
    h = make_game(state, [agent, ScriptedAgent()], dice=[(1, 2)])
    h.turn()
    assert agent.seen == [("act", 64, 2), ("buy", None, None), ("act", 64, 2)]


def test_a_host_builds_a_view_with_its_own_limits() -> None:
    state = make_state(2)
    assert (GameView(state, 0).actions_left, GameView(state, 0).trades_left) == (None, None)
    view = GameView(state, 1, actions_left=10, trades_left=1)
    assert (view.actions_left, view.trades_left) == (10, 1)
    view.set_budget(3, 0)
    assert (view.actions_left, view.trades_left) == (3, 0)
    view.set_budget(None, None)
    assert view.actions_left is None and view.trades_left is None


# ---------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------


class Recorder:
    """An observer that checks every event against EVENT_KINDS and counts the kinds."""

    def __init__(self) -> None:
        self.kinds: dict[str, int] = {}

    def __call__(self, event: Event, game: Game) -> None:
        assert event.kind in EVENT_KINDS, event.kind
        keys = set(event.data)
        if event.kind == "trade":
            assert keys == {"trade", "accepted", "lifted" if event.data["accepted"] else "refused_by"}
        else:
            assert keys == set(EVENT_KINDS[event.kind]), event
        self.kinds[event.kind] = self.kinds.get(event.kind, 0) + 1


def _refused_setup(observer: Recorder) -> None:
    """A novelty trial: the announced fine is $10, the true one $50; a jailed player with $20 pays."""
    state = make_state(2, cash=[20, 1500], in_jail={0: 0}, rules=Rules(jail_fine=50))
    agents = [ScriptedAgent(jail="pay"), ScriptedAgent()]
    game = Game(state, agents, ScriptedStream([(1, 2)]), observers=[observer], announced_rules=Rules(jail_fine=10))
    game.play_turn()


def test_every_event_kind_is_documented_and_emitted() -> None:
    """Seeded games (standard rules; without auctions; with set_size and a short supply) and a
    novelty trial emit every kind of EVENT_KINDS, each with exactly its documented data."""
    rec = Recorder()
    rule_sets = (Rules(), PRESETS["house-jackpot"], Rules(set_size={"dark_blue": 1, "brown": 1, "green": 2, "orange": 2}, houses=12, hotels=4))
    for r, rules in enumerate(rule_sets):
        for seed in range(3):
            state = GameState.new_game(["A", "B", "C", "D"], rules=rules)
            agents: list[Agent] = [RandomAgent(100 * r + 10 * seed + i, p_trade=0.3) for i in range(4)]
            Game(state, agents, SeededStream(seed), max_rounds=150, observers=[rec]).play()
    _refused_setup(rec)
    assert set(rec.kinds) == set(EVENT_KINDS), set(EVENT_KINDS) - set(rec.kinds)


def test_a_turn_event_starts_every_turn() -> None:
    log: list[Event] = []
    state = GameState.new_game(["A", "B", "C"])
    game = Game(state, [RandomAgent(i) for i in range(3)], SeededStream(5), max_rounds=30, observers=[lambda e, g: log.append(e)])
    movers = []
    while not game.over:
        movers.append(game.state.to_move)
        game.play_turn()
    turns = [e for e in log if e.kind == "turn"]
    assert [e.player for e in turns] == movers and len(turns) == game.turns
    assert log[0].kind == "game_start" and log[-1].kind == "game_end"


def test_a_turn_resumed_after_the_roll_has_no_turn_event() -> None:
    state = make_state(2)
    state.phase = "rolled"
    h = make_game(state, dice=[])
    h.turn()
    assert "turn" not in h.log.kinds() and h.state.to_move == 1


# ---------------------------------------------------------------------------
# The documentation
# ---------------------------------------------------------------------------


def _section(title: str) -> str:
    text = (REPO / "docs" / "agents.md").read_text()
    return text.split(f"\n### {title}\n", 1)[1].split("\n#", 1)[0]


def test_the_docs_list_every_event_kind_with_its_data() -> None:
    rows = re.findall(r"^\| `([a-z_]+)` \|[^|]*\|([^|]*)\|", _section("Events"), re.MULTILINE)
    assert [kind for kind, _ in rows] == list(EVENT_KINDS)
    for kind, data in rows:
        keys = re.sub(r"\([^)]*\)", "", data)  # the values in parentheses are examples
        assert tuple(re.findall(r"`([a-z_]+)`", keys)) == EVENT_KINDS[kind], kind


def test_the_docs_list_every_decision_method() -> None:
    rows = re.findall(r"^\| `([a-z_]+)` \|", _section("Questions"), re.MULTILINE)
    methods = [n for n in Agent.__dict__ if not n.startswith("_") and callable(getattr(Agent, n))]
    assert rows == methods


@pytest.mark.parametrize("name", ["MAX_ACTIONS_PER_PHASE", "MAX_TRADES_PER_PHASE"])
def test_the_docs_give_the_limits(name: str) -> None:
    from engine.rules import game

    assert f"`{name}` = {getattr(game, name)}" in _section("Limits and the budget")


class _RefusingGame(Game):
    """A host that refuses building on Mediterranean Avenue (square 1) and mortgaging Reading."""

    def refusal(self, p: int, action: Action) -> str | None:
        if action in (Build(1), Mortgage(READING)):
            return "this host does not allow it"
        return None


def test_a_refused_move_is_an_event_and_the_phase_goes_on() -> None:
    state = make_state(2, owner={1: 0, 3: 0, READING: 0})
    seen: list[Event] = []
    agent = ScriptedAgent(acts=[Build(1), Build(3), None])
    agent.notify = seen.append  # type: ignore[method-assign]
    game = _RefusingGame(state, [agent, ScriptedAgent()], ScriptedStream())
    game._act(0)
    refused = [e for e in seen if e.kind == "refused"]
    assert [(e.player, e.data["action"], e.data["why"]) for e in refused] == [(0, Build(1), "this host does not allow it")]
    assert state.houses[1] == 0 and state.houses[3] == 1  # the phase went on to the next answer
    assert [e.kind for e in seen if e.kind in ("refused", "build")] == ["refused", "build"]
    # raise_cash: a refused mortgage, then another answer
    debtor = ScriptedAgent(raise_actions=[Mortgage(READING), Mortgage(1), None])
    state2 = make_state(2, cash=[0, 1500], owner={1: 0, READING: 0})
    game2 = _RefusingGame(state2, [debtor, ScriptedAgent()], ScriptedStream())
    game2._raise_cash(0, 20)
    assert state2.mortgaged[1] and not state2.mortgaged[READING]


def test_the_reference_engine_refuses_nothing() -> None:
    game = Game(make_state(2, owner={1: 0, 3: 0}), [RandomAgent(0), RandomAgent(1)], ScriptedStream())
    assert all(game.refusal(0, a) is None for a in (Build(1), Mortgage(1), Unmortgage(3), SellBuilding(3)))
