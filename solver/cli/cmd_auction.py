"""``monopoly-trade auction STATE --property NAME``: how much the player should bid for an unowned lot
and whether to buy it at list price (:func:`solver.bidding.auction.auction_bid`): the simulated
indifference price, the liquidity cap, the risk cap against ruin and the maximum bid, as text or one
JSON object.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from solver.cli.common import UsageError, nonneg_int, player_arg, pos_int, read_state


def add_parser(subparsers: Any) -> None:
    """Add ``auction`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "auction",
        help="how much to bid for an unowned lot, and whether to buy it at list price",
        description=(
            "Auction policy (solver.bidding.auction): the indifference price p* (winning the lot at p against the most "
            "dangerous rival winning it at p, equal in simulated win probability on common dice; bisection over "
            "[0, cash]), the liquidity cap (cash + mortgage values of mortgageable lots), the risk cap (cash - the "
            "ruin reserve after buying) and max bid = min of the three; buy at list price when list <= p*."
        ),
    )
    p.add_argument("state", help="a state file, or - for standard input")
    p.add_argument("--property", required=True, metavar="NAME", help="the unowned lot")
    p.add_argument("--player", help="the bidder (default: the state's to_move)")
    p.add_argument("--rollouts", type=pos_int, default=300, help="games per simulated state (default 300)")
    p.add_argument("--horizon", type=pos_int, default=20, help="rounds per simulated game (default 20)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="seed of the rollouts (default 0)")
    p.add_argument("--epsilon", type=float, default=0.05, help="ruin probability allowed within 20 turns (default 0.05)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Run ``auction`` on the parsed ``args``: the exit status."""
    from solver.bidding.auction import AuctionError, auction_bid

    state = read_state(args.state)
    player = player_arg(state, args.player)
    if args.property not in state.board.property_index:
        raise UsageError(f"--property: no property named {args.property!r} on the board")
    if not 0.0 <= args.epsilon <= 1.0:
        raise UsageError("--epsilon must be in [0, 1]")
    try:
        bid = auction_bid(
            state, player, args.property, rollouts=args.rollouts, horizon=args.horizon, seed=args.seed, epsilon=args.epsilon
        )
    except AuctionError as err:
        raise UsageError(f"--property: {err}") from None
    if args.json:
        print(json.dumps(bid.to_dict()))
        return 0
    print(f"{bid.player} bidding for {bid.property} (list price ${bid.list_price})")
    print(f"  max bid            ${bid.max_bid}")
    more = " (censored: still better at its cash)" if bid.censored else ""
    print(f"  indifference price ${bid.indifference_price}{more}")
    print(f"  liquidity cap      ${bid.liquidity_cap}")
    print(f"  risk cap           ${bid.risk_cap} (reserve ${bid.reserve})")
    rival = f"{bid.rival} (win probability +{bid.rival_gain:.3f} with the lot at list price)" if bid.rival else "none"
    print(f"  rival              {rival}")
    print(f"  buy at list        {'yes' if bid.buy_at_list else 'no'}")
    return 0
