"""A building shortage auction: the premium to bid above the list price and where the building
would go (a documented rule).

The rule is the agents' (:meth:`solver.agents.strategic.StrategicTradeAgent.building_bid` and
``place_building``, which ``subgraph`` inherits): offer the cash above the building reserve
(``reserve`` + ``danger`` x the dearest rent it may face), at most $100, for either kind, and
nothing when there is none; place the building on the legal lot whose expected rent per turn
gains most from it. The engine's shortage auction is second-price on the premium.
"""

from __future__ import annotations

from engine.rules.view import GameView
from models.board import HOTEL
from models.state import GameState
from solver.decisions.answer import QuestionAnswer


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
    from solver.agents.strategic import StrategicTradeAgent

    work = state.copy()
    work.pending = None
    names = tuple(p.name for p in state.players)
    agent = StrategicTradeAgent(0)
    agent.start_game(bidder, names)
    view = GameView(work, bidder)
    lots = [sq for sq in view.legal_builds() if (view.level(sq) == HOTEL - 1) == (building == "hotel")]
    who = names[bidder]
    if not lots:
        return QuestionAnswer(
            "building_auction", "pass", f"{who} has no lot that can take a {building} now: no bid", "rule",
            {"building": building, "premium": None, "property": None, "house_cost": None},
        )
    premium = agent.building_bid(view, building)
    lot = agent.place_building(view, building)
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
