"""The action encoding of :class:`solver.rl.aec_env.MonopolyAECEnv`: the ``Discrete`` index <-> the engine's answer, and the masks.

Every question the engine asks a learner seat (a :class:`solver.rl.engine_thread.Request`)
is one step of that seat, and ``step(action)`` answers it. The action space is
one ``Discrete(N)`` with a fixed layout (:class:`ActionLayout`,
``N = 19 + 4 P`` where ``P`` is the board's property count: 131 on the
standard board), whose meaning depends on the pending decision (its kind is in
the observation and in ``infos[agent]["decision"]``):

====================  =====================================================
``0`` pass            ``act``/``raise_cash``: end the phase (the engine
                      rolls, or liquidates in its fixed order); ``buy``:
                      decline (the lot is auctioned); ``auction``: no
                      bid; ``accept_trade``: refuse; ``lift_on_receipt``:
                      pay the interest only; ``building_bid``: not wanted
``1`` yes             buy at list price / accept the trade / lift the
                      mortgage now
``2`` ``3`` ``4``     jail: roll for doubles / pay the fine / use a Get
                      Out of Jail Free card
``5`` .. ``12``       auction: bid up to 25, 50, 75, 100, 125, 150, 200 %
                      of the lot's list price (:data:`BID_FRACTIONS`,
                      rounded, at least $1), or all of its cash
``13`` .. ``18``      shortage auction of a building: premium above list
                      price of $0, 10, 25, 50, 100, 200
                      (:data:`BUILDING_PREMIUMS`)
``19 + k``            build on the ``k``-th property square (``act``;
                      ``place_building``: place the won building there)
``19 + P + k``        sell one building level on it
``19 + 2P + k``       mortgage it
``19 + 3P + k``       lift its mortgage
====================  =====================================================

The mask (:meth:`ActionLayout.legal_mask`) marks exactly the actions the
engine accepts now (:mod:`engine.rules.legal`'s listings for squares; a bid
at most the seat's cash; paying the fine only with the cash for it, a card
only when held; ``place_building`` has no pass). A masked-out action is
refused by :func:`check_action` with :class:`models.errors.IllegalActionError`
before anything changes. Proposing trades is not in the action space (a
learner seat never proposes); being asked to accept one is (``accept_trade``).
Bids and premiums above what the engine allows are capped by the engine as
for any agent.

Each decision kind has one mask function and one answer function, looked up
by the request's kind in a table (a kind without an entry cannot occur: the
kinds are those of :class:`solver.rl.engine_thread.LearnerSeat`'s methods).

This module needs neither PettingZoo nor Gymnasium.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from engine.rules import legal
from engine.rules.actions import Build, Mortgage, SellBuilding, Unmortgage
from models.board import HOTEL
from models.errors import IllegalActionError
from models.state import GameState
from solver.rl.engine_thread import Request

__all__ = ["BID_FRACTIONS", "BUILDING_PREMIUMS", "ActionLayout", "bid_amount", "check_action"]

BID_FRACTIONS = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
"""Auction bid levels as fractions of the lot's list price (an all-cash level follows them)."""
BUILDING_PREMIUMS = (0, 10, 25, 50, 100, 200)
"""Premiums above list price offered in a building-shortage auction."""


