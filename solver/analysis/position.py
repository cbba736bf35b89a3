"""Position assessment (seed 000, Phase 1): GROWING, CAPPED or LOSING, and the numbers behind it.

For ``player`` in ``state`` (rent in dollars per round, from
:mod:`solver.analysis.frontier`):

``build_roi``
    the best rent gained per dollar by one next building the player can
    afford now (keeping ``reserve``), 0 if none;
``ceiling``
    the rent per round of its complete sets developed as far as the bank's
    supply allows, whatever the cash;
``net_flow``
    expected net cash per round: the rent it expects to collect
    (:func:`engine.chains.state_risk.expected_income`) minus what it expects to pay
    on its own turn (long-run landings per turn times the state's rents and
    taxes) plus the Go salary times the expected passes of Go per turn
    (rolls per turn x mean dice total / board size; card jumps ignored),
    plus under ``rules.go_landing_bonus`` the salary again times the exact
    long-run moves per turn that end on Go (``PositionChain.go_landings``,
    dice and cards); the Free Parking pot and a finite bank's shortfall are
    not counted;
``turns_to_max_dev``
    rounds of that net income needed to pay for the ceiling's development
    beyond the cash above the reserve (``None`` when the income is not
    positive);
``slope``
    the frontier's rent gained per extra dollar at the player's spare cash;
``ruin_20``
    probability of ruin within 20 turns (:func:`engine.chains.state_risk.state_ruin_pmf`).

The state: LOSING when ``net_flow < 0`` and ``ruin_20 > ruin_threshold``
(default 0.25); else GROWING when ``build_roi >= roi_threshold`` (default
0.01: a building that pays for itself within 100 rounds); else CAPPED.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.chains import dice as dice_math
from engine.chains.ept import state_ept
from engine.chains.markov import PositionChain, chain_for, columns
from engine.chains.state_risk import expected_income, rent_vectors, state_ruin_pmf
from models.errors import InvalidTradeError
from models.names import Name
from models.state import BANK, GameState
from solver.analysis.frontier import Frontier, build_frontier, greedy_ranking


class Verdict(Name):
    """The state of a position (:attr:`Position.verdict`); the values are what ``solve`` and
    ``analyze`` print and write.

    Examples
    --------
    >>> Verdict.GROWING == "GROWING", [str(v) for v in Verdict]
    (True, ['GROWING', 'CAPPED', 'LOSING'])
    """

    GROWING = "GROWING"
    """A building returns at least ``roi_threshold`` of its cost in rent per round."""
    CAPPED = "CAPPED"
    """No building is worth its cost (or none can be built), and the position is not losing."""
    LOSING = "LOSING"
    """The net cash flow is negative and the 20-turn ruin above ``ruin_threshold``."""


GROWING, CAPPED, LOSING = Verdict.GROWING, Verdict.CAPPED, Verdict.LOSING


@dataclass(frozen=True)
class Position:
    """A player's position (:func:`assess_position`).

    Attributes
    ----------
    player : str
        The player's name.
    verdict : Verdict
        GROWING, CAPPED or LOSING.
    build_roi : float
        The best affordable building's rent per round over its cost (above the reserve).
    ceiling : float
        Rent per round at full development of the complete sets.
    current_rent : float
        Rent per round now.
    turns_to_max_dev : float or None
        Rounds of net income to afford the ceiling: 0 when the cash above the reserve already
        does, ``None`` when it does not and the net flow is not positive.
    slope : float
        The frontier's marginal rent per dollar at the cash above the reserve.
    net_flow : float
        Expected income minus outgo per round.
    ruin_20 : float
        Probability of ruin within 20 turns (:func:`engine.chains.state_risk.state_ruin_pmf`).
    reserve : int, default 150
        The cash kept back: ``build_roi`` counts only buildings affordable above it.
    cheapest : int or None, default None
        The cost of the cheapest legal next building at any price (``None``: none can be built),
        so that a ``build_roi`` of 0 reads as unaffordable (``cheapest`` above the cash over the
        reserve) or as nothing to build.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> bob = assess_position(state, "Bob")
    >>> bob.verdict, round(bob.build_roi, 4), round(bob.net_flow, 1), round(bob.ruin_20, 4)
    ('GROWING', 0.1222, 117.5, 0.1097)
    >>> bob.to_dict()["state"]
    'GROWING'
    """

    player: str
    verdict: Verdict
    build_roi: float
    ceiling: float
    current_rent: float
    turns_to_max_dev: float | None
    slope: float
    net_flow: float
    ruin_20: float
    reserve: int = 150
    cheapest: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dict; the verdict is written under the key ``state`` (pinned output format).

        Returns
        -------
        dict
            One key per field, ``verdict`` as ``state``.
        """
        return {("state" if k == "verdict" else k): v for k, v in asdict(self).items()}


