"""Fit the horizon value (engine/sim/win_model.py) on games played to the end, and report it.

    python bench/fit_win_model.py --games 3000 --workers 2 [--seed 0] [--every 5] [--write]

Data. Game ``i`` (seeded by ``SeedSequence([seed, i])``) is a game of the
reference engine between 2 to 4 ``StrategicTradeAgent``s (4 players in 60% of
games, 3 in 25%, 2 in 15%) whose parameters are drawn per seat (reserve 50 /
150 / 300, premium 0.2 / 0.5 / 1.0, trading on in 85% of seats), so that
the model sees varied play, not one opponent. The weights are fitted with
their signs bounded (engine/sim/win_model.py says why); the unconstrained fit
is printed beside it. The state at the start of
every ``every``-th round (from round ``every`` on) is a sample; its label is
the game's winner. Games that reach the round cap are left out (their
"winner" is the net-worth rule we want to replace); the share is reported.

Fit and report. Games are split by game index (every 4th game held out, so
no game has states on both sides); the weights are fitted by maximum
likelihood on the training games (:func:`engine.sim.win_model.fit`); on the
held-out games the script prints the log loss and the Brier score of the
model and of the net-worth rule (probability 1 to the richest), and a
reliability table of the model. ``--write`` stores the weights with this
provenance in ``engine/sim/data/win-model.json``.

Rows stream to ``bench/out/win-model-games.jsonl`` (resumable with ``--resume``).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _runner import peak_rss_mb, run  # noqa: E402

from engine.rules.actions import Event  # noqa: E402
from engine.rules.game import Game  # noqa: E402
from engine.rules.seeding import game_seed_sequence, game_seeds  # noqa: E402
from engine.rules.streams import SeededStream  # noqa: E402
from engine.sim import win_model as wm  # noqa: E402
from models.files import atomic_write  # noqa: E402
from models.state import GameState  # noqa: E402
from solver.agents.strategic import StrategicTradeAgent  # noqa: E402

MAX_ROUNDS = 1000
EVERY = 5
OUT_MODEL = Path(__file__).resolve().parents[1] / "engine" / "sim" / "data" / "win-model.json"


def lineup(seed: int, game: int) -> tuple[int, list[dict[str, Any]]]:
    """Players and per-seat agent options of game ``game`` (seeded, independent of the dice)."""
    rng = np.random.default_rng([seed, game, 7])
    n = int(rng.choice([2, 3, 4], p=[0.15, 0.25, 0.60]))
    seats = [
        {
            "reserve": int(rng.choice([50, 150, 300])),
            "premium": float(rng.choice([0.2, 0.5, 1.0])),
            "trade": bool(rng.random() < 0.85),
        }
        for _ in range(n)
    ]
    return n, seats


def play_one(seed: int, game: int) -> dict[str, Any]:
    n, seats = lineup(seed, game)
    names = [f"P{i + 1}" for i in range(n)]
    stream_seed, seat_seeds = game_seeds(game_seed_sequence(seed, game), n)
    samples: list[dict[str, Any]] = []
    last = [-1]

    def sample(event: Event, g: Game) -> None:
        s = g.state
        if event.kind == "turn" and s.round != last[0]:
            last[0] = s.round
            if s.round >= EVERY and s.round % EVERY == 0:
                f = wm.state_features(s)
                samples.append({"round": s.round, "bankrupt": [p.bankrupt for p in s.players], "f": np.round(f, 6).tolist()})

    agents = [StrategicTradeAgent(sd, **opts) for sd, opts in zip(seat_seeds, seats, strict=True)]
    result = Game(GameState.new_game(names), agents, SeededStream(stream_seed), max_rounds=MAX_ROUNDS, observers=[sample]).play()
    return {
        "players": n,
        "seats": seats,
        "reason": result.reason,
        "rounds": result.rounds,
        "winner": names.index(result.winner) if result.winner in names else -1,
        "samples": samples,
    }


def arrays(rows: list[dict[str, Any]], k: int = len(wm.FEATURES), players: int = 4) -> tuple[np.ndarray, ...]:
    """Stack the samples of finished games: (features, mask, winner, game) padded to ``players``."""
    fs, masks, wins, games = [], [], [], []
    for r in rows:
        if r["reason"] != "bankruptcy" or r["winner"] < 0:
            continue
        for s in r["samples"]:
            f = np.zeros((players, k))
            m = np.zeros(players, bool)
            n = len(s["bankrupt"])
            f[:n] = s["f"]
            m[:n] = ~np.array(s["bankrupt"])
            if m.sum() < 2 or not m[r["winner"]]:
                continue
            fs.append(f)
            masks.append(m)
            wins.append(r["winner"])
            games.append(r["game"])
    return np.array(fs), np.array(masks), np.array(wins, np.int64), np.array(games, np.int64)


def log_loss(prob: np.ndarray, winner: np.ndarray) -> float:
    return float(-np.log(np.maximum(prob[np.arange(len(winner)), winner], 1e-12)).mean())


def main() -> int:
    global MAX_ROUNDS, EVERY
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--every", type=int, default=EVERY)
    parser.add_argument("--max-rounds", type=int, default=MAX_ROUNDS)
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--out", type=Path, default=Path("bench/out/win-model-games.jsonl"))
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--write", action="store_true", help=f"store the fitted model in {OUT_MODEL}")
    args = parser.parse_args()
    MAX_ROUNDS, EVERY = args.max_rounds, args.every
    rows, wall = run(play_one, games=args.games, seed=args.seed, workers=args.workers, out=args.out, resume=args.resume)
    ended = sum(r["reason"] == "bankruptcy" for r in rows)
    f, m, w, g = arrays(rows)
    test = g % 4 == 3
    weights = wm.fit(f[~test], m[~test], w[~test], args.l2)
    free = wm.fit(f[~test], m[~test], w[~test], args.l2, signs=None)
    p_model = wm.win_probabilities(weights, f[test], ~m[test])
    p_free = wm.win_probabilities(free, f[test], ~m[test])
    p_rich = wm.richest_rule(f[test], m[test])
    p_even = m[test] / m[test].sum(axis=1, keepdims=True)
    report = {
        "games": len(rows),
        "ended_by_bankruptcy": ended,
        "samples_train": int((~test).sum()),
        "samples_test": int(test.sum()),
        "test_games": int(len(set(g[test].tolist()))),
        "unconstrained_weights": [float(x) for x in free],
        "brier": {"model": wm.brier(p_model, m[test], w[test]), "unconstrained": wm.brier(p_free, m[test], w[test]),
                  "richest": wm.brier(p_rich, m[test], w[test]),
                  "even": wm.brier(p_even, m[test], w[test])},
        "log_loss": {"model": log_loss(p_model, w[test]), "even": log_loss(p_even, w[test])},
        "reliability": wm.reliability(p_model, m[test], w[test]),
    }
    print(f"games {len(rows)} (seed {args.seed}); ended by bankruptcy {ended} ({ended / len(rows):.1%}); "
          f"samples train {report['samples_train']}, test {report['samples_test']} from {report['test_games']} games")
    print("weights: " + ", ".join(f"{n} {x:+.3f}" for n, x in zip(wm.FEATURES, weights, strict=True)))
    b = report["brier"]
    print("unconstrained: " + ", ".join(f"{n} {x:+.3f}" for n, x in zip(wm.FEATURES, free, strict=True)))
    print(f"held-out Brier: model {b['model']:.4f} (unconstrained {b['unconstrained']:.4f}), "
          f"net-worth rule {b['richest']:.4f}, even split {b['even']:.4f}")
    print(f"held-out log loss: model {report['log_loss']['model']:.4f}, even split {report['log_loss']['even']:.4f}")
    print("reliability (model, held out):  bin        n   predicted  observed (SE)")
    for r in report["reliability"]:
        print(f"  [{r['lo']:.1f}, {r['hi']:.1f})  {r['n']:6d}   {r['predicted']:.3f}     {r['observed']:.3f} ({r['se']:.3f})")
    print(f"wall {wall:.0f} s, peak RSS {peak_rss_mb():.0f} MB")
    if args.write:
        model = wm.WinModel(weights, {
            "script": "bench/fit_win_model.py",
            "command": " ".join(["python", "bench/fit_win_model.py", *sys.argv[1:]]),
            "date": date.today().isoformat(),
            "seed": args.seed, "every": args.every, "max_rounds": args.max_rounds, "l2": args.l2,
            **{k: v for k, v in report.items() if k != "reliability"},
        })
        atomic_write(OUT_MODEL, json.dumps(model.to_dict(), indent=1) + "\n")
        print(f"wrote {OUT_MODEL}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
