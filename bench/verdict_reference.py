"""Do the verdicts of ``evaluate`` agree with games played to the end? (issue 38's independent check)

    python bench/verdict_reference.py [--trades 40] [--games 4000] [--seed 0] [--ref-seed 11]
                                      [--agents strategic,strategic,value,value] [--workers 2]
                                      [--per-game 2] [--pilot 200] [--open-below 0.98]
                                      [--block 200] [--z-stop 3] [--tolerance 0.02] [--out FILE]
                                      [--resume]

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
target: >= 85% agreement on >= 40 trades).

The file (``--out``, by default ``bench/runs/verdict-reference-5-SEED-GAMES.jsonl``, kept in
the repository so that the run outlives a session) holds, after its header of settings, one
line per event as it happens: an offer's pilot share (``top``), its evaluation (``verdicts``,
``win_delta``, ``win_delta_se``, with the state, trade and proposer), and each block of paired
games (``start``, ``n``, ``capped``: the games of each branch, without and with the trade, that
ended at the round cap and were won on net worth, and per participant the sum of its paired
differences and of their squares). A run killed or stopped by a session's end resumes at the
next block of the trade it was playing (``--resume``; a file of other settings is refused; a
line torn by the kill is dropped and its block played again). Version 5: version 4 kept a
trade only once finished, and one trade can take longer than a session.
Cost: up to 2 x ``--games`` games per trade; a game without the trade that stalls to the
1,000-round cap costs far more than one that ends by bankruptcy. Session 22's run of 40 trades
(24,200 paired games; most trades stopped at 400) took about 30 minutes on two workers.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from models.io import state_to_dict  # noqa: E402
from models.state import GameState  # noqa: E402
from played_out import _play, paired_block_ends  # noqa: E402
from respond_calibration import collect  # noqa: E402
from solver.evaluate import evaluate_trade  # noqa: E402
from solver.trades.rescore import trade_after  # noqa: E402


HEADER = "verdict-reference/5"
"""The file's version: 5 keeps every block of games (a trade resumes mid-way)."""


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
    ap.add_argument("--out", type=Path, default=None, help="the results file (default bench/runs/verdict-reference-5-SEED-GAMES.jsonl)")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    settings = {
        "trades": args.trades, "games": args.games, "seed": args.seed, "ref_seed": args.ref_seed, "agents": args.agents,
        "per_game": args.per_game, "pilot": args.pilot, "open_below": args.open_below,
        "block": args.block, "z_stop": args.z_stop, "tolerance": args.tolerance,
    }
    header = {"header": HEADER, **settings}
    out = args.out or ROOT / "bench" / "runs" / f"verdict-reference-5-{args.seed}-{args.games}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    if out.exists():
        if not args.resume:
            raise SystemExit(f"{out} exists: --resume to complete it (or remove it)")
        found, rows = read_rows(out)
        if found != header:
            raise SystemExit(f"{out} was written with other settings")
    trades = summarize(rows, args)
    rewrite(out, header, rows)  # drops a line torn by a kill: that block runs again
    if sum(1 for t in trades.values() if t.get("done")) < args.trades:
        offers = collect(args.agents.split(","), args.seed, 6 * args.trades, per_game=args.per_game)
        t0 = time.perf_counter()
        with out.open("a") as fh:

            def put(row: dict[str, Any]) -> None:
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                rows.append(row)

            for k, (state, trade, proposer, responder, _spec, _seat) in enumerate(offers):
                if sum(1 for t in trades.values() if t.get("done")) >= args.trades:
                    break
                t = trades.setdefault(k, {})
                if t.get("done") or t.get("decided"):
                    continue
                if "top" not in t:  # the pilot, once: recorded whatever it says
                    t["top"] = _top_share(state, args.pilot, args.ref_seed + 7919, args.workers)
                    put({"k": k, "top": t["top"]})
                if t["top"] > args.open_below:
                    t["decided"] = True
                    print(f"  offer {k + 1}: decided (a player wins {t['top']:.0%} of the pilot), skipped", file=sys.stderr, flush=True)
                    continue
                names = [p.name for p in state.players]
                if "verdicts" not in t:
                    ev = evaluate_trade(state, trade, proposer=proposer)
                    judged = {
                        "k": k,
                        "state": state_to_dict(state),
                        "trade": trade.to_dict(),
                        "proposer": names[proposer],
                        "verdicts": {names[i]: ev.verdicts[names[i]].verdict for i in (proposer, responder)},
                        "win_delta": {names[i]: ev.win_delta[names[i]] for i in (proposer, responder)},
                        "win_delta_se": {names[i]: ev.win_delta_se[names[i]] for i in (proposer, responder)},
                    }
                    put(judged)
                    t.update(judged)
                after = trade_after(state, trade)
                with ProcessPoolExecutor(max_workers=args.workers) as pool:
                    while not t.get("done"):
                        start = t.get("n", 0)
                        games = range(start, min(start + args.block, args.games))
                        diff, cap_without, cap_with = paired_block_ends(pool, state, after, args.ref_seed, games, trade)
                        put(block_row(k, start, diff, {names[i]: i for i in (proposer, responder)}, (cap_without, cap_with)))
                        trades = summarize(rows, args)
                        t = trades[k]
                print(f"  offer {k + 1}: trade done, {t['n']} paired games ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    report(trades, args)
    return 0


def read_rows(path: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The header and the rows of a results file; a line torn by a kill is left out."""
    lines = path.read_text().splitlines()
    header = json.loads(lines[0]) if lines else None
    rows = []
    for line in lines[1:]:
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return header, rows


def rewrite(path: Path, header: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """Write ``header`` and ``rows`` to ``path`` through a temporary file and a rename."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(x) + "\n" for x in [header, *rows]))
    tmp.replace(path)


def block_row(k: int, start: int, diff: np.ndarray, seats: dict[str, int], capped: tuple[int, int]) -> dict[str, Any]:
    """One block of paired games of trade ``k``: games played, how many of each branch (without,
    with the trade) ended at the round cap, and, per participant, the sum of its paired
    differences and of their squares (enough for the mean and standard error)."""
    return {
        "k": k, "start": start, "n": len(diff), "capped": list(capped),
        "sum": {name: float(diff[:, i].sum()) for name, i in seats.items()},
        "sumsq": {name: float((diff[:, i] ** 2).sum()) for name, i in seats.items()},
    }


def summarize(rows: list[dict[str, Any]], args: argparse.Namespace) -> dict[int, dict[str, Any]]:
    """Per offer: its pilot share (``top``), its evaluation, the games played so far in
    contiguous blocks (``n``), each participant's reference change and standard error, and
    whether it is ``done`` (:func:`played_out.sequential`'s stop, or ``--games`` reached)."""
    trades: dict[int, dict[str, Any]] = {}
    for row in rows:
        t = trades.setdefault(row["k"], {})
        if "start" not in row:
            t.update({key: v for key, v in row.items() if key != "k"})
        elif row["start"] == t.get("n", 0):  # a block again after a resume is counted once
            t["n"] = t.get("n", 0) + row["n"]
            t["capped"] = [x + y for x, y in zip(t.get("capped", [0, 0]), row["capped"], strict=True)]
            for key in ("sum", "sumsq"):
                acc = t.setdefault(key, {})
                for name, v in row[key].items():
                    acc[name] = acc.get(name, 0.0) + v
    for t in trades.values():
        n = t.get("n", 0)
        if n < 2:
            continue
        t["reference"], t["reference_se"] = {}, {}
        settled = []
        for name, total in t["sum"].items():
            mean = total / n
            var = max(0.0, (t["sumsq"][name] - n * mean * mean) / (n - 1))
            se = math.sqrt(var / n)
            t["reference"][name], t["reference_se"][name] = mean, se
            settled.append(abs(mean) > args.z_stop * se or 2 * se < args.tolerance)
        t["done"] = n >= args.games or (n >= 2 * args.block and all(settled))
    return trades


def report(trades: dict[int, dict[str, Any]], args: argparse.Namespace) -> None:
    """The agreement of the verdicts with the reference's sign, where it is beyond 2 se."""
    kept = [{"k": k, **t} for k, t in sorted(trades.items()) if t.get("done")]
    decided = sum(1 for t in trades.values() if t.get("top", 0.0) > args.open_below)
    print(f"{decided} offers skipped as decided (a player wins more than {args.open_below:.0%} of a {args.pilot}-game pilot)")
    significant = agree = 0
    for t in kept:
        for name, m in t["reference"].items():
            if abs(m) > 2 * t["reference_se"][name]:
                significant += 1
                agree += (t["verdicts"][name] == "accept") == (m > 0)
    print(
        f"{len(kept)} trades from games of {args.agents} (seed {args.seed}); reference: up to {args.games} paired games"
        f" of four strategic agents each ({sum(t['n'] for t in kept)} played)"
    )
    print(f"  participants whose played-out change is beyond 2 standard errors: {significant}")
    if significant:
        print(f"  verdicts agreeing with its sign: {agree} ({agree / significant:.0%}; target >= 85%)")
    # where the games without the trade stall to the round cap, the reference is a win on net worth
    for label, keep in (("half or more", lambda t: 2 * t["capped"][0] >= t["n"]), ("less than half", lambda t: 2 * t["capped"][0] < t["n"])):
        part = [t for t in kept if keep(t)]
        sig = [(t, name) for t in part for name, m in t["reference"].items() if abs(m) > 2 * t["reference_se"][name]]
        ok = sum((t["verdicts"][name] == "accept") == (t["reference"][name] > 0) for t, name in sig)
        print(f"  trades whose games without it end at the round cap in {label} of the games: {len(part)};"
              f" verdicts beyond 2 se {len(sig)}, agreeing {ok}")
    for t in kept:
        print(f"    offer {t['k'] + 1}: {t['n']} pairs, capped without/with {t['capped'][0]}/{t['capped'][1]}; "
              + "; ".join(f"{name} {t['verdicts'][name]} (evaluate {t['win_delta'][name]:+.3f}, played out {m:+.3f} se {t['reference_se'][name]:.3f})"
                          for name, m in t["reference"].items()))


def _top_share(state: GameState, games: int, seed: int, workers: int) -> float:
    """The largest share of ``games`` games to the end from ``state`` (four ``strategic`` agents) that one player wins."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        winners = list(pool.map(_play, [(state, seed, g) for g in range(games)], chunksize=20))
    counts = [winners.count(i) for i in range(len(state.players))]
    return max(counts) / games


if __name__ == "__main__":
    raise SystemExit(main())
