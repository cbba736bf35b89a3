"""Lenient loading: the repairs of the rules that a foreign engine's state may break.

For bridges to other simulators: some of their positions break a rule of the
strict loader (a debt not yet settled, uneven building after a forced sale,
houses beside a mortgaged lot ...). :func:`load_state_lenient` (a document)
and :func:`repair_state` (an in-memory state) repair each such break that has
a sensible repair and report it as a :class:`Repair`; the codes and what each
does are :data:`REPAIR_RULES` (docs/state-format.md#lenient-loading), the
order and the detail :func:`load_state_lenient`'s docstring. No repair moves
money between players, the bank and the pot. What is left broken after the
repairs is refused by :func:`models.io.validate.validate_state`, as in strict
mode.

Two repairable values are out of the parser's ranges (a negative cash, jail
turns beyond the format's bound): the document is parsed with stand-ins for
them (:data:`_RELAXED`), and the values are put back before the repairs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from models.board import HOTEL
from models.checks import key_path
from models.errors import InvalidStateError
from models.io.format import MAX_DOUBLES, MAX_JAIL_TURNS
from models.io.json_text import PathLike, read_document
from models.io.parse import parse_state
from models.io.pending import check_pending
from models.io.validate import (
    check_shape,
    describe_level,
    jail_cards_in_decks,
    property_field,
    validate_state,
)
from models.limits import MAX_CASH, MAX_INT
from models.state import BANK, GameState, Phase


@dataclass(frozen=True, slots=True)
class Repair:
    """One change the lenient loader made to a state that broke a rule.

    Attributes
    ----------
    field:
        The document path of the value it changed, written as
        :class:`~models.errors.InvalidStateError` writes its fields, e.g.
        ``players[1].cash`` or ``properties["Baltic Avenue"].houses``.
    rule:
        The repair's code, a key of :data:`REPAIR_RULES`, e.g. ``negative_cash``.
    message:
        One line: what was found and what was done.

    Examples
    --------
    >>> from models.io.repair import Repair
    >>> print(Repair("players[0].cash", "negative_cash", "-$120, a debt pending settlement: set to $0, the debt dropped"))
    players[0].cash: -$120, a debt pending settlement: set to $0, the debt dropped [negative_cash]
    """

    field: str
    rule: str
    message: str

    def __str__(self) -> str:
        """``field: message [rule]``, one line."""
        return f"{self.field}: {self.message} [{self.rule}]"


class LenientLoad(NamedTuple):
    """What :func:`load_state_lenient` and :func:`repair_state` return: unpacks as ``state, repairs = ...``.

    Attributes
    ----------
    state:
        The repaired state; it passes :func:`~models.io.validate.validate_state`.
    repairs:
        The repairs made, in the order they were made (empty for a valid state).

    Examples
    --------
    >>> from models.io import load_state_lenient
    >>> state, repairs = load_state_lenient("instances/two-player.json")
    >>> state.players[0].name, repairs
    ('Ann', ())
    """

    state: GameState
    """The repaired state; it passes :func:`~models.io.validate.validate_state`."""
    repairs: tuple[Repair, ...]
    """The repairs made, in the order they were made (empty for a valid state)."""


REPAIR_RULES: Mapping[str, str] = {
    "negative_cash": "a player's cash below 0 (a debt pending settlement) is set to 0; the debt is dropped",
    "jail_position": "a player in jail off the jail square is moved to the jail square",
    "jail_turns": "failed jail rolls beyond the rules' limit are set to the limit (max_jail_rolls - 1), "
    "and to 0 for a player not in jail",
    "jail_cards": "Get Out of Jail Free cards beyond what the decks hold are taken away, from the last seat first",
    "bankrupt_owner": "a bankrupt player's lot returns to the bank, without buildings and unmortgaged",
    "buildings_without_monopoly": "buildings in a group its owner has no monopoly of return to the bank, unpaid",
    "mortgage_beside_buildings": "a mortgaged lot in a group where its owner has buildings is lifted, unpaid",
    "uneven_building": "an owner's buildings in a group are spread evenly over its lots, their number kept",
    "supply": "a building supply (rules.houses, rules.hotels) smaller than the buildings on the board is "
    "raised to their number",
    "to_move": "a bankrupt player to move passes the turn to the next active player, at the start of its turn",
    "doubles_rolled": "a doubles count the rules and the phase do not allow is set to the most they allow",
    "pot": "a Free Parking pot under rules without one is dropped",
    "bank_cash": "the bank's cash under rules where the bank never runs out is dropped",
    "pending": "a pending question the state (as repaired) does not allow is dropped",
}
"""The lenient loader's repairs: code -> what it does (docs/state-format.md#lenient-loading)."""


