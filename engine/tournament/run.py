"""Seeded head-to-head tournaments: seating, one game, the run, the standings.

Game ``i`` of a run seeded ``S`` is seeded by ``SeedSequence([S, i])``
(:func:`engine.rules.seeding.game_seed_sequence`) and seats the agents rotated by
``i`` (:func:`seating`): seat ``k`` gets agent ``(k + i) mod n``, so every
agent sits in every seat equally often over ``n`` consecutive games. Results
therefore do not depend on the number of workers or on the order in which
games finish, and ``monopoly-trade play --seed S --game i`` replays game
``i``. Each finished game is appended to the results file
(:mod:`engine.tournament.results`) as one JSON line and flushed at once:
killing a run loses no finished game, and ``resume`` completes it without
replaying or double-counting any game. Agents reach the runner as picklable
factories ``f(seed) -> Agent``; the names of agents are resolved in
:mod:`solver.agents.registry`, so this package never imports ``solver``.

Win rates come with 95% Wilson score intervals (E. B. Wilson, "Probable
inference, the law of succession, and statistical inference", JASA 22, 1927).
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.rules.game import Game, GameResult
from engine.rules.protocol import Agent
from engine.rules.seeding import SeedLike, game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from engine.tournament.backends import check_backend, results
from engine.tournament.results import results_header, resumable_rows, rewrite_rows
from models.errors import MonopolyError
from models.rules import Rules
from models.state import GameState

AgentFactory = Callable[[SeedLike], Agent]
"""A picklable ``f(seed) -> Agent``: how the runner builds each seat's agent."""


class TournamentError(MonopolyError, ValueError):
    """A tournament that cannot be run as asked (agents, labels or the number of games)."""


def seating(game: int, n_agents: int) -> list[int]:
    """Agent index for each seat of game ``game``: seat ``k`` gets agent ``(k + game) mod n``.

    Parameters
    ----------
    game : int
        The game's number.
    n_agents : int
        The number of agents (and seats).

    Returns
    -------
    list of int
        The agent of each seat.

    Examples
    --------
    >>> seating(0, 3), seating(1, 3), seating(2, 3)
    ([0, 1, 2], [1, 2, 0], [2, 0, 1])
    """
    return [(k + game) % n_agents for k in range(n_agents)]


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval for ``k`` successes in ``n`` trials (Wilson, 1927).

    Parameters
    ----------
    k : int
        Successes.
    n : int
        Trials (0: the whole interval ``(0, 1)``).
    z : float, default 1.96
        The normal quantile of the confidence level.

    Returns
    -------
    tuple of (float, float)
        The interval's ends, within ``[0, 1]``.

    Examples
    --------
    >>> [round(x, 3) for x in wilson(7, 10)], wilson(0, 0)
    ([0.397, 0.892], (0.0, 1.0))
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_one(
    factories: Sequence[AgentFactory], labels: Sequence[str], seed: int, game: int, max_rounds: int, rules: Rules | None = None
) -> dict[str, Any]:
    """Play game ``game`` of the run seeded ``seed``; one result row.

    Parameters
    ----------
    factories : sequence of AgentFactory
        One agent factory per agent (``f(seed) -> Agent``).
    labels : sequence of str
        The agents' labels.
    seed : int
        The run's seed.
    game : int
        The game's number (its seating and seeds).
    max_rounds : int
        The round cap.
    rules : Rules or None
        The game's rules (``None``: the standard rules).

    Returns
    -------
    dict
        ``game``, ``seats`` (labels in seat order), ``winner`` (a label or ``None``),
        ``winner_seat``, ``reason``, ``rounds``, ``turns``.

    Examples
    --------
    >>> from engine.rules.agents import RandomAgent
    >>> row = play_one([RandomAgent, RandomAgent], ["a", "b"], 7, 1, 30)
    >>> row["seats"], row["reason"], row["winner"]
    (['b', 'a'], 'round_cap', 'b')
    """
    order, agents, state, stream = seat_game(factories, seed, game, rules)
    return result_row(game, labels, order, Game(state, agents, stream, max_rounds=max_rounds).play())


