"""A small resumable, parallel runner for the benchmark scripts.

Each finished game is appended as one JSON line to the output file and
flushed at once, so killing a run loses no finished game; ``--resume`` skips
the games already in the file. Game ``i`` is seeded by
``SeedSequence([seed, i])`` (``engine.rules.seeding.game_seed_sequence``), so the
results do not depend on the number of workers.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import resource
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine.tournament import read_rows as done_games
from engine.tournament import rewrite_rows, wilson

__all__ = ["done_games", "peak_rss_mb", "run", "wilson"]


def run(
    play_one: Callable[[int, int], dict[str, Any]],
    *,
    games: int,
    seed: int,
    workers: int,
    out: Path,
    resume: bool,
    progress_every: int = 500,
) -> tuple[list[dict[str, Any]], float]:
    """Play games ``0..games-1`` (those not yet in ``out`` when resuming); return all rows and wall time."""
    out.parent.mkdir(parents=True, exist_ok=True)
    if not resume and out.exists():
        out.unlink()
    rows = done_games(out)
    todo = [i for i in range(games) if i not in rows]
    if rows:
        # Drop any torn line left by a kill before appending.
        rewrite_rows(out, rows)
    start = time.perf_counter()
    from solver.cli.progress import GameBar, bar_enabled

    tty = bar_enabled()
    with out.open("a", encoding="utf-8") as fh, GameBar(games, out.stem, done_rows=rows.values()) as game_bar:
        for n, row in enumerate(_map(play_one, seed, todo, workers), 1):
            fh.write(json.dumps(row, sort_keys=True) + "\n")
            fh.flush()
            rows[row["game"]] = row
            game_bar(len(rows), games, row)
            if not tty and n % progress_every == 0:  # in a log: a line now and then instead of the bar
                rate = n / (time.perf_counter() - start)
                print(f"  {len(rows)}/{games} games ({rate:.1f}/s)", file=sys.stderr, flush=True)
    return [rows[i] for i in sorted(rows) if i < games], time.perf_counter() - start


def _call(args: tuple[Callable[[int, int], dict[str, Any]], int, int]) -> dict[str, Any]:
    fn, seed, game = args
    t = time.process_time()
    row = fn(seed, game)
    row["game"] = game
    row["cpu_s"] = round(time.process_time() - t, 4)
    return row


def _map(fn: Callable[[int, int], dict[str, Any]], seed: int, todo: list[int], workers: int) -> Iterator[dict[str, Any]]:
    jobs = [(fn, seed, g) for g in todo]
    if workers <= 1:
        yield from map(_call, jobs)
        return
    with mp.get_context("fork").Pool(workers) as pool:
        yield from pool.imap_unordered(_call, jobs, chunksize=8)


def peak_rss_mb() -> float:
    """Peak resident memory of this process and of its finished children, in MB (Linux ru_maxrss is KiB)."""
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(me, kids) / 1024
