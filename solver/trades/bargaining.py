"""The cash part of a trade by Nash bargaining (Nash, "The bargaining problem",
Econometrica 18(2), 1950).

For a trade between ``A`` (the proposer) and ``B``, the win probabilities
``u_A(c)`` and ``u_B(c)`` are simulated at a few amounts ``c`` that ``A``
pays ``B`` (negative: ``B`` pays), all on the same dice (common random
numbers), and interpolated linearly between them. The bargaining cash
maximises the Nash product

    (u_A(c) - d_A) (u_B(c) - d_B),   over c with u_A(c) > d_A and u_B(c) > d_B,

where ``d`` is each side's disagreement point (BATNA): its win probability
without the trade, or with its best alternative trade when the caller knows
one. The product is maximised on a $10 grid of the interpolation. When no
amount leaves both sides above their BATNA, there is no bargain (``None``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.rollout import RolloutResult, simulate
from models.errors import InvalidTradeError
from models.state import GameState
from models.trade import Trade, Transfer
from solver.trades.rescore import RescoreSettings, trade_after


@dataclass(frozen=True)
class Bargain:
    cash: int  # A pays B (negative: B pays A)
    u_a: float
    u_b: float
    product: float
    amounts: tuple[int, ...]
    samples_a: tuple[float, ...]
    samples_b: tuple[float, ...]


def trade_with_cash(trade: Trade, a: str, b: str, cash: int) -> Trade:
    """``trade`` with the cash between ``a`` and ``b`` replaced by ``cash`` (``a`` pays ``b``)."""
    legs = []
    for t in trade.transfers:
        if {t.frm, t.to} == {a, b}:
            t = Transfer(t.frm, t.to, t.properties, 0, t.jail_cards)
        legs.append(t)
    if cash:
        payer, payee = (a, b) if cash > 0 else (b, a)
        for k, t in enumerate(legs):
            if t.frm == payer and t.to == payee:
                legs[k] = Transfer(t.frm, t.to, t.properties, abs(cash), t.jail_cards)
                break
        else:
            legs.append(Transfer(payer, payee, (), abs(cash)))
    return Trade(tuple(t for t in legs if not t.is_empty()))


def nash_cash(
    state: GameState,
    trade: Trade,
    a: str,
    b: str,
    settings: RescoreSettings,
    *,
    base: RolloutResult,
    amounts: Sequence[int],
    batna: tuple[float, float] | None = None,
) -> Bargain | None:
    """The Nash bargaining cash of ``trade`` between ``a`` and ``b`` (module docstring).

    Amounts the payer cannot afford are skipped; ``batna`` defaults to the
    win probabilities without the trade (from ``base``)."""
    d_a, d_b = batna if batna is not None else (base.win_prob[a], base.win_prob[b])
    pts: list[tuple[int, float, float]] = []
    for c in sorted(set(amounts)):
        t = trade_with_cash(trade, a, b, c)
        try:
            after = trade_after(state, t)
        except InvalidTradeError:  # an amount a side cannot pay is simply not sampled
            continue
        r = simulate(after, settings.rollouts, settings.horizon, settings.seed, policy=settings.policy, scoring=settings.scoring)
        pts.append((c, r.win_prob[a], r.win_prob[b]))
    if len(pts) < 2:
        return None
    xs = np.array([p[0] for p in pts], dtype=float)
    ua = np.array([p[1] for p in pts])
    ub = np.array([p[2] for p in pts])
    fine = np.arange(xs[0], xs[-1] + 1, 10.0)
    fa = np.interp(fine, xs, ua)
    fb = np.interp(fine, xs, ub)
    ok = (fa > d_a) & (fb > d_b)
    if not ok.any():
        return None
    prod = np.where(ok, (fa - d_a) * (fb - d_b), -np.inf)
    k = int(np.argmax(prod))
    return Bargain(int(fine[k]), float(fa[k]), float(fb[k]), float(prod[k]), tuple(int(x) for x in xs), tuple(ua), tuple(ub))


__all__ = ["Bargain", "nash_cash", "trade_with_cash"]
