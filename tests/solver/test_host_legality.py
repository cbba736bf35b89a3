"""The host decides what is legal (issue 38, item 5).

A stricter host is modelled by a view whose legal lists (builds, building sales, mortgages, lifts)
leave out a seeded subset of what our rules allow: each (kind, square) is left out in a given
state with probability 0.3, decided by a hash of the seed, the kind, the square and the state's
round, mover and buildings (the same answer every time the same question is asked in the same
state). Every action an agent answers (``act`` and ``raise_cash``) is checked against the lists
of the view it was given: no agent may take a move the host did not list. ``subgraph`` and
``strategic`` play whole games under that host.

The host also refuses moves when tried (:class:`engine.tournament.strict_host.StrictHost`: a
``refused`` event, the phase goes on): no agent of the registry asks again, in the same
position, for a move refused there; an agent that ignores the event is caught doing so.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules.actions import Build, Mortgage, SellBuilding, Unmortgage
from engine.rules.game import Game
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from engine.rules.view import GameView
from models.state import GameState
from engine.tournament.strict_host import StricterView as StrictView
from engine.tournament.strict_host import play_strict
from solver.agents.registry import factory

DROP = 0.3


def StricterView(state: GameState, me: int, seed: int) -> GameView:  # noqa: N802 - the host's view, at this test's share
    return StrictView(state, me, seed, DROP)


CHECKED: dict[str, int] = {}
"""How many answered moves of each kind were checked (the games must exercise the lists)."""

LISTS = {Build: "legal_builds", SellBuilding: "legal_building_sales", Mortgage: "legal_mortgages", Unmortgage: "legal_unmortgages"}


class Checked:
    """An agent whose every answered action is checked against its view's lists."""

    def __init__(self, agent: Any, log: list[str]) -> None:
        self._agent = agent
        self._log = log

    def __getattr__(self, name: str) -> Any:
        return getattr(self._agent, name)

    def _check(self, view: GameView, action: Any, where: str) -> Any:
        method = LISTS.get(type(action))
        if method is not None:
            CHECKED[type(action).__name__] = CHECKED.get(type(action).__name__, 0) + 1
            if action.square not in getattr(view, method)():
                self._log.append(f"{where}: {action} not in {method}")
        return action

    def act(self, view: GameView) -> Any:
        return self._check(view, self._agent.act(view), "act")

    def raise_cash(self, view: GameView, owed: int) -> Any:
        return self._check(view, self._agent.raise_cash(view, owed), "raise_cash")


def _play(specs: list[str], seed: int, game: int, log: list[str]) -> str | None:
    stream_seed, seats = game_seeds(game_seed_sequence(seed, game), len(specs))
    agents = [Checked(factory(spec)(s), log) for spec, s in zip(specs, seats)]
    state = GameState.new_game([f"P{k + 1}" for k in range(len(specs))])
    g = Game(state, agents, SeededStream(stream_seed), max_rounds=300)  # type: ignore[arg-type]
    g.views = [StricterView(state, i, seed) for i in range(len(specs))]
    return g.play().winner


def test_no_agent_takes_a_move_the_host_did_not_list() -> None:
    log: list[str] = []
    CHECKED.clear()
    for game in range(4):
        _play(["subgraph", "strategic", "value", "strategic"], 11, game, log)
    assert log == [], log[:5]
    assert CHECKED.get("Build", 0) > 20 and CHECKED.get("Mortgage", 0) > 0, CHECKED  # the lists were exercised


class Naive:
    """The negative control: builds wherever our own rules allow, ignoring the host's list."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def act(self, view: GameView) -> Any:
        from engine.rules.legal import legal_builds

        ours = legal_builds(view.copy(), view.me)
        return Build(ours[0]) if ours and ours[0] not in view.legal_builds() else self._inner.act(view)


def test_the_check_catches_an_agent_that_ignores_the_host() -> None:
    log: list[str] = []
    stream_seed, seats = game_seeds(game_seed_sequence(11, 0), 4)
    agents = [Checked(Naive(factory("strategic")(s)), log) for s in seats]
    state = GameState.new_game([f"P{k + 1}" for k in range(4)])
    g = Game(state, agents, SeededStream(stream_seed), max_rounds=300)  # type: ignore[arg-type]
    g.views = [StricterView(state, i, 11) for i in range(4)]
    g.play()
    assert any("Build" in x for x in log)


def test_the_stricter_host_leaves_moves_out() -> None:
    """The control: the view does leave out moves that our rules allow."""
    from models.io import load_state

    state = load_state("instances/late-game-house-shortage.json")
    plain, strict = GameView(state, 0), StricterView(state, 0, 11)
    allowed = plain.legal_builds() + plain.legal_mortgages()
    kept = strict.legal_builds() + strict.legal_mortgages()
    assert set(kept) < set(allowed) or not allowed


@pytest.mark.parametrize("game", [0, 1])
def test_no_agent_asks_again_for_a_refused_move(game: int) -> None:
    specs = ["subgraph", "strategic", "value", "random"]
    row = play_strict([factory(s) for s in specs], specs, 5, game, 200, drop=0.3, refuse=0.3)
    assert row["unlisted"] == 0 and row["repeats"] == 0, row["examples"]
    assert row["refused"] > 20, row  # the host did refuse, and the agents went on


class Stubborn:
    """The negative control: after a refusal it answers the refused move again, once."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self._again: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def notify(self, event: Any) -> None:
        if event.kind == "refused" and event.player == self._inner.me and not isinstance(event.data["action"], str):
            self._again = event.data["action"]
        self._inner.notify(event)

    def act(self, view: GameView) -> Any:
        again, self._again = self._again, None
        return again if again is not None else self._inner.act(view)


