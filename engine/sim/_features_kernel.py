"""The horizon model's features, compiled (numba), for scoring simulated games.

:func:`engine.sim.rollout.simulate` scores every game cut at the horizon with the
horizon model (:mod:`engine.sim.win_model`): features of every player of every
game, then the conditional logit. With NumPy the features of a batch of 160
games cost about 0.6 ms, some forty array operations on ``games x players x
squares`` arrays, about a seventh of an agent's simulation time. :func:`features`
computes the same numbers game by game in one compiled call.

It is :func:`engine.sim.win_model.features_from_arrays` to the bit: every sum is
taken in NumPy's order for a contiguous ``add.reduce`` (the identity 0.0 plus
the pairwise sum of ``pairwise_sum`` in NumPy's ``loops_utils.h``: eight
accumulators over blocks of eight, combined as ``((r0 + r1) + (r2 + r3)) +
((r4 + r5) + (r6 + r7))``, then the rest one by one; halves above 128
elements), the products with a 0/1 mask are the value or 0.0, and numba
compiles without fast-math, so nothing is reassociated or fused. The
``arcsinh`` of feature 2 is left to NumPy (:func:`features` applies it to
the compiled argument): NumPy may use its own vectorised ``arcsinh``, which
differed from the C library's in the last bit for about one value in six.
``tests/engine/test_win_model.py`` compares the two bit for bit on random
end states of five boards and on the bundled instances themselves.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engine.sim import win_model as wm

_jit: Any = njit(cache=True, nogil=True)
PW_BLOCKSIZE = 128
MAX_LEN = 248
"""The longest sum :func:`_sum` takes: NumPy's two halves of a longer array are one block each
(at most 128) up to 248 values (``n2 = n // 2 - (n // 2) % 8``; boards have at most 200 squares,
``models.limits``)."""


@_jit
def _block(a: np.ndarray, lo: int, n: int) -> float:
    """NumPy's ``pairwise_sum`` of ``a[lo:lo + n]`` for ``n <= 128`` (one block)."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[lo + i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    while i < n - (n % 8):
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@_jit
def _sum(a: np.ndarray) -> float:
    """``np.add.reduce`` of a contiguous 1-d array of at most :data:`MAX_LEN` values: the identity
    0.0 plus the pairwise sum (above 128 values, NumPy's two halves, each one block)."""
    n = a.shape[0]
    if n <= PW_BLOCKSIZE:
        return 0.0 + _block(a, 0, n)
    n2 = n // 2
    n2 -= n2 % 8
    return 0.0 + (_block(a, 0, n2) + _block(a, n2, n - n2))


