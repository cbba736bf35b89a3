"""Building in the act phase: the next step of the funded build plan (lift, build, or mortgage to fund).

With ``build="funded"`` (the default) the funded plan (:mod:`solver.analysis.funded_build`)
replaces the baseline's build rule: lift the mortgages in the sets being built, build evenly to
the plan's levels, and mortgage the plan's spare lots when the cash does not cover the next
building. The plan is chosen by a model (20 rounds of rent against the expected cost of ruin:
``build_horizon``), not simulated.

One plan per building spree: the plan being carried out is the agent's memory
(:class:`solver.decisions.memory.PlanInProgress`), kept while the state is its start with part
of the plan carried out (:func:`on_path`); otherwise it is planned again. The frontier (by
holdings and budget) is a cache; the ruin curve is computed in the state in which the agent first
planned with these holdings, which its memory keeps (:class:`solver.decisions.memory.PlanEntry`),
as it keeps the frontier's budget and size (the entries are cleared before a new one when there
are more than 64 or their frontiers pass :data:`PLAN_CACHE_BYTES`).

The host decides what is legal: a building is placed only where ``view.legal_builds()`` allows
(the lowest such lot of the plan), a mortgage only where ``view.legal_mortgages()`` does, a lift
only where ``view.legal_unmortgages()`` does, each less the moves the host refused in this
position. When the host withholds the plan's spare lots although our rules allow them, another
lot it lists funds the step (:func:`_substitute`, a rule) rather than the spree ending there
(such stops were one cause named for the agent's loss under a host that refuses 30% of the
moves: docs/benchmarks.md, "A stricter host"). A step that is not legal (a house shortage) ends
the spree; the next phase plans again from the state it left.
"""

from __future__ import annotations

from engine.chains.markov import PositionChain
from engine.rules.actions import Action, Build, Mortgage, Unmortgage
from engine.rules.legal import legal_mortgages, why_not_build
from engine.rules.view import GameView
from models.state import GameState
from solver.analysis.frontier import Frontier, build_frontier
from solver.analysis.funded_build import RuinCurve, funded_plan, plan_budget
from solver.decisions.caches import DecisionCaches
from solver.decisions.choice import AgentChoice
from solver.decisions.keys import Key, holdings_key
from solver.decisions.memory import MAX_HOLDINGS, AgentMemory, PlanEntry, PlanInProgress, Snapshot
from solver.decisions.reserves import chain_of
from solver.decisions.settings import AgentSettings

PLAN_CACHE_BYTES = 64 * 2**20
"""The plan entries are cleared before their frontiers pass 64 MB (a late-game frontier with lifting
costs and a short bank is 10-20 MB; 65 of them reached a gigabyte in tournaments)."""


def on_path(state: GameState, me: int, plan: PlanInProgress) -> bool:
    """Whether ``state`` is the plan's start with part of it carried out by the agent and nothing
    else changed: the same owners and players, other lots as they were, the plan's lots between
    their start and target levels, only the plan's spare lots newly mortgaged and only its lots
    lifted, and the cash exactly what those steps leave.

    Parameters
    ----------
    state : GameState
        The position now.
    me : int
        The agent's seat.
    plan : PlanInProgress
        The plan being carried out.

    Returns
    -------
    bool

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/late-game-house-shortage.json")
    >>> plan = PlanInProgress(list(s.owner), list(s.houses), list(s.mortgaged), [False] * 4, 230, {16: 5}, (), 100, 130)
    >>> built = s.copy(); built.houses[16] += 1; built.players[0].cash -= 100
    >>> on_path(s, 0, plan), on_path(built, 0, plan), on_path(built, 1, plan)
    (True, True, False)
    """
    if state.owner != plan.owner or [p.bankrupt for p in state.players] != plan.bankrupt:
        return False
    cash = plan.cash
    for sq in range(len(state.houses)):
        h0, h = plan.houses[sq], state.houses[sq]
        if sq in plan.levels:
            if not h0 <= h <= plan.levels[sq]:
                return False
            cash -= (h - h0) * state.board.squares[sq].house_cost
        elif h != h0:
            return False
        m0, m = plan.mortgaged[sq], state.mortgaged[sq]
        if m0 and not m:
            if sq not in plan.levels:
                return False
            cash -= state.rules.unmortgage_cost(state.mortgage_value(sq))
        elif m and not m0:
            if sq not in plan.mortgages:
                return False
            cash += state.mortgage_value(sq)
    return cash == state.players[me].cash


