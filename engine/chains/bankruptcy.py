"""Ruin probabilities: an absorbing Markov chain over (cash, square).

The abstract model of seed 004 (sections 2.1-2.3)
--------------------------------------------------
A player on a board of ``n = len(net)`` squares rolls the dice each turn
(no doubles or jail in this model), moves ``t`` squares with probability
``dice[t]``, and its cash changes by ``net[new square]``, plus ``go_salary``
when it passes or lands on square 0, and ``go_salary`` once more when it lands
exactly on square 0 with ``go_landing_bonus`` (the rule of that name). It is
ruined the first time its cash is ``<= 0``; cash above ``cap`` is held at
``cap`` (the ruin test comes first).

Of the rule variants (:class:`models.rules.Rules`) the model has only what
its arguments say: one roll a turn is the game with ``doubles_again`` off
and ``doubles_to_jail`` 0, and the model has no jail at all (no Go To Jail,
no jail turns), so the jail rules are outside it: :mod:`engine.chains.state_risk`
plays every doubles and jail variant. ``go_landing_bonus`` is as above.
Money the model does not see (a Free Parking pot, a finite bank, a game end
by cash target or round limit) is in ``net`` or nowhere.
With ``alive_t`` the distribution over live states after ``t`` turns and
``M`` the live-to-live transition matrix, ``r`` the one-turn ruin
probability of each live state::

    P(first ruin at turn t) = alive_{t-1} . r,        alive_t = alive_{t-1} M

and the eventual ruin probability ``h`` solves the absorbing-chain system
``(I - M) h = r`` (Kemeny & Snell, *Finite Markov Chains*, thm 3.3.7), after
setting ``h = 0`` on the states that cannot reach ruin (otherwise ``I - M``
is singular on a closed class of live states).

Cash buckets (pinned choices)
-----------------------------
Cash is carried on a grid of points ``bucket`` dollars apart, aligned on the
starting cash: ``0, c0, c0 + bucket, c0 + 2 bucket, ...`` with
``c0 = start_cash mod bucket`` (or ``bucket`` if that is 0), and ``cap`` as
the last point. A grid point stands for exactly that cash; the point 0
stands for a live player with (almost) no cash. After a move the new cash
``x = c + delta`` is computed exactly from the point ``c``: the ruin test
``x <= 0`` is exact; a live ``x`` between two points is split linearly
between them (the mean is kept; mass split onto the point 0 is alive and is
ruined by the next move that does not bring money); ``x >= cap`` goes to
``cap``. So a start with ``0 < cash < bucket`` is not ruined at turn 0, and
with ``bucket = 1`` and integer ``net``, ``start_cash``, ``go_salary`` and
``cap`` every live cash value is a grid point >= 1 and the result is exact.
``net`` may be any real numbers.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from engine.chains import dice as dice_math
from models.errors import InvalidArgumentError

SEED004_SAMPLE_NET: tuple[int, ...] = tuple(
    {
        0: 50, 1: -18, 2: 8, 3: -12, 6: -45, 7: 4, 8: -22, 9: -14, 11: -38, 13: -26, 14: -20, 16: -30,
        17: 6, 18: -24, 19: -16, 21: -34, 22: 2, 23: -28, 24: -18, 26: -32, 27: -25, 29: -40, 31: -21,
        32: -17, 33: 3, 34: -29, 36: 5, 37: -36, 39: -15,
    }.get(i, 0)
    for i in range(40)
)
"""Seed 004's sample board (section 4.3): the net cash change of landing on each
of its 40 squares. The accuracy of the default buckets is stated on it."""


@dataclass(frozen=True)
class RuinChain:
    """The live-state transition matrix ``M`` (sparse), the one-turn ruin vector ``r``,
    the cash grid and the start state. Live state index = ``grid index * n + square``.

    Attributes
    ----------
    M : scipy.sparse.csr_matrix
        Live-to-live transition probabilities of one turn.
    r : numpy.ndarray
        The one-turn ruin probability of each live state.
    grid : numpy.ndarray
        The cash grid (:func:`cash_grid`).
    n : int
        The number of squares.
    start : int or None
        The start's live state; ``None`` when ruined at turn 0.

    Examples
    --------
    Two squares, the second costing $100, a "die" of 1 or 2: from $150 on square 0 each turn
    moves to square 1 (-$100) or back to square 0 with probability 1/2.

    >>> chain = build_chain([0, -100], start_cash=150, bucket=1, cap=400, dice=[0, 0.5, 0.5])
    >>> chain.M.shape, chain.start, chain.n
    ((802, 802), 300, 2)
    """

    M: sp.csr_matrix
    r: np.ndarray
    grid: np.ndarray
    n: int
    start: int | None  # None: ruined at turn 0


MAX_GRID_POINTS = 2048
"""Most points of a cash grid: above ``bucket * MAX_GRID_POINTS`` the step grows with the cap
(:func:`grid_step`), so a ruin chain's memory and time stay bounded for any accepted state."""


