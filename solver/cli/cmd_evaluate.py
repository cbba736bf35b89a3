"""``monopoly-trade evaluate STATE --trade FILE|-`` (or ``--give ITEMS --to NAME --get ITEMS``): what a
given trade does to every player, judged as ``solve`` judges (:func:`solver.evaluate.evaluate_trade`):
each player's change in win probability with its standard error, the Nash zone, the leader and
balance check, the Nash-bargained cash of the same lots, and each participant's verdict with its
reason, as text or one JSON object.
"""

from __future__ import annotations

import argparse
from typing import Any

from solver import jsonsafe
from solver.cli.common import SEED, STATE_HELP, UsageError, add_rules_option, int_in, player_arg, read_state
from solver.cli.trade_args import add_trade_options, trade_from_args
from solver.report.words import legs_text


def add_parser(subparsers: Any) -> None:
    """Add ``evaluate`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "evaluate",
        help="judge a given trade: every player's change, the fair price, each participant's verdict",
        description=(
            "Judge a trade as solve judges its own (solver.evaluate): the state with and without it simulated on the "
            "same dice, every seat playing the trading rollout policy and the proposer waiting until its next turn in "
            "both; each player's change in win probability with its standard error; the Nash-bargained cash of the same "
            "lots (two-player trades); each participant accepts when it gains beyond one-sided 5% noise."
        ),
    )
    p.add_argument("state", help=STATE_HELP)
    add_rules_option(p)
    add_trade_options(p, "--trade", "trade")
    p.add_argument("--player", help="the proposer, and the giver of the compact form (default: the state's to_move)")
    p.add_argument("--rollouts", type=int_in(1, 100_000), default=800, help="games per simulated state (default 800; 1..100000)")
    p.add_argument("--horizon", type=int_in(1, 1000), default=30, help="rounds per simulated game (default 30; 1..1000)")
    p.add_argument("--seed", type=SEED, default=0, help="seed of the simulations (default 0; 0..2^63-1)")
    p.add_argument(
        "--players", choices=("trading", "cautious"), default="trading", help=(
        "how every player plays in the simulations: trading (the default: trades, builds by mortgaging spare lots) or "
        "cautious (no trades; builds only with $600 to spare, never mortgaging to build, like rule-of-thumb players)"
    ),
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def document(args: argparse.Namespace) -> dict[str, Any]:
    """The ``evaluate --json`` object for the parsed ``args`` (what :func:`run` prints; the MCP
    tool's answer), without printing."""
    from solver.evaluate import OfferError, evaluate_trade

    state = read_state(args.state, args.rules)
    if args.player is not None:
        args.player = state.players[player_arg(state, args.player, active=True)].name
    if args.to is not None:
        args.to = state.players[player_arg(state, args.to, "--to", active=True)].name
    trade = trade_from_args(state, args, "--trade", args.player)
    try:
        ev = evaluate_trade(
            state, trade, proposer=args.player, rollouts=args.rollouts, horizon=args.horizon, seed=args.seed, players=args.players
        )
    except OfferError as err:
        raise UsageError(f"{'--trade' if args.trade is not None else '--give/--get'}: {err}") from None
    doc: dict[str, Any] = jsonsafe.json_safe(ev.to_dict(state))
    return doc


def run(args: argparse.Namespace) -> int:
    """Run ``evaluate`` on the parsed ``args``: the exit status."""
    doc = document(args)
    if args.json:
        print(jsonsafe.dumps(doc))
        return 0
    print(evaluate_text(doc, f"rules: {doc['rules']['name']}"))
    return 0


def evaluate_text(doc: dict[str, Any], rules: str) -> str:
    """The text form of ``evaluate``'s JSON object."""
    me = doc["proposer"]
    lines = [
        rules,
        f"trade (proposed by {me}): {legs_text(doc['trade']['transfers'])}",
        (
            f"change in win probability (every seat plays the {players_words(doc['players'])}, {me} waiting until its next "
            f"turn in both branches; {doc['rollouts']} games of {doc['horizon']} rounds; +- one standard error):"
        ),
        "  " + ", ".join(f"{n} {d:+.3f}+-{doc['win_delta_se'][n]:.3f}" for n, d in doc["win_delta"].items()),
        (
            f"nash zone {'yes' if doc['nash_zone'] else 'no'}; leader after: {doc['leader']} {doc['leader_win_prob']:.0%} "
            f"({'balanced' if doc['balanced'] else 'unbalanced: 55% or more'})"
        ),
    ]
    price = doc["nash_cash"]
    parts = doc["participants"]
    if len(parts) != 2:
        lines.append("Nash-bargained price: not computed for a trade of more than two players")
    elif price is None:
        lines.append("Nash-bargained price of the same lots: none (no amount leaves both above their chances without the trade)")
    else:
        other = next(n for n in parts if n != me)
        c = price["cash"]
        lines.append(
            f"Nash-bargained price of the same lots: {me if c >= 0 else other} pays {other if c >= 0 else me} ${abs(c)}"
            if c
            else "Nash-bargained price of the same lots: no cash"
        )
    lines.append("verdicts:")
    lines += [f"  {n}: {v}: {doc['reasons'][n]}" for n, v in doc["verdicts"].items()]
    return "\n".join(lines)


def players_words(players: str) -> str:
    """How the players play in the simulations, in words (``--players``)."""
    if players == "cautious":
        return "cautious rollout policy (no trades; builds only with $600 to spare, never mortgaging to build)"
    return "trading rollout policy"
