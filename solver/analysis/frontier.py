"""The build frontier: the best rent reachable for each amount of cash spent on building.

Values are expected rent per round, i.e. the long-run EPT of the exact chain
(:func:`engine.chains.ept.street_ept`, dollars per opponent turn) times the number of
active opponents.

Each complete set of the player is a *class* of a multiple-choice knapsack
(Sinha & Zoltners, "The multiple-choice knapsack problem", Operations
Research 27(3), 1979): its options are the even-building configurations it
can reach from where it stands, indexed by the total number of building
levels ``h`` on the player's lots of the group, from the current total up to
five per lot. For a given ``h`` the levels are ``floor(h/k)`` or
``ceil(h/k)``, never below a lot's current level, and the lots that get the
extra level are the ones that add the most rent. An option costs
``(h - current) * house_cost``, plus, if any of the player's lots of the
group is mortgaged, lifting every such mortgage (value + interest) first;
lifting also restores rent at the current level (the option "lift only").
It uses houses and hotels from the bank: the houses at its peak (a hotel
needs four houses on every lot of the group first, so an option with a hotel
uses ``4k - current houses``; the houses a hotel then returns are not
counted as available to other groups, a conservative choice) and its new
hotels.

The exact frontier is a dynamic programme over the classes, with cash in
units of the greatest common divisor of all option costs, and the bank's
houses and hotels as extra dimensions when (and only when) they can bind::

    best_g(c, h, t) = max( best_{g-1}(c, h, t),
                           max_o best_{g-1}(c - cost_o, h - houses_o, t - hotels_o) + gain_o )

``frontier.gains[c]`` is then the best rent gain for a budget of ``c`` units.
The greedy ranking (the seed's fast answer) orders single next buildings by
rent gain per dollar.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from engine.chains.ept import street_ept
from engine.chains.markov import PositionChain, chain_for
from engine.rules.legal import why_not_build
from models.board import HOTEL
from models.state import GameState


@dataclass(frozen=True)
class Option:
    group: str
    levels: dict[int, int]  # square -> level after the option
    cost: int
    houses: int  # bank houses needed at the peak
    hotels: int  # new hotels
    gain: float  # rent per round gained over the group's present rent
    lift: bool


@dataclass(frozen=True)
class Frontier:
    """The exact frontier of one player (see the module docstring).

    ``budgets[i] = i * unit`` dollars; ``gains[i]`` the best rent-per-round gain
    within that budget; ``current`` the player's present rent per round from its
    complete sets.
    """

    player: int
    unit: int
    budgets: np.ndarray
    gains: np.ndarray
    current: float
    options: dict[str, list[Option]]
    _choice: list[np.ndarray]
    _groups: list[str]
    _dims: tuple[int, int]  # houses, hotels dimension sizes (1 when not binding)
    truncated: bool = False  # built to a ``budget`` below full development: no cell past ``budgets[-1]``

    @property
    def ceiling(self) -> float:
        """Rent per round with every set developed as far as cash allows without limit (supply binding)."""
        return self.current + float(self.gains[-1])

    @property
    def nbytes(self) -> int:
        """The memory its arrays hold: the DP's choice grids are budgets x houses x hotels per
        group, tens of megabytes when lifting costs make the unit $1 and the bank is short."""
        return int(self.budgets.nbytes + self.gains.nbytes + sum(c.nbytes for c in self._choice))

    def covers(self, budget: float) -> bool:
        """Whether every budget up to ``budget`` dollars has its cell (a full frontier covers all)."""
        return not self.truncated or self.budgets[-1] + self.unit > budget

    def gain_at(self, cash: float) -> float:
        i = int(min(max(cash, 0) // self.unit, len(self.gains) - 1))
        return float(self.gains[i])

    def slope_at(self, cash: float, window: float = 100.0) -> float:
        """Rent gained per extra dollar around ``cash`` (finite difference over ``window``)."""
        return (self.gain_at(cash + window) - self.gain_at(cash)) / window

    def plan(self, cash: float) -> list[Option]:
        """The options chosen for a budget of ``cash`` dollars (backtracking the DP)."""
        c = int(min(max(cash, 0) // self.unit, len(self.gains) - 1))
        h, t = self._dims[0] - 1, self._dims[1] - 1
        chosen: list[Option] = []
        for g in range(len(self._groups) - 1, -1, -1):
            k = int(self._choice[g][c, h, t])
            if k >= 0:
                opt = self.options[self._groups[g]][k]
                chosen.append(opt)
                c -= opt.cost // self.unit
                if self._dims[0] > 1:
                    h -= opt.houses
                if self._dims[1] > 1:
                    t -= opt.hotels
        return chosen[::-1]


def rent_per_round(state: GameState, chain: PositionChain, player: int, square: int, level: int) -> float:
    """Long-run rent per round of ``square`` at ``level`` for ``player`` (all opponents)."""
    sq = state.board.squares[square]
    assert sq.group is not None
    rent = sq.rents[level] if level else sq.rents[0] * (2 if state.has_monopoly(player, sq.group) else 1)
    n_opp = len(state.active_players()) - 1
    return float(street_ept(chain, square, rent)) * n_opp


def group_options(state: GameState, chain: PositionChain, player: int, group: str) -> list[Option]:
    """Every even-building option of a complete set (module docstring)."""
    lots = [sq for sq in state.board.groups[group] if state.owner[sq] == player]
    k = len(lots)
    cur = {sq: state.houses[sq] for sq in lots}
    mortgaged = [sq for sq in lots if state.mortgaged[sq]]
    lift_cost = sum(state.rules.unmortgage_cost(state.mortgage_value(sq)) for sq in mortgaged)
    house_cost = state.board.squares[lots[0]].house_cost
    rent = {(sq, lv): rent_per_round(state, chain, player, sq, lv) for sq in lots for lv in range(HOTEL + 1)}
    present = sum(rent[sq, cur[sq]] for sq in lots if sq not in mortgaged)
    cur_houses = sum(v for v in cur.values() if v < HOTEL)
    cur_hotels = sum(1 for v in cur.values() if v == HOTEL)
    out: list[Option] = []
    if mortgaged:
        gain = sum(rent[sq, cur[sq]] for sq in mortgaged)
        out.append(Option(group, dict(cur), lift_cost, 0, 0, gain, True))
    total_now = sum(cur.values())
    for h in range(total_now + 1, HOTEL * k + 1):
        base, extra = divmod(h, k)
        best: dict[int, int] | None = None
        best_value = -1.0
        for ups in itertools.combinations(lots, extra):
            levels = {sq: base + (1 if sq in ups else 0) for sq in lots}
            if any(levels[sq] < cur[sq] for sq in lots):
                continue
            value = sum(rent[sq, levels[sq]] for sq in lots)
            if value > best_value:
                best, best_value = levels, value
        if best is None:
            continue
        houses_final = sum(v for v in best.values() if v < HOTEL)
        hotels = sum(1 for v in best.values() if v == HOTEL) - cur_hotels
        peak = 4 * k if hotels > 0 else houses_final
        out.append(
            Option(
                group,
                best,
                lift_cost + (h - total_now) * house_cost,
                max(0, peak - cur_houses),
                max(0, hotels),
                best_value - present,
                bool(mortgaged),
            )
        )
    return out


def build_frontier(state: GameState, player: int, chain: PositionChain | None = None, budget: float | None = None) -> Frontier:
    """The exact frontier of ``player`` up to ``budget`` dollars (default: full development).

    A cell reads only cells of smaller budgets, so the frontier built to a budget is the
    full one cut there, gains and plans alike (``truncated`` says it was cut)."""
    chain = chain or chain_for(state.board, state.rules, "long")
    groups = [g for g in state.complete_groups(player)]
    options = {g: group_options(state, chain, player, g) for g in groups}
    current = 0.0
    for g in groups:
        for sq in state.board.groups[g]:
            if state.owner[sq] == player and not state.mortgaged[sq]:
                current += rent_per_round(state, chain, player, sq, state.houses[sq])
    all_opts = [o for g in groups for o in options[g]]
    unit = 0
    for o in all_opts:
        unit = math.gcd(unit, o.cost)
    unit = unit or 50
    full = sum(max((o.cost for o in options[g]), default=0) for g in groups)
    top = full if budget is None else min(full, int(budget))
    n_c = top // unit + 1
    bank_h, bank_t = state.houses_in_bank(), state.hotels_in_bank()
    need_h = sum(max((o.houses for o in options[g]), default=0) for g in groups)
    need_t = sum(max((o.hotels for o in options[g]), default=0) for g in groups)
    dim_h = bank_h + 1 if need_h > bank_h else 1
    dim_t = bank_t + 1 if need_t > bank_t else 1
    best = np.zeros((n_c, dim_h, dim_t))
    choices: list[np.ndarray] = []
    for g in groups:
        new = best.copy()
        choice = np.full(best.shape, -1, dtype=np.int16)
        for idx, o in enumerate(options[g]):
            c = o.cost // unit
            h = o.houses if dim_h > 1 else 0
            t = o.hotels if dim_t > 1 else 0
            if c >= n_c or h >= dim_h or t >= dim_t:
                continue
            cand = best[: n_c - c, : dim_h - h, : dim_t - t] + o.gain
            target = new[c:, h:, t:]
            better = cand > target + 1e-12
            target[better] = cand[better]
            choice[c:, h:, t:][better] = idx
        best = new
        choices.append(choice)
    gains = best[:, -1, -1] if groups else np.zeros(n_c)
    return Frontier(player, unit, np.arange(n_c) * unit, gains, current, options, choices, groups, (dim_h, dim_t), top < full)


def greedy_ranking(state: GameState, player: int, chain: PositionChain | None = None) -> list[tuple[int, int, float, float]]:
    """The seed's fast answer: each legal next building ``(square, cost, rent gain per round,
    gain per dollar)``, best per dollar first (mortgaged groups count their lifting cost)."""
    chain = chain or chain_for(state.board, state.rules, "long")
    out = []
    for g in state.complete_groups(player):
        lots = [sq for sq in state.board.groups[g] if state.owner[sq] == player]
        probe = state.copy()
        lift = 0
        for sq in lots:
            if probe.mortgaged[sq]:
                lift += state.rules.unmortgage_cost(state.mortgage_value(sq))
                probe.mortgaged[sq] = False
        probe.players[player].cash = 10**9  # rank regardless of cash
        for sq in lots:
            if why_not_build(probe, player, sq) is None:
                level = probe.houses[sq]
                gain = rent_per_round(probe, chain, player, sq, level + 1) - rent_per_round(probe, chain, player, sq, level)
                cost = state.board.squares[sq].house_cost + lift
                out.append((sq, cost, gain, gain / cost))
    return sorted(out, key=lambda r: (-r[3], r[0]))
