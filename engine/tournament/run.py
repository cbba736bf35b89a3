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

from engine.rules.game import Game
from engine.rules.protocol import Agent
from engine.rules.seeding import SeedLike, game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from engine.tournament.backends import check_backend, results
from engine.tournament.results import results_header, resumable_rows, rewrite_rows
from models.errors import MonopolyError
from models.state import GameState

AgentFactory = Callable[[SeedLike], Agent]


class TournamentError(MonopolyError, ValueError):
    """A tournament that cannot be run as asked (agents, labels or the number of games)."""


def seating(game: int, n_agents: int) -> list[int]:
    """Agent index for each seat of game ``game``: seat ``k`` gets agent ``(k + game) mod n``."""
    return [(k + game) % n_agents for k in range(n_agents)]


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval for ``k`` successes in ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_one(factories: Sequence[AgentFactory], labels: Sequence[str], seed: int, game: int, max_rounds: int) -> dict[str, Any]:
    """Play game ``game`` of the run seeded ``seed``; one result row."""
    n = len(factories)
    order = seating(game, n)
    stream_seed, seat_seeds = game_seeds(game_seed_sequence(seed, game), n)
    agents = [factories[a](s) for a, s in zip(order, seat_seeds, strict=True)]
    state = GameState.new_game([f"P{k + 1}" for k in range(n)])
    result = Game(state, agents, SeededStream(stream_seed), max_rounds=max_rounds).play()
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
    label: str
    wins: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


@dataclass(frozen=True)
class TournamentResult:
    rows: list[dict[str, Any]]
    standings: list[Standing]
    draws: int
    wall_s: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": len(self.rows),
            "draws": self.draws,
            "standings": [
                {"agent": s.label, "wins": s.wins, "win_rate": s.rate, "wilson_95": list(s.interval)} for s in self.standings
            ],
        }


def summarize(rows: Sequence[dict[str, Any]], labels: Sequence[str]) -> tuple[list[Standing], int]:
    """Wins per distinct agent label (an agent named twice is one entry, its games counted once)."""
    distinct = list(dict.fromkeys(labels))
    wins = {lab: 0 for lab in distinct}
    draws = 0
    for row in rows:
        if row["winner"] is None:
            draws += 1
        else:
            wins[row["winner"]] += 1
    return [Standing(lab, wins[lab], len(rows)) for lab in distinct], draws


def _job(args: tuple[Sequence[AgentFactory], Sequence[str], int, int, int]) -> dict[str, Any]:
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
) -> TournamentResult:
    """Play games ``0..games-1`` (only the missing ones when resuming ``out``) on ``backend``.

    ``progress(done, total, row)`` is called after each finished game with its row."""
    check_backend(backend)
    if len(factories) != len(labels) or not 2 <= len(factories) <= 8:
        raise TournamentError("a tournament needs 2 to 8 agents, one label each")
    if games < 1:
        raise TournamentError("games must be >= 1")
    rows: dict[int, dict[str, Any]] = {}
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        header = results_header("tournament", labels, seed, max_rounds)
        if resume:
            rows = resumable_rows(out, header, games)
        rewrite_rows(out, rows, header)  # without any dropped line, before appending
    todo = [(tuple(factories), tuple(labels), seed, g, max_rounds) for g in range(games) if g not in rows]
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
