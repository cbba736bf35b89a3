"""``monopoly-trade tournament``: games 0..N-1 of a seeded run between registered agents, seats rotated
per game, run locally on ``--workers`` processes or on Ray by
:func:`engine.tournament.run_tournament`, with one JSON line per finished game in ``--out``
(``--resume`` completes an interrupted run); prints each agent's wins, win rate and its 95%
interval.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from solver import jsonsafe
from solver.cli.common import SEED, UsageError, int_in, rules_arg
from solver.cli.progress import GameBar

log = logging.getLogger(__name__)


def add_parser(subparsers: Any) -> None:
    """Add ``tournament`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "tournament",
        help="seeded head-to-head games with win rates",
        description=(
            "Play games 0..N-1 of a run seeded S; game i uses SeedSequence([S, i]) and seats the agents "
            "rotated by i, so results do not depend on --workers and `play --seed S --game i` replays game i. "
            "One JSON line per finished game goes to --out; --resume completes an interrupted run."
        ),
    )
    p.add_argument("--agents", required=True, help="comma-separated agent specs, 2 to 8")
    p.add_argument("--games", type=int_in(1, 10_000_000), required=True, help="number of games (1..10000000)")
    p.add_argument("--seed", type=SEED, default=0, help="run seed (default 0; 0..2^63-1)")
    p.add_argument("--workers", type=int_in(1, 256), default=1, help="local worker processes (default 1; 1..256)")
    p.add_argument("--backend", choices=("local", "ray"), default="local", help="where games run (default local)")
    p.add_argument("--max-rounds", type=int_in(1, 100_000), default=1000, help="round cap per game (default 1000; 1..100000)")
    p.add_argument("--out", help="results file, one JSON line per game (- : the lines to stdout, the summary to stderr)")
    p.add_argument("--resume", action="store_true", help="skip the games already in --out")
    p.add_argument("--force", action="store_true", help="overwrite an existing --out (without it, an existing results file is refused)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument(
        "--rules",
        metavar="NAME|FILE",
        help="play every game under these rules: a preset (standard-us, house-jackpot, no-doubles, short-game) "
        "or a JSON file holding one rules object (default: the standard rules)",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``tournament`` on the parsed ``args``: the exit status."""
    from engine.tournament import (
        BackendUnavailableError,
        ResumeError,
        read_rows,
        results_header,
        run_tournament,
    )
    from solver.agents.registry import parse_agents

    specs = parse_agents(args.agents)
    rules = None
    if args.rules is not None:
        from models.board import standard_board

        rules = rules_arg(args.rules, standard_board())
    if not 2 <= len(specs) <= 8:
        raise UsageError(f"--agents: a tournament needs 2 to 8 agents, got {len(specs)}")
    if args.resume and not args.out:
        raise UsageError("--resume needs --out")
    to_stdout = args.out == "-"
    if to_stdout and args.resume:
        raise UsageError("--resume needs a results file, not --out -")
    out = Path(args.out) if args.out and not to_stdout else None
    if args.resume and args.force:
        raise UsageError("--resume and --force: choose one (complete the file, or overwrite it)")
    if out is not None and out.exists() and not args.resume and not args.force:
        raise UsageError(f"--out: {out} exists; add --resume to complete it, or --force to overwrite it")
    done_rows = list(read_rows(out).values()) if out is not None and args.resume and out.exists() else []
    bar = GameBar(args.games, "tournament", quiet=args.quiet, done_rows=[r for r in done_rows if r.get("game", -1) < args.games])

    log.info("%d games of seed %d (%d already done), %d %s worker(s)", args.games, args.seed, len(done_rows), args.workers, args.backend)

    if to_stdout:  # the file's format: the header line, then the rows as they finish
        header = results_header("tournament", [spec for spec, _ in specs], args.seed, args.max_rounds, rules)
        print(jsonsafe.dumps(header, sort_keys=True), flush=True)

    def progress(done: int, total: int, row: dict[str, Any]) -> None:
        if to_stdout:  # the rows as they finish, one JSON line each (the file's format)
            print(jsonsafe.dumps(row, sort_keys=True), flush=True)
        bar(done, total, row)

    try:
        result = run_tournament(
            [make for _, make in specs],
            [spec for spec, _ in specs],
            args.games,
            args.seed,
            workers=args.workers,
            max_rounds=args.max_rounds,
            out=out,
            resume=args.resume,
            progress=progress,
            backend=args.backend,
            rules=rules,
        )
    except BackendUnavailableError as err:  # --backend ray without the ray extra
        raise UsageError(f"--backend {args.backend}: {err}") from None
    except ResumeError as err:  # another run's file, or one that would lose games
        raise UsageError(str(err)) from None
    finally:
        bar.close()
    played = len(result.rows) - len(done_rows)
    log.info("played %d games in %.1f s (%.2f games/s)", played, result.wall_s, played / max(result.wall_s, 1e-9))
    summary = sys.stderr if to_stdout else sys.stdout  # with --out -, stdout carries only the rows
    if args.json:
        print(jsonsafe.dumps({"seed": args.seed, **({} if rules is None else {"rules": rules.summary()}), **result.to_dict()}), file=summary)
        return 0
    under = "" if rules is None else f", rules {rules.describe()}"
    print(f"tournament: {len(result.rows)} games, seed {args.seed}, seats rotated, cap {args.max_rounds} rounds{under}", file=summary)
    for st in result.standings:
        lo, hi = st.interval
        print(f"  {st.label:<30} wins {st.wins:5d}  rate {st.rate:.3f}  95% [{lo:.3f}, {hi:.3f}]", file=summary)
    if result.draws:
        print(f"  no winner: {result.draws}", file=summary)
    return 0
