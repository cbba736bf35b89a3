"""Reading a line of the one-line notation (MPN) into a state document, with the column of each place in it.

:func:`read_line` turns a line into the state document it stands for (the
JSON format's, so that :func:`models.io.parse.parse_state` and
:func:`models.io.validate.validate_state` check it with their own messages)
and a map from each place of the document (``players[1].cash``,
``properties["Baltic Avenue"]``, ``rules.go_salary``) to the column it was
read from. :func:`columns_of` turns the loader's refusal of that document into
a :class:`~models.io.line_syntax.NotationError` at the column of the place it
names, so that a rule broken points at the character too.

Reading is in two passes: the items are read in any order (players in seat
order among themselves), then the board (``board=``, default
``standard-us``) says what the group keys and the owners' seat letters name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from models.board import HOTEL, Board, load_board
from models.checks import key_path, type_name
from models.errors import InvalidStateError
from models.io.format import DEFAULT_BOARD, FORMATS
from models.io.json_text import parse_json_bytes
from models.io.line_codes import FIELD_KEYS, SEATS, group_key, group_named, groups_in_order
from models.io.line_syntax import MAX_LINE_CHARS, Cursor, NotationError, check_tag, shown
from models.limits import MAX_JSON_DEPTH

_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]]', re.DOTALL)
_LAST_STEP = re.compile(r'(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\]|\["(?:[^"\\]|\\.)*"(?:\.\.\.)?\])$')
_DIGITS = "0123456789"
_FLAGS = "(j: in jail, c: Get Out of Jail Free cards, x: bankrupt)"


@dataclass
class _Field:
    """A ``KEY=VALUE`` item as read: its value, and the columns of its parts."""

    key: str
    quoted: bool
    column: int
    value_column: int
    value: Any
    spots: dict[str, int] = field(default_factory=dict)


@dataclass
class _Lot:
    """One lot of a group's value: its owner's seat letter (``None``: the bank's), level and mortgage."""

    column: int
    seat: str | None
    level: int = 0
    mortgaged: bool = False


@dataclass
class _Line:
    """What a line holds: its players (documents and the columns of their parts) and its fields."""

    players: list[tuple[dict[str, Any], dict[str, int]]] = field(default_factory=list)
    fields: list[_Field] = field(default_factory=list)
    end: int = 1


def read_line(text: str) -> tuple[dict[str, Any], dict[str, int]]:
    """The state document a line stands for, and the column (1-based) each place of it was read from.

    Parameters
    ----------
    text:
        The line (docs/state-format.md#one-line-positions); blanks and a line
        break at its end are ignored.

    Returns
    -------
    tuple[dict[str, Any], dict[str, int]]
        The document (in the newest format the loader reads; not yet checked
        by the loader), and the map from a document path (as
        :func:`models.checks.key_path` writes it) to a column.

    Raises
    ------
    NotationError
        The line cannot be read: the column and what was expected there.

    Examples
    --------
    >>> from models.io.line_read import read_line
    >>> doc, spots = read_line("MPN1 Ann:500@3 Bob:420j1 br=AA2 to=Bob")
    >>> doc["players"][1], doc["properties"]["Baltic Avenue"], doc["to_move"]
    ({'name': 'Bob', 'cash': 420, 'in_jail': True, 'jail_turns': 1, 'position': 10}, {'owner': 'Ann', 'houses': 2}, 'Bob')
    >>> spots["players[1].cash"], spots['properties["Baltic Avenue"]']
    (20, 30)
    """
    if not isinstance(text, str):
        raise InvalidStateError("notation", f"expected a line of text, got {type_name(text)}")
    if len(text) > MAX_LINE_CHARS:
        raise NotationError(MAX_LINE_CHARS + 1, f"expected at most {MAX_LINE_CHARS} characters, the limit of a line, got {len(text)}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise NotationError(err.start + 1, "expected Unicode text, got a lone surrogate (bytes that were not UTF-8)") from None
    cursor = Cursor(text.rstrip(" \t\r\n"))
    check_tag(cursor)
    line = _Line()
    while cursor.skip_space() and cursor.pos < len(cursor.text):
        _item(cursor, line)
    if cursor.pos < len(cursor.text):
        cursor.fail("a space between items")
    line.end = len(cursor.text) + 1
    return _document(line)


def _item(cursor: Cursor, line: _Line) -> None:
    """One item: a player ``NAME:CASH...`` or a field ``KEY=VALUE``."""
    start = cursor.pos
    quoted = cursor.peek() == '"'
    key = cursor.name("a player NAME:CASH or a field KEY=VALUE")
    if cursor.take(":"):
        line.players.append(_player(cursor, key, start, len(line.players)))
    elif cursor.take("="):
        line.fields.append(_field(cursor, key, quoted, start))
    else:
        cursor.fail(f"':' after a player's name or '=' after a field's key {shown(key)}")
    if not cursor.at_break():
        cursor.fail("a space before the next item")


def _player(cursor: Cursor, name: str, start: int, index: int) -> tuple[dict[str, Any], dict[str, int]]:
    """A player after ``NAME:``: cash, ``@SQUARE``, then the flags ``j[TURNS]``, ``c[CARDS]``, ``x``."""
    where = key_path("players", index)
    spots = {where: start + 1, key_path(where, "name"): start + 1, key_path(where, "cash"): cursor.pos + 1}
    doc: dict[str, Any] = {"name": name, "cash": cursor.integer(f"a cash amount after {shown(name + ':')}")}
    if cursor.take("@"):
        spots[key_path(where, "position")] = cursor.pos + 1
        doc["position"] = cursor.integer("a square number after '@'")
    while not cursor.at_break():
        flag = cursor.peek()
        column = cursor.pos + 1
        if flag not in ("j", "c", "x"):
            square = "" if "position" in doc else "'@' and a square, "
            cursor.fail(f"{square}a flag {_FLAGS} or a space")
        if any(spots.get(key_path(where, k)) for k in _FLAG_FIELDS[flag]):
            raise NotationError(column, f"flag {flag!r} given twice")
        cursor.pos += 1
        for k in _FLAG_FIELDS[flag]:
            spots[key_path(where, k)] = column
        if flag == "x":
            doc["bankrupt"] = True
            continue
        count = cursor.integer("a number") if cursor.peek() and cursor.peek() in _DIGITS else None
        if flag == "j":
            doc.update(in_jail=True, jail_turns=count or 0)
        else:
            doc["jail_cards"] = 1 if count is None else count
    return doc, spots


_FLAG_FIELDS = {"j": ("in_jail", "jail_turns"), "c": ("jail_cards",), "x": ("bankrupt",)}


def _field(cursor: Cursor, key: str, quoted: bool, start: int) -> _Field:
    """A field after ``KEY=``: its value, read by what the key is."""
    item = _Field(key, quoted, start + 1, cursor.pos + 1, None)
    name = None if quoted else FIELD_KEYS.get(key)
    if name == "to_move":
        item.value = cursor.name("the name of the player to move")
    elif name in ("round", "doubles_rolled", "pot", "bank_cash"):
        item.value = cursor.integer(f"a number after '{key}='")
    elif name == "phase":
        item.value = cursor.word() or cursor.fail("a phase (start or rolled)")
    elif name == "rules":
        item.value = _rules(cursor, item)
    elif name == "board":
        item.value = _json_object(cursor, "the board") if cursor.peek() == "{" else cursor.name("a board's name or its JSON object")
    elif name == "pending":
        item.value = _json_object(cursor, "the pending question") if cursor.peek() == "{" else cursor.fail("the pending question as a JSON object")
    else:
        item.value = _lots(cursor)
    return item


def _lots(cursor: Cursor) -> list[_Lot]:
    """A group's value: per lot ``-`` (the bank's) or a seat letter, then ``1``-``4`` houses, ``h`` a hotel or ``m`` mortgaged."""
    lots = []
    while not cursor.at_break():
        lot = _Lot(cursor.pos + 1, None)
        letter = cursor.peek()
        if letter != "-" and not "A" <= letter <= "Z":
            cursor.fail("a lot: '-' (the bank's) or its owner's seat letter (A: the first player)")
        cursor.pos += 1
        if letter != "-":
            lot.seat = letter
            mark = cursor.peek()
            if mark and mark in "012345hm":
                lot.level = HOTEL if mark == "h" else int(mark) if mark != "m" else 0
                lot.mortgaged = mark == "m"
                cursor.pos += 1
        lots.append(lot)
    if not lots:
        cursor.fail("the group's lots: '-' or an owner's seat letter per lot")
    return lots


def _rules(cursor: Cursor, item: _Field) -> list[tuple[str, Any, int]]:
    """``rules=``: a preset's name first, or ``preset:NAME``, and ``KEY:VALUE`` overrides, separated by commas."""
    items: list[tuple[str, Any, int]] = []
    while True:
        column = cursor.pos + 1
        key = cursor.word()
        if not key:
            cursor.fail("a rule KEY:VALUE or a preset's name")
        if cursor.take(":"):
            items.append((key, _rule_value(cursor, key, item), column))
        elif items or (cursor.peek() != "," and not cursor.at_break()):
            cursor.fail("a rule KEY:VALUE (a preset's name comes first, alone)", column - 1)
        else:
            items.append(("preset", key, column))
        if not cursor.take(","):
            return items


def _rule_value(cursor: Cursor, key: str, item: _Field) -> Any:
    """The value of a rule: dice ``2d6`` or ``2d6(w1,...)``, set sizes ``(GROUP:N,...)``, or a number, a word, true/false/none."""
    if key == "dice":
        dice: dict[str, Any] = {"count": cursor.integer("a number of dice, as in 2d6")}
        cursor.expect("d", "'d' between the number of dice and their sides, as in 2d6")
        dice["sides"] = cursor.integer("a number of sides after 'd', as in 2d6")
        if cursor.take("("):
            dice["weights"] = [cursor.number("a weight (one per side)")]
            while cursor.take(","):
                dice["weights"].append(cursor.number("a weight (one per side)"))
            cursor.expect(")", "',' and another weight, or ')'")
        return dice
    if key == "set_size":
        cursor.expect("(", "'(' and the set sizes, as in set_size:(or:2,db:1)")
        sizes: list[tuple[str, bool, int, int]] = []
        while not cursor.take(")"):
            if sizes:
                cursor.expect(",", "',' and another group, or ')'")
            column, quoted = cursor.pos + 1, cursor.peek() == '"'
            group = cursor.name("a group's code or name")
            cursor.expect(":", f"':' and a number after the group {shown(group)}")
            sizes.append((group, quoted, cursor.integer("a number of lots"), column))
        return sizes
    if cursor.peek() == '"':
        return cursor.quoted()
    if cursor.starts_number():
        return cursor.number("a number")
    word = cursor.word()
    if not word:
        cursor.fail(f"a value after '{key}:'")
    return {"true": True, "false": False, "none": None, "null": None}.get(word, word)


def _json_object(cursor: Cursor, what: str) -> dict[str, Any]:
    """A JSON object in the line, read with a file's guards: ``board={...}`` (an inline board,
    docs/state-format.md#inline-board) or ``pending={...}`` (the document's ``pending`` object)."""
    start = cursor.pos
    depth = 0
    for m in _JSON_TOKEN.finditer(cursor.text, start):
        token = m.group(0)
        if token in "{[":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise NotationError(m.start() + 1, f"expected {what}'s JSON nested at most {MAX_JSON_DEPTH} levels deep")
        elif token in "}]":
            depth -= 1
            if depth == 0:
                cursor.pos = m.end()
                break
    else:
        cursor.pos = len(cursor.text)  # not closed: the JSON parser says where it stops
    text = cursor.text[start : cursor.pos]
    try:
        json.loads(text)
    except json.JSONDecodeError as err:
        raise NotationError(start + err.pos + 1, f"expected {what} as a JSON object ({err.msg})") from None
    except ValueError as err:  # an integer of more than 4,300 digits
        raise NotationError(start + 1, f"expected {what} as a JSON object ({str(err).splitlines()[0][:80]})") from None
    try:
        doc = parse_json_bytes(text.encode("utf-8"), what)
    except InvalidStateError as err:  # a duplicate key, NaN
        raise NotationError(start + 1, err.message) from None
    if not isinstance(doc, dict) or depth:  # pragma: no cover - the text starts with "{" and parsed
        cursor.fail(f"{what} as a JSON object closed by '}}'", start)
    return doc


def _document(line: _Line) -> tuple[dict[str, Any], dict[str, int]]:
    """The state document of what a line holds, and the columns of its places."""
    doc: dict[str, Any] = {"format": FORMATS[-1]}  # the newest format: it reads every field
    spots: dict[str, int] = {"players": line.players[0][1]["players[0]"] if line.players else line.end}
    fields: dict[str, _Field] = {}
    for item in line.fields:
        name = None if item.quoted else FIELD_KEYS.get(item.key)
        if name is not None:
            if name in fields:
                raise NotationError(item.column, f"the field {item.key!r} given twice")
            fields[name] = item
            spots[name] = item.value_column
    board = _board_of(fields.get("board"), doc)
    for i, (player, player_spots) in enumerate(line.players):
        if player.get("in_jail") and "position" not in player:
            player["position"] = board.jail
        spots.update(player_spots)
        spots.setdefault(key_path(key_path("players", i), "position"), player_spots[key_path("players", i)])
    doc["players"] = [player for player, _ in line.players]
    doc["properties"] = _properties(line, board, spots)
    for name, item in fields.items():
        if name == "rules":
            doc["rules"] = _rules_doc(item, board, spots)
        elif name != "board":
            doc[name] = item.value
    return doc, spots


def _board_of(item: _Field | None, doc: dict[str, Any]) -> Board:
    """The board a line names (``board=``; default ``standard-us``), put into ``doc``."""
    if item is None:
        return load_board(DEFAULT_BOARD)
    doc["board"] = item.value
    try:
        return load_board(item.value)
    except InvalidStateError as err:
        raise NotationError(item.value_column, str(err)) from None


def _properties(line: _Line, board: Board, spots: dict[str, int]) -> dict[str, Any]:
    """The ``properties`` object of a line's group fields."""
    out: dict[str, Any] = {}
    seen: set[str] = set()
    names = [player["name"] for player, _ in line.players]
    for item in line.fields:
        if not item.quoted and item.key in FIELD_KEYS:
            continue
        group = group_named(item.key, item.quoted, board)
        if group is None:
            keys = ", ".join([*FIELD_KEYS, *(group_key(g, board) for g in groups_in_order(board))])
            raise NotationError(item.column, f"expected a field or a group of the board ({keys}), got {shown(item.key)}")
        if group in seen:
            raise NotationError(item.column, f"the {group} group given twice")
        seen.add(group)
        spots.setdefault("properties", item.column)
        squares = board.groups[group]
        if len(item.value) != len(squares):
            lots = ", ".join(board.squares[sq].name for sq in squares)
            raise NotationError(item.value_column, f"expected {len(squares)} lots for {item.key} ({lots}), got {len(item.value)}")
        for sq, lot in zip(squares, item.value, strict=True):
            if lot.seat is None:
                continue
            seat = SEATS.find(lot.seat)
            if not 0 <= seat < len(names):
                raise NotationError(lot.column, f"expected a seat letter A-{SEATS[max(len(names), 1) - 1]} (one per player), got {lot.seat!r}")
            entry: dict[str, Any] = {"owner": names[seat]}
            if lot.level:
                entry["houses"] = lot.level
            if lot.mortgaged:
                entry["mortgaged"] = True
            out[board.squares[sq].name] = entry
            spots[key_path("properties", board.squares[sq].name)] = lot.column
    return out


def _rules_doc(item: _Field, board: Board, spots: dict[str, int]) -> dict[str, Any]:
    """The ``rules`` object of a line's ``rules=`` field (set sizes' groups resolved on the board)."""
    out: dict[str, Any] = {}
    for key, value, column in item.value:
        if key in out:
            raise NotationError(column, f"the rule {key!r} given twice")
        where = key_path("rules", key)
        spots[where] = column
        if key == "set_size":
            sizes: dict[str, int] = {}
            for group, quoted, count, group_column in value:
                name = group_named(group, quoted, board) or group
                sizes[name] = count
                spots[key_path(where, name)] = group_column
            value = sizes
        out[key] = value
    return out


def locate(field_: str, spots: dict[str, int]) -> int:
    """The column of a document place, or of the nearest place above it that has one (column 1: the tag).

    Parameters
    ----------
    field_:
        A path as an :class:`~models.errors.InvalidStateError` names it.
    spots:
        The columns :func:`read_line` found.

    Returns
    -------
    int
        The column.

    Examples
    --------
    >>> from models.io.line_read import locate
    >>> locate("players[1].jail_cards", {"players[1]": 12}), locate("round", {})
    (12, 1)
    """
    while field_ not in spots:
        m = _LAST_STEP.search(field_)
        if m is None or not field_:
            return 1
        field_ = field_[: m.start()]
    return spots[field_]


@contextmanager
def columns_of(spots: dict[str, int]) -> Iterator[None]:
    """Turn the loader's refusal inside the block into a :class:`NotationError` at the column of the place it names.

    Parameters
    ----------
    spots:
        The columns :func:`read_line` found.

    Yields
    ------
    None
        The block runs.

    Raises
    ------
    NotationError
        The block raised an :class:`~models.errors.InvalidStateError`: its text, at its column.

    Examples
    --------
    >>> from models.io.line_read import columns_of, read_line
    >>> from models.io import load_state
    >>> doc, spots = read_line("MPN1 Ann:5 Bob:-1")
    >>> with columns_of(spots):
    ...     load_state(doc)
    Traceback (most recent call last):
    ...
    models.io.line_syntax.NotationError: notation: column 16: players[1].cash: -1 is below the minimum 0
    """
    try:
        yield
    except NotationError:
        raise
    except InvalidStateError as err:
        raise NotationError(locate(err.field, spots), str(err)) from None


__all__ = ["columns_of", "locate", "read_line"]
