"""A question the game has put to a player and that the state is waiting on (``GameState.pending``).

Between two turns a state is a position and nothing more; inside a turn the engine may be
waiting on one player's answer to a question that the position alone does not say. The state
format (version 3, docs/state-format.md#pending-questions) writes that question in ``pending``
so that a saved state can pose it and ``solve`` can answer it:

- :class:`PendingOffer`: a trade proposed by ``proposer``, waiting on ``responder`` (the
  engine asks the participants in turn; the first refusal ends it);
- :class:`PendingDebt`: ``debtor`` owes ``owed`` (the whole payment) to ``creditor`` (``None``:
  the bank) and holds less cash: it must raise the rest (mortgages, sales, trades) or go
  bankrupt;
- :class:`PendingAuction`: the lot ``square`` is being auctioned among ``bidders`` (the
  engine's auction is sealed second-price: each bidder names a maximum);
- :class:`PendingBuildingAuction`: the bank's last houses or hotels (``building``) are
  contested among ``bidders`` because there are fewer than the players who asked;
  ``requester`` asked first (each bidder names a premium above the list price, second-price).

Players are seats (indices into ``GameState.players``), as everywhere inside the packages.
The values are frozen: a state's copy shares its question.

Examples
--------
>>> PendingDebt(debtor=3, owed=240, creditor=0).who_answers()
(3,)
>>> PendingAuction(square=28, bidders=(0, 1, 2)).who_answers()
(0, 1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from models.names import Name
from models.trade import Trade


class Question(Name):
    """The kinds of pending question; the values are the state format's ``pending.question``.

    Examples
    --------
    >>> [str(q) for q in Question]
    ['offer', 'debt', 'auction', 'building_auction']
    """

    OFFER = "offer"
    DEBT = "debt"
    AUCTION = "auction"
    BUILDING_AUCTION = "building_auction"


@dataclass(frozen=True, slots=True)
class PendingOffer:
    """A trade ``proposer`` proposed, waiting on ``responder``'s answer.

    Attributes
    ----------
    trade:
        The proposal (names, as the trade form writes them).
    proposer:
        The seat that proposed it (a participant).
    responder:
        The seat asked now (another participant).
    """

    trade: Trade
    proposer: int
    responder: int
    question = Question.OFFER

    def who_answers(self) -> tuple[int, ...]:
        """The seats the question is put to: the responder."""
        return (self.responder,)


@dataclass(frozen=True, slots=True)
class PendingDebt:
    """``debtor`` owes ``owed`` (the whole payment, more than its cash) to ``creditor``.

    Attributes
    ----------
    debtor:
        The seat that owes.
    owed:
        The whole payment, in dollars (more than the debtor's cash).
    creditor:
        The seat owed, or ``None`` for the bank.
    """

    debtor: int
    owed: int
    creditor: int | None = None
    question = Question.DEBT

    def who_answers(self) -> tuple[int, ...]:
        """The seats the question is put to: the debtor."""
        return (self.debtor,)


@dataclass(frozen=True, slots=True)
class PendingAuction:
    """The lot ``square`` auctioned among ``bidders`` (sealed second-price).

    Attributes
    ----------
    square:
        The lot (the bank's).
    bidders:
        The seats that may bid, in the engine's order (from the lander).
    """

    square: int
    bidders: tuple[int, ...]
    question = Question.AUCTION

    def who_answers(self) -> tuple[int, ...]:
        """The seats the question is put to: every bidder."""
        return self.bidders


@dataclass(frozen=True, slots=True)
class PendingBuildingAuction:
    """The bank's last buildings of one kind contested among ``bidders`` (a premium each).

    Attributes
    ----------
    building:
        ``"house"`` or ``"hotel"``.
    requester:
        The seat whose build request started the auction (a bidder).
    bidders:
        The seats able to build one now, in turn order from the requester.
    """

    building: str
    requester: int
    bidders: tuple[int, ...]
    question = Question.BUILDING_AUCTION

    def who_answers(self) -> tuple[int, ...]:
        """The seats the question is put to: every bidder."""
        return self.bidders


Pending = PendingOffer | PendingDebt | PendingAuction | PendingBuildingAuction
"""A pending question (``GameState.pending``; ``None`` when the state waits on none)."""

BUILDINGS = ("house", "hotel")
"""The kinds of building a shortage auction is for."""

__all__ = [
    "BUILDINGS",
    "Pending",
    "PendingAuction",
    "PendingBuildingAuction",
    "PendingDebt",
    "PendingOffer",
    "Question",
]
