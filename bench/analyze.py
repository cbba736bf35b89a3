"""Time of ``monopoly-trade analyze`` per instance, after start-up (target < 100 ms each).

    python bench/analyze.py [--repeat 5]

Start-up (imports, the first position chain) is paid once before timing; each
figure is the median of ``--repeat`` runs of the whole analysis (every active
player: subgraph, position with its 20-turn ruin chain, exact frontier,
property values), as the command computes it.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from pathlib import Path

from engine.chains.markov import PositionChain
from models.io import load_state
from solver.analysis.summary import player_analysis

INSTANCES = Path(__file__).resolve().parents[1] / "instances"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    files = sorted(INSTANCES.glob("*.json"))
    warm = load_state(files[0])
    player_analysis(warm, warm.active_players()[0], PositionChain(warm.board, warm.rules, "long"))
    print(f"analyze, median of {args.repeat} runs per instance (all active players)")
    for f in files:
        runs = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            state = load_state(f)
            chain = PositionChain(state.board, state.rules, "long")
            for p in state.active_players():
                player_analysis(state, p, chain)
            runs.append(time.perf_counter() - t)
        print(f"  {f.name:<32} {statistics.median(runs) * 1000:8.1f} ms  ({len(load_state(f).active_players())} players)")
    print(f"  peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
