"""Bidding games on a directed graph: Richman and Poorman costs, bids and moves.

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

Conventions used by this module
-------------------------------
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

Algorithms
----------
Richman (exact). The equations above are those of a simple stochastic game in
which each vertex averages one choice of Red (the maximiser) and one choice of
Blue (the minimiser). :func:`richman_costs`

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

Poorman (floating point, accuracy 1e-9). :func:`poorman_costs` settles the
one-target vertices, then iterates the (monotone) operator from above (all
ones) and from below (all zeros); every fixed point lies between the two
iterates. When they have not met after a few hundred steps (value iteration
can crawl on cycles) it polishes: starting from the midpoint of the two
iterates when they are already close, else from the (floating-point) Richman
costs, it fixes the extreme successors of the current estimate (the same tie
rule as above), solves the resulting smooth system by damped Newton steps,
re-reads the extreme successors, and repeats. A
polished answer is accepted when its residual ``|P - T(P)|`` times the norm of
the inverse Jacobian is below 1e-10 and it lies between the two iterates;
otherwise value iteration continues until the bracket is below 1e-9.

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

A. J. Hoffman and R. M. Karp, "On nonterminating stochastic games",
*Management Science* 12 (1966) (strategy improvement); A. Condon, "The
complexity of stochastic games", *Information and Computation* 96 (1992).
"""

from __future__ import annotations

import warnings
from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import networkx as nx  # type: ignore[import-untyped]
import numpy as np
import scipy.sparse as sp  # type: ignore[import-untyped]
import scipy.sparse.linalg as spla  # type: ignore[import-untyped]
from scipy.optimize import linprog  # type: ignore[import-untyped]

from models.errors import MonopolyError

__all__ = [
    "BiddingGameError",
    "Moves",
    "graph_from_json",
    "optimal_moves",
    "poorman_bids",
    "poorman_costs",
    "richman_bids",
    "richman_costs",
    "richman_costs_finite",
]

_LP_TOL = 1e-9  # a switch in the floating-point phase must gain more than this
_POORMAN_ACCURACY = 1e-9


class BiddingGameError(MonopolyError, ValueError):
    """A bidding-game graph or its JSON form that cannot be solved; the message names the vertex or field."""


class Moves(NamedTuple):
    """Where each player moves the token after winning the bid at a vertex."""

    blue: Hashable
    """A successor of least cost, on a shortest chain of such moves to ``blue`` when there is one."""
    red: Hashable
    """A successor of greatest cost, on a shortest chain of such moves to ``red`` when there is one."""


@dataclass(frozen=True)
class _Game:
    """A validated game: vertices by index in graph order, successors sorted by index."""

    nodes: tuple[Hashable, ...]
    succ: tuple[tuple[int, ...], ...]  # empty for blue and red
    blue: int
    red: int
    settled: dict[int, int]  # non-marked vertex reaching only one marked vertex -> its cost (0 or 1)
    free: tuple[int, ...]  # non-marked vertices that reach both

    def fixed_value(self, v: int) -> int:
        """Cost of a marked or settled vertex."""
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


def _prepare(graph: Any, blue: Hashable, red: Hashable) -> _Game:
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
    return _Game(nodes, tuple(succ), b, r, settled, tuple(free))


