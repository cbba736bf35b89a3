"""Seeded head-to-head tournaments on local processes or Ray, resumable from their results file.

Game ``i`` of a run seeded ``S`` is seeded by ``SeedSequence([S, i])``
(:func:`engine.seeding.game_seed_sequence`) and seats the agents rotated by
``i`` (:func:`seating`): seat ``k`` gets agent ``(k + i) mod n``, so every
agent sits in every seat equally often over ``n`` consecutive games. Results
therefore do not depend on the number of workers or on the order in which
games finish, and ``monopoly-trade play --seed S --game i`` replays game
``i``.

Games run on local processes (``backend="local"``: in this process, or a
pool of ``workers`` processes) or as Ray tasks (``backend="ray"``: the
cluster at ``RAY_ADDRESS`` when set, else a local Ray instance with
``workers`` CPUs, shut down at the end if this run started it). Ray is an
optional dependency (the ``ray`` extra), imported only when asked for.

Each finished game is appended to the results file as one JSON line and
flushed at once: killing a run loses no finished game, and ``resume``
completes it without replaying or double-counting any game (a torn last line
is dropped). The file starts with a header line (:func:`results_header`:
the format, the agents as given, the seed, the round cap and the project's
version), and ``resume`` continues only a file whose header matches the run
(:func:`resumable_rows`): another run's file, a file without a header, or one
holding games at or beyond the requested count is refused with one line
(:class:`ResumeError`), so no row is ever mixed in or deleted. Lines that are
not a game (not UTF-8, not JSON, not an object with a game number) are
dropped and counted (:func:`read_results`). Agents reach the runner as picklable factories ``f(seed) ->
Agent``; the names of agents are resolved in :mod:`solver.agents.registry`, so this
module never imports ``solver``.

Win rates come with 95% Wilson score intervals (E. B. Wilson, "Probable
inference, the law of succession, and statistical inference", JASA 22, 1927).
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import multiprocessing as mp
import os
import sys
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.agents import Agent
from engine.game import Game
from engine.seeding import SeedLike, game_seed_sequence, game_seeds
from engine.streams import SeededStream
from models.files import atomic_write
from models.state import GameState

AgentFactory = Callable[[SeedLike], Agent]
log = logging.getLogger(__name__)


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


RESULTS_FORMAT = "monopoly-results/1"
MAX_GAME = 10**9
"""Largest game number a results line may carry."""


class ResumeError(ValueError):
    """A results file that ``resume`` must not continue; the message is one line naming the reason."""


def project_version() -> str:
    """The installed package's version (``"unknown"`` when run from a tree that is not installed)."""
    from importlib import metadata

    try:
        return metadata.version("monopoly-trade")
    except metadata.PackageNotFoundError:
        return "unknown"


def results_header(kind: str, agents: Sequence[str], seed: int, max_rounds: int) -> dict[str, Any]:
    """The first line of a results file: what wrote it, with which agents, seed and round cap."""
    return {
        "header": RESULTS_FORMAT,
        "kind": kind,
        "agents": list(agents),
        "seed": seed,
        "max_rounds": max_rounds,
        "version": project_version(),
    }


@dataclass(frozen=True)
class ResultsFile:
    """What :func:`read_results` found: the header (``None`` without one), the games, the lines dropped."""

    header: dict[str, Any] | None
    rows: dict[int, dict[str, Any]]
    dropped: int


def read_results(path: Path) -> ResultsFile:
    """Read a results file: the header line, then one game per line.

    A line that is not UTF-8, not JSON (a line torn by a kill), not an object,
    or an object without a whole ``game`` number in ``0..MAX_GAME`` is dropped
    and counted; never an exception. A missing file reads as empty.
    """
    rows: dict[int, dict[str, Any]] = {}
    header: dict[str, Any] | None = None
    dropped = 0
    if not path.exists():
        return ResultsFile(None, rows, 0)
    with path.open("rb") as fh:
        for number, raw in enumerate(fh):
            try:
                obj = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                dropped += 1
                continue
            if number == 0 and isinstance(obj, dict) and obj.get("header") == RESULTS_FORMAT:
                header = obj
                continue
            game = obj.get("game") if isinstance(obj, dict) else None
            if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game <= MAX_GAME:
                dropped += 1
                continue
            rows[game] = obj
    return ResultsFile(header, rows, dropped)


def read_rows(path: Path) -> dict[int, dict[str, Any]]:
    """Games recorded in a results file (:func:`read_results`; header and bad lines left out)."""
    return read_results(path).rows


def resumable_rows(path: Path, header: dict[str, Any], games: int) -> dict[int, dict[str, Any]]:
    """The games of ``path`` that a run with ``header`` and ``games`` games may keep.

    Raises
    ------
    ResumeError
        The file has games but no header, its header differs from ``header``
        (the field is named), or it holds games at or beyond ``games``.
    """
    found = read_results(path)
    if found.dropped:
        log.warning("--resume: %s: %d line(s) that are not a game were dropped", path, found.dropped)
    if found.header is None:
        if found.rows:
            raise ResumeError(
                f"--resume: {path} has no header line (another program or an older version wrote it); "
                "refusing to mix its games into this run"
            )
        return {}
    for key in ("kind", "agents", "seed", "max_rounds", "version"):
        if found.header.get(key) != header[key]:
            raise ResumeError(
                f"--resume: {path} was written with {key} {found.header.get(key)!r:.200}, this run has {header[key]!r:.200}"
            )
    beyond = sorted(g for g in found.rows if g >= games)
    if beyond:
        raise ResumeError(
            f"--resume: {path} holds {len(beyond)} game(s) at or beyond --games {games} (up to game {beyond[-1]}); "
            f"rerun with --games {beyond[-1] + 1} or more, nothing is deleted"
        )
    return found.rows


