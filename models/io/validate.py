"""The rule checks of a state: what a parsed state must obey to be accepted.

:func:`validate_state` checks an in-memory :class:`~models.state.GameState`
(one parsed by :func:`models.io.parse.parse_state`, or one a bridge or the
engine built) against the rules of the format, in this order: the shape
(list lengths, player count, names, non-property squares left to the bank),
each player (cash, position, jail consistency), the Get Out of Jail Free
cards (no more than the decks hold), holdings (owners exist and are active,
buildings on owned unmortgaged streets only), buildings (only on monopolies,
``rules.set_size`` counted, with no mortgaged lot of the owner in the group,
and even under ``rules.even_building``), the supply (houses and hotels on the
board within ``rules.houses`` and ``rules.hotels``), and the turn
(``to_move`` an active player; phase, doubles, pot and bank cash agree with
the rules), and the pending question (:func:`models.io.pending.check_pending`). The first rule broken is refused with an
:class:`~models.errors.InvalidStateError`; field paths are those of the state
document (players by index, properties by name), so that a loaded file's
errors point into it.
"""

from __future__ import annotations

from models.board import HOTEL, Board
from models.checks import expect_int, expect_str, key_path
from models.errors import InvalidStateError
from models.io.format import MAX_DOUBLES, MAX_PLAYERS, MIN_PLAYERS
from models.io.pending import check_pending
from models.state import BANK, PHASES, GameState, Phase


def validate_state(state: GameState) -> None:
    """Check that an in-memory state obeys the rules of the format (module docstring: the checks, in order).

    Field paths in the errors are those of the state document (players by
    index, properties by name), so that a loaded file's errors point into it.

    Parameters
    ----------
    state:
        The state; it is not changed.

    Raises
    ------
    InvalidStateError
        The first rule broken, with the field that breaks it.

    Examples
    --------
    >>> from models.io import load_state, validate_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> validate_state(state)
    >>> state.houses[state.square_of("Baltic Avenue")] = 1
    >>> validate_state(state)
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: properties["Baltic Avenue"].houses: 1 house, but the brown group is not owned by one player
    """
    check_shape(state)
    _check_players(state)
    _check_jail_cards(state)
    _check_holdings(state)
    _check_buildings(state)
    _check_supply(state)
    _check_turn(state)
    check_pending(state)


def property_field(state: GameState, sq: int, key: str | None = None) -> str:
    """The document path of a property square, e.g. ``properties["Baltic Avenue"].houses``.

    Parameters
    ----------
    state:
        The state (its board names the square).
    sq:
        The square's index.
    key:
        A field of the property's entry (``owner``, ``houses``, ``mortgaged``), or ``None``
        for the entry itself.

    Returns
    -------
    str
        The path, as :func:`models.checks.key_path` writes it.

    Examples
    --------
    >>> from models.io import load_state
    >>> from models.io.validate import property_field
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> property_field(state, 3, "houses")
    'properties["Baltic Avenue"].houses'
    """
    field = key_path("properties", state.board.squares[sq].name)
    return key_path(field, key) if key else field


def describe_level(level: int) -> str:
    """A building level in words: ``1 house``, ``3 houses`` or ``a hotel``.

    Parameters
    ----------
    level:
        1..4 houses, or :data:`models.board.HOTEL` (5) for a hotel.

    Returns
    -------
    str
        The words, as the messages of the checks and the repairs use them.

    Examples
    --------
    >>> from models.io.validate import describe_level
    >>> [describe_level(n) for n in (1, 3, 5)]
    ['1 house', '3 houses', 'a hotel']
    """
    if level == HOTEL:
        return "a hotel"
    return f"{level} house" if level == 1 else f"{level} houses"