def load_state_lenient(path_or_dict: PathLike | Mapping[str, Any]) -> LenientLoad:
    """Load a state, repairing the rules that a foreign engine's state may break.

    For bridges to other simulators: some of their positions break a rule of
    the strict loader (a debt not yet settled, uneven building after a forced
    sale, houses beside a mortgaged lot ...). Each such break that has a
    sensible repair is repaired and reported as a :class:`Repair`, in this
    order (codes of :data:`REPAIR_RULES`; no repair moves money between
    players, the bank and the pot):

    ``negative_cash``
        Cash below 0, down to -$1,000,000 (a debt the other engine has not
        settled): set to 0. The debt is dropped, to no creditor: the solver
        sees a player with $0.
    ``jail_position``
        In jail but off the jail square: moved to the jail square.
    ``jail_turns``
        Failed jail rolls above ``rules.max_jail_rolls - 1`` (up to 10^9):
        set to that limit (the next jail turn is the last); above 0 for a
        player not in jail: set to 0.
    ``jail_cards``
        More Get Out of Jail Free cards than the decks hold: players keep
        theirs in seat order while the decks' cards last; the later seats
        lose the rest.
    ``bankrupt_owner``
        A lot owned by a bankrupt player: returned to the bank, its buildings
        to the bank's supply and its mortgage cleared (as a bankruptcy to the
        bank does, without the auction).
    ``buildings_without_monopoly``
        Buildings in a street group whose owner has no monopoly of it
        (``rules.set_size`` counted): returned to the bank's supply, unpaid.
    ``mortgage_beside_buildings``
        A mortgaged lot in a street group where its owner has buildings (on
        it or beside it): the mortgage is lifted without payment (the owner's
        cash is unchanged); the buildings stand.
    ``uneven_building``
        Under ``rules.even_building``, an owner's lots in a group more than
        one level apart (a hotel is level 5): its buildings there are spread
        evenly, keeping their number (so their cost and sale value): with
        ``n`` levels on ``k`` lots each lot gets ``n // k``, and the
        ``n % k`` lots that had the most (ties: the later square on the
        board) one more. Hotels may become houses and back, from and to the
        bank's supply.
    ``supply``
        More houses (hotels) on the board than ``rules.houses``
        (``rules.hotels``), also after the repairs above: the supply in the
        rules is raised to the number on the board (the bank has none left).
    ``to_move``
        A bankrupt player to move: the turn passes to the next active player
        in seat order, at the start of its turn (``phase`` ``start``,
        ``doubles_rolled`` 0), ``round`` + 1 when the seat order wraps round.
    ``doubles_rolled``
        Above what the rules and the phase allow: set to that most (0 in phase
        ``start`` or without ``rules.doubles_again``; else
        ``rules.doubles_to_jail - 1``).
    ``pot``
        A Free Parking pot under rules without one: set to 0 (dropped).
    ``bank_cash``
        The bank's cash given where the rules' bank never runs out: dropped.

    Whatever else breaks the format or a rule (bad JSON, unknown keys or
    names, wrong types, values out of range, a position off the board,
    buildings on a railroad, every player bankrupt ...) is refused as in
    strict mode, with the same :class:`~models.errors.InvalidStateError`. A
    valid document loads with no repairs, to the state
    :func:`~models.io.load.load_state` gives.

    Parameters
    ----------
    path_or_dict:
        A ``str`` or :class:`os.PathLike` path to a JSON file, or a mapping
        holding the parsed document.

    Returns
    -------
    LenientLoad
        The repaired state (it passes :func:`~models.io.validate.validate_state`)
        and the repairs made, in order.

    Raises
    ------
    InvalidStateError
        A break that is not repaired; ``err.field`` names the place.
    OSError
        The file cannot be read.

    Examples
    --------
    >>> from models.io import load_state_lenient, state_to_dict, load_state
    >>> doc = state_to_dict(load_state("instances/two-player.json"))
    >>> doc["players"][0]["cash"] = -120
    >>> state, repairs = load_state_lenient(doc)
    >>> state.players[0].cash, [r.rule for r in repairs]
    (0, ['negative_cash'])
    """
    return _load_lenient(read_document(path_or_dict))


