"""The project's error family: every error raised on purpose derives from :class:`MonopolyError`.

The classes here are the shared bases; each package defines the narrow errors
of its own job beside their users, as subclasses of these (for example
:class:`engine.chains.markov.ChainError`, :class:`solver.api.SolveError`,
:class:`solver.agents.registry.UnknownAgentError`). Errors about a value that
a caller passed in are also :class:`ValueError` (as before, so code that
catches those keeps working), errors about the environment are also
:class:`RuntimeError`. ``tests/test_errors.py`` holds every ``raise`` of the
packages to this family.

Each message is one line that names what is wrong; :class:`InvalidStateError`
also carries a ``field`` (a JSON-path-like location such as
``properties["Baltic Avenue"].houses``), so that the command line can print it.

Examples
--------
>>> from models.errors import InvalidArgumentError, MonopolyError
>>> try:
...     raise InvalidArgumentError("rollouts must be >= 1, got 0")
... except MonopolyError as err:
...     print(type(err).__name__, isinstance(err, ValueError), err)
InvalidArgumentError True rollouts must be >= 1, got 0
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


class InvalidArgumentError(MonopolyError, ValueError):
    """A function was called with an argument outside its domain (a count below 1, an array
    of the wrong shape, settings that contradict each other); the message names the argument."""


class UnknownNameError(InvalidArgumentError):
    """A name that names nothing known (an agent, a novelty, a seat, a preset)."""


class ExtraNotInstalledError(MonopolyError, RuntimeError):
    """An optional part was asked for whose extra is not installed (``ray``, ``plot``, ``mcp``,
    ``rl``); the message says which ``pip install`` adds it."""


class BankruptPlayerError(InvalidArgumentError):
    """A question asked for a player who is already bankrupt (a ruin chain, a build plan, a
    decision): every command refuses such a player the same way."""


class ComputationError(MonopolyError, RuntimeError):
    """A numerical method failed where it should not (a fit or a linear program that did not
    converge, a solver status that the model rules out); the message names the method."""


class NotReadyError(MonopolyError, RuntimeError):
    """An object was used before it was ready, or after it ended (an environment stepped
    before ``reset()``, a monitor asked before it saw a game)."""
