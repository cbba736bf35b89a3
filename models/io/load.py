"""Loading a state: read the document, parse it, check the rules (or repair what a foreign engine breaks).

:func:`load_state` is the loader of every command and of the library: it reads
the document (:mod:`models.io.json_text`: size, depth, duplicate keys; or a
line of the one-line notation, :mod:`models.io.line`, given as the argument or
held by the file),
parses it (:mod:`models.io.parse`: types, ranges, names) and checks the rules
of the game (:mod:`models.io.validate`). With ``strict=False`` the rules a
foreign engine's state may break are repaired instead
(:func:`models.io.repair.load_state_lenient`). These entry points sit above
the parser and the repairs (both of which they call) so that no module of
:mod:`models.io` imports one that imports it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, overload

from models.io.json_text import PathLike, parse_json_bytes, read_bytes, read_document
from models.io.line import is_line, line_in_bytes, load_line
from models.io.line_read import columns_of, read_line
from models.io.parse import parse_state
from models.io.repair import LenientLoad, load_state_lenient
from models.io.validate import validate_state
from models.state import GameState


@overload
def load_state(path_or_dict: PathLike | Mapping[str, Any], *, strict: Literal[True] = True) -> GameState: ...
@overload
def load_state(path_or_dict: PathLike | Mapping[str, Any], *, strict: Literal[False]) -> LenientLoad: ...
@overload
def load_state(path_or_dict: PathLike | Mapping[str, Any], *, strict: bool) -> GameState | LenientLoad: ...
def load_state(path_or_dict: PathLike | Mapping[str, Any], *, strict: bool = True) -> GameState | LenientLoad:
    """Load a game state from a JSON file, an already-parsed document, or a line of the one-line notation.

    Parameters
    ----------
    path_or_dict:
        A ``str`` or :class:`os.PathLike` path to a JSON file, or a mapping
        holding the parsed document, or a line of the notation (a ``str``
        starting with the tag ``MPN1``: :func:`~models.io.line.is_line`;
        a file of that name is ``./MPN1 ...``). A file holding a line is read
        as that line.
    strict:
        ``True`` (the default, and the command line's behaviour): a state that
        breaks a rule is refused. ``False``: the rules a foreign engine's state
        may break are repaired (:func:`~models.io.repair.load_state_lenient`), and the result is
        a :class:`~models.io.repair.LenientLoad` ``(state, repairs)`` instead of the state alone.

    Returns
    -------
    GameState
        With ``strict=True``: a new state; it passes :func:`~models.io.validate.validate_state`.
    LenientLoad
        With ``strict=False``: the repaired state (it passes
        :func:`~models.io.validate.validate_state`) and the repairs made, in order.

    Raises
    ------
    InvalidStateError
        The document is not valid JSON, breaks the format, or breaks a rule
        (with ``strict=False``: a rule that is not repaired); ``err.field``
        names the place.
    OSError
        The file cannot be read.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> [p.name for p in state.players], state.players[state.to_move].name
    (['Ann', 'Bob', 'Cy', 'Dee'], 'Cy')
    >>> state, repairs = load_state("instances/midgame-no-monopolies.json", strict=False)
    >>> repairs
    ()
    >>> load_state("MPN1 Ann:1500 Bob:1500 to=Bob").to_move
    1
    """
    line, doc = _read(path_or_dict)
    if line is not None:
        if strict:
            return load_line(line)
        line_doc, spots = read_line(line)
        with columns_of(spots):
            return load_state_lenient(line_doc)
    if not strict:
        return load_state_lenient(doc)
    state = parse_state(doc)
    validate_state(state)
    return state


def _read(path_or_dict: PathLike | Mapping[str, Any]) -> tuple[str | None, Any]:
    """``(line, None)`` for a line or a file holding one, else ``(None, document)``."""
    if is_line(path_or_dict):
        assert isinstance(path_or_dict, str)
        return path_or_dict, None
    if isinstance(path_or_dict, (str, os.PathLike)):
        data = read_bytes(Path(path_or_dict))
        line = line_in_bytes(data, str(path_or_dict))
        return (line, None) if line is not None else (None, parse_json_bytes(data, str(path_or_dict)))
    return None, read_document(path_or_dict)




def load_state_bytes(data: bytes, source: str = "<stdin>") -> GameState:
    """:func:`load_state` on the bytes of a state document or of a line of the notation (e.g. read from standard input).

    Parameters
    ----------
    data:
        The document's bytes (UTF-8 JSON, at most :data:`~models.limits.MAX_STATE_BYTES`),
        or a line of the notation (:mod:`models.io.line`).
    source:
        What they were read from, named in error messages.

    Returns
    -------
    GameState
        A new state; it passes :func:`~models.io.validate.validate_state`.

    Raises
    ------
    InvalidStateError
        The bytes fail a guard of :func:`~models.io.json_text.parse_json_bytes`, or the
        document breaks the format or a rule; ``err.field`` names the place.

    Examples
    --------
    >>> from pathlib import Path
    >>> from models.io import load_state_bytes
    >>> state = load_state_bytes(Path("instances/two-player.json").read_bytes())
    >>> state.players[1].in_jail, state.players[1].jail_turns
    (True, 1)
    >>> load_state_bytes(b"{", "<stdin>")
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: <stdin>: not valid JSON (line 1, column 2: Expecting property name enclosed in double quotes)
    >>> load_state_bytes(b"MPN1 Ann:1500 Bob:1500\\n").players[1].cash
    1500
    """
    line = line_in_bytes(data, source)
    if line is not None:
        return load_line(line)
    return load_state(parse_json_bytes(data, source))


__all__ = ["load_state", "load_state_bytes"]
