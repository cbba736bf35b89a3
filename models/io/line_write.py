"""Writing a state document as a line of the one-line notation (MPN), leaving out every field at its default.

:func:`write_line` writes the document :func:`models.io.write.state_to_dict`
gives: the tag, the players in seat order, each group's lots in board order
(:func:`~models.io.line_codes.groups_in_order`; a group all the bank's is
left out), the turn, the rules, a pending question (the document's ``pending``
object as JSON, ``pending={...}``) and the board. What a reader would fill in the same
way is left out: ``@SQUARE`` at the default square (the jail square for a
player in jail, else Go), ``to=`` when the first active player moves,
``round=0``, ``phase=start``, ``doubles=0``, ``pot=`` at the rules' seed,
``bank=`` at the rules' bank cash, the rules when standard and the board when
``standard-us``. The rules are written as the preset they are closest to and
the fields that differ from it (:func:`_rule_items`), the JSON's field names
and values. :mod:`models.io.line_read` reads every line written here
back to the same document.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from models.board import HOTEL, Board
from models.errors import InvalidStateError
from models.io.format import DEFAULT_BOARD
from models.io.line_codes import SEATS, group_key, groups_in_order
from models.io.line_syntax import TAG, escape_unprintable, word_or_quoted
from models.io.parse import RULE_KEYS
from models.rules import PRESETS, DiceSpec, Rules


def write_line(doc: Mapping[str, Any], board: Board, rules: Rules) -> str:
    """The line of a state document (module docstring: what is left out).

    Parameters
    ----------
    doc:
        A document as :func:`models.io.write.state_to_dict` writes it, of a valid state.
    board:
        Its board.
    rules:
        Its rules (written as ``rules=``; their pot seed and bank cash are the defaults of
        ``pot=`` and ``bank=``).

    Returns
    -------
    str
        The line, without a line break.

    Examples
    --------
    >>> from models.io import load_state, state_to_dict
    >>> from models.io.line_write import write_line
    >>> state = load_state("instances/two-player.json")
    >>> write_line(state_to_dict(state), state.board, state.rules)
    'MPN1 Ann:560@24c1 Bob:340j1 br=AA or=A3A3A3 rd=B2B2B2 db=B- rr=BBB- ut=AA round=17 phase=rolled doubles=1'
    """
    players = doc["players"]
    seats = {p["name"]: SEATS[i] for i, p in enumerate(players)}
    parts = [TAG, *(_player(p, board.jail) for p in players)]
    props = doc.get("properties", {})
    for group in groups_in_order(board):
        lots = [_lot(props.get(board.squares[sq].name), seats) for sq in board.groups[group]]
        if any(lot != "-" for lot in lots):
            parts.append(f"{group_key(group, board)}={''.join(lots)}")
    first = next((p["name"] for p in players if not p.get("bankrupt")), None)
    if doc.get("to_move", first) != first:
        parts.append(f"to={word_or_quoted(doc['to_move'])}")
    for key, name, default in (
        ("round", "round", 0),
        ("phase", "phase", "start"),
        ("doubles", "doubles_rolled", 0),
        ("pot", "pot", rules.free_parking_seed),
        ("bank", "bank_cash", rules.bank_cash),
    ):
        if doc.get(name, default) != default:
            parts.append(f"{key}={doc[name]}")
    items = _rule_items(rules)
    if items:
        parts.append("rules=" + ",".join(_rule(key, value, board) for key, value in items))
    if doc.get("pending") is not None:
        parts.append("pending=" + _json(doc["pending"]))
    unknown = sorted(set(doc) - _WRITTEN)
    if unknown:  # a field of a newer format than the notation knows: refused rather than dropped
        raise InvalidStateError(unknown[0], "the one-line notation has no field for it; keep the state as JSON")
    given = doc.get("board", DEFAULT_BOARD)
    if isinstance(given, str):
        if given != DEFAULT_BOARD:
            parts.append(f"board={word_or_quoted(given)}")
    else:
        parts.append("board=" + _json(given))
    return " ".join(parts)


_WRITTEN = frozenset({"format", "board", "rules", "players", "properties", "to_move", "round", "phase", "doubles_rolled", "pot", "bank_cash", "pending"})
"""The document's fields a line writes."""


def _json(value: Any) -> str:
    """A JSON object in a line: compact, non-printable characters escaped."""
    return escape_unprintable(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def _player(p: Mapping[str, Any], jail: int) -> str:
    """``NAME:CASH[@SQUARE][jTURNS][cCARDS][x]``."""
    out = f"{word_or_quoted(p['name'])}:{p['cash']}"
    if p.get("position", 0) != (jail if p.get("in_jail") else 0):
        out += f"@{p.get('position', 0)}"
    if p.get("in_jail"):
        out += f"j{p.get('jail_turns', 0)}"
    if p.get("jail_cards"):
        out += f"c{p['jail_cards']}"
    if p.get("bankrupt"):
        out += "x"
    return out


def _lot(entry: Mapping[str, Any] | None, seats: Mapping[str, str]) -> str:
    """One lot: ``-``, or the owner's seat letter and ``1``-``4``, ``h`` or ``m``."""
    if entry is None:
        return "-"
    level = entry.get("houses", 0)
    mark = "h" if level == HOTEL else str(level) if level else ""
    return seats[entry["owner"]] + mark + ("m" if entry.get("mortgaged") else "")


def _rule_items(rules: Rules) -> list[tuple[str, Any]]:
    """The rules as the fewest items: a preset (none for the standard rules) and the fields that differ from it.

    The JSON document names a preset only when the rules are exactly one; a line also names the
    preset the rules are closest to (``rules=no-doubles,cash_target:5000``), when that is shorter
    than the overrides of the standard rules. Either reads back to the same rules.
    """
    best: list[tuple[str, Any]] | None = None
    for name, base in PRESETS.items():
        diff = [(key, _plain(getattr(rules, key))) for key in RULE_KEYS[1:] if getattr(rules, key) != getattr(base, key)]
        items = diff if name == "standard-us" else [("preset", name), *diff]
        if best is None or len(items) < len(best):
            best = items
    return best or []


def _plain(value: Any) -> Any:
    """A field of :class:`~models.rules.Rules` as the state format writes it (dice and set sizes as objects)."""
    if isinstance(value, DiceSpec):
        return value.to_dict()
    if isinstance(value, Mapping):
        return dict(value)
    return value


def _rule(key: str, value: Any, board: Board) -> str:
    """One item of ``rules=``: a preset's name, or ``KEY:VALUE``."""
    if key == "preset":
        return str(value)
    if key == "dice":
        weights = value.get("weights")
        tail = "(" + ",".join(_scalar(w) for w in weights) + ")" if weights is not None else ""
        return f"dice:{value['count']}d{value['sides']}{tail}"
    if key == "set_size":
        return "set_size:(" + ",".join(f"{group_key(g, board)}:{n}" for g, n in value.items()) + ")"
    return f"{key}:{_scalar(value)}"


def _scalar(value: Any) -> str:
    """A rule's value: ``true``/``false``, ``none``, a number (a real one as ``repr`` writes it, which reads back exactly), a word."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidStateError("rules", f"{value!r} is not a finite number")
        return repr(value)
    if isinstance(value, int):
        return str(value)
    return word_or_quoted(str(value))


__all__ = ["write_line"]