def _frontier(state: GameState, me: int, key: Key, budget: int, chain: PositionChain, caches: DecisionCaches) -> Frontier:
    """The agent's frontier built to ``budget`` (a pure function of the holdings and the budget)."""
    return caches.get("frontier", (key, me, budget), lambda: build_frontier(state, me, chain, budget=budget))


def plan_now(state: GameState, me: int, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> PlanInProgress:
    """The funded plan for the agent now: the plan being carried out while the state is on its path
    (:func:`on_path`), else a new one (module docstring), which becomes the plan in progress.

    The frontier is built to twice the budget the plan can fund (:func:`plan_budget`; the plan is
    the same as with the full frontier), and again when the cash has outgrown it.

    Parameters
    ----------
    state : GameState
        The position.
    me : int
        The agent's seat.
    settings : AgentSettings
        ``build_horizon``.
    memory : AgentMemory
        The plan in progress and the plan entries (read and written).
    caches : DecisionCaches
        The caches.

    Returns
    -------
    PlanInProgress

    Examples
    --------
    >>> from models.io import load_state
    >>> memory = AgentMemory()
    >>> plan = plan_now(load_state("instances/late-game-house-shortage.json"), 0, AgentSettings(), memory, DecisionCaches())
    >>> plan.levels, plan.mortgages, memory.plan is plan
    ({16: 5, 18: 5, 19: 5}, (26,), True)
    """
    if memory.plan is not None and on_path(state, me, memory.plan):
        return memory.plan
    key = holdings_key(state)
    chain = chain_of(state, caches)
    entry = memory.plans.get(key)
    if entry is None:
        if len(memory.plans) > MAX_HOLDINGS or sum(e.nbytes for e in memory.plans.values()) > PLAN_CACHE_BYTES:
            memory.plans.clear()
        budget = 2 * plan_budget(state, me, chain)
        frontier = _frontier(state, me, key, budget, chain, caches)
        entry = memory.plans[key] = PlanEntry(Snapshot.of(state), budget, frontier.nbytes)
    else:
        frontier = _frontier(state, me, key, entry.budget, chain, caches)
        if frontier.truncated:
            fundable = plan_budget(state, me, chain)
            if not frontier.covers(fundable):  # more cash than it was built for
                entry.budget = 2 * fundable
                frontier = _frontier(state, me, key, entry.budget, chain, caches)
                entry.nbytes = frontier.nbytes
    anchor = entry.anchor
    curve = caches.get("curve", (key, anchor.key(), me), lambda: RuinCurve(anchor.on(state), me, chain, bucket=100))
    fp = funded_plan(state, me, chain, horizon=settings.build_horizon, frontier=frontier, curve=curve)
    memory.plan = PlanInProgress(
        list(state.owner), list(state.houses), list(state.mortgaged), [p.bankrupt for p in state.players], state.players[me].cash,
        dict(fp.levels), tuple(fp.mortgages), fp.build_cost, fp.cash_after,
    )
    return memory.plan


def _fund(state: GameState, plan: PlanInProgress, view: GameView, memory: AgentMemory, need: int) -> Action | None:
    """Mortgage the plan's next spare lot still unmortgaged that the host lets the agent mortgage;
    when the host withholds or refused the plan's spare lots (under our rules they could be
    mortgaged, so the reference engine never gets here), a substitute (:func:`_substitute`);
    ``None`` when none is left."""
    allowed = set(memory.refusals.listed(view, Mortgage))
    spare = [sq for sq in plan.mortgages if not state.mortgaged[sq] and state.houses[sq] == 0]
    for sq in spare:
        if sq in allowed:
            return Mortgage(sq)
    ours = set(legal_mortgages(state, view.me))
    if need > 0 and any(sq in ours for sq in spare):  # short of cash; the plan's lots are ours to mortgage, the host says no
        return _substitute(state, view.me, plan, sorted(allowed), need)
    return None


def _substitute(state: GameState, me: int, plan: PlanInProgress, allowed: list[int], need: int) -> Action | None:
    """In place of the plan's spare lots a host withheld: another lot the host lists, outside the
    sets being built and not already the plan's, from a group the agent does not hold whole
    first, then the smallest mortgage value that covers ``need`` (else the largest); ``None``
    when the host lists none.

    A rule, not a model: it only runs under a host stricter than ours (a foreign host; the
    strict host of ``bench/strict_host.py``), where the alternative was to stop building for
    the phase."""
    board = state.board
    built_groups = {board.squares[sq].group for sq in plan.levels}
    choices = [sq for sq in allowed if sq not in plan.levels and sq not in plan.mortgages and board.squares[sq].group not in built_groups]
    if not choices:
        return None
    whole = {g for g in board.street_groups if all(state.owner[q] == me for q in board.groups[g])}

    def value(sq: int) -> int:
        return state.mortgage_value(sq)

    covering = [sq for sq in choices if value(sq) >= need]
    pool = covering or choices
    best = min(pool, key=lambda sq: (board.squares[sq].group in whole, value(sq) if covering else -value(sq), sq))
    return Mortgage(best)


def _step(view: GameView, me: int, state: GameState, plan: PlanInProgress, memory: AgentMemory) -> Action | None:
    cash = state.players[me].cash
    for sq in sorted(plan.levels):
        if state.mortgaged[sq]:
            cost = state.rules.unmortgage_cost(state.mortgage_value(sq))
            if sq in memory.refusals.listed(view, Unmortgage) and cash >= cost:
                return Unmortgage(sq)
            return _fund(state, plan, view, memory, cost - cash)
    ready = [sq for sq, lv in plan.levels.items() if state.houses[sq] < lv and why_not_build(state, me, sq, ignore_cash=True) is None]
    if not ready:
        return None
    sq = min(ready, key=lambda q: (state.houses[q], -q))
    cost = state.board.squares[sq].house_cost
    if cash >= cost:  # affordable: build where the host allows (under our rules, sq itself)
        allowed = set(memory.refusals.listed(view, Build))
        if sq in allowed:
            return Build(sq)
        others = [q for q in ready if q in allowed]
        return Build(min(others, key=lambda q: (state.houses[q], -q))) if others else None
    return _fund(state, plan, view, memory, cost - cash)


def funded_step(view: GameView, me: int, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> AgentChoice | None:
    """The next step of the funded build plan (module docstring), or ``None`` when there is none
    (no monopoly, the plan holds, or no step is legal): the act phase then goes on by the
    baseline's steps (:mod:`solver.decisions.phase`).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The agent's seat.
    settings : AgentSettings
        ``build_horizon``.
    memory : AgentMemory
        The plan in progress, the plan entries, the host's refusals.
    caches : DecisionCaches
        The caches.

    Returns
    -------
    AgentChoice or None
        ``question`` ``act``; ``answer`` an ``Unmortgage``, ``Build`` or ``Mortgage``; ``method`` ``model``.

    Examples
    --------
    >>> from models.io import load_state
    >>> c = funded_step(GameView(load_state("instances/late-game-house-shortage.json"), 0), 0, AgentSettings(), AgentMemory(), DecisionCaches())
    >>> c.answer
    Build(square=19)
    >>> c.reason
    'the funded build plan (St. James Place to a hotel, Tennessee Avenue to a hotel, New York Avenue to a hotel; cost $300, cash after $60): build on New York Avenue next'

    """
    if not any(view.has_monopoly(me, g) for g in view.board.street_groups):
        return None
    state = view.copy()
    plan = plan_now(state, me, settings, memory, caches)
    if plan.empty:
        return None
    action = _step(view, me, state, plan, memory)
    if not isinstance(action, (Build, Mortgage, Unmortgage)):
        return None
    squares = view.board.squares
    levels = ", ".join(f"{squares[sq].name} to {'a hotel' if lv == 5 else f'{lv} house(s)'}" for sq, lv in sorted(plan.levels.items()))
    lot = squares[action.square].name
    kind = {Build: "build on", Mortgage: "mortgage", Unmortgage: "lift the mortgage on"}[type(action)]
    word = {Build: "build", Mortgage: "mortgage", Unmortgage: "unmortgage"}[type(action)]
    why = f"the funded build plan ({levels}; cost ${plan.build_cost}, cash after ${plan.cash_after}): {kind} {lot} next"
    return AgentChoice("act", action, word, why, "model", {"plan": {squares[sq].name: lv for sq, lv in sorted(plan.levels.items())}})


__all__ = ["PLAN_CACHE_BYTES", "funded_step", "on_path", "plan_now"]
