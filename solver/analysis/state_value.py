"""The state value of seed 002 and its two bankruptcy-avoidance conditions.

``V(s) = M_assets + R_s + R_l + M_monopoly`` for the agent ``g1``, term by
term as the seed writes them, with ``k = 5``. Where the seed is ambiguous,
this module reads it as follows:

``M_assets``
    the printed price of every property ``g1`` owns that is not mortgaged,
    plus its buildings at cost.
``R_s``
    ``sum_{t=1..k} sum_{g != g1} [ sum_{p in P(g1)} Pr(g, p, t) r(p) -
    sum_{p in P(g)} Pr(g1, p, t) r(p) ]``, with ``Pr(g, p, t)`` the expected
    landings of ``g`` on ``p`` during its ``t``-th turn from where it stands
    (the exact position chain; doubles make it an expectation) and ``r(p)``
    the rent at the state's ownership and buildings (a utility's multiplier
    times the roll; the chance cards' double railroad rent and ten-times
    utility rent included, :func:`engine.chains.ept.state_ept`).
``R_l``
    the same difference over ``k`` full loops of the board with landings
    uniform over the board's squares: one loop takes ``n / E[total]`` rolls
    on average, so each square gets ``k / E[total]`` expected landings (a
    utility's rent uses the mean roll). Only the other active players count.
``M_monopoly``
    ``F = cash + k * go_salary + R_l`` (under ``rules.go_landing_bonus`` plus
    ``k / E[total] * go_salary``: ``R_l``'s uniform landings put ``k / E[total]``
    of them on Go, each paying the salary again); for each colour ``c`` where ``g1`` owns
    a lot, ``R_c`` is the rule-book rent summed over the lots of ``c`` after
    buying the missing lots at their printed price (a relaxation: whoever
    holds them) and building evenly with what is left of ``F``; ``R_c = 0``
    when ``F`` cannot buy the missing lots. Scaled by ``2^(P(c) - P(g1))``
    with ``P(c)`` the lots needed for a monopoly (the group size, or its
    ``set_size``) and ``P(g1)`` the lots of ``c`` that ``g1`` owns; the term is
    the maximum over colours.

Bankruptcy avoidance (a filter on moves of cost ``C``):

1. ``cash + R_next - C >= cash_min`` with ``R_next`` the ``R_s`` of one
   round (``k = 1``) and ``cash_min`` $150 by default;
2. ``cash + R_owed + worth_scaled - C - R_worst > 0`` with ``R_owed`` the
   rent ``g1`` expects to collect in the next round, ``worth_scaled`` the
   cash that mortgaging and selling buildings would raise
   (liquidation value minus cash) and ``R_worst`` the largest single rent
   an opponent's property could charge it now.

Reference: seed 002 (an open-world Monopoly agent, "state evaluation" and
"bankruptcy avoidance").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from engine.chains import dice as dice_math
from engine.chains.ept import player_landing_blocks, state_ept
from engine.chains.markov import PositionChain, chain_for
from models.board import HOTEL
from models.state import BANK, GameState

K = 5


@dataclass(frozen=True)
class StateValue:
    m_assets: float
    r_s: float
    r_l: float
    m_monopoly: float

    @property
    def total(self) -> float:
        return self.m_assets + self.r_s + self.r_l + self.m_monopoly

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "total": self.total}


def m_assets(state: GameState, player: int) -> float:
    total = 0.0
    for sq in state.properties_of(player):
        if not state.mortgaged[sq]:
            s = state.board.squares[sq]
            total += s.price + state.houses[sq] * s.house_cost
    return total


def r_short(state: GameState, player: int, chain: PositionChain, k: int = K) -> tuple[float, float]:
    """(rent ``player`` expects to collect, rent it expects to owe) over its opponents' and
    its own next ``k`` turns; ``R_s`` is the difference."""
    owner = np.array(state.owner)
    collect = owe = 0.0
    mine = owner == player
    me = player_landing_blocks(chain, state, player, k)
    ept_me = state_ept(chain, state, me)  # rent each owner would get from player's landings
    for g in state.active_players():
        if g == player:
            continue
        ept_g = state_ept(chain, state, player_landing_blocks(chain, state, g, k))
        collect += float(ept_g[:, mine].sum())
        owe += float(ept_me[:, owner == g].sum())
    return collect, owe


def _rent_at_mean(state: GameState, sq: int) -> float:
    """Rule-book rent of an owned square at the state's buildings (utilities at the mean roll)."""
    s = state.board.squares[sq]
    o = state.owner[sq]
    if o == BANK or state.mortgaged[sq]:
        return 0.0
    if s.kind == "street":
        assert s.group is not None
        lvl = state.houses[sq]
        return float(s.rents[lvl] if lvl else s.rents[0] * (2 if state.has_monopoly(o, s.group) else 1))
    count = state.count_in_group(o, s.kind)
    if s.kind == "railroad":
        return float(state.board.railroad_rents[count - 1])
    return state.board.utility_multipliers[count - 1] * dice_math.mean_total(state.rules.dice)