def seat_game(
    factories: Sequence[AgentFactory], seed: int, game: int, rules: Rules | None = None
) -> tuple[list[int], list[Agent], GameState, SeededStream]:
    """Game ``game`` of the run seeded ``seed``, ready to play: the agent of each seat
    (:func:`seating`), the seated agents (each from its seat's seed), the opening state (players
    ``P1``...) and the dice stream. Every host of a tournament's games starts here, so games of
    the same number are paired across hosts.

    Parameters
    ----------
    factories : sequence of AgentFactory
        One agent factory per agent.
    seed : int
        The run's seed.
    game : int
        The game's number.
    rules : Rules or None
        The opening state's rules (``None``: the standard rules); the seating, dice and agents'
        seeds do not depend on them, so games of the same number under two rule sets are paired.

    Returns
    -------
    tuple
        ``(order, agents, state, stream)``.
    """
    n = len(factories)
    order = seating(game, n)
    stream_seed, seat_seeds = game_seeds(game_seed_sequence(seed, game), n)
    agents = [factories[a](s) for a, s in zip(order, seat_seeds, strict=True)]
    return order, agents, GameState.new_game([f"P{k + 1}" for k in range(n)], rules=rules), SeededStream(stream_seed)


def result_row(game: int, labels: Sequence[str], order: Sequence[int], result: GameResult) -> dict[str, Any]:
    """A game's result row (:func:`play_one`'s fields).

    Parameters
    ----------
    game : int
        The game's number.
    labels : sequence of str
        The agents' labels.
    order : sequence of int
        The agent of each seat.
    result : GameResult
        How the game ended.

    Returns
    -------
    dict
        ``game``, ``seats``, ``winner``, ``winner_seat``, ``reason``, ``rounds``, ``turns``.
    """
    winner_seat = result.winner_index
    return {
        "game": game,
        "seats": [labels[a] for a in order],
        "winner": labels[order[winner_seat]] if winner_seat is not None else None,
        "winner_seat": winner_seat,
        "reason": result.reason,
        "rounds": result.rounds,
        "turns": result.turns,
    }


@dataclass(frozen=True)
class Standing:
    """One agent's wins in a run.

    Attributes
    ----------
    label : str
        The agent's label.
    wins, games : int
        Games won, games played.

    Examples
    --------
    >>> s = Standing("strategic", 7, 10)
    >>> s.rate, [round(x, 3) for x in s.interval]
    (0.7, [0.397, 0.892])
    """

    label: str
    wins: int
    games: int

    @property
    def rate(self) -> float:
        """The win rate (0 for no game)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The win rate's 95% Wilson interval (:func:`wilson`)."""
        return wilson(self.wins, self.games)


@dataclass(frozen=True)
class TournamentResult:
    """What :func:`run_tournament` returns.

    Attributes
    ----------
    rows : list of dict
        One row per game (:func:`play_one`), in game order.
    standings : list of Standing
        One per distinct label.
    draws : int
        Games without a winner.
    wall_s : float
        The run's wall time.

    Examples
    --------
    >>> from engine.rules.agents import RandomAgent
    >>> result = run_tournament([RandomAgent, RandomAgent], ["a", "b"], 4, seed=7, max_rounds=30)
    >>> result.to_dict()["standings"][1]["wins"], [r["winner"] for r in result.rows]
    (3, ['b', 'b', 'b', 'a'])
    """

    rows: list[dict[str, Any]]
    standings: list[Standing]
    draws: int
    wall_s: float

    def to_dict(self) -> dict[str, Any]:
        """The summary ``tournament --json`` prints.

        Returns
        -------
        dict
            ``games``, ``draws`` and ``standings`` (``agent``, ``wins``, ``win_rate``, ``wilson_95``).
        """
        return {
            "games": len(self.rows),
            "draws": self.draws,
            "standings": [
                {"agent": s.label, "wins": s.wins, "win_rate": s.rate, "wilson_95": list(s.interval)} for s in self.standings
            ],
        }


def summarize(rows: Sequence[dict[str, Any]], labels: Sequence[str]) -> tuple[list[Standing], int]:
    """Wins per distinct agent label (an agent named twice is one entry, its games counted once).

    Parameters
    ----------
    rows : sequence of dict
        Game rows (:func:`play_one`).
    labels : sequence of str
        The agents' labels.

    Returns
    -------
    tuple of (list of Standing, int)
        The standings and the number of draws.

    Examples
    --------
    >>> rows = [{"winner": "a"}, {"winner": None}, {"winner": "a"}]
    >>> standings, draws = summarize(rows, ["a", "b", "a"])
    >>> [(s.label, s.wins, s.games) for s in standings], draws
    ([('a', 2, 3), ('b', 0, 3)], 1)
    """
    distinct = list(dict.fromkeys(labels))
    wins = {lab: 0 for lab in distinct}
    draws = 0
    for row in rows:
        if row["winner"] is None:
            draws += 1
        else:
            wins[row["winner"]] += 1
    return [Standing(lab, wins[lab], len(rows)) for lab in distinct], draws