class ActionLayout:
    """The fixed layout of the ``Discrete`` action space for a board (the module docstring's table).

    Parameters
    ----------
    property_squares:
        The board's property squares, in board order; slot ``k`` of the four
        square blocks is ``property_squares[k]``.

    Examples
    --------
    >>> from models.board import standard_board
    >>> lay = ActionLayout(tuple(standard_board().property_squares))
    >>> lay.size, lay.build, lay.sell, lay.slot[1]
    (131, 19, 47, 0)
    """

    PASS = 0
    YES = 1
    JAIL_ROLL = 2
    JAIL_PAY = 3
    JAIL_CARD = 4
    BID = 5

    def __init__(self, property_squares: tuple[int, ...]) -> None:
        self.squares = tuple(property_squares)
        self.slot = {sq: k for k, sq in enumerate(self.squares)}
        p = len(self.squares)
        self.all_in = self.BID + len(BID_FRACTIONS)
        self.premium = self.all_in + 1
        self.build = self.premium + len(BUILDING_PREMIUMS)
        self.sell = self.build + p
        self.mortgage = self.sell + p
        self.unmortgage = self.mortgage + p
        self.size = self.unmortgage + p

    def names(self, square_names: Mapping[int, str]) -> list[str]:
        """A short name for every action (``build:Baltic Avenue``), in index order.

        Parameters
        ----------
        square_names:
            The name of every property square.

        Returns
        -------
        list of str
            ``size`` names, action ``i`` at index ``i``.
        """
        out = ["pass", "yes", "jail:roll", "jail:pay", "jail:card"]
        out += [f"bid:{f:g}x" for f in BID_FRACTIONS] + ["bid:all-cash"]
        out += [f"premium:${v}" for v in BUILDING_PREMIUMS]
        for what in ("build", "sell", "mortgage", "unmortgage"):
            out += [f"{what}:{square_names[sq]}" for sq in self.squares]
        return out

    def legal_mask(self, state: GameState, request: Request) -> np.ndarray:
        """The mask of a pending decision: exactly the answers the engine accepts.

        Parameters
        ----------
        state:
            The live state (read while the engine waits on ``request``).
        request:
            The pending question.

        Returns
        -------
        numpy.ndarray
            ``int8`` of length ``size``, 1 for a legal action.
        """
        mask = np.zeros(self.size, dtype=np.int8)
        _MASKS[request.kind](self, mask, state, request)
        return mask

    def answer(self, state: GameState, request: Request, index: int) -> Any:
        """The engine's answer to ``request`` for a legal action ``index`` (:func:`check_action` checked it).

        Parameters
        ----------
        state:
            The live state (for an all-cash bid and the lots' list prices).
        request:
            The pending question.
        index:
            An action the mask of ``request`` allows.

        Returns
        -------
        object
            What the :class:`solver.rl.engine_thread.LearnerSeat` method returns
            to the engine: a bool, a bid, a jail choice, a premium or ``None``,
            a square, or an :class:`engine.rules.actions.Action` or ``None``.
        """
        return _ANSWERS[request.kind](self, state, request, index)


def bid_amount(state: GameState, square: int, level: int) -> int:
    """The bid of level ``level`` of :data:`BID_FRACTIONS` on ``square``: that share of its list price, rounded, at least $1.

    Examples
    --------
    >>> from models.state import GameState
    >>> bid_amount(GameState.new_game(["A", "B"]), 1, 0)  # a quarter of Mediterranean Avenue's $60
    15
    """
    price = state.board.squares[square].price
    return max(1, round(BID_FRACTIONS[level] * price))


def check_action(agent: str, action: Any, mask: np.ndarray, names: list[str], kind: str) -> int:
    """``action`` as an index the mask allows, or a one-line refusal.

    Parameters
    ----------
    agent:
        The deciding seat's name (for the message).
    action:
        What the learner passed to ``step`` (an integer; numpy integers are accepted).
    mask:
        The pending decision's mask.
    names:
        :meth:`ActionLayout.names` (for the message).
    kind:
        The pending decision's kind (for the message).

    Returns
    -------
    int
        The action index.

    Raises
    ------
    models.errors.IllegalActionError
        An action that is not an integer (a bool is not), out of range, or masked out.
    """
    if isinstance(action, (bool, np.bool_)):
        raise IllegalActionError(f"{agent}: action must be an integer index, got {action!r}")
    try:
        index = operator.index(action)
    except TypeError:
        raise IllegalActionError(f"{agent}: action must be an integer index, got {action!r}") from None
    if not 0 <= index < len(mask):
        raise IllegalActionError(f"{agent}: action {index} is outside 0..{len(mask) - 1}")
    if not mask[index]:
        allowed = [names[i] for i in np.flatnonzero(mask)]
        shown = ", ".join(allowed[:6]) + (f" and {len(allowed) - 6} more" if len(allowed) > 6 else "")
        raise IllegalActionError(f"{agent}: action {index} ({names[index]}) is not legal in this {kind} decision (legal: {shown})")
    return index


# -- the masks, one function per decision kind ----------------------------------------


def _mask_phase(lay: ActionLayout, mask: np.ndarray, s: GameState, request: Request) -> None:
    """``act`` and ``raise_cash``: pass, sell, mortgage; ``act`` also build and lift mortgages."""
    p = request.seat
    mask[lay.PASS] = 1
    for sq in legal.legal_building_sales(s, p):
        mask[lay.sell + lay.slot[sq]] = 1
    for sq in legal.legal_mortgages(s, p):
        mask[lay.mortgage + lay.slot[sq]] = 1
    if request.kind == "act":
        for sq in legal.legal_builds(s, p):
            mask[lay.build + lay.slot[sq]] = 1
        for sq in legal.legal_unmortgages(s, p):
            mask[lay.unmortgage + lay.slot[sq]] = 1


