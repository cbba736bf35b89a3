"""Soak test: many random-agent games, every invariant checked after every event.

    python bench/soak.py --games 20000 --workers 2 [--seed 0] [--max-rounds 200] [--resume]

Prints the number of games, events and checks, and every violation found
(there should be none). Resumable: results stream to ``--out`` one line per
game. The invariants are those of ``engine.rules.invariants``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _runner import peak_rss_mb, run  # noqa: E402

from engine.rules.agents import RandomAgent  # noqa: E402
from engine.rules.game import Game  # noqa: E402
from engine.rules.invariants import InvariantChecker, check_state  # noqa: E402
from engine.rules.seeding import game_seed_sequence, game_seeds  # noqa: E402
from engine.rules.streams import SeededStream  # noqa: E402
from models.state import GameState  # noqa: E402

MAX_ROUNDS = 200


def play_one(seed: int, game: int) -> dict[str, Any]:
    stream_seed, seats = game_seeds(game_seed_sequence(seed, game), 4)
    checker = InvariantChecker(strict=False)
    g = Game(
        GameState.new_game(["A", "B", "C", "D"]),
        [RandomAgent(s) for s in seats],
        SeededStream(stream_seed),
        max_rounds=MAX_ROUNDS,
        observers=[checker],
    )
    try:
        result = g.play()
        violations = checker.violations + check_state(g.state)
        reason, rounds = result.reason, result.rounds
    except Exception as err:  # an engine crash is a violation too, reported with its game
        violations = [f"crash: {type(err).__name__}: {err}"]
        reason, rounds = "crash", g.state.round
    return {"reason": reason, "rounds": rounds, "events": checker.events, "checks": checker.checks, "violations": violations[:5]}


def main() -> int:
    global MAX_ROUNDS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-rounds", type=int, default=200)
    parser.add_argument("--out", type=Path, default=Path("bench/out/soak.jsonl"))
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()
    MAX_ROUNDS = args.max_rounds
    rows, wall = run(play_one, games=args.games, seed=args.seed, workers=args.workers, out=args.out, resume=args.resume)
    bad = [r for r in rows if r["violations"]]
    events = sum(r["events"] for r in rows)
    checks = sum(r["checks"] for r in rows)
    cpu = sum(r["cpu_s"] for r in rows)
    ended = sum(1 for r in rows if r["reason"] == "bankruptcy")
    print(f"soak: {len(rows)} random-agent games (seed {args.seed}, cap {args.max_rounds} rounds)")
    print(f"  events observed {events:,}, state checks {checks:,}")
    print(f"  ended by bankruptcy {ended}, by the round cap {len(rows) - ended - sum(1 for r in rows if r['reason'] == 'crash')}")
    print(f"  games with violations: {len(bad)}")
    for r in bad[:10]:
        print(f"    game {r['game']}: {r['violations'][0]}")
    print(f"  cpu {cpu:.0f} s ({len(rows) / max(cpu, 1e-9):.2f} games/s per core); wall this run {wall:.0f} s; peak RSS {peak_rss_mb():.0f} MB")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
