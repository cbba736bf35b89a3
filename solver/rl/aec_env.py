"""A PettingZoo AEC environment over the reference engine, with action masks.

:class:`MonopolyAECEnv` lets a learner play seats of a :class:`engine.rules.game.Game`
one decision at a time (the Agent Environment Cycle of PettingZoo: ``reset``,
then ``last``/``step`` for ``agent_selection`` until ``agents`` is empty). It
passes ``pettingzoo.test.api_test`` and ``pettingzoo.test.seed_test``
(``tests/solver/test_rl_env.py``); ``docs/rl.md`` holds the tables and the
example ``examples/rl_random_vs_subgraph.py``. PettingZoo and Gymnasium are the
optional ``[rl]`` extra: without them this module raises an
:class:`ImportError` naming ``pip install -e '.[rl]'``.

Design decisions
----------------
Seats and agents
    The seats are ``player_0`` .. ``player_{n-1}`` (seat ``i`` is the state's
    player ``i``; the state may name its players otherwise, the seat names do
    not change). ``n`` is ``n_players`` (2..8, default 4) or the start
    state's player count. Seats given in ``opponents`` (an agent spec of
    :mod:`solver.agents.registry` such as ``"subgraph:rollouts=8"``, or a
    factory ``f(seed) -> Agent``) are played inside the engine by that agent
    and are not PettingZoo agents: ``possible_agents`` lists the other seats
    only (at least one). Agent instances are not accepted, since an agent
    keeps memory across games; the factory builds a fresh one at every
    ``reset``. A seat already bankrupt in the start state is not in
    ``agents``.
Turning the engine loop into steps
    The engine calls its agents synchronously from deep inside a turn
    (``_land`` -> ``_pay`` -> ``_raise_cash`` -> ``raise_cash``), so it cannot
    be turned into a generator without rewriting it. Each episode runs the
    unchanged engine in one worker thread whose learner seats are stand-in
    agents (:class:`_LearnerSeat`): a decision method posts the question on a
    queue and blocks until the environment posts the answer. The two threads
    strictly alternate (the environment waits while the engine runs and the
    engine waits while the learner decides), so a game is as deterministic as
    a plain ``Game.play``, and the state is only read while the engine
    thread is blocked. ``reset`` and ``close`` end the worker (an abort
    answer unwinds it) and join it; a garbage-collected environment does the
    same through :func:`weakref.finalize`. An exception raised in the engine
    thread (an opponent agent's bug) is raised again by the ``step`` or
    ``reset`` that was waiting for it.
Decisions and the action space
    Every question the engine asks a learner seat is one step of that seat,
    and ``step(action)`` answers it. The action space is one
    ``Discrete(N)`` with a fixed layout (:class:`ActionLayout`,
    ``N = 19 + 4 P`` where ``P`` is the board's property count: 131 on the
    standard board), whose meaning depends on the pending decision (its
    kind is in the observation and in ``infos[agent]["decision"]``):

    ====================  =====================================================
    ``0`` pass            ``act``/``raise_cash``: end the phase (the engine
                          rolls, or liquidates in its fixed order); ``buy``:
                          decline (the lot is auctioned); ``auction``: no
                          bid; ``accept_trade``: refuse; ``lift_on_receipt``:
                          pay the interest only; ``building_bid``: not wanted
    ``1`` yes             buy at list price / accept the trade / lift the
                          mortgage now
    ``2`` ``3`` ``4``     jail: roll for doubles / pay the fine / use a Get
                          Out of Jail Free card
    ``5`` .. ``12``       auction: bid up to 25, 50, 75, 100, 125, 150, 200 %
                          of the lot's list price (:data:`BID_FRACTIONS`,
                          rounded, at least $1), or all of its cash
    ``13`` .. ``18``      shortage auction of a building: premium above list
                          price of $0, 10, 25, 50, 100, 200
                          (:data:`BUILDING_PREMIUMS`)
    ``19 + k``            build on the ``k``-th property square (``act``;
                          ``place_building``: place the won building there)
    ``19 + P + k``        sell one building level on it
    ``19 + 2P + k``       mortgage it
    ``19 + 3P + k``       lift its mortgage
    ====================  =====================================================

    The mask marks exactly the actions the engine accepts now
    (:mod:`engine.rules.legal`'s listings for squares; a bid at most the seat's
    cash; paying the fine only with the cash for it, a card only when held;
    ``place_building`` has no pass). A masked-out action raises
    :class:`models.errors.IllegalActionError` and leaves the environment as
    it was. Proposing trades is not in the action space (a learner seat
    never proposes); being asked to accept one is (``accept_trade``, the
    trade in the observation and in ``infos``). Bids and premiums above
    what the engine allows are capped by the engine as for any agent.
Observations
    ``observe(agent)`` is a ``Dict`` with ``"observation"`` (a ``float32``
    Box, :class:`ObservationLayout`, from the observing seat's point of view:
    players are listed from that seat on and owners are relative seats) and
    ``"action_mask"`` (an ``int8`` Box of 0/1, all zeros for a seat that is
    not deciding). ``infos[agent]`` holds ``"action_mask"`` (the same
    mask), ``"state"`` (:func:`models.io.state_to_dict` of the live state:
    one dict shared by every agent for that step, copy it before changing
    it), ``"decision"`` (the pending question in words: kind, square,
    amount owed, building, trade) and, once the game is over, ``"result"``
    (:meth:`engine.rules.game.GameResult.to_dict`). The state dict is read while
    the engine waits inside a turn: it loads with :func:`models.io.load_state`
    except in the one window where it breaks the file's turn rule: the
    decisions left in a turn whose player went bankrupt (the auctions of its
    returned lots, a creditor's mortgaged receipts), while the bankrupt is
    still ``to_move``.
Rewards, termination, truncation
    A learner seat that goes bankrupt gets -1 and is terminated at the next
    step. When the engine ends the game (one player left; or the engine's
    round cap ``max_rounds``, the rules' ``round_limit`` or ``cash_target``,
    won by net worth), the winner gets +1 and every other live learner seat
    -1, and all are terminated. After
    ``max_turns`` engine turns (a turn is one :meth:`engine.rules.game.Game.play_turn`,
    doubles included) the game is cut off: every live learner seat is
    truncated with reward 0. When no learner seat is left (every one
    bankrupt), the engine's game among the opponents is abandoned at once
    (``infos`` then carry no ``"result"``). Rewards are never given
    elsewhere (a sparse win/loss signal).
Seeding
    ``reset(seed=S)`` plays game 0 of a run seeded ``S`` and each later
    ``reset()`` without a seed the next game (game ``i`` is seeded
    ``SeedSequence([S, i])``, :func:`engine.rules.seeding.game_seed_sequence`, as
    in tournaments); from it :func:`engine.rules.seeding.game_seeds` derives the
    dice-and-cards stream and one seed per seat for the opponents' agents. A
    first ``reset()`` without a seed draws ``S`` from the operating system.
    The same seed and the same actions give the same trajectory.
    ``options`` is accepted and ignored.
Rendering
    ``render_mode="ansi"``: ``render()`` returns a text summary (round,
    players, holdings, the pending decision and its legal actions, the last
    events). ``None`` (the default): ``render()`` warns and returns ``None``.
    There is no graphical mode.
"""

