"""Building: complete unmortgaged groups, evenness, hotels, bank supply, shortage
auctions, breaking hotels, selling back at half price."""

from __future__ import annotations

import pytest

from engine.rules.actions import Build, SellBuilding
from models.errors import IllegalActionError
from models.rules import Rules
from tests.engine.rules_helpers import (
    BALTIC,
    CONNECTICUT,
    MEDITERRANEAN,
    NORTH_CAROLINA,
    ORIENTAL,
    PACIFIC,
    PENNSYLVANIA_AVE,
    ST_CHARLES,
    STATES,
    VERMONT,
    VIRGINIA,
    ScriptedAgent,
    make_game,
    make_state,
)

NEUTRAL = (4, 6)  # Go -> Jail, just visiting
BROWN = {MEDITERRANEAN: 0, BALTIC: 0}
LIGHT_BLUE_B = {ORIENTAL: 1, VERMONT: 1, CONNECTICUT: 1}


def game_with_actions(actions, *, b_agent=None, **state_kw):
    """A acts ``actions`` at the start of its turn, then rolls a neutral roll."""
    agents = [ScriptedAgent(acts=[*actions, None]), b_agent or ScriptedAgent()]
    return make_game(make_state(2, **state_kw), agents, dice=[NEUTRAL])


def test_cannot_build_without_the_complete_group():
    h = game_with_actions([Build(MEDITERRANEAN)], owner={MEDITERRANEAN: 0, BALTIC: 1})
    with pytest.raises(IllegalActionError):
        h.turn()
    assert h.state.houses[MEDITERRANEAN] == 0 and h.cash() == [1500, 1500]


def test_cannot_build_on_a_group_with_a_mortgaged_lot():
    h = game_with_actions([Build(BALTIC)], owner=BROWN, mortgaged=[MEDITERRANEAN])
    with pytest.raises(IllegalActionError):
        h.turn()


def test_cannot_build_on_a_railroad():
    h = game_with_actions([Build(5)], owner={5: 0, 15: 0, 25: 0, 35: 0})
    with pytest.raises(IllegalActionError):
        h.turn()


def test_build_evenly_and_pay_list_price():
    h = game_with_actions([Build(MEDITERRANEAN), Build(BALTIC), Build(MEDITERRANEAN)], owner=BROWN)
    h.turn()
    assert h.state.houses[MEDITERRANEAN] == 2 and h.state.houses[BALTIC] == 1
    assert h.cash()[0] == 1500 - 3 * 50
    assert h.state.houses_in_bank() == 29
    assert [e.data["level"] for e in h.log.of("build")] == [1, 1, 2]


def test_uneven_build_is_refused():
    h = game_with_actions([Build(MEDITERRANEAN), Build(MEDITERRANEAN)], owner=BROWN)
    with pytest.raises(IllegalActionError):
        h.turn()
    assert h.state.houses[MEDITERRANEAN] == 1 and h.state.houses[BALTIC] == 0
    assert h.cash()[0] == 1450


def test_hotel_after_four_houses_returns_them_to_the_bank():
    h = game_with_actions([Build(MEDITERRANEAN)], owner=BROWN, houses={MEDITERRANEAN: 4, BALTIC: 4})
    assert h.state.houses_in_bank() == 24
    h.turn()
    assert h.state.houses[MEDITERRANEAN] == 5
    assert h.state.houses_in_bank() == 28
    assert h.state.hotels_in_bank() == 11
    assert h.cash()[0] == 1450


def test_hotel_needs_four_houses_on_every_lot():
    h = game_with_actions([Build(MEDITERRANEAN)], owner=BROWN, houses={MEDITERRANEAN: 4, BALTIC: 3})
    with pytest.raises(IllegalActionError):
        h.turn()


def test_house_supply_is_enforced():
    h = game_with_actions(
        [Build(MEDITERRANEAN), Build(BALTIC), Build(MEDITERRANEAN), Build(BALTIC)],
        owner=BROWN,
        rules=Rules(houses=3),
    )
    with pytest.raises(IllegalActionError, match="no house"):
        h.turn()
    assert h.state.houses[MEDITERRANEAN] == 2 and h.state.houses[BALTIC] == 1
    assert h.cash()[0] == 1350


def test_hotel_supply_is_enforced():
    h = game_with_actions(
        [Build(BALTIC)], owner=BROWN, houses={MEDITERRANEAN: 5, BALTIC: 4}, rules=Rules(hotels=1)
    )
    with pytest.raises(IllegalActionError, match="no hotel"):
        h.turn()


