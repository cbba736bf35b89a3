"""Strict type checks for parsing JSON documents, with errors naming the field.

Every parser of the project's documents (the state format in :mod:`models.io`,
inline boards in :mod:`models.board`, trial checkpoints in
:mod:`solver.novelty.checkpoint`) reads values through these functions, so
that a wrong value is refused with one :class:`~models.errors.InvalidStateError`
whose ``field`` is the value's path in the document (:func:`key_path`).

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
    holding a line break or a control character stays on one line, escaped;
    a key longer than 80 characters is cut there and ends in ``...``.

    Parameters
    ----------
    parent:
        The path so far (``""`` at the document's top).
    key:
        A list index, a field name (a lower-case identifier: joined with a
        dot) or any other key (joined in brackets, quoted).

    Returns
    -------
    str
        The joined path.

    Examples
    --------
    >>> from models.checks import key_path
    >>> key_path("players", 1), key_path("rules", "dice"), key_path("", "round")
    ('players[1]', 'rules.dice', 'round')
    >>> key_path(key_path("properties", "Baltic Avenue"), "houses")
    'properties["Baltic Avenue"].houses'
    """
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if key.isidentifier() and key.islower():  # field names; property and player names get brackets
        return f"{parent}.{key}" if parent else key
    shown = key if len(key) <= 80 else key[:80] + "..."
    return f"{parent}[{json.dumps(shown, ensure_ascii=not shown.isprintable())}]"


def expect_object(value: Any, field: str, allowed: Iterable[str], required: Iterable[str] = ()) -> Mapping[str, Any]:
    """A JSON object whose keys are all among ``allowed`` and include every key of ``required``.

    Parameters
    ----------
    value:
        The parsed value.
    field:
        Its path in the document, for messages.
    allowed:
        The keys it may hold.
    required:
        The keys it must hold.

    Returns
    -------
    Mapping[str, Any]
        ``value`` itself.

    Raises
    ------
    InvalidStateError
        ``value`` is not a mapping (``field``), holds a key not allowed (``field.key``:
        ``unknown key``) or lacks a required one (``field.key``: ``required field is missing``).

    Examples
    --------
    >>> from models.checks import expect_object
    >>> dict(expect_object({"count": 2}, "rules.dice", ("count", "sides")))
    {'count': 2}
    >>> expect_object({"cnt": 2}, "rules.dice", ("count", "sides"))
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: rules.dice.cnt: unknown key
    """
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
    """An integer in ``lo..hi``; without ``hi``, at most :data:`models.limits.MAX_INT` in magnitude.

    Parameters
    ----------
    value:
        The parsed value (``true`` and ``false`` are not integers).
    field:
        Its path in the document, for messages.
    lo, hi:
        The lowest and highest value allowed (``None``: no bound but
        :data:`~models.limits.MAX_INT`).

    Returns
    -------
    int
        ``value`` itself.

    Raises
    ------
    InvalidStateError
        ``value`` is not an integer, or it is out of range.

    Examples
    --------
    >>> from models.checks import expect_int
    >>> expect_int(640, "players[0].cash", 0)
    640
    >>> expect_int(True, "players[0].cash", 0)
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: players[0].cash: expected an integer, got a boolean
    """
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
    """A finite number (an integer or a float, not a boolean) in ``lo..hi``, as a float.

    Parameters
    ----------
    value:
        The parsed value.
    field:
        Its path in the document, for messages.
    lo, hi:
        The lowest and highest value allowed (``None``: no bound).

    Returns
    -------
    float
        ``float(value)``.

    Raises
    ------
    InvalidStateError
        ``value`` is not a number, is not finite, does not fit a float, or is out of range.

    Examples
    --------
    >>> from models.checks import expect_number
    >>> expect_number(1, "rules.mortgage_interest", 0, 1)
    1.0
    >>> expect_number(1.5, "rules.mortgage_interest", 0, 1)
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: rules.mortgage_interest: 1.5 is above the maximum 1
    """
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
    """JSON ``true`` or ``false``.

    Parameters
    ----------
    value:
        The parsed value (``0`` and ``1`` are not booleans).
    field:
        Its path in the document, for messages.

    Returns
    -------
    bool
        ``value`` itself.

    Raises
    ------
    InvalidStateError
        ``value`` is not a boolean.

    Examples
    --------
    >>> from models.checks import expect_bool
    >>> expect_bool(False, "players[1].in_jail")
    False
    >>> expect_bool(0, "players[1].in_jail")
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: players[1].in_jail: expected true or false, got an integer
    """
    if not isinstance(value, bool):
        raise InvalidStateError(field, f"expected true or false, got {type_name(value)}")
    return value


def expect_str(value: Any, field: str, choices: Iterable[str] | None = None) -> str:
    """A string, one of ``choices`` when they are given.

    Parameters
    ----------
    value:
        The parsed value.
    field:
        Its path in the document, for messages.
    choices:
        The strings allowed (``None``: any).

    Returns
    -------
    str
        ``value`` itself.

    Raises
    ------
    InvalidStateError
        ``value`` is not a string, or not one of ``choices``.

    Examples
    --------
    >>> from models.checks import expect_str
    >>> expect_str("start", "phase", ("start", "rolled"))
    'start'
    >>> expect_str("moving", "phase", ("start", "rolled"))
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: phase: 'moving' is not one of start, rolled
    """
    if not isinstance(value, str):
        raise InvalidStateError(field, f"expected a string, got {type_name(value)}")
    if choices is not None:
        options = list(choices)
        if value not in options:
            raise InvalidStateError(field, f"{value!r} is not one of {', '.join(options)}")
    return value


def expect_list(value: Any, field: str, min_len: int = 0, max_len: int | None = None) -> list[Any]:
    """A JSON list of ``min_len`` to ``max_len`` items.

    Parameters
    ----------
    value:
        The parsed value.
    field:
        Its path in the document, for messages.
    min_len, max_len:
        The fewest and most items allowed (``max_len`` ``None``: no bound).

    Returns
    -------
    list[Any]
        ``value`` itself.

    Raises
    ------
    InvalidStateError
        ``value`` is not a list, or has too few or too many items.

    Examples
    --------
    >>> from models.checks import expect_list
    >>> expect_list([{"name": "Ann"}], "players", 2, 8)
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: players: expected at least 2 items, got 1
    """
    if not isinstance(value, list):
        raise InvalidStateError(field, f"expected a list, got {type_name(value)}")
    if len(value) < min_len:
        raise InvalidStateError(field, f"expected at least {min_len} items, got {len(value)}")
    if max_len is not None and len(value) > max_len:
        raise InvalidStateError(field, f"expected at most {max_len} items, got {len(value)}")
    return value


def type_name(value: Any) -> str:
    """The JSON kind of a parsed value, in words, for messages (``null``, ``a boolean``, ``an object`` ...).

    Parameters
    ----------
    value:
        Any value; one that JSON does not produce is named by its Python type.

    Returns
    -------
    str
        The name.

    Examples
    --------
    >>> from models.checks import type_name
    >>> [type_name(v) for v in (None, True, 3, 0.5, "x", [], {})]
    ['null', 'a boolean', 'an integer', 'a number', 'a string', 'a list', 'an object']
    """
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


__all__ = [
    "expect_bool",
    "expect_int",
    "expect_list",
    "expect_number",
    "expect_object",
    "expect_str",
    "key_path",
    "type_name",
]
