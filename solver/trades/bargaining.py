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

For play (:func:`play_cash`) the same curves are read differently: the
proposer picks the amount that maximises its own gain times the probability
that the other side accepts (an estimate of that side's rule, e.g. an online
model of it): the proposer's best take-it-or-leave-it offer, the
ultimatum-game reading of the same sampled curves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from engine.sim.rollout import RolloutResult, simulate
from models.errors import InvalidTradeError
from models.state import GameState
from models.trade import Trade, Transfer
from solver.trades.rescore import RescoreSettings, trade_after


@dataclass(frozen=True)
class Bargain:
    """The cash found and the curves it was read from.

    Parameters
    ----------
    cash:
        What ``A`` pays ``B`` (negative: ``B`` pays ``A``), on the $10 grid.
    u_a, u_b:
        The interpolated win probabilities of ``A`` and ``B`` at ``cash``.
    product:
        The maximised figure: the Nash product (:func:`nash_cash`) or ``A``'s
        expected gain (:func:`play_cash`).
    amounts:
        The amounts simulated (the affordable ones).
    samples_a, samples_b:
        The simulated win probabilities at ``amounts``.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.rescore import RescoreSettings, baseline
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> swap = Trade((Transfer("Cy", "Dee", ("Atlantic Avenue",)), Transfer("Dee", "Cy", ("Virginia Avenue",))))
    >>> st = RescoreSettings(rollouts=8)  # a few rollouts: noise, for the example
    >>> deal = nash_cash(s, swap, "Cy", "Dee", st, base=baseline(s, st), amounts=(-200, 0, 200, 400))
    >>> deal.amounts, len(deal.samples_a), deal.cash, round(deal.u_a, 4)
    ((-200, 0, 200, 400), 4, -180, 0.84)
    """

    cash: int
    u_a: float
    u_b: float
    product: float
    amounts: tuple[int, ...]
    samples_a: tuple[float, ...]
    samples_b: tuple[float, ...]