def check_shape(state: GameState) -> None:
    """List lengths, player count and names, and non-property squares left to the bank.

    The first of :func:`validate_state`'s checks, and the one the lenient loader
    (:mod:`models.io.repair`) runs before it repairs: the repairs need a state of
    the right shape.

    Parameters
    ----------
    state:
        The state; it is not changed.

    Raises
    ------
    InvalidStateError
        ``owner``, ``houses`` or ``mortgaged`` is not one entry per square; fewer than
        :data:`~models.io.format.MIN_PLAYERS` or more than
        :data:`~models.io.format.MAX_PLAYERS` players; an empty or duplicate name; a
        square that is not a property with an owner, buildings or a mortgage.

    Examples
    --------
    >>> from models.io import load_state
    >>> from models.io.validate import check_shape
    >>> state = load_state("instances/two-player.json")
    >>> state.players[1].name = "Ann"
    >>> check_shape(state)
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: players[1].name: empty or duplicate name 'Ann'
    """
    n = state.board.size
    for attr in ("owner", "houses", "mortgaged"):
        if len(getattr(state, attr)) != n:
            raise InvalidStateError(attr, f"expected {n} entries (one per square), got {len(getattr(state, attr))}")
    if not MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS:
        raise InvalidStateError("players", f"expected {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(state.players)}")
    names = [p.name for p in state.players]
    for i, name in enumerate(names):
        if not name or name in names[:i]:
            raise InvalidStateError(key_path(key_path("players", i), "name"), f"empty or duplicate name {name!r}")
    for sq in state.board.squares:
        i = sq.index
        if not sq.is_property and (state.owner[i] != BANK or state.houses[i] or state.mortgaged[i]):
            raise InvalidStateError(
                key_path("board.squares", i), f"{sq.name} is not a property but has an owner, buildings or a mortgage"
            )


def _check_players(state: GameState) -> None:
    """Cash, position and jail consistency of each player."""
    jail = state.board.jail
    for i, p in enumerate(state.players):
        field = key_path("players", i)
        expect_int(p.cash, key_path(field, "cash"), 0)
        expect_int(p.position, key_path(field, "position"), 0, state.board.size - 1)
        expect_int(p.jail_turns, key_path(field, "jail_turns"), 0, state.rules.max_jail_rolls - 1)
        expect_int(p.jail_cards, key_path(field, "jail_cards"), 0)
        if p.in_jail and p.position != jail:
            raise InvalidStateError(
                key_path(field, "in_jail"), f"in jail, but position {p.position} is not the jail square ({jail})"
            )
        if not p.in_jail and p.jail_turns:
            raise InvalidStateError(
                key_path(field, "jail_turns"), f"{p.jail_turns} failed rolls in jail, but the player is not in jail"
            )


def jail_cards_in_decks(board: Board) -> int:
    """How many Get Out of Jail Free cards the board's two decks hold (2 on the standard decks).

    Parameters
    ----------
    board:
        The board.

    Returns
    -------
    int
        The number of ``jail_free`` cards in its Chance and Community Chest decks together.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.io import jail_cards_in_decks
    >>> jail_cards_in_decks(standard_board())
    2
    """
    return sum(1 for card in (*board.chance, *board.community_chest) if card.action == "jail_free")


def _check_jail_cards(state: GameState) -> None:
    """Each player, and all players together, hold at most the decks' jail cards."""
    limit = jail_cards_in_decks(state.board)
    total = 0
    for i, p in enumerate(state.players):
        field = key_path(key_path("players", i), "jail_cards")
        if p.jail_cards > limit:
            raise InvalidStateError(
                field, f"{p.jail_cards} Get Out of Jail Free cards, but the decks hold only {limit}"
            )
        total += p.jail_cards
        if total > limit:
            raise InvalidStateError(
                field, f"the players hold {total} Get Out of Jail Free cards in all, but the decks hold only {limit}"
            )


def _check_holdings(state: GameState) -> None:
    """Owners exist and are active; buildings stand on owned, unmortgaged streets only."""
    for sq in state.board.property_squares:
        owner = state.owner[sq]
        square = state.board.squares[sq]
        if owner != BANK and not 0 <= owner < len(state.players):
            raise InvalidStateError(property_field(state, sq, "owner"), f"player index {owner} does not exist")
        if owner != BANK and state.players[owner].bankrupt:
            raise InvalidStateError(
                property_field(state, sq, "owner"), f"{state.players[owner].name!r} is bankrupt and cannot own property"
            )
        if owner == BANK and (state.houses[sq] or state.mortgaged[sq]):
            raise InvalidStateError(property_field(state, sq), "the bank's property carries no buildings and no mortgage")
        level = state.houses[sq]
        if not 0 <= level <= HOTEL:
            raise InvalidStateError(property_field(state, sq, "houses"), f"{level} is not 0..{HOTEL}")
        if level and square.kind != "street":
            raise InvalidStateError(
                property_field(state, sq, "houses"), f"{describe_level(level)} on a {square.kind}: only streets carry buildings"
            )
        if level and state.mortgaged[sq]:
            raise InvalidStateError(property_field(state, sq, "houses"), f"{describe_level(level)} on a mortgaged lot")


