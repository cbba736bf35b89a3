"""The funded build plan against brute force (issue "Play to win", point 1)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from engine.chains.ept import state_ept
from engine.chains.markov import PositionChain
from models.board import HOTEL
from models.io import load_state
from models.state import GameState
from solver.analysis.frontier import build_frontier, rent_per_round
from solver.analysis.funded_build import (
    RuinCurve,
    SpareLot,
    cheapest_funding,
    funded_plan,
    plan_budget,
    spare_lots,
)

ROOT = Path(__file__).resolve().parents[2]


def _even_configs(state: GameState, player: int, group: str) -> list[dict[int, int]]:
    """Every even-building configuration of the player's lots of ``group`` at or above the
    present levels (no lot more than one level above another)."""
    lots = [sq for sq in state.board.groups[group] if state.owner[sq] == player]
    out = []
    for levels in itertools.product(range(HOTEL + 1), repeat=len(lots)):
        if max(levels) - min(levels) > 1 or any(lv < state.houses[sq] for sq, lv in zip(lots, levels, strict=True)):
            continue
        out.append(dict(zip(lots, levels, strict=True)))
    return out


def _brute_best(state: GameState, player: int, chain: PositionChain, horizon: int, curve: RuinCurve) -> float:
    """max V over every even configuration of every complete set and every subset of spare lots."""
    n_opp = len(state.active_players()) - 1
    lots = spare_lots(state, player, chain)
    ept = state_ept(chain, state)
    mine = [sq for sq in state.board.property_squares if state.owner[sq] == player]
    income = float(ept[mine].sum()) * n_opp
    loss0 = state.net_worth(player) + horizon * income
    best = -loss0 * curve(state.liquidation_value(player))  # holding
    groups = state.complete_groups(player)
    cash = state.players[player].cash
    for configs in itertools.product(*[_even_configs(state, player, g) for g in groups]):
        levels = {sq: lv for cfg in configs for sq, lv in cfg.items()}
        cost = sum((lv - state.houses[sq]) * state.board.squares[sq].house_cost for sq, lv in levels.items())
        if cost == 0:
            continue
        if sum(lv for lv in levels.values() if lv < HOTEL) > state.rules.houses:
            continue
        gain = sum(
            rent_per_round(state, chain, player, sq, lv) - rent_per_round(state, chain, player, sq, state.houses[sq])
            for sq, lv in levels.items()
        )
        for r in range(len(lots) + 1):
            for subset in itertools.combinations(lots, r):
                raised = sum(lot.value for lot in subset)
                if cash + raised < cost:
                    continue
                after = state.copy()
                for sq, lv in levels.items():
                    after.houses[sq] = lv
                for lot in subset:
                    after.mortgaged[lot.square] = True
                after.players[player].cash += raised - cost
                lost = sum(horizon * lot.rent + lot.interest for lot in subset)
                value = horizon * gain - lost - (loss0 + horizon * gain) * curve(after.liquidation_value(player))
                best = max(best, value)
    return best


@pytest.mark.parametrize(
    ("instance", "player", "cash"),
    [
        ("two-player.json", "Ann", 560),
        ("two-player.json", "Ann", 150),
        ("two-player.json", "Bob", 340),
        ("cycle-four-reserve.json", "Dee", 260),
        ("cycle-four-reserve.json", "Dee", 40),
    ],
)
def test_funded_plan_matches_brute_force(instance: str, player: str, cash: int) -> None:
    state = load_state(ROOT / "instances" / instance)
    p = state.player_index(player)
    state.players[p].cash = cash
    # keep the brute force small: at most 6 spare lots (the rest mortgaged already)
    chain = PositionChain(state.board, state.rules, "long")
    for lot in spare_lots(state, p, chain)[6:]:
        state.mortgaged[lot.square] = True
    assert not any(state.mortgaged[sq] for g in state.complete_groups(p) for sq in state.board.groups[g])
    curve = RuinCurve(state, p, chain)
    plan = funded_plan(state, p, chain, horizon=20, curve=curve)
    expected = _brute_best(state, p, chain, 20, curve)
    assert plan.value == pytest.approx(expected, abs=1e-6)
    if not plan.empty:
        # the plan is what it says: its cash, its mortgages, its value
        assert plan.cash_after == cash + plan.raised - plan.build_cost >= 0
        assert plan.value > plan.hold_value
        if plan.mortgages:
            assert cash < plan.build_cost  # mortgages only when cash alone does not pay


@pytest.mark.parametrize(
    ("instance", "player", "cash", "lift"),
    [
        ("two-player.json", "Ann", 560, False),
        ("two-player.json", "Ann", 560, True),  # a mortgaged lot in the set: lifting costs, $1 units
        ("two-player.json", "Bob", 340, True),
        ("cycle-four-reserve.json", "Dee", 900, True),
        ("late-game-house-shortage.json", "Cy", 1500, False),  # the bank's houses bind
        ("mortgaged.json", "Bob", 2500, False),
    ],
)
def test_frontier_to_the_plan_budget_gives_the_same_plan(instance: str, player: str, cash: int, lift: bool) -> None:
    """The frontier built only to :func:`plan_budget` is the full one cut there (gains and
    choices), and the funded plan read from it is the full frontier's plan; one cut below the
    budget is refused."""
    state = load_state(ROOT / "instances" / instance)
    p = state.player_index(player)
    state.players[p].cash = cash
    chain = PositionChain(state.board, state.rules, "long")
    if lift:
        for g in state.complete_groups(p):
            lots = [sq for sq in state.board.groups[g] if state.owner[sq] == p]
            if not any(state.houses[sq] for sq in state.board.groups[g]):
                state.mortgaged[lots[0]] = True
    top = plan_budget(state, p, chain)
    assert top == cash + sum(lot.value for lot in spare_lots(state, p, chain))
    full = build_frontier(state, p, chain)
    cut = build_frontier(state, p, chain, budget=top)
    n = len(cut.gains)
    assert cut.budgets[-1] <= top < cut.budgets[-1] + cut.unit or not cut.truncated
    assert (cut.gains == full.gains[:n]).all()
    assert all((a == b[:n]).all() for a, b in zip(cut._choice, full._choice, strict=True))
    curve = RuinCurve(state, p, chain)
    plan = funded_plan(state, p, chain, horizon=20, curve=curve, frontier=full)
    assert funded_plan(state, p, chain, horizon=20, curve=curve, frontier=cut) == plan
    assert funded_plan(state, p, chain, horizon=20, curve=curve) == plan
    if full.budgets[-1] > top and top >= full.unit:
        short = build_frontier(state, p, chain, budget=top - full.unit)
        with pytest.raises(ValueError, match="frontier was built to"):
            funded_plan(state, p, chain, horizon=20, curve=curve, frontier=short)


def test_cheapest_funding_is_the_cheapest_subset() -> None:
    lots = [SpareLot(i, v, r, v // 10) for i, (v, r) in enumerate([(30, 1.0), (50, 0.5), (100, 4.0), (75, 0.2), (140, 6.0), (60, 0.1)])]
    cost, take, unit = cheapest_funding(lots, horizon=10)
    for k in range(len(cost)):
        need = k * unit
        options = [
            sum(10 * lot.rent + lot.interest for lot in s)
            for r in range(len(lots) + 1)
            for s in itertools.combinations(lots, r)
            if sum(lot.value for lot in s) >= need
        ]
        assert cost[k] == pytest.approx(min(options))
        chosen = [lot for lot in lots if lot.square in take[k]]
        assert sum(lot.value for lot in chosen) >= need
        assert sum(10 * lot.rent + lot.interest for lot in chosen) == pytest.approx(cost[k])


def test_no_complete_set_holds() -> None:
    state = GameState.new_game(["a", "b"])
    chain = PositionChain(state.board, state.rules, "long")
    plan = funded_plan(state, 0, chain)
    assert plan.empty and plan.value == plan.hold_value and plan.cash_after == state.players[0].cash


def test_ruin_makes_it_keep_cash() -> None:
    """Next to a hotel row the plan keeps cash that it spends with nothing to pay: with a
    short horizon (little rent to gain) Ann holds her $820 there and builds without the row."""
    state = load_state(ROOT / "instances" / "near-ruin.json")
    p = state.player_index("Ann")
    chain = PositionChain(state.board, state.rules, "long")
    calm = state.copy()
    for sq in calm.board.property_squares:
        if calm.owner[sq] not in (p, -1):
            calm.houses[sq] = 0
    for horizon, kept in ((3, 820), (5, 320)):
        risky = funded_plan(state, p, chain, horizon=horizon)
        safe = funded_plan(calm, p, chain, horizon=horizon)
        assert risky.ruin_before > 0.1 > safe.ruin_before
        assert risky.cash_after == kept > safe.cash_after == 220
    # the value is the model's: rent over the horizon, less funding, less the cost of ruin
    plan = funded_plan(state, p, chain, horizon=8)
    assert plan.value == pytest.approx(8 * (plan.rent_gain - plan.rent_lost) - plan.interest - plan.ruin_cost)
    assert funded_plan(state, p, chain, horizon=0).empty
