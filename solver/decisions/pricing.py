"""Pricing an offer for play, and haggling after a refusal.

With ``price="play"`` (the default) the cash of a bilateral offer is set by
:func:`solver.trades.bargaining.play_cash`: the win probabilities at the generated cash and
+-``price_step`` x 2^j (j < ``price_ladder``) on common dice, interpolated, and the amount
maximising the agent's gain x P(accept) on a $10 grid. P(accept) is the counterparty's learned
model with ``learn`` (:class:`solver.agents.opponent_model.OpponentModels`), else the logistic in
its simulated gain. The curves are simulated on the search's dice when the state is the one
searched (:attr:`AgentMemory.searched`), else on the next seed with a fresh baseline.

With ``haggle``, a structure the counterparty refused is offered again only at a price better for
it by at least ``price_step`` than the best it refused (its memory's
:attr:`AgentMemory.refused_at`; the sampled amounts are raised to that floor); nothing is
offered when no such price leaves the agent a gain. With ``purchase_cap``, a purchase outside the
agent's holdings (:func:`solver.trades.purchases.outside_purchase_price`) priced above
``purchase_cap`` x the lot's printed price is not offered (the haggle ladder raises a refused
purchase's price by ``price_step`` each time; against an opponent that holds out, it would
otherwise pay any price the simulation still calls a gain). ``price="generated"``, or a multi-way trade:
the generator's cash. With ``learn``, the features of the offer made wait in the memory for its
answer (:meth:`solver.agents.opponent_model.OpponentModels.offered`).
"""

from __future__ import annotations

import math

from models.errors import InvalidTradeError
from models.state import GameState
from models.trade import Trade
from solver.agents.opponent_model import offer_features
from solver.agents.strategic import trade_key
from solver.decisions.caches import DecisionCaches
from solver.decisions.keys import state_key
from solver.decisions.memory import AgentMemory, Queued
from solver.decisions.settings import AgentSettings
from solver.decisions.simulation import baseline_of, rescore_settings, settings_from_json, settings_key
from solver.trades.bargaining import play_cash, trade_with_cash
from solver.trades.purchases import outside_purchase_price
from solver.trades.rescore import trade_after
from solver.trades.space import TradeKind


def price_amounts(now: int, settings: AgentSettings) -> list[int]:
    """The amounts the play price samples around the generated cash ``now``: ``now`` and
    ``now +- price_step x 2^k`` for ``k < price_ladder`` (amounts a side cannot pay are skipped
    there).

    Parameters
    ----------
    now : int
        The generated cash (to the counterparty).
    settings : AgentSettings
        ``price_step``, ``price_ladder``.

    Returns
    -------
    list of int
        Sorted.

    Examples
    --------
    >>> price_amounts(50, AgentSettings()), price_amounts(50, AgentSettings(price_ladder=4))[:3]
    ([-50, 50, 150], [-750, -350, -150])
    """
    offsets = [settings.price_step * (1 << k) for k in range(settings.price_ladder)]
    return sorted({now, *(now - d for d in offsets), *(now + d for d in offsets)})


def offer_for(state: GameState, me: int, queued: Queued, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> Trade | None:
    """The trade to propose for a ranked structure (module docstring), or ``None`` when a haggled
    re-offer leaves the agent no gain. Counts the offer and, with ``learn``, keeps its features
    for the answer.

    Parameters
    ----------
    state : GameState
        The position.
    me : int
        The agent's seat.
    queued : Queued
        The structure, at its generated cash.
    settings : AgentSettings
        ``price``, ``price_step``, ``price_ladder``, ``haggle``, ``recall``, ``learn``, ``purchase_cap``.
    memory : AgentMemory
        The search's settings, the refusals and price floors, the opponent models (written).
    caches : DecisionCaches
        The caches (the search's baseline, the price curve's simulations).

    Returns
    -------
    Trade or None

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.decisions.trade_search import search
    >>> s, m, c = load_state("instances/midgame-no-monopolies.json"), AgentMemory(), DecisionCaches()
    >>> best = search(s, 0, AgentSettings(rollouts=16), m, c, cycles=False, relaxed=True)[0]
    >>> offer = offer_for(s, 0, best, AgentSettings(rollouts=16), m, c)
    >>> trade_key(offer) == trade_key(best.trade), m.offers_made
    (True, 1)
    """
    trade = queued.trade
    key = trade_key(trade)
    floor = memory.refused_at.get(key) if settings.haggle and memory.refused_now(key, settings.recall) else None
    gains = dict(queued.win_delta)
    if settings.price == "play" and queued.kind == TradeKind.BILATERAL:
        a, b = (state.players[i].name for i in queued.players)
        now = trade.net_cash(b)
        q = state.player_index(b)
        x0 = offer_features(state, trade_after(state, trade), q, 0.0)
        sig = state_key(state)
        if memory.searched == sig and memory.search_settings is not None:
            rs = settings_from_json(memory.search_settings)  # the search's dice, and its baseline
        else:  # a ranking kept from an earlier phase: fresh dice
            rs = rescore_settings(state, me, settings, memory, settings.rollouts)
        base = baseline_of(state, rs, caches)

        def p_accept(c: int, gain_b: float) -> float:
            x = x0.copy()
            x[1] = gain_b
            x[2] += (c - now) / 1000.0
            if settings.learn:
                return memory.opponents.model(q).p_accept(x)
            return 1.0 / (1.0 + math.exp(-rs.acceptance_slope * gain_b))

        amounts = price_amounts(now, settings)
        if floor is not None:
            least = floor + settings.price_step
            amounts = sorted({max(x, least) for x in amounts} | {least + settings.price_step})
        memo: dict[int, tuple[float, float]] = caches.get("price", (sig, key, a, b, settings_key(rs)), dict)
        bargain = play_cash(state, trade, a, b, rs, base=base, amounts=amounts, p_accept=p_accept, memo=memo)
        if floor is not None and (bargain is None or bargain.cash < floor + settings.price_step):
            return None
        if bargain is not None and bargain.cash != now:
            try:
                priced = trade_with_cash(trade, a, b, bargain.cash)
                trade_after(state, priced)
                trade = priced
                gains[a] = bargain.u_a - base.win_prob[a]
                gains[b] = bargain.u_b - base.win_prob[b]
            except InvalidTradeError:
                pass
    if settings.purchase_cap:
        printed = outside_purchase_price(state, me, trade)
        if printed is not None and -trade.net_cash(state.players[me].name) > settings.purchase_cap * printed:
            return None
    if settings.learn:
        try:
            memory.opponents.offered(trade_key(trade), state, trade_after(state, trade), trade, me, gains)
        except InvalidTradeError:
            pass
    memory.offers_made += 1
    return trade


__all__ = ["offer_for", "price_amounts"]
