"""Reading a state document's JSON text, with the guards every loader applies.

A file is treated as hostile: it is read up to
:data:`models.limits.MAX_STATE_BYTES` (a larger one is refused), decoded as
UTF-8 (a byte-order mark is tolerated), its nesting is checked against
:data:`models.limits.MAX_JSON_DEPTH` before :func:`json.loads` sees it (so
that a deeply nested file cannot exhaust the parser's recursion), a key given
twice in one object is refused (JSON leaves it undefined; Python's default is
"last wins"), and so are ``NaN`` and ``Infinity`` (not JSON numbers). Every
refusal is an :class:`~models.errors.InvalidStateError` with an empty field
and a message that names the source.

The strict loader (:mod:`models.io.load`), the lenient one
(:mod:`models.io.repair`) and the rules file of ``--rules FILE``
(:mod:`models.rules_file`) read through here.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from models.checks import type_name
from models.errors import InvalidStateError
from models.limits import MAX_JSON_DEPTH, MAX_STATE_BYTES

PathLike = str | os.PathLike[str]
"""A path given as text or as a path object."""


def read_document(path_or_dict: PathLike | Mapping[str, Any]) -> Any:
    """The parsed document of a path (read with :func:`read_json`) or of a mapping (returned as is).

    Parameters
    ----------
    path_or_dict:
        A ``str`` or :class:`os.PathLike` path to a JSON file, or a mapping
        holding the parsed document.

    Returns
    -------
    Any
        The parsed document (a mapping for every well-formed state file).

    Raises
    ------
    InvalidStateError
        ``path_or_dict`` is neither a path nor a mapping, or the file fails a
        guard of :func:`parse_json_bytes`.
    OSError
        The file cannot be read.

    Examples
    --------
    >>> from models.io.json_text import read_document
    >>> read_document("instances/midgame-no-monopolies.json")["to_move"]
    'Cy'
    """
    if isinstance(path_or_dict, Mapping):
        return path_or_dict
    if isinstance(path_or_dict, (str, os.PathLike)):
        return read_json(Path(path_or_dict))
    raise InvalidStateError("", f"expected a path or a parsed document, got {type_name(path_or_dict)}")


def read_json(path: Path) -> Any:
    """Parse a JSON file, refusing duplicate keys and NaN/Infinity (and files over :data:`~models.limits.MAX_STATE_BYTES`).

    Parameters
    ----------
    path:
        The file.

    Returns
    -------
    Any
        The parsed value.

    Raises
    ------
    InvalidStateError
        The file fails a guard of :func:`parse_json_bytes`; the message names the path.
    OSError
        The file cannot be read.

    Examples
    --------
    >>> from pathlib import Path
    >>> from models.io.json_text import read_json
    >>> len(read_json(Path("instances/midgame-no-monopolies.json"))["players"])
    4
    """
    return parse_json_bytes(read_bytes(path), str(path))


def read_bytes(path: Path) -> bytes:
    """A file's bytes, at most :data:`~models.limits.MAX_STATE_BYTES` + 1 of them (enough to tell that it is too large).

    Parameters
    ----------
    path:
        The file.

    Returns
    -------
    bytes
        Its first :data:`~models.limits.MAX_STATE_BYTES` + 1 bytes.

    Raises
    ------
    OSError
        The file cannot be read.

    Examples
    --------
    >>> from pathlib import Path
    >>> from models.io.json_text import read_bytes
    >>> read_bytes(Path("instances/opening.json"))[:1]
    b'{'
    """
    with path.open("rb") as fh:
        return fh.read(MAX_STATE_BYTES + 1)


def parse_json_bytes(data: bytes, source: str) -> Any:
    """Parse UTF-8 JSON bytes from ``source`` (named in errors), refusing duplicate keys and NaN/Infinity.

    Parameters
    ----------
    data:
        The bytes (a leading UTF-8 byte-order mark is skipped).
    source:
        What they were read from (a path, ``<stdin>``), for messages.

    Returns
    -------
    Any
        The parsed value.

    Raises
    ------
    InvalidStateError
        More than :data:`~models.limits.MAX_STATE_BYTES` bytes, not UTF-8, nested
        deeper than :data:`~models.limits.MAX_JSON_DEPTH`, not valid JSON (line and
        column given), a duplicate key, ``NaN`` or ``Infinity``, or an integer too
        long for Python to convert.

    Examples
    --------
    >>> from models.io.json_text import parse_json_bytes
    >>> parse_json_bytes(b'{"round": 3}', "<stdin>")
    {'round': 3}
    >>> parse_json_bytes(b'{"round": }', "<stdin>")
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: <stdin>: not valid JSON (line 1, column 11: Expecting value)
    """
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
    except InvalidStateError as err:  # a duplicate key or NaN: its own message, with the source
        raise InvalidStateError(err.field, f"{source}: {err.message}") from None
    except ValueError as err:  # e.g. an integer of more than 4,300 digits
        raise InvalidStateError("", f"{source}: a number beyond what a state may hold ({str(err).splitlines()[0][:80]})") from None


def _check_depth(text: str, source: str) -> None:
    """Refuse nesting deeper than :data:`~models.limits.MAX_JSON_DEPTH` before parsing (brackets inside strings are skipped)."""
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


__all__ = ["PathLike", "parse_json_bytes", "read_bytes", "read_document", "read_json"]
