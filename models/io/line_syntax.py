"""The one-line position notation (MPN), its characters: the tag, words, numbers, quoted text, and errors that name the column.

A position written in one line (docs/state-format.md#one-line-positions)
starts with the tag ``MPN1`` and holds items separated by spaces: players
``NAME:CASH...`` and fields ``KEY=VALUE``. This module reads the pieces of
such a line with a :class:`Cursor` that knows its column, so that every
refusal is a :class:`NotationError` naming the 1-based column and what was
expected there, in one line. :mod:`models.io.line_codes` names the fields
and groups, :mod:`models.io.line_read` builds a state document from the
pieces, :mod:`models.io.line_write` writes them.

Decisions, named here and in the docs:

- The tag ``MPN1`` (Monopoly Position Notation, version 1), case aside, as
  the first word tells a line from a file path (:func:`is_line`); a file whose
  name is a tag is reached as ``./MPN1``.
- A name is written bare when it is made of letters, digits and ``_ . - '``
  only (:func:`is_bare`); any other name is a JSON string (``"Mr X"``), with
  every character that is not printable escaped, so a line stays one line.
- Numbers are ASCII digits (an optional ``-``; a fraction and an exponent
  where a rule takes a real number), at most 18 digits before the point.
- A line is at most :data:`MAX_LINE_CHARS` characters, the size limit of a
  state file, so every state file that loads has its line.
"""

from __future__ import annotations

import json
import re
from typing import NoReturn

from models.errors import InvalidStateError
from models.limits import MAX_STATE_BYTES

TAG = "MPN1"
"""The first word of a line (matched without regard to case)."""
MAX_LINE_CHARS = MAX_STATE_BYTES
"""Longest line read or written, in characters (the size limit of a state file)."""
SPACE = " \t"
"""What separates the items of a line."""
_BARE_EXTRA = "_.-'"
_TAG = re.compile(r"[ \t\r\n]*MPN([0-9]+)(?=[ \t\r\n]|$)", re.IGNORECASE)
_NUMBER = re.compile(r"-?[0-9]{1,18}(?:\.[0-9]{1,20})?(?:[eE][+-]?[0-9]{1,3})?")
_INTEGER = re.compile(r"-?[0-9]+")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_MAX_DIGITS = 18
_GOT_CHARS = 20


class NotationError(InvalidStateError):
    """A line of the notation that cannot be read, or whose position breaks a rule: one line naming the column.

    Parameters
    ----------
    column:
        Where the problem is, 1-based, in characters of the line.
    message:
        What was expected there, or the loader's refusal of what is there.

    Attributes
    ----------
    column:
        As given. The text of the error is ``notation: column N: message``
        (its ``field`` is ``notation``).

    Examples
    --------
    >>> from models.io import load_line
    >>> load_line("MPN1 Ann:x Bob:10")
    Traceback (most recent call last):
    ...
    models.io.line_syntax.NotationError: notation: column 10: expected a cash amount after 'Ann:', got 'x'
    """

    def __init__(self, column: int, message: str) -> None:
        self.column = column
        super().__init__("notation", f"column {column}: {message}")


def is_line(value: object) -> bool:
    """Whether ``value`` is a line of the notation rather than a path: a string whose first word is ``MPN`` and a number.

    Parameters
    ----------
    value:
        Anything (a path, a line, a document).

    Returns
    -------
    bool
        True for a string starting (after blanks) with the tag ``MPN1``, or
        with ``MPN`` and another version number, which the reader then refuses.

    Examples
    --------
    >>> from models.io import is_line
    >>> is_line("MPN1 Ann:1500 Bob:1500"), is_line("instances/opening.json"), is_line("./MPN1")
    (True, False, False)
    """
    return isinstance(value, str) and _TAG.match(value) is not None


def is_bare(word: str) -> bool:
    """Whether ``word`` may be written without quotes (letters, digits and ``_ . - '``).

    Parameters
    ----------
    word:
        A name.

    Returns
    -------
    bool
        True when it is not empty and every character is a letter, a digit or one of ``_ . - '``.

    Examples
    --------
    >>> from models.io.line_syntax import is_bare
    >>> is_bare("Ann"), is_bare("O'Neil"), is_bare("Mr X"), is_bare("")
    (True, True, False, False)
    """
    return bool(word) and all(c.isalnum() or c in _BARE_EXTRA for c in word)