def _progress_choices(game: _Game, value: Sequence[Any] | np.ndarray, tol: Any) -> tuple[dict[int, int], dict[int, int]]:
    """Red's ``sigma`` (near-argmax) and Blue's ``tau`` (near-argmin) for every free vertex.

    Among successors within ``tol`` of the extreme, the choice is made so that
    every free vertex has a chain of chosen moves (either player's) to a
    marked or settled vertex when such choices exist; the chain condition keeps
    the linear systems of a fixed choice nonsingular. Deterministic: ties go to
    the earliest vertex in graph order.
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
            raise ArithmeticError("singular system")
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


def _evaluate_pair(game: _Game, sigma: Mapping[int, int], tau: Mapping[int, int]) -> list[Fraction]:
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


def _richman_exact(game: _Game, sigma: dict[int, int], tau: dict[int, int]) -> tuple[list[Fraction], int]:
    """Exact strategy improvement (Blue outside, Red's best reply by policy iteration inside).

    Returns the costs and the number of exact evaluations. Both loops only
    switch to strictly better successors, so values move monotonically and no
    pair repeats; at the end ``x`` is a fixed point of the Richman operator.
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


def _certify(game: _Game, x: Sequence[Fraction]) -> None:
    if x[game.blue] != 0 or x[game.red] != 1:
        raise RuntimeError("Richman certification failed at a marked vertex")
    for v, ws in enumerate(game.succ):
        if not ws:
            continue
        vals = [x[w] for w in ws]
        if 2 * x[v] != max(vals) + min(vals):
            raise RuntimeError(f"Richman certification failed at vertex {game.nodes[v]!r}")


# ---------------------------------------------------------------------------
# Richman: the floating-point strategy improvement that guides the exact phase


def _red_reply_lp(game: _Game, pos: Mapping[int, int], const: Sequence[float], tau: Mapping[int, int]) -> np.ndarray:
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
        raise RuntimeError(f"linear program failed: {res.message}")
    return np.asarray(res.x, dtype=float)


def _richman_float(game: _Game) -> tuple[list[float], int]:
    """Blue's strategy improvement with one LP per step; returns all costs as floats and the LP count."""
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
            if value[best] < value[tau[v]] - _LP_TOL:
                tau[v] = best
                changed = True
        if not changed:
            break
    return value, lps


def _richman_values(game: _Game) -> tuple[list[Fraction], dict[str, int]]:
    if game.free:
        approx, lps = _richman_float(game)
        sigma, tau = _progress_choices(game, approx, _LP_TOL)
        x, evaluations = _richman_exact(game, sigma, tau)
    else:
        x = [Fraction(game.fixed_value(v)) for v in range(len(game.nodes))]
        lps = evaluations = 0
    _certify(game, x)
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
    """
    game = _prepare(graph, blue, red)
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
    """
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise BiddingGameError(f"t: the horizon must be a non-negative integer, got {t!r}")
    game = _prepare(graph, blue, red)
    start = Fraction(0) if lower else Fraction(1)
    x = [start] * len(game.nodes)
    x[game.blue], x[game.red] = Fraction(0), Fraction(1)
    for _ in range(t):
        x = [
            (max(x[w] for w in ws) + min(x[w] for w in ws)) / 2 if ws else x[v]
            for v, ws in enumerate(game.succ)
        ]
    return dict(zip(game.nodes, x, strict=True))


def _costs_list(game: _Game, costs: Mapping[Hashable, Any]) -> list[Any]:
    out = []
    for v in game.nodes:
        if v not in costs:
            raise BiddingGameError(f"costs: no cost for vertex {v!r}")
        out.append(costs[v])
    return out


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
        :func:`optimal_moves` says.
    """
    game = _prepare(graph, blue, red)
    x = _costs_list(game, costs) if costs is not None else _richman_values(game)[0]
    return {
        game.nodes[v]: (max(x[w] for w in ws) - min(x[w] for w in ws)) / 2
        for v, ws in enumerate(game.succ)
        if ws
    }


# ---------------------------------------------------------------------------
# Poorman


class _PoormanOperator:
    """Vectorised ``T(P)(v) = P+(v) / (1 + P+(v) - P-(v))`` over the free vertices."""

    def __init__(self, game: _Game) -> None:
        self.idx = np.array(game.free, dtype=np.intp)
        lengths = [len(game.succ[v]) for v in game.free]
        self.dst = np.array([w for v in game.free for w in game.succ[v]], dtype=np.intp)
        self.starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.intp)

    def __call__(self, full: np.ndarray) -> np.ndarray:
        vals = full[self.dst]
        hi = np.maximum.reduceat(vals, self.starts)
        lo = np.minimum.reduceat(vals, self.starts)
        result: np.ndarray = hi / (1.0 + hi - lo)
        return result


def _poorman_newton(
    game: _Game, full: np.ndarray, sigma: Mapping[int, int], tau: Mapping[int, int]
) -> tuple[np.ndarray, float] | None:
    """Solve ``P(v) = P(sigma v) / (1 + P(sigma v) - P(tau v))`` by damped Newton steps.

    Each step solves the sparse Jacobian system and halves the step until the
    largest residual falls. Returns the full value vector and ``max_v h(v)``
    with ``h = J^{-1} 1`` (the norm of the inverse Jacobian, ``J`` being an
    M-matrix), or ``None`` when Newton fails.
    """
    free = np.array(game.free, dtype=np.intp)
    m = len(free)
    pos = {v: k for k, v in enumerate(game.free)}
    sig = np.array([sigma[v] for v in game.free], dtype=np.intp)
    ta = np.array([tau[v] for v in game.free], dtype=np.intp)
    sig_pos = np.array([pos.get(w, -1) for w in sig], dtype=np.intp)
    tau_pos = np.array([pos.get(w, -1) for w in ta], dtype=np.intp)
    ms, mt = sig_pos >= 0, tau_pos >= 0
    rows = np.arange(m)

    def residual(x: np.ndarray) -> np.ndarray | None:
        a, c = x[sig], x[ta]
        d = 1.0 + a - c
        if np.min(d) < 1e-12:
            return None
        out: np.ndarray = x[free] - a / d
        return out

    def jacobian(x: np.ndarray) -> Any:
        a, c = x[sig], x[ta]
        d = 1.0 + a - c
        da, dc = (1.0 - c) / d**2, a / d**2
        r = np.concatenate((rows, rows[ms], rows[mt]))
        k = np.concatenate((rows, sig_pos[ms], tau_pos[mt]))
        vals = np.concatenate((np.ones(m), -da[ms], -dc[mt]))
        return sp.csc_array((vals, (r, k)), shape=(m, m))  # duplicates are summed

    def solve(jac: Any, rhs: np.ndarray) -> np.ndarray | None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out = np.asarray(spla.spsolve(jac, rhs), dtype=float).reshape(m)
            except (RuntimeError, ValueError):
                return None
        return out if np.all(np.isfinite(out)) else None

    x = full.copy()
    f = residual(x)
    if f is None:
        return None
    norm = float(np.max(np.abs(f)))
    for _ in range(100):
        if norm <= 1e-16:
            break
        step = solve(jacobian(x), -f)
        if step is None:
            return None
        t = 1.0
        while True:
            trial = x.copy()
            trial[free] = np.clip(x[free] + t * step, 0.0, 1.0)
            ft = residual(trial)
            if ft is not None and float(np.max(np.abs(ft))) < norm:
                break
            t /= 2
            if t < 1e-6:
                ft = None
                break
        if ft is None:
            break  # no further progress in floating point
        x, f, norm = trial, ft, float(np.max(np.abs(ft)))
    h = solve(jacobian(x), np.ones(m))
    if h is None or np.min(h) <= 0:
        return None
    return x, float(np.max(h))


def _poorman_values(game: _Game) -> list[float]:
    n = len(game.nodes)
    free = set(game.free)
    base = np.zeros(n)
    for v in range(n):
        if v not in free:
            base[v] = float(game.fixed_value(v))
    if not game.free:
        return [float(v) for v in base]
    op = _PoormanOperator(game)
    idx = op.idx
    upper, lower = base.copy(), base.copy()
    upper[idx], lower[idx] = 1.0, 0.0

    def sweep(k: int) -> bool:
        for _ in range(k):
            upper[idx], lower[idx] = op(upper), op(lower)
            if np.max(upper[idx] - lower[idx]) <= 1e-12:
                return True
        return False

    if sweep(300):
        return [float(v) for v in (upper + lower) / 2]
    # Polish: Newton on the system fixed by the extreme successors, re-reading them after each solve.
    # Starts: the bracket's midpoint when it is already narrow, and the Richman costs (whose
    # extreme successors are usually the Poorman ones too).
    starts = []
    if np.max(upper[idx] - lower[idx]) <= 1e-3:
        starts.append((upper + lower) / 2)
    starts.append(np.array(_richman_float(game)[0]))
    for x in starts:
        tol = 1e-9
        for _ in range(30):
            sigma, tau = _progress_choices(game, x, tol)
            tol = 1e-12
            solved = _poorman_newton(game, x, sigma, tau)
            if solved is None:
                break
            x, hmax = solved
            resid = float(np.max(np.abs(x[idx] - op(x))))
            inside = np.all(x[idx] <= upper[idx] + 1e-12) and np.all(x[idx] >= lower[idx] - 1e-12)
            if not inside:
                break
            if resid * hmax <= 1e-10:
                return [float(v) for v in x]
    if sweep(200_000) or np.max(upper[idx] - lower[idx]) <= _POORMAN_ACCURACY:
        return [float(v) for v in (upper + lower) / 2]
    raise RuntimeError("Poorman costs did not converge to 1e-9")


def poorman_costs(graph: nx.DiGraph, blue: Hashable, red: Hashable) -> dict[Hashable, float]:
    """Poorman costs of every vertex (the winner of a bid pays the bank), to 1e-9.

    Parameters
    ----------
    graph, blue, red
        As for :func:`richman_costs` (same validation).

    Returns
    -------
    dict
        ``P(v)`` for every vertex, in graph order: Blue's share of the money
        still in play above which Blue wins. ``P(blue) = 0``, ``P(red) = 1``
        and ``P(v) = P+(v) / (1 + P+(v) - P-(v))`` elsewhere (Lazarus, Loeb,
        Propp, Stromquist and Ullman 1999).

    Notes
    -----
    Value iteration from above and below, polished by Newton's method on the
    system fixed by the extreme successors; see the module docstring.
    """
    game = _prepare(graph, blue, red)
    return dict(zip(game.nodes, _poorman_values(game), strict=True))


def poorman_bids(
    graph: nx.DiGraph, blue: Hashable, red: Hashable, costs: Mapping[Hashable, float] | None = None
) -> dict[Hashable, float]:
    """Optimal Poorman bid at every vertex other than ``blue`` and ``red``.

    Returns
    -------
    dict
        ``(P+(v) - P-(v)) / (1 + P+(v) - P-(v))`` as a share of the money in
        play (both players' money at that moment), the same for both players.
    """
    game = _prepare(graph, blue, red)
    x = _costs_list(game, costs) if costs is not None else _poorman_values(game)
    out: dict[Hashable, float] = {}
    for v, ws in enumerate(game.succ):
        if ws:
            hi, lo = max(x[w] for w in ws), min(x[w] for w in ws)
            out[game.nodes[v]] = float((hi - lo) / (1 + hi - lo))
    return out


# ---------------------------------------------------------------------------
# Moves and JSON


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
    costs : mapping
        Costs of every vertex.
    tol : float, optional
        Costs within ``tol`` count as equal; default 0 for exact costs
        (``Fraction``/``int``) and 1e-9 otherwise.
    """
    game = _prepare(graph, blue, red)
    x = _costs_list(game, costs)
    if tol is None:
        tol = 0 if all(isinstance(c, (Fraction, int)) for c in x) else _POORMAN_ACCURACY
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

    Returns
    -------
    (graph, blue, red)
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
