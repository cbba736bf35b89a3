"""The library entry point: :func:`solve` a state for a player, get a typed, JSON-ready answer.

``solver.solve(state, player)`` is what ``monopoly-trade solve`` runs, for
programs: it takes the state as a :class:`~models.state.GameState`, a parsed
state document (a mapping), a path to a state file or a one-line position
(``"MPN1 Ann:1500 ..."``, :mod:`models.io.line`), and the player by name,
by seat (0-based) or not at all (the player to move). It returns a
:class:`SolveResult`: the :class:`~solver.decide.Decision` (action, reason,
trade, build plan, purchase advice, re-scored trades) together with the
state it was computed for, so that :meth:`SolveResult.to_dict` and
:meth:`SolveResult.to_json` need nothing else. Their output is the JSON
object of ``monopoly-trade solve --json`` (field by field:
``docs/cli.md#solve``), and it is always valid JSON: an undefined or infinite
number (a standard error from a single rollout, say) is written as ``null``
(:mod:`solver.jsonsafe`), never as ``NaN`` or ``Infinity``.

Errors are narrow: a state that breaks the format or a rule raises
:class:`~models.errors.InvalidStateError` (naming the field); an unknown
player, a seat out of range, a bankrupt player or a bad setting raises
:class:`SolveError` (a ``ValueError``); both carry a one-line message.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from models.errors import MonopolyError
from models.io import load_state
from models.state import GameState
from solver import jsonsafe
from solver.decide import DecideSettings, Decision, decide
from solver.decisions.memory import AgentMemory, AgentMemoryError
from solver.decisions.settings import AgentSettings
from solver.trades.selection import MODES, Mode

__all__ = ["SolveError", "SolveResult", "solve", "warm_up"]

StateLike = GameState | Mapping[str, Any] | str | os.PathLike[str]


class SolveError(MonopolyError, ValueError):
    """A question :func:`solve` cannot answer (unknown player, bankrupt player, bad setting); one line."""


@dataclass(frozen=True)
class SolveResult:
    """The answer of :func:`solve`: the decision and the state it is about.

    Attributes
    ----------
    state : GameState
        The state the decision is about (loaded and validated).
    player : str
        The deciding player's name.
    decision : Decision
        What :func:`solver.decide.decide` answered: action, reason, trade, build plan,
        purchase advice and the re-scored trades.

    Examples
    --------
    >>> import solver
    >>> result = solver.solve("instances/midgame-no-monopolies.json", "Bob", rollouts=100, seed=0, mode="best")
    >>> result.player, result.action
    ('Bob', 'propose_trade')
    >>> result.decision.trade.properties_received("Bob")
    ['Marvin Gardens']
    >>> result.to_dict()["decision"]["action"]
    'propose_trade'
    """

    state: GameState
    player: str
    decision: Decision

    @property
    def action(self) -> str:
        """``"build"``, ``"propose_trade"`` or ``"hold"``."""
        return self.decision.action

    @property
    def reason(self) -> str:
        """Why, in one line (the text ``solve`` prints after ``DECISION:``)."""
        return self.decision.reason

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``solve --json``, with undefined numbers as ``None``.

        Returns
        -------
        dict
            The object, field by field in ``docs/cli.md#solve``; it starts with its ``"schema"``.
        """
        doc: dict[str, Any] = jsonsafe.json_safe(self.decision.to_dict(self.state))
        return doc

    def to_json(self, **kwargs: Any) -> str:
        """:meth:`to_dict` as JSON text (valid JSON: no ``NaN`` or ``Infinity``).

        Parameters
        ----------
        **kwargs
            Passed to :func:`json.dumps` (``indent``, ``sort_keys``, ...).

        Returns
        -------
        str
            The JSON text of ``solve --json``.
        """
        return jsonsafe.dumps(self.to_dict(), **kwargs)


