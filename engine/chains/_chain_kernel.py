"""The ruin chains' two inner loops, compiled (numba), to the bit of their NumPy/SciPy forms.

An agent builds and runs some 175 ruin chains a game (:mod:`solver.analysis.reserve`,
the funded build plan, the bargaining curves): each is four move sets turned into
sparse matrices (:func:`engine.chains.bankruptcy.cash_moves`) and a backward pass of about
80 sparse products (:func:`engine.chains.state_risk._backward`). On matrices of a few
thousand entries most of that time was NumPy's and SciPy's per-call overhead (some
twenty array operations per move set, a zeroed output and a dispatch per product),
about a third of the agent's CPU per game. The three functions here do the same
arithmetic in one compiled call each:

:func:`move_entries`
    The entries of :func:`engine.chains.bankruptcy.cash_moves`'s matrix and its ruin
    vector: every product, sum, comparison and division of the NumPy form, one
    element at a time in the same order (``np.bincount`` adds its weights in
    index order from 0.0; ``np.searchsorted(side="left")`` is the first grid
    point not below the value, found by a walk that each move resumes from
    one grid point to the next).
:func:`csr_add`
    The sums ``P = A + D`` and ``Q = A + H`` of the backward pass, stored entry
    for entry as SciPy's ``csr_plus_csr`` stores them.
:func:`backward_pass`
    The turn loop of :func:`engine.chains.state_risk._backward`: SciPy's ``csr_matvec``
    (``y[i] = 0.0 + sum_jj data[jj] * x[indices[jj]]`` in storage order,
    ``scipy/sparse/sparsetools/csr.h``) and the vector sums in NumPy's order
    (``k + pu + w`` is ``(k + pu) + w``).

numba compiles without fast-math, so nothing is reassociated or fused into a
multiply-add; ``tests/engine/test_chain_kernel.py`` compares both with the
NumPy/SciPy forms bit for bit on the chains of every bundled instance and
rule preset. Callers take this path only when numba is already imported
(:func:`engine.chains.bankruptcy.compiled_chains`), so that commands that never
simulate (``risk``, ``odds``) do not pay numba's import for it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

_jit: Any = njit(cache=True, nogil=True)
_jit_inline: Any = njit(cache=True, nogil=True, inline="always")


@_jit
def move_entries(
    grid: np.ndarray,
    n_pos: int,
    n_dst: int,
    src: np.ndarray,
    dst: np.ndarray,
    delta: np.ndarray,
    prob: np.ndarray,
    pre: np.ndarray,
    has_pre: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(data, indices, indptr, ruin)`` of :func:`engine.chains.bankruptcy.cash_moves` for moves
    already sorted by source (stable), ``pre`` ignored unless ``has_pre``.

    Per grid point ``g`` and move ``i`` (cash ``c = grid[g]``): ``x = c + delta`` (with a
    pre-payment ``(c + pre) + delta``); dead when ``x <= 0`` or, with a negative ``pre``,
    ``c + pre <= 0``; the upper neighbour ``hi`` = the first grid point ``>= min(x, cap)``
    (at most the last), ``lo = max(hi - 1, 0)``, weight ``w = 1`` on a grid point else
    ``(min(x, cap) - grid[lo]) / span``; entries ``p w`` and ``p (1 - w)`` with ``p = 0``
    when dead, in row ``g n_pos + src`` at columns ``hi n_dst + dst`` and ``lo n_dst + dst``."""
    k = grid.shape[0]
    m = src.shape[0]
    cap = grid[k - 1]
    data = np.empty(2 * k * m)
    indices = np.empty(2 * k * m, dtype=np.int64)
    ruin = np.zeros(k * n_pos)
    per_row = np.zeros(n_pos, dtype=np.int64)
    for i in range(m):
        per_row[src[i]] += 2
    indptr = np.empty(k * n_pos + 1, dtype=np.int64)
    indptr[0] = 0
    acc = 0
    for g in range(k):
        for s in range(n_pos):
            acc += per_row[s]
            indptr[g * n_pos + s + 1] = acc
    first_ge = np.zeros(m, dtype=np.int64)
    e = 0
    for g in range(k):
        c = grid[g]
        for i in range(m):
            p = prob[i]
            if has_pre:
                first = c + pre[i]
                x = first + delta[i]
                dead = (first <= 0.0 and pre[i] < 0.0) or x <= 0.0
            else:
                x = c + delta[i]
                dead = x <= 0.0
            if dead:  # np.bincount's weight p * True, which is p; a live move adds 0.0
                ruin[g * n_pos + src[i]] += p
            xs = min(x, cap)
            # np.searchsorted(grid, xs, side="left"), the first index with grid[idx] >= xs:
            # xs never decreases with g (a sum with fixed terms is monotone), so the walk
            # resumes where this move's last one stopped.
            j = first_ge[i]
            while j < k and grid[j] < xs:
                j += 1
            first_ge[i] = j
            hi = min(j, k - 1)
            lo = max(hi - 1, 0)
            span = grid[hi] - grid[lo] if hi > lo else 1.0
            w_hi = 1.0 if grid[hi] == xs else (xs - grid[lo]) / span
            p_live = 0.0 if dead else p
            data[e] = p_live * w_hi
            data[e + 1] = p_live * (1.0 - w_hi)
            indices[e] = hi * n_dst + dst[i]
            indices[e + 1] = lo * n_dst + dst[i]
            e += 2
    return data, indices, indptr, ruin