def repair_state(state: GameState) -> LenientLoad:
    """The repairs of :func:`load_state_lenient` on an in-memory state: a repaired copy and the repairs.

    For a bridge that builds a :class:`~models.state.GameState` itself;
    ``state`` is left as it was.

    Parameters
    ----------
    state:
        The state to repair (not changed).

    Returns
    -------
    LenientLoad
        The repaired copy (it passes :func:`~models.io.validate.validate_state`)
        and the repairs made, in order.

    Raises
    ------
    InvalidStateError
        A rule broken that is not repaired, as :func:`~models.io.validate.validate_state` says.

    Examples
    --------
    >>> from models.io import load_state, repair_state
    >>> state = load_state("instances/two-player.json")
    >>> state.players[1].position = 12  # in jail, off the jail square
    >>> fixed, repairs = repair_state(state)
    >>> fixed.players[1].position, state.players[1].position, repairs[0].rule
    (10, 12, 'jail_position')
    """
    fixed = state.copy()
    repairs = _repair(fixed)
    return LenientLoad(fixed, tuple(repairs))


def _load_lenient(doc: Any) -> LenientLoad:
    """Parse ``doc`` with the repairable out-of-range values let through, then repair and validate."""
    patched, originals = _relax(doc)
    state = parse_state(patched)
    for (i, key), value in originals.items():
        setattr(state.players[i], key, value)
    return LenientLoad(state, tuple(_repair(state)))


_RELAXED = {"cash": (-MAX_CASH, -1, 0), "jail_turns": (MAX_JAIL_TURNS + 1, MAX_INT, MAX_JAIL_TURNS)}
"""Player fields the parser bounds but the repairs handle: key -> (lowest, highest, stand-in while parsing)."""


def _relax(doc: Any) -> tuple[Any, dict[tuple[int, str], int]]:
    """A copy of ``doc`` with the repairable out-of-range player values (:data:`_RELAXED`) replaced by
    stand-ins the parser accepts, and those values by (player index, key). Anything malformed is left
    for the parser to refuse."""
    originals: dict[tuple[int, str], int] = {}
    if not isinstance(doc, Mapping) or not isinstance(doc.get("players"), list):
        return doc, originals
    players = []
    for i, player in enumerate(doc["players"]):
        if isinstance(player, Mapping):
            player = dict(player)
            for key, (lo, hi, stand_in) in _RELAXED.items():
                value = player.get(key)
                if isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi:
                    originals[(i, key)] = value
                    player[key] = stand_in
        players.append(player)
    if not originals:
        return doc, originals
    out = dict(doc)
    out["players"] = players
    return out, originals


def _repair(state: GameState) -> list[Repair]:
    """Repair ``state`` in place (:func:`load_state_lenient` lists the repairs, in this order), then
    :func:`~models.io.validate.validate_state` it: what is left broken was not repairable and is refused as in strict mode."""
    check_shape(state)
    repairs: list[Repair] = []
    _repair_players(state, repairs)
    _repair_jail_cards(state, repairs)
    _repair_bankrupt_owners(state, repairs)
    for group in state.board.street_groups:
        _repair_group(state, group, repairs)
    _repair_supply(state, repairs)
    _repair_turn(state, repairs)
    _repair_pending(state, repairs)
    validate_state(state)
    return repairs


def _repair_pending(state: GameState, repairs: list[Repair]) -> None:
    """``pending``: a question the repaired state does not allow (a bankrupt debtor, a debt no
    longer above the cash, an offer no longer possible) is dropped, with the loader's reason."""
    try:
        check_pending(state)
    except InvalidStateError as err:
        repairs.append(Repair("pending", "pending", f"{err}: dropped"))
        state.pending = None


def _player_field(i: int, key: str) -> str:
    """The document path of a player's field, e.g. ``players[1].cash``."""
    return key_path(key_path("players", i), key)