def grid_step(bucket: float, cap: float) -> float:
    """The step of the cash grid: ``bucket``, or ``ceil(cap / MAX_GRID_POINTS)`` when that is larger.

    Parameters
    ----------
    bucket : float
        The step asked for.
    cap : float
        The grid's top.

    Returns
    -------
    float
        The step used.

    Examples
    --------
    >>> grid_step(50, 2000), grid_step(1, 10_000)
    (50.0, 5.0)
    """
    return max(float(bucket), float(math.ceil(cap / MAX_GRID_POINTS)))


def cash_grid(start_cash: float, bucket: float, cap: float) -> np.ndarray:
    """The cash grid of the ruin chains: ``0``, then ``c0, c0 + step, ...`` below ``cap``,
    then ``cap``, with ``c0 = start_cash mod step`` (``step`` when that is 0) so that
    ``start_cash`` is a grid point. ``step`` is :func:`grid_step` (``bucket`` unless the grid
    would have more than :data:`MAX_GRID_POINTS` points). Shared by :func:`ruin_pmf` and
    :mod:`engine.chains.state_risk`.

    Parameters
    ----------
    start_cash : float
        The cash the grid is aligned on.
    bucket : float
        The step asked for (:func:`grid_step`).
    cap : float
        The last point.

    Returns
    -------
    numpy.ndarray
        The points, increasing, from 0 to ``cap``.

    Raises
    ------
    InvalidArgumentError
        ``bucket`` or ``cap`` is not positive.

    Examples
    --------
    >>> cash_grid(120, 50, 400).tolist()
    [0.0, 20.0, 70.0, 120.0, 170.0, 220.0, 270.0, 320.0, 370.0, 400.0]
    """
    if bucket <= 0:
        raise InvalidArgumentError("bucket must be positive")
    if cap <= 0:
        raise InvalidArgumentError("cap must be positive")
    bucket = grid_step(bucket, cap)
    c0 = float(np.fmod(start_cash, bucket)) if start_cash > 0 else bucket
    if c0 <= 0:
        c0 = bucket
    if c0 >= cap:
        return np.array([0.0, float(cap)])
    count = int(np.ceil((cap - c0) / bucket))
    pts = c0 + bucket * np.arange(count)
    pts = pts[pts < cap]
    return np.concatenate([[0.0], pts, [float(cap)]])


