"""solver.analysis.valuation.purchase_value: the Bellman rent stream and the ruin penalty, checked independently.

The rent stream is recomputed from the position chain's expected landings
(``PositionChain.expected_landings`` per opponent, from where it stands now)
times the board's printed rents: streets are never reached by a
rent-multiplying card, so a street's expected rent in an opponent's t-th turn
is its landing probability times its rent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.chains.markov import PositionChain
from engine.chains.state_risk import state_ruin_pmf
from models.io import load_state, state_to_dict
from models.state import GameState
from solver.analysis.valuation import purchase_value

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances"

HORIZON = 20
GAMMA = 0.95


def _landings(chain: PositionChain, state: GameState, q: int, horizon: int) -> np.ndarray:
    pl = state.players[q]
    return chain.expected_landings(chain.state_index(pl.position, pl.in_jail, pl.jail_turns), horizon)


def _street_stream(state: GameState, player: int, extra_rent: dict[int, float], horizon: int) -> np.ndarray:
    """Expected extra rent per round: sum over opponents of landings x extra rent per square."""
    chain = PositionChain(state.board, state.rules, "long")
    out = np.zeros(horizon)
    for q, pl in enumerate(state.players):
        if q == player or pl.bankrupt:
            continue
        land = _landings(chain, state, q, horizon)
        for sq, rent in extra_rent.items():
            out += land[:, sq] * rent
    return out


def _pv(stream: np.ndarray, gamma: float = GAMMA) -> float:
    return float(sum(gamma ** (t + 1) * x for t, x in enumerate(stream)))


@pytest.mark.parametrize(
    ("instance", "player", "square"),
    [
        ("opening.json", "Ann", "Illinois Avenue"),
        ("opening.json", "Dee", "Mediterranean Avenue"),
        ("midgame-no-monopolies.json", "Ann", "Boardwalk"),
        ("midgame-no-monopolies.json", "Cy", "Pennsylvania Avenue"),
    ],
)
def test_rent_pv_of_a_single_street_is_landings_times_base_rent(instance: str, player: str, square: str) -> None:
    state = load_state(INSTANCES / instance)
    p = state.player_index(player)
    sq = state.square_of(square)
    base = state.board.squares[sq].rents[0]
    pv = purchase_value(state, player, square, horizon=HORIZON, gamma=GAMMA)
    expected = _street_stream(state, p, {sq: base}, HORIZON)
    assert pv.square == sq and pv.name == square and pv.price == state.board.squares[sq].price
    assert len(pv.per_round) == HORIZON
    np.testing.assert_allclose(pv.per_round, expected, rtol=1e-10, atol=1e-12)
    assert pv.rent_pv == pytest.approx(_pv(expected), rel=1e-10)
    assert pv.value == pytest.approx(pv.rent_pv - pv.price, rel=1e-12)


def test_opening_first_round_rent_is_the_chance_of_landing_from_go() -> None:
    """From Go in one turn: Illinois (24) is reached by a Chance card (Chance 7 -> 24) or by
    two and three doubles; the stream's first entry is 3 opponents x that probability x $20."""
    state = load_state(INSTANCES / "opening.json")
    pv = purchase_value(state, "Ann", "Illinois Avenue", horizon=3)
    chain = PositionChain(state.board, state.rules, "long")
    first = chain.expected_landings(0, 1)[0, 24]
    assert 0 < first < 0.05
    assert pv.per_round[0] == pytest.approx(3 * 20 * first, rel=1e-12)


def _orange_doc(**ann: Any) -> dict[str, Any]:
    return {
        "format": "monopoly-state/1",
        "players": [
            {"name": "Ann", "cash": 900, "position": 5, **ann},
            {"name": "Bob", "cash": 800, "position": 12},
            {"name": "Cy", "cash": 700, "position": 10, "in_jail": True, "jail_turns": 1},
        ],
        "properties": {
            "St. James Place": {"owner": "Ann"},
            "Tennessee Avenue": {"owner": "Ann"},
            "Kentucky Avenue": {"owner": "Bob"},
        },
        "to_move": "Ann",
    }


def test_completing_a_group_doubles_the_lots_already_owned() -> None:
    """Ann owns St. James and Tennessee and buys New York: the stream carries New York at double
    rent and the doubling (the extra single rent) on the two lots she already held."""
    state = load_state(_orange_doc())
    sj, tn, ny = (state.square_of(n) for n in ("St. James Place", "Tennessee Avenue", "New York Avenue"))
    rent = {sq: state.board.squares[sq].rents[0] for sq in (sj, tn, ny)}
    assert rent == {sj: 14, tn: 14, ny: 16}
    pv = purchase_value(state, "Ann", "New York Avenue", horizon=HORIZON, gamma=GAMMA)
    expected = _street_stream(state, 0, {ny: 2 * rent[ny], sj: rent[sj], tn: rent[tn]}, HORIZON)
    np.testing.assert_allclose(pv.per_round, expected, rtol=1e-10, atol=1e-12)
    assert pv.rent_pv == pytest.approx(_pv(expected), rel=1e-10)
    # Without the doubling the stream would be New York alone at single rent: far less.
    alone = _street_stream(state, 0, {ny: rent[ny]}, HORIZON)
    assert pv.rent_pv > 2.5 * _pv(alone)


