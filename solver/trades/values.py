"""The values of a trade's after-state that the rules judge: the true value and its linear estimate.

Values
    ``value_i = f_i(holdings) + cash_i``: the one scalar of the position
    analysis, :func:`solver.analysis.position.frontier_value` (expected rent over
    ``horizon`` rounds of the best affordable development), plus cash at face
    value (without it no sale for cash could please a seller); this is
    :class:`FrontierValues`. Receiving a mortgaged lot costs its interest at
    once (the receiver keeps the mortgage; :func:`solver.trades.space.after_state`).
    :class:`LinearValues` is the linear estimate of it that the CP-SAT model
    can write: per player and group, a value for each count of lots held (see
    there). The generator's default value is not this one but the fitted
    prediction of each participant's change in win probability
    (:mod:`solver.trades.value_model`, ``TradeSettings.value``); both are
    :class:`GainTerms` per player.
Floors
    Every value carries the floors that rules 2 and 3
    (:func:`solver.trades.rules.evaluate`, and the CP-SAT model) read in the
    value's own units: ``proposer_min`` (the proposer's least gain) and
    ``min_gain`` (each counterparty's; 0 means "strictly more than before").
    The dollar values take ``min_gain`` from their settings
    (``TradeSettings.min_gain``) and have ``proposer_min`` 0; the fitted value
    takes ``min_own_win_gain`` and ``min_win_gain``. :class:`ValueFn` names
    what the rules use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from engine.chains.ept import railroad_ept, street_ept, utility_ept
from engine.chains.markov import PositionChain, chain_for
from models.state import GameState
from solver.analysis.frontier import Frontier, build_frontier, group_options
from solver.analysis.position import frontier_value
from solver.trades.space import TradeSettings, TradeSpace


class ValueFn(Protocol):
    """A value of after-states as rules 1-4 read it: ``values(state, player)`` and the floors.

    :class:`FrontierValues`, :class:`LinearValues` and
    :class:`solver.trades.value_model.FittedValues` are values.
    """

    @property
    def min_gain(self) -> int:
        """Rule 3: the least gain of each counterparty (0: any strict gain)."""
        ...

    @property
    def proposer_min(self) -> int:
        """Rule 2: the least gain of the proposer."""
        ...

    def __call__(self, state: GameState, player: int, /) -> float:
        """``player``'s value in ``state``."""
        ...


@runtime_checkable
class GroupwiseValueFn(ValueFn, Protocol):
    """A value that is a sum of per-group terms and cash terms (:class:`LinearValues`,
    :class:`solver.trades.value_model.FittedValues`): ``partial(state, player, groups)``
    counts the terms of ``groups`` only, so a trade's gain is read on the groups it
    touches (:func:`solver.trades.rules.evaluate`)."""

    def partial(self, state: GameState, player: int, groups: Iterable[str] | None, /) -> float:
        """``player``'s value counting the terms of ``groups`` (``None``: all) and the cash terms."""
        ...


