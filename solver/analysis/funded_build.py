"""A build plan that uses money: mortgage lots outside the sets being built, keep the cash the ruin chain asks for.

The even-building frontier (:mod:`solver.analysis.frontier`) says what rent a
budget buys; this module chooses the budget and where the money comes from.

Model
-----
Let ``c`` be the player's cash, ``F(b)`` the frontier's rent per round gained
for a building budget ``b`` (an exact multiple-choice knapsack; lifting
mortgages inside a complete set is one of its options), and ``S`` the player's
*spare lots*: unmortgaged properties with no buildings outside its complete
sets. Mortgaging a subset ``M`` of ``S`` raises ``m(M) = sum of mortgage
values`` and loses ``l(M)`` rent per round (the long-run EPT of those lots for
their present owner, :func:`engine.chains.ept.state_ept`, times the active
opponents), and lifting them later costs the interest ``i(M)``. A plan is a
pair ``(b, M)`` with ``cost(b) <= c + m(M)``; it leaves cash ``c' = c + m(M) -
cost(b)`` and is worth, over a horizon of ``H`` rounds::

    V(b, M) = H * (F(b) - l(M)) - i(M) - L * P_ruin(W')

where ``W'`` is the liquidation value after the plan (cash, buildings sold
back at half, every unmortgaged lot mortgaged: mortgaging moves value from
lots to cash and leaves ``W`` unchanged; a building costs ``W`` half its price;
lifting a mortgage costs its interest), ``P_ruin(w)`` the probability of
ruin within ``turns`` turns from wealth ``w`` with the player's present holdings
(:func:`engine.chains.state_risk.ruin_within_by_wealth`, one backward pass for all
wealths; :mod:`solver.analysis.reserve` uses the same curve), and ``L`` the
cost of ruin: the player's net worth now plus ``H`` rounds of the rent it
collects now and would gain, i.e. everything the plan counts on. Holding
(``b = 0``, ``M`` empty) is worth ``-L * P_ruin(W)``; the plan is the
``argmax`` of ``V``, and holding wins ties. The cash kept, ``c'``, is
therefore chosen by the ruin chain, not by a fixed floor: it is the reserve
that maximises expected rent minus the expected cost of ruin.

For a budget ``b`` the mortgages are the cheapest way to raise ``need =
max(0, cost(b) - c)``: a 0/1 knapsack minimising ``H * l(M) + i(M)``
subject to ``m(M) >= need``, solved exactly by dynamic programming over the
raised amount in units of the mortgage values' greatest common divisor.

Approximations (named): the ruin curve is computed once, with the present
holdings, and read at the wealth after the plan. More buildings also mean more
rent collected (less ruin, so the curve overstates the plan's risk) and larger
street-repair bills (more ruin, understated); liquidation at half price is
counted as cover, so the cost of a forced sale is not charged beyond its
effect on ``W'``. Rents are long-run EPT (no account of where the opponents
stand now).

Sources: the frontier's knapsack (Sinha and Zoltners 1979), the ruin chain of
:mod:`engine.chains.state_risk`; the funding rule (mortgage outside the building
sets, build to three houses) is the standard advice of Orbanes, *Monopoly:
The World's Most Famous Game* (2007), ch. 8, and of Darzinskis, *Winning
Monopoly* (1987).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.chains.ept import state_ept
from engine.chains.markov import PositionChain
from engine.chains.state_risk import ruin_within_by_wealth
from models.errors import BankruptPlayerError, InvalidArgumentError
from models.state import GameState
from solver.analysis.frontier import Frontier, Option, build_frontier


@dataclass(frozen=True)
class SpareLot:
    """A lot the plan may mortgage: its square, the cash it raises, the rent per round it
    stops collecting and the interest to lift it later.

    Attributes
    ----------
    square : int
        The lot.
    value : int
        Its mortgage value.
    rent : float
        Rent per round it stops collecting.
    interest : int
        The interest paid to lift it.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> late = load_state("instances/late-game-house-shortage.json")
    >>> chain = chain_for(late.board, late.rules)
    >>> [(lot.square, lot.value, round(lot.rent, 2), lot.interest) for lot in spare_lots(late, 0, chain)]
    [(5, 100, 2.69, 10), (12, 75, 2.81, 8), (26, 130, 1.95, 13), (34, 160, 2.31, 16)]
    """

    square: int
    value: int
    rent: float
    interest: int


@dataclass(frozen=True)
class FundedPlan:
    """The chosen plan (module docstring). ``levels`` maps each square built on (or
    lifted) to its level after the plan; ``mortgages`` are the spare lots to mortgage
    first. ``value`` and ``hold_value`` are ``V`` of the plan and of holding, in dollars.

    Attributes
    ----------
    player : int
        The seat.
    levels : dict of int to int
        Square -> level after the plan (empty: hold).
    options : tuple of Option
        The frontier's options it builds.
    build_cost : int
        What the buildings (and lifts) cost.
    mortgages : tuple of int
        Spare lots mortgaged first.
    raised : int
        Cash the mortgages raise.
    cash_after : int
        The player's cash after the plan.
    rent_gain, rent_lost : float
        Rent per round gained by the buildings and lost on the mortgaged lots.
    interest : int
        Interest to lift the mortgages later.
    ruin_before, ruin_after : float
        Ruin within ``turns`` turns, holding and after the plan.
    ruin_cost : float
        The expected loss from ruin after the plan.
    value, hold_value : float
        ``V`` of the plan and of holding.
    horizon, turns : int
        Rounds of rent weighed; the ruin horizon.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> late = load_state("instances/late-game-house-shortage.json")
    >>> chain = chain_for(late.board, late.rules)
    >>> plan = funded_plan(late, 0, chain)  # Ann's orange hotels, Atlantic Avenue mortgaged
    >>> plan.levels, plan.build_cost, plan.to_dict(late)["mortgage"], plan.cash_after
    ({16: 5, 18: 5, 19: 5}, 300, ['Atlantic Avenue'], 60)
    >>> round(plan.ruin_before, 4), round(plan.ruin_after, 4), plan.value > plan.hold_value
    (0.3039, 0.3305, True)
    """

    player: int
    levels: dict[int, int]
    options: tuple[Option, ...]
    build_cost: int
    mortgages: tuple[int, ...]
    raised: int
    cash_after: int
    rent_gain: float
    rent_lost: float
    interest: int
    ruin_before: float
    ruin_after: float
    ruin_cost: float
    value: float
    hold_value: float
    horizon: int
    turns: int

    @property
    def empty(self) -> bool:
        """Whether the plan is to hold (nothing built)."""
        return not self.levels

    def to_dict(self, state: GameState) -> dict[str, Any]:
        """The plan as ``solve --json`` writes it (``funding``): lots by name, figures rounded.

        Parameters
        ----------
        state : GameState
            The state it is for (to name the lots).

        Returns
        -------
        dict
            ``levels``, ``build_cost``, ``mortgage``, ``raised``, ``cash_after``,
            ``rent_gain_per_round``, ``rent_lost_per_round``, ``interest``, ``ruin_before``,
            ``ruin_after``, ``ruin_cost``, ``value``, ``hold_value``, ``horizon``, ``turns``.
        """
        name = state.board.squares
        return {
            "levels": {name[sq].name: lv for sq, lv in sorted(self.levels.items())},
            "build_cost": self.build_cost,
            "mortgage": [name[sq].name for sq in self.mortgages],
            "raised": self.raised,
            "cash_after": self.cash_after,
            "rent_gain_per_round": round(self.rent_gain, 2),
            "rent_lost_per_round": round(self.rent_lost, 2),
            "interest": self.interest,
            "ruin_before": round(self.ruin_before, 4),
            "ruin_after": round(self.ruin_after, 4),
            "ruin_cost": round(self.ruin_cost, 2),
            "value": round(self.value, 2),
            "hold_value": round(self.hold_value, 2),
            "horizon": self.horizon,
            "turns": self.turns,
        }


def spare_lots(state: GameState, player: int, chain: PositionChain) -> list[SpareLot]:
    """The player's unmortgaged, unbuilt lots outside its complete sets (module docstring).

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.
    chain : PositionChain
        The state's position chain.

    Returns
    -------
    list of SpareLot
        In board order.

    Examples
    --------
    Ann's railroad, utility, Atlantic and Pennsylvania Avenues (her orange set is built):

    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> late = load_state("instances/late-game-house-shortage.json")
    >>> [lot.square for lot in spare_lots(late, 0, chain_for(late.board, late.rules))]
    [5, 12, 26, 34]
    """
    complete = set(state.complete_groups(player))
    n_opp = len(state.active_players()) - 1
    ept = state_ept(chain, state)
    out = []
    for sq in state.board.property_squares:
        if state.owner[sq] != player or state.mortgaged[sq] or state.houses[sq]:
            continue
        if state.board.squares[sq].group in complete:
            continue
        value = state.mortgage_value(sq)
        if value <= 0:
            continue
        interest = state.rules.unmortgage_cost(value) - value
        out.append(SpareLot(sq, value, float(ept[sq]) * n_opp, interest))
    return out


def cheapest_funding(lots: list[SpareLot], horizon: int) -> tuple[np.ndarray, list[tuple[int, ...]], int]:
    """For every amount ``k * unit`` the least cost ``horizon * rent + interest`` of a subset of
    ``lots`` raising at least it, and that subset (0/1 knapsack by dynamic programming).

    Parameters
    ----------
    lots : list of SpareLot
        The lots that may be mortgaged.
    horizon : int
        Rounds of rent each lot's mortgage costs.

    Returns
    -------
    tuple of (numpy.ndarray, list of tuple of int, int)
        ``(cost, subsets, unit)``: ``cost[k]`` (``inf`` when even every lot does not raise
        ``k * unit``), ``subsets[k]`` the squares, ``unit`` the gcd of the lots' values.

    Examples
    --------
    Two $30 lots costing 13 and 23 over 10 rounds, a $100 lot costing 60: up to $30 the
    first alone (13), up to $60 both small ones (36), up to $100 the big one (60), by hand:

    >>> lots = [SpareLot(1, 30, 1.0, 3), SpareLot(3, 30, 2.0, 3), SpareLot(5, 100, 5.0, 10)]
    >>> cost, subsets, unit = cheapest_funding(lots, 10)
    >>> unit, cost[[3, 6, 10, 13, 16]].tolist(), subsets[6]
    (10, [13.0, 36.0, 60.0, 73.0, 96.0], (1, 3))
    """
    unit = 0
    for lot in lots:
        unit = math.gcd(unit, lot.value)
    unit = unit or 1
    total = sum(lot.value for lot in lots) // unit
    cost = np.full(total + 1, np.inf)
    cost[0] = 0.0
    take: list[tuple[int, ...]] = [()] * (total + 1)
    for lot in lots:
        w = lot.value // unit
        c = horizon * lot.rent + lot.interest
        for k in range(total, w - 1, -1):  # exact amounts, each lot at most once
            if cost[k - w] + c < cost[k] - 1e-9:
                cost[k] = cost[k - w] + c
                take[k] = take[k - w] + (lot.square,)
    # "at least k": the cheapest exact amount >= k
    for k in range(total - 1, -1, -1):
        if cost[k + 1] < cost[k] - 1e-9:
            cost[k] = cost[k + 1]
            take[k] = take[k + 1]
    return cost, take, unit


class RuinCurve:
    """``P_ruin(w)``: ruin within ``turns`` turns from liquidation wealth ``w``, the holdings as
    in ``state`` (:func:`engine.chains.state_risk.ruin_within_by_wealth`), read at the grid point at or
    below ``w`` (conservative); wealth below the grid is ruin 1.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.
    chain : PositionChain
        The state's position chain.
    turns : int, default 20
        The ruin horizon.
    bucket : int, default 50
        The wealth grid's step.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> late = load_state("instances/late-game-house-shortage.json")
    >>> chain = chain_for(late.board, late.rules)
    >>> curve = RuinCurve(late, 0, chain)
    >>> round(curve(late.liquidation_value(0)), 4), curve(-10)
    (0.3039, 1.0)
    """

    def __init__(self, state: GameState, player: int, chain: PositionChain, turns: int = 20, bucket: int = 50) -> None:
        w_now = state.liquidation_value(player)
        self.wealth, self.ruin = ruin_within_by_wealth(
            state, player, turns, bucket, cap=max(2000, w_now + 1000), chain=chain
        )

    def __call__(self, w: float) -> float:
        i = int(np.searchsorted(self.wealth, w + 1e-9, side="right")) - 1
        if i < 0:
            return 1.0
        return float(self.ruin[i])


def _after(state: GameState, player: int, options: list[Option], mortgages: tuple[int, ...]) -> GameState:
    after = state.copy()
    spent = 0
    for opt in options:
        spent += opt.cost
        for sq, lv in opt.levels.items():
            after.mortgaged[sq] = False
            after.houses[sq] = lv
    raised = 0
    for sq in mortgages:
        after.mortgaged[sq] = True
        raised += state.mortgage_value(sq)
    after.players[player].cash += raised - spent
    return after


def plan_budget(state: GameState, player: int, chain: PositionChain, mortgage: bool = True) -> int:
    """The largest building cost :func:`funded_plan` can fund: the player's cash (none when it
    is negative) plus, with ``mortgage``, every spare lot's mortgage value. The plan reads the
    frontier only up to it, so a frontier built to this budget (``build_frontier(...,
    budget=)``) gives the same plan as the full one, at a fraction of the work when lifting
    costs make the frontier's unit $1 (budgets x houses x hotels cells).

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.
    chain : PositionChain
        The state's position chain.
    mortgage : bool, default True
        Count the spare lots' mortgage values.

    Returns
    -------
    int
        Dollars.

    Examples
    --------
    Ann's $230 and her four spare lots' $465:

    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> late = load_state("instances/late-game-house-shortage.json")
    >>> chain = chain_for(late.board, late.rules)
    >>> plan_budget(late, 0, chain), plan_budget(late, 0, chain, mortgage=False)
    (695, 230)
    """
    return _fundable(state.players[player].cash, spare_lots(state, player, chain) if mortgage else [])


def _fundable(cash: int, lots: list[SpareLot]) -> int:
    """:func:`plan_budget` from the cash and the spare lots that may be mortgaged."""
    return max(cash, 0) + sum(lot.value for lot in lots)


def funded_plan(
    state: GameState,
    player: int,
    chain: PositionChain,
    *,
    horizon: int = 20,
    turns: int = 20,
    mortgage: bool = True,
    curve: RuinCurve | None = None,
    frontier: Frontier | None = None,
) -> FundedPlan:
    """The plan ``argmax V(b, M)`` of the module docstring (holding when nothing beats it).

    ``mortgage=False`` allows no mortgages (cash only). ``curve`` and ``frontier`` may be
    passed when already computed for this state and player; a frontier built to a budget
    (:func:`plan_budget` or more) gives the same plan as the full one.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.
    chain : PositionChain
        The state's position chain.
    horizon : int, default 20
        Rounds of rent weighed against the cost of ruin.
    turns : int, default 20
        The ruin horizon.
    mortgage : bool, default True
        Allow mortgaging spare lots.
    curve : RuinCurve or None
        The ruin curve of this state and player, when computed.
    frontier : Frontier or None
        The build frontier, when computed.

    Returns
    -------
    FundedPlan
        The plan, or an empty one (hold) when nothing beats holding.

    Raises
    ------
    BankruptPlayerError
        If the player is bankrupt.
    InvalidArgumentError
        If the horizon or turns are out of range, or ``frontier`` was built to less than the
        plan can fund.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> late = load_state("instances/late-game-house-shortage.json")
    >>> chain = chain_for(late.board, late.rules)
    >>> funded_plan(late, 0, chain).mortgages, funded_plan(late, 0, chain, mortgage=False).mortgages
    ((26,), ())
    >>> funded_plan(late, 0, chain, turns=0)
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: horizon must be >= 0 and turns >= 1
    """
    if state.players[player].bankrupt:
        raise BankruptPlayerError(f"player {state.players[player].name} is bankrupt")
    if horizon < 0 or turns < 1:
        raise InvalidArgumentError("horizon must be >= 0 and turns >= 1")
    cash = state.players[player].cash
    w_now = state.liquidation_value(player)
    fr = frontier if frontier is not None else build_frontier(state, player, chain)
    curve = curve if curve is not None else RuinCurve(state, player, chain, turns)
    lots = spare_lots(state, player, chain) if mortgage else []
    fund_cost, fund_take, fund_unit = cheapest_funding(lots, horizon)
    top = _fundable(cash, lots)  # :func:`plan_budget`: no plan costs more
    if not fr.covers(top):
        raise InvalidArgumentError(f"the frontier was built to ${int(fr.budgets[-1])}; this plan can fund ${top}")
    income_now = float(state_ept(chain, state)[[sq for sq in state.board.property_squares if state.owner[sq] == player]].sum())
    income_now *= len(state.active_players()) - 1
    loss_base = state.net_worth(player) + horizon * income_now
    ruin_now = curve(w_now)
    hold = -loss_base * ruin_now
    best: tuple[float, list[Option], tuple[int, ...], int] | None = None
    seen: set[int] = set()
    for i in range(1, min(len(fr.gains), top // fr.unit + 1)):
        options = fr.plan(i * fr.unit)
        cost = sum(o.cost for o in options)
        if not options or cost in seen:
            continue
        seen.add(cost)
        need = max(0, cost - max(cash, 0))
        k = -(-need // fund_unit)
        if k >= len(fund_cost) or not np.isfinite(fund_cost[k]):
            continue
        gain = sum(o.gain for o in options)
        take = fund_take[k]
        # W' = W - half the buildings' price - the interest of lifted in-set mortgages
        after = _after(state, player, options, take)
        w_after = after.liquidation_value(player)
        loss = loss_base + horizon * gain
        value = horizon * gain - float(fund_cost[k]) - loss * curve(w_after)
        if best is None or value > best[0] + 1e-9:
            best = (value, options, take, w_after)
    if best is None or best[0] <= hold + 1e-9:
        return FundedPlan(player, {}, (), 0, (), 0, cash, 0.0, 0.0, 0, ruin_now, ruin_now, loss_base * ruin_now, hold, hold, horizon, turns)
    value, options, take, w_after = best
    levels: dict[int, int] = {}
    for o in options:
        levels.update(o.levels)
    by_sq = {lot.square: lot for lot in lots}
    raised = sum(by_sq[sq].value for sq in take)
    cost = sum(o.cost for o in options)
    gain = sum(o.gain for o in options)
    ruin_after = curve(w_after)
    return FundedPlan(
        player,
        levels,
        tuple(options),
        cost,
        tuple(sorted(take)),
        raised,
        cash + raised - cost,
        gain,
        sum(by_sq[sq].rent for sq in take),
        sum(by_sq[sq].interest for sq in take),
        ruin_now,
        ruin_after,
        (loss_base + horizon * gain) * ruin_after,
        value,
        hold,
        horizon,
        turns,
    )


__all__ = ["FundedPlan", "RuinCurve", "SpareLot", "cheapest_funding", "funded_plan", "plan_budget", "spare_lots"]