def test_the_log_catches_an_agent_that_asks_again() -> None:
    make = factory("strategic")
    row = play_strict([lambda seed: Stubborn(make(seed))] * 4, ["s"] * 4, 5, 0, 200, drop=0.3, refuse=0.3)
    assert row["repeats"] > 0 and any("asked again" in x for x in row["examples"])


class _Withholding(GameView):
    """A host that lists every mortgage our rules allow except ``withheld``."""

    __slots__ = ("withheld",)

    def __init__(self, state: GameState, me: int, withheld: tuple[int, ...]) -> None:
        super().__init__(state, me)
        self.withheld = withheld

    def legal_mortgages(self) -> list[int]:
        return [sq for sq in super().legal_mortgages() if sq not in self.withheld]


def test_a_withheld_spare_lot_is_replaced_by_one_the_host_lists() -> None:
    """instances/mortgaged.json, Ann at $10: the funded plan builds the light blues and mortgages
    New York Avenue (19), then Indiana (23), then Marvin Gardens (29) to pay. Under our rules she
    mortgages 19; a host that withholds 19 gets 23, the plan's next (no substitute needed). With a
    plan whose only spare lot is 19, withheld, the rule picks, among the lots the host lists outside
    the plan: the smallest mortgage value that covers the shortfall (Indiana, $110, for $40), else
    the largest (Marvin Gardens, $140, for $500); none listed, or no shortfall (a lift the host
withheld, with the cash for it): the spree stops (``None``)."""
    import dataclasses

    from models.io import load_state
    from solver.decisions.building import _fund, funded_step
    from solver.decisions.caches import DecisionCaches
    from solver.decisions.memory import AgentMemory
    from solver.decisions.settings import AgentSettings

    state = load_state("instances/mortgaged.json")
    state.players[0].cash = 10
    memory = AgentMemory(seat=0)
    step = funded_step(GameView(state, 0), 0, AgentSettings(), memory, DecisionCaches())
    assert step is not None and step.answer == Mortgage(19)
    assert memory.plan is not None and memory.plan.mortgages == (19, 23, 29)
    step = funded_step(_Withholding(state, 0, (19,)), 0, AgentSettings(), AgentMemory(seat=0), DecisionCaches())
    assert step is not None and step.answer == Mortgage(23)
    only19 = dataclasses.replace(memory.plan, mortgages=(19,))
    view = _Withholding(state, 0, (19,))
    assert _fund(state, only19, view, AgentMemory(seat=0), 40) == Mortgage(23)
    assert _fund(state, only19, view, AgentMemory(seat=0), 500) == Mortgage(29)
    assert _fund(state, only19, _Withholding(state, 0, (19, 23, 29)), AgentMemory(seat=0), 40) is None
    assert _fund(state, only19, view, AgentMemory(seat=0), 0) is None  # not short of cash: nothing to substitute for
    # under our rules (every legal mortgage listed) a plan whose spare lots are spent has no substitute
    spent = dataclasses.replace(memory.plan, mortgages=())
    assert _fund(state, spent, GameView(state, 0), AgentMemory(seat=0), 40) is None


def test_no_proposal_once_the_host_budget_is_spent() -> None:
    """A host that allows no more proposals this phase (``trades_left`` 0) gets none from
    ``subgraph``'s act phase, whatever its own count says."""
    from models.io import load_state
    from solver.decisions.act import act_choice
    from solver.decisions.caches import DecisionCaches
    from solver.decisions.memory import AgentMemory
    from solver.decisions.settings import AgentSettings

    state = load_state("instances/midgame-no-monopolies.json")
    me = state.to_move
    settings = AgentSettings(rollouts=40, accept_rollouts=40)
    asked = act_choice(GameView(state, me), me, settings, AgentMemory(seat=me), DecisionCaches())
    assert asked.action == "propose_trade"  # with budget: the agent proposes here
    closed = act_choice(GameView(state, me, trades_left=0), me, settings, AgentMemory(seat=me), DecisionCaches())
    assert closed.action != "propose_trade"
