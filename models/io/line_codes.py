"""The one-line notation (MPN), its words: the fields' keys, the groups' codes and the players' seat letters.

A line names a document field by a short key (:data:`FIELD_KEYS`), a group by
its two-letter code (:data:`GROUP_CODES`; on any board the group's own name
works too) and a lot's owner by its seat letter (:data:`SEATS`, ``A`` the
first player). :func:`group_named` reads a group's key, :func:`group_key`
writes one that reads back as that group, :func:`groups_in_order` is the
order a line writes the groups in.
"""

from __future__ import annotations

from models.board import Board
from models.io.line_syntax import is_bare, quote

FIELD_KEYS = {
    "to": "to_move",
    "round": "round",
    "phase": "phase",
    "doubles": "doubles_rolled",
    "pot": "pot",
    "bank": "bank_cash",
    "rules": "rules",
    "pending": "pending",
    "board": "board",
}
"""The keys of a line's fields and the state document's field each one writes."""
GROUP_CODES = {
    "brown": "br",
    "light_blue": "lb",
    "pink": "pk",
    "orange": "or",
    "red": "rd",
    "yellow": "yl",
    "green": "gn",
    "dark_blue": "db",
    "railroad": "rr",
    "utility": "ut",
}
"""The two-letter code of each group of the standard board (and of railroads and utilities on every board)."""
_CODE_GROUPS = {code: group for group, code in GROUP_CODES.items()}
SEATS = "ABCDEFGH"
"""The seat letters of the players, in turn order (a lot's owner is written by its seat)."""


def group_named(key: str, quoted: bool, board: Board) -> str | None:
    """The group of ``board`` a field's key names, or ``None``.

    A key names the group of that name; a bare key (not quoted) may also be a
    group's code (:data:`GROUP_CODES`), when the board has no group named so.

    Parameters
    ----------
    key:
        The key as read.
    quoted:
        Whether it was written as a JSON string.
    board:
        The state's board.

    Returns
    -------
    str or None
        The group's name.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.io.line_codes import group_named
    >>> group_named("db", False, standard_board()), group_named("dark_blue", True, standard_board())
    ('dark_blue', 'dark_blue')
    >>> group_named("db", True, standard_board()) is None
    True
    """
    if key in board.groups:
        return key
    group = None if quoted else _CODE_GROUPS.get(key)
    return group if group is not None and group in board.groups else None


def group_key(group: str, board: Board) -> str:
    """The key a line writes for a group: its code, else its name bare, else its name quoted, whichever reads back as it.

    Parameters
    ----------
    group:
        A group of ``board``.
    board:
        The state's board.

    Returns
    -------
    str
        The key.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.io.line_codes import group_key
    >>> group_key("light_blue", standard_board()), group_key("railroad", standard_board())
    ('lb', 'rr')
    """
    code = GROUP_CODES.get(group)
    if code is not None and code not in FIELD_KEYS and group_named(code, False, board) == group:
        return code
    if is_bare(group) and group not in FIELD_KEYS:
        return group
    return quote(group)


def groups_in_order(board: Board) -> tuple[str, ...]:
    """The groups of a board in the order a line writes them: the colour groups in board order, then railroads and utilities.

    Parameters
    ----------
    board:
        The board.

    Returns
    -------
    tuple[str, ...]
        Its groups' names.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.io.line_codes import groups_in_order
    >>> groups_in_order(standard_board())[-3:]
    ('dark_blue', 'railroad', 'utility')
    """
    return (*board.street_groups, *(g for g in ("railroad", "utility") if g in board.groups))


__all__ = ["FIELD_KEYS", "GROUP_CODES", "SEATS", "group_key", "group_named", "groups_in_order"]
