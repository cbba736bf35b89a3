"""engine.chains.state_risk.ruin_within_by_wealth: the backward pass against the forward chain.

* At the grid point of the player's own wealth it equals
  ``state_ruin_pmf(...)[1:].sum()`` (entry 0, ruin before moving, is 0 for a
  live player with wealth >= 0).
* At another grid point ``W + k * bucket`` it equals the forward run on a
  copy of the state whose cash is changed by ``k * bucket`` (same cap, so the
  two grids are the same: the grid is aligned on ``fmod(W + 1, bucket)``).
* It is non-increasing in wealth, with and without income, under the rule
  variants too; a bankrupt player raises.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

from engine.chains.markov import JailPolicy, PositionChain
from engine.chains.state_risk import ruin_within_by_wealth, state_ruin_pmf
from models.io import load_state
from models.rules import PRESETS, Rules
from models.state import GameState

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
NAMES = ("near-ruin", "late-game-house-shortage", "midgame-no-monopolies", "mortgaged")
CASES = [(name, p) for name in NAMES for p in range(4 if name != "mortgaged" else 3)]


@functools.cache
def _state(name: str) -> GameState:
    return load_state(INSTANCES / f"{name}.json")


@functools.cache
def _chain(name: str) -> PositionChain:
    s = _state(name)
    return PositionChain(s.board, s.rules, "long")


def _live(name: str, p: int) -> GameState:
    s = _state(name)
    if s.players[p].bankrupt:
        pytest.skip("bankrupt player")
    return s


@pytest.mark.parametrize(("name", "p"), CASES)
@pytest.mark.parametrize(("jail", "income"), [("long", True), ("long", False), ("short", False)])
def test_own_wealth_matches_forward(name: str, p: int, jail: JailPolicy, income: bool) -> None:
    s = _live(name, p)
    w0 = s.liquidation_value(p)
    wealth, ruin = ruin_within_by_wealth(s, p, 20, 50, jail=jail, income=income, chain=_chain(name))
    fwd = state_ruin_pmf(s, p, 20, 50, jail=jail, income=income, chain=_chain(name))
    assert fwd[0] == 0.0
    i = int(np.searchsorted(wealth, w0))
    assert wealth[i] == w0
    assert abs(ruin[i] - fwd[1:].sum()) <= 1e-12


@pytest.mark.parametrize(("name", "p"), CASES)
def test_other_grid_points_match_forward_on_shifted_cash(name: str, p: int) -> None:
    s = _live(name, p)
    bucket = 50
    w0 = s.liquidation_value(p)
    cap = w0 + 1500  # the same cap for every run, so every run has the same grid
    chain = _chain(name)
    wealth, ruin = ruin_within_by_wealth(s, p, 12, bucket, cap=cap, chain=chain)
    # the grid: -1 (ruin) left out, bucket apart and aligned on w0, then the cap
    assert wealth[0] > -1
    steps = np.diff(wealth)
    assert np.all(steps[:-1] == bucket) and 0 < steps[-1] <= bucket
    assert wealth[-1] == cap
    checked = 0
    for k in (-12, -5, -2, -1, 1, 3, 8, 20, 29):
        cash = s.players[p].cash + k * bucket
        if cash < 0 or w0 + k * bucket >= cap:
            continue
        shifted = s.copy()
        shifted.players[p].cash = cash
        w = shifted.liquidation_value(p)
        assert w == w0 + k * bucket
        i = int(np.searchsorted(wealth, w))
        assert wealth[i] == w
        fwd = state_ruin_pmf(shifted, p, 12, bucket, cap=cap, chain=chain)
        assert abs(ruin[i] - fwd[1:].sum()) <= 1e-12, (k, ruin[i], fwd[1:].sum())
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("income", [True, False])
@pytest.mark.parametrize(("name", "p"), CASES)
def test_non_increasing_in_wealth(name: str, p: int, income: bool) -> None:
    """Without income too: the mass on the grid's lowest point is ruined by the double that
    goes to jail at no cost as by any move that brings no money (once it was lost there, and
    the ruin from the lowest starting wealths could fall below that from higher ones)."""
    s = _live(name, p)
    wealth, ruin = ruin_within_by_wealth(s, p, income=income, chain=_chain(name))
    assert np.all(np.diff(wealth) > 0)
    assert np.all((ruin >= -1e-15) & (ruin <= 1 + 1e-12))
    assert np.all(np.diff(ruin) <= 1e-12)


def test_risky_players_span_the_range() -> None:
    # Dee on near-ruin (liquidation value $170, facing hotels): ruin is almost sure
    # at her wealth and falls with more wealth.
    _, ruin = ruin_within_by_wealth(_state("near-ruin"), "Dee", chain=_chain("near-ruin"))
    assert ruin[0] > 0.99
    assert ruin[-1] < ruin[0] - 0.01


def test_turns_zero_is_no_ruin() -> None:
    _, ruin = ruin_within_by_wealth(_state("near-ruin"), "Dee", turns=0, chain=_chain("near-ruin"))
    assert np.all(ruin == 0.0)


def test_bankrupt_player_raises() -> None:
    with pytest.raises(ValueError, match="bankrupt"):
        ruin_within_by_wealth(_state("near-ruin"), "Cy")


VARIANT_RULES = {
    "no-doubles": PRESETS["no-doubles"],
    "house-jackpot": PRESETS["house-jackpot"],
    "dtj-0": Rules(doubles_to_jail=0),
    "dtj-1": Rules(doubles_to_jail=1),
    "dtj-2": Rules(doubles_to_jail=2),
    "sit-out-free": Rules(jail_doubles=False, jail_release="free"),
    "jail-2-no-doubles": Rules(max_jail_rolls=2, jail_doubles=False),
}
"""Rule variants that change the turn's rolls (:func:`engine.chains.state_risk.roll_slots`) or the jail rows."""


@pytest.mark.parametrize("income", [True, False])
@pytest.mark.parametrize("jail", ["long", "short"])
@pytest.mark.parametrize("variant", sorted(VARIANT_RULES))
def test_own_wealth_matches_forward_under_variants(variant: str, jail: JailPolicy, income: bool) -> None:
    """The backward pass nests the rolls of a turn as the forward run steps through them, for
    one roll a turn, a jailing first double, two rolls, and the unbounded turn cut at the tail;
    non-increasing in wealth with and without income."""
    s = _state("near-ruin").copy()
    s.rules = VARIANT_RULES[variant]
    for pl in s.players:
        pl.jail_turns = min(pl.jail_turns, s.rules.max_jail_rolls - 1)
    checked = 0
    for p in s.active_players():
        w0 = s.liquidation_value(p)
        if w0 < 0:
            continue
        wealth, ruin = ruin_within_by_wealth(s, p, 12, 50, jail=jail, income=income)
        fwd = state_ruin_pmf(s, p, 12, 50, jail=jail, income=income)
        i = int(np.searchsorted(wealth, w0))
        assert wealth[i] == w0
        assert abs(ruin[i] - fwd[1:].sum()) <= 1e-12
        assert np.all(np.diff(ruin) <= 1e-12)
        checked += 1
    assert checked >= 2
