"""Limits on what a state file may hold, enforced when it is loaded.

Every file is treated as hostile: these bounds keep every accepted state
inside what the engine, the chains and the kernel handle in bounded time and
memory (int64 arithmetic with room for sums; the ruin chain's cash grid; the
position chain's size). Each is far above any real game: the standard bank
holds $20,580 in total, the standard board has 40 squares and two six-sided
dice. A value outside them is refused with one line naming the field
(:class:`models.errors.InvalidStateError`).
"""

from __future__ import annotations

MAX_STATE_BYTES = 4 * 1024 * 1024
"""Largest state file read (a standard state is about 2 KB, one with an inline board about 12 KB)."""
MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects (a state document needs 6)."""
MAX_INT = 10**9
"""Largest magnitude of any integer in a state document, unless a field has a tighter bound."""
MAX_CASH = 1_000_000
"""Most cash a player may hold ($1,000,000: about fifty times the standard bank's whole supply; the largest seen in 30 games of four `strategic` agents capped at 1,000 rounds was $44,607)."""
MAX_AMOUNT = 100_000
"""Largest price, rent, house cost, tax, card amount, salary or fine."""
MAX_SUPPLY = 10_000
"""Most houses or hotels in the bank's supply."""
MAX_ROUND = 1_000_000
"""Largest round number."""
MAX_SQUARES = 200
"""Most squares on a board."""
MAX_CARDS = 200
"""Most cards in one deck."""
MAX_DICE = 10
"""Most dice."""
MAX_SIDES = 100
"""Most sides on a die."""
MAX_NAME = 64
"""Longest player name (characters); a name is printable Unicode text, no lone surrogates."""


def name_problem(name: str) -> str | None:
    """Why ``name`` is not acceptable as a player name, or ``None``.

    A name is 1 to :data:`MAX_NAME` characters of printable Unicode text (no
    control character, no line break, no lone surrogate), so that every
    message and report that shows it stays on one line.

    Parameters
    ----------
    name:
        The candidate name.

    Returns
    -------
    str or None
        The problem in words (it follows the field in an error message), or
        ``None`` for an acceptable name.

    Examples
    --------
    >>> from models.limits import name_problem
    >>> name_problem("Ann") is None, name_problem("Ann" + chr(10) + "Bob")
    (True, 'holds a character that is not printable (a control character or a line break)')
    """
    if not name:
        return "must not be empty"
    if len(name) > MAX_NAME:
        return f"longer than {MAX_NAME} characters"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "is not valid Unicode text (a lone surrogate)"
    if not name.isprintable():
        return "holds a character that is not printable (a control character or a line break)"
    return None


__all__ = [
    "MAX_AMOUNT",
    "MAX_CARDS",
    "MAX_CASH",
    "MAX_DICE",
    "MAX_INT",
    "MAX_JSON_DEPTH",
    "MAX_NAME",
    "MAX_ROUND",
    "MAX_SIDES",
    "MAX_SQUARES",
    "MAX_STATE_BYTES",
    "MAX_SUPPLY",
    "name_problem",
]
