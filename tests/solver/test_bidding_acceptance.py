"""Acceptance tests with known answers for :mod:`solver.bidding`.

What ``tests/solver/test_bidding.py`` already covers is not repeated: there the
two-way line is checked for one length (5 inner vertices) and a long one (120),
its Poorman costs for 5 inner vertices, and strategy improvement against value
iteration on random graphs of at most 10 inner vertices. Here:

* the path ``b - 1 - ... - (n-1) - r`` for several ``n`` (also built from its
  JSON form): Richman cost ``k / n`` exactly, every bid ``1 / n``, Blue moves
  down and Red up;
* the Poorman costs of that path for ``n = 4``: ``1/3, 1/2, 2/3`` (by hand:
  ``P(2) = 1/2`` by symmetry, ``P(1) = P(2) / (1 + P(2) - 0) = 1/3``,
  ``P(3) = 1 / (1 + 1 - P(2)) = 2/3``, and ``P(2) = P(3) / (1 + P(3) - P(1))
  = (2/3) / (4/3) = 1/2`` closes the system) and bids ``1/3, 1/4, 1/3``;
* random-turn games on small cyclic graphs: the Richman cost is Red's winning
  probability when a fair coin picks the mover each turn and the mover plays
  optimally. The moves come from an independent float value iteration of the
  random-turn game, ``V(v) = (max_w V(w) + min_w V(w)) / 2``, not from the costs
  under test; the games are a seeded Monte Carlo with a 4-sigma tolerance;
* strategy improvement against value iteration on larger random cyclic graphs
  (40 inner vertices) than the existing test uses.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import networkx as nx  # type: ignore[import-untyped]
import numpy as np
import pytest

from solver.bidding.graph import Moves, graph_from_json, optimal_moves
from solver.bidding.poorman import poorman_bids, poorman_costs
from solver.bidding.richman import richman_bids, richman_costs


def path(n: int) -> tuple[nx.DiGraph, list[str]]:
    """b - 1 - 2 - ... - (n-1) - r: vertex k (0 < k < n) has arcs to k-1 and k+1; vertex 0 is b, vertex n is r."""
    names = ["b", *(str(k) for k in range(1, n)), "r"]
    g = nx.DiGraph()
    g.add_nodes_from(names)
    for k in range(1, n):
        g.add_edge(names[k], names[k - 1])
        g.add_edge(names[k], names[k + 1])
    return g, names


def digraph(edges: dict[str, list[str]]) -> nx.DiGraph:
    g = nx.DiGraph()
    for v, ws in edges.items():
        g.add_node(v)
        g.add_edges_from((v, w) for w in ws)
    return g


# ---------------------------------------------------------------------------
# the path: Richman k/n and bids 1/n; Poorman for n = 4


@pytest.mark.parametrize("n", [2, 3, 4, 7, 10, 31])
def test_path_richman_costs_are_k_over_n(n: int) -> None:
    g, names = path(n)
    costs = richman_costs(g, "b", "r")
    assert costs == {names[k]: F(k, n) for k in range(n + 1)}
    assert all(isinstance(c, F) for c in costs.values())
    assert richman_bids(g, "b", "r", costs) == {names[k]: F(1, n) for k in range(1, n)}
    moves = optimal_moves(g, "b", "r", costs)
    assert moves == {names[k]: Moves(names[k - 1], names[k + 1]) for k in range(1, n)}


def test_path_richman_from_json() -> None:
    n = 6
    edges = {str(k): [str(k - 1) if k > 1 else "b", str(k + 1) if k < n - 1 else "r"] for k in range(1, n)}
    g, blue, red = graph_from_json({"blue": "b", "red": "r", "edges": edges})
    costs = richman_costs(g, blue, red)
    assert costs == {"b": 0, "r": 1, **{str(k): F(k, n) for k in range(1, n)}}
    assert set(richman_bids(g, blue, red).values()) == {F(1, n)}


def test_path_poorman_n4() -> None:
    g, names = path(4)
    p = poorman_costs(g, "b", "r")
    for name, want in zip(names, [0.0, 1 / 3, 1 / 2, 2 / 3, 1.0], strict=True):
        assert p[name] == pytest.approx(want, abs=1e-12), name
    bids = poorman_bids(g, "b", "r", p)
    for name, want in zip(names[1:4], [1 / 3, 1 / 4, 1 / 3], strict=True):
        assert bids[name] == pytest.approx(want, abs=1e-12), name


# ---------------------------------------------------------------------------
# random-turn games: Richman cost = Red's winning probability under a fair coin


def random_turn_values(g: nx.DiGraph, blue: str, red: str, sweeps: int = 200_000) -> dict[str, float]:
    """Float value iteration of the random-turn game, V = (max + min) / 2 (independent of the module)."""
    inner = [v for v in g.nodes if v not in (blue, red)]
    v_ = {v: 0.5 for v in inner}
    v_[blue], v_[red] = 0.0, 1.0
    for _ in range(sweeps):
        change = 0.0
        for v in inner:
            vals = [v_[w] for w in g.successors(v)]
            new = (max(vals) + min(vals)) / 2
            change = max(change, abs(new - v_[v]))
            v_[v] = new
        if change < 1e-15:
            break
    return v_


def play_random_turn(
    g: nx.DiGraph, blue: str, red: str, start: str, values: dict[str, float], games: int, rng: np.random.Generator
) -> tuple[float, int]:
    """Red's winning frequency from ``start`` over ``games`` random-turn games, and the number of unfinished games.

    Red (on a heads) moves to a successor of greatest value, Blue (on a tails)
    to one of least value; among successors within 1e-12 of the extreme the
    one closest (in arcs) to the mover's target is taken, so that play
    progresses through cycles.
    """
    nodes = list(g.nodes)
    at = {v: i for i, v in enumerate(nodes)}
    play = g.copy()
    play.remove_edges_from(list(play.out_edges([blue, red])))
    to_blue = nx.single_target_shortest_path_length(play, blue)
    to_red = nx.single_target_shortest_path_length(play, red)
    dist_b, dist_r = dict(to_blue), dict(to_red)
    red_move = np.arange(len(nodes))
    blue_move = np.arange(len(nodes))
    for v in nodes:
        if v in (blue, red):
            continue
        ws = list(g.successors(v))
        hi, lo = max(values[w] for w in ws), min(values[w] for w in ws)
        red_move[at[v]] = at[min((w for w in ws if values[w] >= hi - 1e-12), key=lambda w: dist_r.get(w, math.inf))]
        blue_move[at[v]] = at[min((w for w in ws if values[w] <= lo + 1e-12), key=lambda w: dist_b.get(w, math.inf))]
    pos = np.full(games, at[start])
    done = np.array([v in (blue, red) for v in nodes])
    for _ in range(10_000):
        live = ~done[pos]
        if not live.any():
            break
        heads = rng.random(games) < 0.5
        pos = np.where(live, np.where(heads, red_move[pos], blue_move[pos]), pos)
    unfinished = int((~done[pos]).sum())
    return float(np.mean(pos == at[red])), unfinished


CYCLIC = {
    "two-cycle": ({"u": ["b", "w"], "w": ["u", "r"]}, "b", "r"),
    "triangle": ({"x": ["y", "b"], "y": ["z", "x"], "z": ["x", "r"]}, "b", "r"),
    "self-loops": ({"a": ["a", "b", "c"], "c": ["a", "d"], "d": ["c", "r", "d"]}, "b", "r"),
    "two-rings": (
        {"p": ["q", "b"], "q": ["s", "p"], "s": ["p", "t"], "t": ["u", "s"], "u": ["t", "r", "q"]},
        "b",
        "r",
    ),
}


@pytest.mark.parametrize("name", sorted(CYCLIC))
def test_richman_cost_is_the_random_turn_winning_probability(name: str) -> None:
    edges, blue, red = CYCLIC[name]
    g = digraph(edges)
    assert not nx.is_directed_acyclic_graph(g)
    costs = richman_costs(g, blue, red)
    values = random_turn_values(g, blue, red)
    rng = np.random.default_rng(20261129)
    games = 20_000
    for v in edges:
        r = float(costs[v])
        assert 0 < r < 1
        freq, unfinished = play_random_turn(g, blue, red, v, values, games, rng)
        assert unfinished == 0
        sigma = math.sqrt(r * (1 - r) / games)
        assert abs(freq - r) <= 4 * sigma, (v, freq, costs[v])


# ---------------------------------------------------------------------------
# strategy improvement against value iteration, larger cyclic graphs


def random_cyclic_game(rng: np.random.Generator, n: int) -> nx.DiGraph:
    """``n`` inner vertices with 2-3 random successors each, plus arcs so that every vertex reaches both targets."""
    names = [f"v{i}" for i in range(n)]
    g = nx.DiGraph()
    g.add_nodes_from(["b", "r", *names])
    for v in names:
        for w in rng.choice(names, size=int(rng.integers(2, 4)), replace=False):
            g.add_edge(v, str(w))
    for target in ("b", "r"):
        for v in rng.choice(names, size=3, replace=False):
            g.add_edge(str(v), target)
        # vertices that cannot reach the target get an arc to one that can
        while True:
            reach = nx.ancestors(g.subgraph([*names, target]), target)
            missing = [v for v in names if v not in reach]
            if not missing:
                break
            g.add_edge(missing[0], str(rng.choice(sorted(reach))))
    return g


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_strategy_improvement_agrees_with_value_iteration_on_larger_graphs(seed: int) -> None:
    g = random_cyclic_game(np.random.default_rng(seed), 40)
    assert not nx.is_directed_acyclic_graph(g.subgraph([v for v in g.nodes if v not in ("b", "r")]))
    costs = richman_costs(g, "b", "r")
    approx = random_turn_values(g, "b", "r")
    assert max(abs(float(costs[v]) - approx[v]) for v in g.nodes) <= 1e-9
