"""``SubgraphTradeAgent`` (solver.agents.subgraph_agent) in whole games and at single decisions.

Independent checks: the engine's invariant checker (a second cash ledger and
the rules read off the state) over a whole game, the agent's answers to
offers whose sign is obvious (a gift, a giveaway), an observer counting what
the agent really proposed, and the agent's own search counter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.rules.actions import Event, ProposeTrade
from engine.rules.game import Game
from engine.rules.invariants import InvariantChecker, check_state
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from engine.rules.view import GameView
from engine.sim.rollout import RolloutResult
from models.io import load_state
from models.state import GameState
from models.trade import Trade, Transfer
from solver.agents.registry import factory, parse_spec
from solver.agents.strategic import StrategicTradeAgent, trade_key
from solver.agents.subgraph_agent import SubgraphTradeAgent
from solver.decisions.caches import DecisionCaches
from solver.decisions.memory import AgentMemory
from solver.decisions.pricing import offer_for, price_amounts
from solver.decisions.proposing import cash_bucket, closed
from solver.decisions.reserves import reserve_of, reserves_for
from solver.decisions.settings import AgentSettings
from solver.decisions.trade_search import search
from solver.trades.bargaining import trade_with_cash

INSTANCES = Path(__file__).resolve().parents[2] / "instances"


def small(seed: int = 0) -> SubgraphTradeAgent:
    # searches as written: no purchases, and a refused structure stays closed (haggle=0)
    return SubgraphTradeAgent(seed, rollouts=100, horizon=12, accept_rollouts=200, deny=0, haggle=0)


class Refuser(StrategicTradeAgent):
    """The strategic baseline's buying and building, but it refuses every offer and proposes none."""

    name = "refuser"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, trade=False)

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        return False


class TradeLog:
    """Observer: every trade event, and an invariant check of the state after it."""

    def __init__(self) -> None:
        self.events: list[tuple[int | None, bool, Trade]] = []

    def __call__(self, event: Event, game: Game) -> None:
        if event.kind == "trade":
            self.events.append((event.player, bool(event.data["accepted"]), event.data["trade"]))
            assert check_state(game.state) == []


def test_registry_builds_the_agent() -> None:
    entry, kwargs = parse_spec("subgraph:rollouts=50,cycles=false")
    assert entry.cls is SubgraphTradeAgent and kwargs == {"rollouts": 50, "cycles": False}
    agent = factory("subgraph:rollouts=50")(3)
    assert isinstance(agent, SubgraphTradeAgent) and agent.settings.rollouts == 50 and agent.name == "subgraph"


def test_full_game_against_strategic_keeps_the_invariants() -> None:
    """A whole game, seated as in engine.tournament.play_one; every event checked."""
    stream_seed, seat_seeds = game_seeds(game_seed_sequence(11, 0), 4)
    solver_agent = SubgraphTradeAgent(seat_seeds[0])
    agents = [solver_agent, *(StrategicTradeAgent(s) for s in seat_seeds[1:])]
    state = GameState.new_game(["P1", "P2", "P3", "P4"])
    checker = InvariantChecker(strict=True)
    log = TradeLog()
    result = Game(state, agents, SeededStream(stream_seed), max_rounds=150, observers=[checker, log]).play()
    assert result.reason in ("bankruptcy", "round_cap")
    assert result.rounds <= 150
    assert checker.checks > 100 and checker.violations == []
    assert check_state(state) == []
    assert sum(p.cash for p in state.players) >= 0
    if result.reason == "bankruptcy":
        assert [p.name for p in state.players if not p.bankrupt] == [result.winner]
    assert solver_agent.memory.searches > 0  # it did look for trades


@pytest.fixture(scope="module")
def midgame() -> GameState:
    return load_state(INSTANCES / "midgame-no-monopolies.json")


