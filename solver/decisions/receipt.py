"""Lift on receipt: a mortgaged lot received (by a trade, or from a bankrupt's estate), lift the
mortgage now or pay the interest only (a documented rule).

The rule (the baseline's, which ``subgraph`` plays): lift when the cash after the lifting cost
(the mortgage value plus the interest) stays at or above the building reserve, ``reserve`` +
``danger`` x the dearest rent the player may face (:func:`solver.decisions.baseline.building_reserve`).
The engine asks before the lots move, so the cash is the cash before the trade's own.
"""

from __future__ import annotations

from engine.rules.view import GameView
from solver.decisions.choice import AgentChoice


def lift_rule(view: GameView, me: int, square: int, keep: float) -> bool:
    """Whether to lift ``square``'s mortgage on receipt (module docstring).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The receiver.
    square : int
        The mortgaged lot received.
    keep : float
        The building reserve (:func:`solver.decisions.baseline.building_reserve`).

    Returns
    -------
    bool

    Examples
    --------
    >>> from models.io import load_state
    >>> view = GameView(load_state("instances/mortgaged.json"), 2)
    >>> lift_rule(view, 2, 12, 0.0), lift_rule(view, 2, 12, 10_000.0)
    (True, False)
    """
    cost = view.rules.unmortgage_cost(view.mortgage_value(square))
    return view.cash(me) - cost >= keep


def lift_choice(view: GameView, me: int, square: int, keep: float) -> AgentChoice:
    """The agent's answer on receipt of a mortgaged lot, with its reason (:func:`lift_rule`).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The receiver.
    square : int
        The lot.
    keep : float
        The building reserve.

    Returns
    -------
    AgentChoice
        ``question`` ``lift_on_receipt``; ``action`` ``lift`` or ``keep_mortgaged``; ``method`` ``rule``.

    Examples
    --------
    >>> from models.io import load_state
    >>> lift_choice(GameView(load_state("instances/mortgaged.json"), 2), 2, 12, 0.0).action
    'lift'
    """
    lift = lift_rule(view, me, square, keep)
    cost = view.rules.unmortgage_cost(view.mortgage_value(square))
    after = view.cash(me) - cost
    lot = view.board.squares[square].name
    if lift:
        why = f"lift {lot} now: ${after} stays after the ${cost} it costs (>= the building reserve ${keep:.0f})"
    else:
        why = f"pay the interest only on {lot}: lifting (${cost}) would leave ${after}, below the building reserve ${keep:.0f}"
    return AgentChoice("lift_on_receipt", lift, "lift" if lift else "keep_mortgaged", f"rule of thumb: {why}", "rule", {"property": lot})


__all__ = ["lift_choice", "lift_rule"]
