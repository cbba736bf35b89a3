"""What a game is: boards, rules, states and trades (data only, no randomness).

Nothing here imports :mod:`engine` or :mod:`solver`.
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
    "UnknownNameError",
    "load_board",
    "standard_board",
]
