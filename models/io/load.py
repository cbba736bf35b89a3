"""Loading a state: read the document, parse it, check the rules (or repair what a foreign engine breaks).

:func:`load_state` is the loader of every command and of the library: it reads
the document (:mod:`models.io.json_text`: size, depth, duplicate keys),
parses it (:mod:`models.io.parse`: types, ranges, names) and checks the rules
of the game (:mod:`models.io.validate`). With ``strict=False`` the rules a
foreign engine's state may break are repaired instead
(:func:`models.io.repair.load_state_lenient`). These entry points sit above
the parser and the repairs (both of which they call) so that no module of
:mod:`models.io` imports one that imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, overload

from models.io.json_text import PathLike, parse_json_bytes, read_document
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
    """Load a game state from a JSON file or an already-parsed document.

    Parameters
    ----------
    path_or_dict:
        A ``str`` or :class:`os.PathLike` path to a JSON file, or a mapping
        holding the parsed document.
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
    """
    if not strict:
        return load_state_lenient(path_or_dict)
    state = parse_state(read_document(path_or_dict))
    validate_state(state)
    return state


def load_state_bytes(data: bytes, source: str = "<stdin>") -> GameState:
    """:func:`load_state` on the bytes of a state document (e.g. read from standard input).

    Parameters
    ----------
    data:
        The document's bytes (UTF-8 JSON, at most :data:`~models.limits.MAX_STATE_BYTES`).
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
    """
    return load_state(parse_json_bytes(data, source))


__all__ = ["load_state", "load_state_bytes"]
