"""Narrow exception classes shared by every layer.

Each error carries a ``field`` (a JSON-path-like location such as
``properties["Baltic Avenue"].houses``) so that the command line can print one
line that names what is wrong.
"""

from __future__ import annotations


class MonopolyError(Exception):
    """Base class of the project's own errors."""


class InvalidStateError(MonopolyError, ValueError):
    """A game state (or a board, or rules) breaks the format or a rule.

    Parameters
    ----------
    field:
        Where the problem is, e.g. ``players[1].cash``.
    message:
        What is wrong, in words.
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


class InvalidTradeError(MonopolyError, ValueError):
    """A trade that cannot be carried out in the given state."""


class IllegalActionError(MonopolyError, ValueError):
    """An agent asked for an action the rules do not allow now."""
