"""The rollout policy's ``pricing="value"`` against the baseline's own static valuation.

:mod:`engine.sim.rollout_values` re-derives, as integer tables the kernel can read, the static
values that ``strategic`` prices trades by (:class:`solver.analysis.static_value.StaticValuation`,
:meth:`solver.agents.strategic.StrategicTradeAgent.find_trade`: the cash that gives both sides
the same static gain). Here the two are held to each other on random boards: every sale and
every mutual completion swap the policy could price, on lots randomly owned and mortgaged,
with seats out of the game, under the standard rules and a variant with other dice.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.rules.view import GameView
from engine.sim.rollout_policy import RolloutPolicy, accepts, completion_gain, swap_cash, value_price
from engine.sim.rollout_values import VALUE_HORIZON, half_up
from models.board import standard_board
from models.errors import InvalidArgumentError
from models.rules import DiceSpec, Rules
from models.state import BANK, GameState, PlayerState as Player
from models.trade import Trade
from solver.decisions.baseline import STATIC_HORIZON, static_valuation
from solver.decisions.settings import AgentSettings


def _random_state(rng: np.random.Generator, rules: Rules) -> GameState:
    """Four seats (one of them out of the game on some draws), street lots owned mostly two
    groups at a time so that many seats are one short, some lots mortgaged, no buildings."""
    board = standard_board()
    players = [Player(name=f"P{i}", cash=int(rng.integers(0, 4000))) for i in range(4)]
    state = GameState(board=board, rules=rules, players=players)
    out = int(rng.integers(-1, 4))
    for g in board.street_groups:
        holders = rng.choice(4, size=2, replace=False)
        for sq in board.groups[g]:
            o = int(holders[0] if rng.random() < 0.6 else holders[1])
            state.owner[sq] = BANK if rng.random() < 0.1 else o
            state.mortgaged[sq] = state.owner[sq] != BANK and rng.random() < 0.2
    if out >= 0:  # a seat out of the game holds nothing
        players[out].bankrupt = True
        for sq in board.property_squares:
            if state.owner[sq] == out:
                state.owner[sq] = BANK
                state.mortgaged[sq] = False
    return state


def _split(state: GameState, p: int, q: int, got: int, gave: int | None) -> float:
    """``strategic``'s cash from ``p`` to ``q`` for ``p`` receiving ``got`` (and giving ``gave``):
    half the difference of the two sides' static worth changes, as its ``find_trade``."""
    valuation = static_valuation(state.board, state.rules)
    names = [pl.name for pl in state.players]
    trade = Trade.bilateral(names[p], names[q], [] if gave is None else [state.board.squares[gave].name], [state.board.squares[got].name])
    after = state.copy()
    trade.apply(after)
    groups = {state.group_of(got)} | (set() if gave is None else {state.group_of(gave)})
    g_p = valuation.worth_change(state, after, p, groups)
    g_q = valuation.worth_change(state, after, q, groups)
    return (g_p - g_q) / 2


def _one_short_lots(state: GameState, p: int) -> list[tuple[int, int]]:
    """``(q, s)``: seat ``q``'s unmortgaged lot ``s`` that completes a group of ``p``'s (no buildings)."""
    out = []
    for g in state.board.street_groups:
        lots = state.board.groups[g]
        if sum(state.owner[s] == p for s in lots) != len(lots) - 1:
            continue
        for s in lots:
            q = state.owner[s]
            if q not in (p, BANK) and not state.mortgaged[s]:
                out.append((q, s))
    return out


def test_horizon_is_the_baselines() -> None:
    assert VALUE_HORIZON == STATIC_HORIZON


