"""``monopoly-trade bidding-game FILE.json``: the costs and optimal bids of a Richman or Poorman
bidding game on a digraph read from JSON (blue vertex, red vertex, successors), with each vertex's
optimal moves for both players; Richman costs are exact fractions. Printed as a text table or one
JSON object.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from solver import jsonsafe
from solver.cli.common import UsageError
from solver.schemas import stamp


def add_parser(subparsers: Any) -> None:
    """Add ``bidding-game`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "bidding-game",
        help="Richman or Poorman bidding game on a digraph: costs and bids",
        description=(
            "Costs and optimal bids of a bidding game (solver.bidding). FILE is "
            '{"blue": "b", "red": "r", "edges": {"v": ["w", ...], ...}}. A vertex\'s cost is Blue\'s share of '
            "the money above which Blue (who wants the token on blue) wins: of the total money under "
            "Richman rules (the winner of a bid pays the loser; exact fractions), of the money in play under "
            "Poorman rules (the winner pays the bank). Bids are shares of the same money."
        ),
    )
    p.add_argument("file", metavar="FILE.json", help="the game: blue, red and the successors of each vertex")
    p.add_argument("--kind", choices=("richman", "poorman"), required=True, help="who receives the winning bid")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _solved(args: argparse.Namespace) -> tuple[Any, Any, Any, dict[Any, Any], dict[Any, Any], Any]:
    """The graph, Blue's and Red's targets, the costs, the bids and the optimal moves."""
    from solver.bidding.graph import BiddingGameError, graph_from_json, optimal_moves
    from solver.bidding.poorman import poorman_bids, poorman_costs
    from solver.bidding.richman import richman_bids, richman_costs

    try:
        doc = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except UnicodeDecodeError as err:
        raise UsageError(f"{args.file}: not UTF-8 text: {err.reason}") from None
    except json.JSONDecodeError as err:
        raise UsageError(f"{args.file}: not valid JSON: {err}") from None
    try:
        graph, blue, red = graph_from_json(doc)
        if args.kind == "richman":
            costs: dict[Any, Any] = richman_costs(graph, blue, red)
            bids: dict[Any, Any] = richman_bids(graph, blue, red, costs)
        else:
            costs = poorman_costs(graph, blue, red)
            bids = poorman_bids(graph, blue, red, costs)
        moves = optimal_moves(graph, blue, red, costs)
    except BiddingGameError as err:
        raise UsageError(f"{args.file}: {err}") from None
    return graph, blue, red, costs, bids, moves


def document(args: argparse.Namespace) -> dict[str, Any]:
    """The ``bidding-game --json`` object for the parsed ``args`` (what :func:`run` prints; the
    MCP tool's answer), without printing."""
    _, _, _, costs, bids, _ = _solved(args)
    out: dict[str, Any] = {
        "costs": {v: float(c) for v, c in costs.items()},
        "bids": {v: float(b) for v, b in bids.items()},
    }
    if args.kind == "richman":
        out["costs_exact"] = {v: str(c) for v, c in costs.items()}
    return stamp("bidding-game", out)


def run(args: argparse.Namespace) -> int:
    """Run ``bidding-game`` on the parsed ``args``: the exit status."""
    from fractions import Fraction

    if args.json:
        print(jsonsafe.dumps(document(args)))
        return 0
    graph, blue, red, costs, bids, moves = _solved(args)

    def show(value: Any) -> str:
        if isinstance(value, Fraction) and value.denominator != 1:
            return f"{value} = {float(value):.6f}"
        return str(value) if isinstance(value, Fraction) else f"{value:.9f}"

    money = "the total money" if args.kind == "richman" else "the money in play"
    print(f"{args.kind.capitalize()} game, {graph.number_of_nodes()} vertices, Blue wants {blue}, Red wants {red}")
    print(f"cost: Blue's share of {money} above which Blue wins; bid: share of {money}, the same for both players")
    rows = [("vertex", "cost", "bid", "Blue moves to", "Red moves to")]
    for v, c in costs.items():
        if v in bids:
            rows.append((str(v), show(c), show(bids[v]), str(moves[v].blue), str(moves[v].red)))
        else:
            rows.append((str(v), show(c), "-", "(blue)" if v == blue else "(red)", ""))
    widths = [max(len(row[k]) for row in rows) for k in range(5)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return 0