class FrontierValues:
    """``frontier_value + cash``, for the after-states of one state (trades move owners
    and cash only: buildings, mortgages and the bank's supply stay).

    Cached by (player, holdings, cash). The exact frontier, the costly part,
    does not depend on the cash and reads only the player's lots of its
    complete groups, so it is kept per (player, those lots) and shared by every
    amount of the cash grid.

    Parameters
    ----------
    state:
        The state before the trades (only its board and rules are read here).
    settings:
        ``horizon`` and ``value_reserve`` of the value, ``min_gain`` of rule 3.
    chain:
        The long-run position chain (default: built from ``state``).

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> values = FrontierValues(s, TradeSettings())
    >>> round(values(s, 0), 4), values.min_gain, values.proposer_min
    (578.7404, 10, 0)
    """

    proposer_min = 0

    def __init__(self, state: GameState, settings: TradeSettings, chain: PositionChain | None = None) -> None:
        self.chain = chain or chain_for(state.board, state.rules)
        self.settings = settings
        self._cache: dict[tuple[int, tuple[int, ...], int], float] = {}
        self._frontiers: dict[tuple[int, tuple[int, ...]], Frontier] = {}

    @property
    def min_gain(self) -> int:
        """Rule 3's floor in dollars: ``settings.min_gain``."""
        return self.settings.min_gain

    def __call__(self, state: GameState, player: int) -> float:
        holdings = tuple(sq for sq in state.board.property_squares if state.owner[sq] == player)
        key = (player, holdings, state.players[player].cash)
        hit = self._cache.get(key)
        if hit is None:
            complete = set(state.complete_groups(player))
            core = (player, tuple(sq for sq in holdings if state.board.squares[sq].group in complete))
            fr = self._frontiers.get(core)
            if fr is None:
                fr = self._frontiers[core] = build_frontier(state, player, self.chain)
            st = self.settings
            hit = frontier_value(state, player, horizon=st.horizon, reserve=st.value_reserve, chain=self.chain, frontier=fr)
            hit += state.players[player].cash
            self._cache[key] = hit
        return hit


@dataclass(frozen=True)
class GainTerms:
    """Player ``i``'s value as a linear function of the after-state, in the value's units:
    ``sum_(j,g) group[(j, g)][k_jg] + sum_j cash[j] cash_j + sum_j kink[j] min(cash_j, cap[j])``
    ``+ sum_(j,g) near[(j, g)][status_jg] + sum_j set_cash[j] S_j`` (``S_j``: ``min(max(0,
    cash_j - reserve[j]), SET_CASH_CAP)`` when ``j`` holds a complete colour group, else 0;
    ``k_jg``: lots of ``g`` held by ``j``;
    ``status_jg``: :func:`solver.trades.value_model.near_status`, no term when ``j`` is
    not one short of ``g``). What the CP-SAT model writes as constraints."""

    group: dict[tuple[int, str], tuple[int, ...]]
    cash: dict[int, int]
    kink: dict[int, int] = field(default_factory=dict)
    cap: dict[int, int] = field(default_factory=dict)
    near: dict[tuple[int, str], tuple[int, int, int]] = field(default_factory=dict)
    set_cash: dict[int, int] = field(default_factory=dict)
    reserve: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class LinearValues:
    """The linear estimate: ``value_i = sum_g table[i][g][count of g held by i] + cash_i``,
    integers (dollars over the horizon).

    For a colour group with ``c`` lots held: below the set size, ``horizon x
    opponents x c x`` the mean long-run EPT of one unimproved lot of the
    group; at the set size, ``horizon x`` (the group's monopoly rent at level
    0 plus the best development of that group alone affordable with the
    player's present cash above ``value_reserve``, from
    :func:`solver.analysis.frontier.group_options`). Railroads: ``horizon x opponents
    x c x`` the mean EPT of one railroad at the rent for ``c`` held;
    utilities likewise. Groups with buildings cannot be traded and are left
    out. The estimate ignores interactions between groups (one budget shared
    by two new sets, for instance). Built by :func:`linear_values`.

    Parameters
    ----------
    table:
        ``table[i][group][count]``: ``i``'s dollars for holding ``count`` lots of ``group``.
    min_gain:
        Rule 3's floor in dollars.
    unit, scale:
        What a gain counts (``"dollars"``) and the dollars per unit (1).
    proposer_min:
        Rule 2's floor in dollars: the proposer must not lose (0).
    """

    table: dict[int, dict[str, tuple[int, ...]]]
    min_gain: int = 10
    unit: str = "dollars"
    scale: float = 1.0
    proposer_min: int = 0

    def terms(self, i: int) -> GainTerms:
        """``i``'s value as :class:`GainTerms`: its own group counts and its cash."""
        return GainTerms({(i, g): t for g, t in self.table[i].items()}, {i: 1})

    def counts(self, state: GameState, player: int) -> dict[str, int]:
        """The lots of each group of the table that ``player`` holds in ``state``."""
        return {g: sum(1 for sq in state.board.groups[g] if state.owner[sq] == player) for g in self.table[player]}

    def __call__(self, state: GameState, player: int) -> float:
        return self.partial(state, player, None)

    def partial(self, state: GameState, player: int, groups: Iterable[str] | None) -> float:
        """``player``'s value counting the groups of ``groups`` only (``None``: every group) and the cash."""
        t = self.table[player]
        owner, board_groups = state.owner, state.board.groups
        total = state.players[player].cash
        for g in t if groups is None else groups:
            row = t.get(g)
            if row is not None:
                total += row[sum(1 for sq in board_groups[g] if owner[sq] == player)]
        return float(total)


