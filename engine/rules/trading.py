"""Trades between players: a proposal, its acceptance by every other participant, and the transfer.

A trade (:class:`models.trade.Trade`) moves properties, cash and Get Out of
Jail Free cards between players; only properties of groups without buildings
change hands (:func:`engine.rules.legal.why_not_propose`). Every participant
but the proposer is asked in ``trade.participants()`` order and the first
refusal calls it off. A taker of a mortgaged lot then chooses to lift it at
once (mortgage value plus interest) or to pay the interest only; a lift it
cannot afford within the trade is dropped (interest only). The Get Out of
Jail Free cards passed are the giver's most recently received ones.

:func:`propose_trade` takes the game as its first argument and is bound as
:meth:`engine.rules.game.Game.propose_trade` (:mod:`engine.rules.game` says why
functions rather than mixin classes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules import legal
from engine.rules.actions import EventKind
from models.errors import InvalidTradeError
from models.trade import Trade

if TYPE_CHECKING:
    from engine.rules.game import Game


def propose_trade(game: Game, p: int, trade: Trade) -> bool:
    """``p`` proposes ``trade``; every other participant must accept (``Game.propose_trade``).

    Parameters
    ----------
    game:
        The game.
    p:
        The proposer, a participant of the trade.
    trade:
        The trade, valid in the present state.

    Returns
    -------
    bool
        Whether it happened (a ``trade`` event says so either way, naming who refused).

    Raises
    ------
    IllegalActionError
        ``p`` takes no part in the trade, or the trade is not valid now.

    Examples
    --------
    >>> from engine.rules.agents import BaseAgent
    >>> from engine.rules.game import Game
    >>> from engine.rules.streams import ScriptedStream
    >>> from models.state import GameState
    >>> from models.trade import Trade, Transfer
    >>> class Yes(BaseAgent):
    ...     def accept_trade(self, view, trade):
    ...         return True
    >>> state = GameState.new_game(["A", "B"])
    >>> state.owner[39] = 1  # Boardwalk is B's
    >>> game = Game(state, [BaseAgent(), Yes()], ScriptedStream())
    >>> trade = Trade((Transfer("A", "B", (), 500), Transfer("B", "A", ("Boardwalk",))))
    >>> game.propose_trade(0, trade), state.owner[39], state.players[0].cash
    (True, 0, 1000)
    """
    s = game.state
    legal.require_legal(legal.why_not_propose(s, p, trade))
    idx = {pl.name: i for i, pl in enumerate(s.players)}
    for other in trade.participants():
        q = idx[other]
        if q != p and not game.agents[q].accept_trade(game.views[q], trade):
            game._emit(EventKind.TRADE, p, trade=trade, accepted=False, refused_by=q)
            return False
    lift: dict[str, bool] = {}
    for t in trade.transfers:
        for prop in t.properties:
            sq = s.square_of(prop)
            if s.mortgaged[sq] and game.agents[idx[t.to]].lift_on_receipt(game.views[idx[t.to]], sq):
                lift[prop] = True
                try:
                    trade.validate(s, lift)
                except InvalidTradeError:
                    del lift[prop]  # cannot afford to lift it now: interest only
    due = trade.apply(s, lift)
    for t in trade.transfers:
        if t.jail_cards:
            giver, taker = idx[t.frm], idx[t.to]
            for _ in range(t.jail_cards):
                game.held_cards[taker].append(game.held_cards[giver].pop())
        if t.cash:
            game._emit(EventKind.CASH, idx[t.frm], frm=idx[t.frm], to=idx[t.to], amount=t.cash, why="trade")
    for who, amount in due.items():
        if amount and s.bank_cash is not None:
            s.bank_cash += amount
        if amount:  # a $0 charge (mortgage_interest 0, nothing lifted) is no payment and no event
            game._emit(EventKind.CASH, idx[who], frm=idx[who], to=None, amount=amount, why="mortgaged property received")
    game._emit(EventKind.TRADE, p, trade=trade, accepted=True, lifted=tuple(lift))
    return True
