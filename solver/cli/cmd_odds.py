"""``monopoly-trade odds``: the exact long-run share of rolls ending on each square (and in jail)
from :class:`engine.chains.markov.PositionChain`, and the expected rent per opponent turn (EPT,
:func:`engine.chains.ept.ept_table`) of each property and street group by development level or number
held, for the standard board or a state file's board and rules, as a text table or one JSON object.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from solver import jsonsafe
from solver.cli.common import STATE_HELP, add_rules_option, read_state, rules_arg
from solver.schemas import stamp

if TYPE_CHECKING:
    from models.board import Board
    from models.rules import Rules


def add_parser(subparsers: Any) -> None:
    """Add ``odds`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "odds",
        help="long-run landing table and expected rent per turn",
        description=(
            "Exact long-run landing shares (fraction of rolls ending on each square; 'in jail' apart) and "
            "expected rent per opponent turn (EPT) for the board and rules of STATE (standard when omitted)."
        ),
    )
    p.add_argument("state", nargs="?", help=STATE_HELP + " (only its board and rules are used)")
    add_rules_option(p)
    p.add_argument("--jail", choices=("short", "long"), default="long", help="jail policy (default long: stay and roll)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _odds(args: argparse.Namespace) -> tuple[Board, Rules, Any, dict[str, Any]]:
    """The board, the rules, the landing shares and the EPT table of ``args``."""
    from engine.chains.ept import ept_table
    from engine.chains.markov import PositionChain
    from models.board import standard_board
    from models.rules import Rules

    if args.state:
        state = read_state(args.state, args.rules)
        board, rules = state.board, state.rules
    else:
        board = standard_board()
        rules = Rules() if args.rules is None else rules_arg(args.rules, board)
    chain = PositionChain(board, rules, args.jail)
    return board, rules, chain.long_run_landing(), ept_table(chain)


def document(args: argparse.Namespace) -> dict[str, Any]:
    """The ``odds --json`` object for the parsed ``args`` (what :func:`run` prints; the MCP
    tool's answer), without printing."""
    board, rules, shares, table = _odds(args)
    out = {
        "rules": rules.summary(),
        "jail": args.jail,
        "squares": [
            {"index": sq.index, "name": sq.name, "probability": float(shares[sq.index])} for sq in board.squares
        ],
        "in_jail": float(shares[board.size]),
        "ept": table,
    }
    return stamp("odds", out)


def run(args: argparse.Namespace) -> int:
    """Run ``odds`` on the parsed ``args``: the exit status."""
    if args.json:
        print(jsonsafe.dumps(document(args)))
        return 0
    board, rules, shares, table = _odds(args)
    print(f"board {board.name}, rules {rules.describe()}, jail policy {args.jail}: long-run share of rolls ending on each square")
    for sq in board.squares:
        line = f"{sq.index:3d} {sq.name:<24} {100 * shares[sq.index]:6.3f}%"
        if sq.name in table:
            line += "   EPT " + " ".join(f"{v:7.2f}" for v in table[sq.name])
        print(line)
    print(f"    {'In jail':<24} {100 * shares[board.size]:6.3f}%")
    print("EPT: dollars per opponent turn; streets at levels 0..5 (group complete), railroads/utilities by number held")
    for group in board.street_groups:
        print(f"    {group:<24} " + " ".join(f"{v:7.2f}" for v in table[group]))
    return 0