def r_long(state: GameState, player: int, k: int = K) -> float:
    per_square = k / dice_math.mean_total(state.rules.dice)
    total = 0.0
    others = [g for g in state.active_players() if g != player]
    for sq in state.board.property_squares:
        o = state.owner[sq]
        if o == player:
            total += len(others) * per_square * _rent_at_mean(state, sq)
        elif o in others:
            total -= per_square * _rent_at_mean(state, sq)
    return total


def m_monopoly(state: GameState, player: int, rl: float, k: int = K) -> float:
    funds = state.players[player].cash + k * state.rules.go_salary + rl
    if state.rules.go_landing_bonus:  # R_l's uniform landings: k / E[total] of them on Go
        funds += k / dice_math.mean_total(state.rules.dice) * state.rules.go_salary
    best = 0.0
    for group in state.board.street_groups:
        lots = state.board.groups[group]
        owned = [sq for sq in lots if state.owner[sq] == player]
        if not owned:
            continue
        squares = [state.board.squares[sq] for sq in lots]
        left = funds - sum(s.price for s in squares if state.owner[s.index] != player)
        if left < 0:
            continue
        levels = [state.houses[sq] for sq in lots]
        cost = squares[0].house_cost
        while cost > 0 and left >= cost:
            low = min(range(len(lots)), key=lambda i: (levels[i], i))
            if levels[low] >= HOTEL:
                break
            levels[low] += 1
            left -= cost
        rent = sum(s.rents[lv] if lv else 2 * s.rents[0] for s, lv in zip(squares, levels, strict=True))
        best = max(best, rent / 2 ** (state.set_size(group) - len(owned)))
    return best


def state_value(state: GameState, player: int | str, k: int = K, chain: PositionChain | None = None) -> StateValue:
    """``V(s)`` of seed 002 for ``player`` (module docstring).

    Parameters
    ----------
    state : GameState
        The position.
    player : int or str
        A seat or a name.
    k : int, default K
        The horizon in turns.
    chain : PositionChain or None
        The state's position chain; ``None``: the shared one.

    Returns
    -------
    StateValue
        Its four terms and their ``total``.

    Examples
    --------
    >>> from models.io import load_state
    >>> late = load_state("instances/late-game-house-shortage.json")
    >>> round(state_value(late, "Bob").total, 1)
    8425.3
    """
    if isinstance(player, str):
        player = state.player_index(player)
    chain = chain or chain_for(state.board, state.rules, "long")
    collect, owe = r_short(state, player, chain, k)
    rl = r_long(state, player, k)
    return StateValue(m_assets(state, player), collect - owe, rl, m_monopoly(state, player, rl, k))


def worst_rent(state: GameState, player: int) -> float:
    """The largest single rent an opponent's property could charge ``player`` now
    (utilities at the highest roll, railroads with the card's doubling)."""
    worst = 0.0
    max_total = state.rules.dice.count * state.rules.dice.sides
    for sq in state.board.property_squares:
        o = state.owner[sq]
        if o in (BANK, player) or state.mortgaged[sq]:
            continue
        s = state.board.squares[sq]
        if s.kind == "utility":
            count = state.count_in_group(o, "utility")
            mult = max([state.board.utility_multipliers[count - 1], *(c.dice_multiplier for c in (*state.board.chance, *state.board.community_chest))])
            worst = max(worst, float(mult * max_total))
        elif s.kind == "railroad":
            card = max([1, *(c.rent_multiplier for c in (*state.board.chance, *state.board.community_chest) if c.action == "advance_nearest")])
            worst = max(worst, _rent_at_mean(state, sq) * card)
        else:
            worst = max(worst, _rent_at_mean(state, sq))
    return worst


def move_is_safe(
    state: GameState, player: int | str, cost: float, *, cash_min: float = 150.0, chain: PositionChain | None = None
) -> tuple[bool, bool]:
    """The seed's two bankruptcy-avoidance conditions for a move costing ``cost`` (module docstring).

    Parameters
    ----------
    state : GameState
        The position before the move.
    player : int or str
        A seat or a name.
    cost : float
        What the move spends.
    cash_min : float, default 150.0
        The cash the first condition keeps.
    chain : PositionChain or None
        The state's position chain; ``None``: the shared one.

    Returns
    -------
    tuple of (bool, bool)
        Each condition: cash after a turn's expected flow stays above ``cash_min``; and the
        player survives the worst rent it can land on.

    Examples
    --------
    >>> from models.io import load_state
    >>> late = load_state("instances/late-game-house-shortage.json")
    >>> move_is_safe(late, "Bob", 100), move_is_safe(late, "Cy", 100)
    ((True, True), (False, False))
    """
    if isinstance(player, str):
        player = state.player_index(player)
    chain = chain or chain_for(state.board, state.rules, "long")
    cash = state.players[player].cash
    collect, owe = r_short(state, player, chain, 1)
    cond1 = cash + (collect - owe) - cost >= cash_min
    worth_scaled = state.liquidation_value(player) - cash
    cond2 = cash + collect + worth_scaled - cost - worst_rent(state, player) > 0
    return cond1, cond2