def quote(text: str) -> str:
    """``text`` as a JSON string on one line: every character that is not printable escaped.

    Parameters
    ----------
    text:
        Any text.

    Returns
    -------
    str
        The JSON string, quotes included.

    Examples
    --------
    >>> from models.io.line_syntax import quote
    >>> print(quote("Mr X"), quote("a" + chr(0x2028) + "b"))
    "Mr X" "a\\u2028b"
    """
    return escape_unprintable(json.dumps(text, ensure_ascii=False))


def escape_unprintable(json_text: str) -> str:
    """JSON text with every character that is not printable (inside its strings) written ``\\uXXXX``.

    Parameters
    ----------
    json_text:
        JSON text written with ``ensure_ascii=False`` (outside its strings it is ASCII).

    Returns
    -------
    str
        The same JSON value, on one line of printable characters.

    Examples
    --------
    >>> from models.io.line_syntax import escape_unprintable
    >>> escape_unprintable('["a' + chr(0x85) + '"]')
    '["a\\\\u0085"]'
    """
    if json_text.isprintable():
        return json_text
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in json_text)


def word_or_quoted(name: str) -> str:
    """A name as a line writes it: bare (:func:`is_bare`) or quoted (:func:`quote`).

    Parameters
    ----------
    name:
        The name.

    Returns
    -------
    str
        The text to write.

    Examples
    --------
    >>> from models.io.line_syntax import word_or_quoted
    >>> word_or_quoted("Ann"), word_or_quoted("Mr X")
    ('Ann', '"Mr X"')
    """
    return name if is_bare(name) else quote(name)


def shown(text: str) -> str:
    """A piece of a line as an error message shows it: quoted, escaped, at most 20 characters.

    Parameters
    ----------
    text:
        The piece.

    Returns
    -------
    str
        Its ``repr``, cut with ``...`` when longer.

    Examples
    --------
    >>> from models.io.line_syntax import shown
    >>> print(shown("x"), shown("y" * 30))
    'x' 'yyyyyyyyyyyyyyyyyyyy'...
    """
    return repr(text) if len(text) <= _GOT_CHARS else repr(text[:_GOT_CHARS]) + "..."


