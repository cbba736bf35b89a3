"""``monopoly-trade prune-report``: run the explicit trade funnel of :mod:`solver.trades.candidates`
for every active player of many states (files, and/or states sampled from seeded games of four
strategic agents), count the survivors after each pruning rule, write ``report.md``, ``report.json``
and ``funnel.png`` to ``--out`` (:mod:`solver.trades.prune_report`) and print the summary.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from models.io import load_state
from solver import jsonsafe
from solver.cli.common import SEED, UsageError, int_in
from solver.cli.progress import bar


def add_parser(subparsers: Any) -> None:
    """Add ``prune-report`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "prune-report",
        help="the pruning funnel over many states (seed Test 3)",
        description=(
            "Run the explicit trade funnel (solver.trades.candidates) for every active player of every state, with the "
            "true values and the default reserves, and count the survivors after each pruning rule. States come "
            "from files and/or from games 0..N-1 of four strategic agents seeded S (as tournament --seed S), "
            "taken at the start of every 10th round, at most 500. Writes DIR/report.md, DIR/report.json and "
            "DIR/funnel.png (needs matplotlib)."
        ),
    )
    p.add_argument("states", nargs="*", metavar="STATE", help="state files")
    p.add_argument("--from-games", type=int_in(1, 100_000), metavar="N", help="sample states from N games of four strategic agents (1..100000)")
    p.add_argument("--seed", type=SEED, default=0, help="run seed of the games (default 0; 0..2^63-1)")
    p.add_argument("--every", type=int_in(1, 10_000), default=10, help="take a state every this many rounds (default 10; 1..10000)")
    p.add_argument("--max-states", type=int_in(1, 100_000), default=500, help="at most this many states from games (default 500; 1..100000)")
    p.add_argument("--max-rounds", type=int_in(1, 100_000), default=1000, help="round cap of the games (default 1000; 1..100000)")
    p.add_argument("--cycles", action="store_true", help="also generate 3-way cycles")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for report.md, report.json and funnel.png")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")


def run(args: argparse.Namespace) -> int:
    """Run ``prune-report`` on the parsed ``args``: the exit status."""
    from solver.trades.prune_report import (
        STAGES,
        PlotUnavailableError,
        Timer,
        default_meta,
        funnel_rows,
        require_plot,
        sample_game_states,
        summarize,
        write_report,
    )

    if not args.states and args.from_games is None:
        raise UsageError("prune-report: give STATE files or --from-games N")
    if args.out == "-":
        raise UsageError("--out: prune-report writes three files (report.md, report.json, funnel.png); give a folder, not -")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out: {args.out} exists and is not a folder")
    try:
        require_plot()  # before the work, not after
    except PlotUnavailableError as err:
        raise UsageError(f"prune-report: {err}") from None
    timer = Timer()
    states = [(path, load_state(path)) for path in args.states]
    sampling: list[str] = []
    extra: dict[str, Any] = {"cycles": args.cycles, "seed": None}
    if args.states:
        sampling.append(f"{len(args.states)} state file(s)")
        extra["state_files"] = list(args.states)
    if args.from_games is not None:
        info: dict[str, Any] = {}
        with bar(args.from_games, "sampling games", "game", quiet=args.quiet) as games_bar:
            sampled = sample_game_states(
                args.from_games,
                args.seed,
                every=args.every,
                max_states=args.max_states,
                max_rounds=args.max_rounds,
                info=info,
                progress=lambda: games_bar.update(1),
            )
        states += sampled
        extra["seed"] = args.seed
        extra["games"] = {
            "agents": ["strategic"] * 4,
            "requested": args.from_games,
            "played": info["games_played"],
            "every": args.every,
            "max_states": args.max_states,
            "max_rounds": args.max_rounds,
            "states": len(sampled),
            "states_per_game": info["states_per_game"],
        }
        sampling.append(
            f"States sampled from games 0..{args.from_games - 1} of four strategic agents, seed {args.seed} (game i seeded "
            f"SeedSequence([{args.seed}, i]), as in tournament --seed {args.seed}), at the start of every {args.every}th round "
            f"(rounds {args.every}, {2 * args.every}, ...), at most {args.max_states} states: {len(sampled)} states from "
            f"{info['games_played']} games played (round cap {args.max_rounds})"
        )
    extra["sampling"] = "; ".join(sampling) + "."
    timer.lap("states_s")
    with bar(len(states), "funnel", "state", quiet=args.quiet) as states_bar:
        rows = funnel_rows(states, cycles=args.cycles, progress=lambda: states_bar.update(1))
    timer.lap("funnel_s")
    summary = summarize(rows)
    meta = default_meta(timing=timer.times, **extra)
    paths = write_report(rows, summary, out, meta=meta)
    if args.json:
        print(jsonsafe.dumps({"out": str(out), "files": {k: str(v) for k, v in paths.items()}, "summary": summary, "meta": meta}))
        return 0

    def fmt(x: float | None) -> str:
        return "-" if x is None else f"{x:g}"

    print(f"prune-report: {summary['states']} states, {summary['rows']} (state, proposer) rows. {extra['sampling']}")
    print(f"  {'stage':<14} {'median':>7} {'p90':>7}")
    for k in STAGES:
        s = summary["stages"][k]
        print(f"  {k:<14} {fmt(s['median']):>7} {fmt(s['p90']):>7}")
    rpo, fin, fl = summary["raw_per_opponent"], summary["final_survivors"], summary["flagged"]
    print(f"  raw per opponent: median {fmt(rpo['median'])}, p90 {fmt(rpo['p90'])} (seed expects ~100-200)")
    print(f"  final survivors per proposer: median {fmt(fin['median'])}, p90 {fmt(fin['p90'])} (seed expects ~5-20)")
    print(f"  flagged: more than 100 survivors {fl['many']}, none {fl['none']} of {summary['rows']} ({fl['none_with_raw']} pruned to nothing)")
    print(f"wrote {paths['md']}, {paths['json']}, {paths['png']}")
    return 0
