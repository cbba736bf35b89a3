"""The engine side of :class:`solver.rl.aec_env.MonopolyAECEnv`: one game in a worker thread, paused at every learner decision.

The engine calls its agents synchronously from deep inside a turn
(``_land`` -> ``_pay`` -> ``_raise_cash`` -> ``raise_cash``), so it cannot be
turned into a generator without rewriting it. Each episode runs the unchanged
engine in one worker thread (:class:`EngineRunner`) whose learner seats are
stand-in agents (:class:`LearnerSeat`): a decision method posts the question
(a :class:`Request`) on a queue and blocks until the environment posts the
answer. The two threads strictly alternate (the environment waits while the
engine runs and the engine waits while the learner decides), so a game is as
deterministic as a plain :meth:`engine.rules.game.Game.play`, and the state is
only read while the engine thread is blocked.

Ending a game early uses two private ``BaseException`` signals, raised and
caught in the engine thread only (``BaseException``, so that no agent's
``except Exception`` swallows them): ``_Abort`` when the environment abandons
the game (``reset``, ``close``: :meth:`EngineRunner.stop`) and
``_NoLearnerLeft`` when the last learner seat went bankrupt while the game
would go on. Any other exception of the engine thread (an opponent agent's
bug) is handed to the environment's thread, which raises it again.

This module needs neither PettingZoo nor Gymnasium.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any

from engine.rules.actions import Action, Event, JailChoice
from engine.rules.agents import BaseAgent
from engine.rules.game import Game
from engine.rules.seeding import SeedLike
from engine.rules.view import GameView
from models.board import Board
from models.trade import Trade

__all__ = ["DECISION_KINDS", "EngineRunner", "LearnerSeat", "Request"]

DECISION_KINDS = (
    "none",
    "act",
    "raise_cash",
    "buy",
    "auction",
    "jail",
    "accept_trade",
    "lift_on_receipt",
    "building_bid",
    "place_building",
)
"""The questions the engine asks (``none``: the seat is not deciding), in the order of the observation's one-hot.

Every kind but ``none`` is the name of one decision method of :class:`LearnerSeat`."""


@dataclass(frozen=True)
class Request:
    """A question the engine asks a learner seat.

    Parameters
    ----------
    seat:
        The seat that decides.
    kind:
        One of :data:`DECISION_KINDS` (not ``none``).
    square:
        The lot offered (``buy``), auctioned (``auction``) or received mortgaged (``lift_on_receipt``).
    owed:
        The amount owed (``raise_cash``).
    trade:
        The trade proposed to the seat (``accept_trade``).
    building:
        ``"house"`` or ``"hotel"`` (``building_bid``, ``place_building``).
    """

    seat: int
    kind: str
    square: int | None = None
    owed: int = 0
    trade: Trade | None = None
    building: str | None = None

    def describe(self, board: Board) -> dict[str, Any]:
        """The question in words, as ``infos[agent]["decision"]``: kind, square and its name, owed, building, trade.

        Parameters
        ----------
        board:
            The game's board (for the square's name).

        Returns
        -------
        dict
            ``kind`` always; ``square`` and ``square_name`` when the question is
            about a lot, ``owed`` for ``raise_cash``, ``building`` and ``trade``
            (:meth:`models.trade.Trade.to_dict`) when set.

        Examples
        --------
        >>> from models.board import standard_board
        >>> Request(0, "buy", square=1).describe(standard_board())
        {'kind': 'buy', 'square': 1, 'square_name': 'Mediterranean Avenue'}
        """
        info: dict[str, Any] = {"kind": self.kind}
        if self.square is not None:
            info["square"] = self.square
            info["square_name"] = board.squares[self.square].name
        if self.kind == "raise_cash":
            info["owed"] = self.owed
        if self.building is not None:
            info["building"] = self.building
        if self.trade is not None:
            info["trade"] = self.trade.to_dict()
        return info


class _Abort(BaseException):
    """Raised in the engine thread when the environment abandons the game (``reset``, ``close``).

    A ``BaseException``, so that no agent's ``except Exception`` swallows it."""


class _NoLearnerLeft(BaseException):
    """Raised in the engine thread when the last learner seat went bankrupt and the game would go on."""


_ABORT = object()
"""The answer that tells a waiting :meth:`EngineRunner.ask` to unwind the engine thread."""


