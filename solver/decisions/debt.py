"""A debt larger than the cash: which lots to mortgage and which buildings to sell, in order, or
that bankruptcy cannot be avoided (a documented rule).

The rule is the one every agent of the registry plays when the engine asks it to raise cash
(:meth:`solver.agents.strategic.StrategicTradeAgent.raise_cash`, which ``subgraph`` inherits):
mortgage first, lots outside its monopolies before lots inside them, and among those the lot
whose expected rent per turn is lowest; with nothing left to mortgage, sell the building
whose loss of expected rent per dollar of house cost is lowest (a hotel broken as the engine
breaks it). It is carried out by the engine itself on a copy of the state
(:meth:`engine.rules.game.Game._raise_cash`, the host's own ``raise_cash`` phase, with its
budget and its fixed liquidation order if the agent stopped short), so every step is one the
rules allow, in the order the agent would take it. When the debtor's liquidation value (cash,
every mortgage, every building sold at half price) is below the debt, no sale covers it: the
answer is that bankruptcy cannot be avoided by selling (a trade might still raise the cash;
``solve`` says so and does not search for one).

Not a simulation: which order loses least win probability is not measured (the rule is what
the agents play; ``docs/decisions.md`` lists the rules).
"""

from __future__ import annotations

from typing import Any

from engine.rules.actions import Event
from engine.rules.agents import BaseAgent
from engine.rules.game import Game
from engine.rules.streams import ScriptedStream
from models.state import GameState
from solver.decisions.answer import QuestionAnswer


def raise_cash_plan(state: GameState, debtor: int, owed: int, creditor: int | None = None) -> QuestionAnswer:
    """The steps ``debtor`` takes to raise ``owed`` (module docstring), or that it cannot.

    Parameters
    ----------
    state : GameState
        The position (not changed; its pending question is ignored).
    debtor : int
        The seat that owes.
    owed : int
        The whole payment (more than the debtor's cash).
    creditor : int or None
        The seat owed (``None``: the bank), for the words.

    Returns
    -------
    QuestionAnswer
        ``action`` ``raise_cash`` with ``steps`` (each ``{"action": "mortgage" | "sell_building",
        "property", "cash_after"}``), ``owed``, ``cash``, ``liquidation_value``, ``cash_after``;
        or ``action`` ``bankrupt`` with the same figures and no steps.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/mortgaged.json")
    >>> a = raise_cash_plan(s, 0, 200, creditor=1)
    >>> a.action, [(x["action"], x["property"]) for x in a.details["steps"]], a.details["cash_after"] >= 200
    ('raise_cash', [('mortgage', 'New York Avenue'), ('mortgage', 'Indiana Avenue')], True)
    >>> raise_cash_plan(s, 0, 5000).action
    'bankrupt'
    """
    from solver.agents.strategic import StrategicTradeAgent

    work = state.copy()
    work.pending = None
    who = state.players[debtor].name
    to = "the bank" if creditor is None else state.players[creditor].name
    cash = work.players[debtor].cash
    worth = work.liquidation_value(debtor)
    figures: dict[str, Any] = {"owed": owed, "to": None if creditor is None else state.players[creditor].name, "cash": cash, "liquidation_value": worth}
    if worth < owed:
        return QuestionAnswer(
            "debt",
            "bankrupt",
            f"{who} owes ${owed} to {to} and everything sold to the bank raises ${worth}: bankruptcy cannot be avoided by "
            "selling (only a trade that brings cash could; none is searched)",
            "rule",
            {**figures, "steps": [], "cash_after": cash},
        )
    steps: list[dict[str, Any]] = []
    agents: list[Any] = [BaseAgent() for _ in work.players]
    agents[debtor] = StrategicTradeAgent(0)

    def observe(event: Event, game: Game) -> None:
        if event.kind in ("mortgage", "sell_building") and event.player == debtor:
            square = int(event.data["square"])
            steps.append({"action": event.kind, "property": work.board.squares[square].name, "cash_after": work.players[debtor].cash})

    game = Game(work, agents, ScriptedStream(), observers=[observe])
    game._raise_cash(debtor, owed)
    after = work.players[debtor].cash
    said = "; ".join(f"{'mortgage' if x['action'] == 'mortgage' else 'sell a building on'} {x['property']}" for x in steps)
    return QuestionAnswer(
        "debt",
        "raise_cash",
        f"{who} owes ${owed} to {to} with ${cash}: {said} (then ${after}); rule of thumb: mortgage lots outside sets first, "
        "the lowest rent first, then sell the building that loses least rent per dollar",
        "rule",
        {**figures, "steps": steps, "cash_after": after},
    )
