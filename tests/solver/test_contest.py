"""The auction as a bidding game (solver.bidding.contest).

Independent checks: the tree's costs against the general solvers
(:func:`solver.bidding.richman.richman_costs`, exact, and
:func:`solver.bidding.poorman.poorman_costs`) when every terminal is a win
or a loss; the Poorman threshold against a brute-force solution of the
discrete game (whole-dollar bids, the bank paid) with intermediate
terminals; a two-lot contest recomputed by hand from its terminal values and
the static lot values; a rival with $0 against whom $1 is enough.
"""

from __future__ import annotations

import math
import random
from itertools import product

import networkx as nx
import numpy as np
import pytest

from models.state import GameState
from solver.agents.registry import factory
from solver.bidding.auction import AuctionError
from solver.bidding.contest import (
    contest_bid,
    contest_graph,
    race_costs,
    strongest_rival,
    tree_costs,
)
from solver.bidding.poorman import poorman_costs
from solver.bidding.richman import richman_costs


@pytest.mark.parametrize("u", range(5))
def test_contest_graph_is_the_binary_tree_of_owner_lists(u: int) -> None:
    g = contest_graph(u)
    assert g.number_of_nodes() == 2 ** (u + 1) - 1
    leaves = [v for v in g if g.out_degree(v) == 0]
    assert sorted(leaves) == sorted(product("BR", repeat=u))
    assert all(sorted(g.successors(v)) == [(*v, "B"), (*v, "R")] for v in g if len(v) < u)
    with pytest.raises(ValueError):
        contest_graph(7)


@pytest.mark.parametrize("seed", range(12))
def test_tree_costs_match_the_general_solvers_on_win_loss_terminals(seed: int) -> None:
    rng = random.Random(seed)
    u = rng.randint(1, 4)
    tree = contest_graph(u)
    terminal = {t: rng.choice((0.0, 1.0)) for t in product("BR", repeat=u)}
    terminal[("B",) * u], terminal[("R",) * u] = 0.0, 1.0  # both marked vertices present
    poor, rich = tree_costs(tree, terminal)
    # The same game for the general solvers: each leaf gets one arc to the marked vertex of its outcome.
    g = nx.DiGraph(tree)
    for t, c in terminal.items():
        g.add_edge(t, "blue" if c == 0.0 else "red")
    exact = richman_costs(g, "blue", "red")
    floats = poorman_costs(g, "blue", "red")
    for v in tree:
        assert rich[v] == pytest.approx(float(exact[v]), abs=1e-12)
        assert poor[v] == pytest.approx(floats[v], abs=1e-9)


@pytest.mark.parametrize("seed", range(12))
def test_race_costs_equal_tree_costs_on_the_built_graph(seed: int) -> None:
    """The graph-free recursion contest_bid uses gives exactly the numbers of tree_costs on contest_graph."""
    rng = random.Random(100 + seed)
    u = rng.randint(0, 6)
    terminal = {t: rng.random() for t in product("BR", repeat=u)}
    assert race_costs(u, terminal) == tree_costs(contest_graph(u), terminal)
    with pytest.raises(ValueError):
        race_costs(u, {t: c for t, c in list(terminal.items())[1:]})
    with pytest.raises(ValueError):
        race_costs(7, {})


def _discrete_threshold(tree: nx.DiGraph, terminal: dict[tuple[str, ...], float], total: int) -> float:
    """Brute force: the least share ``a / total`` with which Blue wins the discrete Poorman game at the root.

    Blue holds ``a`` dollars and Red ``b``; both bid whole dollars up to what they hold, the higher bid
    wins (Red wins ties) and pays the bank, the winner moves. At a terminal of cost ``c`` Blue wins when
    its share of the money left exceeds ``c`` (the module's reading). ``W[v][a, b]``: Blue can force a win.
    """
    n = total + 1
    win: dict[tuple[str, ...], np.ndarray] = {}
    for v in reversed(list(nx.topological_sort(tree))):
        succ = list(tree.successors(v))
        w = np.zeros((n, n), bool)
        if not succ:
            c = terminal[v]
            for a in range(n):
                for b in range(n - a):
                    w[a, b] = a > c * (a + b) if a + b else c == 0.0
            win[v] = w
            continue
        any_s = np.logical_or.reduce([win[s] for s in succ])
        all_s = np.logical_and.reduce([win[s] for s in succ])
        for a in range(n):
            for b in range(n - a):
                for i in range(a + 1):
                    blue_ok = i == 0 or any_s[a - i, b]
                    red_ok = i > b or all_s[a, b - i]
                    if blue_ok and red_ok:
                        w[a, b] = True
                        break
        win[v] = w
    root = win[()]
    return min(a for a in range(n) if root[a, total - a]) / total


