"""``monopoly-trade analyze STATE``: for each active player (or one) the complete, partial and isolated
sets, the position (GROWING, CAPPED or LOSING) with its numbers, the exact build frontier and the
position-aware value of the lots it holds or needs, all from
:func:`solver.analysis.summary.player_analysis`; printed as text or one JSON object, with ``--plot``
drawing the frontier curves (matplotlib, imported only then).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path
from typing import Any

from models.files import atomic_write
from models.state import GameState
from solver import jsonsafe
from solver.cli.common import (
    STATE_HELP,
    UsageError,
    add_rules_option,
    player_arg,
    read_state,
    rules_line,
)
from solver.schemas import stamp


def add_parser(subparsers: Any) -> None:
    """Add ``analyze`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "analyze",
        help="subgraph, position, build frontier and property values",
        description=(
            "For each player (or one): complete/partial/isolated sets, the position (GROWING, CAPPED or LOSING) "
            "with its numbers, the exact build frontier (best rent per round for each budget) and the "
            "position-aware value of the properties it holds or needs."
        ),
    )
    p.add_argument("state", help=STATE_HELP)
    add_rules_option(p)
    p.add_argument("--player", help="one player (default: every active player)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--plot", metavar="FILE.png", help="draw the frontier curves (needs matplotlib; - : the PNG to stdout, the analysis to stderr)"
    )


def run(args: argparse.Namespace) -> int:
    """Run ``analyze`` on the parsed ``args``: the exit status."""
    if args.plot:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise UsageError("--plot needs matplotlib: pip install 'monopoly-trade[plot]'") from None
    state, results = _results(args)
    if args.plot:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for name, r in results.items():
            fr = r["_frontier"]
            ax.step(fr.budgets, fr.current + fr.gains, where="post", label=name)
        ax.set_xlabel("cash spent on building ($)")
        ax.set_ylabel("expected rent per round ($)")
        ax.set_title(f"Build frontier: {Path(args.state).name}")
        ax.legend()
        fig.tight_layout()
        png = io.BytesIO()
        fig.savefig(png, format="png")
        if args.plot == "-":
            sys.stdout.buffer.write(png.getvalue())
            sys.stdout.flush()
        else:
            atomic_write(args.plot, png.getvalue())
    for r in results.values():
        del r["_frontier"]
    if args.plot == "-":  # stdout carries the PNG only
        with contextlib.redirect_stdout(sys.stderr):
            return _print(args, results, state)
    return _print(args, results, state)


def _results(args: argparse.Namespace) -> tuple[GameState, dict[str, Any]]:
    """The state and each analysed player's figures (with its ``_frontier`` object, for the plot)."""
    from engine.chains.markov import PositionChain
    from solver.analysis.summary import player_analysis

    state = read_state(args.state, args.rules)
    players = [player_arg(state, args.player, active=True)] if args.player else state.active_players()
    chain = PositionChain(state.board, state.rules, "long")
    return state, {state.players[p].name: player_analysis(state, p, chain) for p in players}


def _json(state: GameState, results: dict[str, Any]) -> dict[str, Any]:
    return stamp("analyze", {"rules": state.rules.summary(), "players": results})


def document(args: argparse.Namespace) -> dict[str, Any]:
    """The ``analyze --json`` object for the parsed ``args`` (what :func:`run` prints; the MCP
    tool's answer), without printing; ``--plot`` is refused here."""
    if args.plot:
        raise UsageError("--plot: not here (the document carries no image)")
    state, results = _results(args)
    for r in results.values():
        del r["_frontier"]
    return _json(state, results)


def _print(args: argparse.Namespace, results: dict[str, Any], state: GameState) -> int:
    if args.json:
        print(jsonsafe.dumps(_json(state, results)))
        return 0
    print(rules_line(state))
    for name, r in results.items():
        g, pos = r["subgraph"], r["position"]
        print(f"{name}: {pos['state']}  cash ${g['cash']}")
        print(f"  complete: {', '.join(g['complete_sets']) or '-'}")
        for ps in g["partial_sets"]:
            held = ", ".join(f"{k} ({v})" for k, v in ps["held_by"].items())
            print(f"  partial {ps['group']}: owns {', '.join(ps['owned'])}; needs {ps['missing']} of {held}")
        if g["isolated"]:
            print(f"  isolated: {', '.join(g['isolated'])}")
        ttd = "-" if pos["turns_to_max_dev"] is None else f"{pos['turns_to_max_dev']:.1f}"
        print(
            f"  rent/round now {pos['current_rent']:.1f}, ceiling {pos['ceiling']:.1f}, build ROI {pos['build_roi']:.4f}/$, "
            f"net flow {pos['net_flow']:.1f}/round, rounds to full development {ttd}, ruin in 20 turns {pos['ruin_20']:.3f}"
        )
        table = r["frontier"]["table"]
        if len(table) > 1:
            print("  frontier: " + ", ".join(f"${row['cash']}: +{row['rent_gain']:.1f}" for row in table[:12]))
        bp = r["build_plan"]
        if bp["levels"]:
            lots = ", ".join(f"{k} {v}" for k, v in bp["levels"].items())
            funded = f", mortgaging {', '.join(bp['mortgage'])} (${bp['raised']})" if bp["mortgage"] else ""
            print(
                f"  build plan: {lots}; cost ${bp['build_cost']}{funded}; keeps ${bp['cash_after']} "
                f"(ruin in {bp['turns']} turns {bp['ruin_before']:.1%} -> {bp['ruin_after']:.1%}; "
                f"+${bp['rent_gain_per_round'] - bp['rent_lost_per_round']:.0f} rent per round)"
            )
        elif g["complete_sets"]:
            print(f"  build plan: hold (ruin in {bp['turns']} turns {bp['ruin_before']:.1%}; no funded build beats holding)")
        if r["property_values"]:
            print("  values: " + ", ".join(f"{k} {v:.0f}" for k, v in r["property_values"].items()))
    return 0