def _state_of(state: StateLike) -> GameState:
    if isinstance(state, GameState):
        return state
    if isinstance(state, Mapping):
        return load_state(state)
    if isinstance(state, (str, os.PathLike)):
        return load_state(state)  # a path, or a one-line position (MPN1 ...)
    raise SolveError(f"state: expected a GameState, a state document or a path, got {type(state).__name__}")


def _player_of(state: GameState, player: str | int | None) -> int:
    if player is None:  # the player the pending question asks, else the player to move
        return state.pending.who_answers()[0] if state.pending is not None else state.to_move
    if isinstance(player, bool) or not isinstance(player, (str, int)):
        raise SolveError(f"player: expected a name or a seat number, got {type(player).__name__}")
    if isinstance(player, int):
        if not 0 <= player < len(state.players):
            raise SolveError(f"player: seat {player} does not exist (seats 0..{len(state.players) - 1})")
        return player
    try:
        return state.player_index(player)
    except KeyError:
        raise SolveError(f"player: no player named {player!r} in the state") from None


def solve(
    state: StateLike,
    player: str | int | None = None,
    *,
    rollouts: int = 800,
    seed: int = 0,
    mode: str = "fair",
    horizon: int = 30,
    budget_s: float = 60.0,
    agent: str | AgentSettings | None = None,
    memory: AgentMemory | Mapping[str, Any] | str | os.PathLike[str] | None = None,
) -> SolveResult:
    """What ``player`` should do in ``state``: build, propose a trade or hold, and why; or, with
    ``agent``, what the ``subgraph`` agent answers to the question the state poses.

    Parameters
    ----------
    state : GameState, mapping or path
        A :class:`~models.state.GameState`, a parsed state document, a path to a state file, or a
        one-line position (``"MPN1 ..."``, :func:`models.io.load_line`)
        (loaded and validated).
    player : str, int or None, default None
        A name, a seat (0-based), or ``None`` for the player the state's pending question asks
        (``state.pending``), else the player to move.
    rollouts : int, default 800
        Games per simulated state (1..100,000), as ``solve --rollouts``.
    seed : int, default 0
        The simulations' seed (0..2**63-1); the same seed gives the same answer.
    horizon : int, default 30
        The simulated games' length in rounds (1..1000); a game still running is scored by
        the calibrated horizon value (:mod:`engine.sim.win_model`).
    mode : {"fair", "best"}, default "fair"
        ``"fair"`` (Nash-zone trades, the default) or ``"best"`` (what the agent plays); see
        ``docs/decisions.md``.
    budget_s : float, default 60.0
        A wall-clock safety cap; the work itself is fixed by counts, so the same seed gives the
        same answer on any machine.
    agent : str, AgentSettings or None
        Answer as the agent with these settings: a registry spec (``"subgraph"``,
        ``"subgraph:hold=false"``, ...) or :class:`solver.decisions.settings.AgentSettings`. The
        question is the state's (its pending question; else buy or decline on a lot of the bank's
        just rolled onto; else the jail choice; else the act phase's next action:
        :func:`solver.decisions.agent.question_of`), the answer the agent's decision module's,
        in ``decision.agent`` (``to_dict()["agent"]``, with the memory after it). ``rollouts`` and
        ``seed`` then set only the forecast; the agent's simulations use its own settings and
        its memory's seeds.
    memory : AgentMemory, mapping, path or None
        With ``agent``, its memory before the question (:class:`solver.decisions.memory.AgentMemory`,
        its JSON object or a file of it); ``None``: a fresh one.

    Returns
    -------
    SolveResult
        The decision with its state; :meth:`SolveResult.to_dict` is the ``--json`` object.

    Raises
    ------
    InvalidStateError
        The state breaks the format or a rule.
    SolveError
        Unknown player or seat, a bankrupt player, a setting out of range, an unknown agent
        spec, a memory without an agent, or a memory that cannot be read (one line).

    Examples
    --------
    >>> import solver
    >>> result = solver.solve("instances/midgame-no-monopolies.json", "Bob", rollouts=100, seed=0, mode="best")
    >>> result.reason
    "the trade's risk-adjusted gain in win probability +0.021 beats building (+0.000) and holding (0)"
    >>> solver.solve("instances/midgame-no-monopolies.json", "Zed")
    Traceback (most recent call last):
    ...
    solver.api.SolveError: player: no player named 'Zed' in the state
    """
    if mode not in MODES:
        raise SolveError(f"mode: must be one of {', '.join(MODES)}, got {mode!r}")
    for name, value, lo, hi in (("rollouts", rollouts, 1, 100_000), ("horizon", horizon, 1, 1000), ("seed", seed, 0, 2**63 - 1)):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise SolveError(f"{name}: must be an integer in {lo}..{hi}, got {value!r}")
    if not isinstance(budget_s, (int, float)) or not 0 < budget_s <= 86_400:
        raise SolveError(f"budget_s: must be a number in (0, 86400], got {budget_s!r}")
    settings, mem = _agent_of(agent, memory)
    st = _state_of(state)
    p = _player_of(st, player)
    name = st.players[p].name
    if st.players[p].bankrupt:
        raise SolveError(f"player: {name} is bankrupt")
    try:
        d = decide(
            st, name, budget_s=float(budget_s), rollouts=rollouts, seed=seed, horizon=horizon, settings=DecideSettings(mode=Mode(mode)),
            agent=settings, memory=mem,
        )
    except AgentMemoryError as err:
        raise SolveError(str(err)) from None
    return SolveResult(st, name, d)


