"""An auction in progress: the most to bid for the lot (the simulated indifference price).

The engine's auction is sealed second-price, so the answer is one maximum: the price at which
winning the lot and letting the strongest rival win it leave the bidder equally likely to win
the game (:func:`solver.bidding.auction.auction_bid`, capped by what the bidder can pay and
keep safe), the same evaluation as ``solve``'s purchase answer.
"""

from __future__ import annotations

from engine.chains.markov import PositionChain
from models.state import GameState
from solver.decisions.answer import QuestionAnswer

AUCTION_ROLLOUTS = 300
"""Games per simulated state of the bid's bisection (as ``solve``'s purchase answer)."""
AUCTION_HORIZON = 20
"""Rounds per simulated game of the bid's bisection."""


def auction_answer(
    state: GameState, bidder: int, square: int, *, chain: PositionChain | None = None, seed: int = 0, threads: int = 1
) -> QuestionAnswer:
    """``bidder``'s maximum bid for ``square`` (module docstring).

    Parameters
    ----------
    state : GameState
        The position (its pending question is ignored).
    bidder : int
        The seat.
    square : int
        The lot auctioned.
    chain, seed, threads
        As :func:`solver.bidding.auction.auction_bid`.

    Returns
    -------
    QuestionAnswer
        ``action`` ``bid`` (or ``pass`` at $0), ``method`` ``simulation``; details: the
        :class:`solver.bidding.auction.AuctionBid` fields (``max_bid``, ``indifference_price``,
        ``liquidity_cap``, ``risk_cap``, ``rival`` ...).
    """
    from solver.bidding.auction import auction_bid

    work = state.copy()
    work.pending = None
    b = auction_bid(work, bidder, square, rollouts=AUCTION_ROLLOUTS, horizon=AUCTION_HORIZON, seed=seed, chain=chain, threads=threads)
    d = b.to_dict()
    d.pop("buy_at_list", None)  # an auction has no list price to pay: one answer, the maximum bid
    lot = state.board.squares[square].name
    if b.max_bid <= 0:
        return QuestionAnswer("auction", "pass", f"{lot} is worth nothing to {state.players[bidder].name} at any price it can pay: do not bid", "simulation", d)
    more = " (censored: still better at that price)" if b.censored else ""
    reason = (
        f"bid up to ${b.max_bid} for {lot}: worth ${b.indifference_price}{more} in win probability against {b.rival or 'no rival'}, "
        f"liquidity cap ${b.liquidity_cap}, risk cap ${b.risk_cap}"
    )
    return QuestionAnswer("auction", "bid", reason, "simulation", d)
