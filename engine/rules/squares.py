"""What the square landed on does: a lot is offered or charges rent, a tax is paid, a card is
drawn, Go To Jail jails, Free Parking pays its pot; as the "Rent" and "Money" sections of
:mod:`engine.rules.game` state them.

Rent (:func:`rent`): a mortgaged property charges none; a street charges its
printed rent for its building level, doubled on a bare lot of a monopoly (also
when another lot of the group is mortgaged); a railroad ``railroad_rents[k -
1]`` and a utility ``utility_multipliers[k - 1]`` times the dice, ``k``
counting every one of its kind the owner holds, mortgaged or not. The
nearest-railroad card multiplies the rent by its ``rent_multiplier`` (2); the
nearest-utility card charges its ``dice_multiplier`` (10) times a fresh roll.

Each function takes the game as its first argument and is bound as the
method of :class:`engine.rules.game.Game` named in its docstring
(:mod:`engine.rules.game` says why functions rather than mixin classes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.actions import EventKind
from models.board import PROPERTY_TYPES, Card
from models.state import BANK

if TYPE_CHECKING:
    from engine.rules.game import Game


def land(game: Game, p: int, dice_total: int, card: Card | None = None) -> None:
    """Settle the square ``p`` stands on (``Game._land``).

    Parameters
    ----------
    game:
        The game.
    p:
        The player who landed.
    dice_total:
        The total of the roll that brought it (a utility's rent).
    card:
        The card that moved it there, if any (the nearest-railroad and
        nearest-utility cards change the rent).
    """
    s = game.state
    pl = s.players[p]
    sq = s.board.squares[pl.position]
    kind = sq.kind
    if kind in PROPERTY_TYPES:
        if game.movement_only:
            return
        owner = s.owner[sq.index]
        if owner == BANK:
            game._offer(p, sq.index)
        elif owner != p:
            due = game.rent(sq.index, dice_total, card, p)
            if due:
                game._pay(p, due, owner, f"rent on {sq.name}")
    elif kind == "tax":
        game._pay(p, sq.amount, None, sq.name, pot=s.rules.pot_enabled)
    elif kind in ("chance", "community_chest"):
        game._draw_card(p, kind, dice_total)
    elif kind == "go_to_jail":
        game._send_to_jail(p, "Go To Jail square")
    elif kind == "free_parking" and s.rules.pot_enabled and not game.movement_only:
        game._collect_pot(p)


def collect_pot(game: Game, p: int) -> None:
    """``p`` collects the Free Parking pot; the bank puts ``free_parking_seed`` back in, as much
    as it has (``Game._collect_pot``).

    Parameters
    ----------
    game:
        The game.
    p:
        The player on Free Parking.
    """
    s = game.state
    if s.pot:
        amount, s.pot = s.pot, 0
        s.players[p].cash += amount
        game._emit(EventKind.CASH, p, frm=None, to=p, amount=amount, why="Free Parking pot")
    seed = s.rules.free_parking_seed
    if s.bank_cash is not None:
        seed = min(seed, s.bank_cash)
        s.bank_cash -= seed
    s.pot += seed


def rent(game: Game, square: int, dice_total: int, card: Card | None = None, payer: int | None = None) -> int:
    """The rent due on ``square`` now (``Game.rent``; the rules are in this module's docstring).

    Parameters
    ----------
    game:
        The game.
    square:
        An owned property's square index.
    dice_total:
        The total of the roll that brought the payer (a utility's rent).
    card:
        The card that moved the payer there, if any.
    payer:
        Who throws the fresh roll of the nearest-utility card (``None``: the owner).

    Returns
    -------
    int
        The rent in dollars (0 on a mortgaged property). The nearest-utility
        card rolls fresh dice (a ``roll`` event) to compute it.

    Examples
    --------
    >>> from engine.rules.agents import BaseAgent
    >>> from engine.rules.game import Game
    >>> from engine.rules.streams import ScriptedStream
    >>> from models.state import GameState
    >>> state = GameState.new_game(["A", "B"])
    >>> for sq in (37, 39, 5, 15):  # Park Place, Boardwalk and two railroads to A
    ...     state.owner[sq] = 0
    >>> game = Game(state, [BaseAgent(), BaseAgent()], ScriptedStream())
    >>> game.rent(39, 7), game.rent(5, 7)  # a monopoly's bare lot pays double; two railroads
    (100, 50)
    >>> state.houses[37] = state.houses[39] = 5
    >>> game.rent(39, 7)
    2000
    """
    s = game.state
    if s.mortgaged[square]:
        return 0
    owner = s.owner[square]
    sq = s.board.squares[square]
    if sq.kind == "street":
        level = s.houses[square]
        if level:
            return sq.rents[level]
        assert sq.group is not None
        return sq.rents[0] * (2 if s.has_monopoly(owner, sq.group) else 1)
    count = s.count_in_group(owner, sq.kind)
    if sq.kind == "railroad":
        mult = card.rent_multiplier if card is not None and card.action == "advance_nearest" else 1
        return s.board.railroad_rents[count - 1] * mult
    if card is not None and card.action == "advance_nearest" and card.dice_multiplier:
        dice, _ = game._roll(payer if payer is not None else owner, "utility card")
        return card.dice_multiplier * sum(dice)
    return s.board.utility_multipliers[count - 1] * dice_total