@pytest.mark.parametrize("costs", [(0.0, 0.5, 0.5, 1.0), (0.0, 0.3, 0.8, 1.0), (0.0, 0.9, 0.1, 1.0)])
def test_poorman_threshold_matches_the_discrete_game_by_brute_force(costs: tuple[float, ...]) -> None:
    tree = contest_graph(2)
    terminal = dict(zip(product("BR", repeat=2), costs))
    poor, _ = tree_costs(tree, terminal)
    total = 60
    # Whole-dollar bids and the tie rule move the threshold by a few dollars in `total` (Develin and Payne).
    assert _discrete_threshold(tree, terminal, total) == pytest.approx(poor[()], abs=4 / total)


def _two_players(cash_a: int = 1500, cash_b: int = 1500) -> GameState:
    s = GameState.new_game(["Ann", "Bob"])
    s.players[0].cash, s.players[1].cash = cash_a, cash_b
    return s


def test_two_lot_contest_bid_equals_the_hand_calculation() -> None:
    s = _two_players(1500, 1200)
    bid = contest_bid(s, "Ann", "Boardwalk", reserve_fn=lambda st, q: 0)
    assert bid.rival == "Bob" and bid.lots == ("Boardwalk", "Park Place")
    assert bid.vertices == 7 and bid.terminals == 4
    # Terminal costs from the evaluation, then the Poorman and Richman recursions by hand.
    w = bid.terminal_win
    top, bottom = max(w.values()), min(w.values())
    c = {t: (top - x) / (top - bottom) for t, x in w.items()}
    assert c["BB"] == 0.0 and c["RR"] == 1.0
    p_b = max(c["BB"], c["BR"]) / (1 + max(c["BB"], c["BR"]) - min(c["BB"], c["BR"]))
    p_r = max(c["RB"], c["RR"]) / (1 + max(c["RB"], c["RR"]) - min(c["RB"], c["RR"]))
    beta = (p_r - p_b) / (1 + p_r - p_b)
    assert bid.poorman_cost == pytest.approx(p_r / (1 + p_r - p_b))
    assert bid.poorman_fraction == pytest.approx(beta)
    assert bid.money == (1500, 1200) and bid.money_in_play == 2700  # both sides' cash
    assert bid.game_bid == math.floor(beta * 2700)
    r_b, r_r = (c["BB"] + c["BR"]) / 2, (c["RB"] + c["RR"]) / 2
    assert bid.richman_fraction == pytest.approx((r_r - r_b) / 2)
    assert bid.richman_bid == math.floor((r_r - r_b) / 2 * 2700)
    assert bid.outbid_cap == 1201 and bid.liquidity_cap == 1500 and bid.risk_cap == 1500
    assert bid.max_bid == min(bid.game_bid, 1201, 1500)
    assert bid.buy_at_list == (400 <= min(bid.game_bid, 1500))


def test_a_rival_with_no_cash_is_outbid_by_one_dollar() -> None:
    s = _two_players(1500, 0)
    bid = contest_bid(s, "Ann", "Boardwalk", reserve_fn=lambda st, q: 0)
    assert bid.outbid_cap == 1
    assert bid.max_bid == 1
    assert bid.money == (1500, 0)


def test_last_lot_of_a_group_is_decisive() -> None:
    # Bob holds Park Place: Boardwalk completes the group for whoever wins it. One step, costs 0 and 1.
    s = _two_players()
    s.owner[s.square_of("Park Place")] = 1
    bid = contest_bid(s, "Ann", "Boardwalk", reserve_fn=lambda st, q: 0)
    assert bid.lots == ("Boardwalk",) and bid.vertices == 3
    assert bid.terminal_cost == {"B": 0.0, "R": 1.0}
    assert bid.poorman_fraction == pytest.approx(0.5) and bid.richman_fraction == pytest.approx(0.5)
    assert bid.game_bid == 1500  # half of the $3,000 in play


