"""Richman and Poorman bidding games (solver.bidding) against hand answers, closed forms and brute force."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solver.bidding.graph import (
    BiddingGameError,
    Moves,
    graph_from_json,
    optimal_moves,
    prepare,
)
from solver.bidding.poorman import poorman_bids, poorman_costs
from solver.bidding.richman import (
    richman_bids,
    richman_costs,
    richman_costs_finite,
    richman_exact,
)
from tests.solver.cli_helpers import run_cli

F = Fraction
SQRT2, SQRT5 = math.sqrt(2), math.sqrt(5)


# ---------------------------------------------------------------------------
# helpers: graphs and an independent value iteration


def digraph(edges: dict[str, list[str]]) -> nx.DiGraph:
    g = nx.DiGraph()
    for v, ws in edges.items():
        g.add_node(v)
        for w in ws:
            g.add_edge(v, w)
    return g


def line(k: int) -> tuple[nx.DiGraph, list[str]]:
    """b - v1 - ... - vk - r, each inner vertex moving to either neighbour."""
    names = ["b", *(f"v{i}" for i in range(1, k + 1)), "r"]
    return digraph({names[i]: [names[i - 1], names[i + 1]] for i in range(1, k + 1)}), names


def reaches_both(g: nx.DiGraph, blue: str, red: str) -> bool:
    play = g.copy()
    play.remove_edges_from(list(play.out_edges([blue, red])))
    return all(
        nx.has_path(play, v, blue) and nx.has_path(play, v, red) for v in play.nodes if v not in (blue, red)
    )


def random_graph(rng: np.random.Generator, n: int) -> nx.DiGraph:
    names = [f"v{i}" for i in range(n)]
    g = nx.DiGraph()
    g.add_nodes_from(["b", "r", *names])
    for v in names:
        for w in rng.choice([*names, "b", "r"], size=int(rng.integers(1, 4))):
            g.add_edge(v, str(w))
    return g


def random_games(seed: int, count: int, both: bool) -> list[nx.DiGraph]:
    """``count`` random valid games on 1..10 inner vertices; ``both``: every vertex reaches both targets."""
    rng = np.random.default_rng(seed)
    out: list[nx.DiGraph] = []
    while len(out) < count:
        g = random_graph(rng, int(rng.integers(1, 11)))
        try:
            prepare(g, "b", "r")
        except BiddingGameError:
            continue
        if both and not reaches_both(g, "b", "r"):
            continue
        out.append(g)
    return out


def value_iteration(g: nx.DiGraph, blue: str, red: str, kind: str, start: float, sweeps: int = 100_000) -> dict[str, float]:
    """Plain float iteration of the defining recurrence from ``start`` (independent of the module)."""
    nodes = list(g.nodes)
    at = {v: i for i, v in enumerate(nodes)}
    x = np.array([0.0 if v == blue else 1.0 if v == red else start for v in nodes])
    inner = [v for v in nodes if v not in (blue, red)]
    dst: list[int] = []
    starts: list[int] = []
    for v in inner:
        starts.append(len(dst))
        dst.extend(at[w] for w in g.successors(v))
    idx, dst_a, starts_a = np.array([at[v] for v in inner]), np.array(dst), np.array(starts)
    for _ in range(sweeps):
        vals = x[dst_a]
        hi, lo = np.maximum.reduceat(vals, starts_a), np.minimum.reduceat(vals, starts_a)
        new = (hi + lo) / 2 if kind == "richman" else hi / (1 + hi - lo)
        change = float(np.max(np.abs(new - x[idx])))
        x[idx] = new
        if change < 1e-15:
            break
    return dict(zip(nodes, (float(c) for c in x), strict=True))


def assert_richman_fixed_point(g: nx.DiGraph, blue: str, red: str, costs: dict[str, Fraction]) -> None:
    assert costs[blue] == 0 and costs[red] == 1
    for v in g.nodes:
        if v in (blue, red):
            continue
        succ = [costs[w] for w in g.successors(v)]
        assert 2 * costs[v] == max(succ) + min(succ), v  # exact


def poorman_residual(g: nx.DiGraph, blue: str, red: str, costs: dict[str, float]) -> float:
    worst = abs(costs[blue]) + abs(costs[red] - 1)
    for v in g.nodes:
        if v in (blue, red):
            continue
        succ = [costs[w] for w in g.successors(v)]
        hi, lo = max(succ), min(succ)
        worst = max(worst, abs(costs[v] - hi / (1 + hi - lo)))
    return worst


# ---------------------------------------------------------------------------
# (a) hand-computed examples


def test_one_vertex_between_the_targets() -> None:
    g = digraph({"v": ["b", "r"]})
    assert richman_costs(g, "b", "r") == {"v": F(1, 2), "b": 0, "r": 1}
    assert richman_bids(g, "b", "r") == {"v": F(1, 2)}
    # Poorman: P+ = 1, P- = 0, so P = 1 / (1 + 1) = 1/2 and the bid is 1 / 2 of the money in play.
    assert poorman_costs(g, "b", "r")["v"] == pytest.approx(0.5, abs=1e-12)
    assert poorman_bids(g, "b", "r")["v"] == pytest.approx(0.5, abs=1e-12)
    assert optimal_moves(g, "b", "r", richman_costs(g, "b", "r")) == {"v": Moves("b", "r")}


def test_one_way_chain() -> None:
    # v1 -> {b, v2}, v2 -> {b, r}.  Richman: R(v2) = (1 + 0)/2 = 1/2, R(v1) = (1/2 + 0)/2 = 1/4.
    # Poorman: P(v2) = 1/(1 + 1) = 1/2, P(v1) = (1/2)/(1 + 1/2) = 1/3, bid(v1) = (1/2)/(3/2) = 1/3.
    g = digraph({"v1": ["b", "v2"], "v2": ["b", "r"]})
    assert richman_costs(g, "b", "r") == {"v1": F(1, 4), "b": 0, "v2": F(1, 2), "r": 1}
    assert richman_bids(g, "b", "r") == {"v1": F(1, 4), "v2": F(1, 2)}
    p = poorman_costs(g, "b", "r")
    assert p["v1"] == pytest.approx(1 / 3, abs=1e-12) and p["v2"] == pytest.approx(0.5, abs=1e-12)
    assert poorman_bids(g, "b", "r")["v1"] == pytest.approx(1 / 3, abs=1e-12)


def test_two_way_line_is_linear_for_richman() -> None:
    # Each inner vertex averages its two neighbours, so R is linear: R(v_i) = i / (k + 1).
    k = 5
    g, names = line(k)
    costs = richman_costs(g, "b", "r")
    assert costs == {names[i]: F(i, k + 1) for i in range(k + 2)}
    assert set(richman_bids(g, "b", "r").values()) == {F(1, k + 1)}  # (R+ - R-)/2 = (2/(k+1))/2
    moves = optimal_moves(g, "b", "r", costs)
    assert all(moves[names[i]] == Moves(names[i - 1], names[i + 1]) for i in range(1, k + 1))


def test_two_way_line_poorman_closed_form() -> None:
    # k = 5: symmetry gives P(v3) = 1/2 and P(v_i) + P(v_{6-i}) = 1; P(v1) = P2 / (1 + P2) and
    # P2 = (1/2) / (1 + 1/2 - P1) give P2^2 + 2 P2 - 1 = 0, so P2 = sqrt 2 - 1 and P1 = 1 - 1/sqrt 2.
    g, names = line(5)
    p = poorman_costs(g, "b", "r")
    want = [0, 1 - 1 / SQRT2, SQRT2 - 1, 0.5, 2 - SQRT2, 1 / SQRT2, 1]
    for name, value in zip(names, want, strict=True):
        assert p[name] == pytest.approx(value, abs=1e-12)


def test_cycle_richman_and_poorman_golden_ratio() -> None:
    # u -> {b, w}, w -> {u, r}.  Richman: R(u) = R(w)/2, R(w) = (1 + R(u))/2, so R = 1/3, 2/3.
    # Poorman: P(u) = a / (1 + a) with a = P(w), and a = 1 / (2 - P(u)) give a^2 + a - 1 = 0:
    # P(w) = (sqrt 5 - 1)/2, P(u) = (3 - sqrt 5)/2, both bids (P+ - P-)/(1 + P+ - P-) = (3 - sqrt 5)/2.
    g = digraph({"u": ["b", "w"], "w": ["u", "r"]})
    assert richman_costs(g, "b", "r") == {"u": F(1, 3), "b": 0, "w": F(2, 3), "r": 1}
    assert richman_bids(g, "b", "r") == {"u": F(1, 3), "w": F(1, 3)}
    p = poorman_costs(g, "b", "r")
    assert p["w"] == pytest.approx((SQRT5 - 1) / 2, abs=1e-12)
    assert p["u"] == pytest.approx((3 - SQRT5) / 2, abs=1e-12)
    bids = poorman_bids(g, "b", "r")
    assert bids["u"] == pytest.approx((3 - SQRT5) / 2, abs=1e-12) and bids["w"] == pytest.approx((3 - SQRT5) / 2, abs=1e-12)
    # Poorman differs from Richman here (irrational against 1/3, 2/3) and on the chain (1/3 against 1/4),
    # but not where every successor is a target (test_one_vertex_between_the_targets).
    assert abs(p["u"] - 1 / 3) > 0.04 and abs(p["w"] - 2 / 3) > 0.04


def series_probability(blue_needs: int, red_needs: int) -> Fraction:
    """Chance that Red's team takes ``red_needs`` fair games before Blue's team takes ``blue_needs`` (closed form)."""
    return sum((F(math.comb(red_needs - 1 + k, k), 2 ** (red_needs + k)) for k in range(blue_needs)), F(0))


def test_seed_world_series_example() -> None:
    # The seed's betting interpretation: a best-of-seven series, each vertex a score, one successor for
    # each team winning the next game. With exactly two successors R is the fair-coin probability that
    # the red team takes the series, and the bet at (i, j) is half the gap between the two outcomes.
    g = nx.DiGraph()
    for i in range(4):
        for j in range(4):
            g.add_edge((i, j), "B" if i == 3 else (i + 1, j))
            g.add_edge((i, j), "R" if j == 3 else (i, j + 1))
    costs = richman_costs(g, "B", "R")
    for i in range(4):
        for j in range(4):
            assert costs[(i, j)] == series_probability(4 - i, 4 - j)
    assert costs[(0, 0)] == F(1, 2) and costs[(3, 3)] == F(1, 2)
    assert costs[(1, 0)] == F(11, 32) and costs[(0, 1)] == F(21, 32)
    assert costs[(3, 0)] == F(1, 16) and costs[(2, 1)] == F(5, 16)
    # Starting with half a grand, the first bet is (21/32 - 11/32)/2 = 5/32 of a grand ($156.25).
    assert richman_bids(g, "B", "R")[(0, 0)] == F(5, 32)


def test_self_loops_and_one_sided_vertices() -> None:
    g = digraph(
        {
            "s": ["s", "b", "r"],  # a pass does not change the extremes: 1/2
            "t": ["t", "b"],  # reaches only blue: 0
            "q": ["q", "r"],  # reaches only red: 1
            "v": ["t", "q"],  # (0 + 1)/2
        }
    )
    costs = richman_costs(g, "b", "r")
    assert costs == {"s": F(1, 2), "b": 0, "r": 1, "t": 0, "q": 1, "v": F(1, 2)}
    p = poorman_costs(g, "b", "r")
    assert p["t"] == 0 and p["q"] == 1 and p["s"] == pytest.approx(0.5) and p["v"] == pytest.approx(0.5)
    moves = optimal_moves(g, "b", "r", costs)
    assert moves["t"].blue == "b"  # not the self-loop: the tie goes to the move that makes progress
    assert moves["q"].red == "r"
    assert moves["v"] == Moves("t", "q")
    assert richman_bids(g, "b", "r", costs)["t"] == 0


def test_zero_bid_where_all_successors_cost_the_same() -> None:
    # Every successor of v costs 1/2, so the fair price of a move is 0 (as at the vertex v of the seed's
    # Figure 1): Blue cannot safely bid anything and relies on tie-breaks.
    g = digraph({"v": ["x", "y"], "x": ["b", "r"], "y": ["v", "b", "r"]})
    costs = richman_costs(g, "b", "r")
    assert costs["v"] == costs["x"] == costs["y"] == F(1, 2)
    assert richman_bids(g, "b", "r", costs)["v"] == 0
    assert poorman_bids(g, "b", "r")["v"] == pytest.approx(0.0, abs=1e-12)


def test_arcs_leaving_the_targets_are_ignored() -> None:
    g = digraph({"v": ["b", "r"], "b": ["v"], "r": ["r"]})
    assert richman_costs(g, "b", "r") == {"v": F(1, 2), "b": 0, "r": 1}
    assert set(richman_bids(g, "b", "r")) == {"v"}


# ---------------------------------------------------------------------------
# (b) Richman: exact certification and brute force


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_richman_matches_value_iteration(seed: int) -> None:
    for g in random_games(seed, 25, both=True):
        costs = richman_costs(g, "b", "r")
        assert all(isinstance(c, Fraction) for c in costs.values())
        assert_richman_fixed_point(g, "b", "r", costs)
        for start in (0.0, 1.0):
            approx = value_iteration(g, "b", "r", "richman", start)
            assert all(abs(approx[v] - float(costs[v])) <= 1e-9 for v in g.nodes)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    st.integers(min_value=1, max_value=8).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(min_value=0, max_value=n + 1), min_size=1, max_size=4), min_size=n, max_size=n
        )
    )
)
def test_richman_certified_on_arbitrary_valid_graphs(succ: list[list[int]]) -> None:
    # Vertex n is blue, n + 1 red; one-sided vertices (cost 0 or 1) are allowed here.
    n = len(succ)
    g = nx.DiGraph()
    g.add_nodes_from(range(n + 2))
    g.add_edges_from((v, w) for v, ws in enumerate(succ) for w in ws)
    try:
        prepare(g, n, n + 1)
    except BiddingGameError:
        assume(False)
    costs = richman_costs(g, n, n + 1)
    assert_richman_fixed_point(g, n, n + 1, costs)
    bids = richman_bids(g, n, n + 1, costs)
    moves = optimal_moves(g, n, n + 1, costs)
    for v in range(n):
        succ_costs = [costs[w] for w in g.successors(v)]
        assert bids[v] == costs[v] - min(succ_costs) == max(succ_costs) - costs[v]
        assert costs[moves[v].blue] == min(succ_costs) and costs[moves[v].red] == max(succ_costs)


def test_exact_phase_recovers_from_any_starting_strategies() -> None:
    # The exact strategy improvement is the safety net behind the floating-point LP phase.
    rng = np.random.default_rng(7)
    for g in random_games(11, 40, both=False):
        game = prepare(g, "b", "r")
        want = list(richman_costs(g, "b", "r").values())  # in graph order, like game.nodes
        sigma = {v: int(rng.choice(game.succ[v])) for v in game.free}
        tau = {v: int(rng.choice(game.succ[v])) for v in game.free}
        got, _ = richman_exact(game, sigma, tau)
        assert got == want


def test_richman_on_a_long_line() -> None:
    g, names = line(120)
    assert richman_costs(g, "b", "r") == {names[i]: F(i, 121) for i in range(122)}


# ---------------------------------------------------------------------------
# (c) finite horizon


def test_finite_horizon_base_case_and_first_steps() -> None:
    g = digraph({"v1": ["b", "v2"], "v2": ["b", "r"]})
    assert richman_costs_finite(g, "b", "r", 0) == {"v1": 1, "b": 0, "v2": 1, "r": 1}
    assert richman_costs_finite(g, "b", "r", 1) == {"v1": F(1, 2), "b": 0, "v2": F(1, 2), "r": 1}
    assert richman_costs_finite(g, "b", "r", 2) == {"v1": F(1, 4), "b": 0, "v2": F(1, 2), "r": 1}
    assert richman_costs_finite(g, "b", "r", 0, lower=True) == {"v1": 0, "b": 0, "v2": 0, "r": 1}


@pytest.mark.parametrize("case", ["line", "cycle", "random"])
def test_finite_horizon_converges_monotonically(case: str) -> None:
    if case == "line":
        graphs = [line(5)[0]]
    elif case == "cycle":
        graphs = [digraph({"u": ["b", "w"], "w": ["u", "r"], "s": ["s", "u", "w"]})]
    else:
        graphs = random_games(5, 6, both=True)
    for g in graphs:
        limit = richman_costs(g, "b", "r")
        above_prev = below_prev = None
        for t in range(0, 121, 4):
            above = richman_costs_finite(g, "b", "r", t)
            below = richman_costs_finite(g, "b", "r", t, lower=True)
            for v in g.nodes:
                assert below[v] <= limit[v] <= above[v]
                if above_prev is not None and below_prev is not None:
                    assert above[v] <= above_prev[v] and below[v] >= below_prev[v]
            above_prev, below_prev = above, below
        assert above_prev is not None and below_prev is not None
        assert max(float(above_prev[v] - below_prev[v]) for v in g.nodes) < 1e-6


# ---------------------------------------------------------------------------
# (d) Poorman


@pytest.mark.parametrize("seed", [1, 2])
def test_poorman_fixed_point_and_value_iteration(seed: int) -> None:
    for g in random_games(seed, 25, both=True):
        costs = poorman_costs(g, "b", "r")
        assert poorman_residual(g, "b", "r", costs) <= 1e-9
        for start in (0.0, 1.0):
            approx = value_iteration(g, "b", "r", "poorman", start)
            assert all(abs(approx[v] - costs[v]) <= 1e-9 for v in g.nodes)
        bids = poorman_bids(g, "b", "r", costs)
        for v in bids:
            s = [costs[w] for w in g.successors(v)]
            assert bids[v] == pytest.approx((max(s) - min(s)) / (1 + max(s) - min(s)), abs=1e-12)


def test_poorman_fixed_point_with_one_sided_vertices() -> None:
    # Value iteration alone crawls here (P = 1/(2 - P) has a double root at 1); settling first avoids it.
    for g in random_games(9, 40, both=False):
        assert poorman_residual(g, "b", "r", poorman_costs(g, "b", "r")) <= 1e-9
    g = digraph({"q": ["q", "r"], "v": ["q", "b"]})
    assert poorman_costs(g, "b", "r") == {"q": 1.0, "r": 1.0, "v": 0.5, "b": 0.0}


def test_poorman_long_line_needs_the_newton_polish() -> None:
    # 400 vertices: value iteration would need ~10^5 sweeps; the answer is symmetric, P(v_i) + P(v_{k+1-i}) = 1.
    k = 401
    g, names = line(k)
    p = poorman_costs(g, "b", "r")
    assert poorman_residual(g, "b", "r", p) <= 1e-12
    assert p[names[201]] == pytest.approx(0.5, abs=1e-9)
    assert all(abs(p[names[i]] + p[names[k + 1 - i]] - 1) <= 1e-9 for i in range(k + 2))
    assert all(p[names[i]] < p[names[i + 1]] for i in range(k + 1))


def test_poorman_and_richman_differ_where_expected() -> None:
    chain = digraph({"v1": ["b", "v2"], "v2": ["b", "r"]})
    r, p = richman_costs(chain, "b", "r"), poorman_costs(chain, "b", "r")
    assert p["v2"] == pytest.approx(float(r["v2"]))  # successors are the targets: both 1/2
    assert p["v1"] > float(r["v1"]) + 0.08  # 1/3 against 1/4
    g, _ = line(5)
    r, p = richman_costs(g, "b", "r"), poorman_costs(g, "b", "r")
    assert p["v3"] == pytest.approx(0.5) and r["v3"] == F(1, 2)
    assert p["v1"] > float(r["v1"]) and p["v5"] < float(r["v5"])


# ---------------------------------------------------------------------------
# (e) errors


@pytest.mark.parametrize(
    ("edges", "blue", "red", "needle"),
    [
        ({"v": ["b", "r"]}, "b", "x", "red vertex 'x' is not in the graph"),
        ({"v": ["b", "r"]}, "y", "r", "blue vertex 'y' is not in the graph"),
        ({"v": ["b", "r"]}, "b", "b", "blue and red must be different vertices, both are 'b'"),
        ({"v": ["b", "r", "d"]}, "b", "r", "vertex 'd' has no successors"),
        ({"v": ["b", "r"], "loop": ["loop"]}, "b", "r", "vertex 'loop' can reach neither blue 'b' nor red 'r'"),
        ({"v": ["b", "r"], "x": ["y"], "y": ["x"]}, "b", "r", "vertex 'x' can reach neither"),
    ],
)
def test_bad_graphs(edges: dict[str, list[str]], blue: str, red: str, needle: str) -> None:
    g = digraph(edges)
    for solve in (richman_costs, poorman_costs, richman_bids, poorman_bids):
        with pytest.raises(BiddingGameError, match=needle) as info:
            solve(g, blue, red)
        assert isinstance(info.value, ValueError) and "\n" not in str(info.value)
    with pytest.raises(BiddingGameError, match=needle):
        richman_costs_finite(g, blue, red, 3)


def test_other_bad_arguments() -> None:
    g = digraph({"v": ["b", "r"]})
    with pytest.raises(BiddingGameError, match="networkx.DiGraph"):
        richman_costs(nx.Graph([("v", "b"), ("v", "r")]), "b", "r")
    with pytest.raises(BiddingGameError, match="t: the horizon"):
        richman_costs_finite(g, "b", "r", -1)
    with pytest.raises(BiddingGameError, match="costs: no cost for vertex 'v'"):
        richman_bids(g, "b", "r", {"b": F(0), "r": F(1)})


@pytest.mark.parametrize(
    ("doc", "needle"),
    [
        ([1, 2], "must be a JSON object"),
        ({"red": "r", "edges": {}}, "blue: missing"),
        ({"blue": "b", "edges": {}}, "red: missing"),
        ({"blue": "b", "red": "r"}, "edges: missing"),
        ({"blue": 3, "red": "r", "edges": {}}, "blue: must be a vertex name"),
        ({"blue": "b", "red": "r", "edges": []}, "edges: must be an object"),
        ({"blue": "b", "red": "r", "edges": {"v": "b"}}, 'edges\\["v"\\]: must be a list'),
        ({"blue": "b", "red": "r", "edges": {"v": ["b", 7]}}, 'edges\\["v"\\]\\[1\\]: must be a vertex name'),
        ({"blue": "b", "red": "r", "edges": {"v": ["b"]}}, "red: 'r' does not appear in edges"),
        ({"blue": "b", "red": "b", "edges": {"v": ["b"]}}, "red: must differ from blue"),
        ({"blue": "b", "red": "r", "edges": {"v": ["b", "r"]}, "extra": 1}, "extra: unknown field"),
    ],
)
def test_graph_from_json_errors_name_the_field(doc: object, needle: str) -> None:
    with pytest.raises(BiddingGameError, match=needle):
        graph_from_json(doc)


def test_graph_from_json() -> None:
    g, blue, red = graph_from_json({"blue": "b", "red": "r", "edges": {"u": ["b", "w"], "w": ["u", "r"]}})
    assert (blue, red) == ("b", "r")
    assert list(g.nodes) == ["u", "b", "w", "r"]
    assert sorted(g.edges) == [("u", "b"), ("u", "w"), ("w", "r"), ("w", "u")]


# ---------------------------------------------------------------------------
# (f) the command line

GAME = {"blue": "b", "red": "r", "edges": {"u": ["b", "w"], "w": ["u", "r"], "s": ["s", "b", "r"]}}


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GAME), encoding="utf-8")
    return path


def test_cli_richman_json(capsys: pytest.CaptureFixture[str], game_file: Path) -> None:
    code, out, err = run_cli(capsys, "bidding-game", str(game_file), "--kind", "richman", "--json")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert set(doc) == {"schema", "costs", "bids", "costs_exact"}
    assert doc["costs_exact"] == {"u": "1/3", "b": "0", "w": "2/3", "r": "1", "s": "1/2"}
    assert doc["costs"] == {"u": pytest.approx(1 / 3), "b": 0, "w": pytest.approx(2 / 3), "r": 1, "s": 0.5}
    assert doc["bids"] == {"u": pytest.approx(1 / 3), "w": pytest.approx(1 / 3), "s": 0.5}


def test_cli_poorman_json(capsys: pytest.CaptureFixture[str], game_file: Path) -> None:
    code, out, err = run_cli(capsys, "bidding-game", str(game_file), "--kind", "poorman", "--json")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert set(doc) == {"schema", "costs", "bids"}
    assert doc["costs"]["w"] == pytest.approx((SQRT5 - 1) / 2, abs=1e-9)
    assert doc["costs"]["u"] == pytest.approx((3 - SQRT5) / 2, abs=1e-9)
    assert set(doc["bids"]) == {"u", "w", "s"}


def test_cli_text(capsys: pytest.CaptureFixture[str], game_file: Path) -> None:
    code, out, err = run_cli(capsys, "bidding-game", str(game_file), "--kind", "richman")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("Richman game, 5 vertices")
    assert any(line.split()[:5] == ["u", "1/3", "=", "0.333333", "1/3"] and line.split()[-2:] == ["b", "w"] for line in lines)
    assert any(line.split()[:3] == ["b", "0", "-"] for line in lines)
    code, out, _ = run_cli(capsys, "bidding-game", str(game_file), "--kind", "poorman")
    assert code == 0 and "0.618033989" in out


def test_cli_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    code, out, err = run_cli(capsys, "bidding-game", str(missing), "--kind", "richman")
    assert (code, out) == (2, "") and err.count("\n") == 1 and "missing.json" in err
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{", encoding="utf-8")
    code, out, err = run_cli(capsys, "bidding-game", str(bad_json), "--kind", "poorman")
    assert (code, out) == (2, "") and err.count("\n") == 1 and "not valid JSON" in err
    bad_game = tmp_path / "game.json"
    bad_game.write_text(json.dumps({"blue": "b", "red": "r", "edges": {"v": ["b", "r"], "x": ["x"]}}), encoding="utf-8")
    code, out, err = run_cli(capsys, "bidding-game", str(bad_game), "--kind", "richman", "--json")
    assert (code, out) == (2, "") and err == f"{bad_game}: vertex 'x' can reach neither blue 'b' nor red 'r'\n"
    code, _, err = run_cli(capsys, "bidding-game", str(bad_game))
    assert code == 2 and "--kind" in err
