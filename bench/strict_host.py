"""What a stricter host costs an agent: paired games under the standard host and a strict one.

    python bench/strict_host.py [--games 600] [--agents subgraph,strategic,strategic,strategic]
                                [--drop 0.3] [--refuse 0.3] [--refuse-trades SHARE] [--seed 0]
                                [--workers 2] [--resume]

Game ``i`` is played twice with the same seating, dice and agents' seeds: by the reference
engine (:func:`engine.tournament.run.play_one`) and by
:class:`engine.tournament.strict_host.StrictHost`, whose views leave a seeded share
``--drop`` of our rules' legal moves out of their lists and which refuses a seeded share
``--refuse`` of the listed moves and trades when tried (a ``refused`` event; the phase goes
on); ``--refuse-trades`` gives the trades a share of their own (to tell which refusals cost
the agent). Printed: the first agent's win rate under each host (95% Wilson intervals), the paired
difference (95% normal interval), and what the agents did with the host (moves answered,
refused, unlisted moves taken, refused moves asked again in the same position: both must be
0), with the CPU and peak memory. Rows stream to ``bench/out/strict-host-*.jsonl``
(``--resume`` completes a run).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _runner import peak_rss_mb, run, wilson  # noqa: E402

from engine.tournament.run import play_one  # noqa: E402
from engine.tournament.strict_host import play_strict  # noqa: E402
from solver.agents.registry import factory  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _both(specs: list[str], max_rounds: int, drop: float, refuse: float, refuse_trades: float | None, seed: int, game: int) -> dict[str, Any]:
    factories = [factory(s) for s in specs]
    t = time.process_time()
    standard = play_one(factories, specs, seed, game, max_rounds)
    t_std = time.process_time() - t
    strict = play_strict(factories, specs, seed, game, max_rounds, drop, refuse, refuse_trades)
    return {
        "seats": standard["seats"],
        "standard": standard["winner"],
        "strict": strict["winner"],
        "cpu_standard": round(t_std, 3),
        **{k: strict[k] for k in ("asked", "refused", "unlisted", "repeats", "examples")},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--agents", default="subgraph,strategic,strategic,strategic")
    ap.add_argument("--drop", type=float, default=0.3)
    ap.add_argument("--refuse", type=float, default=0.3)
    ap.add_argument("--refuse-trades", type=float, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-rounds", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    specs = args.agents.split(",")
    out = ROOT / "bench" / "out" / f"strict-host-{specs[0].replace(':', '_')}-{args.seed}-{args.drop}-{args.refuse}{'' if args.refuse_trades is None else f'-{args.refuse_trades}'}.jsonl"
    rows, wall = run(
        partial(_both, specs, args.max_rounds, args.drop, args.refuse, args.refuse_trades),
        games=args.games, seed=args.seed, workers=args.workers, out=out, resume=args.resume, progress_every=50,
    )
    n = len(rows)
    me = specs[0]
    a = [float(r["standard"] == me) for r in rows]
    b = [float(r["strict"] == me) for r in rows]
    diff = [y - x for x, y in zip(a, b)]
    mean = statistics.fmean(diff)
    half = 1.959963984540054 * statistics.stdev(diff) / math.sqrt(n) if n > 1 else float("nan")
    print(f"{n} paired games, {args.agents}, seed {args.seed}; strict host: drop {args.drop}, refuse {args.refuse}"
          + ("" if args.refuse_trades is None else f", trades {args.refuse_trades}"))
    for name, wins in (("standard host", a), ("strict host", b)):
        lo, hi = wilson(int(sum(wins)), n)
        print(f"  {me} under the {name}: {sum(wins) / n:.4f}  95% [{lo:.4f}, {hi:.4f}]")
    print(f"  paired difference (strict - standard): {mean:+.4f}  95% [{mean - half:+.4f}, {mean + half:+.4f}]")
    tot = {k: sum(r[k] for r in rows) for k in ("asked", "refused", "unlisted", "repeats")}
    print(
        f"  moves answered under the strict host {tot['asked']}, refused {tot['refused']}, "
        f"unlisted moves taken {tot['unlisted']}, refused moves asked again {tot['repeats']}"
    )
    examples = [x for r in rows for x in r["examples"]][:5]
    for x in examples:
        print(f"    {x}")
    cpu = sum(r["cpu_s"] for r in rows)
    print(f"  CPU {cpu:.0f} s for both hosts ({cpu / max(1, n):.2f} s a pair), wall {wall:.0f} s, peak RSS {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