class EngineRunner:
    """Runs one game in a worker thread, pausing at every learner seat's decision.

    Messages to the environment: ``("ask", Request)``, ``("over", None)`` (the
    engine ended the game or ``max_turns`` cut it: see ``truncated``),
    ``("abandoned", None)`` (no learner seat left) and ``("error", exception)``.

    Parameters
    ----------
    learner_seats:
        The seats played by :class:`LearnerSeat` (the game is abandoned once all are bankrupt).
    max_turns:
        Engine turns after which the game is cut off (``truncated``); ``None``: no cut.
    """

    def __init__(self, learner_seats: frozenset[int], max_turns: int | None) -> None:
        self.learner_seats = learner_seats
        self.max_turns = max_turns
        self.game: Game | None = None
        self.truncated = False
        self.events: deque[Event] = deque(maxlen=8)
        self._to_engine: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._to_env: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="monopoly-aec-engine", daemon=True)

    # -- engine side -----------------------------------------------------
    def observe(self, event: Event, game: Game) -> None:
        """Engine observer: keep the last events; abandon the game once no learner seat is left."""
        self.events.append(event)
        if event.kind != "bankrupt":
            return
        players = game.state.players
        if all(players[i].bankrupt for i in self.learner_seats) and len(game.state.active_players()) > 1:
            raise _NoLearnerLeft

    def ask(self, request: Request) -> Any:
        """Called in the engine thread by a learner seat: post the question, wait for the answer."""
        self._to_env.put(("ask", request))
        answer = self._to_engine.get()
        if answer is _ABORT:
            raise _Abort
        return answer

    def _run(self) -> None:
        game = self.game
        assert game is not None
        try:
            while not game.over:
                if self.max_turns is not None and game.turns >= self.max_turns:
                    self.truncated = True
                    break
                game.play_turn()
            message: tuple[str, Any] = ("over", None)
        except _Abort:
            return
        except _NoLearnerLeft:
            message = ("abandoned", None)
        except BaseException as exc:  # noqa: BLE001 - handed to the environment's thread, raised there
            message = ("error", exc)
        self._to_env.put(message)

    # -- environment side ------------------------------------------------
    def start(self, game: Game) -> tuple[str, Any]:
        """Start the game; return the first message."""
        self.game = game
        self._thread.start()
        return self._to_env.get()

    def answer(self, value: Any) -> tuple[str, Any]:
        """Answer the pending question; return the next message."""
        self._to_engine.put(value)
        return self._to_env.get()

    def stop(self) -> None:
        """Abandon the game and join the thread (idempotent)."""
        if self._thread.is_alive():
            self._to_engine.put(_ABORT)
            self._thread.join()


class LearnerSeat(BaseAgent):
    """The engine-side stand-in of a learner seat: every decision is a question to the environment.

    A ``BaseAgent``, so that a decision the engine may add later falls back to
    its passive default instead of failing.

    Parameters
    ----------
    runner:
        The runner whose :meth:`EngineRunner.ask` carries the questions.
    seat:
        The seat this agent plays.
    seed:
        The seat's seed (unused by the decisions, kept as for every agent).
    """

    name = "learner"

    def __init__(self, runner: EngineRunner, seat: int, seed: SeedLike) -> None:
        super().__init__(seed)
        self._runner = runner
        self._seat = seat

    def _ask(self, kind: str, **data: Any) -> Any:
        return self._runner.ask(Request(self._seat, kind, **data))

    def buy(self, view: GameView, square: int) -> bool:
        return bool(self._ask("buy", square=square))

    def auction_max(self, view: GameView, square: int) -> int:
        return int(self._ask("auction", square=square))

    def jail_choice(self, view: GameView) -> JailChoice:
        choice: JailChoice = self._ask("jail")
        return choice

    def act(self, view: GameView) -> Action | None:
        action: Action | None = self._ask("act")
        return action

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        return bool(self._ask("accept_trade", trade=trade))

    def lift_on_receipt(self, view: GameView, square: int) -> bool:
        return bool(self._ask("lift_on_receipt", square=square))

    def raise_cash(self, view: GameView, owed: int) -> Action | None:
        action: Action | None = self._ask("raise_cash", owed=owed)
        return action

    def building_bid(self, view: GameView, kind: str) -> int | None:
        premium: int | None = self._ask("building_bid", building=kind)
        return premium

    def place_building(self, view: GameView, kind: str) -> int:
        return int(self._ask("place_building", building=kind))