@_jit
def _canonical(ptr: np.ndarray, idx: np.ndarray) -> bool:
    """SciPy's ``csr_has_canonical_format``: every row's columns strictly increasing."""
    for i in range(ptr.shape[0] - 1):
        if ptr[i] > ptr[i + 1]:
            return False
        for jj in range(ptr[i] + 1, ptr[i + 1]):
            if idx[jj - 1] >= idx[jj]:
                return False
    return True


@_jit_inline
def _gather(
    ptr: np.ndarray, idx: np.ndarray, dat: np.ndarray, i: int, row: np.ndarray, nxt: np.ndarray, head: int, length: int
) -> tuple[int, int]:
    """``csr_binop_csr_general``'s pass over row ``i`` of one operand: each entry added to
    ``row`` at its column, each column met for the first time pushed on the linked list
    (``nxt``, ``head``; ``length`` columns)."""
    for jj in range(ptr[i], ptr[i + 1]):
        j = idx[jj]
        row[j] += dat[jj]
        if nxt[j] == -1:
            nxt[j] = head
            head = j
            length += 1
    return head, length


@_jit
def csr_add(
    a_ptr: np.ndarray,
    a_idx: np.ndarray,
    a_dat: np.ndarray,
    b_ptr: np.ndarray,
    b_idx: np.ndarray,
    b_dat: np.ndarray,
    n_col: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``A + B`` as SciPy's ``csr_plus_csr`` stores it (``scipy/sparse/sparsetools/csr.h``),
    entry for entry and in the same order, zeros dropped.

    Both canonical: each row merged by column. Otherwise (``csr_binop_csr_general``, what
    :func:`engine.chains.bankruptcy.cash_moves`'s matrices take: each move's two entries come
    upper neighbour first): each row of ``A`` then of ``B`` accumulated per column from 0.0
    in storage order, the columns kept in a linked list in order of first appearance, and
    written out from its head (the last column to appear first) as ``a + b``."""
    n_row = a_ptr.shape[0] - 1
    cap = (a_ptr[n_row] - a_ptr[0]) + (b_ptr[n_row] - b_ptr[0])
    c_ptr = np.empty(n_row + 1, dtype=np.int64)
    c_idx = np.empty(cap, dtype=np.int64)
    c_dat = np.empty(cap)
    c_ptr[0] = 0
    nnz = 0
    if _canonical(a_ptr, a_idx) and _canonical(b_ptr, b_idx):
        for i in range(n_row):
            pa, ea, pb, eb = a_ptr[i], a_ptr[i + 1], b_ptr[i], b_ptr[i + 1]
            while pa < ea or pb < eb:  # the column met first; a + b, a + 0.0 or 0.0 + b
                take_a = pb >= eb or (pa < ea and a_idx[pa] <= b_idx[pb])
                take_b = pa >= ea or (pb < eb and b_idx[pb] <= a_idx[pa])
                j = a_idx[pa] if take_a else b_idx[pb]
                r = (a_dat[pa] if take_a else 0.0) + (b_dat[pb] if take_b else 0.0)
                pa += take_a
                pb += take_b
                if r != 0.0:
                    c_idx[nnz] = j
                    c_dat[nnz] = r
                    nnz += 1
            c_ptr[i + 1] = nnz
        return c_ptr, c_idx[:nnz], c_dat[:nnz]
    nxt = np.full(n_col, -1, dtype=np.int64)
    a_row = np.zeros(n_col)
    b_row = np.zeros(n_col)
    for i in range(n_row):
        head, length = _gather(a_ptr, a_idx, a_dat, i, a_row, nxt, -2, 0)
        head, length = _gather(b_ptr, b_idx, b_dat, i, b_row, nxt, head, length)
        for _ in range(length):
            t = np.uint64(head)  # a column (the sentinel -2 is never reached)
            r = a_row[t] + b_row[t]
            if r != 0.0:
                c_idx[nnz] = head
                c_dat[nnz] = r
                nnz += 1
            head = nxt[t]
            nxt[t] = -1
            a_row[t] = 0.0
            b_row[t] = 0.0
        c_ptr[i + 1] = nnz
    return c_ptr, c_idx[:nnz], c_dat[:nnz]


@_jit
def _matvec(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray, x: np.ndarray, y: np.ndarray) -> None:
    """SciPy's ``csr_matvec`` into ``y`` (zeroed first there): each row's sum from 0.0, in
    storage order. The index arrays come unsigned (:func:`backward_pass`), which spares
    numba's negative-index wraparound on every load."""
    for i in range(y.shape[0]):
        s = 0.0
        for jj in range(indptr[i], indptr[i + 1]):
            s += data[jj] * x[indices[jj]]
        y[i] = s


@_jit
def backward_pass(
    p_ptr: np.ndarray,
    p_idx: np.ndarray,
    p_dat: np.ndarray,
    q_ptr: np.ndarray,
    q_idx: np.ndarray,
    q_dat: np.ndarray,
    c_ptr: np.ndarray,
    c_idx: np.ndarray,
    c_dat: np.ndarray,
    k: np.ndarray,
    u: np.ndarray,
    turns: int,
    rolls: int,
    jails: bool,
) -> np.ndarray:
    """``turns`` steps of :func:`engine.chains.state_risk._backward` from ``u`` (not modified):
    ``u <- k + M u`` with one roll a turn (``M = Q`` when its double goes to jail, else
    ``P``), else ``pu = P u``, ``inner = Q u`` (or ``pu``), then ``inner <- pu + C inner``
    for the middle rolls and ``u <- (k + pu) + C inner`` (or ``k + inner``). The matrices
    come as CSR arrays with unsigned indices (views of SciPy's, which are never negative)."""
    n = u.shape[0]
    u = u.copy()
    pu = np.empty(n)
    inner = np.empty(n)
    ci = np.empty(n)
    for _ in range(turns):
        if rolls == 1:
            if jails:
                _matvec(q_ptr, q_idx, q_dat, u, pu)
            else:
                _matvec(p_ptr, p_idx, p_dat, u, pu)
            for i in range(n):
                u[i] = k[i] + pu[i]
            continue
        _matvec(p_ptr, p_idx, p_dat, u, pu)
        if jails:
            _matvec(q_ptr, q_idx, q_dat, u, inner)
        else:
            inner[:] = pu
        for _ in range(rolls - 2 if jails else rolls - 1):
            _matvec(c_ptr, c_idx, c_dat, inner, ci)
            for i in range(n):
                inner[i] = pu[i] + ci[i]
        if jails:
            _matvec(c_ptr, c_idx, c_dat, inner, ci)
            for i in range(n):
                u[i] = (k[i] + pu[i]) + ci[i]
        else:
            for i in range(n):
                u[i] = k[i] + inner[i]
    return u