def trade_with_cash(trade: Trade, a: str, b: str, cash: int) -> Trade:
    """``trade`` with the cash between ``a`` and ``b`` replaced by ``cash`` (``a`` pays ``b``;
    negative: ``b`` pays ``a``), on the transfer that already goes that way, else a new one.

    Parameters
    ----------
    trade : Trade
        The trade.
    a, b : str
        The two players whose cash is set.
    cash : int
        What ``a`` pays ``b`` (negative: ``b`` pays ``a``).

    Returns
    -------
    Trade
        The same lots, the new cash.

    Examples
    --------
    >>> t = Trade((Transfer("Ann", "Bob", ("Reading Railroad",), 100), Transfer("Bob", "Ann", ("Baltic Avenue",))))
    >>> [(x.frm, x.to, x.cash) for x in trade_with_cash(t, "Ann", "Bob", -40).transfers]
    [('Ann', 'Bob', 0), ('Bob', 'Ann', 40)]
    """
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

    Parameters
    ----------
    state:
        The position.
    trade:
        The trade; its cash between ``a`` and ``b`` is replaced by each amount.
    a, b:
        The proposer's and the partner's names.
    settings:
        The simulations (every amount on the same dice).
    base:
        The simulation without the trade.
    amounts:
        The amounts ``a`` pays ``b`` to simulate; those the payer cannot afford
        (:class:`~models.errors.InvalidTradeError`) are skipped.
    batna:
        The disagreement points of ``a`` and ``b`` (default: their win
        probabilities without the trade, from ``base``).

    Returns
    -------
    Bargain or None
        ``None``: fewer than two affordable amounts, or no amount leaves both above their BATNA.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.rescore import RescoreSettings, baseline
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> swap = Trade((Transfer("Cy", "Dee", ("Atlantic Avenue",)), Transfer("Dee", "Cy", ("Virginia Avenue",))))
    >>> st = RescoreSettings(rollouts=8)  # a few rollouts: noise, for the example
    >>> deal = nash_cash(s, swap, "Cy", "Dee", st, base=baseline(s, st), amounts=(-200, 0, 200, 400))
    >>> deal.cash, round(deal.u_a, 4), round(deal.u_b, 4)
    (-180, 0.84, 0.0122)
    """
    d_a, d_b = batna if batna is not None else (base.win_prob[a], base.win_prob[b])
    curves = _curves(state, trade, a, b, settings, amounts)
    if curves is None:
        return None
    xs, ua, ub, fine, fa, fb = curves
    ok = (fa > d_a) & (fb > d_b)
    if not ok.any():
        return None
    prod = np.where(ok, (fa - d_a) * (fb - d_b), -np.inf)
    k = int(np.argmax(prod))
    return Bargain(int(fine[k]), float(fa[k]), float(fb[k]), float(prod[k]), tuple(int(x) for x in xs), tuple(ua), tuple(ub))


def _curves(
    state: GameState,
    trade: Trade,
    a: str,
    b: str,
    settings: RescoreSettings,
    amounts: Sequence[int],
    memo: dict[int, tuple[float, float]] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """Win probabilities of ``a`` and ``b`` simulated at each affordable amount (common dice),
    and their linear interpolation on the $10 grid between the extreme amounts; ``None``
    with fewer than two affordable amounts. ``memo`` (amount -> the two win probabilities)
    keeps the simulations of earlier calls for the same state, trade and settings: the
    caller owns it and must not share it across any of the three."""
    pts: list[tuple[int, float, float]] = []
    for c in sorted(set(amounts)):
        if memo is not None and c in memo:
            pts.append((c, *memo[c]))
            continue
        t = trade_with_cash(trade, a, b, c)
        try:
            after = trade_after(state, t)
        except InvalidTradeError:  # an amount a side cannot pay is simply not sampled
            continue
        r = simulate(after, settings.rollouts, settings.horizon, settings.seed, policy=settings.policy, scoring=settings.scoring, threads=settings.threads)
        pts.append((c, r.win_prob[a], r.win_prob[b]))
        if memo is not None:
            memo[c] = (r.win_prob[a], r.win_prob[b])
    if len(pts) < 2:
        return None
    xs = np.array([p[0] for p in pts], dtype=float)
    ua = np.array([p[1] for p in pts])
    ub = np.array([p[2] for p in pts])
    fine = np.arange(xs[0], xs[-1] + 1, 10.0)
    return xs, ua, ub, fine, np.interp(fine, xs, ua), np.interp(fine, xs, ub)


def play_cash(
    state: GameState,
    trade: Trade,
    a: str,
    b: str,
    settings: RescoreSettings,
    *,
    base: RolloutResult,
    amounts: Sequence[int],
    p_accept: Callable[[int, float], float],
    memo: dict[int, tuple[float, float]] | None = None,
) -> Bargain | None:
    """The cash for play: the amount ``c`` (``a`` pays ``b``) maximising ``a``'s expected gain

        (u_A(c) - d_A) * P(B accepts | c, u_B(c) - d_B),   over c with u_A(c) > d_A,

    on the same $10 grid of the same interpolated curves as :func:`nash_cash`
    (``d`` = the win probabilities without the trade, from ``base``).
    ``p_accept(c, gain_b)`` is the caller's acceptance model (e.g. the online
    opponent model of :mod:`solver.agents.opponent_model`). ``product`` in the
    result is that expected gain. ``None``: fewer than two affordable amounts, or
    no amount where ``a`` gains. ``memo``: see :func:`_curves` (a haggling agent prices the
    same structure again in the same state, with amounts that overlap).

    Parameters
    ----------
    state, trade, a, b, settings, base, amounts:
        As for :func:`nash_cash`.
    p_accept:
        ``p_accept(c, gain_b)``: the probability that ``b`` accepts ``c`` when it gains ``gain_b``.
    memo:
        Amount -> the two simulated win probabilities, kept by the caller across calls.

    Returns
    -------
    Bargain or None

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.rescore import RescoreSettings, baseline
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> swap = Trade((Transfer("Cy", "Dee", ("Atlantic Avenue",)), Transfer("Dee", "Cy", ("Virginia Avenue",))))
    >>> st = RescoreSettings(rollouts=8)  # a few rollouts: noise, for the example
    >>> accepts_a_gain = lambda c, gain_b: 1.0 if gain_b > 0 else 0.0
    >>> offer = play_cash(s, swap, "Cy", "Dee", st, base=baseline(s, st), amounts=(-200, 0, 200, 400), p_accept=accepts_a_gain)
    >>> offer.cash, round(offer.product, 4)
    (-190, 0.0314)
    """
    d_a, d_b = base.win_prob[a], base.win_prob[b]
    curves = _curves(state, trade, a, b, settings, amounts, memo)
    if curves is None:
        return None
    xs, ua, ub, fine, fa, fb = curves
    score = np.array([(fa[k] - d_a) * p_accept(int(fine[k]), float(fb[k] - d_b)) if fa[k] > d_a else -np.inf for k in range(len(fine))])
    if not np.isfinite(score).any():
        return None
    k = int(np.argmax(score))
    return Bargain(int(fine[k]), float(fa[k]), float(fb[k]), float(score[k]), tuple(int(x) for x in xs), tuple(ua), tuple(ub))


__all__ = ["Bargain", "nash_cash", "play_cash", "trade_with_cash"]