from __future__ import annotations

import operator
import queue
import threading
import weakref
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from os import PathLike
from typing import Any, ClassVar

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"solver.rl needs PettingZoo and Gymnasium ({err.name or err} is missing): pip install -e '.[rl]'"
    ) from err

from engine.rules import legal
from engine.rules.actions import (
    Action,
    Build,
    Event,
    JailChoice,
    Mortgage,
    SellBuilding,
    Unmortgage,
)
from engine.rules.agents import Agent, BaseAgent
from engine.rules.game import Game, GameResult
from engine.rules.seeding import SeedLike, game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from engine.rules.view import GameView
from models.board import HOTEL
from models.errors import IllegalActionError
from models.io import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    load_state,
    state_to_dict,
    validate_state,
)
from models.state import BANK, GameState
from models.trade import Trade

__all__ = [
    "BID_FRACTIONS",
    "BUILDING_PREMIUMS",
    "DECISION_KINDS",
    "LOSS",
    "WIN",
    "ActionLayout",
    "MonopolyAECEnv",
    "ObservationLayout",
    "UnknownSeatError",
    "env",
    "raw_env",
]

BID_FRACTIONS = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
"""Auction bid levels as fractions of the lot's list price (an all-cash level follows them)."""
BUILDING_PREMIUMS = (0, 10, 25, 50, 100, 200)
"""Premiums above list price offered in a building-shortage auction."""
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
"""The questions the engine asks (``none``: the seat is not deciding), in the order of the observation's one-hot."""
WIN = 1.0
"""Reward of the seat that wins the game."""
LOSS = -1.0
"""Reward of a learner seat that goes bankrupt or loses the game."""
MONEY_SCALE = 1500.0
"""Dollars are divided by this (the starting cash) in the observation."""
_BIG = 1e6
"""Bound of the observation's unbounded entries (money, counts)."""

