"""What a game is: boards, rules, states and trades (data only, no randomness).

Modules, one job each:

- :mod:`models.errors`: the error family (:class:`MonopolyError` and its shared bases).
- :mod:`models.limits`: the bounds every loaded document must respect (sizes, numbers, names).
- :mod:`models.checks`: the strict type checks of every document parser, errors naming the field.
- :mod:`models.files`: :func:`~models.files.atomic_write`, the way every file of the project is written.
- :mod:`models.board`: boards (squares, groups, railroads, utilities, decks), the built-in
  ``standard-us`` and inline boards.
- :mod:`models.rules`: the frozen :class:`Rules` of a game, its variants and the presets.
- :mod:`models.state`: the mutable :class:`GameState` and its pure queries (monopolies,
  net worth, liquidation value).
- :mod:`models.trade`: :class:`Trade`, transfers that take effect at once, and their rules.
- :mod:`models.io`: the state format: parse, validate, repair (the lenient loader), load,
  write, and its JSON Schema (one module each).
- :mod:`models.rules_file`: ``--rules NAME|FILE``: a preset or a rules file, and a state moved
  under other rules.

Nothing here imports :mod:`engine` or :mod:`solver`.

Examples
--------
>>> from models import GameState, Trade
>>> state = GameState.new_game(["Ann", "Bob"])
>>> state.net_worth(0), Trade.bilateral("Ann", "Bob", cash_a_to_b=100).net_cash("Bob")
(1500, 100)
"""

from models.board import Board, Card, Square, load_board, standard_board
from models.errors import (
    BankruptPlayerError,
    ComputationError,
    ExtraNotInstalledError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidStateError,
    InvalidTradeError,
    MonopolyError,
    NotReadyError,
    UnknownKeyError,
    UnknownNameError,
)
from models.rules import DiceSpec, Rules
from models.state import GameState, PlayerState
from models.trade import Trade, Transfer

__all__ = [
    "BankruptPlayerError",
    "Board",
    "Card",
    "ComputationError",
    "DiceSpec",
    "ExtraNotInstalledError",
    "GameState",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidStateError",
    "InvalidTradeError",
    "MonopolyError",
    "NotReadyError",
    "PlayerState",
    "Rules",
    "Square",
    "Trade",
    "Transfer",
    "UnknownKeyError",
    "UnknownNameError",
    "load_board",
    "standard_board",
]