def _repair_players(state: GameState, repairs: list[Repair]) -> None:
    """``negative_cash``, ``jail_position``, ``jail_turns``."""
    jail = state.board.jail
    limit = state.rules.max_jail_rolls - 1
    for i, p in enumerate(state.players):
        if isinstance(p.cash, int) and p.cash < 0:
            repairs.append(
                Repair(_player_field(i, "cash"), "negative_cash", f"-${-p.cash}, a debt pending settlement: set to $0, the debt dropped")
            )
            p.cash = 0
        if p.in_jail and p.position != jail:
            repairs.append(
                Repair(_player_field(i, "position"), "jail_position", f"{p.position}, but {p.name!r} is in jail: moved to the jail square ({jail})")
            )
            p.position = jail
        if not isinstance(p.jail_turns, int):
            continue
        if p.in_jail and p.jail_turns > limit:
            why = f"{p.jail_turns} failed rolls in jail, but rules.max_jail_rolls {state.rules.max_jail_rolls} allows at most {limit}"
            repairs.append(Repair(_player_field(i, "jail_turns"), "jail_turns", f"{why}: set to {limit} (the next jail turn is the last)"))
            p.jail_turns = limit
        elif not p.in_jail and p.jail_turns > 0:
            why = f"{p.jail_turns} failed rolls in jail, but {p.name!r} is not in jail"
            repairs.append(Repair(_player_field(i, "jail_turns"), "jail_turns", f"{why}: set to 0"))
            p.jail_turns = 0


def _repair_jail_cards(state: GameState, repairs: list[Repair]) -> None:
    """``jail_cards``: the decks' cards go to the holders in seat order; the later seats lose the rest."""
    left = jail_cards_in_decks(state.board)
    for i, p in enumerate(state.players):
        if not isinstance(p.jail_cards, int) or p.jail_cards < 0:
            continue
        keep = min(p.jail_cards, left)
        if keep < p.jail_cards:
            what = f"{p.jail_cards} Get Out of Jail Free cards, but the decks hold {jail_cards_in_decks(state.board)}"
            if left < jail_cards_in_decks(state.board):
                what += f" and the earlier seats hold {jail_cards_in_decks(state.board) - left}"
            repairs.append(Repair(_player_field(i, "jail_cards"), "jail_cards", f"{what}: set to {keep}"))
            p.jail_cards = keep
        left -= keep


def _repair_bankrupt_owners(state: GameState, repairs: list[Repair]) -> None:
    """``bankrupt_owner``: the lot returns to the bank, bare and unmortgaged."""
    n = len(state.players)
    for sq in state.board.property_squares:
        owner = state.owner[sq]
        if owner == BANK or not 0 <= owner < n or not state.players[owner].bankrupt:
            continue
        extra = []
        if state.houses[sq]:
            extra.append(f"its {describe_level(state.houses[sq])} to the bank's supply")
        if state.mortgaged[sq]:
            extra.append("its mortgage cleared")
        how = "returned to the bank" + (" (" + ", ".join(extra) + ")" if extra else "")
        repairs.append(Repair(property_field(state, sq, "owner"), "bankrupt_owner", f"{state.players[owner].name!r} is bankrupt: {how}"))
        state.owner[sq] = BANK
        state.houses[sq] = 0
        state.mortgaged[sq] = False


def _repair_group(state: GameState, group: str, repairs: list[Repair]) -> None:
    """``buildings_without_monopoly``, ``mortgage_beside_buildings``, ``uneven_building`` in one street group."""
    board = state.board
    n = len(state.players)
    lots = board.groups[group]
    if any(not isinstance(state.houses[sq], int) or not 0 <= state.houses[sq] <= HOTEL for sq in lots):
        return  # refused by validate_state
    for owner in sorted({state.owner[sq] for sq in lots if 0 <= state.owner[sq] < n}):
        mine = [sq for sq in lots if state.owner[sq] == owner]
        name = state.players[owner].name
        if any(state.houses[sq] for sq in mine) and not state.has_monopoly(owner, group):
            have, need = state.count_in_group(owner, group), state.set_size(group)
            for sq in mine:
                if state.houses[sq]:
                    why = f"{describe_level(state.houses[sq])}, but {name} owns {have} of the {group} lots and a monopoly needs {need}"
                    repairs.append(Repair(property_field(state, sq, "houses"), "buildings_without_monopoly", f"{why}: returned to the bank, unpaid"))
                    state.houses[sq] = 0
        built = [sq for sq in mine if state.houses[sq]]
        if built:
            for sq in mine:
                if state.mortgaged[sq]:
                    where = "it has" if state.houses[sq] else f"{name} has buildings on {board.squares[built[0]].name}"
                    repairs.append(
                        Repair(property_field(state, sq, "mortgaged"), "mortgage_beside_buildings", f"mortgaged, but {where} in the {group} group: lifted, unpaid")
                    )
                    state.mortgaged[sq] = False
        if state.rules.even_building:
            _level(state, group, mine, repairs)