def test_strongest_rival_is_the_one_closest_to_completing() -> None:
    s = GameState.new_game(["Ann", "Bob", "Cy", "Dee"])
    s.owner[s.square_of("Park Place")] = 2
    rival, _ = strongest_rival(s, 0, s.square_of("Boardwalk"))
    assert rival == 2  # the only opponent who can complete and holds a lot of the group
    s.owner[s.square_of("Park Place")] = 0  # Ann's own: every opponent can still complete, none holds a lot
    rival, gain = strongest_rival(s, 0, s.square_of("Boardwalk"))
    s1 = s.copy()
    gains = []
    for q in (1, 2, 3):
        s1.owner[s.square_of("Boardwalk")] = q
        from engine.sim.win_model import default_model

        gains.append(default_model().predict(s1)[q] - default_model().predict(s)[q])
    assert rival == 1 + int(np.argmax(gains)) and gain == pytest.approx(max(gains))


def test_contest_errors_and_the_agent_option() -> None:
    s = _two_players()
    s.owner[s.square_of("Boardwalk")] = 1
    with pytest.raises(AuctionError, match="already owned"):
        contest_bid(s, "Ann", "Boardwalk")
    with pytest.raises(AuctionError, match="no property"):
        contest_bid(s, "Ann", "Nowhere")
    assert factory("subgraph")(1).settings.auction == "game"  # type: ignore[attr-defined]
    assert factory("subgraph:auction=simulate")(1).settings.auction == "simulate"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="not one of game, simulate, price"):
        factory("subgraph:auction=policy")(1)


def test_solve_advises_on_the_lot_the_player_stands_on() -> None:
    from pathlib import Path

    from engine.chains.markov import PositionChain
    from models.io import load_state
    from models.state import Phase
    from solver.bidding.auction import auction_bid
    from solver.decide import (
        PURCHASE_CHECK_HORIZON,
        PURCHASE_CHECK_ROLLOUTS,
        purchase_advice,
    )

    state = load_state(Path(__file__).resolve().parents[2] / "instances" / "midgame-no-monopolies.json")
    me = state.to_move
    chain = PositionChain(state.board, state.rules, "long")
    assert purchase_advice(state, me, chain) is None  # phase "start": Cy has not rolled, no purchase is asked
    state.phase = Phase.ROLLED  # Cy has just rolled onto Pennsylvania Avenue
    advice = purchase_advice(state, me, chain, seed=4)
    assert advice is not None
    answer, game = advice  # the answer is the simulation's; the bidding game is a diagnostic
    assert game.property == answer.property == state.board.squares[state.players[me].position].name
    assert game.max_bid == contest_bid(state, me, game.square, chain=chain).max_bid
    again = auction_bid(state, me, game.square, rollouts=PURCHASE_CHECK_ROLLOUTS, horizon=PURCHASE_CHECK_HORIZON, seed=4, chain=chain)
    assert answer.to_dict() == again.to_dict()
    assert answer.buy_at_list == (answer.indifference_price >= answer.list_price)
    other = next(q for q in range(len(state.players)) if q != me)
    assert purchase_advice(state, other, chain) is None  # only the player to move has just landed


def test_relative_risk_lets_a_player_at_risk_deny_a_set() -> None:
    """Bob has hotels on orange and Park Place; Boardwalk would complete dark blue for him. Ann's
    plain reserve is above her cash (she bids 0); with ``relative_risk`` the reserve is the
    smaller :func:`relative_reserve` of the two outcomes, and she bids."""
    from solver.analysis.reserve import cash_reserve, relative_reserve

    s = _two_players(600, 1500)
    for name in ("Tennessee Avenue", "St. James Place", "New York Avenue"):
        sq = s.square_of(name)
        s.owner[sq], s.houses[sq] = 1, 4
    s.owner[s.square_of("Park Place")] = 1
    board = s.square_of("Boardwalk")
    plain = contest_bid(s, "Ann", "Boardwalk", bucket=50, max_cash=2000)
    relaxed = contest_bid(s, "Ann", "Boardwalk", bucket=50, max_cash=2000, relative_risk=True)
    won, lost = s.copy(), s.copy()
    won.owner[board], lost.owner[board] = 0, 1
    assert plain.reserve == cash_reserve(won, 0, bucket=50) > 600 and plain.max_bid == 0
    assert relaxed.reserve == min(plain.reserve, relative_reserve(won, lost, 0, bucket=50, max_cash=2000)) < 600
    assert relaxed.max_bid == min(relaxed.game_bid, relaxed.risk_cap, relaxed.liquidity_cap, relaxed.outbid_cap) > 0
    assert relaxed.terminal_win == plain.terminal_win  # only the cap moves
