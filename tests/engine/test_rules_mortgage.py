"""Mortgages: half price, lifting at value + 10% (rounded up), none under buildings."""

from __future__ import annotations

import pytest

from engine.rules.actions import Build, Mortgage, Unmortgage
from models.errors import IllegalActionError
from tests.engine.rules_helpers import (
    BALTIC,
    BOARDWALK,
    ELECTRIC,
    MEDITERRANEAN,
    READING,
    ScriptedAgent,
    make_game,
    make_state,
)

NEUTRAL = (4, 6)


def game_with_actions(actions, **state_kw):
    agents = [ScriptedAgent(acts=[*actions, None]), ScriptedAgent()]
    return make_game(make_state(2, **state_kw), agents, dice=[NEUTRAL])


def test_mortgage_pays_half_the_price():
    h = game_with_actions([Mortgage(BOARDWALK), Mortgage(ELECTRIC)], owner={BOARDWALK: 0, ELECTRIC: 0})
    h.turn()
    assert h.state.mortgaged[BOARDWALK] and h.state.mortgaged[ELECTRIC]
    assert h.cash()[0] == 1500 + 200 + 75
    assert [e.data["square"] for e in h.log.of("mortgage")] == [BOARDWALK, ELECTRIC]


def test_lifting_costs_value_plus_ten_percent_rounded_up():
    h = game_with_actions([Unmortgage(ELECTRIC)], owner={ELECTRIC: 0}, mortgaged=[ELECTRIC])
    h.turn()
    assert not h.state.mortgaged[ELECTRIC]
    assert h.cash()[0] == 1500 - 83  # 75 + ceil(7.5)


@pytest.mark.parametrize(("square", "cost"), [(BOARDWALK, 220), (MEDITERRANEAN, 33), (READING, 110)])
def test_lifting_costs(square, cost):
    h = game_with_actions([Unmortgage(square)], owner={square: 0}, mortgaged=[square])
    h.turn()
    assert h.cash()[0] == 1500 - cost


def test_mortgage_then_lift_round_trip_costs_the_interest():
    h = game_with_actions([Mortgage(BOARDWALK), Unmortgage(BOARDWALK)], owner={BOARDWALK: 0})
    h.turn()
    assert not h.state.mortgaged[BOARDWALK]
    assert h.cash()[0] == 1500 + 200 - 220


def test_cannot_lift_without_the_cash():
    h = game_with_actions([Unmortgage(ELECTRIC)], cash=[82, 1500], owner={ELECTRIC: 0}, mortgaged=[ELECTRIC])
    with pytest.raises(IllegalActionError):
        h.turn()


def test_cannot_mortgage_a_lot_of_a_group_with_buildings():
    # Baltic has a house; Mediterranean itself is bare but its group is built.
    h = game_with_actions(
        [Mortgage(MEDITERRANEAN)], owner={MEDITERRANEAN: 0, BALTIC: 0}, houses={BALTIC: 1}
    )
    with pytest.raises(IllegalActionError):
        h.turn()
    assert not h.state.mortgaged[MEDITERRANEAN]


def test_cannot_mortgage_twice_or_anothers_property():
    h = game_with_actions([Mortgage(BOARDWALK)], owner={BOARDWALK: 1})
    with pytest.raises(IllegalActionError):
        h.turn()
    h = game_with_actions([Mortgage(BOARDWALK)], owner={BOARDWALK: 0}, mortgaged=[BOARDWALK])
    with pytest.raises(IllegalActionError):
        h.turn()


def test_mortgaged_lot_blocks_building_until_lifted():
    h = game_with_actions(
        [Unmortgage(MEDITERRANEAN), Build(BALTIC)], owner={MEDITERRANEAN: 0, BALTIC: 0}, mortgaged=[MEDITERRANEAN]
    )
    h.turn()
    assert h.state.houses[BALTIC] == 1
    assert h.cash()[0] == 1500 - 33 - 50
