"""``monopoly-trade trial``: novelty trials (:mod:`solver.novelty.trial`). ``--list`` shows the
novelty catalogue; otherwise it plays one trial, or many (``--novelty all``, ``--seeds K``) played
``--workers`` at a time, in which a hidden change of board or rules is injected at a seeded game,
and reports the PNWP, NDA and NRP metrics per trial, or summarized per novelty class and difficulty.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from models.files import atomic_write
from solver import jsonsafe
from solver.cli.common import SEED, UsageError, int_in
from solver.cli.progress import GameBar, bar


def add_parser(subparsers: Any) -> None:
    """Add ``trial`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "trial",
        help="novelty trials (seed 002): PNWP, NDA, NRP",
        description=(
            "Play a trial of games in which a novelty (a hidden change of board or rules) is injected at a seeded "
            "game and persists; the tested agent carries one novelty monitor through the trial. Reports the "
            "pre-novelty win percentage (PNWP), whether the novelty was detected after the injection with no false "
            "alarm before it (NDA), and the win rate after it over the strategic baseline's rate before it (NRP). "
            "--list shows the catalogue. --novelty all (or --seeds K > 1) runs many trials, --workers at a time, "
            "and summarizes them per class and difficulty; --novelty none runs novelty-free control trials."
        ),
    )
    p.add_argument("--list", action="store_true", help="list the novelty catalogue")
    p.add_argument("--agent", help="the tested agent (a registry spec, e.g. subgraph or value)")
    p.add_argument("--novelty", help="a catalogue name, 'all', or 'none' (control trials)")
    p.add_argument("--games", type=int_in(4, 1_000_000), default=100, help="games per trial (default 100; 4..1000000)")
    p.add_argument("--seed", type=SEED, default=0, help="seed of the (first) trial (default 0; 0..2^63-1)")
    p.add_argument("--seeds", type=int_in(1, 10_000), default=1, help="trials per novelty, seeds S..S+K-1 (default 1; 1..10000)")
    p.add_argument("--opponents", default="strategic,strategic,strategic", help="comma-separated opponent specs (default three strategic)")
    p.add_argument("--no-adapt", action="store_true", help="detect but keep playing on the standard board and rules")
    p.add_argument("--workers", type=int_in(1, 256), default=1, help="trials played at once (default 1; 1..256)")
    p.add_argument("--max-rounds", type=int_in(1, 100_000), default=1000, help="round cap per game (default 1000; 1..100000)")
    p.add_argument(
        "--out", help="one trial: its results file (JSON lines; - : to stdout, the summary to stderr); many: a folder with one file per trial"
    )
    p.add_argument("--resume", action="store_true", help="continue the trials in --out where they stopped")
    p.add_argument("--force", action="store_true", help="overwrite existing results in --out (without it, they are refused)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Run ``trial`` on the parsed ``args``: the exit status."""
    from solver.agents.registry import parse_agents
    from solver.novelty import catalogue as catalogue
    from solver.novelty import trial as trials

    if args.list:
        rows = [
            {"name": n.name, "class": n.klass, "difficulty": n.difficulty, "hidden": n.hidden, "tags": list(n.tags), "summary": n.summary}
            for n in catalogue.CATALOGUE
        ]
        if args.json:
            print(jsonsafe.dumps({"novelties": rows}))
        else:
            for r in rows:
                print(f"{r['name']:<15} {r['class']:<15} {r['difficulty']:<7} {'hidden ' if r['hidden'] else 'visible'}  {r['summary']}")
        return 0
    if not args.agent or not args.novelty:
        raise UsageError("trial: give --list, or --agent NAME and --novelty NAME|all|none")
    if args.resume and not args.out:
        raise UsageError("--resume needs --out")
    if args.novelty == "all":
        novelties: list[str | None] = list(catalogue.names())
    elif args.novelty == "none":
        novelties = [None]
    else:
        try:
            novelties = [catalogue.get(args.novelty).name]
        except catalogue.UnknownNoveltyError as err:
            raise UsageError(f"--novelty: {err}") from None
    opponents = tuple(spec for spec, _ in parse_agents(args.opponents))
    try:
        specs = [
            trials.TrialSpec(args.agent, nov, args.games, args.seed + k, opponents, not args.no_adapt, args.max_rounds)
            for nov in novelties
            for k in range(args.seeds)
        ]
    except ValueError as err:
        raise UsageError(f"trial: {err}") from None
    to_stdout = args.out == "-"
    if args.resume and args.force:
        raise UsageError("--resume and --force: choose one (complete the results, or overwrite them)")
    if args.out and not to_stdout and not args.resume and not args.force:
        target = Path(args.out)
        taken = target.is_file() if len(specs) == 1 else target.is_dir() and any(target.glob("*.jsonl"))
        if taken:
            raise UsageError(f"--out: {target} holds results; add --resume to complete them, or --force to overwrite them")
    if to_stdout and (args.resume or len(specs) > 1):
        raise UsageError("--out -: only for one trial without --resume (several trials need a folder)")
    if len(specs) == 1:
        spec = specs[0]
        game_bar = GameBar(spec.games, f"trial {spec.novelty or 'none'}", quiet=args.quiet)

        def progress(done: int, total: int, row: dict[str, Any]) -> None:
            if to_stdout:  # the games' rows as they finish (the results file's format)
                print(jsonsafe.dumps(row, sort_keys=True), flush=True)
            game_bar(done, total, row)

        try:
            res = trials.play_trial(spec, out=Path(args.out) if args.out and not to_stdout else None, resume=args.resume, progress=progress)
        except ValueError as err:
            raise UsageError(str(err)) from None
        finally:
            game_bar.close()
        doc = res.to_dict()
        summary = sys.stderr if to_stdout else sys.stdout  # with --out -, stdout carries only the rows
        if args.json:
            print(jsonsafe.dumps((doc)), file=summary)
        else:
            print(_trial_text(doc), file=summary)
        return 0
    outdir = Path(args.out) if args.out else None
    done: list[dict[str, Any]] = []
    with bar(len(specs), "trials", "trial", quiet=args.quiet) as trial_bar:
        for doc in trials.run_trials(specs, workers=args.workers, outdir=outdir, resume=args.resume):
            done.append(doc)
            trial_bar.update(1)
            trial_bar.set_postfix_str(f"detected {sum(d['metrics']['detected'] for d in done)}/{len(done)}", refresh=False)
            if not args.json:
                m = doc["metrics"]
                nrp = "-" if m["nrp"] is None else f"{m['nrp']:.2f}"
                trial_bar.write(
                    f"  {doc['spec']['novelty'] or 'none':<15} seed {doc['spec']['seed']:<4} detected {str(m['detected']):<5} "
                    f"NRP {nrp:>5}  ({doc['seconds']:.0f} s)",
                    file=sys.stdout,
                )
    done.sort(key=lambda d: (d["spec"]["novelty"] or "", d["spec"]["seed"]))
    summary = trials.summarize(done)
    if outdir is not None:
        outdir.mkdir(parents=True, exist_ok=True)
        atomic_write(outdir / "summary.json", jsonsafe.dumps(({"trials": done, "summary": summary}), indent=1))
    if args.json:
        print(jsonsafe.dumps(({"trials": done, "summary": summary})))
        return 0
    print(f"trials: {len(done)}, agent {args.agent}, {args.games} games each, adaptation {'off' if args.no_adapt else 'on'}")
    print(f"  {'cell':<24} {'trials':>6} {'NDA':>6} {'PNWP':>6} {'post':>6} {'base':>6} {'NRP':>6}")
    for cell, c in summary.items():
        def f(x: float | None) -> str:
            return "-" if x is None else f"{x:.3f}"
        print(f"  {cell:<24} {c['trials']:>6} {f(c['nda']):>6} {f(c['pnwp']):>6} {f(c['post_rate']):>6} {f(c['baseline_pre_rate']):>6} {f(c['nrp']):>6}")
    return 0


def _trial_text(doc: dict[str, Any]) -> str:
    spec, m = doc["spec"], doc["metrics"]
    nov = spec["novelty"]
    lines = [
        f"trial: {spec['agent']} vs {','.join(spec['opponents'])}; seed {spec['seed']}; {spec['games']} games; "
        f"adaptation {'on' if spec['adapt'] else 'off'}",
    ]
    if nov is None:
        lines.append("  novelty: none (a control trial)")
    else:
        lines.append(f"  novelty: {nov}, injected at game {doc['injected_at']}")

    def rate(k: int, n: int) -> str:
        return f"{k / n:.3f} ({k}/{n})" if n else "- (0 games)"

    lo, hi = m["pnwp_95"] or (0.0, 1.0)
    lines.append(f"  PNWP  {rate(m['pre_wins'], m['pre_games'])}  95% [{lo:.3f}, {hi:.3f}]")
    if m["detection"] is not None:
        d = m["detection"]
        lines.append(f"  NDA   detected {m['detection_delay_games']} game(s) after the injection, round {d['round']}: {d['tag']}: {d['detail']}")
    if m["false_alarms"]:
        d = m["first_false_alarm"]
        lines.append(f"  NDA   FALSE ALARM before the injection ({m['false_alarms']}): game {d['game']} {d['tag']}: {d['detail']}")
    lines.append(f"  NDA   {'correct' if m['detected'] else 'wrong'} (tags seen after the injection: {', '.join(m['tags_seen']) or 'none'})")
    if nov is not None:
        base = rate(m["baseline_pre_wins"], m["baseline_pre_seats"])
        nrp = "-" if m["nrp"] is None else f"{m['nrp']:.2f}"
        lines.append(f"  NRP   {nrp} = win rate after {rate(m['post_wins'], m['post_games'])} / strategic before {base}")
    lines.append(f"  ({doc['seconds']:.0f} s)")
    return "\n".join(lines)
