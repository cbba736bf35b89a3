"""Load and save game states in the ``monopoly-state/1`` JSON format.

The format is specified in ``../shared/spec/state-format.md``. Parsing is
strict: every field is type-checked (JSON ``true`` is not an integer), unknown
keys are refused at every level, and a state that breaks a rule of the game
(uneven building, more houses than the supply, a bankrupt owner ...) is
refused. Every refusal is an :class:`~models.errors.InvalidStateError` whose
``field`` names the place, e.g.
``properties["Baltic Avenue"].houses: 2 houses, but the brown group is not
owned by one player``.

Public functions
----------------
load_state(path_or_dict, *, strict=True) -> GameState
    Parse a file or an already-parsed document. ``strict=False``: repair what a
    foreign engine's state may break and return a :class:`LenientLoad`
    ``(state, repairs)`` instead (:data:`REPAIR_RULES`).
load_state_lenient(path_or_dict) -> LenientLoad
    The same as ``load_state(path_or_dict, strict=False)``.
repair_state(state) -> LenientLoad
    The lenient repairs on an in-memory state (a repaired copy; the state is untouched).
validate_state(state) -> None
    The rule checks alone, on an in-memory :class:`GameState`.
state_to_dict(state) -> dict
    The document of a state (``load_state(state_to_dict(s)) == s``).
dumps_state(state) -> str
    That document as indented JSON text with a trailing newline.
save_state(state, path) -> None
    Write it atomically (temporary file in the same folder, then replace).
state_schema() -> dict
    The JSON Schema (draft 2020-12) of the format.
jail_cards_in_decks(board) -> int
    How many Get Out of Jail Free cards the board's decks hold.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, NamedTuple, overload

from models._check import (
    expect_bool,
    expect_int,
    expect_list,
    expect_number,
    expect_object,
    expect_str,
    key_path,
    type_name,
)
from models.board import BUILTIN_BOARDS, HOTEL, Board, load_board
from models.errors import InvalidStateError
from models.files import atomic_write
from models.limits import (
    MAX_AMOUNT,
    MAX_CASH,
    MAX_DICE,
    MAX_INT,
    MAX_JSON_DEPTH,
    MAX_ROUND,
    MAX_SIDES,
    MAX_STATE_BYTES,
    MAX_SUPPLY,
    name_problem,
)
from models.rules import (
    CARD_DRAWS,
    FREE_PARKING,
    JAIL_RELEASES,
    PRESETS,
    VARIANT_FIELDS,
    DiceSpec,
    Rules,
)
from models.state import BANK, PHASES, GameState, PlayerState

FORMAT = "monopoly-state/2"
"""The format this module writes when a state needs it (variant rules, a pot, a finite bank)."""
FORMAT_V1 = "monopoly-state/1"
"""The first format, still read, and written for every state that needs nothing newer."""
FORMATS = (FORMAT_V1, FORMAT)
DEFAULT_BOARD = "standard-us"
MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_JAIL_TURNS = 2  # failed rolls in jail before the forced exit, at most (rules.max_jail_rolls <= 3)
MAX_DOUBLES = 1000  # bound at parsing; validate_state checks against the rules (doubles_to_jail)

_TOP_KEYS = ("format", "board", "rules", "players", "properties", "to_move", "round", "phase", "doubles_rolled", "pot", "bank_cash")
_V2_TOP_KEYS = ("pot", "bank_cash")
_PLAYER_KEYS = ("name", "cash", "position", "in_jail", "jail_turns", "jail_cards", "bankrupt")
_PROPERTY_KEYS = ("owner", "houses", "mortgaged")
_RULE_KEYS_V1 = ("go_salary", "jail_fine", "houses", "hotels", "mortgage_interest", "dice", "set_size")
RULE_KEYS = ("preset", *_RULE_KEYS_V1, *VARIANT_FIELDS)
"""Keys of the state format's ``rules`` object (docs/state-format.md#rules)."""
_RULE_INTS = {  # field -> (lowest, highest); None: the field may be null
    "go_salary": (0, MAX_AMOUNT, False),
    "jail_fine": (0, MAX_AMOUNT, False),
    "houses": (0, MAX_SUPPLY, False),
    "hotels": (0, MAX_SUPPLY, False),
    "doubles_to_jail": (0, 5, False),
    "max_jail_rolls": (1, 3, False),
    "free_parking_seed": (0, MAX_AMOUNT, False),
    "bank_cash": (0, MAX_CASH, True),
    "cash_target": (1, MAX_CASH, True),
    "round_limit": (1, MAX_ROUND, True),
}
_RULE_BOOLS = ("doubles_again", "jail_doubles", "go_landing_bonus", "auctions", "auction_only", "even_building")
_RULE_CHOICES = {"jail_release": JAIL_RELEASES, "card_draw": CARD_DRAWS, "free_parking": FREE_PARKING}
_RULE_RATES = ("mortgage_interest", "mortgage_rate", "building_sell_rate")
_DICE_KEYS = ("count", "sides", "weights")


