"""``monopoly-trade respond STATE --offer FILE|-``: the answer to a trade offer for the player receiving
it (:func:`solver.evaluate.respond`): accept or refuse with the reason, and a counter-offer (the one
change the player gains most from among those the proposer is predicted to accept), as text or one
JSON object.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from solver import jsonsafe
from solver.cli.common import SEED, STATE_HELP, UsageError, add_rules_option, int_in, player_arg, read_state
from solver.cli.cmd_evaluate import players_words
from solver.cli.trade_args import add_trade_options, read_json_file, trade_from_args
from solver.report.words import legs_text

HISTORY_FIELDS = ("intercept", "gain", "cash_k", "gets_set", "gives_set", "gives_only")


def add_parser(subparsers: Any) -> None:
    """Add ``respond`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "respond",
        help="answer a trade offer: accept or refuse, and what to ask for instead",
        description=(
            "Answer an offer for the player receiving it (solver.evaluate.respond): judged as solve judges (the "
            "responder waiting until its next turn in both branches), accept when it gains beyond one-sided 5% noise; "
            "a counter-offer from one change (more cash, one more lot of the proposer's, one lot of its own kept) that "
            "it gains most from among those the proposer is predicted to accept (the opponent model's prior, or "
            "--history)."
        ),
    )
    p.add_argument("state", help=STATE_HELP)
    add_rules_option(p)
    add_trade_options(p, "--offer", "offer")
    p.add_argument("--from", dest="proposer", metavar="NAME", help="who made the offer (default: the first transfer's giver; the compact form: --player)")
    p.add_argument("--player", help="who answers (default: the offer's other participant); the compact form's giver is --from")
    p.add_argument(
        "--history",
        metavar="FILE",
        help="the proposer's earlier answers: a JSON list of {\"features\": [6 numbers], \"accepted\": true|false} "
        "(solver.agents.opponent_model.offer_features)",
    )
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


def _history(path: str | None) -> list[tuple[list[float], bool]]:
    if path is None:
        return []
    doc = read_json_file(path, "--history")
    if not isinstance(doc, list) or len(doc) > 10_000:
        raise UsageError("--history: expected a list of at most 10000 answers")
    out = []
    for k, row in enumerate(doc):
        x = row.get("features") if isinstance(row, dict) else None
        if (
            not isinstance(x, list)
            or len(x) != len(HISTORY_FIELDS)
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in x)
            or not isinstance(row.get("accepted"), bool)
        ):
            raise UsageError(f"--history: answer {k} needs \"features\" ({len(HISTORY_FIELDS)} numbers: {', '.join(HISTORY_FIELDS)}) and \"accepted\"")
        out.append(([float(v) for v in x], bool(row["accepted"])))
    return out


def document(args: argparse.Namespace) -> dict[str, Any]:
    """The ``respond --json`` object for the parsed ``args`` (what :func:`run` prints; the MCP
    tool's answer), without printing."""
    from solver.evaluate import OfferError, respond

    state = read_state(args.state, args.rules)
    if args.player is not None:
        args.player = state.players[player_arg(state, args.player, active=True)].name
    if args.proposer is not None:
        args.proposer = state.players[player_arg(state, args.proposer, "--from", active=True)].name
    if args.to is not None:
        args.to = state.players[player_arg(state, args.to, "--to", active=True)].name
    offer = trade_from_args(state, args, "--offer", args.proposer)
    history = _history(args.history)
    try:
        r = respond(
            state, offer, proposer=args.proposer, responder=args.player, history=history,
            rollouts=args.rollouts, horizon=args.horizon, seed=args.seed, players=args.players,
        )  # fmt: skip
    except OfferError as err:
        raise UsageError(f"{'--offer' if args.offer is not None else '--give/--get'}: {err}") from None
    doc: dict[str, Any] = jsonsafe.json_safe(r.to_dict(state))
    return doc


def run(args: argparse.Namespace) -> int:
    """Run ``respond`` on the parsed ``args``: the exit status."""
    doc = document(args)
    if args.json:
        print(jsonsafe.dumps(doc))
        return 0
    print(respond_text(doc, f"rules: {doc['rules']['name']}"))
    return 0


def respond_text(doc: dict[str, Any], rules: str) -> str:
    """The text form of ``respond``'s JSON object."""
    me, them = doc["responder"], doc["proposer"]
    lines = [
        rules,
        f"offer from {them} to {me}: {legs_text(doc['offer']['transfers'])}",
        f"ANSWER: {doc['verdict'].upper()}: {doc['reason']}",
        (
            f"  change in win probability ({'' if doc['players'] == 'trading' else 'every seat plays the ' + players_words(doc['players']) + ', '}"
            f"{me} waiting until its next turn in both branches; {doc['rollouts']} games of "
            f"{doc['horizon']} rounds; +- one standard error): "
            + ", ".join(f"{n} {d:+.3f}+-{doc['win_delta_se'][n]:.3f}" for n, d in doc["win_delta"].items())
        ),
    ]
    if doc["counter"] is None:
        lines.append(f"COUNTER: none ({doc['considered']} one-step changes tried: none that {them} is predicted to accept gives {me} a gain beyond the noise and more than the offer)")
    else:
        d = doc["counter_win_delta"]
        se = doc["counter_win_delta_se"]
        lines += [
            f"COUNTER: {doc['counter_change']}: {legs_text(doc['counter']['transfers'])}",
            (
                f"  {me} {d[me]:+.3f}+-{se[me]:.3f} (offer {doc['win_delta'][me]:+.3f}), {them} {d[them]:+.3f}+-{se[them]:.3f}; "
                f"{them} is predicted to accept it with probability {doc['counter_acceptance']:.0%} (of {doc['considered']} changes tried)"
            ),
        ]
    return "\n".join(lines)
