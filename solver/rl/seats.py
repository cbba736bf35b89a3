"""Who plays which seat of :class:`solver.rl.aec_env.MonopolyAECEnv`, from which position: the constructor's arguments checked.

The seats are ``player_0`` .. ``player_{n-1}`` (:func:`seat_name`; seat ``i``
is the state's player ``i``, whatever the state calls it). The start state is
the standard opening for ``n_players`` (default 4) or the state given
(:func:`load_start_state`); the ``opponents`` are resolved to agent factories
(:func:`opponent_factories`: a spec of :mod:`solver.agents.registry`, or a
factory ``f(seed) -> Agent``; agent instances are refused, since an agent keeps
memory across games); the other seats are the learner's
(:func:`learner_seats`). Every refusal is one line naming the argument.

This module needs neither PettingZoo nor Gymnasium.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from os import PathLike
from typing import Any

from engine.rules.protocol import Agent
from engine.rules.seeding import SeedLike
from models.errors import InvalidArgumentError
from models.io import MAX_PLAYERS, MIN_PLAYERS, load_state, validate_state
from models.state import GameState
from solver.rl.errors import OpponentSpecError, UnknownSeatError

__all__ = [
    "OpponentSpec",
    "StartState",
    "check_caps",
    "learner_seats",
    "load_start_state",
    "opponent_factories",
    "seat_index",
    "seat_name",
]

StartState = GameState | Mapping[str, Any] | str | PathLike[str]
"""A start position: a state, a ``monopoly-state/1`` document, or a path to one."""
OpponentSpec = str | Callable[[SeedLike], Agent]
"""An opponent seat's agent: a registry spec, or a factory ``f(seed) -> Agent``."""


def seat_name(i: int) -> str:
    """The name of seat ``i`` (``player_i``), whatever the state calls its player.

    Examples
    --------
    >>> seat_name(2)
    'player_2'
    """
    return f"player_{i}"


def seat_index(seat_of: Mapping[str, int], agent: Any) -> int:
    """The seat called ``agent``.

    Parameters
    ----------
    seat_of:
        Seat name -> seat index, in seat order.
    agent:
        The name asked for (any value: a non-string names no seat).

    Returns
    -------
    int

    Raises
    ------
    solver.rl.errors.UnknownSeatError
        ``agent`` names no seat (the message lists the seats).
    """
    try:
        return seat_of[agent]
    except (KeyError, TypeError):
        raise UnknownSeatError(f"unknown seat {agent!r} (seats: {', '.join(seat_of)})") from None


def load_start_state(n_players: int | None, start_state: StartState | None) -> GameState:
    """The position every episode starts from (a fresh copy, checked).

    Parameters
    ----------
    n_players:
        Seats, 2..8; ``None``: 4, or the start state's count.
    start_state:
        The position; ``None``: the standard opening with the players named as the seats.

    Returns
    -------
    GameState

    Raises
    ------
    models.errors.InvalidArgumentError
        ``n_players`` outside 2..8, or not the start state's count.
    models.errors.InvalidStateError
        A start state that breaks the state format.
    """
    if n_players is not None and (
        isinstance(n_players, bool) or not isinstance(n_players, int) or not MIN_PLAYERS <= n_players <= MAX_PLAYERS
    ):
        raise InvalidArgumentError(f"n_players must be an integer in {MIN_PLAYERS}..{MAX_PLAYERS}, got {n_players!r}")
    if start_state is None:
        return GameState.new_game([seat_name(i) for i in range(n_players or 4)])
    if isinstance(start_state, GameState):
        state = start_state.copy()
        validate_state(state)
    else:
        state = load_state(start_state)
    if n_players is not None and n_players != len(state.players):
        raise InvalidArgumentError(f"n_players is {n_players} but the start state has {len(state.players)} players")
    return state


def check_caps(state: GameState, max_turns: int | None, max_rounds: int) -> None:
    """Refuse caps that are not positive integers, and a start state at or past the round cap or with one active player.

    Raises
    ------
    models.errors.InvalidArgumentError
        The first of those problems.
    """
    if max_turns is not None and (isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1):
        raise InvalidArgumentError(f"max_turns must be a positive integer or None, got {max_turns!r}")
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
        raise InvalidArgumentError(f"max_rounds must be a positive integer, got {max_rounds!r}")
    if state.round >= max_rounds:
        raise InvalidArgumentError(f"the start state's round {state.round} is at or past max_rounds {max_rounds}")


def opponent_factories(opponents: Mapping[str, OpponentSpec], seat_of: Mapping[str, int]) -> dict[int, Callable[[SeedLike], Agent]]:
    """The agent factory of every opponent seat.

    Parameters
    ----------
    opponents:
        Seat name -> registry spec or factory.
    seat_of:
        Seat name (:func:`seat_name`) -> seat index.

    Returns
    -------
    dict
        Seat index -> factory ``f(seed) -> Agent`` (a spec through
        :func:`solver.agents.registry.factory`).

    Raises
    ------
    solver.rl.errors.UnknownSeatError
        A key that is no seat.
    solver.rl.errors.OpponentSpecError
        A value that is neither a string nor callable.
    solver.agents.registry.UnknownAgentError
        A spec the registry refuses.
    """
    out: dict[int, Callable[[SeedLike], Agent]] = {}
    for name, spec in opponents.items():
        seat = seat_index(seat_of, name)
        if isinstance(spec, str):
            from solver.agents.registry import factory

            out[seat] = factory(spec)
        elif callable(spec):
            out[seat] = spec
        else:
            raise OpponentSpecError(f"opponent of {name}: expected an agent spec string or a factory, got {type(spec).__name__}")
    return out


def learner_seats(state: GameState, opponent_seats: Mapping[int, Any]) -> list[int]:
    """The seats left to the learner, in seat order.

    Raises
    ------
    models.errors.InvalidArgumentError
        Every seat is an opponent's, or every learner seat is bankrupt in the start state.
    """
    learners = [i for i in range(len(state.players)) if i not in opponent_seats]
    if not learners:
        raise InvalidArgumentError("every seat is an opponent: leave at least one seat to the learner")
    if all(state.players[i].bankrupt for i in learners):
        raise InvalidArgumentError("every learner seat is bankrupt in the start state")
    return learners
