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
    """One even-building configuration of a complete set (module docstring).

    Attributes
    ----------
    group : str
        The set.
    levels : dict of int to int
        Square -> level after the option.
    cost : int
        Its cost, lifting the set's mortgages included.
    houses : int
        Bank houses needed at its peak.
    hotels : int
        New hotels.
    gain : float
        Rent per round gained over the set's present rent.
    lift : bool
        Whether it lifts mortgages first.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> state = load_state("instances/two-player.json")  # Ann: brown bare, orange at 3 houses, $560
    >>> chain = chain_for(state.board, state.rules)
    >>> first = group_options(state, chain, 0, "brown")[0]
    >>> first.levels, first.cost, round(first.gain, 2)
    ({1: 0, 3: 1}, 50, 0.29)
    """

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

    Attributes
    ----------
    player : int
        The seat.
    unit : int
        The budget step: the greatest common divisor of the option costs.
    budgets, gains : numpy.ndarray
        Each budget and its best rent gain per round.
    current : float
        The present rent per round of the complete sets.
    options : dict of str to list of Option
        Every set's options.
    truncated : bool
        Built to a budget below full development.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> state = load_state("instances/two-player.json")  # Ann: brown bare, orange at 3 houses, $560
    >>> chain = chain_for(state.board, state.rules)
    >>> fr = build_frontier(state, 0, chain)
    >>> fr.unit, round(fr.current, 2), round(fr.ceiling, 2), round(fr.gain_at(300), 2)
    (50, 55.21, 110.24, 19.38)
    >>> [(o.group, o.levels, o.cost) for o in fr.plan(300)]  # orange's fourth houses
    [('orange', {16: 4, 18: 4, 19: 4}, 300)]
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
        """Rent per round at the frontier's largest budget: every set fully developed (within the
        bank's supply), or, for a frontier built to a ``budget`` (``truncated``), the best at that budget."""
        return self.current + float(self.gains[-1])

    @property
    def nbytes(self) -> int:
        """The memory its arrays hold: the DP's choice grids are budgets x houses x hotels per
        group, tens of megabytes when lifting costs make the unit $1 and the bank is short."""
        return int(self.budgets.nbytes + self.gains.nbytes + sum(c.nbytes for c in self._choice))

    def covers(self, budget: float) -> bool:
        """Whether every budget up to ``budget`` dollars has its cell (a full frontier covers all).

        Parameters
        ----------
        budget : float
            Dollars.

        Returns
        -------
        bool
            Whether :meth:`gain_at` and :meth:`plan` are exact up to it.
        """
        return bool(not self.truncated or self.budgets[-1] + self.unit > budget)

    def gain_at(self, cash: float) -> float:
        """The best rent gain per round for a budget of ``cash`` dollars (the last cell beyond it).

        Parameters
        ----------
        cash : float
            Dollars.

        Returns
        -------
        float
            Rent per round gained.
        """
        i = int(min(max(cash, 0) // self.unit, len(self.gains) - 1))
        return float(self.gains[i])

    def slope_at(self, cash: float, window: float = 100.0) -> float:
        """Rent gained per extra dollar around ``cash`` (finite difference over ``window``).

        Parameters
        ----------
        cash : float
            Dollars.
        window : float, default 100.0
            The difference's width.

        Returns
        -------
        float
            Rent per round per dollar.
        """
        return (self.gain_at(cash + window) - self.gain_at(cash)) / window

    def plan(self, cash: float) -> list[Option]:
        """The options chosen for a budget of ``cash`` dollars (backtracking the DP).

        Parameters
        ----------
        cash : float
            Dollars.

        Returns
        -------
        list of Option
            At most one per set, in the sets' order.
        """
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
    """Long-run rent per round of ``square`` at ``level`` for ``player`` (all opponents).

    Parameters
    ----------
    state : GameState
        The position (the monopoly doubling, the opponents).
    chain : PositionChain
        The state's position chain.
    player : int
        The owner's seat.
    square : int
        The street.
    level : int
        Its level (0..5).

    Returns
    -------
    float
        EPT times the number of active opponents.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> state = load_state("instances/two-player.json")  # Ann: brown bare, orange at 3 houses, $560
    >>> chain = chain_for(state.board, state.rules)
    >>> round(rent_per_round(state, chain, 0, 19, 3), 2), round(rent_per_round(state, chain, 0, 19, 4), 2)
    (19.67, 26.22)
    """
    sq = state.board.squares[square]
    assert sq.group is not None
    rent = sq.rents[level] if level else sq.rents[0] * (2 if state.has_monopoly(player, sq.group) else 1)
    n_opp = len(state.active_players()) - 1
    return float(street_ept(chain, square, rent)) * n_opp


def group_options(state: GameState, chain: PositionChain, player: int, group: str) -> list[Option]:
    """Every even-building option of a complete set (module docstring).

    Parameters
    ----------
    state : GameState
        The position.
    chain : PositionChain
        The state's position chain.
    player : int
        The owner's seat.
    group : str
        A complete set of ``player``.

    Returns
    -------
    list of Option
        "Lift only" first when the set has a mortgage, then one per total level.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> state = load_state("instances/two-player.json")  # Ann: brown bare, orange at 3 houses, $560
    >>> chain = chain_for(state.board, state.rules)
    >>> [(o.levels, o.cost) for o in group_options(state, chain, 0, "brown")[:2]]
    [({1: 0, 3: 1}, 50), ({1: 1, 3: 1}, 100)]
    """
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
    full one cut there, gains and plans alike (``truncated`` says it was cut).

    Parameters
    ----------
    state : GameState
        The position (buildings, mortgages, the bank's houses and hotels).
    player : int
        The seat.
    chain : PositionChain or None
        The state's position chain; ``None``: the shared one.
    budget : float or None
        The largest budget computed; ``None``: full development.

    Returns
    -------
    Frontier
        Gains by budget, and the plans.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> state = load_state("instances/two-player.json")  # Ann: brown bare, orange at 3 houses, $560
    >>> chain = chain_for(state.board, state.rules)
    >>> full, cut = build_frontier(state, 0, chain), build_frontier(state, 0, chain, budget=200)
    >>> len(full.budgets), cut.truncated, cut.covers(500), cut.gain_at(200) == full.gain_at(200)
    (23, True, False, True)
    """
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
    gain per dollar)``, best per dollar first (mortgaged groups count their lifting cost).

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.
    chain : PositionChain or None
        The state's position chain; ``None``: the shared one.

    Returns
    -------
    list of tuple of (int, int, float, float)
        Every legal next building, whatever the player's cash.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> state = load_state("instances/two-player.json")  # Ann: brown bare, orange at 3 houses, $560
    >>> chain = chain_for(state.board, state.rules)
    >>> [(sq, cost, round(gain, 2)) for sq, cost, gain, _ in greedy_ranking(state, 0, chain)[:3]]
    [(18, 100, 6.57), (19, 100, 6.56), (16, 100, 6.25)]
    """
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
