"""Bidding games on a directed graph: the game, its validation and the moves.

The game
--------
A token sits on a vertex of a finite directed graph that has two marked
vertices, ``blue`` and ``red``. Before every move the two players, Blue (who
wants the token on ``blue``) and Red (who wants it on ``red``), bid for the
right to move; the higher bidder pays and moves the token along one arc. Play
stops as soon as the token reaches ``blue`` (Blue wins) or ``red`` (Red wins);
arcs that leave a marked vertex are never used. Endless play is a draw.

* **Richman** rules: the winner of a bid pays the *loser*, so the total money
  never changes.
* **Poorman** rules: the winner of a bid pays the *bank*; the money in play
  shrinks.

Conventions used by this package
--------------------------------
*Costs are always Blue's side of the table.* The cost of a vertex ``v`` is the
share of the money that Blue needs: Blue, holding a share strictly greater than
the cost, has a strategy that wins; with a share strictly smaller Red has one.
(At exactly the cost the outcome can depend on how ties are broken.)

* Richman cost ``R(v)``: Blue's share of the *total* money, which is constant.
  ``R(blue) = 0`` and ``R(red) = 1``. This is the convention of Lazarus, Loeb,
  Propp and Ullman, who call ``R(v)`` the Richman cost and ``1 - R(v)`` the
  Richman value. For every other vertex, with ``R+(v)`` and ``R-(v)`` the
  largest and smallest cost among the successors of ``v``::

      R(v) = (R+(v) + R-(v)) / 2.

  The optimal bid, as a share of the total money, is the same for both
  players: ``R(v) - R-(v) = R+(v) - R(v) = (R+(v) - R-(v)) / 2``. Blue, on
  winning, moves to a successor of least cost; Red to one of greatest cost.
  With a fair coin instead of bids, ``R(v)`` is the probability that Red wins
  under optimal play (draws have probability zero).
* Poorman cost ``P(v)``: Blue's share of the money *in play* (both players'
  current money; what was paid to the bank is gone). ``P(blue) = 0``,
  ``P(red) = 1`` and, for every other vertex::

      P(v) = P+(v) / (1 + P+(v) - P-(v)),
      bid(v) = (P+(v) - P-(v)) / (1 + P+(v) - P-(v))

  (the bid as a share of the money in play). Derivation: if Blue holds the
  share ``x`` and bids ``beta``, winning leaves him ``(x - beta) / (1 - beta)``
  of what remains, at the cheapest successor, and losing (Red paid ``beta``)
  leaves him ``x / (1 - beta)`` at the dearest successor; requiring both to be
  at least the successors' costs and solving the two equalities gives the
  formulas above. Poorman costs are usually irrational, so they are floats.

Which graphs are accepted
-------------------------
Every vertex other than ``blue`` and ``red`` must have at least one successor,
and every vertex must have a path to ``blue`` or to ``red`` (a path may not
pass *through* a marked vertex, since play stops there). A vertex that can
reach only one of them is fine: its cost is 0 (it can reach ``blue`` only) or
1 (``red`` only), under both rules. Self-loops are legal moves. Anything else
(a marked vertex missing from the graph, ``blue == red``, a dead end, a vertex
that reaches neither) raises :class:`BiddingGameError` naming the vertex.
Under these conditions the cost functions exist and are unique (Lazarus et
al. 1996 for Richman costs, where uniqueness is their Theorem 3; the 1999
paper for Poorman costs).

The solvers live beside this module: :mod:`solver.bidding.richman` (exact
Richman costs and bids) and :mod:`solver.bidding.poorman` (Poorman costs and
bids). This module holds what they share: the validated game
(:func:`prepare`), the tie rule for extreme successors
(:func:`progress_choices`), the optimal moves for given costs
(:func:`optimal_moves`) and the JSON form (:func:`graph_from_json`).

References
----------
A. J. Lazarus, D. E. Loeb, J. G. Propp and D. Ullman, "Richman games", in
*Games of No Chance*, MSRI Publications 29, 1996 (the costs, the
averaging property, ``R(v, t)``, uniqueness and rationality).

A. J. Lazarus, D. E. Loeb, J. G. Propp, W. R. Stromquist and D. H. Ullman,
"Combinatorial games under auction play", *Games and Economic Behavior* 27
(1999) (Poorman games, the formula for ``P(v)``).

M. Develin and S. Payne, "Discrete bidding games", *Electronic Journal of
Combinatorics* 17 (2010) (the same games with bids in whole units of
money; not implemented here).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import networkx as nx
import numpy as np

from models.errors import MonopolyError

__all__ = [
    "POORMAN_ACCURACY",
    "BiddingGameError",
    "Game",
    "Moves",
    "costs_list",
    "graph_from_json",
    "optimal_moves",
    "prepare",
    "progress_choices",
]

POORMAN_ACCURACY = 1e-9
"""Accuracy of Poorman costs, and the default tolerance of :func:`optimal_moves` for floating-point costs."""


class BiddingGameError(MonopolyError, ValueError):
    """A bidding-game graph or its JSON form that cannot be solved; the message names the vertex or field."""


class Moves(NamedTuple):
    """Where each player moves the token after winning the bid at a vertex.

    Examples
    --------
    The bundled graph: a chain ``b - u - w - r`` and a vertex ``s`` with a self-loop and arcs to both ends.

    >>> import json
    >>> from solver.bidding.richman import richman_costs
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> optimal_moves(g, blue, red, richman_costs(g, blue, red))["u"]
    Moves(blue='b', red='w')
    """

    blue: Hashable
    """A successor of least cost, on a shortest chain of such moves to ``blue`` when there is one."""
    red: Hashable
    """A successor of greatest cost, on a shortest chain of such moves to ``red`` when there is one."""


@dataclass(frozen=True)
class Game:
    """A validated game: vertices by index in graph order, successors sorted by index.

    Built by :func:`prepare`; the solvers of :mod:`solver.bidding.richman`
    and :mod:`solver.bidding.poorman` work on it.

    Attributes
    ----------
    nodes : tuple of hashable
        The vertices, in graph order.
    succ : tuple of tuple of int
        Each vertex's successors by index (empty for ``blue`` and ``red``).
    blue, red : int
        The marked vertices' indices.
    settled : dict of int to int
        Vertices that reach only one marked vertex, and their cost (0 or 1).
    free : tuple of int
        The vertices that reach both.

    Examples
    --------
    The bundled graph: a chain ``b - u - w - r`` and a vertex ``s`` with a self-loop and arcs to both ends.

    >>> import json
    >>> from solver.bidding.graph import graph_from_json, prepare
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> game = prepare(g, blue, red)
    >>> game.nodes, game.blue, game.red, game.free
    (('u', 'b', 'w', 'r', 's'), 1, 3, (0, 2, 4))
    """

    nodes: tuple[Hashable, ...]
    succ: tuple[tuple[int, ...], ...]  # empty for blue and red
    blue: int
    red: int
    settled: dict[int, int]  # non-marked vertex reaching only one marked vertex -> its cost (0 or 1)
    free: tuple[int, ...]  # non-marked vertices that reach both

    def fixed_value(self, v: int) -> int:
        """Cost of a marked or settled vertex.

        Parameters
        ----------
        v : int
            A marked or settled vertex.

        Returns
        -------
        int
            0 at ``blue``, 1 at ``red``, the settled cost elsewhere.
        """
        if v == self.blue:
            return 0
        if v == self.red:
            return 1
        return self.settled[v]


def _reaching(succ: Sequence[Sequence[int]], target: int) -> set[int]:
    """Vertices with a path to ``target`` (marked vertices have no successors, so paths never pass through them)."""
    pred: list[list[int]] = [[] for _ in succ]
    for v, ws in enumerate(succ):
        for w in ws:
            pred[w].append(v)
    seen = {target}
    queue = deque([target])
    while queue:
        u = queue.popleft()
        for v in pred[u]:
            if v not in seen:
                seen.add(v)
                queue.append(v)
    return seen


def prepare(graph: Any, blue: Hashable, red: Hashable) -> Game:
    """Validate a game and index it for the solvers.

    Parameters
    ----------
    graph : networkx.DiGraph
        The board; arcs leaving ``blue`` or ``red`` are dropped.
    blue, red : hashable
        The marked vertices.

    Returns
    -------
    Game
        Vertices in graph order, the one-target vertices settled (cost 0 or 1).

    Raises
    ------
    BiddingGameError
        The graph is not accepted (see the module docstring); the message names the vertex.

    Examples
    --------
    The bundled graph: a chain ``b - u - w - r`` and a vertex ``s`` with a self-loop and arcs to both ends.

    >>> import json
    >>> from solver.bidding.graph import graph_from_json, prepare
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> prepare(g, blue, red).settled  # every other vertex reaches both ends
    {}
    """
    if not isinstance(graph, nx.DiGraph):
        raise BiddingGameError(f"the graph must be a networkx.DiGraph, got {type(graph).__name__}")
    if blue == red:
        raise BiddingGameError(f"blue and red must be different vertices, both are {blue!r}")
    for name, vertex in (("blue", blue), ("red", red)):
        if vertex not in graph:
            raise BiddingGameError(f"{name} vertex {vertex!r} is not in the graph")
    nodes = tuple(graph.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    b, r = index[blue], index[red]
    succ: list[tuple[int, ...]] = []
    for i, v in enumerate(nodes):
        if i in (b, r):
            succ.append(())
            continue
        ws = tuple(sorted({index[w] for w in graph.successors(v)}))
        if not ws:
            raise BiddingGameError(f"vertex {v!r} has no successors (only blue and red may be dead ends)")
        succ.append(ws)
    reach_b, reach_r = _reaching(succ, b), _reaching(succ, r)
    settled: dict[int, int] = {}
    free: list[int] = []
    for i, v in enumerate(nodes):
        if i in (b, r):
            continue
        if i not in reach_b and i not in reach_r:
            raise BiddingGameError(f"vertex {v!r} can reach neither blue {blue!r} nor red {red!r}")
        if i not in reach_b:
            settled[i] = 1
        elif i not in reach_r:
            settled[i] = 0
        else:
            free.append(i)
    return Game(nodes, tuple(succ), b, r, settled, tuple(free))


def progress_choices(game: Game, value: Sequence[Any] | np.ndarray, tol: Any) -> tuple[dict[int, int], dict[int, int]]:
    """Red's ``sigma`` (near-argmax) and Blue's ``tau`` (near-argmin) for every free vertex.

    Among successors within ``tol`` of the extreme, the choice is made so that
    every free vertex has a chain of chosen moves (either player's) to a
    marked or settled vertex when such choices exist; the chain condition keeps
    the linear systems of a fixed choice nonsingular. Deterministic: ties go to
    the earliest vertex in graph order.

    Parameters
    ----------
    game : Game
        The validated game.
    value : sequence
        A cost for every vertex, by index (floats or fractions).
    tol : number
        Successors within ``tol`` of the extreme count as extreme.

    Returns
    -------
    (sigma, tau) : tuple of dict
        The successor (by index) chosen for Red and for Blue at every free vertex.

    Examples
    --------
    >>> import json
    >>> from solver.bidding.graph import graph_from_json, prepare
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> from solver.bidding.richman import richman_costs
    >>> game = prepare(g, blue, red)
    >>> progress_choices(game, costs_list(game, richman_costs(g, blue, red)), 0)
    ({2: 3, 0: 2, 4: 3}, {0: 1, 4: 1, 2: 0})
    """
    lo: dict[int, list[int]] = {}
    hi: dict[int, list[int]] = {}
    rev: dict[int, list[tuple[int, int]]] = {}
    for v in game.free:
        vals = [value[w] for w in game.succ[v]]
        low, high = min(vals), max(vals)
        lo[v] = [w for w in game.succ[v] if value[w] <= low + tol]
        hi[v] = [w for w in game.succ[v] if value[w] >= high - tol]
        for kind, ws in ((0, lo[v]), (1, hi[v])):
            for w in ws:
                rev.setdefault(w, []).append((v, kind))
    free = set(game.free)
    dist = {u: 0 for u in range(len(game.nodes)) if u not in free}
    queue = deque(sorted(dist))
    sigma: dict[int, int] = {}
    tau: dict[int, int] = {}
    while queue:
        u = queue.popleft()
        for v, kind in rev.get(u, ()):
            if v not in dist:
                dist[v] = dist[u] + 1
                (tau if kind == 0 else sigma)[v] = u
                queue.append(v)
    inf = len(game.nodes) + 1
    for v in game.free:
        if v not in tau:
            tau[v] = min(lo[v], key=lambda w: (dist.get(w, inf), w))
        if v not in sigma:
            sigma[v] = min(hi[v], key=lambda w: (dist.get(w, inf), w))
    return sigma, tau


def costs_list(game: Game, costs: Mapping[Hashable, Any]) -> list[Any]:
    """The given costs as a list by vertex index.

    Parameters
    ----------
    game : Game
        The validated game.
    costs : mapping
        A cost for every vertex of the graph.

    Returns
    -------
    list
        ``costs[v]`` for the vertices in graph order.

    Raises
    ------
    BiddingGameError
        A vertex has no cost.

    Examples
    --------
    >>> import json
    >>> from solver.bidding.graph import graph_from_json, prepare
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> from solver.bidding.richman import richman_costs
    >>> [str(c) for c in costs_list(prepare(g, blue, red), richman_costs(g, blue, red))]
    ['1/3', '0', '2/3', '1', '1/2']
    """
    out = []
    for v in game.nodes:
        if v not in costs:
            raise BiddingGameError(f"costs: no cost for vertex {v!r}")
        out.append(costs[v])
    return out


# ---------------------------------------------------------------------------
# Moves (Richman or Poorman costs) and JSON


def optimal_moves(
    graph: nx.DiGraph,
    blue: Hashable,
    red: Hashable,
    costs: Mapping[Hashable, Any],
    *,
    tol: float | None = None,
) -> dict[Hashable, Moves]:
    """Where each player moves after winning the bid, at every vertex other than ``blue`` and ``red``.

    Blue moves to a successor of least cost, Red to one of greatest cost
    (Richman or Poorman costs alike). Among equally good successors Blue takes
    one on a shortest chain of least-cost moves to ``blue`` (the "shortest
    path of steepest descent" of Lazarus et al., which guarantees progress
    through cycles and self-loops), Red likewise towards ``red``; remaining
    ties go to the earliest vertex in graph order.

    Parameters
    ----------
    graph, blue, red
        As for :func:`prepare`.
    costs : mapping
        Costs of every vertex.
    tol : float, optional
        Costs within ``tol`` count as equal; default 0 for exact costs
        (``Fraction``/``int``) and 1e-9 otherwise.

    Returns
    -------
    dict of hashable to Moves
        Each non-marked vertex's moves.

    Examples
    --------
    >>> import json
    >>> from solver.bidding.graph import graph_from_json, prepare
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> from solver.bidding.richman import richman_costs
    >>> optimal_moves(g, blue, red, richman_costs(g, blue, red))
    {'u': Moves(blue='b', red='w'), 'w': Moves(blue='u', red='r'), 's': Moves(blue='b', red='r')}
    """
    game = prepare(graph, blue, red)
    x = costs_list(game, costs)
    if tol is None:
        tol = 0 if all(isinstance(c, (Fraction, int)) for c in x) else POORMAN_ACCURACY
    lo: dict[int, list[int]] = {}
    hi: dict[int, list[int]] = {}
    for v, ws in enumerate(game.succ):
        if ws:
            low, high = min(x[w] for w in ws), max(x[w] for w in ws)
            lo[v] = [w for w in ws if x[w] <= low + tol]
            hi[v] = [w for w in ws if x[w] >= high - tol]

    def distances(choice: Mapping[int, list[int]], target: int) -> dict[int, int]:
        rev: dict[int, list[int]] = {}
        for v, ws in choice.items():
            for w in ws:
                rev.setdefault(w, []).append(v)
        dist = {target: 0}
        queue = deque([target])
        while queue:
            u = queue.popleft()
            for v in rev.get(u, ()):
                if v not in dist:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        return dist

    inf = len(game.nodes) + 1
    db, dr = distances(lo, game.blue), distances(hi, game.red)
    def nearest(ws: list[int], dist: Mapping[int, int]) -> Hashable:
        return game.nodes[min(ws, key=lambda w: (dist.get(w, inf), w))]

    return {game.nodes[v]: Moves(nearest(lo[v], db), nearest(hi[v], dr)) for v in lo}


def graph_from_json(obj: Any) -> tuple[nx.DiGraph, str, str]:
    """Build a game from its JSON form ``{"blue": "b", "red": "r", "edges": {"v": ["w", ...], ...}}``.

    Vertex names are non-empty strings; ``edges`` maps a vertex to the list of
    its successors (vertices that appear only as successors are added too).
    ``blue`` and ``red`` must appear in ``edges``, as a key or a successor.
    Errors are :class:`BiddingGameError` whose message starts with the field,
    e.g. ``edges["v"][1]: ...``. The game itself (dead ends, reachability) is
    checked by the solving functions.

    Parameters
    ----------
    obj : object
        The parsed JSON document.

    Returns
    -------
    (graph, blue, red)

    Raises
    ------
    BiddingGameError
        A field of the wrong type or shape, a vertex name that is not a non-empty string, or
        ``blue``/``red`` missing from ``edges``.

    Examples
    --------
    >>> import json
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> sorted(g.nodes), blue, red
    (['b', 'r', 's', 'u', 'w'], 'b', 'r')
    >>> graph_from_json({"blue": "b", "red": "r", "edges": {"v": ["b", 3]}})
    Traceback (most recent call last):
    ...
    solver.bidding.graph.BiddingGameError: edges["v"][1]: must be a vertex name (a non-empty string), got 3
    """
    if not isinstance(obj, dict):
        raise BiddingGameError('a bidding game must be a JSON object with "blue", "red" and "edges"')
    for key in obj:
        if key not in ("blue", "red", "edges"):
            raise BiddingGameError(f"{key}: unknown field (expected blue, red and edges)")
    names: dict[str, str] = {}
    for field in ("blue", "red", "edges"):
        if field not in obj:
            raise BiddingGameError(f"{field}: missing")
    for field in ("blue", "red"):
        value = obj[field]
        if not isinstance(value, str) or not value:
            raise BiddingGameError(f"{field}: must be a vertex name (a non-empty string), got {value!r}")
        names[field] = value
    edges = obj["edges"]
    if not isinstance(edges, dict):
        raise BiddingGameError("edges: must be an object mapping each vertex to the list of its successors")
    graph = nx.DiGraph()
    for v, succs in edges.items():
        where = f"edges[{_quote(v)}]"
        if not v:
            raise BiddingGameError(f"{where}: a vertex name must not be empty")
        if not isinstance(succs, list):
            raise BiddingGameError(f"{where}: must be a list of vertex names, got {type(succs).__name__}")
        graph.add_node(v)
        for i, w in enumerate(succs):
            if not isinstance(w, str) or not w:
                raise BiddingGameError(f"{where}[{i}]: must be a vertex name (a non-empty string), got {w!r}")
            graph.add_edge(v, w)
    if names["blue"] == names["red"]:
        raise BiddingGameError(f"red: must differ from blue, both are {names['blue']!r}")
    for field in ("blue", "red"):
        if names[field] not in graph:
            raise BiddingGameError(f"{field}: {names[field]!r} does not appear in edges")
    return graph, names["blue"], names["red"]


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