PathLike = str | os.PathLike[str]


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------


@overload
def load_state(path_or_dict: PathLike | Mapping[str, Any], *, strict: Literal[True] = True) -> GameState: ...
@overload
def load_state(path_or_dict: PathLike | Mapping[str, Any], *, strict: Literal[False]) -> LenientLoad: ...
@overload
def load_state(path_or_dict: PathLike | Mapping[str, Any], *, strict: bool) -> GameState | LenientLoad: ...
def load_state(path_or_dict: PathLike | Mapping[str, Any], *, strict: bool = True) -> GameState | LenientLoad:
    """Load a game state from a JSON file or an already-parsed document.

    Parameters
    ----------
    path_or_dict:
        A ``str`` or :class:`os.PathLike` path to a JSON file, or a mapping
        holding the parsed document.
    strict:
        ``True`` (the default, and the command line's behaviour): a state that
        breaks a rule is refused. ``False``: the rules a foreign engine's state
        may break are repaired (:func:`load_state_lenient`), and the result is
        a :class:`LenientLoad` ``(state, repairs)`` instead of the state alone.

    Returns
    -------
    GameState
        With ``strict=True``: a new state; it passes :func:`validate_state`.
    LenientLoad
        With ``strict=False``: the repaired state (it passes
        :func:`validate_state`) and the repairs made, in order.

    Raises
    ------
    InvalidStateError
        The document is not valid JSON, breaks the format, or breaks a rule
        (with ``strict=False``: a rule that is not repaired); ``err.field``
        names the place.
    OSError
        The file cannot be read.
    """
    doc = _document(path_or_dict)
    if not strict:
        return _load_lenient(doc)
    state = _parse_state(doc)
    validate_state(state)
    return state


def _document(path_or_dict: Any) -> Any:
    """The parsed document of a path or a mapping."""
    if isinstance(path_or_dict, Mapping):
        return path_or_dict
    if isinstance(path_or_dict, (str, os.PathLike)):
        return _read_json(Path(path_or_dict))
    raise InvalidStateError("", f"expected a path or a parsed document, got {type_name(path_or_dict)}")


def _read_json(path: Path) -> Any:
    """Parse a JSON file, refusing duplicate keys and NaN/Infinity (and files over :data:`MAX_STATE_BYTES`)."""
    with path.open("rb") as fh:
        data = fh.read(MAX_STATE_BYTES + 1)
    return _parse_json_bytes(data, str(path))


