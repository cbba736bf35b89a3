"""A building shortage auction: the premium to bid above the list price and where the building
would go (a documented rule).

The rule is the agents' (the baseline's, which ``subgraph`` plays: :func:`building_bid_rule` and
:func:`place_building_rule`): offer the cash above the building reserve (``reserve`` + ``danger``
x the dearest rent it may face, :func:`solver.decisions.baseline.building_reserve`), at most $100,
for either kind, and nothing when there is none; place the building on the legal lot whose
expected rent per turn gains most from it. The engine's shortage auction is second-price on the
premium. :func:`shortage_answer` is ``solve``'s answer to a pending shortage auction.
"""

from __future__ import annotations

from engine.rules.agents import NoLegalLotError
from engine.rules.view import GameView
from models.board import HOTEL
from models.state import GameState
from solver.analysis.static_value import StaticValuation
from solver.decisions.answer import QuestionAnswer
from solver.decisions.baseline import BaselineRules, building_reserve, static_valuation, worst_rent
from solver.decisions.choice import AgentChoice

MAX_PREMIUM = 100
"""The most the rule bids above the list price, in dollars."""


def building_bid_rule(view: GameView, me: int, keep: float) -> int | None:
    """The premium the rule offers in a shortage auction (module docstring).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The bidder.
    keep : float
        The building reserve.

    Returns
    -------
    int or None
        Dollars above the list price; ``None`` (not wanted) when the cash is at or below the reserve.

    Examples
    --------
    >>> from models.io import load_state
    >>> view = GameView(load_state("instances/pending-shortage.json"), 0)
    >>> building_bid_rule(view, 0, 150.0), building_bid_rule(view, 0, 10_000.0)
    (100, None)
    """
    spare = view.cash(me) - keep
    if spare <= 0:
        return None
    return int(min(spare, MAX_PREMIUM))


def shortage_lots(view: GameView, kind: str) -> list[int]:
    """The lots of the host's list where a building of ``kind`` goes (a hotel: a lot at four houses).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    kind : str
        ``house`` or ``hotel``.

    Returns
    -------
    list of int

    Examples
    --------
    >>> from models.io import load_state
    >>> view = GameView(load_state("instances/late-game-house-shortage.json"), 0)  # Ann's oranges at four houses
    >>> shortage_lots(view, "house"), shortage_lots(view, "hotel")
    ([], [16, 18, 19])
    """
    return [sq for sq in view.legal_builds() if (view.level(sq) == HOTEL - 1) == (kind == "hotel")]


def place_building_rule(view: GameView, me: int, kind: str, valuation: StaticValuation) -> int:
    """The legal lot for a ``kind`` whose expected rent per turn gains most from one more building.

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The winner.
    kind : str
        ``house`` or ``hotel``.
    valuation : StaticValuation
        The static values.

    Returns
    -------
    int
        The lot's square.

    Raises
    ------
    NoLegalLotError
        No lot can take a building of that kind (the host asked where none can go).

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/pending-shortage.json")
    >>> s.board.squares[place_building_rule(GameView(s, 0), 0, "house", static_valuation(s.board, s.rules))].name
    'New York Avenue'
    """
    state = view.copy()
    legal = shortage_lots(view, kind)
    if not legal:
        raise NoLegalLotError(f"no legal lot for a {kind}")
    return max(legal, key=lambda sq: valuation.ept(state, sq, me, view.level(sq) + 1) - valuation.ept(state, sq, me))


def building_bid_choice(view: GameView, me: int, kind: str, keep: float) -> AgentChoice:
    """The agent's premium in a shortage auction, with its reason (:func:`building_bid_rule`).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The bidder.
    kind : str
        ``house`` or ``hotel``.
    keep : float
        The building reserve.

    Returns
    -------
    AgentChoice
        ``question`` ``building_auction``; ``action`` ``building_bid`` or ``pass``; ``method`` ``rule``.

    Examples
    --------
    >>> from models.io import load_state
    >>> building_bid_choice(GameView(load_state("instances/pending-shortage.json"), 0), 0, "house", 150.0).answer
    100
    """
    premium = building_bid_rule(view, me, keep)
    if premium is None:
        why = f"its cash ${view.cash(me)} is at or below its building reserve ${keep:.0f}: no bid for the {kind}"
        return AgentChoice("building_auction", None, "pass", f"rule of thumb: {why}", "rule", {"building": kind, "premium": None})
    why = f"bid up to ${premium} above the list price for the {kind}: the cash above the building reserve ${keep:.0f}, at most ${MAX_PREMIUM}"
    return AgentChoice("building_auction", premium, "building_bid", f"rule of thumb: {why}", "rule", {"building": kind, "premium": premium})


