"""The auction policy (solver.bidding.auction), its CLI and the agent option.

Independent checks: the two post-auction states at the bracket around ``p*``
rebuilt by hand and simulated directly; the liquidity cap summed by hand from
the instance's holdings; the risk cap checked against the ruin probability
itself (:func:`engine.chains.state_risk.state_ruin_pmf`) at the reserve and one
bucket below it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.chains.state_risk import state_ruin_pmf
from engine.rules.actions import Event
from engine.rules.game import Game
from engine.rules.invariants import InvariantChecker
from engine.rules.streams import SeededStream
from engine.rules.view import GameView
from engine.sim.rollout import paired_delta, simulate
from models.io import load_state
from models.state import GameState
from solver.agents.registry import factory
from solver.agents.strategic import StrategicTradeAgent
from solver.agents.subgraph_agent import SubgraphTradeAgent
from solver.bidding.auction import (
    AuctionError,
    AuctionEvaluator,
    auction_bid,
    liquidity_cap,
)
from solver.bidding.contest import contest_bid
from solver.decisions.reserves import reserves_for
from tests.solver.cli_helpers import run_cli

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
MIDGAME = INSTANCES / "midgame-no-monopolies.json"
ROLLOUTS, HORIZON = 200, 15


@pytest.fixture(scope="module")
def midgame() -> GameState:
    return load_state(MIDGAME)


@pytest.fixture(scope="module")
def cy_bid(midgame: GameState):  # type: ignore[no-untyped-def]
    return auction_bid(midgame, "Cy", "Pennsylvania Avenue", rollouts=ROLLOUTS, horizon=HORIZON, seed=3)


def _owned(state: GameState, square: int, owner: int, price: int) -> GameState:
    s = state.copy()
    s.owner[square] = owner
    s.players[owner].cash -= min(price, s.players[owner].cash)
    return s


def test_bisection_brackets_the_indifference_price(midgame: GameState, cy_bid) -> None:  # type: ignore[no-untyped-def]
    b = cy_bid
    assert not b.censored and 0 < b.indifference_price < midgame.players[2].cash
    lo, hi = b.bracket
    assert lo == b.indifference_price and 0 < hi - lo <= 5
    probes = {p.price: p for p in b.trace}
    assert probes[lo].mine_better and not probes[hi].mine_better  # the sign changes across p*
    assert probes[0].mine_better and not probes[midgame.players[2].cash].mine_better
    # at p* both outcomes are equally good within the noise of the paired games
    for p in (probes[lo], probes[hi]):
        assert abs(p.diff) <= 3 * p.diff_se + 1 / ROLLOUTS
    # rebuilt by hand: Cy owns the lot having paid lo / the rival owns it having paid lo, same seed
    sq = midgame.square_of("Pennsylvania Avenue")
    assert b.rival is not None
    rival = midgame.player_index(b.rival)
    mine = simulate(_owned(midgame, sq, 2, lo), ROLLOUTS, HORIZON, 3)
    theirs = simulate(_owned(midgame, sq, rival, lo), ROLLOUTS, HORIZON, 3)
    assert mine.win_prob["Cy"] == probes[lo].win_if_mine and theirs.win_prob["Cy"] == probes[lo].win_if_rival
    assert paired_delta(theirs, mine, "Cy")[0] == pytest.approx(probes[lo].diff)
    # the rival is the opponent whose win probability rises most with the lot at list price
    base = simulate(midgame, ROLLOUTS, HORIZON, 3)
    gains = {}
    for q in (0, 1, 3):
        name = midgame.players[q].name
        gains[name] = simulate(_owned(midgame, sq, q, 320), ROLLOUTS, HORIZON, 3).win_prob[name] - base.win_prob[name]
    assert b.rival == max(gains, key=lambda n: gains[n]) and b.rival_gain == pytest.approx(gains[b.rival])
    assert b.buy_at_list == (b.list_price <= b.indifference_price)


def test_caps_by_hand() -> None:
    s = load_state(INSTANCES / "mortgaged.json")
    # Ann: $60; light blues carry houses (not mortgageable), Reading and Electric already mortgaged;
    # New York $100 + Indiana $110 + Marvin Gardens $140 can be mortgaged.
    assert liquidity_cap(s, 0) == 60 + 100 + 110 + 140
    # Bob: $280 + Virginia 80 + St. James 90 + North Carolina 150 + Pennsylvania 160 (the rest mortgaged).
    assert liquidity_cap(s, 1) == 280 + 80 + 90 + 150 + 160
    # Risk cap where the reserve binds: Ann ($425) bidding for Boardwalk; her liquidity: every lot
    # unmortgaged and unbuilt, $30 + 110 + 110 + 75 + 140 + 150 + 150.
    s = load_state(INSTANCES / "cycle-four-reserve.json")
    assert liquidity_cap(s, 3) == 260 + 30 + 50 + 100 + 160  # Dee: the orange lots carry houses
    b = auction_bid(s, "Ann", "Boardwalk", rollouts=60, horizon=8, seed=1, bucket=50, max_cash=2000)
    assert b.liquidity_cap == 425 + 765 and b.list_price == 400
    assert b.reserve > 0 and b.risk_cap == 425 - b.reserve
    # the reserve is the ruin threshold after buying: ruin <= 5% with that much cash, > 5% with $50 less
    owned = _owned(s, s.square_of("Boardwalk"), 0, 0)
    assert ruin(owned, 0, b.reserve) <= 0.05 < ruin(owned, 0, b.reserve - 50)
    assert b.max_bid == max(0, min(b.indifference_price, b.liquidity_cap, b.risk_cap))


def ruin(state: GameState, player: int, cash: int, bucket: int = 50, max_cash: int = 2000) -> float:
    """Ruin within 20 turns with ``cash``, forward, on the reserve's grid (cap = wealth at cash ``max_cash``)."""
    s = state.copy()
    s.players[player].cash = 0
    assets = s.liquidation_value(player)
    s.players[player].cash = cash
    return float(state_ruin_pmf(s, player, 20, bucket, cap=assets + max_cash)[1:].sum())


