"""Richman bidding games: exact costs, finite-horizon costs, bids.

The game, the cost conventions and the graphs accepted are described in
:mod:`solver.bidding.graph`.

Algorithms
----------
Richman (exact). The equations of :mod:`solver.bidding.graph` are those of a
simple stochastic game in which each vertex averages one choice of Red (the
maximiser) and one choice of Blue (the minimiser). :func:`richman_costs`

1. settles the vertices that reach only one marked vertex (cost 0 or 1);
2. runs strategy improvement on Blue's choice ``tau`` (Hoffman-Karp): for a
   fixed ``tau`` the least ``x >= 0`` with
   ``x(v) >= x(tau(v)) / 2 + x(w) / 2`` for every successor ``w`` is Red's best
   reply (the probability that Red reaches ``red`` against ``tau``); it is
   found by one linear program (``scipy.optimize.linprog``, HiGHS). Blue then
   switches every ``tau(v)`` to a strictly cheaper successor, and again, until
   no switch helps. (A single linear program over the max-plus-min operator
   would not do: the operator is neither convex nor concave.)
3. reads off the extreme successors of the floating-point answer (argmin for
   Blue, argmax for Red, near-ties broken so that every vertex has a chain of
   chosen moves to a settled vertex, which makes the linear system below
   nonsingular), solves ``2 R(v) = R(sigma(v)) + R(tau(v))`` exactly in
   :class:`fractions.Fraction` by Gaussian elimination, and repeats the same
   strategy improvement exactly (Red's best reply by exact policy iteration)
   until no strict improvement is left - normally no step at all;
4. certifies, in exact arithmetic, ``2 R(v) = R+(v) + R-(v)`` at every vertex
   other than ``blue`` and ``red``. By uniqueness this proves the answer.

Finite horizon. :func:`richman_costs_finite` is the sequence ``R(v, t)`` of the
existence proof: ``R(blue, t) = 0``, ``R(red, t) = 1``, ``R(v, 0) = 1`` for every
other vertex, and ``R(v, t) = (R+(v, t-1) + R-(v, t-1)) / 2``. ``R(v, t)`` is the
share Blue needs to win within ``t`` moves (with a fair coin: the chance that
Blue has *not* reached ``blue`` after ``t`` moves); it never increases with ``t``
and tends to ``R(v)`` from above. With ``lower=True`` the start is
``R(v, 0) = 0`` instead, which tends to ``R(v)`` from below.

References
----------
A. J. Lazarus, D. E. Loeb, J. G. Propp and D. Ullman, "Richman games", in
*Games of No Chance*, MSRI Publications 29, 1996 (the costs, the
averaging property, ``R(v, t)``, uniqueness and rationality).

A. J. Hoffman and R. M. Karp, "On nonterminating stochastic games",
*Management Science* 12 (1966) (strategy improvement); A. Condon, "The
complexity of stochastic games", *Information and Computation* 96 (1992).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction

import networkx as nx
import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from models.errors import ComputationError
from solver.bidding.graph import (
    BiddingGameError,
    Game,
    costs_list,
    prepare,
    progress_choices,
)

__all__ = [
    "LP_TOL",
    "certify",
    "richman_bids",
    "richman_costs",
    "richman_costs_finite",
    "richman_exact",
    "richman_float",
]

LP_TOL = 1e-9
"""A switch in the floating-point phase must gain more than this; also the tie tolerance for reading its answer."""


# ---------------------------------------------------------------------------
# Richman: exact linear algebra


def _solve_fractions(rows: list[dict[int, Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """Solve a square sparse system exactly (Gaussian elimination, sparsest pivot row)."""
    n = len(rows)
    remaining = set(range(n))
    pivots: list[tuple[int, int]] = []  # (column, row)
    for col in range(n):
        cand = [i for i in remaining if rows[i].get(col)]
        if not cand:
            raise ComputationError("singular system")
        p = min(cand, key=lambda i: (len(rows[i]), i))
        remaining.discard(p)
        prow, pval = rows[p], rows[p][col]
        for i in cand:
            if i == p:
                continue
            row = rows[i]
            f = row[col] / pval
            for k, c in prow.items():
                new = row.get(k, Fraction(0)) - f * c
                if new:
                    row[k] = new
                else:
                    row.pop(k, None)
            rhs[i] -= f * rhs[p]
        pivots.append((col, p))
    x = [Fraction(0)] * n
    for col, p in reversed(pivots):
        prow = rows[p]
        acc = rhs[p] - sum((c * x[k] for k, c in prow.items() if k != col), Fraction(0))
        x[col] = acc / prow[col]
    return x


def _evaluate_pair(game: Game, sigma: Mapping[int, int], tau: Mapping[int, int]) -> list[Fraction]:
    """Exact probability that Red reaches ``red`` when, at each free vertex, a fair coin picks ``sigma`` or ``tau``.

    Free vertices with no chain of chosen moves to a cost-1 vertex get 0 (they
    never reach ``red``); the others satisfy ``2 x(v) = x(sigma(v)) + x(tau(v))``,
    a nonsingular system because each of them leaks to a marked or settled vertex.
    """
    n = len(game.nodes)
    x: list[Fraction] = [Fraction(0)] * n
    free = set(game.free)
    for u in range(n):
        if u not in free:
            x[u] = Fraction(game.fixed_value(u))
    rev: dict[int, list[int]] = {}
    for v in game.free:
        for u in {sigma[v], tau[v]}:
            rev.setdefault(u, []).append(v)
    seen = {u for u in range(n) if u not in free and x[u] == 1}
    queue = deque(sorted(seen))
    while queue:
        u = queue.popleft()
        for v in rev.get(u, ()):
            if v not in seen:
                seen.add(v)
                queue.append(v)
    live = [v for v in game.free if v in seen]
    col = {v: k for k, v in enumerate(live)}
    rows: list[dict[int, Fraction]] = []
    rhs: list[Fraction] = []
    for v in live:
        row = {col[v]: Fraction(2)}
        b = Fraction(0)
        for u in (sigma[v], tau[v]):
            if u in col:
                row[col[u]] = row.get(col[u], Fraction(0)) - 1
            else:
                b += x[u]  # marked, settled, or a free vertex that never reaches red (0)
        rows.append({k: c for k, c in row.items() if c})
        rhs.append(b)
    for v, val in zip(live, _solve_fractions(rows, rhs), strict=True):
        x[v] = val
    return x


def richman_exact(game: Game, sigma: dict[int, int], tau: dict[int, int]) -> tuple[list[Fraction], int]:
    """Exact strategy improvement (Blue outside, Red's best reply by policy iteration inside).

    Returns the costs and the number of exact evaluations. Both loops only
    switch to strictly better successors, so values move monotonically and no
    pair repeats; at the end ``x`` is a fixed point of the Richman operator.

    Parameters
    ----------
    game : Game
        The validated game.
    sigma, tau : dict
        Starting choices of Red and Blue at every free vertex (successor
        indices), e.g. from :func:`~solver.bidding.graph.progress_choices`;
        updated in place.

    Returns
    -------
    (costs, evaluations) : tuple
        Exact costs of every vertex by index (not yet certified: see
        :func:`certify`) and the number of exact evaluations.

    Examples
    --------
    >>> import json
    >>> from solver.bidding.graph import graph_from_json, prepare
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> from solver.bidding.graph import progress_choices
    >>> game = prepare(g, blue, red)
    >>> x, _ = richman_float(game)
    >>> costs, evaluations = richman_exact(game, *progress_choices(game, x, 1e-9))
    >>> [str(c) for c in costs], evaluations
    (['1/3', '0', '2/3', '1', '1/2'], 1)
    """
    evaluations = 0
    while True:
        while True:
            x = _evaluate_pair(game, sigma, tau)
            evaluations += 1
            changed = False
            for v in game.free:
                best = max(game.succ[v], key=x.__getitem__)
                if x[best] > x[sigma[v]]:
                    sigma[v] = best
                    changed = True
            if not changed:
                break
        changed = False
        for v in game.free:
            best = min(game.succ[v], key=x.__getitem__)
            if x[best] < x[tau[v]]:
                tau[v] = best
                changed = True
        if not changed:
            return x, evaluations


def certify(game: Game, x: Sequence[Fraction]) -> None:
    """Check exactly that ``x`` is the Richman cost function (unique, so this proves it).

    Parameters
    ----------
    game : Game
        The validated game.
    x : sequence of Fraction
        A cost for every vertex, by index.

    Raises
    ------
    ComputationError
        ``x(blue) != 0``, ``x(red) != 1`` or ``2 x(v) != x+(v) + x-(v)`` at some vertex.

    Examples
    --------
    >>> import json
    >>> from solver.bidding.graph import graph_from_json, prepare
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> from fractions import Fraction
    >>> game = prepare(g, blue, red)
    >>> certify(game, [Fraction(1, 3), Fraction(0), Fraction(2, 3), Fraction(1), Fraction(1, 2)])
    >>> certify(game, [Fraction(1, 2)] * 5)
    Traceback (most recent call last):
    ...
    models.errors.ComputationError: Richman certification failed at a marked vertex
    """
    if x[game.blue] != 0 or x[game.red] != 1:
        raise ComputationError("Richman certification failed at a marked vertex")
    for v, ws in enumerate(game.succ):
        if not ws:
            continue
        vals = [x[w] for w in ws]
        if 2 * x[v] != max(vals) + min(vals):
            raise ComputationError(f"Richman certification failed at vertex {game.nodes[v]!r}")


# ---------------------------------------------------------------------------
# Richman: the floating-point strategy improvement that guides the exact phase


def _red_reply_lp(game: Game, pos: Mapping[int, int], const: Sequence[float], tau: Mapping[int, int]) -> np.ndarray:
    """Red's best reply to Blue's fixed ``tau``: the least ``x`` with ``x(v) >= (x(tau v) + x(w)) / 2`` for all successors ``w``."""
    rows: list[int] = []
    cols: list[int] = []
    data: list[float] = []
    b_ub: list[float] = []
    for v in game.free:
        t = tau[v]
        for w in game.succ[v]:
            coef = {pos[v]: -1.0}
            bound = 0.0
            for u in (t, w):
                if u in pos:
                    coef[pos[u]] = coef.get(pos[u], 0.0) + 0.5
                else:
                    bound -= 0.5 * const[u]
            coef = {k: c for k, c in coef.items() if c != 0.0}
            if not coef:
                continue  # tau(v) = w = v: the constraint reads 0 <= 0
            for k, c in coef.items():
                rows.append(len(b_ub))
                cols.append(k)
                data.append(c)
            b_ub.append(bound)
    m = len(pos)
    a_ub = sp.csr_array((data, (rows, cols)), shape=(len(b_ub), m)) if b_ub else None
    res = linprog(
        np.ones(m),
        A_ub=a_ub,
        b_ub=np.array(b_ub) if b_ub else None,
        bounds=(0.0, 1.0),
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if res.status != 0:
        raise ComputationError(f"linear program failed: {res.message}")
    return np.asarray(res.x, dtype=float)


def richman_float(game: Game) -> tuple[list[float], int]:
    """Blue's strategy improvement with one LP per step; returns all costs as floats and the LP count.

    Parameters
    ----------
    game : Game
        The validated game.

    Returns
    -------
    (costs, linear_programs) : tuple
        Approximate Richman costs of every vertex by index, and the number of
        linear programs solved.

    Examples
    --------
    >>> import json
    >>> from solver.bidding.graph import graph_from_json, prepare
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> costs, lps = richman_float(prepare(g, blue, red))
    >>> [round(c, 6) for c in costs], lps
    ([0.333333, 0.0, 0.666667, 1.0, 0.5], 1)
    """
    n = len(game.nodes)
    free = set(game.free)
    const = [0.0 if v in free else float(game.fixed_value(v)) for v in range(n)]
    pos = {v: k for k, v in enumerate(game.free)}
    # Start Blue on a shortest path to blue.
    dist: dict[int, int] = {game.blue: 0}
    pred: dict[int, list[int]] = {}
    for v, ws in enumerate(game.succ):
        for w in ws:
            pred.setdefault(w, []).append(v)
    queue = deque([game.blue])
    while queue:
        u = queue.popleft()
        for v in pred.get(u, ()):
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    inf = n + 1
    tau = {v: min(game.succ[v], key=lambda w: (dist.get(w, inf), w)) for v in game.free}
    value = list(const)
    lps = 0
    for _ in range(4 * len(game.free) + 20):
        x = _red_reply_lp(game, pos, const, tau)
        lps += 1
        for v, k in pos.items():
            value[v] = float(x[k])
        changed = False
        for v in game.free:
            best = min(game.succ[v], key=value.__getitem__)
            if value[best] < value[tau[v]] - LP_TOL:
                tau[v] = best
                changed = True
        if not changed:
            break
    return value, lps


def _richman_values(game: Game) -> tuple[list[Fraction], dict[str, int]]:
    if game.free:
        approx, lps = richman_float(game)
        sigma, tau = progress_choices(game, approx, LP_TOL)
        x, evaluations = richman_exact(game, sigma, tau)
    else:
        x = [Fraction(game.fixed_value(v)) for v in range(len(game.nodes))]
        lps = evaluations = 0
    certify(game, x)
    return x, {"linear_programs": lps, "exact_evaluations": evaluations}


def richman_costs(graph: nx.DiGraph, blue: Hashable, red: Hashable) -> dict[Hashable, Fraction]:
    """Exact Richman costs of every vertex, certified.

    Parameters
    ----------
    graph : networkx.DiGraph
        The board. Arcs leaving ``blue`` or ``red`` are ignored; self-loops are moves.
    blue, red : hashable
        The marked vertices: Blue wins when the token reaches ``blue``, Red at ``red``.

    Returns
    -------
    dict
        ``R(v)`` for every vertex, in graph order, as :class:`fractions.Fraction`:
        Blue's share of the total money above which Blue wins (Richman: the
        winner of a bid pays the loser). ``R(blue) = 0``, ``R(red) = 1`` and
        ``R(v) = (R+(v) + R-(v)) / 2`` elsewhere, with ``R+``/``R-`` the largest
        and smallest successor cost (Lazarus, Loeb, Propp and Ullman 1996).

    Raises
    ------
    BiddingGameError
        A marked vertex missing, ``blue == red``, a dead end, or a vertex that reaches neither marked vertex.

    Notes
    -----
    Strategy improvement for Blue with one HiGHS linear program per step
    (Red's best reply), then an exact rational solve of the system fixed by
    the extreme successors, exact improvement steps if any are left, and an
    exact check of the averaging equation at every vertex; see the module
    docstring. Graphs with cycles are fine.

    Examples
    --------
    On the chain ``b - u - w - r`` the Richman cost is the average of the extreme successors'
    costs: ``u = w / 2`` and ``w = (u + 1) / 2``, so ``1/3`` and ``2/3`` (by hand).

    >>> import json
    >>> from solver.bidding.graph import graph_from_json
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> {v: str(c) for v, c in richman_costs(g, blue, red).items()}
    {'u': '1/3', 'b': '0', 'w': '2/3', 'r': '1', 's': '1/2'}
    """
    game = prepare(graph, blue, red)
    x, _ = _richman_values(game)
    return dict(zip(game.nodes, x, strict=True))


def richman_costs_finite(
    graph: nx.DiGraph, blue: Hashable, red: Hashable, t: int, *, lower: bool = False
) -> dict[Hashable, Fraction]:
    """Finite-horizon Richman costs ``R(v, t)`` as exact fractions.

    Parameters
    ----------
    graph, blue, red
        As for :func:`richman_costs` (same validation).
    t : int
        The horizon, ``t >= 0``.
    lower : bool
        Start from below instead of above.

    Returns
    -------
    dict
        ``R(blue, t) = 0`` and ``R(red, t) = 1`` for all ``t``; for every other
        vertex ``R(v, 0) = 1`` (``lower=False``, the base case of the existence
        proof in Lazarus et al. 1996: Blue cannot win in zero moves) or
        ``R(v, 0) = 0`` (``lower=True``), and
        ``R(v, t) = (R+(v, t-1) + R-(v, t-1)) / 2``.

        With ``lower=False``, ``R(v, t)`` is the share of the money Blue needs
        to reach ``blue`` within ``t`` moves; it is non-increasing in ``t`` and
        tends to ``R(v)`` from above. With ``lower=True`` the sequence is
        non-decreasing and tends to ``R(v)`` from below (``1 - R(v, t)`` is then
        the share Red needs to reach ``red`` within ``t`` moves).

    Raises
    ------
    BiddingGameError
        ``t`` is not a non-negative integer (and the validation of :func:`richman_costs`).

    Examples
    --------
    One move left: from above, a vertex that cannot reach ``blue`` in one move counts as lost.

    >>> import json
    >>> from solver.bidding.graph import graph_from_json
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> {v: str(c) for v, c in richman_costs_finite(g, blue, red, 1).items()}
    {'u': '1/2', 'b': '0', 'w': '1', 'r': '1', 's': '1/2'}
    """
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise BiddingGameError(f"t: the horizon must be a non-negative integer, got {t!r}")
    game = prepare(graph, blue, red)
    start = Fraction(0) if lower else Fraction(1)
    x = [start] * len(game.nodes)
    x[game.blue], x[game.red] = Fraction(0), Fraction(1)
    for _ in range(t):
        x = [
            (max(x[w] for w in ws) + min(x[w] for w in ws)) / 2 if ws else x[v]
            for v, ws in enumerate(game.succ)
        ]
    return dict(zip(game.nodes, x, strict=True))


def richman_bids(
    graph: nx.DiGraph, blue: Hashable, red: Hashable, costs: Mapping[Hashable, Fraction] | None = None
) -> dict[Hashable, Fraction]:
    """Optimal Richman bid at every vertex other than ``blue`` and ``red``.

    Parameters
    ----------
    graph, blue, red
        As for :func:`richman_costs`.
    costs : mapping, optional
        The costs from :func:`richman_costs` (computed when omitted).

    Returns
    -------
    dict
        ``(R+(v) - R-(v)) / 2`` as a share of the total money; the same number
        is optimal for both players (Lazarus et al. 1996: a player who cannot
        bid ``R(v) - R-(v)`` has already lost). The winner moves as
        :func:`~solver.bidding.graph.optimal_moves` says.

    Examples
    --------
    >>> import json
    >>> from solver.bidding.graph import graph_from_json
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> {v: str(c) for v, c in richman_bids(g, blue, red).items()}  # half the gap of the extremes
    {'u': '1/3', 'w': '1/3', 's': '1/2'}
    """
    game = prepare(graph, blue, red)
    x = costs_list(game, costs) if costs is not None else _richman_values(game)[0]
    return {
        game.nodes[v]: (max(x[w] for w in ws) - min(x[w] for w in ws)) / 2
        for v, ws in enumerate(game.succ)
        if ws
    }
