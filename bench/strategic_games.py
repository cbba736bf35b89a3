"""Four ``StrategicTradeAgent``s: seat win rates, how games end, length, speed.

    python bench/strategic_games.py --games 4000 --workers 2 [--seed 0] [--max-rounds 1000] [--resume]

Game ``i`` is seeded by ``SeedSequence([seed, i])``. Prints per-seat win
rates with 95% Wilson intervals, the share of games ended by bankruptcy
before the round cap, median rounds, trades per game, and full games per
second on one core (CPU time per game, summed over the workers).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _runner import peak_rss_mb, run, wilson  # noqa: E402

from engine.rules.actions import Event  # noqa: E402
from engine.rules.game import Game  # noqa: E402
from engine.rules.seeding import game_seed_sequence, game_seeds  # noqa: E402
from engine.rules.streams import SeededStream  # noqa: E402
from models.state import GameState  # noqa: E402
from solver.agents.strategic import StrategicTradeAgent  # noqa: E402

SEATS = ("P1", "P2", "P3", "P4")
MAX_ROUNDS = 1000


def play_one(seed: int, game: int) -> dict[str, Any]:
    stream_seed, seats = game_seeds(game_seed_sequence(seed, game), len(SEATS))
    trades = Counter()

    def count(event: Event, _: Game) -> None:
        if event.kind == "trade":
            trades[bool(event.data["accepted"])] += 1

    g = Game(
        GameState.new_game(list(SEATS)),
        [StrategicTradeAgent(s) for s in seats],
        SeededStream(stream_seed),
        max_rounds=MAX_ROUNDS,
        observers=[count],
    )
    r = g.play()
    return {
        "winner": r.winner,
        "reason": r.reason,
        "rounds": r.rounds,
        "turns": r.turns,
        "trades": trades[True],
        "refused": trades[False],
    }


def main() -> int:
    global MAX_ROUNDS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-rounds", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=Path("bench/out/strategic.jsonl"))
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()
    MAX_ROUNDS = args.max_rounds
    rows, wall = run(play_one, games=args.games, seed=args.seed, workers=args.workers, out=args.out, resume=args.resume)
    n = len(rows)
    wins = Counter(r["winner"] for r in rows)
    bankrupt = sum(1 for r in rows if r["reason"] == "bankruptcy")
    lo, hi = wilson(bankrupt, n)
    cpu = sum(r["cpu_s"] for r in rows)
    turns = sum(r["turns"] for r in rows)
    print(f"strategic x4: {n} games (seed {args.seed}, games 0..{n - 1}, cap {args.max_rounds} rounds)")
    for seat in SEATS:
        a, b = wilson(wins[seat], n)
        print(f"  {seat} wins {wins[seat] / n:.3f}  [{a:.3f}, {b:.3f}]")
    print(f"  ended by bankruptcy before the cap: {bankrupt / n:.3f}  [{lo:.3f}, {hi:.3f}]")
    print(f"  rounds: median {statistics.median(r['rounds'] for r in rows)}, mean {statistics.fmean(r['rounds'] for r in rows):.1f}")
    print(f"  trades per game: accepted {statistics.fmean(r['trades'] for r in rows):.2f}, refused {statistics.fmean(r['refused'] for r in rows):.2f}")
    print(f"  speed: {n / cpu:.2f} games/s on one core ({turns / cpu:,.0f} turns/s); wall this run {wall:.0f} s; peak RSS {peak_rss_mb():.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
