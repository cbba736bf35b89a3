"""Novelty trials over the whole catalogue (seed 002): NDA, PNWP and NRP per class and difficulty.

Runs, with the trial harness of :mod:`solver.novelty.trial` (resumable: finished
games in ``--out`` are kept, so an interrupted run continues)::

    nda      the tested agent (default ``strategic``, the fastest agent that
             carries the detector) on every novelty x ``--seeds`` seeds, plus
             ``--controls`` novelty-free trials: detection accuracy and false alarms
    nrp      each agent of ``--agents`` (default ``subgraph,value``), with
             adaptation on and off, on every novelty x ``--seeds`` seeds: PNWP
             and NRP per class, and the paired difference adaptation makes

Every trial is ``--games`` games against three ``strategic`` agents. Prints a
Markdown table per part and writes ``OUT/summary-<part>.json``.

Usage::

    python bench/novelty_trials.py nda --seeds 5 --controls 20 --games 20 --workers 2
    python bench/novelty_trials.py nrp --seeds 1 --games 20 --workers 2
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.files import atomic_write
from solver.novelty import catalogue as catalogue
from solver.novelty.trial import TrialSpec, run_trials, summarize


def _fmt(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _run(specs: list[TrialSpec], out: Path, workers: int) -> list[dict[str, Any]]:
    done = []
    for doc in run_trials(specs, workers=workers, outdir=out, resume=True):
        done.append(doc)
        m = doc["metrics"]
        print(f"  {doc['spec']['agent']:<10} {doc['spec']['novelty'] or 'none':<15} seed {doc['spec']['seed']:<4} "
              f"adapt {doc['spec']['adapt']!s:<5} detected {m['detected']!s:<5} post {m['post_wins']}/{m['post_games']} "
              f"({doc['seconds']:.0f} s)", file=sys.stderr, flush=True)
    done.sort(key=lambda d: (d["spec"]["agent"], d["spec"]["adapt"], d["spec"]["novelty"] or "", d["spec"]["seed"]))
    return done


def _write(out: Path, name: str, doc: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / name, json.dumps(doc, indent=1))


def part_nda(args: argparse.Namespace) -> None:
    specs = [TrialSpec(args.agent, n, args.games, s) for n in catalogue.names() for s in range(args.seeds)]
    specs += [TrialSpec(args.agent, None, args.games, 1000 + s) for s in range(args.controls)]
    t0 = time.perf_counter()
    trials = _run(specs, args.out / "nda", args.workers)
    wall = time.perf_counter() - t0
    summary = summarize(trials)
    print(f"\nNDA: agent {args.agent}, {args.seeds} seed(s) x {len(catalogue.names())} novelties + {args.controls} controls, "
          f"{args.games} games each, {wall:.0f} s wall on {args.workers} worker(s)\n")
    print("| cell | trials | NDA | 95% interval |")
    print("|---|---|---|---|")
    for cell, c in summary.items():
        lo, hi = c["nda_95"]
        print(f"| {cell} | {c['trials']} | {c['nda']:.3f} | [{lo:.3f}, {hi:.3f}] |")
    per = {}
    for t in trials:
        nov = t["spec"]["novelty"] or "none"
        per.setdefault(nov, []).append(t["metrics"])
    print("\n| novelty | correct | median delay (games) | first detection |")
    print("|---|---|---|---|")
    for nov, ms in per.items():
        ok = sum(bool(m["detected"]) for m in ms)
        delays = sorted(m["detection_delay_games"] for m in ms if m["detection_delay_games"] is not None)
        first = next((m["detection"] for m in ms if m["detection"]), None)
        what = f"{first['tag']}: {first['detail'][:70]}" if first else ("no detection" if nov == "none" else "-")
        print(f"| {nov} | {ok}/{len(ms)} | {delays[len(delays) // 2] if delays else '-'} | {what} |")
    _write(args.out, "summary-nda.json", {"trials": trials, "summary": summary, "wall_s": wall})


def part_nrp(args: argparse.Namespace) -> None:
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    specs = [TrialSpec(a, n, args.games, s, adapt=ad) for a in agents for ad in (True, False) for n in catalogue.names() for s in range(args.seeds)]
    t0 = time.perf_counter()
    trials = _run(specs, args.out / "nrp", args.workers)
    wall = time.perf_counter() - t0
    print(f"\nNRP: agents {agents}, adaptation on/off, {args.seeds} seed(s) x {len(catalogue.names())} novelties, "
          f"{args.games} games each vs three strategic, {wall:.0f} s wall on {args.workers} worker(s); "
          f"peak RSS of this process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB, "
          f"of the largest worker {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MB\n")
    print("| agent | adaptation | cell | trials | PNWP | post-novelty win rate [95%] | strategic pre rate | NRP |")
    print("|---|---|---|---|---|---|---|---|")
    out: dict[str, Any] = {}
    for a in agents:
        for ad in (True, False):
            ts = [t for t in trials if t["spec"]["agent"] == a and t["spec"]["adapt"] == ad]
            s = summarize(ts)
            out[f"{a}/{'adapt' if ad else 'fixed'}"] = s
            for cell in ("all", "attribute", "representation", "class"):
                c = s.get(cell)
                if c is None:
                    continue
                lo, hi = c["post_rate_95"] or (0, 0)
                print(f"| {a} | {'on' if ad else 'off'} | {cell} | {c['trials']} | {_fmt(c['pnwp'])} | {_fmt(c['post_rate'])} [{lo:.3f}, {hi:.3f}] | {_fmt(c['baseline_pre_rate'])} | {_fmt(c['nrp'], 2)} |")
    # What adaptation is worth: post-novelty wins, adaptation on minus off, same trials (same seeds and dice streams).
    print("\n| agent | cell | post wins on | post wins off | games | difference [95%] |")
    print("|---|---|---|---|---|---|")
    for a in agents:
        for cell in ("all", "attribute", "representation", "class"):
            on = [t for t in trials if t["spec"]["agent"] == a and t["spec"]["adapt"] and _in(cell, t)]
            off = [t for t in trials if t["spec"]["agent"] == a and not t["spec"]["adapt"] and _in(cell, t)]
            won = sum(t["metrics"]["post_wins"] for t in on)
            woff = sum(t["metrics"]["post_wins"] for t in off)
            n = sum(t["metrics"]["post_games"] for t in on)
            if not n:
                continue
            p1, p0 = won / n, woff / n
            se = ((p1 * (1 - p1) + p0 * (1 - p0)) / n) ** 0.5  # unpaired (conservative): games diverge after the first decision that differs
            print(f"| {a} | {cell} | {won} | {woff} | {n} | {p1 - p0:+.3f} [{p1 - p0 - 1.96 * se:+.3f}, {p1 - p0 + 1.96 * se:+.3f}] |")
    _write(args.out, "summary-nrp.json", {"trials": trials, "summary": out, "wall_s": wall})


def _in(cell: str, t: dict[str, Any]) -> bool:
    nov = t["spec"]["novelty"]
    return nov is not None and (cell == "all" or catalogue.get(nov).klass == cell)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("part", choices=("nda", "nrp"))
    ap.add_argument("--agent", default="strategic", help="nda: the tested agent (default strategic)")
    ap.add_argument("--agents", default="subgraph,value", help="nrp: the tested agents (default subgraph,value)")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--controls", type=int, default=20)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("bench/out/novelty"))
    args = ap.parse_args()
    {"nda": part_nda, "nrp": part_nrp}[args.part](args)


if __name__ == "__main__":
    main()
