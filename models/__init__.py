"""What a game is: boards, rules, states and trades (data only, no randomness).

Nothing here imports :mod:`engine` or :mod:`solver`.
"""

from models.board import Board, Card, Square, load_board, standard_board
from models.errors import (
    IllegalActionError,
    InvalidStateError,
    InvalidTradeError,
    MonopolyError,
)
from models.rules import DiceSpec, Rules
from models.state import GameState, PlayerState
from models.trade import Trade, Transfer

__all__ = [
    "Board",
    "Card",
    "DiceSpec",
    "GameState",
    "IllegalActionError",
    "InvalidStateError",
    "InvalidTradeError",
    "MonopolyError",
    "PlayerState",
    "Rules",
    "Square",
    "Trade",
    "Transfer",
    "load_board",
    "standard_board",
]
