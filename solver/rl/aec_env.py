"""A PettingZoo AEC environment over the reference engine, with action masks.

:class:`MonopolyAECEnv` lets a learner play seats of a :class:`engine.rules.game.Game`
one decision at a time (the Agent Environment Cycle of PettingZoo: ``reset``,
then ``last``/``step`` for ``agent_selection`` until ``agents`` is empty). It
passes ``pettingzoo.test.api_test`` and ``pettingzoo.test.seed_test``
(``tests/solver/test_rl_env.py``); ``docs/rl.md`` holds the tables and the
example ``examples/rl_random_vs_subgraph.py``. PettingZoo and Gymnasium are the
optional ``[rl]`` extra: without them this module raises
:class:`solver.rl.errors.RLExtraNotInstalledError` (an :class:`ImportError`)
naming ``pip install -e '.[rl]'``.

This module holds the environment (the episode, rewards, seeding, ``infos``);
the other jobs are beside it and need no extra: :mod:`solver.rl.seats` (the
constructor's arguments), :mod:`solver.rl.engine_thread` (the engine in a
worker thread, the learner seats' questions), :mod:`solver.rl.actions` (the
action layout, masks and answers), :mod:`solver.rl.observation` (the
observation vector), :mod:`solver.rl.render` and :mod:`solver.rl.errors`.
The names a learner uses are importable from here too (:data:`__all__`).

Design decisions
----------------
Seats and agents
    The seats are ``player_0`` .. ``player_{n-1}`` (seat ``i`` is the state's
    player ``i``); seats given in ``opponents`` are played inside the engine
    by that agent, built afresh at every ``reset``, and are not PettingZoo
    agents: ``possible_agents`` lists the other seats only (at least one;
    :mod:`solver.rl.seats`). A seat already bankrupt in the start state is
    not in ``agents``.
Turning the engine loop into steps
    Each episode runs the unchanged engine in one worker thread
    (:class:`solver.rl.engine_thread.EngineRunner`) whose learner seats post
    their questions and wait for the answers; the threads strictly alternate,
    so a game is as deterministic as a plain ``Game.play``. ``reset`` and
    ``close`` end the worker and join it; a garbage-collected environment does
    the same through :func:`weakref.finalize`. An exception raised in the
    engine thread (an opponent agent's bug) is raised again by the ``step`` or
    ``reset`` that was waiting for it.
Decisions and the action space
    Every question the engine asks a learner seat is one step of that seat,
    and ``step(action)`` answers it. The action space is one ``Discrete(N)``
    with a fixed layout (:class:`solver.rl.actions.ActionLayout`, ``N = 19 + 4 P``
    where ``P`` is the board's property count: 131 on the standard board);
    the mask marks exactly the actions the engine accepts now, and a
    masked-out action raises :class:`models.errors.IllegalActionError` and
    leaves the environment as it was (:mod:`solver.rl.actions` holds the
    table). A learner seat never proposes trades; being asked to accept one
    is a decision (``accept_trade``, the trade in the observation and in
    ``infos``).
Observations
    ``observe(agent)`` is a ``Dict`` with ``"observation"`` (a ``float32``
    Box, :class:`solver.rl.observation.ObservationLayout`, from the observing
    seat's point of view) and ``"action_mask"`` (an ``int8`` Box of 0/1, all
    zeros for a seat that is not deciding). ``infos[agent]`` holds
    ``"action_mask"`` (the same mask), ``"state"``
    (:func:`models.io.state_to_dict` of the live state: one dict shared by
    every agent for that step, copy it before changing it), ``"decision"``
    (the pending question in words:
    :meth:`solver.rl.engine_thread.Request.describe`) and, once the game is
    over, ``"result"`` (:meth:`engine.rules.game.GameResult.to_dict`). The
    state dict is read while the engine waits inside a turn: it loads with
    :func:`models.io.load_state` except in the one window where it breaks the
    file's turn rule: the decisions left in a turn whose player went bankrupt
    (the auctions of its returned lots, a creditor's mortgaged receipts),
    while the bankrupt is still ``to_move``.
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

import weakref
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from solver.rl.errors import RLExtraNotInstalledError, UnknownSeatError

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise RLExtraNotInstalledError(
        f"solver.rl needs PettingZoo and Gymnasium ({err.name or err} is missing): pip install -e '.[rl]'"
    ) from err

from engine.rules.game import Game, GameResult
from engine.rules.protocol import Agent
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from models.errors import InvalidArgumentError, NotReadyError
from models.io import state_to_dict
from solver.rl import seats as seating
from solver.rl.actions import (
    BID_FRACTIONS,
    BUILDING_PREMIUMS,
    ActionLayout,
    check_action,
)
from solver.rl.engine_thread import DECISION_KINDS, EngineRunner, LearnerSeat, Request
from solver.rl.observation import ObservationEncoder, ObservationLayout
from solver.rl.render import ansi_text
from solver.rl.seats import OpponentSpec, StartState

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

WIN = 1.0
"""Reward of the seat that wins the game."""
LOSS = -1.0
"""Reward of a learner seat that goes bankrupt or loses the game."""


class MonopolyAECEnv(AECEnv):
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
    models.errors.InvalidArgumentError
        Bad counts or caps, a start state with fewer than two active players
        or no active learner seat, every seat given to an opponent (a
        :class:`ValueError`).
    solver.rl.errors.UnknownSeatError
        An ``opponents`` key that is no seat.
    solver.rl.errors.OpponentSpecError
        An ``opponents`` value that is neither a spec string nor callable (a
        :class:`TypeError`).
    solver.agents.registry.UnknownAgentError
        An opponent spec the registry refuses.
    models.errors.InvalidStateError
        A start state that breaks the state format.

    Examples
    --------
    A learner seat against the registry's random agent: the first question is
    ``act`` (build, sell, mortgage or pass) before the first roll, and only
    ``pass`` is legal on the opening board.

    >>> env = MonopolyAECEnv(n_players=2, opponents={"player_1": "random"}, max_turns=50)
    >>> env.reset(seed=0)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> env.agent_selection, info["decision"]["kind"], int(obs["action_mask"].sum())
    ('player_0', 'act', 1)
    >>> env.step(0)  # pass: the engine rolls, moves the seat and asks it again
    >>> env.infos["player_0"]["decision"]["kind"], env.infos["player_0"]["state"]["players"][0]["position"]
    ('act', 10)
    >>> env.close()
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
        state = seating.load_start_state(n_players, start_state)
        n = len(state.players)
        seating.check_caps(state, max_turns, max_rounds)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgumentError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if len(state.active_players()) < 2:
            raise InvalidArgumentError("the start state needs at least two active players")
        self._start = state
        self.n_players = n
        self.max_turns = max_turns
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self._seat_names = [seating.seat_name(i) for i in range(n)]
        self._seat_of = {self._seat_names[i]: i for i in range(n)}
        self._opponents = seating.opponent_factories(opponents or {}, self._seat_of)
        learners = seating.learner_seats(state, self._opponents)
        self._learner_seats = frozenset(learners)
        self.possible_agents = [self._seat_names[i] for i in learners]

        board = state.board
        self.layout = ActionLayout(tuple(board.property_squares))
        self.action_names = self.layout.names({sq: board.squares[sq].name for sq in board.property_squares})
        self.obs_layout = ObservationLayout(n, board.size, len(self.layout.squares))
        self._encoder = ObservationEncoder(self.obs_layout, self.layout.squares, max_rounds, max_turns)
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
        self._base_seed: int | None = None
        self._episode = 0
        self._runner: EngineRunner | None = None
        self._finalizer: weakref.finalize[..., MonopolyAECEnv] | None = None
        self._pending: Request | None = None
        self._mask = np.zeros(self.layout.size, dtype=np.int8)
        self._state_doc: dict[str, Any] | None = None
        self.result: GameResult | None = None
        """The engine's result once it ended the game (``None`` while playing, after a cut or an abandon)."""
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self._skip_agent_selection = None

    # -- spaces ----------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The ``Dict`` observation space of a learner seat (the same object at every call).

        Parameters
        ----------
        agent:
            A learner seat (one of ``possible_agents``).

        Returns
        -------
        gymnasium.spaces.Dict
            ``"observation"``: a ``float32`` ``Box`` with the bounds of
            :meth:`solver.rl.observation.ObservationLayout.bounds`;
            ``"action_mask"``: an ``int8`` ``Box`` of 0/1.

        Raises
        ------
        solver.rl.errors.UnknownSeatError
            ``agent`` is no learner seat (an opponent's seat included).

        Examples
        --------
        >>> MonopolyAECEnv(n_players=2).observation_space("player_0")["observation"].shape
        (282,)
        """
        try:
            return self._observation_spaces[agent]
        except (KeyError, TypeError):
            raise UnknownSeatError(f"{agent!r} is not a learner seat (agents: {', '.join(self.possible_agents)})") from None

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The ``Discrete`` action space of a learner seat (the same object at every call).

        Parameters
        ----------
        agent:
            A learner seat (one of ``possible_agents``).

        Returns
        -------
        gymnasium.spaces.Discrete
            ``Discrete(layout.size)``: 131 actions on the standard board (:mod:`solver.rl.actions`).

        Raises
        ------
        solver.rl.errors.UnknownSeatError
            ``agent`` is no learner seat (an opponent's seat included).

        Examples
        --------
        >>> int(MonopolyAECEnv(n_players=2).action_space("player_1").n)
        131
        """
        try:
            return self._action_spaces[agent]
        except (KeyError, TypeError):
            raise UnknownSeatError(f"{agent!r} is not a learner seat (agents: {', '.join(self.possible_agents)})") from None

    # -- episode -----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game and run the engine to the first learner decision (see Seeding in the module docstring).

        Parameters
        ----------
        seed:
            Plays game 0 of a run seeded ``seed``; ``None``: the run's next
            game (a first ``reset()`` without a seed draws the run's seed from
            the operating system).
        options:
            Accepted and ignored.

        Raises
        ------
        models.errors.InvalidArgumentError
            A seed that is not a non-negative integer (a :class:`ValueError`).
        """
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise InvalidArgumentError(f"seed must be a non-negative integer or None, got {seed!r}")
            self._base_seed, self._episode = int(seed), 0
        elif self._base_seed is None:
            self._base_seed, self._episode = int(np.random.SeedSequence().entropy), 0  # type: ignore[arg-type]  # entropy is an int when drawn from the OS
        else:
            self._episode += 1
        self._stop()
        stream_seed, seat_seeds = game_seeds(game_seed_sequence(self._base_seed, self._episode), self.n_players)
        runner = EngineRunner(self._learner_seats, self.max_turns)
        seats: list[Agent] = [
            self._opponents[i](seat_seeds[i]) if i in self._opponents else LearnerSeat(runner, i, seat_seeds[i])
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
        """Answer the pending decision of ``agent_selection`` and run the engine to the next learner decision.

        Parameters
        ----------
        action:
            An action index the mask allows (numpy integers are accepted);
            ``None`` for a terminated or truncated agent (PettingZoo's dead step).

        Raises
        ------
        models.errors.IllegalActionError
            An action that is not an integer in range, or that the mask rules
            out now; the environment is unchanged.
        models.errors.NotReadyError
            ``step`` before ``reset``, or after the episode ended (a :class:`RuntimeError`).
        """
        if self._runner is None:
            raise NotReadyError("call reset() before step()")
        if not self.agents:
            raise NotReadyError("the episode is over: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        request = self._pending
        assert request is not None and self._seat_names[request.seat] == agent
        index = check_action(agent, action, self._mask, self.action_names, request.kind)
        answer = self.layout.answer(self._live_game().state, request, index)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._absorb(self._runner.answer(answer))
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation and the mask of a seat (:mod:`solver.rl.observation`, :mod:`solver.rl.actions`).

        Parameters
        ----------
        agent:
            Any seat of the environment (an opponent's seat too).

        Returns
        -------
        dict
            ``"observation"``: the ``float32`` vector of
            :class:`solver.rl.observation.ObservationLayout` from that seat's
            point of view; ``"action_mask"``: its ``int8`` mask, all zeros
            unless the seat is deciding (a copy).

        Raises
        ------
        solver.rl.errors.UnknownSeatError
            ``agent`` is no seat.
        models.errors.NotReadyError
            ``observe`` before ``reset`` (a :class:`RuntimeError`).
        """
        seat = seating.seat_index(self._seat_of, agent)
        if self._runner is None or self._runner.game is None:
            raise NotReadyError("call reset() before observe()")
        return {"observation": self._encoder.encode(self._runner.game, seat, self._pending), "action_mask": self._mask_of(seat)}

    def close(self) -> None:
        """End the engine thread of the current game, if any (idempotent)."""
        self._stop()

    def render(self) -> str | None:
        """The ``"ansi"`` text of the position and the pending decision.

        Returns
        -------
        str or None
            The text (``"(no game: call reset())"`` before ``reset``); ``None``,
            with a Gymnasium warning, without a render mode.
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: pass render_mode='ansi' to the constructor")
            return None
        if self._runner is None or self._runner.game is None:
            return "(no game: call reset())"
        return self._text()

    # -- the engine side of a step ----------------------------------------------
    def _live_game(self) -> Game:
        """The game the engine thread is playing (it waits while this is read)."""
        assert self._runner is not None and self._runner.game is not None
        return self._runner.game

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # runs runner.stop once
            self._finalizer = None

    def _absorb(self, message: tuple[str, Any]) -> None:
        """Take the engine's next message: pending decision, bankruptcies, end of the game, infos."""
        kind, payload = message
        runner = self._runner
        assert runner is not None
        game = self._live_game()
        players = game.state.players
        self._pending = None
        if kind == "error":
            self._stop()
            self._runner = None
            raise payload
        if kind == "ask":
            self._pending = payload
            self._mask = self.layout.legal_mask(game.state, payload)
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

    def _decision_info(self, seat: int) -> dict[str, Any]:
        request = self._pending
        if request is None or request.seat != seat:
            return {"kind": "none"}
        return request.describe(self._live_game().state.board)

    def _text(self) -> str:
        assert self._runner is not None
        legal = [self.action_names[i] for i in np.flatnonzero(self._mask)] if self._pending is not None else []
        return ansi_text(self._live_game(), self._seat_names, self._pending, legal, self.result, self._runner.events)


def raw_env(**kwargs: Any) -> MonopolyAECEnv:
    """The environment without wrappers (PettingZoo's naming convention).

    Parameters
    ----------
    **kwargs
        As :class:`MonopolyAECEnv`.

    Returns
    -------
    MonopolyAECEnv
        A new environment.

    Examples
    --------
    >>> plain = raw_env(n_players=3)
    >>> plain.reset(seed=1)
    >>> plain.agents
    ['player_0', 'player_1', 'player_2']
    >>> plain.close()
    """
    return MonopolyAECEnv(**kwargs)


def env(**kwargs: Any) -> MonopolyAECEnv:
    """The environment (no wrapper is added: the mask already rules out illegal moves, and they raise).

    Parameters
    ----------
    **kwargs
        As :class:`MonopolyAECEnv`.

    Returns
    -------
    MonopolyAECEnv
        A new environment.

    Examples
    --------
    One learner seat against the registry's random agent:

    >>> game = env(n_players=2, opponents={"player_1": "random"}, max_turns=50)
    >>> game.reset(seed=0)
    >>> game.possible_agents, game.agent_selection
    (['player_0'], 'player_0')
    >>> game.close()
    """
    return MonopolyAECEnv(**kwargs)
