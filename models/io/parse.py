"""Parsing a state document into a :class:`~models.state.GameState`: types, ranges and names.

Parsing is strict: every field is type-checked (JSON ``true`` is not an
integer, :mod:`models.checks`), unknown keys are refused at every level, every
name must name something (a board, a preset, a group, a property, a player),
and every number must lie in the format's range (:mod:`models.limits`,
:mod:`models.io.format`). The rules of the game (even building, the supply,
owners that are not bankrupt ...) are not checked here but by
:func:`models.io.validate.validate_state`; :func:`models.io.load.load_state`
does both. Every refusal is an :class:`~models.errors.InvalidStateError`
whose ``field`` names the place, e.g. ``players[1].cash``.

The ``rules`` object is parsed by :func:`parse_rules` on its own as well: the
command line's ``--rules FILE`` (:mod:`models.rules_file`) and the trial
checkpoints (:mod:`solver.novelty.checkpoint`) hold one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from models.board import BUILTIN_BOARDS, HOTEL, Board, load_board
from models.checks import (
    expect_bool,
    expect_int,
    expect_list,
    expect_number,
    expect_object,
    expect_str,
    key_path,
    type_name,
)
from models.errors import InvalidStateError
from models.io.format import (
    DEFAULT_BOARD,
    FORMAT,
    FORMAT_V1,
    FORMAT_V3,
    FORMATS,
    MAX_DOUBLES,
    MAX_JAIL_TURNS,
    MAX_PLAYERS,
    MIN_PLAYERS,
)
from models.io.pending import parse_pending
from models.limits import (
    MAX_AMOUNT,
    MAX_CASH,
    MAX_DICE,
    MAX_ROUND,
    MAX_SIDES,
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
    InvalidRulesError,
    Rules,
)
from models.state import PHASES, GameState, Phase, PlayerState

_TOP_KEYS = ("format", "board", "rules", "players", "properties", "to_move", "round", "phase", "doubles_rolled", "pot", "bank_cash", "pending")
_V2_TOP_KEYS = ("pot", "bank_cash")
_PLAYER_KEYS = ("name", "cash", "position", "in_jail", "jail_turns", "jail_cards", "bankrupt")
_PROPERTY_KEYS = ("owner", "houses", "mortgaged")
_RULE_KEYS_V1 = ("go_salary", "jail_fine", "houses", "hotels", "mortgage_interest", "dice", "set_size")
RULE_KEYS = ("preset", *_RULE_KEYS_V1, *VARIANT_FIELDS)
"""Keys of the state format's ``rules`` object (docs/state-format.md#rules)."""
_RULE_INTS = {  # field -> (lowest, highest, whether the field may be null)
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


def parse_state(doc: Any) -> GameState:
    """Build a :class:`~models.state.GameState` from a document, checking types, ranges and names (not rules).

    Parameters
    ----------
    doc:
        The parsed document.

    Returns
    -------
    GameState
        A new state; it may still break a rule of the game
        (:func:`models.io.validate.validate_state` says which).

    Raises
    ------
    InvalidStateError
        An unknown format or key, a wrong type, a value out of range, a name
        that names nothing, a duplicate player name, a format-2 field in a
        format-1 document, a ``pending`` question outside format 3; ``err.field`` names the place.

    Examples
    --------
    >>> from models.io.json_text import read_document
    >>> from models.io.parse import parse_state
    >>> state = parse_state(read_document("instances/midgame-no-monopolies.json"))
    >>> state.players[state.to_move].name, state.round
    ('Cy', 9)
    """
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
    if "pending" in obj and fmt != FORMAT_V3:
        raise InvalidStateError("pending", f"needs format {FORMAT_V3!r} (the file says {fmt!r})")
    players = _parse_players(obj["players"], board)
    names = {p.name: i for i, p in enumerate(players)}
    state = GameState(board, rules, players)
    _parse_properties(obj.get("properties", {}), state, names)
    state.to_move = _parse_to_move(obj, players, names)
    state.round = expect_int(obj.get("round", 0), "round", 0, MAX_ROUND)
    state.phase = Phase(expect_str(obj.get("phase", "start"), "phase", PHASES))
    state.doubles_rolled = expect_int(obj.get("doubles_rolled", 0), "doubles_rolled", 0, MAX_DOUBLES)
    state.pot = expect_int(obj.get("pot", rules.free_parking_seed), "pot", 0, MAX_CASH)
    if "bank_cash" in obj:
        state.bank_cash = expect_int(obj["bank_cash"], "bank_cash", 0, MAX_CASH)
    else:
        state.bank_cash = rules.bank_cash
    if obj.get("pending") is not None:
        state.pending = parse_pending(obj["pending"], state)
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
        required; a trial checkpoint: every field of :class:`~models.rules.Rules`).

    Returns
    -------
    Rules
        The preset (``standard-us`` without one) with the overrides applied.

    Raises
    ------
    InvalidStateError
        A key, type or range is wrong, the preset is unknown, or two rules contradict each other.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.io.parse import parse_rules
    >>> rules = parse_rules({"preset": "short-game", "go_salary": 400}, standard_board())
    >>> rules.round_limit, rules.go_salary
    (60, 400)
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
    except InvalidRulesError as e:  # a field out of range or two rules that contradict each other
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
    """:func:`~models.checks.expect_number`, also refusing integers too large for a float (comparing them raises OverflowError)."""
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


__all__ = ["RULE_KEYS", "parse_rules", "parse_state"]
