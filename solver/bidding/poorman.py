"""Poorman bidding games: costs and bids.

The game, the cost conventions and the graphs accepted are described in
:mod:`solver.bidding.graph`.

Algorithm
---------
Poorman (floating point, accuracy 1e-9). :func:`poorman_costs` settles the
one-target vertices, then iterates the (monotone) operator from above (all
ones) and from below (all zeros); every fixed point lies between the two
iterates. When they have not met after a few hundred steps (value iteration
can crawl on cycles) it polishes: starting from the midpoint of the two
iterates when they are already close, else from the (floating-point) Richman
costs (:func:`solver.bidding.richman.richman_float`), it fixes the extreme
successors of the current estimate (the same tie rule as for Richman costs,
:func:`solver.bidding.graph.progress_choices`), solves the resulting smooth
system by damped Newton steps, re-reads the extreme successors, and repeats. A
polished answer is accepted when its residual ``|P - T(P)|`` times the norm of
the inverse Jacobian is below 1e-10 and it lies between the two iterates;
otherwise value iteration continues until the bracket is below 1e-9.

References
----------
A. J. Lazarus, D. E. Loeb, J. G. Propp, W. R. Stromquist and D. H. Ullman,
"Combinatorial games under auction play", *Games and Economic Behavior* 27
(1999) (Poorman games, the formula for ``P(v)``).
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Mapping
from typing import Any

import networkx as nx
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from models.errors import ComputationError
from solver.bidding.graph import (
    POORMAN_ACCURACY,
    Game,
    costs_list,
    prepare,
    progress_choices,
)
from solver.bidding.richman import richman_float

__all__ = ["poorman_bids", "poorman_costs"]


class _PoormanOperator:
    """Vectorised ``T(P)(v) = P+(v) / (1 + P+(v) - P-(v))`` over the free vertices."""

    def __init__(self, game: Game) -> None:
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
    game: Game, full: np.ndarray, sigma: Mapping[int, int], tau: Mapping[int, int]
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


def _poorman_values(game: Game) -> list[float]:
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
    starts.append(np.array(richman_float(game)[0]))
    for x in starts:
        tol = 1e-9
        for _ in range(30):
            sigma, tau = progress_choices(game, x, tol)
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
    if sweep(200_000) or np.max(upper[idx] - lower[idx]) <= POORMAN_ACCURACY:
        return [float(v) for v in (upper + lower) / 2]
    raise ComputationError("Poorman costs did not converge to 1e-9")


def poorman_costs(graph: nx.DiGraph, blue: Hashable, red: Hashable) -> dict[Hashable, float]:
    """Poorman costs of every vertex (the winner of a bid pays the bank), to 1e-9.

    Parameters
    ----------
    graph, blue, red
        As for :func:`~solver.bidding.richman.richman_costs` (same validation).

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

    Examples
    --------
    On the chain ``b - u - w - r`` the Poorman costs are the golden ratio's ``(3 - sqrt 5) / 2``
    and its complement (Lazarus et al. 1999):

    >>> import json
    >>> from solver.bidding.graph import graph_from_json
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> {v: round(c, 4) for v, c in poorman_costs(g, blue, red).items()}
    {'u': 0.382, 'b': 0.0, 'w': 0.618, 'r': 1.0, 's': 0.5}
    """
    game = prepare(graph, blue, red)
    return dict(zip(game.nodes, _poorman_values(game), strict=True))


def poorman_bids(
    graph: nx.DiGraph, blue: Hashable, red: Hashable, costs: Mapping[Hashable, float] | None = None
) -> dict[Hashable, float]:
    """Optimal Poorman bid at every vertex other than ``blue`` and ``red``.

    Parameters
    ----------
    graph, blue, red
        As for :func:`poorman_costs`.
    costs : mapping, optional
        The costs from :func:`poorman_costs` (computed when omitted).

    Returns
    -------
    dict
        ``(P+(v) - P-(v)) / (1 + P+(v) - P-(v))`` as a share of the money in
        play (both players' money at that moment), the same for both players.

    Examples
    --------
    >>> import json
    >>> from solver.bidding.graph import graph_from_json
    >>> g, blue, red = graph_from_json(json.load(open("instances/graphs/example-game.json")))
    >>> {v: round(c, 4) for v, c in poorman_bids(g, blue, red).items()}
    {'u': 0.382, 'w': 0.382, 's': 0.5}
    """
    game = prepare(graph, blue, red)
    x = costs_list(game, costs) if costs is not None else _poorman_values(game)
    out: dict[Hashable, float] = {}
    for v, ws in enumerate(game.succ):
        if ws:
            hi, lo = max(x[w] for w in ws), min(x[w] for w in ws)
            out[game.nodes[v]] = float((hi - lo) / (1 + hi - lo))
    return out