def place_building_choice(view: GameView, me: int, kind: str, valuation: StaticValuation) -> AgentChoice:
    """Where the agent puts a building won in a shortage auction (:func:`place_building_rule`).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The winner.
    kind : str
        ``house`` or ``hotel``.
    valuation : StaticValuation
        The static values.

    Returns
    -------
    AgentChoice
        ``question`` ``place_building``; ``answer`` the lot's square; ``method`` ``rule``.

    Raises
    ------
    NoLegalLotError
        No lot can take it.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/pending-shortage.json")
    >>> place_building_choice(GameView(s, 0), 0, "house", static_valuation(s.board, s.rules)).details["property"]
    'New York Avenue'
    """
    sq = place_building_rule(view, me, kind, valuation)
    name = view.board.squares[sq].name
    return AgentChoice(
        "place_building", sq, "place_building", f"rule of thumb: the {kind} goes on {name}, where the expected rent gains most", "rule",
        {"building": kind, "property": name},
    )




def shortage_answer(state: GameState, bidder: int, building: str) -> QuestionAnswer:
    """``bidder``'s premium for one of the bank's last ``building`` s, and its lot (module docstring).

    Parameters
    ----------
    state : GameState
        The position (its pending question is ignored).
    bidder : int
        The seat.
    building : {"house", "hotel"}
        The kind contested.

    Returns
    -------
    QuestionAnswer
        ``action`` ``building_bid`` (or ``pass``), ``method`` ``rule``; details: ``building``,
        ``premium`` (dollars above the list price, or ``None``), ``property`` (the lot it
        would go on, or ``None``), ``house_cost``.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/pending-shortage.json")
    >>> a = shortage_answer(s, 0, "house")
    >>> a.action, a.details["property"], a.details["premium"]
    ('building_bid', 'New York Avenue', 100)
    >>> shortage_answer(load_state("instances/late-game-house-shortage.json"), 2, "house").action  # $180: no spare cash
    'pass'
    """
    work = state.copy()
    work.pending = None
    names = tuple(p.name for p in state.players)
    view = GameView(work, bidder)
    lots = shortage_lots(view, building)
    who = names[bidder]
    if not lots:
        return QuestionAnswer(
            "building_auction", "pass", f"{who} has no lot that can take a {building} now: no bid", "rule",
            {"building": building, "premium": None, "property": None, "house_cost": None},
        )
    premium = building_bid_rule(view, bidder, building_reserve(BaselineRules(), worst_rent(view, bidder)))
    lot = place_building_rule(view, bidder, building, static_valuation(view.board, view.rules))
    cost = state.board.squares[lot].house_cost
    name = state.board.squares[lot].name
    details = {"building": building, "premium": premium, "property": name, "house_cost": cost}
    if premium is None:
        return QuestionAnswer(
            "building_auction", "pass",
            f"{who}'s cash is at or below its building reserve: no bid (rule of thumb: bid the cash above the reserve, at most $100)",
            "rule", details,
        )
    return QuestionAnswer(
        "building_auction", "building_bid",
        f"bid a premium of up to ${premium} above the ${cost} list price and place the {building} on {name} "
        "(rule of thumb: the cash above the building reserve, at most $100; the lot whose rent gains most)",
        "rule", details,
    )


__all__ = [
    "MAX_PREMIUM",
    "building_bid_choice",
    "building_bid_rule",
    "place_building_choice",
    "place_building_rule",
    "shortage_answer",
    "shortage_lots",
]