def test_accepts_a_gift_refuses_a_giveaway(midgame: GameState) -> None:
    names = tuple(p.name for p in midgame.players)
    me = midgame.player_index("Bob")
    agent = small()
    agent.start_game(me, names)
    view = GameView(midgame, me)
    gift = Trade((Transfer("Ann", "Bob", (), 300),))
    giveaway = Trade((Transfer("Bob", "Ann", (), 300),))
    assert agent.accept_trade(view, gift) is True
    assert agent.accept_trade(view, giveaway) is False
    # an offer the engine would refuse (Bob does not own Boardwalk) is refused
    assert midgame.owner[midgame.square_of("Boardwalk")] != me
    assert agent.accept_trade(view, Trade((Transfer("Bob", "Ann", ("Boardwalk",)),))) is False
    # it answered on a copy: the live state is untouched
    assert midgame == load_state(INSTANCES / "midgame-no-monopolies.json")


def test_find_trade_does_not_search_an_unchanged_position(midgame: GameState) -> None:
    s = midgame.copy()
    names = tuple(p.name for p in s.players)
    me = s.player_index("Ann")
    agent = small()
    agent.start_game(me, names)
    view = GameView(s, me)
    first = agent.find_trade(view)
    assert agent.memory.searches == 1
    assert first is not None  # Ann has trades in the midgame (e.g. New York for Kentucky with Bob)
    first.validate(s)
    assert "Ann" in first.participants()
    # the same position: no second search, no proposal
    assert agent.find_trade(view) is None and agent.memory.searches == 1
    # cash within the same bucket (geometric: $150 wide below $300, then one per doubling): the same position
    cash = s.players[me].cash
    low = (cash // 150) * 150 if cash < 300 else 150 * 2 ** ((cash // 150).bit_length() - 1)
    assert cash >= 300 and low < cash  # Ann is in a doubling bucket: the test moves within it
    s.players[me].cash = low
    assert agent.find_trade(view) is None and agent.memory.searches == 1
    # cash into another bucket: a new search
    s.players[me].cash = 2 * low
    agent.find_trade(view)
    assert agent.memory.searches == 2
    # nobody has a partial set to complete (the opening): no search at all
    opening = load_state(INSTANCES / "opening.json")
    fresh = small()
    fresh.start_game(0, tuple(p.name for p in opening.players))
    assert fresh.find_trade(GameView(opening, 0)) is None and fresh.memory.searches == 0


@pytest.mark.parametrize(
    "key,cases",
    [
        ("linear", [(0, 0), (149, 0), (150, 1), (299, 1), (300, 2), (449, 2), (450, 3), (1200, 8), (-5, 0)]),
        ("geometric", [(0, 0), (149, 0), (150, 1), (299, 1), (300, 2), (599, 2), (600, 3), (1199, 3), (1200, 4), (-5, 0)]),
    ],
)
def test_cash_buckets_of_the_search_key(key: str, cases: list[tuple[int, int]]) -> None:
    settings = AgentSettings(cash_key=key)
    assert [cash_bucket(c, settings) for c, _ in cases] == [b for _, b in cases]


def test_a_refused_trade_is_never_proposed_again_single_decisions() -> None:
    """With ``haggle=0``, refuse each proposal and move the cash bucket back and forth: every
    new proposal is another trade, until none is left."""
    s = load_state(INSTANCES / "midgame-no-monopolies.json")
    me = s.player_index("Ann")
    agent = SubgraphTradeAgent(0, rollouts=100, horizon=20, cash_key="linear", haggle=0)  # $150 buckets: +$150 is a new key
    agent.start_game(me, tuple(p.name for p in s.players))
    view = GameView(s, me)
    cash0 = s.players[me].cash
    proposed: list[Trade] = []
    for k in range(8):
        s.players[me].cash = cash0 + (150 if k % 2 else 0)
        t = agent.find_trade(view)
        if t is None:
            continue
        t.validate(s)
        assert trade_key(t) not in {trade_key(x) for x in proposed}
        proposed.append(t)
        agent.notify(Event("trade", me, {"trade": t, "accepted": False, "refused_by": 0}))
    assert len(proposed) >= 3
    assert agent.memory.searches == 8


def test_a_refused_trade_is_never_proposed_again_in_a_game() -> None:
    """A game from a 3-way cycle position against players who refuse everything:
    the agent proposes several trades, all refused, never the same one twice."""
    s = load_state(INSTANCES / "cycle-four-partial-piece.json")
    p = s.to_move
    agents = [small(0) if i == p else Refuser(i) for i in range(len(s.players))]
    log = TradeLog()
    checker = InvariantChecker(strict=True)
    Game(s, agents, SeededStream(0), max_rounds=s.round + 20, observers=[checker, log]).play()
    mine = [(ok, t) for who, ok, t in log.events if who == p]
    assert len(mine) >= 2
    assert not any(ok for ok, _ in mine)
    keys = [trade_key(t) for _, t in mine]
    assert len(set(keys)) == len(keys)
    assert len({t for _, t in mine}) == len(mine)
    assert all(who == p for who, _, _ in log.events)  # the refusers never propose
    assert check_state(s) == []


def test_with_haggle_a_structure_returns_only_at_a_better_price_in_a_game() -> None:
    """The default ``haggle=2`` in the same game: a structure may come back after a refusal,
    but each time at least ``price_step`` better for the counterparty than the best refused."""
    s = load_state(INSTANCES / "cycle-four-partial-piece.json")
    p = s.to_move
    agent = SubgraphTradeAgent(0, rollouts=100, horizon=12, accept_rollouts=200, deny=0)
    assert agent.settings.haggle == 2
    agents = [agent if i == p else Refuser(i) for i in range(len(s.players))]
    log = TradeLog()
    Game(s, agents, SeededStream(0), max_rounds=s.round + 20, observers=[InvariantChecker(strict=True), log]).play()
    mine = [t for who, _, t in log.events if who == p]
    assert len(mine) >= 2
    best: dict[tuple[object, ...], int] = {}
    repeats = 0
    for t in mine:
        others = [n for n in t.participants() if n != s.players[p].name]
        key = trade_key(t)
        if key in best:
            assert len(others) == 1 and t.net_cash(others[0]) >= best[key] + agent.settings.price_step
            repeats += 1
        if len(others) == 1:
            best[key] = max(best.get(key, t.net_cash(others[0])), t.net_cash(others[0]))
    assert repeats >= 1  # the game does exercise a second offer of one structure


def test_act_proposes_at_most_once_per_phase(midgame: GameState) -> None:
    """The agent's act(): a proposal comes as a ProposeTrade action, once per turn phase."""
    s = midgame.copy()
    me = s.player_index("Ann")
    agent = small()
    agent.start_game(me, tuple(p.name for p in s.players))
    agent.notify(Event("turn", me, {"round": s.round}))
    view = GameView(s, me)
    first = agent.act(view)
    assert isinstance(first, ProposeTrade)
    assert agent.act(view) is None


def _result(winners: list[int]) -> RolloutResult:
    n = len(winners)
    return RolloutResult(("Ann", "Bob", "Cy"), n, 10, {}, {}, 0, 1.0, 10.0, {}, np.array(winners), np.zeros((n, 3), dtype=np.float32))


def test_exploit_drops_only_the_partners_gain_requirement() -> None:
    """Hand-built paired results on 400 games: Bob (the agent) wins 100 more games after the
    trade, Ann 100 fewer (both far beyond the noise), Cy unchanged."""
    before = _result([0] * 200 + [2] * 200)
    after = _result([0] * 100 + [1] * 100 + [2] * 200)
    from types import SimpleNamespace

    from solver.trades.selection import qualifies

    def ok(base: RolloutResult, after: RolloutResult, exploit: bool) -> bool:
        # the agent's filter (selection.qualifies, "best" mode): with exploit only the agent
        # must gain; without it every trader (the Nash zone)
        r = SimpleNamespace(after=after, balanced=True, leader="Cy")
        return qualifies(r, base, "Bob", "best", 1.645, traders=() if exploit else ["Bob", "Ann"])  # type: ignore[arg-type]

    assert not ok(before, after, exploit=False)  # Ann loses: no Nash zone
    assert ok(before, after, exploit=True)  # Bob gains: Ann will decide
    # the agent itself must gain in both modes
    assert not ok(after, before, exploit=True)
    assert not ok(after, before, exploit=False)
    # a trade where both gain qualifies in both modes
    both = _result([0] * 150 + [1] * 150 + [2] * 100)
    assert ok(_result([0] * 100 + [1] * 100 + [2] * 200), both, exploit=False)
    assert ok(_result([0] * 100 + [1] * 100 + [2] * 200), both, exploit=True)


def test_relax_searches_the_relaxed_model(midgame: GameState, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``relax`` the bilateral search asks generate_trades for the relaxed model."""
    import solver.decisions.trade_search as agent_mod

    calls: list[bool] = []
    real = agent_mod.generate_trades

    def spy(*args: object, **kw: object) -> object:
        calls.append(bool(kw.get("relaxed")))
        return real(*args, **kw)  # type: ignore[arg-type]

    me = midgame.player_index("Bob")
    for relax in (False, True):
        calls.clear()
        agent = SubgraphTradeAgent(0, rollouts=60, horizon=10, relax=relax)
        agent.start_game(me, tuple(p.name for p in midgame.players))
        monkeypatch.setattr(agent_mod, "generate_trades", spy)
        agent.find_trade(GameView(midgame.copy(), me))
        assert calls and calls[0] is relax


def test_one_players_reserve_then_all_equals_all_first() -> None:
    """A bid asks for the agent's own reserve only (:func:`reserve_of`); the others are computed
    later, from the state the holdings were first met in (kept in the memory), so the reserves are
    the same whichever question comes first (the ruin chain starts from each player's square,
    which moves), also after the memory went through its JSON form."""
    s = load_state(INSTANCES / "late-game-house-shortage.json")
    moved = s.copy()
    for p in moved.players:
        if not p.in_jail:
            p.position = (p.position + 7) % moved.board.size
    settings = AgentSettings()
    expected = reserves_for(s, settings, AgentMemory(), DecisionCaches())
    one_first = AgentMemory()
    assert reserve_of(s, 0, settings, one_first, DecisionCaches()) == expected[0]
    one_first = AgentMemory.from_dict(one_first.to_dict())  # the first state is in the memory, not in a cache
    assert reserves_for(moved, settings, one_first, DecisionCaches()) == expected  # completed from the first state, not ``moved``
    assert reserves_for(moved, settings, AgentMemory(), DecisionCaches()) != expected  # the positions do matter: the test can fail


def test_price_ladder_amounts() -> None:
    """``price_ladder`` k samples the play price at now +- step x 2^j for j < k."""
    assert price_amounts(50, AgentSettings()) == [-50, 50, 150]
    assert price_amounts(50, AgentSettings(price_ladder=4)) == [-750, -350, -150, -50, 50, 150, 250, 450, 850]


def test_haggle_reoffers_a_refused_structure_only_at_a_better_price(midgame: GameState, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a refusal, ``haggle`` samples prices only from the refused price + one step up
    (for the counterparty), and offers one of them or nothing; without ``haggle`` the refused
    structure is closed."""
    import solver.decisions.pricing as agent_mod

    me = midgame.player_index("Cy")
    names = tuple(p.name for p in midgame.players)
    sampled: list[list[int]] = []
    real = agent_mod.play_cash

    def spy(*args: object, **kw: object) -> object:
        sampled.append(list(kw["amounts"]))  # type: ignore[arg-type]
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(agent_mod, "play_cash", spy)
    for haggle in (1, 0):
        agent = SubgraphTradeAgent(0, rollouts=80, horizon=10, haggle=haggle, price_ladder=2, hold=True)
        agent.start_game(me, names)
        st, memory, caches = agent.settings, agent.memory, agent.caches
        found = [q for q in search(midgame.copy(), me, st, memory, caches, cycles=False, relaxed=True) if q.kind == "bilateral"]
        assert found, "the mid-game instance has a bilateral trade for Cy"
        r = found[0]
        first = offer_for(midgame.copy(), me, r, st, memory, caches)
        assert first is not None
        other = next(n for n in first.participants() if n != "Cy")
        refused_at = first.net_cash(other)
        agent.notify(Event("trade", me, {"trade": first, "accepted": False, "refused_by": midgame.player_index(other)}))
        assert closed(r, st, memory) is not bool(haggle)
        if not haggle:
            continue
        assert memory.refused_at[trade_key(first)] == refused_at
        offered = [refused_at]
        for _ in range(12):  # each refusal raises the floor; the agent stops once no price leaves it a gain
            sampled.clear()
            again = offer_for(midgame.copy(), me, r, st, memory, caches)
            floor = offered[-1] + st.price_step
            assert sampled and min(sampled[0]) == floor
            if again is None:
                break
            assert again.net_cash(other) >= floor
            offered.append(again.net_cash(other))
            agent.notify(Event("trade", me, {"trade": again, "accepted": False, "refused_by": midgame.player_index(other)}))
        else:
            pytest.fail("the agent kept raising its offer")
        assert len(offered) >= 2  # at least one better offer was made


def test_purchase_cap_bounds_the_haggled_price_of_a_purchase(monkeypatch: pytest.MonkeyPatch) -> None:
    """``purchase_cap`` drops a purchase outside the agent's holdings whose play price passes the
    cap x the printed price (a haggled re-offer above the refused price included); the offer is
    neither counted nor remembered for the answer. Other trades, and a price within the cap, are
    offered as without it. The bargaining is replaced by a stub returning the least sampled
    amount, so the test checks the bound, not the simulation."""
    import solver.decisions.pricing as agent_mod
    from solver.decisions.memory import Queued
    from solver.trades.bargaining import Bargain
    from tests.engine.rules_helpers import make_state

    def least(state: GameState, trade: Trade, a: str, b: str, rs: object, *, amounts: list[int], **kw: object) -> Bargain:
        return Bargain(min(amounts), 0.3, 0.2, 0.0, tuple(amounts), (), ())

    monkeypatch.setattr(agent_mod, "play_cash", least)
    state = make_state(4, owner={37: 1, 5: 0, 21: 3, 16: 0, 18: 2})  # B (1) holds Park Place, Boardwalk in the bank
    buy = Trade.bilateral("A", "B", [], ["Park Place"], 350)
    own = Trade.bilateral("A", "C", [], ["Tennessee Avenue"], 500)  # A holds an orange: not outside its holdings
    for trade, seat, outside in ((buy, 1, True), (own, 2, False)):
        queued = Queued(trade, "bilateral", (0, seat), {"A": 0.05, trade.participants()[1]: -0.05})
        key = trade_key(trade)
        for cap, floor, offered in ((0.0, None, True), (2.0, None, True), (2.0, 650, not outside), (3.0, 650, True), (0.5, None, not outside)):
            memory = AgentMemory()
            if floor is not None:
                memory.refused_at[key] = floor
                memory.refused[key] = 0
            settings = AgentSettings(rollouts=8, horizon=5, purchase_cap=cap)
            offer = offer_for(state.copy(), 0, queued, settings, memory, DecisionCaches())
            assert (offer is not None) is offered, (trade, cap, floor)
            assert memory.offers_made == int(offered) and len(memory.opponents.pending) == int(offered)
            if offer is not None:  # the stub's price: the least sampled, above the refused price by a step
                pay = -offer.net_cash("A")
                assert pay == (floor + 100 if floor is not None else trade.net_cash(trade.participants()[1]) - 100)


def test_haggle_2_offers_a_refused_structure_again_next(midgame: GameState) -> None:
    """With ``haggle=2`` a refused offer goes back to the front of the queue (offered next, at a
    better price); with ``haggle=1`` it waits for a later search."""
    me = midgame.player_index("Cy")
    names = tuple(p.name for p in midgame.players)
    for haggle in (1, 2):
        agent = SubgraphTradeAgent(0, rollouts=80, horizon=10, haggle=haggle, hold=True)
        agent.start_game(me, names)
        first = agent.find_trade(GameView(midgame.copy(), me))
        assert first is not None
        other = next(n for n in first.participants() if n != "Cy")
        agent.notify(Event("trade", me, {"trade": first, "accepted": False, "refused_by": midgame.player_index(other)}))
        queued = [trade_key(q.trade) for q in agent.memory.queue]
        assert (queued[:1] == [trade_key(first)]) is (haggle == 2)
        if haggle == 2:
            again = agent.find_trade(GameView(midgame.copy(), me))
            if again is not None and trade_key(again) == trade_key(first):
                assert again.net_cash(other) >= first.net_cash(other) + agent.settings.price_step


def test_recall_forgets_a_refusal_after_its_rounds(midgame: GameState) -> None:
    """``recall`` R: a refused structure stands refused for R rounds, then returns (price floor
    forgotten: a new refusal sets it afresh); ``recall=0`` keeps it refused for good."""
    me = midgame.player_index("Cy")
    names = tuple(p.name for p in midgame.players)
    for recall in (0, 5):
        agent = SubgraphTradeAgent(0, rollouts=80, horizon=10, recall=recall, haggle=1, hold=True)
        agent.start_game(me, names)
        agent.notify(Event("turn", me, {"round": 10}))
        st, memory = agent.settings, agent.memory
        found = [q for q in search(midgame.copy(), me, st, memory, agent.caches, cycles=False, relaxed=True) if q.kind == "bilateral"]
        r = found[0]
        key = trade_key(r.trade)
        other = next(n for n in r.trade.participants() if n != "Cy")
        high = r.trade.net_cash(other) + 500
        dear = trade_with_cash(r.trade, "Cy", other, high)
        assert dear.net_cash(other) == high
        agent.notify(Event("trade", me, {"trade": dear, "accepted": False, "refused_by": midgame.player_index(other)}))
        assert memory.refused_now(key, recall) and memory.refused_at[key] == high
        agent.notify(Event("turn", me, {"round": 14}))
        assert memory.refused_now(key, recall)
        agent.notify(Event("turn", me, {"round": 15}))
        assert memory.refused_now(key, recall) is (recall == 0)
        assert closed(r, st, memory) is False  # haggle=1: open at a better price, or (recall) open again
        cheap = trade_with_cash(r.trade, "Cy", other, high - 300)
        agent.notify(Event("trade", me, {"trade": cheap, "accepted": False, "refused_by": midgame.player_index(other)}))
        # a standing refusal keeps the best price refused; a forgotten one starts again from this one
        assert memory.refused_at[key] == (high if recall == 0 else high - 300)


def _purchase_search(monkeypatch: pytest.MonkeyPatch, state: GameState, **options: Any) -> tuple[int, list[tuple[int, ...]], Trade | None]:
    """Seat 0's first trade search in ``state`` as a ``SubgraphTradeAgent`` with ``options``: the
    searches run, the lots of every candidate re-scored (in order), and the offer."""
    import solver.decisions.trade_search as agent_mod

    scored: list[tuple[int, ...]] = []
    real = agent_mod.rescore_one

    def spy(state: GameState, c: object, *args: object, **kw: object) -> object:
        scored.append(tuple(sq for sq, _, _ in c.moves))  # type: ignore[attr-defined]
        return real(state, c, *args, **kw)  # type: ignore[arg-type]

    with monkeypatch.context() as m:  # undone on return: each call spies on the real function
        m.setattr(agent_mod, "rescore_one", spy)
        agent = SubgraphTradeAgent(0, rollouts=60, horizon=10, **options)
        agent.start_game(0, tuple(p.name for p in state.players))
        offer = agent.find_trade(GameView(state.copy(), 0))
    return agent.memory.searches, scored, offer


def test_denial_purchases_are_searched_without_a_partial_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``deny`` the agent searches although it has no partial set, and its denial purchases
    are re-scored like the generator's candidates; with ``deny=0`` no search runs at all."""
    from tests.engine.rules_helpers import make_state

    # B (1) holds two orange lots, C (2) the third: B is one short; A (0) holds one railroad only
    state = make_state(4, owner={16: 1, 18: 1, 19: 2, 5: 0, 21: 3})
    assert _purchase_search(monkeypatch, state, deny=0) == (0, [], None)
    searches, scored, offer = _purchase_search(monkeypatch, state, deny=2)
    assert searches == 1 and scored == [(19,), (16,)]  # the missing lot first, then B's
    if offer is not None:
        assert trade_key(offer) in {trade_key(Trade((Transfer("C", "A", ("New York Avenue",), 0),))),
                                    trade_key(Trade((Transfer("B", "A", ("St. James Place",), 0),)))}


def test_bank_denial_purchases_are_searched_without_a_partial_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``deny_bank`` (and no other purchase) the agent searches although it has no partial
    set, and re-scores the opponent's lots of a group whose last lot is in the bank; off, no search."""
    from tests.engine.rules_helpers import make_state

    # B (1) holds Park Place, Boardwalk is in the bank; A (0) holds one railroad only
    state = make_state(4, owner={37: 1, 5: 0, 21: 3})
    assert _purchase_search(monkeypatch, state, deny=0, deny_bank=0) == (0, [], None)
    searches, scored, offer = _purchase_search(monkeypatch, state, deny=0, deny_bank=2)
    assert searches == 1 and scored == [(37,)]
    if offer is not None:
        assert offer.properties_received("A") == ["Park Place"]


def test_default_rollout_policy_is_the_policys_own_default() -> None:
    """The agent's ``sell_premium`` and ``rollout_mortgage`` defaults leave the rollout policy at
    :class:`RolloutPolicy`'s defaults (the agent spells the premium out as a literal)."""
    from engine.sim.rollout_policy import RolloutPolicy

    assert SubgraphTradeAgent(0).settings.rollout_policy == RolloutPolicy()
    assert AgentSettings(sell_premium=500, rollout_mortgage=False).rollout_policy == RolloutPolicy(sell_premium=500, mortgage_to_build=False)
    assert AgentSettings(rollout_trades=False).rollout_policy == RolloutPolicy(trade=False, mortgage_to_build=False)


def test_funded_plan_cache_is_bounded_in_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan entries (by holdings) are cleared before their frontiers pass ``PLAN_CACHE_BYTES``;
    a plan computed after the clearing equals the first one (with fresh caches too)."""
    import solver.decisions.building as agent_mod
    from engine.chains.markov import chain_for
    from solver.analysis.frontier import build_frontier

    state = load_state(INSTANCES / "two-player.json")
    me = state.player_index("Ann")
    st, memory = AgentSettings(), AgentMemory(seat=me)
    first = agent_mod.plan_now(state, me, st, memory, DecisionCaches())
    entry = next(iter(memory.plans.values()))
    frontier = build_frontier(state, me, chain_for(state.board, state.rules), budget=entry.budget)
    assert entry.nbytes == frontier.nbytes == frontier.gains.nbytes + frontier.budgets.nbytes + sum(c.nbytes for c in frontier._choice) > 0
    monkeypatch.setattr(agent_mod, "PLAN_CACHE_BYTES", frontier.nbytes - 1)
    other = state.copy()
    other.mortgaged[next(sq for sq in other.board.property_squares if other.owner[sq] == me and not other.houses[sq])] = True
    memory.plan = None
    agent_mod.plan_now(other, me, st, memory, DecisionCaches())
    assert len(memory.plans) == 1  # cleared before the second entry
    memory.plan = None
    again = agent_mod.plan_now(state, me, st, memory, DecisionCaches())
    assert again == first and len(memory.plans) == 1


def test_strategic_without_trading_neither_proposes_nor_accepts(midgame: GameState) -> None:
    """``strategic:trade=false`` refuses even a gift that ``strategic`` takes, and a game of one
    ``subgraph`` (which proposes) against three of them has no trade (counted from the events)."""
    names = tuple(p.name for p in midgame.players)
    me = midgame.player_index("Bob")
    gift = Trade((Transfer("Ann", "Bob", (), 300),))
    trading, closed_ = factory("strategic")(0), factory("strategic:trade=false")(0)
    for agent in (trading, closed_):
        agent.start_game(me, names)
    assert trading.accept_trade(GameView(midgame, me), gift) is True
    assert closed_.accept_trade(GameView(midgame, me), gift) is False

    kinds: dict[str, int] = {}

    def count(event: Event, _game: Game) -> None:
        if event.kind == "trade":
            key = "accepted" if event.data.get("accepted") else "refused"
            kinds[key] = kinds.get(key, 0) + 1

    stream_seed, seats = game_seeds(game_seed_sequence(3, 0), 4)
    agents = [factory("subgraph:rollouts=40,accept_rollouts=40")(seats[0])] + [factory("strategic:trade=false")(s) for s in seats[1:]]
    Game(GameState.new_game(["A", "B", "C", "D"]), agents, SeededStream(stream_seed), max_rounds=60, observers=[count]).play()
    assert kinds.get("accepted", 0) == 0
    assert kinds.get("refused", 0) > 0  # subgraph did propose: the refusals are the opponents'


def _offers_per_opponent(spec: str, game: int, rounds: int) -> dict[int, int]:
    """The offers ``spec`` (seat 0 of the line-up) made to each of three ``strategic:trade=false``, counted from the events."""
    from engine.tournament.run import seat_game

    nt = "strategic:trade=false"
    order, agents, state, stream = seat_game([factory(s) for s in (spec, nt, nt, nt)], 0, game)
    me = order.index(0)
    offers: dict[int, int] = {}

    def count(event: Event, g: Game) -> None:
        if event.kind == "trade" and event.player == me:
            names = [p.name for p in g.state.players]
            for name in event.data["trade"].participants():
                if names.index(name) != me:
                    offers[names.index(name)] = offers.get(names.index(name), 0) + 1

    Game(state, agents, stream, max_rounds=rounds, observers=[count]).play()
    return offers


def test_deaf_opponents_are_offered_nothing_more() -> None:
    """``deaf_after`` k: an opponent that refused k offers and accepted none gets no more, counted
    from the game's own events; without the option the same game offers them more."""
    spec = "subgraph:rollouts=40,accept_rollouts=40"
    unlimited = _offers_per_opponent(spec + ",deaf_after=0", 2, 150)
    capped = _offers_per_opponent(spec + ",deaf_after=4", 2, 150)
    assert max(unlimited.values()) > 4
    assert max(capped.values()) == 4  # reached, never passed
    assert sum(capped.values()) < sum(unlimited.values())


def test_without_auctions_the_buy_rule_decides() -> None:
    """Under rules without auctions the baseline's buy rule answers (``no_auction_buy="rule"``); with
    auctions, or with ``no_auction_buy="auction"``, the bidding game does. Two-player instance: Ann
    ($560) on St. Charles Place ($140), where the two disagree."""
    from models.rules import Rules
    from models.rules_file import with_rules
    from solver.decisions.baseline import BaselineRules
    from solver.decisions.buying import buy_choice, buy_rule

    state = load_state(INSTANCES / "two-player.json")
    lot = state.square_of("St. Charles Place")
    plain = with_rules(state, Rules(auctions=False))
    ask = lambda s, **kw: buy_choice(GameView(s, 0), 0, lot, AgentSettings(**kw), AgentMemory(), DecisionCaches())  # noqa: E731
    game = ask(state)
    assert game.method == "model" and game.answer is False  # the bidding game declines it
    assert buy_rule(GameView(plain, 0), 0, lot, BaselineRules()) is True  # the rule of thumb buys it
    rule = ask(plain)
    assert rule.answer is True and rule.method == "rule" and "no auctions" in rule.reason
    kept = ask(plain, no_auction_buy="auction")
    assert kept.answer is False and kept.method == "model"
