"""Rent: streets, monopolies, mortgages, houses, railroads, utilities."""

from __future__ import annotations

import pytest

from tests.engine.rules_helpers import (
    B_AND_O,
    BALTIC,
    BOARDWALK,
    ELECTRIC,
    MEDITERRANEAN,
    PARK_PLACE,
    PENNSYLVANIA_RR,
    READING,
    SHORT_LINE,
    WATER_WORKS,
    make_game,
    make_state,
)


def land(target, *, start, dice, **state_kw):
    """A (player 0) at ``start`` rolls ``dice`` onto ``target``; B owns what ``state_kw`` says."""
    state = make_state(2, positions=[start, 0], **state_kw)
    h = make_game(state, dice=[dice])
    h.turn()
    assert h.state.players[0].position == target
    return h


def test_base_rent():
    h = land(BALTIC, start=0, dice=(1, 2), owner={BALTIC: 1})
    assert h.cash() == [1496, 1504]
    rent = h.log.cash("rent on Baltic Avenue")
    assert len(rent) == 1 and rent[0].data["frm"] == 0 and rent[0].data["to"] == 1


def test_unimproved_monopoly_doubles_rent():
    h = land(BALTIC, start=0, dice=(1, 2), owner={BALTIC: 1, MEDITERRANEAN: 1})
    assert h.cash() == [1492, 1508]


def test_monopoly_doubles_even_with_another_lot_mortgaged():
    h = land(BALTIC, start=0, dice=(1, 2), owner={BALTIC: 1, MEDITERRANEAN: 1}, mortgaged=[MEDITERRANEAN])
    assert h.cash() == [1492, 1508]


def test_mortgaged_lot_pays_no_rent():
    h = land(BALTIC, start=0, dice=(1, 2), owner={BALTIC: 1, MEDITERRANEAN: 1}, mortgaged=[BALTIC])
    assert h.cash() == [1500, 1500]
    assert not h.log.of("cash")


@pytest.mark.parametrize(("level", "rent"), [(1, 20), (2, 60), (3, 180), (4, 320), (5, 450)])
def test_house_and_hotel_rents(level, rent):
    other = min(level, 4) if level < 5 else 5
    h = land(BALTIC, start=0, dice=(1, 2), owner={BALTIC: 1, MEDITERRANEAN: 1}, houses={BALTIC: level, MEDITERRANEAN: other})
    assert h.cash() == [1500 - rent, 1500 + rent]


def test_boardwalk_hotel_rent():
    h = land(
        BOARDWALK,
        start=35,
        dice=(1, 3),
        cash=[2500, 1500],
        owner={BOARDWALK: 1, PARK_PLACE: 1},
        houses={BOARDWALK: 5, PARK_PLACE: 5},
    )
    assert h.cash() == [500, 3500]


@pytest.mark.parametrize(
    ("owned", "rent"),
    [
        ([PENNSYLVANIA_RR], 25),
        ([PENNSYLVANIA_RR, READING], 50),
        ([PENNSYLVANIA_RR, READING, B_AND_O], 100),
        ([PENNSYLVANIA_RR, READING, B_AND_O, SHORT_LINE], 200),
    ],
)
def test_railroad_rent_by_count(owned, rent):
    h = land(PENNSYLVANIA_RR, start=10, dice=(2, 3), owner={sq: 1 for sq in owned})
    assert h.cash() == [1500 - rent, 1500 + rent]


def test_mortgaged_railroads_still_count():
    owned = {PENNSYLVANIA_RR: 1, READING: 1, B_AND_O: 1, SHORT_LINE: 1}
    h = land(PENNSYLVANIA_RR, start=10, dice=(2, 3), owner=owned, mortgaged=[READING, SHORT_LINE])
    assert h.cash() == [1300, 1700]


def test_one_utility_four_times_dice():
    h = land(ELECTRIC, start=5, dice=(3, 4), owner={ELECTRIC: 1})
    assert h.cash() == [1500 - 28, 1528]


def test_two_utilities_ten_times_dice():
    h = land(ELECTRIC, start=5, dice=(3, 4), owner={ELECTRIC: 1, WATER_WORKS: 1})
    assert h.cash() == [1430, 1570]


def test_two_utilities_one_mortgaged_still_ten_times():
    h = land(ELECTRIC, start=5, dice=(3, 4), owner={ELECTRIC: 1, WATER_WORKS: 1}, mortgaged=[WATER_WORKS])
    assert h.cash() == [1430, 1570]


def test_no_rent_to_oneself():
    h = land(BALTIC, start=0, dice=(1, 2), owner={BALTIC: 0, MEDITERRANEAN: 0}, houses={BALTIC: 3, MEDITERRANEAN: 3})
    assert h.cash() == [1500, 1500]
    assert not h.log.of("cash")