StartState = GameState | Mapping[str, Any] | str | PathLike[str]
OpponentSpec = str | Callable[[SeedLike], Agent]


class UnknownSeatError(ValueError):
    """A seat or agent name that is not ``player_0`` .. ``player_{n-1}`` of this environment (one line)."""


class ActionLayout:
    """The fixed layout of the ``Discrete`` action space for a board.

    Parameters
    ----------
    property_squares:
        The board's property squares, in board order; slot ``k`` of the four
        square blocks is ``property_squares[k]``.
    """

    PASS = 0
    YES = 1
    JAIL_ROLL = 2
    JAIL_PAY = 3
    JAIL_CARD = 4
    BID = 5

    def __init__(self, property_squares: tuple[int, ...]) -> None:
        self.squares = tuple(property_squares)
        self.slot = {sq: k for k, sq in enumerate(self.squares)}
        p = len(self.squares)
        self.all_in = self.BID + len(BID_FRACTIONS)
        self.premium = self.all_in + 1
        self.build = self.premium + len(BUILDING_PREMIUMS)
        self.sell = self.build + p
        self.mortgage = self.sell + p
        self.unmortgage = self.mortgage + p
        self.size = self.unmortgage + p

    def names(self, square_names: Mapping[int, str]) -> list[str]:
        """A short name for every action (``build:Baltic Avenue``), in index order."""
        out = ["pass", "yes", "jail:roll", "jail:pay", "jail:card"]
        out += [f"bid:{f:g}x" for f in BID_FRACTIONS] + ["bid:all-cash"]
        out += [f"premium:${v}" for v in BUILDING_PREMIUMS]
        for what in ("build", "sell", "mortgage", "unmortgage"):
            out += [f"{what}:{square_names[sq]}" for sq in self.squares]
        return out


