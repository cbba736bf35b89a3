"""Head-to-head against the baseline, paired with the baseline's own games.

    python bench/h2h_paired.py [--h2h bench/out/h2h-subgraph.jsonl] [--base bench/out/strategic.jsonl]

``--h2h`` is the results file of ``monopoly-trade tournament --agents
subgraph,strategic,strategic,strategic --seed S`` (seats rotated: in game i
the first agent sits in seat ``(-i) mod 4``). ``--base`` is that of
``bench/strategic_games.py --seed S`` (four baseline agents, same game
seeds, so the same dice and cards). For every game in both files, the paired
difference is ``[subgraph won] - [the baseline in the same seat won]``;
printed: both win rates (95% Wilson intervals) and the mean paired
difference with its 95% normal interval.

``--base-agent NAME`` pairs with another head-to-head file instead (the same
line-up with another variant of the tested agent, e.g. ``subgraph`` against
``subgraph:relax=true``): the paired difference is then ``[variant won] -
[NAME won]`` in the same game, same seat, same dice.
"""

from __future__ import annotations

import argparse
import math
import statistics
from pathlib import Path

from engine.tournament import read_rows, wilson

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--h2h", default=str(ROOT / "bench" / "out" / "h2h-subgraph.jsonl"))
    ap.add_argument("--base", default=str(ROOT / "bench" / "out" / "strategic.jsonl"))
    ap.add_argument("--agent", default="subgraph")
    ap.add_argument("--base-agent", help="--base is a head-to-head file of this agent (same line-up and seeds)")
    args = ap.parse_args()
    h2h = read_rows(Path(args.h2h))
    base = read_rows(Path(args.base))
    pairs = []
    for g, row in sorted(h2h.items()):
        if g not in base:
            continue
        seat = (-g) % 4
        base_won = base[g]["winner"] == args.base_agent if args.base_agent else base[g]["winner"] == f"P{seat + 1}"
        pairs.append((float(row["winner"] == args.agent), float(base_won)))
    n = len(pairs)
    if n < 2:
        raise SystemExit("no games in common")
    k_a = int(sum(a for a, _ in pairs))
    k_b = int(sum(b for _, b in pairs))
    diff = [a - b for a, b in pairs]
    mean = statistics.fmean(diff)
    half = 1.959963984540054 * statistics.stdev(diff) / math.sqrt(n)
    lo, hi = wilson(k_a, n)
    blo, bhi = wilson(k_b, n)
    print(f"{n} paired games")
    print(f"  {args.agent}: {k_a / n:.4f}  95% [{lo:.4f}, {hi:.4f}]")
    other = args.base_agent or "baseline in the same seat"
    print(f"  {other}, same dice: {k_b / n:.4f}  95% [{blo:.4f}, {bhi:.4f}]")
    print(f"  paired difference: {mean:+.4f}  95% [{mean - half:+.4f}, {mean + half:+.4f}]")


if __name__ == "__main__":
    main()