def _parse_json_bytes(data: bytes, source: str) -> Any:
    """Parse UTF-8 JSON bytes from ``source`` (named in errors), refusing duplicate keys and NaN/Infinity."""
    if len(data) > MAX_STATE_BYTES:
        raise InvalidStateError("", f"{source}: larger than {MAX_STATE_BYTES} bytes, the limit for a state file")
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark is tolerated
    except UnicodeDecodeError as err:
        raise InvalidStateError("", f"{source}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    _check_depth(text, source)
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        where = f"line {err.lineno}, column {err.colno}"
        raise InvalidStateError("", f"{source}: not valid JSON ({where}: {err.msg})") from None
    except ValueError as err:  # e.g. an integer of more than 4,300 digits
        raise InvalidStateError("", f"{source}: a number beyond what a state may hold ({str(err).splitlines()[0][:80]})") from None


def _check_depth(text: str, source: str) -> None:
    """Refuse nesting deeper than :data:`MAX_JSON_DEPTH` before parsing (brackets inside strings are skipped)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise InvalidStateError("", f"{source}: JSON nested deeper than {MAX_JSON_DEPTH} levels")
        elif ch in "]}":
            depth -= 1


def load_state_bytes(data: bytes, source: str = "<stdin>") -> GameState:
    """:func:`load_state` on the bytes of a state document (e.g. read from standard input);
    ``source`` names it in error messages."""
    return load_state(_parse_json_bytes(data, source))


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of :func:`json.loads`: a key given twice is an error, not "last wins"."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidStateError("", f"duplicate key {key!r} in a JSON object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    """``parse_constant`` of :func:`json.loads`: ``NaN`` and ``Infinity`` are not JSON."""
    raise InvalidStateError("", f"{name} is not a JSON number")


def _parse_state(doc: Any) -> GameState:
    """Build a :class:`GameState` from a document, checking types and names (not rules)."""
    obj = expect_object(doc, "", _TOP_KEYS, ("format", "players"))
    fmt = expect_str(obj["format"], "format")
    if fmt not in FORMATS:
        raise InvalidStateError("format", f"unknown format {fmt!r} (expected {' or '.join(map(repr, FORMATS))})")
    board = _parse_board(obj.get("board", DEFAULT_BOARD))
    rules = parse_rules(obj.get("rules", {}), board)
    if fmt == FORMAT_V1:
        newer = [k for k in _V2_TOP_KEYS if k in obj]
        newer += [key_path("rules", k) for k in ("preset", *VARIANT_FIELDS) if isinstance(obj.get("rules"), Mapping) and k in obj["rules"]]
        if newer:
            raise InvalidStateError(newer[0], f"needs format {FORMAT!r} (the file says {FORMAT_V1!r})")
    players = _parse_players(obj["players"], board)
    names = {p.name: i for i, p in enumerate(players)}
    state = GameState(board, rules, players)
    _parse_properties(obj.get("properties", {}), state, names)
    state.to_move = _parse_to_move(obj, players, names)
    state.round = expect_int(obj.get("round", 0), "round", 0, MAX_ROUND)
    state.phase = expect_str(obj.get("phase", "start"), "phase", PHASES)
    state.doubles_rolled = expect_int(obj.get("doubles_rolled", 0), "doubles_rolled", 0, MAX_DOUBLES)
    state.pot = expect_int(obj.get("pot", rules.free_parking_seed), "pot", 0, MAX_CASH)
    if "bank_cash" in obj:
        state.bank_cash = expect_int(obj["bank_cash"], "bank_cash", 0, MAX_CASH)
    else:
        state.bank_cash = rules.bank_cash
    return state


def _parse_board(doc: Any) -> Board:
    """``board``: a built-in board's name or an inline board document."""
    if not isinstance(doc, (str, Mapping)):
        raise InvalidStateError(
            "board",
            f"expected a built-in board name ({', '.join(BUILTIN_BOARDS)}) or an inline board, got {type_name(doc)}",
        )
    return load_board(doc, "board")


def parse_rules(
    doc: Any, board: Board, field: str = "rules", keys: tuple[str, ...] = RULE_KEYS, required: tuple[str, ...] = ()
) -> Rules:
    """A ``rules`` object: an optional ``preset`` name (default ``standard-us``) and overrides of its fields.

    Parameters
    ----------
    doc:
        The parsed object.
    board:
        The board (``set_size`` names its groups).
    field:
        Where the object is, for messages.
    keys, required:
        The keys allowed and those required (the state format: :data:`RULE_KEYS`, none
        required; a trial checkpoint: every field of :class:`Rules`).

    Raises
    ------
    InvalidStateError
        A key, type or range is wrong, the preset is unknown, or two rules contradict each other.
    """
    obj = expect_object(doc, field, keys, required)
    base = Rules()
    if "preset" in obj:
        name = expect_str(obj["preset"], key_path(field, "preset"))
        if name not in PRESETS:
            raise InvalidStateError(key_path(field, "preset"), f"unknown preset {name!r} (presets: {', '.join(PRESETS)})")
        base = PRESETS[name]
    kwargs: dict[str, Any] = {}
    for key, value in obj.items():
        where = key_path(field, key)
        if key == "preset":
            continue
        if key in _RULE_INTS:
            lo, hi, nullable = _RULE_INTS[key]
            kwargs[key] = None if value is None and nullable else expect_int(value, where, lo, hi)
        elif key in _RULE_BOOLS:
            kwargs[key] = expect_bool(value, where)
        elif key in _RULE_CHOICES:
            kwargs[key] = expect_str(value, where, _RULE_CHOICES[key])
        elif key in _RULE_RATES:
            kwargs[key] = _number(value, where, 0, 1)
        elif key == "dice":
            kwargs[key] = _parse_dice(value, where)
        elif key == "set_size":
            kwargs[key] = _parse_set_size(value, board, where)
    try:
        return replace(base, **kwargs)
    except ValueError as e:
        raise InvalidStateError(field, str(e)) from None


def _parse_dice(doc: Any, field: str = "rules.dice") -> DiceSpec:
    """``rules.dice``: ``count`` >= 1, ``sides`` >= 2, optional ``weights`` (one per side)."""
    obj = expect_object(doc, field, _DICE_KEYS)
    count = expect_int(obj.get("count", 2), key_path(field, "count"), 1, MAX_DICE)
    sides = expect_int(obj.get("sides", 6), key_path(field, "sides"), 2, MAX_SIDES)
    if "weights" not in obj:
        return DiceSpec(count, sides)
    wfield = key_path(field, "weights")
    raw = expect_list(obj["weights"], wfield)
    if len(raw) != sides:
        raise InvalidStateError(wfield, f"expected {sides} weights (one per side), got {len(raw)}")
    weights = tuple(_number(w, key_path(wfield, i), 0, 1e9) for i, w in enumerate(raw))
    if sum(weights) <= 0:
        raise InvalidStateError(wfield, "the weights must not all be zero")
    return DiceSpec(count, sides, weights)


def _number(value: Any, field: str, lo: float | None = None, hi: float | None = None) -> float:
    """:func:`expect_number`, also refusing integers too large for a float (it raises OverflowError)."""
    try:
        return expect_number(value, field, lo, hi)
    except OverflowError:
        raise InvalidStateError(field, "the number is too large") from None


def _parse_set_size(doc: Any, board: Board, field: str = "rules.set_size") -> dict[str, int]:
    """``rules.set_size``: group -> lots needed, 1..the group's size."""
    obj = expect_object(doc, field, _keys_of(doc))
    for group in obj:
        if group not in board.groups:
            raise InvalidStateError(key_path(field, group), f"not a group of the board (groups: {', '.join(board.groups)})")
    return {group: expect_int(n, key_path(field, group), 1, len(board.groups[group])) for group, n in obj.items()}


def _keys_of(doc: Any) -> list[str]:
    """The string keys of a mapping (so that ``expect_object`` checks the type only)."""
    return [k for k in doc if isinstance(k, str)] if isinstance(doc, Mapping) else []


def _parse_players(doc: Any, board: Board) -> list[PlayerState]:
    """``players``: 2 to 8 players with unique names, in turn order."""
    raw = expect_list(doc, "players", MIN_PLAYERS, MAX_PLAYERS)
    players: list[PlayerState] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        player = _parse_player(item, key_path("players", i), board)
        if player.name in seen:
            raise InvalidStateError(key_path(key_path("players", i), "name"), f"duplicate player name {player.name!r}")
        seen.add(player.name)
        players.append(player)
    return players


def _parse_player(doc: Any, field: str, board: Board) -> PlayerState:
    """One ``players[i]`` object (types and ranges; jail consistency is checked later)."""
    obj = expect_object(doc, field, _PLAYER_KEYS, ("name", "cash"))
    name = expect_str(obj["name"], key_path(field, "name"))
    problem = name_problem(name)
    if problem is not None:
        raise InvalidStateError(key_path(field, "name"), problem)
    return PlayerState(
        name=name,
        cash=expect_int(obj["cash"], key_path(field, "cash"), 0, MAX_CASH),
        position=expect_int(obj.get("position", 0), key_path(field, "position"), 0, board.size - 1),
        in_jail=expect_bool(obj.get("in_jail", False), key_path(field, "in_jail")),
        jail_turns=expect_int(obj.get("jail_turns", 0), key_path(field, "jail_turns"), 0, MAX_JAIL_TURNS),
        jail_cards=expect_int(obj.get("jail_cards", 0), key_path(field, "jail_cards"), 0),
        bankrupt=expect_bool(obj.get("bankrupt", False), key_path(field, "bankrupt")),
    )


def _parse_properties(doc: Any, state: GameState, names: Mapping[str, int]) -> None:
    """Fill ``state.owner/houses/mortgaged`` from the ``properties`` object."""
    obj = expect_object(doc, "properties", _keys_of(doc))
    board = state.board
    for prop in obj:
        if prop not in board.property_index:
            kinds = [sq.kind for sq in board.squares if sq.name == prop]
            why = f" (it is a {kinds[0].replace('_', ' ')} square)" if kinds else ""
            raise InvalidStateError(key_path("properties", prop), f"not a property of the board {board.name!r}{why}")
    for prop, entry in obj.items():
        field = key_path("properties", prop)
        sq = state.board.property_index[prop]
        item = expect_object(entry, field, _PROPERTY_KEYS, ("owner",))
        owner = expect_str(item["owner"], key_path(field, "owner"))
        if owner not in names:
            raise InvalidStateError(key_path(field, "owner"), f"{owner!r} is not a player")
        state.owner[sq] = names[owner]
        state.houses[sq] = expect_int(item.get("houses", 0), key_path(field, "houses"), 0, HOTEL)
        state.mortgaged[sq] = expect_bool(item.get("mortgaged", False), key_path(field, "mortgaged"))


def _parse_to_move(obj: Mapping[str, Any], players: list[PlayerState], names: Mapping[str, int]) -> int:
    """``to_move`` as a player index; default: the first player not bankrupt."""
    if "to_move" not in obj:
        active = [i for i, p in enumerate(players) if not p.bankrupt]
        if not active:
            raise InvalidStateError("players", "every player is bankrupt; at least one must be active")
        return active[0]
    name = expect_str(obj["to_move"], "to_move")
    if name not in names:
        raise InvalidStateError("to_move", f"{name!r} is not a player")
    return names[name]


# ---------------------------------------------------------------------------
# Rule checks
# ---------------------------------------------------------------------------


def validate_state(state: GameState) -> None:
    """Check that an in-memory state obeys the rules of the format.

    Field paths in the errors are those of the state document (players by
    index, properties by name), so that a loaded file's errors point into it.

    Raises
    ------
    InvalidStateError
        The first rule broken, with the field that breaks it.
    """
    _check_shape(state)
    _check_players(state)
    _check_jail_cards(state)
    _check_holdings(state)
    _check_buildings(state)
    _check_supply(state)
    _check_turn(state)


def _prop_field(state: GameState, sq: int, key: str | None = None) -> str:
    """The document path of a property square, e.g. ``properties["Baltic Avenue"].houses``."""
    field = key_path("properties", state.board.squares[sq].name)
    return key_path(field, key) if key else field


def _check_shape(state: GameState) -> None:
    """List lengths, player count, and non-property squares left to the bank."""
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
    """How many Get Out of Jail Free cards the board's two decks hold (2 on the standard decks)."""
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
            raise InvalidStateError(_prop_field(state, sq, "owner"), f"player index {owner} does not exist")
        if owner != BANK and state.players[owner].bankrupt:
            raise InvalidStateError(
                _prop_field(state, sq, "owner"), f"{state.players[owner].name!r} is bankrupt and cannot own property"
            )
        if owner == BANK and (state.houses[sq] or state.mortgaged[sq]):
            raise InvalidStateError(_prop_field(state, sq), "the bank's property carries no buildings and no mortgage")
        level = state.houses[sq]
        if not 0 <= level <= HOTEL:
            raise InvalidStateError(_prop_field(state, sq, "houses"), f"{level} is not 0..{HOTEL}")
        if level and square.kind != "street":
            raise InvalidStateError(
                _prop_field(state, sq, "houses"), f"{_describe(level)} on a {square.kind}: only streets carry buildings"
            )
        if level and state.mortgaged[sq]:
            raise InvalidStateError(_prop_field(state, sq, "houses"), f"{_describe(level)} on a mortgaged lot")


def _describe(level: int) -> str:
    """``1 house``, ``3 houses`` or ``a hotel``."""
    if level == HOTEL:
        return "a hotel"
    return f"{level} house" if level == 1 else f"{level} houses"


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
    owner = state.owner[sq]
    what = _describe(state.houses[sq])
    field = _prop_field(state, sq, "houses")
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
            _prop_field(state, high, "houses"),
            f"{_describe(state.houses[high])}, but {state.board.squares[low].name} in the same group has "
            f"{_describe(state.houses[low]) if state.houses[low] else 'none'}: building must be even "
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
    if state.phase == "start" and state.doubles_rolled:
        raise InvalidStateError(
            "doubles_rolled", f"{state.doubles_rolled}, but phase is 'start' (doubles are counted after a roll)"
        )


# ---------------------------------------------------------------------------
# Lenient loading
# ---------------------------------------------------------------------------


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
    """

    field: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message} [{self.rule}]"


class LenientLoad(NamedTuple):
    """What :func:`load_state_lenient` returns: unpacks as ``state, repairs = ...``."""

    state: GameState
    """The repaired state; it passes :func:`validate_state`."""
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
    valid document loads with no repairs, to the state :func:`load_state`
    gives.

    Raises
    ------
    InvalidStateError
        A break that is not repaired; ``err.field`` names the place.
    OSError
        The file cannot be read.
    """
    return _load_lenient(_document(path_or_dict))


def repair_state(state: GameState) -> LenientLoad:
    """The repairs of :func:`load_state_lenient` on an in-memory state (for a bridge that builds
    a :class:`GameState` itself): a repaired copy and the repairs; ``state`` is left as it was.

    Raises
    ------
    InvalidStateError
        A rule broken that is not repaired, as :func:`validate_state` says.
    """
    fixed = state.copy()
    repairs = _repair(fixed)
    return LenientLoad(fixed, tuple(repairs))


def _load_lenient(doc: Any) -> LenientLoad:
    """Parse ``doc`` with the repairable out-of-range values let through, then repair and validate."""
    patched, originals = _relax(doc)
    state = _parse_state(patched)
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
    :func:`validate_state` it: what is left broken was not repairable and is refused as in strict mode."""
    _check_shape(state)
    repairs: list[Repair] = []
    _repair_players(state, repairs)
    _repair_jail_cards(state, repairs)
    _repair_bankrupt_owners(state, repairs)
    for group in state.board.street_groups:
        _repair_group(state, group, repairs)
    _repair_supply(state, repairs)
    _repair_turn(state, repairs)
    validate_state(state)
    return repairs


def _player_field(i: int, key: str) -> str:
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
            extra.append(f"its {_describe(state.houses[sq])} to the bank's supply")
        if state.mortgaged[sq]:
            extra.append("its mortgage cleared")
        how = "returned to the bank" + (" (" + ", ".join(extra) + ")" if extra else "")
        repairs.append(Repair(_prop_field(state, sq, "owner"), "bankrupt_owner", f"{state.players[owner].name!r} is bankrupt: {how}"))
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
                    why = f"{_describe(state.houses[sq])}, but {name} owns {have} of the {group} lots and a monopoly needs {need}"
                    repairs.append(Repair(_prop_field(state, sq, "houses"), "buildings_without_monopoly", f"{why}: returned to the bank, unpaid"))
                    state.houses[sq] = 0
        built = [sq for sq in mine if state.houses[sq]]
        if built:
            for sq in mine:
                if state.mortgaged[sq]:
                    where = "it has" if state.houses[sq] else f"{name} has buildings on {board.squares[built[0]].name}"
                    repairs.append(
                        Repair(_prop_field(state, sq, "mortgaged"), "mortgage_beside_buildings", f"mortgaged, but {where} in the {group} group: lifted, unpaid")
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
            what = f"{_describe(state.houses[sq]) if state.houses[sq] else 'none'}, but {owner}'s {group} lots are uneven ({before})"
            result = _describe(new[sq]) if new[sq] else "none"
            repairs.append(
                Repair(_prop_field(state, sq, "houses"), "uneven_building", f"{what}: set to {result}, its {sum(levels)} levels spread evenly ({after})")
            )
    for sq in mine:
        state.houses[sq] = new[sq]


def _repair_supply(state: GameState, repairs: list[Repair]) -> None:
    """``supply``: the rules' supply raised to what stands on the board."""
    for kind, count in (("houses", state.houses_on_board()), ("hotels", state.hotels_on_board())):
        supply = getattr(state.rules, kind)
        if count > supply:
            repairs.append(
                Repair(key_path("rules", kind), "supply", f"{supply}, but {count} {kind} stand on the board: raised to {count} (none left in the bank)")
            )
            state.rules = replace(state.rules, **{kind: count})


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
        state.to_move, state.phase, state.doubles_rolled = nxt, "start", 0
    rules = state.rules
    if state.phase == "start" or not rules.doubles_again:
        most, why = 0, "phase is 'start'" if state.phase == "start" else "rules.doubles_again is off"
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


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The state-format document of a state: ``monopoly-state/1`` when the rules are standard
    but for the format-1 fields, else ``monopoly-state/2``.

    The board is written by name when built in, else inline; ``rules`` is
    ``{"preset": NAME}`` when the rules are exactly a preset other than the
    standard one, else only the overrides (omitted when there are none); ``pot``
    is written when the rules have a pot and ``bank_cash`` when the bank is finite; player fields at their
    defaults are left out except ``position``; ``properties`` lists owned
    properties in board order, with ``houses``/``mortgaged`` only when set.
    ``load_state(state_to_dict(s)) == s`` for every valid state ``s``.
    """
    rules = state.rules
    newer = bool(rules.variant_overrides())  # a pot or a finite bank comes with its rule
    doc: dict[str, Any] = {"format": FORMAT if newer else FORMAT_V1}
    doc["board"] = state.board.name if state.board.builtin else state.board.to_dict()
    name = rules.preset()
    if name is not None and name != "standard-us":
        doc["rules"] = {"preset": name}
    elif rules.overrides():
        doc["rules"] = rules.overrides()
    doc["players"] = [_player_to_dict(p) for p in state.players]
    doc["properties"] = _properties_to_dict(state)
    doc["to_move"] = state.players[state.to_move].name
    doc["round"] = state.round
    doc["phase"] = state.phase
    doc["doubles_rolled"] = state.doubles_rolled
    if rules.pot_enabled:
        doc["pot"] = state.pot
    if state.bank_cash is not None:
        doc["bank_cash"] = state.bank_cash
    return doc


def _player_to_dict(p: PlayerState) -> dict[str, Any]:
    """A ``players[i]`` object: name, cash, position, and the other fields when not default."""
    out: dict[str, Any] = {"name": p.name, "cash": p.cash, "position": p.position}
    if p.in_jail:
        out["in_jail"] = True
    if p.jail_turns:
        out["jail_turns"] = p.jail_turns
    if p.jail_cards:
        out["jail_cards"] = p.jail_cards
    if p.bankrupt:
        out["bankrupt"] = True
    return out


def _properties_to_dict(state: GameState) -> dict[str, Any]:
    """The ``properties`` object: owned properties in board order."""
    out: dict[str, Any] = {}
    for sq, owner in state.iter_owned():
        entry: dict[str, Any] = {"owner": state.players[owner].name}
        if state.houses[sq]:
            entry["houses"] = state.houses[sq]
        if state.mortgaged[sq]:
            entry["mortgaged"] = True
        out[state.board.squares[sq].name] = entry
    return out


def dumps_state(state: GameState) -> str:
    """The state as JSON text: indented by 2, keys in the document's order, trailing newline.

    An object or list that fits on one line of at most 140 characters is
    written on one line (a player, a property, a square, a card), as in the
    spec's example; larger ones are spread over lines.
    """
    return _format_json(state_to_dict(state), 0) + "\n"


_LINE_WIDTH = 140


def _format_json(value: Any, indent: int, column: int | None = None) -> str:
    """``value`` as JSON, compact where it fits in :data:`_LINE_WIDTH`, else indented by 2.

    ``indent`` is the current nesting indentation; ``column`` is where the
    value starts on its line (after a key), for the width check.
    """
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    start = indent if column is None else column
    if not isinstance(value, (dict, list)) or not value or start + len(flat) + 1 <= _LINE_WIDTH:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            head = f"{pad}{json.dumps(key, ensure_ascii=False)}: "
            items.append(head + _format_json(item, indent + 2, len(head)))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + _format_json(item, indent + 2) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def save_state(state: GameState, path: PathLike) -> None:
    """Write the state to ``path`` atomically (:func:`models.files.atomic_write`).

    A reader never sees a half-written file.
    """
    atomic_write(path, dumps_state(state))


# ---------------------------------------------------------------------------
# Schema
# ---------------------------------------------------------------------------


@cache
def _schema_text() -> str:
    """The schema file's text (read once; package data under ``models/data``)."""
    return resources.files("models").joinpath("data").joinpath("state.schema.json").read_text(encoding="utf-8")


def state_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the state format, as a fresh dict.

    The schema covers types, required fields, unknown keys and the ranges a
    schema can express; the rule checks (even building, supply, owners ...)
    are :func:`load_state`'s alone.
    """
    schema: dict[str, Any] = json.loads(_schema_text())
    return schema


__all__ = [
    "FORMAT",
    "REPAIR_RULES",
    "LenientLoad",
    "Repair",
    "dumps_state",
    "jail_cards_in_decks",
    "load_state",
    "load_state_bytes",
    "load_state_lenient",
    "repair_state",
    "save_state",
    "state_schema",
    "state_to_dict",
    "validate_state",
]