@pytest.mark.parametrize(
    ("instance", "player", "lot"),
    [
        ("midgame-no-monopolies.json", "Ann", "Boardwalk"),
        ("two-player.json", "Bob", "Oriental Avenue"),
        ("near-ruin.json", "Ann", "Pennsylvania Avenue"),
    ],
)
def test_max_bid_is_the_least_component(instance: str, player: str, lot: str) -> None:
    s = load_state(INSTANCES / instance)
    b = auction_bid(s, player, lot, rollouts=80, horizon=10, seed=2)
    assert b.max_bid == max(0, min(b.indifference_price, b.liquidity_cap, b.risk_cap))
    assert 0 <= b.max_bid <= s.players[s.player_index(player)].cash
    assert b.censored == (b.indifference_price == s.players[s.player_index(player)].cash and b.trace[-1].mine_better)


def test_errors(midgame: GameState) -> None:
    with pytest.raises(AuctionError, match="already owned"):
        auction_bid(midgame, "Ann", "Park Place", rollouts=10, horizon=2)
    with pytest.raises(AuctionError, match="no property"):
        auction_bid(midgame, "Ann", "Nowhere", rollouts=10, horizon=2)
    with pytest.raises(AuctionError, match="no player"):
        auction_bid(midgame, "Zed", "Boardwalk", rollouts=10, horizon=2)


def test_cli_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "auction", str(MIDGAME), "--property", "Boardwalk", "--player", "Ann", "--rollouts", "60", "--horizon", "8",
        "--method", "simulate", "--json",
    )  # fmt: skip
    assert code == 0 and err == ""
    doc = json.loads(out)
    for key in ("max_bid", "indifference_price", "liquidity_cap", "risk_cap", "rival", "buy_at_list", "reserve", "trace"):
        assert key in doc
    assert doc["player"] == "Ann" and doc["property"] == "Boardwalk"
    assert doc["max_bid"] == max(0, min(doc["indifference_price"], doc["liquidity_cap"], doc["risk_cap"]))
    code, out, _ = run_cli(capsys, "auction", str(MIDGAME), "--property", "Boardwalk", "--rollouts", "60", "--horizon", "8")
    assert code == 0
    for label in ("max bid", "indifference price", "liquidity cap", "risk cap", "rival", "buy at list", "Poorman", "Richman"):
        assert label in out
    assert out.index("the simulation") < out.index("diagnostic, not the answer: the bidding game")
    # Both methods in one JSON object: one verdict, the simulation's; the bidding game's figures
    # under diagnostics without a max_bid or buy_at_list of their own.
    code, out, _ = run_cli(capsys, "auction", str(MIDGAME), "--property", "Boardwalk", "--rollouts", "60", "--horizon", "8", "--json")
    doc = json.loads(out)
    game = doc["diagnostics"]["bidding_game"]
    assert doc["method"] == "simulation" and game["method"] == "bidding-game" and game["player"] == doc["player"]
    assert doc["max_bid"] == max(0, min(doc["indifference_price"], doc["liquidity_cap"], doc["risk_cap"]))
    assert "max_bid" not in game and "buy_at_list" not in game
    assert game["vertices"] == 3 and game["terminals"] == 2  # Park Place is owned: Boardwalk alone is contested
    code, out, _ = run_cli(capsys, "auction", str(MIDGAME), "--property", "Boardwalk", "--method", "game", "--json")
    doc = json.loads(out)  # the bidding game asked for alone is the answer, with its caps
    assert doc["method"] == "bidding-game"
    assert doc["max_bid"] == max(0, min(doc["game_bid"], doc["outbid_cap"], doc["liquidity_cap"], doc["risk_cap"]))


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--property", "Nowhere"], "no property named 'Nowhere'"),
        (["--property", "Park Place"], "already owned"),
        (["--property", "Boardwalk", "--player", "Zed"], "no player named 'Zed'"),
    ],
)
def test_cli_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], needle: str) -> None:
    code, out, err = run_cli(capsys, "auction", str(MIDGAME), *args)
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1


