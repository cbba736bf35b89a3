"""``monopoly-trade risk STATE``: the probability that a player is ruined (owes more than its
liquidation value) at each of the next ``--turns`` turns and by then, from the exact (cash x
position) chain of :func:`engine.chains.state_risk.state_ruin_pmf`, as a text table or one JSON object.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from solver import jsonsafe
from solver.cli.common import (
    STATE_HELP,
    add_rules_option,
    int_in,
    player_arg,
    read_state,
    rules_line,
)
from solver.schemas import stamp

if TYPE_CHECKING:
    from models.state import GameState


def add_parser(subparsers: Any) -> None:
    """Add ``risk`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "risk",
        help="ruin probability over the next turns",
        description=(
            "Probability that the player is ruined (owes more than its liquidation value) at each of the next "
            "turns, by the exact (cash x position) chain of engine.chains.state_risk."
        ),
    )
    p.add_argument("state", help=STATE_HELP)
    add_rules_option(p)
    p.add_argument("--player", help="player name (default: the state's to_move)")
    p.add_argument("--turns", type=int_in(1, 1000), default=20, help="turns ahead (default 20; 1..1000)")
    p.add_argument("--jail", choices=("short", "long"), default="long", help="jail policy (default long)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _risk(args: argparse.Namespace) -> tuple[GameState, int, Any, Any]:
    """The state, the player, the ruin pmf and its cumulative sum."""
    from engine.chains.state_risk import state_ruin_pmf

    state = read_state(args.state, args.rules)
    player = player_arg(state, args.player, active=True)
    pmf = state_ruin_pmf(state, player, args.turns, jail=args.jail)
    return state, player, pmf, pmf.cumsum()


def document(args: argparse.Namespace) -> dict[str, Any]:
    """The ``risk --json`` object for the parsed ``args`` (what :func:`run` prints; the MCP
    tool's answer), without printing."""
    state, player, pmf, cumulative = _risk(args)
    return stamp("risk", {
        "player": state.players[player].name,
        "rules": state.rules.summary(),
        "turns": args.turns,
        "liquidation_value": state.liquidation_value(player),
        "pmf": [float(v) for v in pmf],
        "cumulative": [float(v) for v in cumulative],
    })  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Run ``risk`` on the parsed ``args``: the exit status."""
    if args.json:
        print(jsonsafe.dumps(document(args)))
        return 0
    state, player, pmf, cumulative = _risk(args)
    name = state.players[player].name
    print(rules_line(state))
    print(f"{name}: liquidation value ${state.liquidation_value(player)}, ruin within {args.turns} turns {cumulative[-1]:.4f}")
    print("turn  P(ruin at turn)  P(ruined by then)")
    for t in range(1, args.turns + 1):
        print(f"{t:4d}  {pmf[t]:15.4f}  {cumulative[t]:17.4f}")
    return 0