def linear_values(space: TradeSpace, chain: PositionChain | None = None) -> LinearValues:
    """The linear estimate (:class:`LinearValues`) for the participants of ``space``.

    Parameters
    ----------
    space:
        The trade space: its state, participants and settings (``horizon``,
        ``value_reserve``, ``min_gain``).
    chain:
        The long-run position chain (default: built from the state).

    Returns
    -------
    LinearValues

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> values = linear_values(TradeSpace(s, 0))
    >>> values.table[0]["orange"], values(s, 0)
    ((0, 28, 57, 348), 583.0)
    """
    s = space.state
    st = space.settings
    chain = chain or chain_for(s.board, s.rules)
    n_opp = len(s.active_players()) - 1
    table: dict[int, dict[str, tuple[int, ...]]] = {}
    for i in space.participants:
        spare = max(0, s.players[i].cash - st.value_reserve)
        per: dict[str, tuple[int, ...]] = {}
        for g, lots in s.board.groups.items():
            if s.group_has_buildings(g):
                continue
            n = len(lots)
            if g == "railroad":
                vals = [0.0] + [
                    c * sum(float(railroad_ept(chain, sq, s.board.railroad_rents[c - 1])) for sq in lots) / n * n_opp
                    for c in range(1, n + 1)
                ]
            elif g == "utility":
                vals = [0.0] + [
                    c * sum(float(utility_ept(chain, sq, s.board.utility_multipliers[c - 1])) for sq in lots) / n * n_opp
                    for c in range(1, n + 1)
                ]
            else:
                need = s.set_size(g)
                lot = sum(float(street_ept(chain, sq, s.board.squares[sq].rents[0])) for sq in lots) / n * n_opp
                full = _completed_value(s, chain, i, g, spare)
                vals = [c * lot if c < need else full for c in range(n + 1)]
            per[g] = tuple(round(st.horizon * v) for v in vals)
        table[i] = per
    return LinearValues(table, st.min_gain)


def _completed_value(state: GameState, chain: PositionChain, player: int, group: str, spare: int) -> float:
    """Rent per round of ``group`` complete in ``player``'s hand: level-0 monopoly rent
    plus the best development of the group alone within ``spare``."""
    base, options = _group_development(chain, len(state.active_players()), group)
    return base + max((gain for cost, gain in options if cost <= spare), default=0.0)


@lru_cache(maxsize=512)
def _group_development(chain: PositionChain, n_active: int, group: str) -> tuple[float, tuple[tuple[int, float], ...]]:
    """(level-0 monopoly rent per round, (cost, rent gain) of every development option) of
    ``group`` held complete and unbuilt by one of ``n_active`` players (the same for
    every player, so computed once per chain (board and rules) and player count; the
    chain is hashed by identity)."""
    board = chain.board
    s = GameState.new_game([f"p{k}" for k in range(n_active)], board, chain.rules)
    for sq in board.groups[group]:
        s.owner[sq] = 0
    base = sum(float(street_ept(chain, sq, 2 * board.squares[sq].rents[0])) for sq in board.groups[group]) * (n_active - 1)
    return base, tuple((o.cost, o.gain) for o in group_options(s, chain, 0, group) if not o.lift)


__all__ = ["FrontierValues", "GainTerms", "LinearValues", "ValueFn", "linear_values"]