@dataclass(frozen=True)
class ObservationLayout:
    """Where each part of the ``"observation"`` vector lies (``n`` players, board of ``S`` squares, ``P`` properties).

    Blocks, in order (money is divided by :data:`MONEY_SCALE`):

    players
        ``n`` rows of ``7 + S`` from the observing seat on (row ``r`` is seat
        ``(me + r) % n``): cash, net worth, in jail, failed jail rolls, jail
        cards held, bankrupt, to move, then the position one-hot.
    properties
        ``P`` rows of ``n + 2``: owner one-hot by relative seat (all zero: the
        bank), building level / 5 (a hotel is 1), mortgaged.
    globals
        6 entries: phase is ``rolled``, doubles rolled this turn, round /
        ``max_rounds``, engine turns / ``max_turns`` (0 without a cap),
        houses and hotels left in the bank as fractions of the supply.
    decision
        ``10 + 2P + 4`` entries: the pending decision's kind one-hot
        (:data:`DECISION_KINDS`), the square it is about (a lot offered,
        auctioned or received mortgaged) one-hot over the properties, the
        amount owed (``raise_cash``), a hotel flag (building auctions), then
        the trade being proposed (``accept_trade``): per property +1 if this
        seat receives it, -1 if it gives it, the seat's net cash and net jail
        cards.
    """

    n: int
    board_size: int
    n_properties: int

    @property
    def player_width(self) -> int:
        return 7 + self.board_size

    @property
    def players(self) -> slice:
        return slice(0, self.n * self.player_width)

    @property
    def properties(self) -> slice:
        start = self.players.stop
        return slice(start, start + self.n_properties * (self.n + 2))

    @property
    def globals(self) -> slice:
        start = self.properties.stop
        return slice(start, start + 6)

    @property
    def decision(self) -> slice:
        start = self.globals.stop
        return slice(start, start + len(DECISION_KINDS) + 2 * self.n_properties + 4)

    @property
    def size(self) -> int:
        return self.decision.stop

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` of every entry (0..1 for flags and fractions, finite wide bounds for money and counts)."""
        low = np.zeros(self.size, dtype=np.float32)
        high = np.ones(self.size, dtype=np.float32)
        w = self.player_width
        for r in range(self.n):
            high[r * w : r * w + 2] = _BIG  # cash, net worth
            high[r * w + 3 : r * w + 5] = _BIG  # failed jail rolls, jail cards
        g = self.globals.start
        high[g + 1] = _BIG  # doubles rolled
        d = self.decision.start + len(DECISION_KINDS) + self.n_properties
        high[d] = _BIG  # amount owed
        t = d + 2
        low[t : t + self.n_properties] = -1.0
        low[t + self.n_properties : t + self.n_properties + 2] = -_BIG
        high[t + self.n_properties : t + self.n_properties + 2] = _BIG
        return low, high


# ---------------------------------------------------------------------------
# The engine thread
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Request:
    """A question the engine asks a learner seat."""

    seat: int
    kind: str
    square: int | None = None
    owed: int = 0
    trade: Trade | None = None
    building: str | None = None


class _Abort(BaseException):
    """Raised in the engine thread when the environment abandons the game (``reset``, ``close``).

    A ``BaseException``, so that no agent's ``except Exception`` swallows it."""


class _NoLearnerLeft(BaseException):
    """Raised in the engine thread when the last learner seat went bankrupt and the game would go on."""


_ABORT = object()


class _EngineRunner:
    """Runs one game in a worker thread, pausing at every learner seat's decision.

    Messages to the environment: ``("ask", _Request)``, ``("over", None)`` (the
    engine ended the game or ``max_turns`` cut it: see ``truncated``),
    ``("abandoned", None)`` (no learner seat left) and ``("error", exception)``.
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

    def ask(self, request: _Request) -> Any:
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


class _LearnerSeat(BaseAgent):
    """The engine-side stand-in of a learner seat: every decision is a question to the environment.

    A ``BaseAgent``, so that a decision the engine may add later falls back to
    its passive default instead of failing."""

    name = "learner"

    def __init__(self, runner: _EngineRunner, seat: int, seed: SeedLike) -> None:
        super().__init__(seed)
        self._runner = runner
        self._seat = seat

    def _ask(self, kind: str, **data: Any) -> Any:
        return self._runner.ask(_Request(self._seat, kind, **data))

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


# ---------------------------------------------------------------------------
# The environment
# ---------------------------------------------------------------------------


def _seat_name(i: int) -> str:
    return f"player_{i}"


class MonopolyAECEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment: learner seats answer the engine's questions one step at a time.

    See the module docstring for every design decision (seats, steps, the
    action layout, rewards, seeding) and ``docs/rl.md`` for the tables.

    Parameters
    ----------
    n_players:
        Seats (2..8); default 4, or the start state's player count (a
        different number with a start state is refused).
    start_state:
        The position every episode starts from: a :class:`GameState`, a
        ``monopoly-state/1`` document, or a path to one; default the
        standard opening (everyone on Go with $1,500, seats named
        ``player_0``..). Its board and rules are the game's.
    opponents:
        Seats played by engine agents: ``{"player_1": "subgraph:rollouts=8"}``
        (a spec of :mod:`solver.agents.registry`) or a factory
        ``f(seed) -> Agent``. The other seats are the PettingZoo agents.
    max_turns:
        Engine turns after which the game is cut off (truncation, reward 0);
        ``None``: no cut.
    max_rounds:
        The engine's own round cap: the game ends there, won by net worth
        (termination, +1/-1).
    render_mode:
        ``None`` or ``"ansi"``.

    Raises
    ------
    ValueError
        Bad counts or caps, a start state with fewer than two active players
        or no active learner seat, every seat given to an opponent.
    UnknownSeatError
        An ``opponents`` key that is no seat.
    TypeError
        An ``opponents`` value that is neither a spec string nor callable.
    solver.agents.registry.UnknownAgentError
        An opponent spec the registry refuses.
    models.errors.InvalidStateError
        A start state that breaks the state format.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "monopoly_aec_v0", "is_parallelizable": False}

    def __init__(
        self,
        n_players: int | None = None,
        *,
        start_state: StartState | None = None,
        opponents: Mapping[str, OpponentSpec] | None = None,
        max_turns: int | None = 1000,
        max_rounds: int = 1000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        state = self._start_state(n_players, start_state)
        n = len(state.players)
        if max_turns is not None and (isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1):
            raise ValueError(f"max_turns must be a positive integer or None, got {max_turns!r}")
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
            raise ValueError(f"max_rounds must be a positive integer, got {max_rounds!r}")
        if state.round >= max_rounds:
            raise ValueError(f"the start state's round {state.round} is at or past max_rounds {max_rounds}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if len(state.active_players()) < 2:
            raise ValueError("the start state needs at least two active players")
        self._start = state
        self.n_players = n
        self.max_turns = max_turns
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self._seat_names = [_seat_name(i) for i in range(n)]
        self._seat_of = {self._seat_names[i]: i for i in range(n)}
        self._opponents = self._opponent_factories(opponents or {})
        learners = [i for i in range(n) if i not in self._opponents]
        if not learners:
            raise ValueError("every seat is an opponent: leave at least one seat to the learner")
        if all(state.players[i].bankrupt for i in learners):
            raise ValueError("every learner seat is bankrupt in the start state")
        self._learner_seats = frozenset(learners)
        self.possible_agents = [self._seat_names[i] for i in learners]

        board = state.board
        self.layout = ActionLayout(tuple(board.property_squares))
        self.action_names = self.layout.names({sq: board.squares[sq].name for sq in board.property_squares})
        self.obs_layout = ObservationLayout(n, board.size, len(self.layout.squares))
        low, high = self.obs_layout.bounds()
        self._action_spaces = {a: spaces.Discrete(self.layout.size) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(self.layout.size,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._props = np.array(self.layout.squares, dtype=np.intp)
        self._base_seed: int | None = None
        self._episode = 0
        self._runner: _EngineRunner | None = None
        self._finalizer: weakref.finalize | None = None
        self._pending: _Request | None = None
        self._mask = np.zeros(self.layout.size, dtype=np.int8)
        self._state_doc: dict[str, Any] | None = None
        self.result: GameResult | None = None
        """The engine's result once it ended the game (``None`` while playing, after a cut or an abandon)."""
        self.agents = []
        self.rewards = {}
        self._cumulative_rewards = {}
        self.terminations = {}
        self.truncations = {}
        self.infos = {}
        self.agent_selection = self.possible_agents[0]
        self._skip_agent_selection = None

    # -- construction helpers --------------------------------------------------
    @staticmethod
    def _start_state(n_players: int | None, start_state: StartState | None) -> GameState:
        if n_players is not None and (
            isinstance(n_players, bool) or not isinstance(n_players, int) or not MIN_PLAYERS <= n_players <= MAX_PLAYERS
        ):
            raise ValueError(f"n_players must be an integer in {MIN_PLAYERS}..{MAX_PLAYERS}, got {n_players!r}")
        if start_state is None:
            return GameState.new_game([_seat_name(i) for i in range(n_players or 4)])
        if isinstance(start_state, GameState):
            state = start_state.copy()
            validate_state(state)
        else:
            state = load_state(start_state)
        if n_players is not None and n_players != len(state.players):
            raise ValueError(f"n_players is {n_players} but the start state has {len(state.players)} players")
        return state

    def _opponent_factories(self, opponents: Mapping[str, OpponentSpec]) -> dict[int, Callable[[SeedLike], Agent]]:
        out: dict[int, Callable[[SeedLike], Agent]] = {}
        for name, spec in opponents.items():
            seat = self._seat(name)
            if isinstance(spec, str):
                from solver.agents.registry import factory

                out[seat] = factory(spec)
            elif callable(spec):
                out[seat] = spec
            else:
                raise TypeError(f"opponent of {name}: expected an agent spec string or a factory, got {type(spec).__name__}")
        return out

    def _seat(self, agent: str) -> int:
        try:
            return self._seat_of[agent]
        except (KeyError, TypeError):
            raise UnknownSeatError(
                f"unknown seat {agent!r} (seats: {', '.join(self._seat_names)})"
            ) from None

    # -- spaces ----------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The ``Dict`` observation space of a learner seat (the same object at every call)."""
        try:
            return self._observation_spaces[agent]
        except (KeyError, TypeError):
            raise UnknownSeatError(f"{agent!r} is not a learner seat (agents: {', '.join(self.possible_agents)})") from None

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The ``Discrete`` action space of a learner seat (the same object at every call)."""
        try:
            return self._action_spaces[agent]
        except (KeyError, TypeError):
            raise UnknownSeatError(f"{agent!r} is not a learner seat (agents: {', '.join(self.possible_agents)})") from None

    # -- episode -----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (see Seeding in the module docstring); ``options`` is ignored.

        Raises
        ------
        ValueError
            A seed that is not a non-negative integer.
        """
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
            self._base_seed, self._episode = int(seed), 0
        elif self._base_seed is None:
            self._base_seed, self._episode = int(np.random.SeedSequence().entropy), 0  # type: ignore[arg-type]
        else:
            self._episode += 1
        self._stop()
        stream_seed, seat_seeds = game_seeds(game_seed_sequence(self._base_seed, self._episode), self.n_players)
        runner = _EngineRunner(self._learner_seats, self.max_turns)
        seats: list[Agent] = [
            self._opponents[i](seat_seeds[i]) if i in self._opponents else _LearnerSeat(runner, i, seat_seeds[i])
            for i in range(self.n_players)
        ]
        state = self._start.copy()
        game = Game(state, seats, SeededStream(stream_seed), max_rounds=self.max_rounds, observers=[runner.observe])
        self._runner = runner
        self._finalizer = weakref.finalize(self, runner.stop)
        self.result = None
        self.agents = [a for a in self.possible_agents if not state.players[self._seat_of[a]].bankrupt]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._skip_agent_selection = None
        self._absorb(runner.start(game))
        self._accumulate_rewards()

    def step(self, action: Any) -> None:
        """Answer the pending decision of ``agent_selection`` (``None`` for a terminated or truncated agent).

        Raises
        ------
        models.errors.IllegalActionError
            An action that is not an integer in range, or that the mask rules
            out now; the environment is unchanged.
        RuntimeError
            ``step`` before ``reset``, or after the episode ended.
        """
        if self._runner is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the episode is over: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        request = self._pending
        assert request is not None and self._seat_names[request.seat] == agent
        index = self._check_action(agent, action)
        answer = self._answer(request, index)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._absorb(self._runner.answer(answer))
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The ``{"observation", "action_mask"}`` of a seat (see :class:`ObservationLayout`)."""
        seat = self._seat(agent)
        if self._runner is None or self._runner.game is None:
            raise RuntimeError("call reset() before observe()")
        return {"observation": self._encode(seat), "action_mask": self._mask_of(seat)}

    def close(self) -> None:
        """End the engine thread of the current game, if any."""
        self._stop()

    def render(self) -> str | None:
        """The ``"ansi"`` text of the position and the pending decision (``None``, with a warning, without a mode)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: pass render_mode='ansi' to the constructor")
            return None
        if self._runner is None or self._runner.game is None:
            return "(no game: call reset())"
        return self._text()

    # -- the engine side of a step ----------------------------------------------
    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # runs runner.stop once
            self._finalizer = None

    def _absorb(self, message: tuple[str, Any]) -> None:
        """Take the engine's next message: pending decision, bankruptcies, end of the game, infos."""
        kind, payload = message
        runner = self._runner
        assert runner is not None and runner.game is not None
        game = runner.game
        players = game.state.players
        self._pending = None
        if kind == "error":
            self._stop()
            self._runner = None
            raise payload
        if kind == "ask":
            self._pending = payload
            self._mask = self._legal_mask(payload)
        live = [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]
        for a in live:
            if players[self._seat_of[a]].bankrupt:
                self.terminations[a] = True
                self.rewards[a] += LOSS
        if kind in ("over", "abandoned"):
            self.result = game.result
            if runner.truncated:
                for a in live:
                    self.truncations[a] = not self.terminations[a]
            else:
                winner = game.result.winner_index if game.result is not None else None
                for a in live:
                    if self.terminations[a]:
                        continue
                    self.terminations[a] = True
                    self.rewards[a] += WIN if self._seat_of[a] == winner else (LOSS if winner is not None else 0.0)
        self._state_doc = state_to_dict(game.state)
        for a in self.agents:
            info: dict[str, Any] = {
                "action_mask": self._mask_of(self._seat_of[a]),
                "state": self._state_doc,
                "decision": self._decision_info(self._seat_of[a]),
            }
            if self.result is not None:
                info["result"] = self.result.to_dict()
            self.infos[a] = info
        if self._pending is not None:
            self.agent_selection = self._seat_names[self._pending.seat]
        self._deads_step_first()

    def _mask_of(self, seat: int) -> np.ndarray:
        if self._pending is not None and self._pending.seat == seat:
            return self._mask.copy()
        return np.zeros(self.layout.size, dtype=np.int8)

    def _legal_mask(self, request: _Request) -> np.ndarray:
        """The mask of the pending decision: exactly the answers the engine accepts."""
        assert self._runner is not None and self._runner.game is not None
        s = self._runner.game.state
        lay = self.layout
        p = request.seat
        cash = s.players[p].cash
        mask = np.zeros(lay.size, dtype=np.int8)
        kind = request.kind
        if kind in ("act", "raise_cash"):
            mask[lay.PASS] = 1
            for sq in legal.legal_building_sales(s, p):
                mask[lay.sell + lay.slot[sq]] = 1
            for sq in legal.legal_mortgages(s, p):
                mask[lay.mortgage + lay.slot[sq]] = 1
            if kind == "act":
                for sq in legal.legal_builds(s, p):
                    mask[lay.build + lay.slot[sq]] = 1
                for sq in legal.legal_unmortgages(s, p):
                    mask[lay.unmortgage + lay.slot[sq]] = 1
        elif kind in ("buy", "accept_trade", "lift_on_receipt"):
            mask[lay.PASS] = mask[lay.YES] = 1
        elif kind == "auction":
            mask[lay.PASS] = 1
            assert request.square is not None
            for i in range(len(BID_FRACTIONS)):
                if self._bid(request.square, i) <= cash:
                    mask[lay.BID + i] = 1
            if cash >= 1:
                mask[lay.all_in] = 1
        elif kind == "jail":
            mask[lay.JAIL_ROLL] = 1
            if cash >= s.rules.jail_fine:
                mask[lay.JAIL_PAY] = 1
            if s.players[p].jail_cards > 0:
                mask[lay.JAIL_CARD] = 1
        elif kind == "building_bid":
            mask[lay.PASS] = 1
            for i, premium in enumerate(BUILDING_PREMIUMS):
                if premium <= cash:
                    mask[lay.premium + i] = 1
        elif kind == "place_building":
            hotel = request.building == "hotel"
            for sq in legal.legal_builds(s, p):
                if (s.houses[sq] == HOTEL - 1) == hotel:
                    mask[lay.build + lay.slot[sq]] = 1
        else:  # pragma: no cover - every question of _LearnerSeat is listed above
            raise AssertionError(f"unknown decision {kind!r}")
        return mask

    def _bid(self, square: int, level: int) -> int:
        assert self._runner is not None and self._runner.game is not None
        price = self._runner.game.state.board.squares[square].price
        return max(1, round(BID_FRACTIONS[level] * price))

    def _check_action(self, agent: str, action: Any) -> int:
        if isinstance(action, (bool, np.bool_)):
            raise IllegalActionError(f"{agent}: action must be an integer index, got {action!r}")
        try:
            index = operator.index(action)
        except TypeError:
            raise IllegalActionError(f"{agent}: action must be an integer index, got {action!r}") from None
        if not 0 <= index < self.layout.size:
            raise IllegalActionError(f"{agent}: action {index} is outside 0..{self.layout.size - 1}")
        if not self._mask[index]:
            assert self._pending is not None
            legal = [self.action_names[i] for i in np.flatnonzero(self._mask)]
            shown = ", ".join(legal[:6]) + (f" and {len(legal) - 6} more" if len(legal) > 6 else "")
            raise IllegalActionError(
                f"{agent}: action {index} ({self.action_names[index]}) is not legal in this "
                f"{self._pending.kind} decision (legal: {shown})"
            )
        return index

    def _answer(self, request: _Request, index: int) -> Any:
        """The engine's answer for a legal action index."""
        lay = self.layout
        kind = request.kind
        if kind in ("buy", "accept_trade", "lift_on_receipt"):
            return index == lay.YES
        if kind == "jail":
            return {lay.JAIL_ROLL: "roll", lay.JAIL_PAY: "pay", lay.JAIL_CARD: "card"}[index]
        if kind == "auction":
            if index == lay.PASS:
                return 0
            if index == lay.all_in:
                assert self._runner is not None and self._runner.game is not None
                return self._runner.game.state.players[request.seat].cash
            assert request.square is not None
            return self._bid(request.square, index - lay.BID)
        if kind == "building_bid":
            return None if index == lay.PASS else BUILDING_PREMIUMS[index - lay.premium]
        if kind == "place_building":
            return lay.squares[index - lay.build]
        # act / raise_cash
        if index == lay.PASS:
            return None
        for start, make in ((lay.build, Build), (lay.sell, SellBuilding), (lay.mortgage, Mortgage), (lay.unmortgage, Unmortgage)):
            if start <= index < start + len(lay.squares):
                return make(lay.squares[index - start])
        raise AssertionError(f"action {index} in a {kind} decision")  # pragma: no cover - the mask rules it out

    # -- observations -------------------------------------------------------------
    def _decision_info(self, seat: int) -> dict[str, Any]:
        request = self._pending
        if request is None or request.seat != seat:
            return {"kind": "none"}
        assert self._runner is not None and self._runner.game is not None
        board = self._runner.game.state.board
        info: dict[str, Any] = {"kind": request.kind}
        if request.square is not None:
            info["square"] = request.square
            info["square_name"] = board.squares[request.square].name
        if request.kind == "raise_cash":
            info["owed"] = request.owed
        if request.building is not None:
            info["building"] = request.building
        if request.trade is not None:
            info["trade"] = request.trade.to_dict()
        return info

    def _encode(self, me: int) -> np.ndarray:
        assert self._runner is not None and self._runner.game is not None
        game = self._runner.game
        s = game.state
        lay = self.obs_layout
        n, nprop = lay.n, lay.n_properties
        obs = np.zeros(lay.size, dtype=np.float32)
        w = lay.player_width
        for r in range(n):
            i = (me + r) % n
            pl = s.players[i]
            row = r * w
            obs[row : row + 7] = (
                pl.cash / MONEY_SCALE,
                s.net_worth(i) / MONEY_SCALE,
                pl.in_jail,
                pl.jail_turns,
                pl.jail_cards,
                pl.bankrupt,
                s.to_move == i,
            )
            obs[row + 7 + pl.position] = 1.0
        owner = np.asarray(s.owner, dtype=np.intp)[self._props]
        rows = obs[lay.properties].reshape(nprop, n + 2)
        owned = owner != BANK
        rows[np.flatnonzero(owned), (owner[owned] - me) % n] = 1.0
        rows[:, n] = np.asarray(s.houses, dtype=np.float32)[self._props] / HOTEL
        rows[:, n + 1] = np.asarray(s.mortgaged, dtype=np.float32)[self._props]
        g = lay.globals.start
        obs[g : g + 6] = (
            s.phase == "rolled",
            s.doubles_rolled,
            min(1.0, s.round / self.max_rounds),
            min(1.0, game.turns / self.max_turns) if self.max_turns else 0.0,
            s.houses_in_bank() / s.rules.houses if s.rules.houses else 0.0,
            s.hotels_in_bank() / s.rules.hotels if s.rules.hotels else 0.0,
        )
        d = lay.decision.start
        request = self._pending
        if request is None or request.seat != me:
            obs[d] = 1.0  # kind "none"
            return obs
        obs[d + DECISION_KINDS.index(request.kind)] = 1.0
        d += len(DECISION_KINDS)
        if request.square is not None:
            obs[d + self.layout.slot[request.square]] = 1.0
        d += nprop
        obs[d] = request.owed / MONEY_SCALE
        obs[d + 1] = request.building == "hotel"
        d += 2
        if request.trade is not None:
            name = s.players[me].name
            for prop in request.trade.properties_received(name):
                obs[d + self.layout.slot[s.square_of(prop)]] = 1.0
            for prop in request.trade.properties_given(name):
                obs[d + self.layout.slot[s.square_of(prop)]] = -1.0
            obs[d + nprop] = request.trade.net_cash(name) / MONEY_SCALE
            obs[d + nprop + 1] = request.trade.net_jail_cards(name)
        return obs

    def _text(self) -> str:
        assert self._runner is not None and self._runner.game is not None
        game = self._runner.game
        s = game.state
        lines = [f"round {s.round}, turn {game.turns}, {s.players[s.to_move].name} to move ({s.phase})"]
        for i, pl in enumerate(s.players):
            props = ", ".join(
                s.board.squares[sq].name + (f" [{s.houses[sq]}]" if s.houses[sq] else "") + (" (m)" if s.mortgaged[sq] else "")
                for sq in s.properties_of(i)
            )
            flags = " BANKRUPT" if pl.bankrupt else (" in jail" if pl.in_jail else "")
            where = s.board.squares[pl.position].name
            lines.append(f"  {self._seat_names[i]} {pl.name}: ${pl.cash} on {where}{flags}; {props or 'no property'}")
        if self._pending is not None:
            legal = [self.action_names[i] for i in np.flatnonzero(self._mask)]
            info = self._decision_info(self._pending.seat)
            detail = ", ".join(f"{k}={v}" for k, v in info.items() if k != "kind")
            lines.append(f"decision: {self._seat_names[self._pending.seat]} {self._pending.kind} {detail}".rstrip())
            lines.append(f"  legal: {', '.join(legal)}")
        elif self.result is not None:
            lines.append(f"over: {self.result.winner} wins ({self.result.reason})")
        for event in self._runner.events:
            who = s.players[event.player].name if event.player is not None else "-"
            data = ", ".join(f"{k}={v}" for k, v in event.data.items() if k != "trade")
            lines.append(f"  . {event.kind} {who} {data}".rstrip())
        return "\n".join(lines)


def raw_env(**kwargs: Any) -> MonopolyAECEnv:
    """The environment without wrappers (PettingZoo's naming convention); keyword arguments as :class:`MonopolyAECEnv`."""
    return MonopolyAECEnv(**kwargs)


def env(**kwargs: Any) -> MonopolyAECEnv:
    """The environment (no wrapper is added: the mask already rules out illegal moves, and they raise)."""
    return MonopolyAECEnv(**kwargs)