def _agent_of(
    agent: str | AgentSettings | None, memory: AgentMemory | Mapping[str, Any] | str | os.PathLike[str] | None
) -> tuple[AgentSettings | None, AgentMemory | None]:
    """The agent's settings and memory as :func:`solve` takes them, checked (one-line errors)."""
    if agent is None:
        if memory is not None:
            raise SolveError("memory: only with agent (the agent's memory; without one solve answers as itself)")
        return None, None
    from solver.agents.registry import UnknownAgentError
    from solver.decisions.memory import load_memory
    from solver.decisions.profile import agent_settings

    if isinstance(agent, AgentSettings):
        settings = agent
    elif isinstance(agent, str):
        try:
            settings = agent_settings(agent)
        except UnknownAgentError as err:
            raise SolveError(f"agent: {err}") from None
    else:
        raise SolveError(f"agent: expected a spec or AgentSettings, got {type(agent).__name__}")
    if memory is None or isinstance(memory, AgentMemory):
        return settings, memory
    if not isinstance(memory, (Mapping, str, os.PathLike)):
        raise SolveError(f"memory: expected an AgentMemory, its JSON object or a file, got {type(memory).__name__}")
    try:
        return settings, load_memory(memory)
    except AgentMemoryError as err:
        raise SolveError(str(err)) from None


def warm_up() -> float:
    """Load what every answer needs once, so that the first :func:`solve` of a process is as fast
    as the later ones: the compiled simulation kernel (a fresh environment compiles it once, into
    numba's cache), OR-Tools' CP-SAT, and the standard board's chains and tables, by solving a
    small made-up position (three players, two lots each; 8 rollouts, one thread). The MCP
    server's workers call it when they start; a program that keeps a process warm may call it
    before its first question.

    Returns
    -------
    float
        The seconds it took.

    Examples
    --------
    >>> import solver
    >>> solver.warm_up() >= 0.0
    True
    """
    import time

    t = time.perf_counter()
    state = GameState.new_game(["Ann", "Bob", "Cy"])
    for seat, lots in enumerate((("Mediterranean Avenue", "Oriental Avenue"), ("Baltic Avenue", "Vermont Avenue"), ("Connecticut Avenue",))):
        for lot in lots:
            state.owner[state.square_of(lot)] = seat
    decide(state, "Ann", rollouts=8, seed=0, threads=1)
    return time.perf_counter() - t
