"""solver.analysis.reserve: cash reserves checked against the forward ruin chain.

For the returned reserve ``c``, :func:`engine.chains.state_risk.state_ruin_pmf` on a
copy of the state with cash ``c`` (same bucket, cap at the wealth of cash
``max_cash``) gives a ruin probability <= epsilon, and with cash
``c - bucket`` one above epsilon.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from engine.chains.markov import PositionChain
from engine.chains.state_risk import state_ruin_pmf
from models.io import load_state
from models.state import GameState
from solver.analysis.reserve import (
    WIDEN_MARGIN,
    cash_reserve,
    default_max_cash,
    relative_reserve,
    reserves,
    ruin_at_cash,
)

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
NAMES = ("near-ruin", "late-game-house-shortage", "two-player")


@functools.cache
def _state(name: str) -> GameState:
    return load_state(INSTANCES / f"{name}.json")


@functools.cache
def _chain(name: str) -> PositionChain:
    s = _state(name)
    return PositionChain(s.board, s.rules, "long")


def _forward_ruin(state: GameState, player: int, cash: int, bucket: int, max_cash: int, chain: PositionChain) -> float:
    s = state.copy()
    s.players[player].cash = 0
    assets = s.liquidation_value(player)
    s.players[player].cash = cash
    return float(state_ruin_pmf(s, player, 20, bucket, cap=assets + max_cash, chain=chain)[1:].sum())


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("epsilon", [0.05, 0.01])
def test_reserve_is_the_smallest_safe_cash(name: str, epsilon: float) -> None:
    s, chain = _state(name), _chain(name)
    bucket, max_cash = 50, 5000
    nonzero = 0
    for p in s.active_players():
        c = cash_reserve(s, p, epsilon=epsilon, bucket=bucket, max_cash=max_cash, chain=chain)
        assert 0 <= c <= max_cash and c % bucket == 0
        at_c = _forward_ruin(s, p, c, bucket, max_cash, chain)
        assert at_c <= epsilon + 1e-9 or c == max_cash  # max_cash: not reached
        if c >= bucket:
            assert _forward_ruin(s, p, c - bucket, bucket, max_cash, chain) > epsilon
            nonzero += 1
    assert nonzero >= 1


def test_bucket_100() -> None:
    s, chain = _state("late-game-house-shortage"), _chain("late-game-house-shortage")
    c = cash_reserve(s, "Bob", bucket=100, max_cash=4000, chain=chain)
    assert c % 100 == 0 and c >= 100
    assert _forward_ruin(s, 1, c, 100, 4000, chain) <= 0.05 + 1e-9
    assert _forward_ruin(s, 1, c - 100, 100, 4000, chain) > 0.05


def test_default_top_widens_once_near_the_cap() -> None:
    s, chain = _state("near-ruin"), _chain("near-ruin")
    for p in s.active_players():
        top = default_max_cash(s, p)
        first = cash_reserve(s, p, max_cash=top, chain=chain)
        expected = first if first <= top - WIDEN_MARGIN else cash_reserve(s, p, max_cash=2 * top, chain=chain)
        assert cash_reserve(s, p, chain=chain) == expected
    # Ann: $2,000 is not enough on the first grid (its top overstates the risk), $1,600 on the wider one.
    assert cash_reserve(s, "Ann", max_cash=2000, chain=chain) == 2000
    assert cash_reserve(s, "Ann", chain=chain) == 1600


def test_reserves_of_all_active_players() -> None:
    s = _state("late-game-house-shortage")
    got = reserves(s, epsilon=0.05, chain=_chain("late-game-house-shortage"))
    assert got == {p: cash_reserve(s, p, chain=_chain("late-game-house-shortage")) for p in range(4)}
    nr = _state("near-ruin")
    assert set(reserves(nr, max_cash=2000)) == {0, 1, 3}  # Cy is bankrupt
    assert reserves(nr, ["Dee", 0], max_cash=2000) == {3: 2000, 0: 2000}


def test_rich_player_without_exposure_needs_no_reserve() -> None:
    s = GameState.new_game(["A", "B", "C"])
    s.players[0].cash = 100_000
    for sq in s.board.property_squares:
        s.owner[sq] = 0  # nobody else can charge A rent; A's mortgages cover taxes and cards
    assert cash_reserve(s, "A", max_cash=2000) == 0
    assert cash_reserve(s, "A", epsilon=0.0, max_cash=2000) == 0
    assert cash_reserve(s, "A") == 0  # the default grid, up to $101,000


def test_invalid_arguments() -> None:
    s = _state("near-ruin")
    with pytest.raises(ValueError, match="bankrupt"):
        cash_reserve(s, "Cy")
    with pytest.raises(ValueError, match="epsilon"):
        cash_reserve(s, "Dee", epsilon=-0.1)
    with pytest.raises(ValueError, match="max_cash"):
        cash_reserve(s, "Dee", max_cash=1025)


def test_ruin_at_cash_is_the_forward_chain_at_the_grid_point_below() -> None:
    s, chain = _state("late-game-house-shortage"), _chain("late-game-house-shortage")
    bucket, max_cash = 200, 2000
    for p in s.active_players():
        for cash in (0, 130, 600, 1999):
            probe = s.copy()
            probe.players[p].cash = cash
            got = ruin_at_cash(probe, p, bucket=bucket, max_cash=max_cash, chain=chain)
            assert got == pytest.approx(_forward_ruin(s, p, cash // bucket * bucket, bucket, max_cash, chain), abs=1e-9)


def test_relative_reserve_spends_down_to_the_ruin_of_losing() -> None:
    """``relative_reserve(won, lost)`` is the smallest grid cash whose ruin in ``won`` is at
    most ``max(epsilon, ruin in lost)`` (checked on the forward chain); with a safe ``lost`` it
    is the plain reserve."""
    s, chain = _state("late-game-house-shortage"), _chain("late-game-house-shortage")
    bucket, max_cash, epsilon = 200, 2000, 0.05
    relaxed_seen = 0
    for p in s.active_players():
        plain = cash_reserve(s, p, epsilon=epsilon, bucket=bucket, max_cash=max_cash, chain=chain)
        for lost_cash in (0, 400, 5000):
            lost = s.copy()
            lost.players[p].cash = lost_cash
            p_lost = _forward_ruin(s, p, min(lost_cash, max_cash) // bucket * bucket, bucket, max_cash, chain)
            r = relative_reserve(s, lost, p, epsilon=epsilon, bucket=bucket, max_cash=max_cash, chain=chain)
            if p_lost <= epsilon:
                assert r == plain
                continue
            tol = max(epsilon, p_lost)
            assert r <= plain and r % bucket == 0
            assert _forward_ruin(s, p, r, bucket, max_cash, chain) <= tol + 1e-9 or r == max_cash
            if r >= bucket:
                assert _forward_ruin(s, p, r - bucket, bucket, max_cash, chain) > tol - 1e-9
            relaxed_seen += r < plain
    assert relaxed_seen >= 1  # a player at risk does get a smaller reserve
