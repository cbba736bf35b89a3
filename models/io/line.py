"""A position in one line: the notation MPN ("FEN for Monopoly"), read with :func:`load_line` and written with :func:`to_line`.

The JSON format takes a document of dozens of properties to write a state;
a line holds the same state in one line a person or a language model can
write by hand (docs/state-format.md#one-line-positions has the grammar, the
codes and examples)::

    MPN1 Ann:560@24c1 Bob:340j1 br=AA or=A3A3A3 rd=B2B2B2 db=B- rr=BBB- ut=AA round=17 phase=rolled doubles=1

The tag ``MPN1``; each player ``NAME:CASH`` with ``@SQUARE`` and the flags
``j`` (in jail, with the turns spent there), ``c`` (Get Out of Jail Free
cards) and ``x`` (bankrupt); each group's lots in board order, one per lot:
``-`` (the bank's) or the owner's seat letter (``A`` the first player) with
``1``-``4`` houses, ``h`` a hotel or ``m`` mortgaged; then the fields
``to``, ``round``, ``phase``, ``doubles``, ``pot``, ``bank``, ``rules``,
``pending`` and ``board``, each left out at its default.

Decisions:

- **The round trip is the document's**: for every valid state ``s``,
  ``state_to_dict(load_line(to_line(s))) == state_to_dict(s)``, the rules'
  variants, the pot, the bank's cash, dice weights, set sizes and inline
  boards included. An inline board is carried as its JSON object in one field
  (``board={...}``, compact, non-printable characters escaped): honest and
  exact rather than short; so is the document's ``pending`` question, where
  the format has one. A field of the document that a line has no form for
  is refused by :func:`to_line`, never dropped.
- **The same checks and messages as the JSON loader**: a line is read into
  a state document, which :func:`~models.io.parse.parse_state` and
  :func:`~models.io.validate.validate_state` check; their refusal is reported
  at the column of the item it names (``notation: column 23:
  properties["Baltic Avenue"].houses: ...``). A line that cannot be read is
  refused at the column where reading stopped, saying what was expected
  there. Both are a :class:`~models.io.line_syntax.NotationError` (an
  :class:`~models.errors.InvalidStateError`), always one line.
- **A line is told from a path by its tag** (:func:`is_line`):
  :func:`models.io.load_state` takes a line wherever it takes a path, and a
  file or standard input holding a line is read as one, so every command's
  ``STATE``, the library and the MCP tools take a line too.

Examples
--------
>>> from models.io import load_line, load_state, state_to_dict, to_line
>>> state = load_state("instances/midgame-no-monopolies.json")
>>> line = to_line(state)
>>> print(line)
MPN1 Ann:420@21 Bob:385@9 Cy:510@34 Dee:465@26c1 br=DB lb=AAC pk=CCD or=AAB rd=ABB yl=CDD gn=BD- db=C- rr=ABDC ut=B- to=Cy round=9
>>> state_to_dict(load_line(line)) == state_to_dict(state)
True
"""

from __future__ import annotations

from models.errors import InvalidStateError
from models.io.line_read import columns_of, read_line
from models.io.line_syntax import MAX_LINE_CHARS, TAG, NotationError, is_line
from models.io.line_write import write_line
from models.io.parse import parse_state
from models.io.validate import validate_state
from models.io.write import state_to_dict
from models.state import GameState


def load_line(text: str) -> GameState:
    """The state a line of the notation stands for, checked as :func:`~models.io.load_state` checks a document.

    Parameters
    ----------
    text:
        The line: the tag ``MPN1``, the players and the fields
        (docs/state-format.md#one-line-positions); blanks and a line break
        at either end are ignored.

    Returns
    -------
    GameState
        A new state; it passes :func:`~models.io.validate.validate_state`.

    Raises
    ------
    NotationError
        The line cannot be read, or its state breaks the format or a rule: one
        line naming the column (1-based) and what was expected there, or the
        loader's message.

    Examples
    --------
    >>> from models.io import load_line
    >>> state = load_line("MPN1 Ann:1500 Bob:1500")
    >>> [p.name for p in state.players], state.round
    (['Ann', 'Bob'], 0)
    >>> load_line("MPN1 Ann:1500 Bob:1500 br=AA2")
    Traceback (most recent call last):
    ...
    models.io.line_syntax.NotationError: notation: column 28: properties["Baltic Avenue"].houses: 2 houses, but Mediterranean Avenue ...
    """
    doc, spots = read_line(text)
    with columns_of(spots):
        state = parse_state(doc)
        validate_state(state)
    return state


def line_in_bytes(data: bytes, source: str) -> str | None:
    """The text of bytes that hold a line (its tag first, after a byte-order mark and blanks), else ``None``.

    Parameters
    ----------
    data:
        A file's bytes, or standard input's.
    source:
        What they were read from, for messages.

    Returns
    -------
    str or None
        The decoded line, or ``None`` when the bytes do not start with the tag (a JSON document).

    Raises
    ------
    InvalidStateError
        The bytes start with the tag but are not UTF-8.

    Examples
    --------
    >>> from models.io.line import line_in_bytes
    >>> line_in_bytes(b"MPN1 Ann:1 Bob:2\\n", "<stdin>"), line_in_bytes(b'{"format": 1}', "<stdin>")
    ('MPN1 Ann:1 Bob:2\\n', None)
    """
    if data.removeprefix(b"\xef\xbb\xbf").lstrip()[:3].upper() != b"MPN":
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InvalidStateError("", f"{source}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    return text if is_line(text) else None


def to_line(state: GameState) -> str:
    """The line of a state: the tag, the players, the groups' lots, and every field not at its default.

    Parameters
    ----------
    state:
        A valid state (not changed).

    Returns
    -------
    str
        The line, without a line break; :func:`load_line` reads it back to a
        state with the same document (:func:`~models.io.state_to_dict`).

    Raises
    ------
    InvalidStateError
        The line would be longer than :data:`~models.io.line_syntax.MAX_LINE_CHARS`
        characters (an inline board of several megabytes).

    Examples
    --------
    >>> from models.io import load_state, to_line
    >>> to_line(load_state("instances/opening.json"))
    'MPN1 Ann:1500 Bob:1500 Cy:1500 Dee:1500'
    """
    line = write_line(state_to_dict(state), state.board, state.rules)
    if len(line) > MAX_LINE_CHARS:
        raise InvalidStateError("notation", f"the state's line would be {len(line)} characters, over the limit of {MAX_LINE_CHARS}")
    return line


__all__ = ["MAX_LINE_CHARS", "TAG", "NotationError", "is_line", "line_in_bytes", "load_line", "to_line"]
