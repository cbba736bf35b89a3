"""Building: a build request, the shortage auction of the bank's last buildings, selling a building
back, and evening out a group after an acquired lot; the "Building" section of :mod:`engine.rules.game`.

What may be built or sold is :mod:`engine.rules.legal`'s. A build request
(:func:`build`) is contested when the bank's houses (or hotels) are fewer than
the players able to build one right now, the requester included: each such
player names the most it would pay above the list price
(``Agent.building_bid``), capped so that it can still pay for the dearest lot it
could place the building on; the building goes by the second-price rule of
:func:`engine.rules.auctions.second_price` (premiums shifted by $1 so that a $0
premium still counts; ties to the requester, then turn order), and the winner
places it (``Agent.place_building``) and pays list price plus premium. Selling a
building (:func:`sell_one`) pays half its cost (``rules.sell_value``); a hotel
sold under a house shortage breaks as :func:`engine.rules.legal.hotel_break_levels`
says. Under a ``set_size`` novelty a player can acquire a bare lot in a group
where it has buildings; its buildings there are then sold back until the group
is even again (:func:`acquired`).

The functions take the game as their first argument and are bound as the
methods of :class:`engine.rules.game.Game` named in their docstrings
(:mod:`engine.rules.game` says why functions rather than mixin classes).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engine.rules import legal
from engine.rules.actions import EventKind
from engine.rules.auctions import second_price
from models.board import HOTEL
from models.errors import IllegalActionError

if TYPE_CHECKING:
    from engine.rules.game import Game


def build(game: Game, p: int, square: int) -> None:
    """``p`` asks to build one level on ``square`` (``Game._build``): placed at list price, or
    contested in a shortage auction.

    Parameters
    ----------
    game:
        The game.
    p:
        The requester.
    square:
        The lot.

    Raises
    ------
    IllegalActionError
        The rules do not allow the building (the message says why), or the
        winner of a shortage auction names a lot where it cannot place it.
    """
    s = game.state
    legal.require_legal(legal.why_not_build(s, p, square))
    kind = "hotel" if s.houses[square] == HOTEL - 1 else "house"
    supply = s.hotels_in_bank() if kind == "hotel" else s.houses_in_bank()
    rivals = [q for q in game._turn_order(p) if q != p and game._can_build_kind(q, kind)]
    if rivals and supply < 1 + len(rivals):
        game._building_auction(p, square, kind, rivals)
        return
    game._place(p, square, 0)


def can_build_kind(game: Game, q: int, kind: str) -> bool:
    """Whether ``q`` could build a ``kind`` (``house`` or ``hotel``) right now (``Game._can_build_kind``).

    Parameters
    ----------
    game:
        The game.
    q:
        The player.
    kind:
        ``house`` or ``hotel``.

    Returns
    -------
    bool
        Whether one of its legal builds is of that kind.
    """
    s = game.state
    return any((s.houses[sq] == HOTEL - 1) == (kind == "hotel") for sq in legal.legal_builds(s, q))


def place(game: Game, p: int, square: int, premium: int) -> None:
    """``p`` pays list price plus ``premium`` and places one level on ``square`` (``Game._place``).

    Parameters
    ----------
    game:
        The game.
    p:
        The builder.
    square:
        The lot (its legality already checked).
    premium:
        The shortage auction's premium (0 without one).
    """
    s = game.state
    cost = s.board.squares[square].house_cost
    game._cash(p, None, cost + premium, "building")
    s.houses[square] += 1
    game._emit(EventKind.BUILD, p, square=square, level=s.houses[square], premium=premium)


def building_auction(game: Game, p: int, square: int, kind: str, rivals: list[int]) -> None:
    """The bank's scarce building goes to the highest premium over list price (``Game._building_auction``).

    Parameters
    ----------
    game:
        The game.
    p:
        The requester (its ``None`` bid counts as a $0 premium).
    square:
        The requester's lot.
    kind:
        ``house`` or ``hotel``.
    rivals:
        The other players able to build one, in turn order (a ``None`` bid is no bid).

    Raises
    ------
    IllegalActionError
        A winner other than the requester names a lot where it cannot place a building of that kind.
    """
    s = game.state

    def cap(q: int) -> int:
        # Capped by the dearest lot the rival could place it on, so that any
        # placement it chooses stays affordable.
        costs = [
            s.board.squares[sq].house_cost
            for sq in legal.legal_builds(s, q)
            if (s.houses[sq] == HOTEL - 1) == (kind == "hotel")
        ]
        return s.players[q].cash - max(costs)

    own = game.agents[p].building_bid(game.views[p], kind)
    bids = [(p, max(0, min(own or 0, s.players[p].cash - s.board.squares[square].house_cost)))]
    for q in rivals:
        b = game.agents[q].building_bid(game.views[q], kind)
        if b is not None:
            bids.append((q, max(0, min(int(b), cap(q)))))
    if len(bids) == 1:
        game._place(p, square, 0)
        return
    # Premiums may be 0: shift by one so that a zero premium still counts as a bid.
    outcome = second_price([(q, m + 1) for q, m in bids])
    assert outcome is not None
    winner, price = outcome
    premium = price - 1
    game._emit(EventKind.BUILDING_AUCTION, winner, building=kind, premium=premium, requester=p)
    if winner == p:
        game._place(p, square, premium)
        return
    lot = game.agents[winner].place_building(game.views[winner], kind)
    if legal.why_not_build(s, winner, lot) is not None or (s.houses[lot] == HOTEL - 1) != (kind == "hotel"):
        raise IllegalActionError(f"{s.players[winner].name} cannot place a {kind} on square {lot}")
    game._place(winner, lot, premium)


def sell_one(game: Game, p: int, sq: int) -> dict[int, int]:
    """Sell one building level of ``sq`` back to the bank (``Game._sell_one``); a hotel breaks as
    :func:`engine.rules.legal.hotel_break_levels` says.

    Parameters
    ----------
    game:
        The game.
    p:
        The owner (paid half the cost of each level sold).
    sq:
        The lot (its legality already checked).

    Returns
    -------
    dict
        The new level of every lot that changed.
    """
    s = game.state
    changes = legal.hotel_break_levels(s, p, sq) if s.houses[sq] == HOTEL else {sq: s.houses[sq] - 1}
    value = 0
    for lot, new in changes.items():
        value += (s.houses[lot] - new) * s.rules.sell_value(s.board.squares[lot].house_cost)
        s.houses[lot] = new
    game._cash(None, p, value, "building sold")
    return changes


def acquired(game: Game, p: int, squares: Iterable[int]) -> None:
    """Keep building even after ``p`` acquires lots (``Game._acquired``).

    Only a ``set_size`` novelty lets a player acquire a bare lot in a group
    where it already has buildings (trades need unimproved groups, and a
    bankrupt's buildings are sold first). Its buildings in that group are
    then sold back at half price, highest lot first, until the levels
    differ by at most one again, so that every state stays a valid state
    file. Only ``cash`` events are emitted until the group is even; then
    one ``even_out`` event.

    Parameters
    ----------
    game:
        The game.
    p:
        The new owner.
    squares:
        The lots it acquired.
    """
    s = game.state
    changed: dict[int, int] = {}
    for group in sorted({s.group_of(sq) for sq in squares}):
        lots = [sq for sq in s.board.groups[group] if s.owner[sq] == p]
        while lots and max(s.houses[q] for q in lots) - min(s.houses[q] for q in lots) > 1:
            top = max(lots, key=lambda q: (s.houses[q], q))
            changed.update(game._sell_one(p, top))
    if changed:
        game._emit(EventKind.EVEN_OUT, p, levels=changed)
