"""The project's error family: every error raised on purpose derives from :class:`MonopolyError`.

The classes here are the shared bases; each package defines the narrow errors
of its own job beside their users, as subclasses of these (for example
:class:`engine.chains.markov.ChainError`, :class:`solver.api.SolveError`,
:class:`solver.agents.registry.UnknownAgentError`). Errors about a value that
a caller passed in are also :class:`ValueError` (as before, so code that
catches those keeps working), errors about the environment are also
:class:`RuntimeError`; an unknown name that callers looked up as a key (a
player, a rules preset) is an :class:`UnknownKeyError`, also a
:class:`KeyError`. ``tests/test_errors.py`` holds every ``raise`` of the
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
    """Base class of the project's own errors: catch it to catch every error raised on purpose.

    Examples
    --------
    >>> from models.errors import InvalidStateError, MonopolyError
    >>> issubclass(InvalidStateError, MonopolyError)
    True
    """


class InvalidStateError(MonopolyError, ValueError):
    """A game state (or a board, or rules) breaks the format or a rule.

    Parameters
    ----------
    field:
        Where the problem is, e.g. ``players[1].cash`` (``""``: the document as a whole).
    message:
        What is wrong, in words.

    Attributes
    ----------
    field:
        As given.
    message:
        As given; the text of the error is ``field: message`` (``message`` alone
        when ``field`` is empty).

    Examples
    --------
    >>> from models.errors import InvalidStateError
    >>> err = InvalidStateError("players[1].cash", "-5 is below the minimum 0")
    >>> print(err)
    players[1].cash: -5 is below the minimum 0
    >>> err.field
    'players[1].cash'
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


class InvalidTradeError(MonopolyError, ValueError):
    """A trade that cannot be carried out in the given state (:meth:`models.trade.Trade.validate`).

    Examples
    --------
    >>> from models.io import load_state
    >>> from models.trade import Trade
    >>> state = load_state("instances/two-player.json")
    >>> Trade.bilateral("Ann", "Bob", ["Boardwalk"]).validate(state)
    Traceback (most recent call last):
    ...
    models.errors.InvalidTradeError: transfers[0].properties: Ann does not own Boardwalk
    """


class IllegalActionError(MonopolyError, ValueError):
    """An agent asked for an action the rules do not allow now.

    Examples
    --------
    >>> from models.errors import IllegalActionError
    >>> isinstance(IllegalActionError("no house left in the bank"), ValueError)
    True
    """


class InvalidArgumentError(MonopolyError, ValueError):
    """A function was called with an argument outside its domain (a count below 1, an array
    of the wrong shape, settings that contradict each other); the message names the argument.

    Examples
    --------
    >>> from models.errors import InvalidArgumentError
    >>> print(InvalidArgumentError("rollouts must be >= 1, got 0"))
    rollouts must be >= 1, got 0
    """


class UnknownNameError(InvalidArgumentError):
    """A name that names nothing known (an agent, a novelty, a seat, a preset).

    Examples
    --------
    >>> from models.errors import InvalidArgumentError, UnknownNameError
    >>> issubclass(UnknownNameError, InvalidArgumentError)
    True
    """


class UnknownKeyError(UnknownNameError, KeyError):
    """An unknown name where the lookup was a :class:`KeyError` before (a player, a preset).

    Also a :class:`KeyError`, so that callers that caught that keep working; its text is
    the plain message (a :class:`KeyError` alone would show it quoted, as a key).

    Examples
    --------
    >>> from models.errors import UnknownKeyError
    >>> err = UnknownKeyError("no player named 'Zed'")
    >>> isinstance(err, KeyError), str(err)
    (True, "no player named 'Zed'")
    """

    def __str__(self) -> str:
        """The message, unquoted."""
        return str(self.args[0]) if self.args else ""


class ExtraNotInstalledError(MonopolyError, RuntimeError):
    """An optional part was asked for whose extra is not installed (``ray``, ``plot``, ``mcp``,
    ``rl``); the message says which ``pip install`` adds it.

    Examples
    --------
    >>> from models.errors import ExtraNotInstalledError
    >>> isinstance(ExtraNotInstalledError("pip install 'monopoly-trade[ray]'"), RuntimeError)
    True
    """


class BankruptPlayerError(InvalidArgumentError):
    """A question asked for a player who is already bankrupt (a ruin chain, a build plan, a
    decision): every command refuses such a player the same way."""


class ComputationError(MonopolyError, RuntimeError):
    """A numerical method failed where it should not (a fit or a linear program that did not
    converge, a solver status that the model rules out); the message names the method.

    Examples
    --------
    >>> from models.errors import ComputationError
    >>> isinstance(ComputationError("the least-squares fit did not converge"), RuntimeError)
    True
    """


class NotReadyError(MonopolyError, RuntimeError):
    """An object was used before it was ready, or after it ended (an environment stepped
    before ``reset()``, a monitor asked before it saw a game).

    Examples
    --------
    >>> from models.errors import NotReadyError
    >>> isinstance(NotReadyError("step() before reset()"), RuntimeError)
    True
    """


__all__ = [
    "ComputationError",
    "ExtraNotInstalledError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidStateError",
    "InvalidTradeError",
    "MonopolyError",
    "NotReadyError",
    "UnknownKeyError",
    "UnknownNameError",
]