# -- shortage auctions ------------------------------------------------------------
def shortage(a_bid, b_bid, *, houses=1, b_place=(ORIENTAL,), b_owner=None, b_cash=1500):
    """A owns brown, B light blue (or ``b_owner``); the bank holds ``houses`` houses.
    A asks for a house on Mediterranean."""
    owner = {**BROWN, **(b_owner if b_owner is not None else LIGHT_BLUE_B)}
    agents = [
        ScriptedAgent(acts=[Build(MEDITERRANEAN), None], building_bid=a_bid),
        ScriptedAgent(building_bid=b_bid, place=list(b_place)),
    ]
    state = make_state(2, cash=[1500, b_cash], owner=owner, rules=Rules(houses=houses))
    return make_game(state, agents, dice=[NEUTRAL])


def test_shortage_auction_rival_wins_and_places_the_house():
    h = shortage(10, 30)
    h.turn()
    # Premiums 10 and 30: B wins, pays 10 + 1 over the list price and chooses the lot.
    assert h.state.houses[MEDITERRANEAN] == 0
    assert h.state.houses[ORIENTAL] == 1
    assert h.cash() == [1500, 1500 - 50 - 11]
    ev = h.log.of("building_auction")
    assert len(ev) == 1 and ev[0].player == 1 and ev[0].data["premium"] == 11 and ev[0].data["requester"] == 0
    assert h.agents[1].asked("place_building") == ["house"]


def test_shortage_auction_tie_goes_to_the_requester():
    h = shortage(20, 20)
    h.turn()
    assert h.state.houses[MEDITERRANEAN] == 1
    assert h.state.houses[ORIENTAL] == 0
    assert h.cash() == [1500 - 50 - 20, 1500]


def test_shortage_auction_requester_outbids():
    h = shortage(40, 15)
    h.turn()
    assert h.state.houses[MEDITERRANEAN] == 1
    assert h.cash() == [1500 - 50 - 16, 1500]


def test_shortage_rival_not_interested_list_price():
    h = shortage(None, None)
    h.turn()
    assert h.state.houses[MEDITERRANEAN] == 1
    assert h.cash() == [1450, 1500]
    assert h.agents[1].asked("building_bid") == ["house"]


def test_no_shortage_no_auction():
    h = shortage(10, 30, houses=2)
    h.turn()
    assert h.state.houses[MEDITERRANEAN] == 1
    assert h.cash() == [1450, 1500]
    assert h.agents[1].asked("building_bid") == []
    assert not h.log.of("building_auction")


def test_shortage_auction_winner_cannot_overspend():
    # B ($300) can build on brown ($50) and green ($200). Its premium is capped at 300 - 200 = 100
    # (the dearest lot it could choose), so placing the house on Pacific stays affordable.
    owner = {ORIENTAL: 0, VERMONT: 0, CONNECTICUT: 0, MEDITERRANEAN: 1, BALTIC: 1, PACIFIC: 1, NORTH_CAROLINA: 1, PENNSYLVANIA_AVE: 1}
    agents = [
        ScriptedAgent(acts=[Build(ORIENTAL), None], building_bid=100),
        ScriptedAgent(building_bid=10_000, place=[PACIFIC]),
    ]
    state = make_state(2, cash=[1500, 300], owner=owner, rules=Rules(houses=1))
    h = make_game(state, agents, dice=[NEUTRAL])
    h.turn()  # the InvariantChecker raises on negative cash
    assert h.state.players[1].cash >= 0
    # A bid 100, B's bid is capped at 100: a tie goes to the requester A at premium 100.
    assert h.state.houses[ORIENTAL] == 1 and h.state.houses[PACIFIC] == 0


# -- selling ------------------------------------------------------------------------
def test_houses_sell_back_at_half_price():
    pink = {ST_CHARLES: 0, STATES: 0, VIRGINIA: 0}
    h = game_with_actions([SellBuilding(VIRGINIA)], owner=pink, houses={ST_CHARLES: 2, STATES: 2, VIRGINIA: 2})
    h.turn()
    assert h.state.houses[VIRGINIA] == 1
    assert h.cash()[0] == 1550  # half of $100
    assert h.state.houses_in_bank() == 32 - 5


def test_selling_must_be_even():
    h = game_with_actions([SellBuilding(BALTIC)], owner=BROWN, houses={MEDITERRANEAN: 2, BALTIC: 1})
    with pytest.raises(IllegalActionError):
        h.turn()


def test_hotel_breaks_into_four_houses_when_the_bank_has_them():
    h = game_with_actions([SellBuilding(BALTIC)], owner=BROWN, houses={MEDITERRANEAN: 5, BALTIC: 5})
    h.turn()
    assert h.state.houses[BALTIC] == 4 and h.state.houses[MEDITERRANEAN] == 5
    assert h.cash()[0] == 1525
    assert h.state.houses_in_bank() == 28 and h.state.hotels_in_bank() == 11


