"""Raising cash: a debt larger than the cash, one step at a time (a documented rule).

The rule (the baseline's, which ``subgraph`` plays): mortgage first, lots outside its monopolies
before lots inside them, and among those the lot whose expected rent per turn (the static
values, :func:`solver.decisions.baseline.static_valuation`) is lowest; with nothing left to
mortgage, sell the building whose loss of expected rent per dollar of house cost is lowest.
Every step is drawn from the host's lists (``legal_mortgages``, ``legal_building_sales``) less
the moves it refused in this position. ``None`` when neither is left: the engine then liquidates
in its fixed order, or the player is bankrupt. :mod:`solver.decisions.debt` plays the rule to the
end for ``solve``'s answer to a pending debt.
"""

from __future__ import annotations

from engine.rules.actions import Action, Mortgage, SellBuilding
from engine.rules.refusals import Refusals
from engine.rules.view import GameView
from solver.analysis.static_value import StaticValuation
from solver.decisions.choice import AgentChoice


def raise_cash_rule(view: GameView, me: int, refusals: Refusals, valuation: StaticValuation) -> Action | None:
    """The next step (module docstring).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The debtor.
    refusals : Refusals
        The moves the host refused to it.
    valuation : StaticValuation
        The static values.

    Returns
    -------
    Action or None
        A ``Mortgage`` or ``SellBuilding``; ``None`` when neither is legal.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.decisions.baseline import static_valuation
    >>> s = load_state("instances/mortgaged.json")
    >>> raise_cash_rule(GameView(s, 0), 0, Refusals(), static_valuation(s.board, s.rules))
    Mortgage(square=19)
    """
    state = view.copy()
    board = view.board
    mortgages = refusals.listed(view, Mortgage)
    if mortgages:

        def cost(sq: int) -> tuple[bool, float]:
            group = board.squares[sq].group
            assert group is not None
            return (view.has_monopoly(me, group), valuation.ept(state, sq, me))

        return Mortgage(min(mortgages, key=cost))
    sales = refusals.listed(view, SellBuilding)
    if sales:

        def loss(sq: int) -> float:
            level = view.level(sq)
            lost = valuation.ept(state, sq, me, level) - valuation.ept(state, sq, me, level - 1)
            return lost / max(1, board.squares[sq].house_cost)

        return SellBuilding(min(sales, key=loss))
    return None


def raise_cash_choice(view: GameView, me: int, owed: int, refusals: Refusals, valuation: StaticValuation) -> AgentChoice:
    """The agent's next step to raise ``owed``, with its reason (:func:`raise_cash_rule`).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The debtor.
    owed : int
        The whole payment.
    refusals : Refusals
        The moves the host refused to it.
    valuation : StaticValuation
        The static values.

    Returns
    -------
    AgentChoice
        ``question`` ``debt``; ``action`` ``mortgage``, ``sell_building`` or ``stop``; ``method`` ``rule``.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.decisions.baseline import static_valuation
    >>> s = load_state("instances/mortgaged.json")
    >>> raise_cash_choice(GameView(s, 0), 0, 200, Refusals(), static_valuation(s.board, s.rules)).reason
    'owes $200 with $60: mortgage New York Avenue (rule of thumb: lots outside sets first, the lowest rent first)'
    """
    step = raise_cash_rule(view, me, refusals, valuation)
    cash = view.cash(me)
    if step is None:
        return AgentChoice(
            "debt", None, "stop", f"owes ${owed} with ${cash} and nothing left to mortgage or sell: stop (the engine liquidates or the player is bankrupt)",
            "rule", {"owed": owed},
        )
    assert isinstance(step, (Mortgage, SellBuilding))
    lot = view.board.squares[step.square].name
    if isinstance(step, Mortgage):
        why = f"owes ${owed} with ${cash}: mortgage {lot} (rule of thumb: lots outside sets first, the lowest rent first)"
        return AgentChoice("debt", step, "mortgage", why, "rule", {"owed": owed})
    why = f"owes ${owed} with ${cash} and nothing left to mortgage: sell a building on {lot} (rule of thumb: the least rent lost per dollar)"
    return AgentChoice("debt", step, "sell_building", why, "rule", {"owed": owed})


__all__ = ["raise_cash_choice", "raise_cash_rule"]