def _check_buildings(state: GameState) -> None:
    """Buildings only on monopolies with no mortgaged lot in the owner's hand, built evenly (``rules.even_building``)."""
    for group in state.board.street_groups:
        lots = state.board.groups[group]
        for sq in lots:
            if state.houses[sq]:
                _check_buildable(state, group, sq)
        for player in {state.owner[sq] for sq in lots if state.owner[sq] != BANK}:
            if state.rules.even_building:
                _check_even(state, [sq for sq in lots if state.owner[sq] == player])


def _check_buildable(state: GameState, group: str, sq: int) -> None:
    """A built lot: its owner has the group's monopoly (``rules.set_size`` counted) and no mortgaged lot in it."""
    owner = state.owner[sq]
    what = describe_level(state.houses[sq])
    field = property_field(state, sq, "houses")
    if not state.has_monopoly(owner, group):
        if group in state.rules.set_size:
            have, need = state.count_in_group(owner, group), state.set_size(group)
            raise InvalidStateError(
                field,
                f"{what}, but {state.players[owner].name} owns {have} of the {group} lots and "
                f"rules.set_size needs {need}",
            )
        raise InvalidStateError(field, f"{what}, but the {group} group is not owned by one player")
    for other in state.board.groups[group]:
        if state.owner[other] == owner and state.mortgaged[other]:
            raise InvalidStateError(
                field, f"{what}, but {state.board.squares[other].name} in the {group} group is mortgaged"
            )


def _check_even(state: GameState, lots: list[int]) -> None:
    """One player's lots in a group: building levels at most one apart (a hotel is level 5)."""
    if not lots:
        return
    high = max(lots, key=lambda sq: state.houses[sq])
    low = min(lots, key=lambda sq: state.houses[sq])
    if state.houses[high] - state.houses[low] > 1:
        raise InvalidStateError(
            property_field(state, high, "houses"),
            f"{describe_level(state.houses[high])}, but {state.board.squares[low].name} in the same group has "
            f"{describe_level(state.houses[low]) if state.houses[low] else 'none'}: building must be even "
            "(at most one apart)",
        )


def _check_supply(state: GameState) -> None:
    """Houses (levels 1..4 summed) and hotels (level 5 counted) within the total supply."""
    houses, hotels = state.houses_on_board(), state.hotels_on_board()
    if houses > state.rules.houses:
        raise InvalidStateError(
            "properties", f"{houses} houses on the board, but the supply (rules.houses) is {state.rules.houses}"
        )
    if hotels > state.rules.hotels:
        raise InvalidStateError(
            "properties", f"{hotels} hotels on the board, but the supply (rules.hotels) is {state.rules.hotels}"
        )


def _check_turn(state: GameState) -> None:
    """``to_move`` is an active player; the phase and the doubles count agree."""
    if not state.active_players():
        raise InvalidStateError("players", "every player is bankrupt; at least one must be active")
    if not 0 <= state.to_move < len(state.players):
        raise InvalidStateError("to_move", f"player index {state.to_move} does not exist")
    if state.players[state.to_move].bankrupt:
        raise InvalidStateError(
            "to_move", f"{state.players[state.to_move].name!r} is bankrupt; to_move must be an active player"
        )
    expect_int(state.round, "round", 0)
    expect_str(state.phase, "phase", PHASES)
    rules = state.rules
    if not rules.doubles_again:
        expect_int(state.doubles_rolled, "doubles_rolled", 0, 0)
    else:
        expect_int(state.doubles_rolled, "doubles_rolled", 0, rules.doubles_to_jail - 1 if rules.doubles_to_jail else MAX_DOUBLES)
    if state.pot and not rules.pot_enabled:
        raise InvalidStateError("pot", f"${state.pot} in the Free Parking pot, but the rules have no pot (rules.free_parking is 'off')")
    expect_int(state.pot, "pot", 0)
    if (state.bank_cash is None) != (rules.bank_cash is None):
        need = "a number (rules.bank_cash limits the bank)" if state.bank_cash is None else "absent (the bank never runs out)"
        raise InvalidStateError("bank_cash", f"must be {need}")
    if state.bank_cash is not None:
        expect_int(state.bank_cash, "bank_cash", 0)
    if state.phase == Phase.START and state.doubles_rolled:
        raise InvalidStateError(
            "doubles_rolled", f"{state.doubles_rolled}, but phase is 'start' (doubles are counted after a roll)"
        )


__all__ = ["check_shape", "describe_level", "jail_cards_in_decks", "property_field", "validate_state"]