class Cursor:
    """A place in a line: reads its pieces and refuses, naming the column, what it cannot read.

    Parameters
    ----------
    text:
        The line.

    Attributes
    ----------
    text:
        As given.
    pos:
        The index of the next character to read (0-based; its column is ``pos + 1``).

    Examples
    --------
    >>> from models.io.line_syntax import Cursor
    >>> c = Cursor("Ann:420@21")
    >>> c.name("a player's name"), c.take(":"), c.integer("a cash amount")
    ('Ann', True, 420)
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def peek(self) -> str:
        """The next character, or ``""`` at the end of the line."""
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def at_break(self) -> bool:
        """Whether the next character ends an item (a space, or the end of the line)."""
        return self.pos >= len(self.text) or self.text[self.pos] in SPACE

    def take(self, char: str) -> bool:
        """Step over ``char`` if it is next.

        Parameters
        ----------
        char:
            One character.

        Returns
        -------
        bool
            Whether it was there.
        """
        if self.peek() == char:
            self.pos += 1
            return True
        return False

    def expect(self, char: str, what: str) -> None:
        """Step over ``char``, or refuse: expected ``what``.

        Parameters
        ----------
        char:
            One character.
        what:
            What the message says was expected.

        Raises
        ------
        NotationError
            ``char`` is not next.
        """
        if not self.take(char):
            self.fail(what)

    def skip_space(self) -> int:
        """Step over spaces and tabs.

        Returns
        -------
        int
            How many there were.
        """
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in SPACE:
            self.pos += 1
        return self.pos - start

    def got(self, pos: int | None = None) -> str:
        """What stands at ``pos`` (default: here), as a message shows it: up to the next space, or the end of the line.

        Parameters
        ----------
        pos:
            An index into the line.

        Returns
        -------
        str
            E.g. ``'x@3'`` or ``the end of the line``.
        """
        at = self.pos if pos is None else pos
        if at >= len(self.text):
            return "the end of the line"
        end = at
        while end < len(self.text) and end - at <= _GOT_CHARS and self.text[end] not in SPACE:
            end += 1
        return shown(self.text[at:end] if end > at else self.text[at])

    def fail(self, what: str, pos: int | None = None) -> NoReturn:
        """Refuse: ``expected WHAT, got ...`` at ``pos`` (default: here).

        Parameters
        ----------
        what:
            What was expected.
        pos:
            An index into the line.

        Raises
        ------
        NotationError
            Always.
        """
        at = self.pos if pos is None else pos
        raise NotationError(at + 1, f"expected {what}, got {self.got(at)}")

    def word(self) -> str:
        """The bare word here (letters, digits and ``_ . - '``; possibly empty).

        Returns
        -------
        str
            The word; the cursor is after it.
        """
        start = self.pos
        text = self.text
        while self.pos < len(text) and (text[self.pos].isalnum() or text[self.pos] in _BARE_EXTRA):
            self.pos += 1
        return text[start : self.pos]

    def quoted(self) -> str:
        """The JSON string here (the cursor is on its opening quote).

        Returns
        -------
        str
            Its text, escapes decoded.

        Raises
        ------
        NotationError
            No closing quote, or not a valid JSON string.
        """
        start = self.pos
        m = _QUOTED.match(self.text, start)
        if m is None:
            raise NotationError(start + 1, "expected the closing '\"' of the quoted text, got the end of the line")
        try:
            value = json.loads(m.group(0))
        except json.JSONDecodeError as err:
            raise NotationError(start + err.pos + 1, f"expected quoted text as a JSON string writes it ({err.msg})") from None
        self.pos = m.end()
        assert isinstance(value, str)
        return value

    def name(self, what: str) -> str:
        """A name here: a JSON string, or a bare word.

        Parameters
        ----------
        what:
            What the message says was expected.

        Returns
        -------
        str
            The name.

        Raises
        ------
        NotationError
            Neither is here.
        """
        if self.peek() == '"':
            return self.quoted()
        word = self.word()
        if not word:
            self.fail(what)
        return word

    def integer(self, what: str) -> int:
        """An integer here: ASCII digits, an optional ``-``, at most 18 digits.

        Parameters
        ----------
        what:
            What the message says was expected.

        Returns
        -------
        int
            The number.

        Raises
        ------
        NotationError
            No integer here, or a longer one.
        """
        m = _INTEGER.match(self.text, self.pos)
        if m is None:
            self.fail(what)
        if len(m.group(0).lstrip("-")) > _MAX_DIGITS:
            self.fail(f"{what} of at most {_MAX_DIGITS} digits")
        self.pos = m.end()
        return int(m.group(0))

    def number(self, what: str) -> int | float:
        """A number here: an integer (:meth:`integer`), or a real number with a fraction or an exponent.

        Parameters
        ----------
        what:
            What the message says was expected.

        Returns
        -------
        int or float
            An ``int`` when written without a point or an exponent.

        Raises
        ------
        NotationError
            No number here.
        """
        m = _NUMBER.match(self.text, self.pos)
        if m is None:
            self.fail(what)
        text = m.group(0)
        self.pos = m.end()
        return int(text) if _INTEGER.fullmatch(text) else float(text)

    def starts_number(self) -> bool:
        """Whether a number starts here (a digit, or ``-`` and a digit)."""
        return _NUMBER.match(self.text, self.pos) is not None


def check_tag(cursor: Cursor) -> None:
    """Read the tag at the start of a line (after blanks), refusing another version or none.

    Parameters
    ----------
    cursor:
        At the start of the line.

    Raises
    ------
    NotationError
        The line does not start with ``MPN1``.

    Examples
    --------
    >>> from models.io.line_syntax import Cursor, check_tag
    >>> check_tag(Cursor("MPN2 Ann:1"))
    Traceback (most recent call last):
    ...
    models.io.line_syntax.NotationError: notation: column 1: expected the tag MPN1 (this reader knows version 1), got 'MPN2'
    """
    m = _TAG.match(cursor.text, cursor.pos)
    if m is None or m.group(1) != TAG[3:]:
        blank = len(cursor.text) - len(cursor.text.lstrip(" \t\r\n"))
        cursor.fail(f"the tag {TAG} (this reader knows version 1)", blank)
    cursor.pos = m.end()


__all__ = [
    "MAX_LINE_CHARS",
    "SPACE",
    "TAG",
    "Cursor",
    "NotationError",
    "check_tag",
    "escape_unprintable",
    "is_bare",
    "is_line",
    "quote",
    "shown",
    "word_or_quoted",
]
