"""What the events of a game change in the agent's memory.

:func:`remember` is the agent's ``notify``: a ``refused`` event naming one of its moves is kept by
position (:class:`engine.rules.refusals.Refusals`); a ``turn`` event sets the round and starts a
new count of the phase's proposals; a ``trade`` event of its own offer records the round it was
refused in (``recall``) and the best price refused per bilateral structure (``haggle``; with
``haggle=2`` the refused structure is queued again at once), counts an acceptance, and (``learn``)
gives the answer to the opponent models; another player's proposal marks that player as trading
(:class:`solver.agents.opponent_model.TradeHabits`) and (``learn``) counts its signal. Every event
also goes to the observed play (:class:`solver.agents.observed_play.ObservedPlay`: what each seat
buys and builds, and how it answers offers: ``trade_model="fitted"``, ``fit_accept``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.actions import ACTION_TYPES, Event
from solver.agents.strategic import trade_key
from solver.decisions.memory import AgentMemory
from solver.decisions.settings import AgentSettings


def remember(memory: AgentMemory, event: Event, settings: AgentSettings, names: Sequence[str]) -> None:
    """Update ``memory`` with ``event`` (module docstring).

    Parameters
    ----------
    memory : AgentMemory
        The agent's memory (its :attr:`AgentMemory.seat` is the agent's seat).
    event : Event
        What happened.
    settings : AgentSettings
        ``recall``, ``haggle``, ``learn``.
    names : sequence of str
        Every player's name, in seat order.

    Examples
    --------
    >>> from models.trade import Trade
    >>> m = AgentMemory(seat=0)
    >>> remember(m, Event("turn", 1, {"round": 4}), AgentSettings(), ("Ann", "Bob"))
    >>> offer = Trade.bilateral("Ann", "Bob", [], ["Boardwalk"], 300)
    >>> remember(m, Event("trade", 0, {"trade": offer, "accepted": False, "refused_by": 1}), AgentSettings(), ("Ann", "Bob"))
    >>> m.round, m.refused, m.refused_at
    (4, {(('Bob', 'Ann', ('Boardwalk',)),): 4}, {(('Bob', 'Ann', ('Boardwalk',)),): 300})
    """
    me = memory.seat
    memory.play.observe(event)
    if event.kind == "refused" and event.player == me and isinstance(event.data.get("action"), ACTION_TYPES):
        memory.refusals.record(event.data["action"])
    if event.kind == "turn":
        memory.round = int(event.data.get("round", memory.round))
        memory.proposed_this_phase = 0
        return
    if event.kind != "trade":
        return
    trade = event.data["trade"]
    key = trade_key(trade)
    accepted = bool(event.data.get("accepted"))
    if event.player == me:
        standing = memory.refused_now(key, settings.recall)  # whether it stood refused, read before this event renews it
        if not accepted:
            memory.refused[key] = memory.round
        others = [n for n in trade.participants() if n != names[me]]
        if not accepted and len(others) == 1:  # the best price refused for this structure, for ``haggle``
            paid = trade.net_cash(others[0])
            memory.refused_at[key] = max(memory.refused_at[key], paid) if standing and key in memory.refused_at else paid
            if settings.haggle >= 2 and memory.pending is not None and trade_key(memory.pending.trade) == key:
                memory.queue.insert(0, memory.pending)  # offered again next, at a better price
        memory.pending = None
        memory.offers_accepted += accepted
        if settings.learn:
            refused_by = event.data.get("refused_by")
            memory.opponents.answered(key, accepted, None if refused_by is None else {refused_by})
    elif event.player is not None:
        memory.habits.proposed(event.player)
        if settings.learn:
            memory.opponents.model(event.player).offer_signal()


__all__ = ["remember"]
