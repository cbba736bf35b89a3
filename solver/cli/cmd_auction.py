"""``monopoly-trade auction STATE --property NAME``: how much the player should bid for an unowned lot
and whether to buy it at list price: the bidding game of the race for the lot's group
(:func:`solver.bidding.contest.contest_bid`: graph size, Poorman and Richman costs, the bid in dollars
and every cap) and the simulated indifference price (:func:`solver.bidding.auction.auction_bid`), as
text or one JSON object. With both methods (the default) the answer is the simulation's: it
measures the lot's worth to the bidder, which a second-price auction asks for; the bidding game
is shown as a diagnostic, without a verdict of its own (its race for the group is priced as
decisive whatever the stake: $447 for Water Works on the mid-game instance, against $83).
"""

from __future__ import annotations

import argparse
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
    property_arg,
    read_state,
    rules_line,
)
from solver.schemas import stamp

if TYPE_CHECKING:
    from models.state import GameState
    from solver.bidding.auction import AuctionBid
    from solver.bidding.contest import ContestBid

METHODS = ("both", "game", "simulate")


def add_parser(subparsers: Any) -> None:
    """Add ``auction`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "auction",
        help="how much to bid for an unowned lot, and whether to buy it at list price",
        description=(
            "Auction policy. The bidding game (solver.bidding.contest, what the subgraph agent bids by default): "
            "the race for the lot's group as a tree of ownership configurations against the strongest rival, "
            "terminals valued by the win model, Poorman costs giving the bid as a share of the money in play, "
            "Richman costs beside it; the money in play is both sides' cash; capped by the outbid cap (the "
            "largest opponent cash + $1), cash + mortgages and cash - the ruin reserve. The simulation (solver.bidding.auction): the indifference price p* "
            "(winning the lot at p against the most dangerous rival winning it at p, equal in simulated win "
            "probability on common dice; bisection over [0, cash]), max bid = min(p*, liquidity cap, risk cap)."
        ),
    )
    p.add_argument("state", help=STATE_HELP)
    add_rules_option(p)
    p.add_argument("--property", required=True, metavar="NAME", help="the unowned lot")
    p.add_argument("--player", help="the bidder (default: the state's to_move)")
    p.add_argument(
        "--method", choices=METHODS, default="both", help="the bidding game, the simulation, or both (default both: the simulation answers, the game is a diagnostic)"
    )
    p.add_argument("--rollouts", type=int_in(1, 100_000), default=300, help="games per simulated state (default 300; 1..100000)")
    p.add_argument("--horizon", type=int_in(1, 1000), default=20, help="rounds per simulated game (default 20; 1..1000)")
    p.add_argument("--seed", type=SEED, default=0, help="seed of the rollouts (default 0; 0..2^63-1)")
    p.add_argument("--epsilon", type=float_in(0.0, 1.0), default=0.05, help="ruin probability allowed within 20 turns (default 0.05; 0.0..1.0)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _bids(args: argparse.Namespace) -> tuple[GameState, ContestBid | None, AuctionBid | None]:
    """The state, the bidding game's answer and the simulation's (``None`` when not asked)."""
    from solver.bidding.auction import AuctionError, auction_bid
    from solver.bidding.contest import contest_bid

    state = read_state(args.state, args.rules)
    player = player_arg(state, args.player, active=True)
    args.property = property_arg(state, args.property)
    game = sim = None
    try:
        if args.method in ("both", "game"):
            game = contest_bid(state, player, args.property, epsilon=args.epsilon)
        if args.method in ("both", "simulate"):
            sim = auction_bid(
                state, player, args.property, rollouts=args.rollouts, horizon=args.horizon, seed=args.seed, epsilon=args.epsilon
            )
    except AuctionError as err:
        raise UsageError(f"--property: {err}") from None
    return state, game, sim


def document(args: argparse.Namespace) -> dict[str, Any]:
    """The ``auction --json`` object for the parsed ``args`` (what :func:`run` prints; the MCP
    tool's answer), without printing.

    One answer: with both methods the simulation's (what a second-price auction asks: the
    lot's worth to the bidder); the bidding game is then a diagnostic without a verdict."""
    state, game, sim = _bids(args)
    if sim is None:
        assert game is not None
        doc = game.to_dict()
    else:
        doc = sim.to_dict() | {"method": "simulation"}
        if game is not None:
            doc["diagnostics"] = {"bidding_game": {k: v for k, v in game.to_dict().items() if k not in ("max_bid", "buy_at_list")}}
    doc["rules"] = state.rules.summary()
    return stamp("auction", doc)


def run(args: argparse.Namespace) -> int:
    """Run ``auction`` on the parsed ``args``: the exit status."""
    if args.json:
        print(jsonsafe.dumps(document(args)))
        return 0
    state, game, sim = _bids(args)
    print(rules_line(state))
    if sim is not None:
        print(_sim_text(sim.to_dict()))
    if game is not None:
        if sim is not None:
            print()
        print(_game_text(game.to_dict(), diagnostic=sim is not None))
    return 0


def _game_text(b: dict[str, Any], diagnostic: bool = False) -> str:
    if diagnostic:  # beside the simulation's answer: the figures, no verdict of its own
        return "\n".join([
            f"diagnostic, not the answer: the bidding game (it prices the race for the {b['group']} group as decisive)",
            f"  rival              {b['rival'] or 'none'} (strongest for the {b['group']} group)",
            f"  race               {', '.join(b['lots'])}: {b['vertices']} vertices, {b['terminals']} terminals",
            f"  Poorman            bid {b['poorman_fraction']:.1%} of ${b['money_in_play']} in play = ${b['game_bid']}",
            f"  Richman            bid {b['richman_fraction']:.1%} = ${b['richman_bid']}",
        ])
    lines = [
        f"{b['player']} bidding for {b['property']} (list price ${b['list_price']}): the bidding game",
        f"  max bid            ${b['max_bid']}",
        f"  rival              {b['rival'] or 'none'} (strongest for the {b['group']} group)",
        f"  race               {', '.join(b['lots'])}: {b['vertices']} vertices, {b['terminals']} terminals",
        (
            f"  Poorman            cost {b['poorman_cost']:.3f}, bid {b['poorman_fraction']:.1%} of ${b['money_in_play']} in play "
            f"(cash ${b['money'][0]} + ${b['money'][1]}) = ${b['game_bid']}"
        ),
        f"  Richman            cost {b['richman_cost']:.3f}, bid {b['richman_fraction']:.1%} = ${b['richman_bid']}",
        f"  outbid cap         ${b['outbid_cap']}",
        f"  liquidity cap      ${b['liquidity_cap']}",
        f"  risk cap           ${b['risk_cap']} (reserve ${b['reserve']})",
        f"  buy at list        {'yes' if b['buy_at_list'] else 'no'}",
    ]
    return "\n".join(lines)


def _sim_text(b: dict[str, Any]) -> str:
    more = " (censored: still better at its cash)" if b["censored"] else ""
    rival = f"{b['rival']} (win probability {b['rival_gain']:+.3f} with the lot at list price)" if b["rival"] else "none"
    lines = [
        f"{b['player']} bidding for {b['property']} (list price ${b['list_price']}): the simulation",
        f"  max bid            ${b['max_bid']}",
        f"  indifference price ${b['indifference_price']}{more}",
        f"  liquidity cap      ${b['liquidity_cap']}",
        f"  risk cap           ${b['risk_cap']} (reserve ${b['reserve']})",
        f"  rival              {rival}",
        f"  buy at list        {'yes' if b['buy_at_list'] else 'no'}",
    ]
    return "\n".join(lines)