def build_chain(
    net: Sequence[float],
    start_cash: float,
    start_square: int = 0,
    bucket: float = 50,
    cap: float = 2000,
    go_salary: float = 0,
    dice: Sequence[float] | None = None,
    go_landing_bonus: bool = False,
) -> RuinChain:
    """Assemble ``M`` and ``r`` for the abstract model (module docstring).

    Parameters
    ----------
    net : sequence of float
        The cash change of landing on each square (the board's length is ``len(net)``).
    start_cash : float
        Cash at turn 0 (``<= 0``: ruined already).
    start_square : int, default 0
        The square the player starts on.
    bucket : float, default 50
        The cash grid's step (``1`` with integer inputs: exact).
    cap : float, default 2000
        Cash above it is held at it.
    go_salary : float, default 0
        Paid when passing or landing on square 0.
    dice : sequence of float or None
        The probability of each total, indexed by the total; ``None``: two fair dice.
    go_landing_bonus : bool, default False
        Landing exactly on square 0 pays the salary twice.

    Returns
    -------
    RuinChain
        The chain.

    Raises
    ------
    InvalidArgumentError
        An empty ``net``, a ``start_square`` off the board, or ``dice`` that are not a
        probability vector (and :func:`cash_grid`'s).

    Examples
    --------
    >>> chain = build_chain([0, -100], start_cash=150, bucket=1, cap=400, dice=[0, 0.5, 0.5])
    >>> round(float(chain.r[chain.start]), 3)  # no ruin in the first turn from $150
    0.0
    >>> build_chain([0, -100], start_cash=150, start_square=2)
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: start_square 2 is off a board of 2 squares
    """
    net_a = np.asarray(net, dtype=float)
    n = len(net_a)
    if n < 1:
        raise InvalidArgumentError("net needs at least one square")
    if not 0 <= start_square < n:
        raise InvalidArgumentError(f"start_square {start_square} is off a board of {n} squares")
    pd = np.asarray(dice if dice is not None else dice_math.total_pmf(), dtype=float)
    if np.any(pd < 0) or abs(pd.sum() - 1.0) > 1e-9:
        raise InvalidArgumentError("dice must be a probability vector indexed by the total")
    grid = cash_grid(start_cash, bucket, cap)
    k = len(grid)
    totals = np.nonzero(pd)[0]
    squares = np.arange(n)
    # Every live state has the same moves (one per total): build CSR rows directly,
    # two entries (upper and lower grid neighbour) per total, in row order.
    dest = (squares[:, None] + totals[None, :]) % n  # n x T
    passed = (squares[:, None] + totals[None, :]) >= n  # passing or landing on square 0
    delta = net_a[dest] + go_salary * passed  # n x T
    if go_landing_bonus:  # landing exactly on square 0 pays the salary twice
        delta = delta + go_salary * (dest == 0)
    prob = np.broadcast_to(pd[totals], delta.shape)
    x = grid[:, None, None] + delta[None, :, :]  # K x n x T
    dead, hi, lo, w_hi = _split(grid, x)
    ruin = (prob[None, :, :] * dead).sum(axis=2).ravel()
    live_p = np.where(dead, 0.0, prob[None, :, :])
    data = np.stack([live_p * w_hi, live_p * (1.0 - w_hi)], axis=-1).reshape(k * n, -1)
    cols = np.stack([hi * n + dest[None], lo * n + dest[None]], axis=-1).reshape(k * n, -1)
    width = data.shape[1]
    m = sp.csr_matrix((data.ravel(), cols.ravel(), np.arange(k * n + 1) * width), shape=(k * n, k * n))
    if start_cash <= 0:
        start = None
    else:
        g0 = int(np.searchsorted(grid, min(start_cash, cap)))
        start = g0 * n + start_square
    return RuinChain(m, ruin, grid, n, start)


def compiled_chains() -> bool:
    """Whether the chains take their compiled path (:mod:`engine.chains._chain_kernel`): when numba
    is already loaded in this process (any process that simulates) and compiles (under
    ``NUMBA_DISABLE_JIT`` its loops would run in Python), so that a command that never
    simulates (``risk``, ``odds``) does not import it for this. Both paths give the same
    numbers to the bit (``tests/engine/test_chain_kernel.py``); only the time differs.

    Returns
    -------
    bool
        Whether the compiled path is taken.

    Examples
    --------
    >>> import numba
    >>> compiled_chains() == (not numba.config.DISABLE_JIT)
    True
    """
    config = getattr(sys.modules.get("numba"), "config", None)
    return config is not None and not config.DISABLE_JIT


