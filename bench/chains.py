"""Speed of the exact chains (issue targets in brackets).

    python bench/chains.py [--repeat 50]

Prints, for the standard board and rules: building the position chain and its
long-run landing table (< 50 ms), the k = 10 turn distributions from Go on a
built chain (< 5 ms), ``ruin_pmf`` on the seed 004 sample board with 41 cash
buckets x 40 squares x 20 turns (< 5 ms; bucket 50, cap 2000 gives 41 grid
points), ``eventual_ruin`` there, and the state-derived 20-turn ruin PMF on
``instances/near-ruin.json``. Each figure is the median (and min) of
``--repeat`` timed runs after one warm-up; peak RSS of the process at the end.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from engine.chains.bankruptcy import (
    SEED004_SAMPLE_NET,
    build_chain,
    eventual_ruin,
    ruin_pmf,
)
from engine.chains.markov import PositionChain
from engine.chains.state_risk import state_ruin_pmf
from models.board import standard_board
from models.io import load_state
from models.rules import Rules

SAMPLE_NET = [float(v) for v in SEED004_SAMPLE_NET]


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    fn()
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs) * 1000, min(runs) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    board, rules = standard_board(), Rules()
    chain = PositionChain(board, rules, "long")
    grid = len(build_chain(SAMPLE_NET, 600).grid)
    near_ruin = load_state(Path(__file__).resolve().parents[1] / "instances" / "near-ruin.json")
    rows = [
        ("long-run landing table (build chain + solve)", "< 50 ms", lambda: PositionChain(board, rules, "long").long_run_landing()),
        ("k = 10 turn distributions from Go", "< 5 ms", lambda: chain.distributions(0, 10)),
        ("k = 10 turns of expected landings", "", lambda: chain.expected_landings(0, 10)),
        (f"ruin_pmf, {grid} buckets x 40 squares x 20 turns", "< 5 ms", lambda: ruin_pmf(SAMPLE_NET, 600)),
        ("eventual_ruin, same chain", "", lambda: eventual_ruin(SAMPLE_NET, 600)),
        ("state_ruin_pmf, near-ruin.json, Dee, 20 turns", "", lambda: state_ruin_pmf(near_ruin, "Dee", 20)),
    ]
    print(f"exact chains, median of {args.repeat} runs (min in brackets)")
    for label, target, fn in rows:
        med, low = timed(fn, args.repeat)
        print(f"  {label:<50} {med:8.2f} ms  ({low:.2f})  {target}")
    print(f"  peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
