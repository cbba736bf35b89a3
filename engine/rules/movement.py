"""Dice, movement and jail: the rolls of a turn, as the "Turn" and "Money" (Go) sections of
:mod:`engine.rules.game` state them.

One roll (:func:`roll_and_move`): throw the dice; doubles roll again, and the
``rules.doubles_to_jail``-th consecutive double (the third, by default) goes to
jail without moving; otherwise move by the total (:func:`move`, which pays the
Go salary when Go is passed or landed on) and settle the square landed on
(:func:`engine.rules.squares.land`). After each roll and its consequences the
mover may act (:func:`engine.rules.phases.act`). A jail turn
(:func:`jail_turn`) pays the fine, uses a card (both then roll normally) or
rolls for doubles, with the variants ``max_jail_rolls``, ``jail_doubles`` and
``jail_release``.

Each function takes the game as its first argument and is bound as the
method of :class:`engine.rules.game.Game` named in its docstring
(``Game._roll_and_move`` is :func:`roll_and_move`; :mod:`engine.rules.game`
says why functions rather than mixin classes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.actions import EventKind
from models.errors import IllegalActionError
from models.state import Phase

if TYPE_CHECKING:
    from engine.rules.game import Game


def roll(game: Game, p: int, why: str = "move") -> tuple[tuple[int, ...], bool]:
    """Throw the dice for ``p`` and report it (``Game._roll``).

    Parameters
    ----------
    game:
        The game.
    p:
        The player who throws.
    why:
        The ``roll`` event's ``why``: ``move``, ``jail`` or ``utility card``.

    Returns
    -------
    tuple
        The faces, and whether they are doubles (two dice or more, all equal).
    """
    dice = game.stream.roll(game.state.rules.dice)
    doubles = len(dice) >= 2 and all(d == dice[0] for d in dice)
    game._emit(EventKind.ROLL, p, dice=dice, doubles=doubles, why=why)
    return dice, doubles


def roll_and_move(game: Game, p: int) -> bool:
    """One ordinary roll of ``p`` and its consequences (``Game._roll_and_move``).

    Parameters
    ----------
    game:
        The game.
    p:
        The player to move.

    Returns
    -------
    bool
        Whether the player rolls again (a double, when ``rules.doubles_again``, and not jailed).
    """
    s = game.state
    dice, doubles = game._roll(p)
    s.phase = Phase.ROLLED
    rules = s.rules
    if doubles:
        run = 1
        if rules.doubles_again:
            s.doubles_rolled += 1
            run = s.doubles_rolled
        if rules.doubles_to_jail and run >= rules.doubles_to_jail:
            game._send_to_jail(p, "third double" if rules.doubles_to_jail == 3 else f"double number {run}")
            game._emit(EventKind.ROLL_END, p, position=s.players[p].position, in_jail=True)
            game._act(p)
            return False
    else:
        s.doubles_rolled = 0
    total = sum(dice)
    game._move(p, total, "dice")
    game._land(p, total)
    return game._after_roll(p)


def after_roll(game: Game, p: int) -> bool:
    """Close a roll that moved ``p``: report its end, then ``p``'s ``act`` phase (``Game._after_roll``).

    Parameters
    ----------
    game:
        The game.
    p:
        The player who moved.

    Returns
    -------
    bool
        Whether the player rolls again (doubles pending, neither jailed nor bankrupt).
    """
    s = game.state
    pl = s.players[p]
    if pl.bankrupt or game.over:
        return False
    if pl.in_jail:
        s.doubles_rolled = 0
    game._emit(EventKind.ROLL_END, p, position=pl.position, in_jail=pl.in_jail)
    game._act(p)
    return s.doubles_rolled > 0 and not pl.in_jail and not pl.bankrupt


def jail_turn(game: Game, p: int) -> bool:
    """The turn of ``p`` in jail: the agent's ``jail_choice``, then the roll it leads to (``Game._jail_turn``).

    ``card`` and ``pay`` leave jail and roll normally. ``roll`` rolls for
    doubles (out, moving by that roll, no extra roll); a failed roll on the
    last jail turn (``rules.max_jail_rolls``) pays the fine and moves by that
    roll, or under ``jail_release="free"`` leaves free without moving. Without
    ``jail_doubles`` the player rolls only on a last turn that pays and moves.
    In a novelty trial a ``pay`` the true fine does not allow is refused and
    the player rolls.

    Parameters
    ----------
    game:
        The game.
    p:
        The jailed player to move.

    Returns
    -------
    bool
        Whether the player rolls again (after a card or a payment: as after an ordinary roll).

    Raises
    ------
    IllegalActionError
        A ``card`` without a card, a ``pay`` without the cash (outside a novelty
        trial), or a choice other than ``roll``, ``pay`` and ``card``.
    """
    s = game.state
    pl = s.players[p]
    choice = game.agents[p].jail_choice(game.views[p])
    fine = s.rules.jail_fine
    if choice == "card":
        if not game.held_cards[p]:
            raise IllegalActionError(f"{pl.name} has no Get Out of Jail Free card")
        deck, idx = game.held_cards[p].pop()
        game.decks[deck].held.discard(idx)
        pl.jail_cards -= 1
        game._leave_jail(p, "card")
        return game._roll_and_move(p)
    if choice == "pay" and game.announced_rules is not None and not game.movement_only and pl.cash < fine:
        # The announced rules hid the fine (a novelty trial): the referee refuses, the player rolls.
        game._emit(EventKind.REFUSED, p, action="pay", why=f"cannot pay the ${fine} fine")
        choice = "roll"
    if choice == "pay":
        if not game.movement_only and pl.cash < fine:
            raise IllegalActionError(f"{pl.name} cannot pay the ${fine} fine")
        game._pay(p, fine, None, "jail fine")
        game._leave_jail(p, "pay")
        return game._roll_and_move(p)
    if choice != "roll":
        raise IllegalActionError(f"unknown jail choice {choice!r}")
    rules = s.rules
    last = pl.jail_turns + 1 >= rules.max_jail_rolls
    s.phase = Phase.ROLLED
    s.doubles_rolled = 0
    if not rules.jail_doubles and not (last and rules.jail_release == "pay"):
        # Nothing to roll for: the player sits this turn out (and leaves free after the last).
        return game._stay_in_jail(p, last)
    dice, doubles = game._roll(p, "jail")
    if doubles and rules.jail_doubles:
        game._leave_jail(p, "doubles")
    else:
        if not last or rules.jail_release == "free":
            return game._stay_in_jail(p, last)
        if not game._pay(p, fine, None, "jail fine (third failed roll)"):
            return False
        game._leave_jail(p, "third roll")
    total = sum(dice)
    game._move(p, total, "dice")
    game._land(p, total)
    game._after_roll(p)
    return False


def stay_in_jail(game: Game, p: int, last: bool) -> bool:
    """A jail turn without a move (``Game._stay_in_jail``): one more turn counted, or after the last
    one (``jail_release="free"``) the player leaves, free, without moving.

    Parameters
    ----------
    game:
        The game.
    p:
        The jailed player.
    last:
        Whether this was the player's last jail turn.

    Returns
    -------
    bool
        ``False``: the turn has no further roll.
    """
    pl = game.state.players[p]
    if last:
        game._leave_jail(p, "served")
    else:
        pl.jail_turns += 1
    game._emit(EventKind.ROLL_END, p, position=pl.position, in_jail=pl.in_jail)
    game._act(p)
    return False


def leave_jail(game: Game, p: int, how: str) -> None:
    """``p`` leaves jail (``Game._leave_jail``); ``how`` is the ``leave_jail`` event's ``how``
    (``card``, ``pay``, ``doubles``, ``third roll``, ``served``).

    Parameters
    ----------
    game:
        The game.
    p:
        The player.
    how:
        How the player got out.
    """
    pl = game.state.players[p]
    pl.in_jail = False
    pl.jail_turns = 0
    game._emit(EventKind.LEAVE_JAIL, p, how=how)


def send_to_jail(game: Game, p: int, why: str) -> None:
    """``p`` goes straight to jail, without passing Go; a pending double is void (``Game._send_to_jail``).

    Parameters
    ----------
    game:
        The game.
    p:
        The player.
    why:
        The ``jail`` event's ``why`` (``third double``, ``double number N``,
        ``Go To Jail square``, ``card``).
    """
    s = game.state
    pl = s.players[p]
    pl.position = s.board.jail
    pl.in_jail = True
    pl.jail_turns = 0
    s.doubles_rolled = 0
    game._emit(EventKind.JAIL, p, why=why)


def move(game: Game, p: int, steps: int, why: str) -> None:
    """Move ``p`` by ``steps`` squares (negative: backwards); forward past Go (or onto it) pays the
    salary, twice on landing on Go under ``rules.go_landing_bonus`` (``Game._move``).

    Parameters
    ----------
    game:
        The game.
    p:
        The player.
    steps:
        Squares to move.
    why:
        The ``move`` event's ``why``: ``dice`` or ``card``.
    """
    s = game.state
    pl = s.players[p]
    n = s.board.size
    start = pl.position
    pl.position = (start + steps) % n
    passed = steps > 0 and start + steps >= n
    game._emit(EventKind.MOVE, p, frm=start, to=pl.position, passed_go=passed, why=why)
    if passed:
        game._cash(None, p, s.rules.go_salary, "Go salary")
        if pl.position == 0 and s.rules.go_landing_bonus:
            game._cash(None, p, s.rules.go_salary, "Go landing bonus")