def expected_outflow(state: GameState, player: int, chain: PositionChain) -> float:
    """Expected rent and tax paid on one of ``player``'s turns, long run, minus the expected Go salary.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The payer's seat.
    chain : PositionChain
        The state's position chain.

    Returns
    -------
    float
        Dollars per turn (negative: the salary outweighs the bills).

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> from engine.chains.markov import chain_for
    >>> round(expected_outflow(state, 1, chain_for(state.board, state.rules)), 2)
    152.77
    """
    fixed, util = rent_vectors(state, player)
    lpt = chain.landings_per_turn
    cols = columns(state.board.size)
    landings = lpt[cols["plain"]]
    paid = float(landings @ fixed) + float(lpt[cols["rr_w"]] @ fixed)
    paid += float(chain.totals_per_turn @ util) + float(lpt[cols["ut_w"]] @ (util > 0)) * chain.mean_total
    passes = chain.rolls_per_turn * dice_math.mean_total(state.rules.dice) / state.board.size
    if state.rules.go_landing_bonus:  # a move ending on Go pays the salary twice
        passes += chain.go_landings_per_turn
    return paid - passes * state.rules.go_salary


def assess_position(
    state: GameState,
    player: int | str,
    *,
    reserve: int = 150,
    roi_threshold: float = 0.01,
    ruin_threshold: float = 0.25,
    chain: PositionChain | None = None,
    frontier: Frontier | None = None,
) -> Position:
    """Assess ``player``'s position (module docstring).

    Parameters
    ----------
    state : GameState
        The position.
    player : int or str
        A seat or a name.
    reserve : int, default 150
        Cash kept back: only what is above it is spent on buildings.
    roi_threshold : float, default 0.01
        The return per round that makes a position GROWING.
    ruin_threshold : float, default 0.25
        The 20-turn ruin above which a negative flow is LOSING.
    chain : PositionChain or None
        The state's position chain; ``None``: the shared one.
    frontier : Frontier or None
        The player's build frontier, when the caller has it.

    Returns
    -------
    Position
        The verdict and its figures.

    Raises
    ------
    UnknownPlayerError
        ``player`` is a name not in the state (from :meth:`models.state.GameState.player_index`).

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> [str(assess_position(state, p).verdict) for p in range(4)]
    ['CAPPED', 'GROWING', 'LOSING', 'CAPPED']
    """
    if isinstance(player, str):
        player = state.player_index(player)
    chain = chain or chain_for(state.board, state.rules, "long")
    fr = frontier or build_frontier(state, player, chain)
    spare = max(0, state.players[player].cash - reserve)
    ranking = greedy_ranking(state, player, chain)
    affordable = [r for r in ranking if r[1] <= spare]
    build_roi = affordable[0][3] if affordable else 0.0
    net_flow = expected_income(state, player, chain) - expected_outflow(state, player, chain)
    full_cost = float(fr.budgets[-1]) if len(fr.budgets) else 0.0
    # the cheapest budget that reaches the ceiling
    reach = full_cost
    if len(fr.gains):
        top = fr.gains[-1]
        idx = int((fr.gains >= top - 1e-9).argmax())
        reach = float(fr.budgets[idx])
    shortfall = max(0.0, reach - spare)
    turns = 0.0 if shortfall == 0 else (shortfall / net_flow if net_flow > 0 else None)
    ruin = float(state_ruin_pmf(state, player, 20, chain=chain).sum())
    if net_flow < 0 and ruin > ruin_threshold:
        verdict = LOSING
    elif build_roi >= roi_threshold:
        verdict = GROWING
    else:
        verdict = CAPPED
    return Position(
        state.players[player].name,
        verdict,
        build_roi,
        fr.ceiling,
        fr.current,
        turns,
        fr.slope_at(spare),
        net_flow,
        ruin,
        reserve,
        min((r[1] for r in ranking), default=None),
    )


