"""Strict type checks for parsing JSON documents, with errors naming the field.

JSON ``true`` is not an integer here (``bool`` is a subclass of ``int`` in
Python, so it is excluded explicitly), and unknown keys are refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from models.errors import InvalidStateError
from models.limits import MAX_INT


def key_path(parent: str, key: str | int) -> str:
    """Join a field path: ``players`` + 1 -> ``players[1]``; ``rules`` + ``dice`` -> ``rules.dice``.

    Other keys (property and player names) are quoted as JSON strings, so a key
    holding a line break or a control character stays on one line, escaped."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if key.isidentifier() and key.islower():  # field names; property and player names get brackets
        return f"{parent}.{key}" if parent else key
    shown = key if len(key) <= 80 else key[:80] + "..."
    return f"{parent}[{json.dumps(shown, ensure_ascii=not shown.isprintable())}]"


def expect_object(value: Any, field: str, allowed: Iterable[str], required: Iterable[str] = ()) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidStateError(field, f"expected an object, got {type_name(value)}")
    allowed_set = set(allowed)
    for key in value:
        if not isinstance(key, str) or key not in allowed_set:
            raise InvalidStateError(key_path(field, str(key)), "unknown key")
    for key in required:
        if key not in value:
            raise InvalidStateError(key_path(field, key), "required field is missing")
    return value


def expect_int(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer in ``lo..hi``; without ``hi``, at most :data:`models.limits.MAX_INT` in magnitude."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidStateError(field, f"expected an integer, got {type_name(value)}")
    if abs(value) > MAX_INT:  # str() of a huge integer can itself fail: say how big, not what
        raise InvalidStateError(field, f"an integer of magnitude beyond the limit {MAX_INT}")
    if lo is not None and value < lo:
        raise InvalidStateError(field, f"{value} is below the minimum {lo}")
    if hi is not None and value > hi:
        raise InvalidStateError(field, f"{value} is above the maximum {hi}")
    return value


def expect_number(value: Any, field: str, lo: float | None = None, hi: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidStateError(field, f"expected a number, got {type_name(value)}")
    try:
        as_float = float(value)
    except OverflowError:
        raise InvalidStateError(field, "number out of range") from None
    if as_float != as_float or as_float in (float("inf"), float("-inf")):
        raise InvalidStateError(field, "expected a finite number")
    if lo is not None and value < lo:
        raise InvalidStateError(field, f"{value} is below the minimum {lo}")
    if hi is not None and value > hi:
        raise InvalidStateError(field, f"{value} is above the maximum {hi}")
    return float(value)


def expect_bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidStateError(field, f"expected true or false, got {type_name(value)}")
    return value


def expect_str(value: Any, field: str, choices: Iterable[str] | None = None) -> str:
    if not isinstance(value, str):
        raise InvalidStateError(field, f"expected a string, got {type_name(value)}")
    if choices is not None:
        options = list(choices)
        if value not in options:
            raise InvalidStateError(field, f"{value!r} is not one of {', '.join(options)}")
    return value


def expect_list(value: Any, field: str, min_len: int = 0, max_len: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidStateError(field, f"expected a list, got {type_name(value)}")
    if len(value) < min_len:
        raise InvalidStateError(field, f"expected at least {min_len} items, got {len(value)}")
    if max_len is not None and len(value) > max_len:
        raise InvalidStateError(field, f"expected at most {max_len} items, got {len(value)}")
    return value


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__