def _job(args: tuple[Sequence[AgentFactory], Sequence[str], int, int, int, Rules | None]) -> dict[str, Any]:
    return play_one(*args)


def run_tournament(
    factories: Sequence[AgentFactory],
    labels: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    workers: int = 1,
    max_rounds: int = 1000,
    out: Path | None = None,
    resume: bool = False,
    progress: Callable[[int, int, dict[str, Any]], None] | None = None,
    backend: str = "local",
    rules: Rules | None = None,
) -> TournamentResult:
    """Play games ``0..games-1`` (only the missing ones when resuming ``out``) on ``backend``.

    Parameters
    ----------
    factories : sequence of AgentFactory
        2 to 8 picklable agent factories (``f(seed) -> Agent``).
    labels : sequence of str
        One label per factory.
    games : int
        The number of games (at least 1).
    seed : int, default 0
        The run's seed: game ``i`` is seeded by ``SeedSequence([seed, i])``.
    workers : int, default 1
        Processes (local) or CPUs of a local Ray instance.
    max_rounds : int, default 1000
        The round cap of each game.
    out : Path or None
        The results file, one JSON line per game, flushed as each finishes.
    resume : bool, default False
        Keep the games ``out`` already holds (its header must match the run).
    progress : callable or None
        ``progress(done, total, row)``, called after each finished game with its row.
    backend : {"local", "ray"}, default "local"
        Where the games run.
    rules : Rules or None
        The rules every game is played under (``None``: the standard rules); recorded in the
        results file's header when they are not the standard ones, so that ``resume`` completes
        only a run under the same rules.

    Returns
    -------
    TournamentResult
        Every game's row, the standings and the draws.

    Raises
    ------
    TournamentError
        Fewer than 2 or more than 8 agents, labels that do not match, or ``games`` below 1.
    UnknownBackendError
        An unknown ``backend``.
    BackendUnavailableError
        ``backend="ray"`` without Ray installed (the ``ray`` extra).
    ResumeError
        ``resume`` on a file that is not this run's.

    Examples
    --------
    >>> from engine.rules.agents import RandomAgent
    >>> result = run_tournament([RandomAgent, RandomAgent], ["a", "b"], 4, seed=7, max_rounds=30)
    >>> [(s.label, s.wins, s.games) for s in result.standings], result.draws
    ([('a', 1, 4), ('b', 3, 4)], 0)
    >>> run_tournament([RandomAgent], ["a"], 4)
    Traceback (most recent call last):
    ...
    engine.tournament.run.TournamentError: a tournament needs 2 to 8 agents, one label each
    """
    check_backend(backend)
    if len(factories) != len(labels) or not 2 <= len(factories) <= 8:
        raise TournamentError("a tournament needs 2 to 8 agents, one label each")
    if games < 1:
        raise TournamentError("games must be >= 1")
    rows: dict[int, dict[str, Any]] = {}
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        header = results_header("tournament", labels, seed, max_rounds, rules)
        if resume:
            rows = resumable_rows(out, header, games)
        rewrite_rows(out, rows, header)  # without any dropped line, before appending
    todo = [(tuple(factories), tuple(labels), seed, g, max_rounds, rules) for g in range(games) if g not in rows]
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        fh = stack.enter_context(out.open("a", encoding="utf-8")) if out is not None else None
        rows_in = stack.enter_context(contextlib.closing(results(_job, todo, workers, backend)))  # closed first, on any exit
        for row in rows_in:
            rows[row["game"]] = row
            if fh is not None:
                fh.write(json.dumps(row, sort_keys=True) + "\n")
                fh.flush()
            if progress is not None:
                progress(len(rows), games, row)
    ordered = [rows[g] for g in range(games)]
    standings, draws = summarize(ordered, labels)
    return TournamentResult(ordered, standings, draws, time.perf_counter() - start)
