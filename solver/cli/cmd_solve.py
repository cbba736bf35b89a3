"""``monopoly-trade solve STATE``: the main job. :func:`solver.decide.decide` chooses for the player
between building, proposing a trade (CP-SAT candidates re-scored by simulation on common dice) and
holding cash, by a fixed amount of work (the clock is only a safety cap); this module prints the decision, its reason, the re-scored
trades and the pruning funnel as text, or the whole decision as one JSON object (non-finite numbers
as ``null``); ``--html FILE`` also writes the visual report of :mod:`solver.html_report` (atomically,
before the decision is printed, which it leaves unchanged).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver import jsonsafe
from solver.cli.common import (
    SEED,
    STATE_HELP,
    UsageError,
    add_rules_option,
    float_in,
    int_in,
    player_arg,
    read_state,
)
from solver.report.words import (
    decision_line,
    forecast_line,
    funnel_heading,
    jail_line,
    legs_text,
    position_line,
    agent_lines,
    purchase_lines,
    question_lines,
)

if TYPE_CHECKING:
    from models.rules import Rules
    from models.state import GameState
    from solver.decisions.memory import AgentMemory
    from solver.decisions.settings import AgentSettings


def add_parser(subparsers: Any) -> None:
    """Add ``solve`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "solve",
        help="the main job: what to do now and why",
        description=(
            "Decide for the player (default: to_move): build, propose a trade (CP-SAT candidates re-scored by "
            "simulation on common dice, Nash-bargained, checked for what they do to the others) or hold cash. "
            "The work is fixed by counts, so the same seed gives the same answer on any machine and under any load; "
            "--budget is only a wall-clock safety cap (a decision it cuts says truncated)."
        ),
    )
    p.add_argument("state", nargs="?", help=STATE_HELP + " (not with --batch)")
    add_rules_option(p)
    p.add_argument("--player", help="the player (default: the state's to_move)")
    p.add_argument("--seed", type=SEED, default=0, help="seed of the rollouts (default 0; 0..2^63-1)")
    p.add_argument("--budget", type=float_in(0.0, 86_400.0, open_low=True), default=60.0, help="wall-clock safety cap in seconds (default 60; (0, 86400])")
    p.add_argument("--rollouts", type=int_in(1, 100_000), default=800, help="games per simulated state (default 800; 1..100000)")
    p.add_argument(
        "--threads",
        type=int_in(1, 64),
        default=None,
        help="threads playing each simulation (default: every core this process may use; 1..64); the answer is the same for any number",
    )
    p.add_argument(
        "--mode",
        choices=("fair", "best"),
        default="fair",
        help="fair (default): the seed's filters, both sides gain and nobody leads at 55%%, Nash-bargained cash; "
        "best: what the agent plays, own gain x acceptance, priced for play (the seed's filters are still reported)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--batch",
        metavar="DIR|FILE.jsonl",
        help="solve many states (a folder of state files, or one state document per line) for each one's player to move; "
        "one JSON line per state to --out (solver.batch)",
    )
    p.add_argument("--out", metavar="FILE.jsonl", help="--batch: the results file (- : the lines to stdout)")
    p.add_argument("--workers", type=int_in(1, 256), default=1, help="--batch: local worker processes (default 1; 1..256)")
    p.add_argument("--resume", action="store_true", help="--batch: skip the states already in --out")
    p.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="--batch: local processes (default) or Ray tasks (RAY_ADDRESS, else a local instance)"
    )
    p.add_argument("--force", action="store_true", help="--batch: overwrite an existing --out")
    p.add_argument(
        "--agent",
        "--settings",
        dest="agent",
        metavar="SPEC",
        help="answer as the subgraph agent with these settings (a registry spec: subgraph, subgraph:hold=false, ...; "
        "monopoly-trade agents lists the options): the question the state poses (its pending question; else buy or decline "
        "on a lot just rolled onto; else the jail choice; else the act phase's next action), by the agent's decision modules",
    )
    p.add_argument(
        "--memory",
        metavar="FILE",
        help="--agent: the agent's memory before the question (JSON, as --memory-out writes it; default: a fresh one)",
    )
    p.add_argument("--memory-out", metavar="FILE", help="--agent: write the agent's memory after its answer to FILE (JSON)")
    p.add_argument(
        "--html",
        metavar="FILE",
        help="also write a self-contained HTML report (board, action, win-probability bars, funnel, ruin curve) to FILE; "
        "its folder must exist; the printed output is unchanged",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``solve`` on the parsed ``args``: the exit status."""
    if args.batch is not None:
        return _run_batch(args)
    doc, state = _answer(args)
    if args.json:
        print(jsonsafe.dumps(doc))
        return 0
    print(_solve_text(doc, state.rules))
    return 0


def document(args: argparse.Namespace) -> dict[str, Any]:
    """The ``solve --json`` object for the parsed ``args`` (what :func:`run` prints; the MCP
    tool's answer), without printing."""
    if args.batch is not None:
        raise UsageError("--batch: not here (one state per call)")
    return _answer(args)[0]


def _answer(args: argparse.Namespace) -> tuple[dict[str, Any], GameState]:
    """The decision's JSON object and the state it was taken in (the HTML report written
    first when asked)."""
    if args.state is None:
        raise UsageError("solve: give a STATE (or --batch DIR|FILE.jsonl)")
    for opt in ("out", "resume", "force"):
        if getattr(args, opt):
            raise UsageError(f"--{opt}: only with --batch")
    from solver.decide import decide

    settings, memory = _agent_args(args)
    html_target = _html_target(args.html) if args.html is not None else None
    state = read_state(args.state, args.rules)
    player = player_arg(state, args.player, active=True)
    from solver.decide import DecideSettings
    from solver.decisions.memory import AgentMemoryError
    from solver.trades.selection import Mode

    try:
        d = decide(
            state,
            state.players[player].name,
            budget_s=args.budget,
            rollouts=args.rollouts,
            seed=args.seed,
            settings=DecideSettings(mode=Mode(args.mode)),
            threads=args.threads,
            agent=settings,
            memory=memory,
        )
    except AgentMemoryError as err:
        raise UsageError(f"--memory: {str(err).removeprefix('memory: ')}") from None
    doc = d.to_dict(state)
    if args.memory_out is not None and d.agent is not None:
        from solver.decisions.memory import save_memory

        try:
            save_memory(d.agent.memory, args.memory_out)
        except OSError as err:
            raise UsageError(f"--memory-out: cannot write {args.memory_out!r}: {err.strerror or err}") from None
    if html_target is not None:
        from solver.html_report import write_report

        meta = {"state": args.state, "seed": args.seed, "rollouts": args.rollouts}
        try:
            write_report(html_target, state, doc, rollouts=args.rollouts, meta=meta)
        except OSError as err:
            raise UsageError(f"--html: cannot write {args.html!r}: {err.strerror or err}") from None
    return doc, state


def _agent_args(args: argparse.Namespace) -> tuple[AgentSettings | None, AgentMemory | None]:
    """``--agent``, ``--memory`` and ``--memory-out`` checked before any work (one-line errors)."""
    if args.agent is None:
        for opt, value in (("--memory", args.memory), ("--memory-out", args.memory_out)):
            if value is not None:
                raise UsageError(f"{opt}: only with --agent (the agent's memory)")
        return None, None
    if args.html is not None:
        raise UsageError("--html: not with --agent (the report draws solve's own search)")
    from solver.agents.registry import UnknownAgentError
    from solver.decisions.memory import AgentMemoryError, load_memory
    from solver.decisions.profile import agent_settings

    try:
        settings = agent_settings(args.agent)
    except UnknownAgentError as err:
        raise UsageError(f"--agent: {err}") from None
    if args.memory_out is not None and (args.memory_out == "-" or Path(args.memory_out).is_dir() or not Path(args.memory_out).parent.is_dir()):
        raise UsageError(f"--memory-out: {args.memory_out!r} is not a file in a folder that exists")
    if args.memory is None:
        return settings, None
    try:
        return settings, load_memory(args.memory)
    except AgentMemoryError as err:
        raise UsageError(f"--memory: {str(err).removeprefix('memory: ')}") from None


def _run_batch(args: argparse.Namespace) -> int:
    """``solve --batch``: every state's answer as one JSON line (solver.batch.solve_many)."""
    import sys

    from engine.tournament.backends import BackendUnavailableError
    from solver.batch import BatchError, BatchSettings, read_inputs, solve_many

    if args.state is not None:
        raise UsageError("--batch: give the states by --batch, not also a STATE")
    for opt, value in (
        ("--player", args.player), ("--html", args.html), ("--rules", args.rules), ("--threads", args.threads), ("--agent", args.agent),
        ("--memory", args.memory), ("--memory-out", args.memory_out),
    ):
        if value is not None:
            raise UsageError(f"{opt}: not with --batch (each state is solved for its player to move, under its own rules)")
    if args.out is None:
        raise UsageError("--batch needs --out FILE.jsonl (or --out - for stdout)")
    if args.resume and args.force:
        raise UsageError("--resume and --force: choose one (complete the file, or overwrite it)")
    to_stdout = args.out == "-"
    out = None if to_stdout else Path(args.out)
    if to_stdout and args.resume:
        raise UsageError("--resume needs a results file, not --out -")
    if out is not None and out.exists() and not args.resume and not args.force:
        raise UsageError(f"--out: {out} exists; add --resume to complete it, or --force to overwrite it")
    settings = BatchSettings(rollouts=args.rollouts, seed=args.seed, mode=args.mode)
    solved = errors = 0
    try:
        if to_stdout:
            print(jsonsafe.dumps(settings.header()), flush=True)
        rows = solve_many(read_inputs(args.batch), settings, out=out, workers=args.workers, resume=args.resume, backend=args.backend)
        for row in rows:
            if to_stdout:
                print(jsonsafe.dumps(row), flush=True)
            solved += "error" not in row
            errors += "error" in row
    except BatchError as err:
        raise UsageError(str(err)) from None
    except BackendUnavailableError as err:
        raise UsageError(f"--backend ray: {err}") from None
    where = "stdout" if to_stdout else str(out)
    print(f"{solved} states solved, {errors} refused (their rows say why); rows in {where}", file=sys.stderr if to_stdout else sys.stdout)
    return 0


def _html_target(arg: str) -> Path:
    """``--html FILE`` checked before any work: a file name (not ``-``: standard output carries
    the decision) in a folder that exists, not a folder itself."""
    if arg == "-":
        raise UsageError("--html: - is not allowed (standard output carries the decision); give a file name")
    if not arg:
        raise UsageError("--html: an empty file name")
    path = Path(arg)
    if path.is_dir():
        raise UsageError(f"--html: {arg!r} is a folder, not a file")
    if not path.parent.is_dir():
        raise UsageError(f"--html: no folder {str(path.parent)!r} to write {path.name!r} in")
    return path


def _solve_text(doc: dict[str, Any], rules: Rules) -> str:
    dec = doc["decision"]
    lines = [f"rules: {doc['rules']['name']}", position_line(doc), forecast_line(doc), "", decision_line(doc)]
    if "build" in dec:
        b = dec["build"]
        lots = ", ".join(f"{n} to {'a hotel' if lv == 5 else f'{lv} house(s)'}" for n, lv in b["levels"].items())
        lines.append(f"  build: {lots}; cost ${b['cost']}; win probability {b['win_delta']:+.3f} (se {b['win_delta_se']:.3f})")
        if b.get("mortgage"):
            lines.append(f"  mortgage first: {', '.join(b['mortgage'])} (raises ${b['funding']['raised']})")
        if "cash_after" in b:
            lines.append(f"  cash kept: ${b['cash_after']}")
    if "trade" in dec:
        lines.append("  trade: " + legs_text(dec["trade"]["transfers"]))
    if doc.get("purchase"):
        lines += ["", *purchase_lines(doc["purchase"], rules.auction_only, rules.auctions)]
    if doc.get("jail"):
        lines += ["", jail_line(doc["jail"], rules.jail_fine)]
    if doc.get("question"):
        lines += ["", *question_lines(doc["question"])]
    if doc.get("agent"):
        lines += ["", *agent_lines(doc["agent"])]
    if doc["trades"]:
        lines += ["", "trades re-scored (win-probability change for each player, +- one standard error):"]
        for k, t in enumerate(doc["trades"], 1):
            deltas = ", ".join(f"{n} {v:+.3f}+-{t['win_delta_se'][n]:.3f}" for n, v in t["win_delta"].items())
            flags = f"nash zone {'yes' if t['nash_zone'] else 'no'}, leader {t['leader']} {t['leader_win_prob']:.0%}"
            flags += f" ({'balanced' if t['balanced'] else 'unbalanced'}), acceptance {t['acceptance']:.0%}"
            lines.append(f"  {k}. [{t['kind']}] {legs_text(t['transfers'])}")
            qualified = f"; qualified by {t['qualified_by']}" if t.get("qualified_by") else ""
            lines.append(f"     {deltas}; {flags}; risk-adjusted {t['risk_adjusted_ev']:+.3f}{qualified}")
    if doc["pruning"]:
        lines += ["", f"{funnel_heading(doc)}: " + " -> ".join(f"{k} {v}" for k, v in doc["pruning"].items())]
    if doc["truncated"]:
        lines.append("(truncated by the time budget)")
    return "\n".join(lines)