def _job(args: tuple[Sequence[AgentFactory], Sequence[str], int, int, int]) -> dict[str, Any]:
    return play_one(*args)


def parallel_map(fn: Callable[[Any], Any], jobs: Sequence[Any], workers: int, chunksize: int = 1) -> Iterator[Any]:
    """``fn`` over ``jobs``: in this process when ``workers <= 1``, else on a pool of
    ``workers`` processes, results in the order they finish."""
    if workers <= 1:
        yield from map(fn, jobs)
        return
    ctx = mp.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(workers) as pool:
        yield from pool.imap_unordered(fn, jobs, chunksize=chunksize)


def rewrite_rows(path: Path, rows: dict[int, dict[str, Any]], header: dict[str, Any] | None = None) -> None:
    """Write ``header`` (when given) and ``rows`` (game -> row) as JSON lines, in game order, atomically
    (temp file, rename)."""
    head = json.dumps(header, sort_keys=True) + "\n" if header is not None else ""
    atomic_write(path, head + "".join(json.dumps(rows[g], sort_keys=True) + "\n" for g in sorted(rows)))


def _local_results(jobs: list[tuple[Any, ...]], workers: int) -> Iterator[dict[str, Any]]:
    yield from parallel_map(_job, jobs, workers, chunksize=4)


BACKENDS = ("local", "ray")
_RAY_CHUNK = 4  # games per Ray task
_RAY_TASKS_PER_CPU = 2  # tasks in flight per cluster CPU: memory stays flat however many games


class BackendUnavailableError(RuntimeError):
    """The backend asked for is not installed (``ray`` without the ``ray`` extra)."""


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendUnavailableError("the ray backend needs the 'ray' extra: pip install 'monopoly-trade[ray]'") from None
    return ray


def _check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: use 'local' or 'ray'")
    if backend == "ray":
        _import_ray()  # fail before touching the results file


def _ray_connect(ray: Any, workers: int) -> bool:
    """Join ``RAY_ADDRESS`` or start a quiet local instance; True if this call connected."""
    if ray.is_initialized():
        return False
    if os.environ.get("RAY_ADDRESS"):
        ray.init(address=os.environ["RAY_ADDRESS"], log_to_driver=False, logging_level=logging.WARNING)
    else:
        ray.init(
            address="local",  # a new instance, even when `ray start` left one running here
            num_cpus=workers if workers > 1 else None,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
    return True


def _play_chunk(jobs: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    return [_job(job) for job in jobs]


def _ray_stream(ray: Any, jobs: list[tuple[Any, ...]]) -> Iterator[dict[str, Any]]:
    """Rows of ``jobs`` as their Ray tasks finish, with a bounded number of tasks in flight."""
    remote = ray.remote(_play_chunk)
    chunks = (jobs[i : i + _RAY_CHUNK] for i in range(0, len(jobs), _RAY_CHUNK))
    limit = _RAY_TASKS_PER_CPU * max(1, int(ray.cluster_resources().get("CPU", 1)))
    pending: list[Any] = []
    try:
        for chunk in chunks:
            pending.append(remote.remote(chunk))
            while len(pending) >= limit:
                done, pending = ray.wait(pending, num_returns=1)
                yield from ray.get(done[0])
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
    finally:
        for ref in pending:  # stopped early: do not leave games running on a cluster
            ray.cancel(ref)


def _ray_results(jobs: list[tuple[Any, ...]], workers: int) -> Iterator[dict[str, Any]]:
    ray = _import_ray()
    started = _ray_connect(ray, workers)
    try:
        yield from _ray_stream(ray, jobs)
    finally:
        if started:
            ray.shutdown()


def _results(jobs: list[tuple[Any, ...]], workers: int, backend: str) -> Generator[dict[str, Any], None, None]:
    if not jobs:
        return
    if backend == "ray":
        yield from _ray_results(jobs, workers)
    else:
        yield from _local_results(jobs, workers)


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
    _check_backend(backend)
    if len(factories) != len(labels) or not 2 <= len(factories) <= 8:
        raise ValueError("a tournament needs 2 to 8 agents, one label each")
    if games < 1:
        raise ValueError("games must be >= 1")
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
        results = stack.enter_context(contextlib.closing(_results(todo, workers, backend)))  # closed first, on any exit
        for row in results:
            rows[row["game"]] = row
            if fh is not None:
                fh.write(json.dumps(row, sort_keys=True) + "\n")
                fh.flush()
            if progress is not None:
                progress(len(rows), games, row)
    ordered = [rows[g] for g in range(games)]
    standings, draws = summarize(ordered, labels)
    return TournamentResult(ordered, standings, draws, time.perf_counter() - start)