def _level(state: GameState, group: str, mine: list[int], repairs: list[Repair]) -> None:
    """``uneven_building``: spread one owner's levels in a group evenly, keeping their sum."""
    levels = [state.houses[sq] for sq in mine]
    if not mine or max(levels) - min(levels) <= 1:
        return
    base, extra = divmod(sum(levels), len(mine))
    ranked = sorted(mine, key=lambda sq: (-state.houses[sq], -sq))
    new = {sq: base + (1 if k < extra else 0) for k, sq in enumerate(ranked)}
    before = ", ".join(str(v) for v in levels)
    after = ", ".join(str(new[sq]) for sq in mine)
    owner = state.players[state.owner[mine[0]]].name
    for sq in mine:
        if new[sq] != state.houses[sq]:
            what = f"{describe_level(state.houses[sq]) if state.houses[sq] else 'none'}, but {owner}'s {group} lots are uneven ({before})"
            result = describe_level(new[sq]) if new[sq] else "none"
            repairs.append(
                Repair(property_field(state, sq, "houses"), "uneven_building", f"{what}: set to {result}, its {sum(levels)} levels spread evenly ({after})")
            )
    for sq in mine:
        state.houses[sq] = new[sq]


def _repair_supply(state: GameState, repairs: list[Repair]) -> None:
    """``supply``: the rules' supply raised to what stands on the board."""
    for kind, count in (("houses", state.houses_on_board()), ("hotels", state.hotels_on_board())):
        supply = state.rules.houses if kind == "houses" else state.rules.hotels
        if count > supply:
            repairs.append(
                Repair(key_path("rules", kind), "supply", f"{supply}, but {count} {kind} stand on the board: raised to {count} (none left in the bank)")
            )
            state.rules = replace(state.rules, houses=count) if kind == "houses" else replace(state.rules, hotels=count)


def _repair_turn(state: GameState, repairs: list[Repair]) -> None:
    """``to_move``, ``doubles_rolled``, ``pot``, ``bank_cash``."""
    players = state.players
    n = len(players)
    active = state.active_players()
    if active and 0 <= state.to_move < n and players[state.to_move].bankrupt:
        p = state.to_move
        nxt = next((p + k) % n for k in range(1, n) if not players[(p + k) % n].bankrupt)
        what = f"{players[p].name!r} is bankrupt: the turn passes to {players[nxt].name!r}, at the start of its turn"
        if nxt < p:
            what += f" (round {state.round} -> {state.round + 1})"
            state.round += 1
        repairs.append(Repair("to_move", "to_move", what))
        state.to_move, state.phase, state.doubles_rolled = nxt, Phase.START, 0
    rules = state.rules
    if state.phase == Phase.START or not rules.doubles_again:
        most, why = 0, "phase is 'start'" if state.phase == Phase.START else "rules.doubles_again is off"
    elif rules.doubles_to_jail:
        most, why = rules.doubles_to_jail - 1, f"rules.doubles_to_jail is {rules.doubles_to_jail}"
    else:
        most, why = MAX_DOUBLES, ""
    if isinstance(state.doubles_rolled, int) and state.doubles_rolled > most:
        repairs.append(Repair("doubles_rolled", "doubles_rolled", f"{state.doubles_rolled}, but {why}: set to {most}"))
        state.doubles_rolled = most
    if isinstance(state.pot, int) and state.pot > 0 and not rules.pot_enabled:
        repairs.append(Repair("pot", "pot", f"${state.pot}, but the rules have no Free Parking pot (rules.free_parking 'off'): dropped"))
        state.pot = 0
    if state.bank_cash is not None and rules.bank_cash is None:
        repairs.append(Repair("bank_cash", "bank_cash", f"${state.bank_cash}, but the rules' bank never runs out (rules.bank_cash null): dropped"))
        state.bank_cash = None


__all__ = ["REPAIR_RULES", "LenientLoad", "Repair", "load_state_lenient", "repair_state"]