# ---------------------------------------------------------------------------
# the agent option


def test_agent_option_and_registry() -> None:
    assert SubgraphTradeAgent(0).settings.auction == "game"  # the default: the bidding game (solver.bidding.contest)
    agent = factory("subgraph:auction=simulate")(1)
    assert isinstance(agent, SubgraphTradeAgent) and agent.settings.auction == "simulate"
    with pytest.raises(ValueError, match="auction"):
        SubgraphTradeAgent(0, auction="cheap")


def test_agent_decisions_follow_the_policy(midgame: GameState) -> None:
    me = midgame.player_index("Cy")
    sq = midgame.square_of("Pennsylvania Avenue")
    agent = SubgraphTradeAgent(0, auction="simulate", auction_rollouts=100, auction_horizon=10, auction_sure_buy=10_000)
    agent.start_game(me, tuple(p.name for p in midgame.players))
    view = GameView(midgame, me)
    bid = agent.auction_max(view, sq)
    (ev,) = agent.caches.entries("auction")
    assert isinstance(ev, AuctionEvaluator)
    assert 0 <= bid <= midgame.players[me].cash
    assert agent.buy(view, sq) == ev.prefers_winning_at(320)
    assert agent.caches.entries("auction") == [ev] and agent.memory.auction_seeds == 1  # same state: reused
    # plenty of cash: buys without simulating
    rich = SubgraphTradeAgent(0, auction="simulate", auction_sure_buy=100)
    rich.start_game(me, tuple(p.name for p in midgame.players))
    assert rich.buy(view, sq) is True and rich.memory.auction is None
    # "price" keeps the baseline's rules
    price = SubgraphTradeAgent(0, auction="price")
    price.start_game(me, tuple(p.name for p in midgame.players))
    base = StrategicTradeAgent(0)
    base.start_game(me, tuple(p.name for p in midgame.players))
    assert price.auction_max(view, sq) == base.auction_max(view, sq) and price.buy(view, sq) == base.buy(view, sq)


def test_agent_game_decisions_are_the_contest_bid(midgame: GameState) -> None:
    me = midgame.player_index("Cy")
    sq = midgame.square_of("Pennsylvania Avenue")
    agent = SubgraphTradeAgent(0, auction_sure_buy=10_000)
    agent.start_game(me, tuple(p.name for p in midgame.players))
    view = GameView(midgame, me)
    want = contest_bid(midgame, me, sq, reserve_fn=lambda s, q: reserves_for(s, agent.settings, agent.memory, agent.caches).get(q, 0))
    assert agent.auction_max(view, sq) == want.max_bid
    assert agent.buy(view, sq) == want.buy_at_list
    cached = agent.caches.entries("contest")
    agent.buy(view, sq)
    assert agent.caches.entries("contest") == cached and len(cached) == 1  # same state: reused
    rich = SubgraphTradeAgent(0, auction_sure_buy=100)
    rich.start_game(me, tuple(p.name for p in midgame.players))
    assert rich.buy(view, sq) is True and rich.caches.entries("contest") == []


class Counter:
    def __init__(self) -> None:
        self.kinds: dict[str, int] = {}

    def __call__(self, event: Event, game: Game) -> None:
        self.kinds[event.kind] = self.kinds.get(event.kind, 0) + 1


def _short_game(agent: SubgraphTradeAgent) -> Counter:
    """60 rounds of ``agent`` against three baselines, every invariant checked; the event counts."""
    agents = [agent, *(StrategicTradeAgent(s) for s in (6, 7, 8))]
    state = GameState.new_game(["P1", "P2", "P3", "P4"])
    checker = InvariantChecker(strict=True)
    counter = Counter()
    result = Game(state, agents, SeededStream(12), max_rounds=60, observers=[checker, counter]).play()
    assert result.rounds <= 60 and checker.violations == []
    assert counter.kinds.get("buy", 0) > 0
    return counter


def test_agent_policy_in_a_short_game() -> None:
    agent = SubgraphTradeAgent(
        5, rollouts=60, horizon=8, accept_rollouts=80, auction="simulate", auction_rollouts=60, auction_horizon=8, auction_sure_buy=900
    )
    _short_game(agent)
    assert agent.memory.auction is not None  # the policy was consulted


def test_agent_game_auctions_in_a_short_game() -> None:
    agent = SubgraphTradeAgent(5, rollouts=60, horizon=8, accept_rollouts=80, auction_sure_buy=900)
    _short_game(agent)
    assert agent.caches.entries("contest") and agent.caches.auction_seconds > 0  # the bidding game was consulted
