"""Do the verdicts of ``evaluate`` agree with games played to the end? (issue 38's independent check)

    python bench/verdict_reference.py [--trades 40] [--games 4000] [--seed 0] [--ref-seed 11]
                                      [--agents strategic,strategic,value,value] [--workers 2]
                                      [--per-game 2] [--pilot 200] [--open-below 0.98]
                                      [--block 200] [--z-stop 3] [--tolerance 0.02] [--resume]

Trades are two-player offers agents made in games of ``--agents`` (:func:`respond_calibration.collect`,
seed ``--seed``), at most ``--per-game`` from one game (the offers of one game share its course),
in the order met, keeping the first ``--trades`` whose state is still open: no player wins more
than ``--open-below`` of ``--pilot`` games played to the end from the state before the trade by
four ``strategic`` agents (stream seed ``SeedSequence([ref_seed + 7919, g])``, not the
reference's). A state already decided says nothing about a verdict: the first two trades of
version 1 of this bench came from a state one player won in all 4,000 games of both branches.
The filter reads the state only, never the trade or its evaluation. Each kept trade is judged by
:func:`solver.evaluate.evaluate_trade` at ``solve``'s default settings: every participant's
change in win probability and its verdict (``accept``/``refuse``). The reference, a policy the
evaluation does not use: ``--games`` paired games played to the end (1,000-round cap) by four
``strategic`` agents in every seat from the state with and without the trade
(:func:`played_out.played_out`, stream seed ``SeedSequence([ref_seed, g])``; in the games
"without", every seat refuses this trade: the state was met as its proposer offered it, and
the same agent offers it again at once, so without the bar "without" is "a moment later",
which version 2 measured: the same winner in all 4,000 games of its first trade), each
participant's mean paired difference of wins with its standard error. The games are played in
blocks of ``--block`` pairs and a trade stops early once each participant is settled: its change
beyond ``--z-stop`` standard errors, or its 95% half-width below ``--tolerance``
(:func:`played_out.sequential`; version 4: version 3 played 4,000 pairs for every trade, and its
first trade had not finished in 44 minutes on two workers).

A verdict agrees when it is ``accept`` and the reference change is positive, or ``refuse`` and
it is negative; counted where the reference change is beyond 2 standard errors (the issue's
target: >= 85% agreement on >= 40 trades). One JSON line per trade goes to
``bench/out/verdict-reference-*.jsonl`` as it finishes, so a run killed or stopped by a
session's end resumes where it stopped (``--resume``; a file of other settings is refused).
Costly: up to 2 x ``--games`` games per trade, at 0.1-0.2 s of CPU a game when the games end
early, far more when the bar keeps a game going (toward the 1,000-round cap): the first trade
of version 3 (4,000 pairs for every trade) took more than 30 CPU-minutes on each of two workers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from models.io import state_to_dict  # noqa: E402
from models.state import GameState  # noqa: E402
from played_out import _play, sequential  # noqa: E402
from respond_calibration import collect  # noqa: E402
from solver.evaluate import evaluate_trade  # noqa: E402
from solver.trades.rescore import trade_after  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trades", type=int, default=40)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ref-seed", type=int, default=11)
    ap.add_argument("--agents", default="strategic,strategic,value,value")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--per-game", type=int, default=2)
    ap.add_argument("--pilot", type=int, default=200)
    ap.add_argument("--open-below", type=float, default=0.98)
    ap.add_argument("--block", type=int, default=200)
    ap.add_argument("--z-stop", type=float, default=3.0)
    ap.add_argument("--tolerance", type=float, default=0.02)
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    settings = {
        "trades": args.trades, "games": args.games, "seed": args.seed, "ref_seed": args.ref_seed, "agents": args.agents,
        "per_game": args.per_game, "pilot": args.pilot, "open_below": args.open_below,
        "block": args.block, "z_stop": args.z_stop, "tolerance": args.tolerance,
    }
    out = ROOT / "bench" / "out" / f"verdict-reference-4-{args.seed}-{args.games}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    done: dict[int, dict[str, Any]] = {}
    if out.exists():
        if not args.resume:
            raise SystemExit(f"{out} exists: --resume to complete it (or remove it)")
        lines = out.read_text().splitlines()
        if not lines or json.loads(lines[0]) != {"header": "verdict-reference/4", **settings}:
            raise SystemExit(f"{out} was written with other settings")
        for line in lines[1:]:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:  # a line torn by a kill: that trade runs again
                continue
            done[row["k"]] = row
        out.write_text("".join(json.dumps(x) + "\n" for x in [{"header": "verdict-reference/4", **settings}, *done.values()]))
    else:
        out.write_text(json.dumps({"header": "verdict-reference/4", **settings}) + "\n")
    offers = collect(args.agents.split(","), args.seed, 6 * args.trades, per_game=args.per_game)
    t0 = time.perf_counter()
    with out.open("a") as fh:
        for k, (state, trade, proposer, responder, _spec, _seat) in enumerate(offers):
            if sum(1 for row in done.values() if "verdicts" in row) >= args.trades:
                break
            if k in done:
                continue
            top = _top_share(state, args.pilot, args.ref_seed + 7919, args.workers)
            if top > args.open_below:  # decided: recorded, so that a resumed run does not play the pilot again
                row = {"k": k, "decided": top}
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                done[k] = row
                print(f"  offer {k + 1}: decided (a player wins {top:.0%} of the pilot), skipped", file=sys.stderr, flush=True)
                continue
            ev = evaluate_trade(state, trade, proposer=proposer)
            diff = sequential(
                state, trade_after(state, trade), (proposer, responder), args.games, args.ref_seed, args.workers,
                barred=trade, block=args.block, z_stop=args.z_stop, tolerance=args.tolerance,
            )
            names = [p.name for p in state.players]
            ref = {names[i]: (float(diff[:, i].mean()), float(diff[:, i].std(ddof=1) / len(diff) ** 0.5)) for i in (proposer, responder)}
            row = {
                "k": k,
                "state": state_to_dict(state),
                "trade": trade.to_dict(),
                "verdicts": {n: ev.verdicts[n].verdict for n in ref},
                "win_delta": {n: ev.win_delta[n] for n in ref},
                "win_delta_se": {n: ev.win_delta_se[n] for n in ref},
                "reference": {n: m for n, (m, _) in ref.items()},
                "reference_se": {n: s for n, (_, s) in ref.items()},
                "games": len(diff),
            }
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            done[k] = row
            print(f"  offer {k + 1}: trade done, {len(diff)} paired games ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    significant = agree = 0
    kept = [row for row in done.values() if "verdicts" in row]
    print(f"{len(done) - len(kept)} offers skipped as decided (a player wins more than {args.open_below:.0%} of a {args.pilot}-game pilot)")
    for row in kept:
        for name, m in row["reference"].items():
            if abs(m) > 2 * row["reference_se"][name]:
                significant += 1
                agree += (row["verdicts"][name] == "accept") == (m > 0)
    print(
        f"{len(kept)} trades from games of {args.agents} (seed {args.seed}); reference: up to {args.games} paired games"
        f" of four strategic agents each ({sum(row['games'] for row in kept)} played)"
    )
    print(f"  participants whose played-out change is beyond 2 standard errors: {significant}")
    if significant:
        print(f"  verdicts agreeing with its sign: {agree} ({agree / significant:.0%}; target >= 85%)")
    return 0


def _top_share(state: GameState, games: int, seed: int, workers: int) -> float:
    """The largest share of ``games`` games to the end from ``state`` (four ``strategic`` agents) that one player wins."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        winners = list(pool.map(_play, [(state, seed, g) for g in range(games)], chunksize=20))
    counts = [winners.count(i) for i in range(len(state.players))]
    return max(counts) / games


if __name__ == "__main__":
    raise SystemExit(main())