def test_hotel_break_under_house_shortage_sells_the_group_down_evenly():
    # Bank: 3 houses. Baltic to L with Mediterranean <= L+1 needing <= 3 houses: L=1 (1 + 2).
    h = game_with_actions(
        [SellBuilding(BALTIC)], owner=BROWN, houses={MEDITERRANEAN: 5, BALTIC: 5}, rules=Rules(houses=3)
    )
    h.turn()
    assert h.state.houses[BALTIC] == 1 and h.state.houses[MEDITERRANEAN] == 2
    assert h.cash()[0] == 1500 + (4 + 3) * 25
    assert h.state.houses_in_bank() == 0
    assert h.log.of("sell_building")[0].data["levels"] == {BALTIC: 1, MEDITERRANEAN: 2}


def test_hotel_break_with_no_house_in_the_bank_sells_to_bare_land():
    h = game_with_actions(
        [SellBuilding(BALTIC)], owner=BROWN, houses={MEDITERRANEAN: 5, BALTIC: 5}, rules=Rules(houses=0)
    )
    h.turn()
    assert h.state.houses[BALTIC] == 0 and h.state.houses[MEDITERRANEAN] == 0
    assert h.cash()[0] == 1500 + 10 * 25


def test_shortage_auction_rivals_tie_in_turn_order_from_the_requester():
    # Three players able to build, one house in the bank. B and C tie at 25 over A's 5:
    # B is nearer to the requester A; B pays 25 (its own maximum caps the price).
    owner = {**BROWN, **LIGHT_BLUE_B, ST_CHARLES: 2, STATES: 2, VIRGINIA: 2}
    agents = [
        ScriptedAgent(acts=[Build(MEDITERRANEAN), None], building_bid=5),
        ScriptedAgent(building_bid=25, place=[VERMONT]),
        ScriptedAgent(building_bid=25, place=[VIRGINIA]),
    ]
    state = make_state(3, owner=owner, rules=Rules(houses=1))
    h = make_game(state, agents, dice=[NEUTRAL])
    h.turn()
    assert h.state.houses[VERMONT] == 1
    assert h.state.houses[VIRGINIA] == 0 and h.state.houses[MEDITERRANEAN] == 0
    assert h.cash() == [1500, 1500 - 50 - 25, 1500]
    assert h.agents[2].asked("place_building") == []


def test_hotel_shortage_auction():
    # One hotel in the bank; A (brown 4/4) and B (light blue 4/4/4) can both build one.
    owner = {**BROWN, **LIGHT_BLUE_B}
    houses = {MEDITERRANEAN: 4, BALTIC: 4, ORIENTAL: 4, VERMONT: 4, CONNECTICUT: 4}
    agents = [
        ScriptedAgent(acts=[Build(BALTIC), None], building_bid=0),
        ScriptedAgent(building_bid=60, place=[CONNECTICUT]),
    ]
    state = make_state(2, owner=owner, houses=houses, rules=Rules(hotels=1))
    h = make_game(state, agents, dice=[NEUTRAL])
    h.turn()
    assert h.state.houses[CONNECTICUT] == 5 and h.state.houses[BALTIC] == 4
    assert h.cash() == [1500, 1500 - 50 - 1]  # A's premium 0 -> B pays 0 + 1
    assert h.agents[1].asked("building_bid") == ["hotel"]
    assert h.state.hotels_in_bank() == 0
    assert h.state.houses_in_bank() == 32 - 20 + 4


@pytest.mark.parametrize(
    ("owner", "sold", "bank", "expected", "cash_gain"),
    [
        # Brown hotels, 2 houses in the bank: Baltic -> 1 and Mediterranean -> 1 uses exactly 2.
        (BROWN, BALTIC, 2, {MEDITERRANEAN: 1, BALTIC: 1}, 8 * 25),
        # Pink hotels, 3 houses in the bank: 1/1/1 uses exactly 3.
        ({ST_CHARLES: 0, STATES: 0, VIRGINIA: 0}, VIRGINIA, 3, {ST_CHARLES: 1, STATES: 1, VIRGINIA: 1}, 12 * 50),
    ],
)
def test_hotel_break_under_shortage_keeps_the_highest_even_levels(owner, sold, bank, expected, cash_gain):
    houses = {sq: 5 for sq in owner}
    h = game_with_actions([SellBuilding(sold)], owner=owner, houses=houses, rules=Rules(houses=bank))
    h.turn()
    assert {sq: h.state.houses[sq] for sq in owner} == expected
    assert h.cash()[0] == 1500 + cash_gain
