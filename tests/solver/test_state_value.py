"""Seed 002's state value V(s) term by term, and its bankruptcy-avoidance conditions, by hand."""

from __future__ import annotations

from typing import Any

import pytest

from engine.chains.markov import PositionChain
from models.board import standard_board
from models.io import load_state
from solver.analysis.state_value import (
    m_assets,
    m_monopoly,
    move_is_safe,
    r_long,
    state_value,
    worst_rent,
)

CHAIN = PositionChain(standard_board())


def state_of(props: dict[str, Any], cash: tuple[int, ...] = (1500, 1500), positions: tuple[int, ...] = (0, 0)) -> Any:
    names = ("Ann", "Bob", "Cy")
    return load_state(
        {
            "format": "monopoly-state/1",
            "players": [{"name": n, "cash": c, "position": p} for n, c, p in zip(names, cash, positions, strict=False)],
            "properties": {k: (v if isinstance(v, dict) else {"owner": v}) for k, v in props.items()},
        }
    )


def test_m_assets_counts_unmortgaged_price_and_buildings() -> None:
    s = state_of(
        {
            "Mediterranean Avenue": {"owner": "Ann", "houses": 2},
            "Baltic Avenue": {"owner": "Ann", "houses": 1},
            "Boardwalk": {"owner": "Ann", "mortgaged": True},
            "Reading Railroad": "Ann",
        }
    )
    assert m_assets(s, 0) == 60 + 100 + 60 + 50 + 200  # Boardwalk is mortgaged: left out


def test_r_long_by_hand() -> None:
    s = state_of({"Boardwalk": "Ann", "Park Place": "Bob"})
    # k = 5 loops, uniform landing: 5 / 7 expected landings per square for each player.
    assert r_long(s, 0) == pytest.approx(5 / 7 * 50 - 5 / 7 * 35)
    assert r_long(s, 1) == pytest.approx(5 / 7 * 35 - 5 / 7 * 50)


def test_r_short_is_rent_from_the_chain_by_hand() -> None:
    s = state_of({"Illinois Avenue": "Ann"}, positions=(0, 20))
    expected = CHAIN.expected_landings(CHAIN.state_index(20), 5)[:, 24].sum() * 20  # Bob from Free Parking
    assert state_value(s, "Ann", chain=CHAIN).r_s == pytest.approx(expected)
    assert state_value(s, "Bob", chain=CHAIN).r_s == pytest.approx(-expected)


def test_m_monopoly_by_hand() -> None:
    s = state_of({"St. James Place": "Ann", "Tennessee Avenue": "Ann"}, cash=(500, 1500))
    rl = r_long(s, 0)  # Ann owns two unimproved lots: 2 x (5/7) x 14 per opponent
    assert rl == pytest.approx(5 / 7 * 28)
    funds = 500 + 5 * 200 + rl  # 1520
    # buy New York ($200): 1320 left -> 13 houses at $100 -> levels 5, 4, 4 (hotel first on the lowest index)
    assert funds - 200 == pytest.approx(1320, abs=21)
    rent = 950 + 750 + 800  # St. James hotel, Tennessee 4 houses, New York 4 houses
    assert m_monopoly(s, 0, rl) == pytest.approx(rent / 2 ** (3 - 2))


def test_worst_rent_and_safety_conditions() -> None:
    s = state_of({"Boardwalk": {"owner": "Bob", "houses": 5}, "Park Place": {"owner": "Bob", "houses": 5}}, cash=(2500, 100))
    assert worst_rent(s, 0) == 2000
    c1, c2 = move_is_safe(s, "Ann", 200, chain=CHAIN)
    assert c1 and c2  # $2,300 left covers a $2,000 hotel
    c1, c2 = move_is_safe(s, "Ann", 600, chain=CHAIN)
    assert c1 and not c2  # $1,900 left does not: condition 2 fails, condition 1 still holds
    c1, _ = move_is_safe(s, "Ann", 2400, chain=CHAIN)
    assert not c1  # $100 left is under cash_min $150


def test_total_is_the_sum_of_terms() -> None:
    s = load_state(__import__("pathlib").Path(__file__).resolve().parents[2] / "instances" / "two-player.json")
    v = state_value(s, "Ann")
    assert v.total == pytest.approx(v.m_assets + v.r_s + v.r_l + v.m_monopoly)
    assert v.to_dict()["total"] == pytest.approx(v.total)