def test_completing_green_in_near_ruin_ignores_the_bankrupt_player() -> None:
    """near-ruin: Ann owns Pacific and North Carolina; Pennsylvania Avenue is the bank's.
    Cy is bankrupt and pays nothing; Bob and Dee are the opponents."""
    state = load_state(INSTANCES / "near-ruin.json")
    pac, nc, pa = (state.square_of(n) for n in ("Pacific Avenue", "North Carolina Avenue", "Pennsylvania Avenue"))
    rents = {sq: state.board.squares[sq].rents[0] for sq in (pac, nc, pa)}
    pv = purchase_value(state, "Ann", "Pennsylvania Avenue", horizon=HORIZON, gamma=GAMMA)
    expected = _street_stream(state, 0, {pa: 2 * rents[pa], pac: rents[pac], nc: rents[nc]}, HORIZON)
    np.testing.assert_allclose(pv.per_round, expected, rtol=1e-10, atol=1e-12)


def test_price_override_and_discount() -> None:
    state = load_state(INSTANCES / "opening.json")
    full = purchase_value(state, "Ann", "Boardwalk", horizon=10)
    cheap = purchase_value(state, "Ann", "Boardwalk", price=100, horizon=10)
    assert full.price == 400 and cheap.price == 100
    assert cheap.rent_pv == pytest.approx(full.rent_pv, rel=1e-12)
    assert cheap.value == pytest.approx(cheap.rent_pv - 100, rel=1e-12)
    undiscounted = purchase_value(state, "Ann", "Boardwalk", horizon=10, gamma=1.0)
    assert undiscounted.rent_pv == pytest.approx(sum(undiscounted.per_round), rel=1e-12)
    assert undiscounted.rent_pv > full.rent_pv
    # By index or by name, the same answer.
    by_index = purchase_value(state, 0, state.square_of("Boardwalk"), horizon=10)
    assert by_index.to_dict() == full.to_dict()


# ---------------------------------------------------------------------------
# The ruin penalty
# ---------------------------------------------------------------------------


def _danger_doc(cash: int) -> dict[str, Any]:
    """Ann against Bob's orange and red with 2 houses; Pennsylvania Avenue ($320) is the bank's."""
    props: dict[str, Any] = {
        name: {"owner": "Bob", "houses": 2}
        for name in (
            "St. James Place",
            "Tennessee Avenue",
            "New York Avenue",
            "Kentucky Avenue",
            "Indiana Avenue",
            "Illinois Avenue",
        )
    }
    return {
        "format": "monopoly-state/1",
        "players": [{"name": "Ann", "cash": cash, "position": 5}, {"name": "Bob", "cash": 2000, "position": 0}],
        "properties": props,
        "to_move": "Ann",
    }


def test_score_is_value_minus_lambda_times_the_rise_in_ruin() -> None:
    state = load_state(_danger_doc(700))
    pv = purchase_value(state, "Ann", "Pennsylvania Avenue", ruin_turns=10, lam=3000.0)
    assert pv.lam == 3000.0
    assert pv.score == pytest.approx(pv.value - 3000.0 * (pv.ruin_after - pv.ruin_before), rel=1e-12)
    # ruin_before / ruin_after are the chain's cumulative ruin over ruin_turns, before and after
    # (the after state built independently: owner set, price paid).
    assert pv.ruin_before == pytest.approx(float(state_ruin_pmf(state, "Ann", 10).sum()), rel=1e-12)
    doc = state_to_dict(state)
    doc["players"][0]["cash"] -= 320
    doc["properties"]["Pennsylvania Avenue"] = {"owner": "Ann"}
    assert pv.ruin_after == pytest.approx(float(state_ruin_pmf(load_state(doc), "Ann", 10).sum()), rel=1e-12)
    assert 0 < pv.ruin_before < pv.ruin_after < 1
    # Another lambda moves the score linearly, nothing else.
    other = purchase_value(state, "Ann", "Pennsylvania Avenue", ruin_turns=10, lam=0.0)
    assert other.score == pytest.approx(other.value, rel=1e-12)
    assert other.value == pytest.approx(pv.value, rel=1e-12)


def test_poor_buyer_pays_a_large_ruin_penalty_rich_buyer_almost_none() -> None:
    poor = purchase_value(load_state(_danger_doc(500)), "Ann", "Pennsylvania Avenue")
    rich = purchase_value(load_state(_danger_doc(3000)), "Ann", "Pennsylvania Avenue")
    assert poor.value == pytest.approx(rich.value, rel=1e-12)  # rent does not depend on cash
    poor_penalty = poor.value - poor.score
    rich_penalty = rich.value - rich.score
    assert poor_penalty > 200  # $2,000 per unit: over 10 points more ruin probability
    assert abs(rich_penalty) < 1
    assert poor.score < rich.score


def test_a_price_above_cash_counts_as_sure_ruin() -> None:
    state = load_state(_danger_doc(300))
    pv = purchase_value(state, "Ann", "Pennsylvania Avenue")
    assert pv.ruin_after == 1.0
    assert pv.score == pytest.approx(pv.value - pv.lam * (1.0 - pv.ruin_before), rel=1e-12)


def test_errors() -> None:
    state = load_state(INSTANCES / "midgame-no-monopolies.json")
    with pytest.raises(ValueError):
        purchase_value(state, "Ann", 0)  # Go
    with pytest.raises(ValueError):
        purchase_value(state, "Ann", 7)  # Chance
    with pytest.raises(ValueError):
        purchase_value(state, "Ann", "Illinois Avenue")  # Bob's
    with pytest.raises(ValueError):
        purchase_value(state, "Ann", "Reading Railroad")  # her own