def frontier_value(
    state: GameState,
    player: int,
    *,
    horizon: int = 20,
    reserve: int = 150,
    chain: PositionChain | None = None,
    frontier: Frontier | None = None,
) -> float:
    """Expected rent over ``horizon`` rounds of the best development affordable with the
    cash above ``reserve`` (the frontier's plan), plus its railroads', utilities' and
    other lots' rent at their present state (long-run EPT x opponents).

    ``frontier`` is ``build_frontier(state, player, chain)`` when the caller has it (it
    does not depend on the player's cash).

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.
    horizon : int, default 20
        Rounds of rent.
    reserve : int, default 150
        Cash kept back.
    chain : PositionChain or None
        The state's position chain; ``None``: the shared one.
    frontier : Frontier or None
        The player's build frontier, when the caller has it.

    Returns
    -------
    float
        Dollars over ``horizon`` rounds.

    Examples
    --------
    >>> from models.io import load_state
    >>> round(frontier_value(load_state("instances/midgame-no-monopolies.json"), 2), 1)
    174.9
    """
    chain = chain or chain_for(state.board, state.rules, "long")
    fr = frontier if frontier is not None else build_frontier(state, player, chain)
    spare = max(0, state.players[player].cash - reserve)
    complete = set(state.complete_groups(player))
    ept = state_ept(chain, state)
    n_opp = len(state.active_players()) - 1
    others = sum(
        float(ept[sq])
        for sq in state.board.property_squares
        if state.owner[sq] == player and state.board.squares[sq].group not in complete
    )
    return horizon * (fr.current + fr.gain_at(spare) + others * n_opp)


def property_value(state: GameState, player: int, square: int, base: float | None = None, **kwargs: Any) -> float:
    """Seed 000 Phase 4: ``frontier_value`` with the property minus without it.

    For a property the player owns, "without" gives it to the bank; for one it
    does not own, "with" gives it to the player (its mortgage state kept, no
    cash changes hands). Only properties of unbuilt groups can change hands.
    ``base`` is ``frontier_value(state, player, **kwargs)`` when the caller has it.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.
    square : int
        The property.
    base : float or None
        :func:`frontier_value` of ``state``, when the caller has it.
    **kwargs
        Passed to :func:`frontier_value`.

    Returns
    -------
    float
        Dollars over the horizon.

    Raises
    ------
    InvalidTradeError
        The property's group has buildings.

    Examples
    --------
    Cy's Atlantic Avenue, and Reading Railroad were Cy to get it:

    >>> from models.io import load_state
    >>> mid = load_state("instances/midgame-no-monopolies.json")
    >>> round(property_value(mid, 2, 26), 1), round(property_value(mid, 2, 5), 1)
    (39.1, 147.7)
    """
    if state.group_has_buildings(state.group_of(square)):
        raise InvalidTradeError("a property whose group has buildings cannot change hands")
    here = frontier_value(state, player, **kwargs) if base is None else base
    other = state.copy()
    if state.owner[square] == player:
        other.owner[square] = BANK
        other.mortgaged[square] = False
        return here - frontier_value(other, player, **kwargs)
    other.owner[square] = player
    return frontier_value(other, player, **kwargs) - here