@_jit
def _features(
    kind: np.ndarray,
    group: np.ndarray,
    is_street: np.ndarray,
    need: np.ndarray,
    price: np.ndarray,
    house_cost: np.ndarray,
    mortgage: np.ndarray,
    sell: np.ndarray,
    s_ept: np.ndarray,
    s_rent: np.ndarray,
    r_ept: np.ndarray,
    r_rent: np.ndarray,
    u_ept: np.ndarray,
    u_rent: np.ndarray,
    cash: np.ndarray,
    owner: np.ndarray,
    houses: np.ndarray,
    mortgaged: np.ndarray,
    bankrupt: np.ndarray,
    danger_cap: float,
) -> np.ndarray:
    """The features of :func:`features`, with column 2 before its ``arcsinh``."""
    games, players = cash.shape
    n_sq = owner.shape[1]
    n_groups = need.shape[0]
    n_rr, n_ut = r_ept.shape[1], u_ept.shape[1]
    out = np.zeros((games, players, 5))
    counts = np.zeros((players, n_groups), np.int64)
    mono = np.zeros((players, n_groups), np.bool_)
    ept = np.zeros(n_sq)
    rent = np.zeros(n_sq)
    buf = np.zeros(n_sq)
    share_buf = np.zeros(players)
    worth = np.zeros(players)
    income = np.zeros(players)
    liquid = np.zeros(players)
    worst = np.zeros(players)
    for g in range(games):
        counts[:, :] = 0
        for s in range(n_sq):
            o = owner[g, s]
            k = group[s]
            if k >= 0 and 0 <= o < players:
                counts[o, k] += 1
        for p in range(players):
            for k in range(n_groups):
                mono[p, k] = counts[p, k] >= need[k] and is_street[k]
        for s in range(n_sq):
            o = owner[g, s]
            owned = o >= 0
            oi = o if owned else 0
            gi = group[s] if group[s] >= 0 else 0
            own_count = counts[oi, gi]
            e = 0.0
            r = 0.0
            kd = kind[s]
            if kd == 1:
                h = houses[g, s]
                col = h if h > 0 else (6 if mono[oi, gi] else 0)
                e = s_ept[s, col]
                r = s_rent[s, col]
            elif kd == 2:
                c = min(max(own_count - 1, 0), n_rr - 1)
                e = r_ept[s, c]
                r = r_rent[s, c]
            elif kd == 3:
                c = min(max(own_count - 1, 0), n_ut - 1)
                e = u_ept[s, c]
                r = u_rent[s, c]
            if not owned or mortgaged[g, s]:
                e = 0.0
                r = 0.0
            ept[s] = e
            rent[s] = r
        total_ept = _sum(ept)
        n_act = 0
        for p in range(players):
            if not bankrupt[g, p]:
                n_act += 1
        for p in range(players):
            for s in range(n_sq):
                buf[s] = ept[s] if owner[g, s] == p else 0.0
            income[p] = _sum(buf)
            top = 0.0
            for s in range(n_sq):
                x = 0.0 if owner[g, s] == p else rent[s]
                if s == 0 or x > top:
                    top = x
            worst[p] = top
            for s in range(n_sq):
                if owner[g, s] == p:
                    base = mortgage[s] if mortgaged[g, s] else price[s]
                    buf[s] = base + houses[g, s] * house_cost[s]
                else:
                    buf[s] = 0.0
            worth[p] = cash[g, p] + _sum(buf)
            for s in range(n_sq):
                if owner[g, s] == p:
                    buf[s] = (0.0 if mortgaged[g, s] else mortgage[s]) + houses[g, s] * sell[s]
                else:
                    buf[s] = 0.0
            liquid[p] = cash[g, p] + _sum(buf)
        for f, src in ((0, worth), (1, income)):
            for p in range(players):
                share_buf[p] = max(src[p], 0.0) if not bankrupt[g, p] else 0.0
            tot = _sum(share_buf)
            for p in range(players):
                if bankrupt[g, p]:
                    continue
                if tot > 0:
                    out[g, p, f] = share_buf[p] / tot
                else:
                    out[g, p, f] = 1.0 / max(n_act, 1)
        for p in range(players):
            if bankrupt[g, p]:
                continue
            outgo = total_ept - income[p]
            out[g, p, 2] = ((n_act - 1) * income[p] - outgo) / 100.0
            out[g, p, 3] = min(worst[p] / max(liquid[p], 1.0), danger_cap)
            m = 0
            for k in range(n_groups):
                m += mono[p, k]
            out[g, p, 4] = m
    return out


def features(tables: Any, cash: np.ndarray, owner: np.ndarray, houses: np.ndarray, mortgaged: np.ndarray, bankrupt: np.ndarray) -> np.ndarray:
    """:func:`engine.sim.win_model.features_from_arrays`, compiled (same arguments and result).

    The ``arcsinh`` of feature 2 is NumPy's, applied to the compiled argument (NumPy may
    use its own vectorised ``arcsinh``, which need not round as the C library's does).
    A board above :data:`MAX_LEN` squares or players goes to the NumPy function."""
    if owner.shape[1] > MAX_LEN or cash.shape[1] > MAX_LEN:
        return wm.features_from_arrays(tables, cash, owner, houses, mortgaged, bankrupt)
    t = [getattr(tables, f) for f in TABLE_FIELDS]
    f = _features(
        *t,
        np.ascontiguousarray(cash, dtype=np.float64),
        np.ascontiguousarray(owner, dtype=np.int64),
        np.ascontiguousarray(houses, dtype=np.int64),
        np.ascontiguousarray(mortgaged, dtype=np.bool_),
        np.ascontiguousarray(bankrupt, dtype=np.bool_),
        wm.DANGER_CAP,
    )
    f[..., 2] = np.arcsinh(f[..., 2])
    return f


TABLE_FIELDS = (
    "kind",
    "group",
    "is_street",
    "need",
    "price",
    "house_cost",
    "mortgage",
    "sell",
    "street_ept",
    "street_rent",
    "rr_ept",
    "rr_rent",
    "ut_ept",
    "ut_rent",
)
"""The :class:`engine.sim.win_model.BoardTables` arrays, in :func:`_features`'s order."""
