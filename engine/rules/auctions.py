"""Buying and auctions, as the "Buying and auctions" section of :mod:`engine.rules.game` states them.

A player landing on an unowned property with the cash for it may buy it at
its printed price (never under ``rules.auction_only``); otherwise it is
auctioned among all active players, the lander included, or without
``rules.auctions`` left with the bank. The open ascending auction is run as its
equivalent, a sealed second-price auction (:func:`second_price`): each bidder
names a maximum; the highest maximum wins and pays the second-highest plus $1
(the bid that would have outbid it in the open auction, with $1 steps), capped
at its own maximum; a lone bidder pays the opening $1; ties go to the bidder
listed first, the nearest the lander in turn order. The shortage auction of
the bank's last buildings (:func:`engine.rules.building.building_auction`) uses
the same rule.

:func:`offer` and :func:`auction` take the game as their first argument and
are bound as ``Game._offer`` and :meth:`engine.rules.game.Game.auction`
(:mod:`engine.rules.game` says why functions rather than mixin classes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.actions import EventKind

if TYPE_CHECKING:
    from engine.rules.game import Game


def offer(game: Game, p: int, square: int) -> None:
    """``p`` landed on the bank's ``square``: buy it, or auction it (``Game._offer``).

    Parameters
    ----------
    game:
        The game.
    p:
        The lander.
    square:
        The unowned property's square index.
    """
    s = game.state
    price = s.board.squares[square].price
    # rules.auction_only never offers the lot to the lander.
    if not s.rules.auction_only and s.players[p].cash >= price and game.agents[p].buy(game.views[p], square):
        game._cash(p, None, price, "purchase")
        s.owner[square] = p
        game._acquired(p, [square])
        game._emit(EventKind.BUY, p, square=square, price=price)
    elif s.rules.auctions:
        game.auction(square, p)
    else:
        game._emit(EventKind.DECLINED, p, square=square)


def second_price(bids: list[tuple[int, int]]) -> tuple[int, int] | None:
    """Winner and price of a second-price auction.

    Parameters
    ----------
    bids:
        ``(player, maximum)`` pairs listed in tie-break order (first wins a tie).

    Returns
    -------
    tuple or None
        ``(winner, price)``: the winner pays the second-highest maximum plus
        $1, capped at its own maximum, and a lone bidder $1; ``None`` when
        nobody bids at least $1.

    Examples
    --------
    >>> second_price([(0, 120), (1, 200), (2, 150)])
    (1, 151)
    >>> second_price([(0, 150), (1, 150)]), second_price([(0, 80), (1, 0)]), second_price([(0, 0)])
    ((0, 150), (0, 1), None)
    """
    live = [(m, k, q) for k, (q, m) in enumerate(bids) if m >= 1]
    if not live:
        return None
    live.sort(key=lambda t: (-t[0], t[1]))
    top, _, winner = live[0]
    second = live[1][0] if len(live) > 1 else 0
    return winner, min(top, second + 1)


def auction(game: Game, square: int, lander: int) -> int | None:
    """Auction ``square`` among the active players (``Game.auction``).

    Each active player, in turn order from ``lander`` (the lander first), names
    its maximum (``Agent.auction_max``, clamped to 0..its cash); the lot goes
    by :func:`second_price`.

    Parameters
    ----------
    game:
        The game.
    square:
        The bank's property to auction.
    lander:
        The player the turn order starts from (the lander, or the next player
        after a bankrupt whose lots return to the bank).

    Returns
    -------
    int or None
        The winner, or ``None`` when nobody bid (the bank keeps the lot).

    Examples
    --------
    >>> from engine.rules.agents import BaseAgent
    >>> from engine.rules.game import Game
    >>> from engine.rules.streams import ScriptedStream
    >>> from models.state import GameState
    >>> class Bidder(BaseAgent):
    ...     def __init__(self, most):
    ...         super().__init__(0)
    ...         self.most = most
    ...     def auction_max(self, view, square):
    ...         return self.most
    >>> game = Game(GameState.new_game(["A", "B", "C"]), [Bidder(100), Bidder(250), Bidder(180)], ScriptedStream())
    >>> game.auction(39, 0), game.state.owner[39], game.state.players[1].cash
    (1, 1, 1319)
    """
    s = game.state
    bids = []
    for q in game._turn_order(lander):
        m = int(game.agents[q].auction_max(game.views[q], square))
        bids.append((q, max(0, min(m, s.players[q].cash))))
    outcome = second_price(bids)
    if outcome is None:
        game._emit(EventKind.AUCTION, None, square=square, winner=None, price=0)
        return None
    winner, price = outcome
    game._cash(winner, None, price, "auction")
    s.owner[square] = winner
    game._acquired(winner, [square])
    game._emit(EventKind.AUCTION, winner, square=square, winner=winner, price=price)
    return winner