@pytest.mark.parametrize("rules", [Rules(), Rules(dice=DiceSpec(3, 6))], ids=["standard", "three-dice"])
def test_value_prices_are_strategics_split(rules: Rules) -> None:
    rng = np.random.default_rng(5)
    sales = swaps = 0
    for _ in range(60):
        state = _random_state(rng, rules)
        view = GameView(state, 0)
        for p in range(4):
            if state.players[p].bankrupt:
                continue
            short = _one_short_lots(state, p)
            for q, s in short:
                # a sale: the asking price is half the buyer's gain plus the seller's loss, that is
                # strategic's split of the static surplus (integer streams: within a dollar a lot)
                expected = _split(state, p, q, s, None)
                assert abs(value_price(view, p, s) - expected) <= 2.5, (p, q, s)
                sales += 1
                for q2, t in _one_short_lots(state, q):
                    if q2 != p:
                        continue
                    assert abs(swap_cash(view, p, s, q, t) - _split(state, p, q, s, t)) <= 2.5, (p, q, s, t)
                    # the swap's cash is antisymmetric: the same trade seen from the other side
                    assert swap_cash(view, q, t, p, s) == -swap_cash(view, p, s, q, t)
                    swaps += 1
    assert sales >= 100 and swaps >= 10, (sales, swaps)


def test_completion_gain_by_hand() -> None:
    """Orange with three opponents, the buyer holding two lots (one mortgaged): the gain is the
    three lots' values in the set less the two lots' values outside it."""
    board = standard_board()
    state = GameState(board=board, rules=Rules(), players=[Player(name=f"P{i}", cash=1500) for i in range(4)])
    for sq in (16, 18):
        state.owner[sq] = 0
    state.owner[19] = 1
    state.mortgaged[18] = True
    landings = static_valuation(board, state.rules).landings
    scale = 3 * VALUE_HORIZON

    def mono(sq: int) -> int:
        rents = board.squares[sq].rents
        hc = board.squares[sq].house_cost
        return round(max([scale * landings[sq] * 2 * rents[0]] + [scale * landings[sq] * rents[lv] - lv * hc for lv in range(1, 6)]))

    def lone(sq: int) -> int:
        return round(scale * landings[sq] * board.squares[sq].rents[0])

    mv = {sq: board.squares[sq].price // 2 for sq in (16, 18, 19)}
    lift = {sq: state.rules.unmortgage_cost(mv[sq]) for sq in mv}
    expected = (
        mono(19) + mv[19]
        + (mono(16) + mv[16]) - (lone(16) + mv[16])
        + max(0, mono(18) - lift[18]) - max(0, lone(18) - lift[18])
    )
    view = GameView(state, 0)
    assert completion_gain(view, 0, 19) == expected
    assert value_price(view, 0, 19) == half_up(expected + lone(19) + mv[19])
    # the seller's rule: a value-pricing seat sells for its price, not a dollar less, and
    # sells nothing that does not complete the buyer's group
    price = value_price(view, 0, 19)
    sale = Trade.bilateral("P0", "P1", [], ["New York Avenue"], price)
    assert accepts(GameView(state, 1), 1, RolloutPolicy(pricing="value"), sale)
    cheaper = Trade.bilateral("P0", "P1", [], ["New York Avenue"], price - 1)
    assert not accepts(GameView(state, 1), 1, RolloutPolicy(pricing="value"), cheaper)
    assert accepts(GameView(state, 1), 1, RolloutPolicy(), cheaper)  # the premium rule asks $400
    state.owner[21] = 1
    stray = Trade.bilateral("P2", "P1", [], ["Kentucky Avenue"], 10_000)
    assert not accepts(GameView(state, 1), 1, RolloutPolicy(pricing="value"), stray)


def test_pricing_is_checked_and_carried() -> None:
    with pytest.raises(InvalidArgumentError, match="pricing must be 'premium' or 'value'"):
        RolloutPolicy(pricing="market")
    assert RolloutPolicy(pricing="value").as_array()[-1] == 1
    assert AgentSettings(rollout_pricing="value").rollout_policy.pricing == "value"
    with pytest.raises(InvalidArgumentError, match="rollout_pricing"):
        AgentSettings(rollout_pricing="market")