def _mask_yes_no(lay: ActionLayout, mask: np.ndarray, s: GameState, request: Request) -> None:
    """``buy``, ``accept_trade``, ``lift_on_receipt``: pass or yes."""
    mask[lay.PASS] = mask[lay.YES] = 1


def _mask_auction(lay: ActionLayout, mask: np.ndarray, s: GameState, request: Request) -> None:
    """``auction``: no bid, every bid level at most the seat's cash, all of it (with at least $1)."""
    cash = s.players[request.seat].cash
    mask[lay.PASS] = 1
    assert request.square is not None
    for i in range(len(BID_FRACTIONS)):
        if bid_amount(s, request.square, i) <= cash:
            mask[lay.BID + i] = 1
    if cash >= 1:
        mask[lay.all_in] = 1


def _mask_jail(lay: ActionLayout, mask: np.ndarray, s: GameState, request: Request) -> None:
    """``jail``: roll; pay with the cash for the fine; a card when held."""
    p = request.seat
    mask[lay.JAIL_ROLL] = 1
    if s.players[p].cash >= s.rules.jail_fine:
        mask[lay.JAIL_PAY] = 1
    if s.players[p].jail_cards > 0:
        mask[lay.JAIL_CARD] = 1


def _mask_building_bid(lay: ActionLayout, mask: np.ndarray, s: GameState, request: Request) -> None:
    """``building_bid``: not wanted, every premium at most the seat's cash."""
    cash = s.players[request.seat].cash
    mask[lay.PASS] = 1
    for i, premium in enumerate(BUILDING_PREMIUMS):
        if premium <= cash:
            mask[lay.premium + i] = 1


def _mask_place_building(lay: ActionLayout, mask: np.ndarray, s: GameState, request: Request) -> None:
    """``place_building``: the legal builds that take the won building (a hotel only on four houses); no pass."""
    hotel = request.building == "hotel"
    for sq in legal.legal_builds(s, request.seat):
        if (s.houses[sq] == HOTEL - 1) == hotel:
            mask[lay.build + lay.slot[sq]] = 1


_MASKS: Mapping[str, Callable[[ActionLayout, np.ndarray, GameState, Request], None]] = {
    "act": _mask_phase,
    "raise_cash": _mask_phase,
    "buy": _mask_yes_no,
    "accept_trade": _mask_yes_no,
    "lift_on_receipt": _mask_yes_no,
    "auction": _mask_auction,
    "jail": _mask_jail,
    "building_bid": _mask_building_bid,
    "place_building": _mask_place_building,
}
"""The mask function of every decision kind (every kind of :data:`solver.rl.engine_thread.DECISION_KINDS` but ``none``)."""


# -- the answers, one function per decision kind --------------------------------------


def _answer_phase(lay: ActionLayout, s: GameState, request: Request, index: int) -> Any:
    """``act``/``raise_cash``: ``None`` (pass), else the square block's action on the slot's lot."""
    if index == lay.PASS:
        return None
    block, k = divmod(index - lay.build, len(lay.squares))  # the mask allows only pass and the square blocks
    return (Build, SellBuilding, Mortgage, Unmortgage)[block](lay.squares[k])


def _answer_yes_no(lay: ActionLayout, s: GameState, request: Request, index: int) -> Any:
    return index == lay.YES


def _answer_auction(lay: ActionLayout, s: GameState, request: Request, index: int) -> Any:
    if index == lay.PASS:
        return 0
    if index == lay.all_in:
        return s.players[request.seat].cash
    assert request.square is not None
    return bid_amount(s, request.square, index - lay.BID)


def _answer_jail(lay: ActionLayout, s: GameState, request: Request, index: int) -> Any:
    return {lay.JAIL_ROLL: "roll", lay.JAIL_PAY: "pay", lay.JAIL_CARD: "card"}[index]


def _answer_building_bid(lay: ActionLayout, s: GameState, request: Request, index: int) -> Any:
    return None if index == lay.PASS else BUILDING_PREMIUMS[index - lay.premium]


def _answer_place_building(lay: ActionLayout, s: GameState, request: Request, index: int) -> Any:
    return lay.squares[index - lay.build]


_ANSWERS: Mapping[str, Callable[[ActionLayout, GameState, Request, int], Any]] = {
    "act": _answer_phase,
    "raise_cash": _answer_phase,
    "buy": _answer_yes_no,
    "accept_trade": _answer_yes_no,
    "lift_on_receipt": _answer_yes_no,
    "auction": _answer_auction,
    "jail": _answer_jail,
    "building_bid": _answer_building_bid,
    "place_building": _answer_place_building,
}
"""The answer function of every decision kind (the keys of :data:`_MASKS`)."""
