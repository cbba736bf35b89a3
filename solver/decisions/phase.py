"""The baseline's act phase: one action at a time, the first step that applies.

1. lift a mortgage in one of its monopolies (they block building) when the cash after it stays at
   or above the building reserve (``reserve`` + ``danger`` x the dearest rent it may face);
2. build (when the caller builds by this rule: ``strategic``, and ``subgraph`` with
   ``build="even"``), toward three houses on every lot first (where street rent jumps most per
   dollar), then the best gain in expected rent per dollar, keeping the building reserve;
3. propose a trade (the caller's search: ``strategic``'s swaps, or ``subgraph``'s
   :mod:`solver.decisions.proposing`), at most the phase's number of searches, and not in debt;
4. lift any other mortgage when the cash after it is at least twice the building reserve plus $200.

Every move is drawn from the host's lists less what it refused in this position
(:meth:`engine.rules.refusals.Refusals.listed`). ``None`` ends the phase.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.actions import Build, ProposeTrade, Unmortgage
from engine.rules.refusals import Refusals
from engine.rules.view import GameView
from models.trade import Trade
from solver.analysis.static_value import StaticValuation
from solver.decisions.choice import AgentChoice

PLENTY = 200
"""Step 4 lifts when the cash after it is at least twice the building reserve plus this."""


def phase_choice(
    view: GameView,
    me: int,
    keep: float,
    refusals: Refusals,
    valuation: StaticValuation,
    *,
    build: bool,
    may_propose: bool,
    propose: Callable[[], AgentChoice],
) -> AgentChoice:
    """The baseline's next action of the phase (module docstring).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The seat.
    keep : float
        The building reserve (:func:`solver.decisions.baseline.building_reserve`).
    refusals : Refusals
        The moves the host refused to it.
    valuation : StaticValuation
        The static values (step 2).
    build : bool
        Whether step 2 runs.
    may_propose : bool
        Whether step 3 runs (trading on, searches left this phase, cash not negative).
    propose : callable
        Step 3's search: an ``act`` choice whose answer is a ``Trade`` or ``None``.

    Returns
    -------
    AgentChoice
        ``question`` ``act``; ``answer`` an ``Unmortgage``, ``Build`` or ``ProposeTrade``, or ``None``.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.decisions.baseline import static_valuation
    >>> s = load_state("instances/late-game-house-shortage.json")
    >>> none = lambda: AgentChoice("act", None, "hold", "no trade", "rule")
    >>> phase_choice(GameView(s, 0), 0, 50.0, Refusals(), static_valuation(s.board, s.rules), build=True, may_propose=False, propose=none).answer
    Build(square=18)
    """
    cash = view.cash(me)
    board = view.board
    lifts = refusals.listed(view, Unmortgage)  # the host's lists, less what it refused here
    builds = refusals.listed(view, Build)
    for sq in lifts:
        group = board.squares[sq].group
        assert group is not None
        cost = view.rules.unmortgage_cost(view.mortgage_value(sq))
        if view.has_monopoly(me, group) and cash - cost >= keep:
            why = f"rule of thumb: lift {board.squares[sq].name} in its set (${cost}; ${cash - cost} stays, >= the building reserve ${keep:.0f})"
            return AgentChoice("act", Unmortgage(sq), "unmortgage", why, "rule")
    best: tuple[tuple[int, float], int] | None = None
    state = view.copy() if builds and build else None
    for sq in builds if build else ():
        s = board.squares[sq]
        if cash - s.house_cost < keep:
            continue
        assert state is not None
        level = view.level(sq)
        gain = valuation.ept(state, sq, me, level + 1) - valuation.ept(state, sq, me, level)
        score = (1 if level < 3 else 0, gain / max(1, s.house_cost))
        if best is None or score > best[0]:
            best = (score, sq)
    if best is not None:
        sq = best[1]
        why = (
            f"rule of thumb: build on {board.squares[sq].name} (toward three houses everywhere first, then the most rent per dollar; "
            f"the building reserve ${keep:.0f} stays)"
        )
        return AgentChoice("act", Build(sq), "build", why, "rule")
    if may_propose:
        found = propose()
        if found.answer is not None:
            trade: Trade = found.answer
            return AgentChoice("act", ProposeTrade(trade), "propose_trade", found.reason, found.method, found.details)
    for sq in lifts:
        cost = view.rules.unmortgage_cost(view.mortgage_value(sq))
        if cash - cost >= 2 * keep + PLENTY:
            why = f"rule of thumb: lift {board.squares[sq].name} (${cost}; ${cash - cost} stays, >= twice the building reserve + ${PLENTY})"
            return AgentChoice("act", Unmortgage(sq), "unmortgage", why, "rule")
    why = "nothing to lift, build or propose under the rules of thumb: end the phase"
    if may_propose:
        why = f"{found.reason}; nothing to lift or build: end the phase"
    return AgentChoice("act", None, "hold", why, "rule")


__all__ = ["PLENTY", "phase_choice"]
