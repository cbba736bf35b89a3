"""``monopoly-trade trades STATE``: the proposer's best trades by the CP-SAT model's value
(:func:`solver.trades.cpsat.generate_trades`; by default the fitted prediction of each participant's
change in win probability, ``--value linear`` the older horizon-rent estimate in dollars), bilateral
and with ``--cycles`` 3-way, before any simulation; prints each trade's legs and estimated gains, and
why the strict search came back empty or was relaxed or truncated, as text or one JSON object.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from models.trade import Transfer
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
    """Add ``trades`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "trades",
        help="trade candidates from the CP-SAT model, before any simulation",
        description=(
            "The proposer's best trades by the model's value (solver.trades.cpsat; by default the fitted "
            "prediction of each participant's change in win probability): bilateral, "
            "and 3-way cycles with --cycles; top K distinct, minimal trades. Deterministic: fixed seed, one "
            "worker, a deterministic time limit per solve."
        ),
    )
    p.add_argument("state", help=STATE_HELP)
    add_rules_option(p)
    p.add_argument("--player", help="the proposer (default: the state's to_move)")
    p.add_argument("--top", type=int_in(1, 10_000), default=20, help="how many trades (default 20; 1..10000)")
    p.add_argument("--cycles", action="store_true", help="also search 3-way cycles")
    p.add_argument(
        "--value",
        choices=("fitted", "linear"),
        default="fitted",
        help="the generator's value: fitted change in win probability (default) or the horizon-rent estimate in dollars",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _transfer_dict(t: Transfer) -> dict[str, Any]:
    out: dict[str, Any] = {"from": t.frm, "to": t.to, "properties": list(t.properties), "cash": t.cash}
    if t.jail_cards:
        out["jail_cards"] = t.jail_cards
    return out


def _trades(args: argparse.Namespace) -> tuple[GameState, int, Any, list[dict[str, Any]]]:
    """The state, the proposer, the generator's result and its trades as JSON objects."""
    from solver.trades.cpsat import Limits, generate_trades
    from solver.trades.space import TradeSettings

    state = read_state(args.state, args.rules)
    player = player_arg(state, args.player, active=True)
    # --value linear: the generator as it was before the fitted value (dollars, ranked by the proposer's gain)
    settings = TradeSettings() if args.value == "fitted" else TradeSettings(value="linear", objective="proposer")
    result = generate_trades(state, player, settings=settings, cycles=args.cycles, limits=Limits(top_k=args.top))
    dollars = result.unit == "dollars"
    names = [p.name for p in state.players]
    trades: list[dict[str, Any]] = [
        {
            "kind": g.candidate.kind,
            "transfers": [_transfer_dict(t) for t in g.candidate.to_trade(state).transfers],
            "estimated_gain": {names[i]: g.gains[i] if dollars else round(result.gain(g, i), 6) for i in g.candidate.players},
        }
        for g in result.trades
    ]
    return state, player, result, trades


def document(args: argparse.Namespace) -> dict[str, Any]:
    """The ``trades --json`` object for the parsed ``args`` (what :func:`run` prints; the MCP
    tool's answer), without printing."""
    state, _, result, trades = _trades(args)
    doc = {
        "rules": state.rules.summary(),
        "trades": trades,
        "value": args.value,
        "unit": result.unit,
        "empty_reason": result.empty_reason,
        "relaxed": result.relaxed,
        "truncated": result.truncated,
    }
    return stamp("trades", doc)


def run(args: argparse.Namespace) -> int:
    """Run ``trades`` on the parsed ``args``: the exit status."""
    if args.json:
        print(jsonsafe.dumps(document(args)))
        return 0
    state, player, result, trades = _trades(args)
    dollars = result.unit == "dollars"
    names = [p.name for p in state.players]
    unit = "dollars of value over 20 rounds" if dollars else "predicted change in win probability"
    print(rules_line(state))
    print(f"trades proposed by {names[player]} ({'bilateral and 3-way cycles' if args.cycles else 'bilateral'}), "
          f"ranked by the model's estimated gain ({unit}):")
    if result.empty_reason:
        print(f"  strict rules: {result.empty_reason}")
    if result.relaxed:
        print("  RELAXED search (rule 1 waived for a counterparty paid at least $100):")
    for k, t in enumerate(trades, 1):
        legs = "; ".join(
            f"{x['from']} -> {x['to']}: " + ", ".join([*x["properties"], *([f"${x['cash']}"] if x["cash"] else [])])
            for x in t["transfers"]
        )
        gains = ", ".join(f"{n} {v:+d}" if dollars else f"{n} {v:+.3f}" for n, v in t["estimated_gain"].items())
        print(f"  {k:2d}. [{t['kind']}] {legs}  (gain {gains})")
    if not trades:
        print("  none")
    if result.truncated:
        print("  (search truncated by the wall-clock cap)")
    return 0