def _split(grid: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The bucket rule on new cash values ``x`` (any shape): ruined (``x <= 0``),
    and for live values the upper and lower grid neighbours of ``min(x, cap)``
    with the upper one's weight (linear split; 1 on an exact grid point)."""
    k = len(grid)
    dead = x <= 0
    xs = np.minimum(x, grid[-1])
    hi = np.minimum(np.searchsorted(grid, xs.ravel(), side="left"), k - 1).reshape(xs.shape)
    lo = np.maximum(hi - 1, 0)
    span = np.where(hi > lo, grid[hi] - grid[lo], 1.0)
    w_hi = np.where(grid[hi] == xs, 1.0, (xs - grid[lo]) / span)
    return dead, hi, lo, w_hi


def cash_moves(
    grid: np.ndarray,
    n_pos: int,
    src: np.ndarray,
    dst: np.ndarray,
    delta: np.ndarray,
    prob: np.ndarray,
    n_dst: int | None = None,
    pre: np.ndarray | None = None,
    transposed: bool = False,
) -> tuple[sp.spmatrix, np.ndarray]:
    """The sparse live-to-live matrix and the ruin vector of a set of moves.

    Move ``i`` takes position ``src[i]`` to ``dst[i]`` with probability
    ``prob[i]`` and changes cash by ``delta[i]``; it is applied at every grid
    point (live state ``g * n_pos + position``). A move with a ``pre`` payment
    pays it first: it ruins if ``c + pre <= 0`` even when ``delta`` would bring
    the cash back up. Cash follows the bucket rule of
    the module docstring: ruin if ``x <= 0``, else held at ``grid[-1]`` (the
    cap) and split linearly between neighbouring points.

    Parameters
    ----------
    grid : numpy.ndarray
        The cash grid (:func:`cash_grid`).
    n_pos : int
        Positions per grid point in the source states.
    src, dst : numpy.ndarray
        Each move's source and destination position.
    delta : numpy.ndarray
        Each move's cash change.
    prob : numpy.ndarray
        Each move's probability.
    n_dst : int or None
        Positions per grid point in the destination states (``None``: ``n_pos``).
    pre : numpy.ndarray or None
        A payment each move makes before ``delta`` (ruin if it cannot be paid).
    transposed : bool, default False
        Return ``M^T`` (a CSC view, the forward step) instead of ``M``.

    Returns
    -------
    tuple of (scipy.sparse.spmatrix, numpy.ndarray)
        ``M`` (or ``M^T``) and the ruin vector, one entry per source state.

    Examples
    --------
    One move costing $75 on a grid 0, 50, 100: from $100 the $25 left is split between the
    points 0 and 50; from 0 or 50 it ruins.

    >>> import numpy as np
    >>> m, r = cash_moves(np.array([0.0, 50.0, 100.0]), 1, np.array([0]), np.array([0]), np.array([-75.0]), np.array([1.0]))
    >>> m.toarray().round(3).tolist(), r.tolist()
    ([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.5, 0.5, 0.0]], [1.0, 1.0, 0.0])
    """
    k = len(grid)
    n_dst = n_pos if n_dst is None else n_dst
    # Sort the moves by source: with grid-major rows the CSR structure then
    # comes out in order, two entries (upper, lower neighbour) per move.
    order = np.argsort(src, kind="stable")
    src, dst, delta, prob = src[order], dst[order], delta[order], prob[order]
    if compiled_chains():  # the same entries, compiled (engine.chains._chain_kernel)
        from engine.chains._chain_kernel import move_entries

        has_pre = pre is not None
        pre_s = np.ascontiguousarray(pre[order], dtype=float) if pre is not None else np.zeros(0)
        grid_f, delta_f, prob_f = (np.ascontiguousarray(a, dtype=float) for a in (grid, delta, prob))
        data, indices, indptr, ruin = move_entries(grid_f, n_pos, n_dst, src, dst, delta_f, prob_f, pre_s, has_pre)
        m = sp.csr_matrix((data, indices, indptr), shape=(k * n_pos, k * n_dst))
        return (m.T if transposed else m), ruin
    if pre is None:
        x = grid[:, None] + delta[None, :]
        dead = x <= 0
    else:
        pre = pre[order]
        first = grid[:, None] + pre[None, :]
        x = first + delta[None, :]
        dead = ((first <= 0) & (pre < 0)[None, :]) | (x <= 0)  # a zero pre-payment is no payment
    p_all = np.broadcast_to(prob, x.shape)
    rows = (np.arange(k, dtype=np.int64)[:, None] * n_pos + src[None, :]).ravel()
    ruin = np.bincount(rows, weights=(p_all * dead).ravel(), minlength=k * n_pos)
    _, hi, lo, w_hi = _split(grid, x)
    p_live = np.where(dead, 0.0, p_all)
    data = np.stack([p_live * w_hi, p_live * (1.0 - w_hi)], axis=-1).ravel()
    indices = np.stack([hi * n_dst + dst[None, :], lo * n_dst + dst[None, :]], axis=-1).ravel()
    per_row = 2 * np.bincount(src, minlength=n_pos)
    indptr = np.concatenate([[0], np.cumsum(np.tile(per_row, k))])
    m = sp.csr_matrix((data, indices, indptr), shape=(k * n_pos, k * n_dst))
    if transposed:  # M^T (a CSC view, no copy): the forward step is M^T @ alive
        m = m.T
    return m, ruin


def ruin_pmf(
    net: Sequence[float],
    start_cash: float,
    start_square: int = 0,
    turns: int = 20,
    bucket: float = 50,
    cap: float = 2000,
    go_salary: float = 0,
    dice: Sequence[float] | None = None,
    go_landing_bonus: bool = False,
) -> np.ndarray:
    """Probability of first ruin at each turn ``0..turns`` (length ``turns + 1``).

    Entry 0 is 1 when ``start_cash <= 0`` (ruined before moving), else 0.
    ``dice`` is a probability vector indexed by the total (default: 2d6).
    See the module docstring for the model and the bucket rule.

    Parameters
    ----------
    net : sequence of float
        The cash change of landing on each square (the board's length is ``len(net)``).
    start_cash : float
        Cash at turn 0 (``<= 0``: ruined already).
    start_square : int, default 0
        The square the player starts on.
    turns : int, default 20
        The last turn.
    bucket : float, default 50
        The cash grid's step (``1`` with integer inputs: exact).
    cap : float, default 2000
        Cash above it is held at it.
    go_salary : float, default 0
        Paid when passing or landing on square 0.
    dice : sequence of float or None
        The probability of each total, indexed by the total; ``None``: two fair dice.
    go_landing_bonus : bool, default False
        Landing exactly on square 0 pays the salary twice.

    Returns
    -------
    numpy.ndarray
        ``turns + 1`` probabilities, ``P(first ruin at turn t)``.

    Raises
    ------
    InvalidArgumentError
        ``turns`` is negative (and :func:`build_chain`'s).

    Examples
    --------
    Ruin needs two landings on the $100 square in a row from $150: turn 2 with probability
    1/2 x 1/2 (by hand).

    >>> p = ruin_pmf([0, -100], start_cash=150, turns=3, bucket=1, dice=[0, 0.5, 0.5])
    >>> [round(float(v), 4) for v in p]
    [0.0, 0.0, 0.25, 0.25]
    """
    if turns < 0:
        raise InvalidArgumentError("turns must be >= 0")
    chain = build_chain(net, start_cash, start_square, bucket, cap, go_salary, dice, go_landing_bonus)
    out = np.zeros(turns + 1)
    if chain.start is None:
        out[0] = 1.0
        return out
    alive = np.zeros(chain.M.shape[0])
    alive[chain.start] = 1.0
    mt = chain.M.T  # a CSC view: no conversion; mt @ v is the forward step
    for t in range(1, turns + 1):
        out[t] = alive @ chain.r
        alive = mt @ alive
    return out


def eventual_ruin(
    net: Sequence[float],
    start_cash: float,
    start_square: int = 0,
    bucket: float = 50,
    cap: float = 2000,
    go_salary: float = 0,
    dice: Sequence[float] | None = None,
    go_landing_bonus: bool = False,
) -> float:
    """Probability of ruin at some turn, solving ``(I - M) h = r`` (module docstring).

    States from which ruin cannot be reached (found by a backward search over
    the transition graph from the states with ``r > 0``) get ``h = 0`` and are
    dropped before the solve.

    Parameters
    ----------
    net : sequence of float
        The cash change of landing on each square (the board's length is ``len(net)``).
    start_cash : float
        Cash at turn 0 (``<= 0``: ruined already).
    start_square : int, default 0
        The square the player starts on.
    bucket : float, default 50
        The cash grid's step (``1`` with integer inputs: exact).
    cap : float, default 2000
        Cash above it is held at it.
    go_salary : float, default 0
        Paid when passing or landing on square 0.
    dice : sequence of float or None
        The probability of each total, indexed by the total; ``None``: two fair dice.
    go_landing_bonus : bool, default False
        Landing exactly on square 0 pays the salary twice.

    Returns
    -------
    float
        The probability of ruin, ever.

    Examples
    --------
    Without a salary the cash only falls: ruin is certain. With $100 for passing Go every lap
    pays for itself and the cash never falls below $50 (by hand):

    >>> eventual_ruin([0, -100], start_cash=150, bucket=1, dice=[0, 0.5, 0.5])
    1.0
    >>> eventual_ruin([0, -100], start_cash=150, bucket=1, dice=[0, 0.5, 0.5], go_salary=100)
    0.0
    """
    chain = build_chain(net, start_cash, start_square, bucket, cap, go_salary, dice, go_landing_bonus)
    if chain.start is None:
        return 1.0
    size = chain.M.shape[0]
    m = chain.M.copy()
    m.eliminate_zeros()  # explicit zeros (dead moves) are not edges
    can = chain.r > 0
    pred = m.tocsc()  # column j lists the predecessors of j
    frontier = np.nonzero(can)[0]
    while frontier.size:
        sub = pred[:, frontier]
        new = np.unique(sub.indices)
        new = new[~can[new]]
        can[new] = True
        frontier = new
    if not can[chain.start]:
        return 0.0
    keep = np.nonzero(can)[0]
    q = m[keep][:, keep]
    import scipy.sparse.linalg as spla  # only this eventual-ruin solve needs it: imported here, not by every command

    a = sp.identity(len(keep), format="csc") - q.tocsc()
    h = spla.spsolve(a, chain.r[keep])
    pos = int(np.searchsorted(keep, chain.start))
    return float(min(1.0, max(0.0, h[pos]))) if size else 0.0
