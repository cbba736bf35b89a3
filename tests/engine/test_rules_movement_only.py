"""Movement-only mode: dice, doubles, jail and card movement; no money, no purchases,
cards drawn with replacement from ``stream.draw``."""

from __future__ import annotations

from models.state import BANK
from tests.engine.rules_helpers import (
    BALTIC,
    CH_BACK3,
    CH_GO,
    CH_JAIL_FREE,
    CHANCE1,
    GO,
    INCOME_TAX,
    JAIL,
    MEDITERRANEAN,
    ScriptedAgent,
    make_game,
    make_state,
)


def test_no_purchase_no_rent_no_salary_no_tax():
    agents = [ScriptedAgent(buy=True, auction=100), ScriptedAgent(buy=True, auction=100)]
    state = make_state(2, positions=[0, 36], owner={MEDITERRANEAN: 1, BALTIC: 1}, houses={MEDITERRANEAN: 5, BALTIC: 5})
    h = make_game(state, agents, dice=[(1, 2), (3, 5)], movement_only=True)
    h.turn()  # A: Go -> Baltic (hotel of B)
    h.turn()  # B: 36 -> 4 (passes Go, Income Tax)
    assert h.state.players[0].position == BALTIC
    assert h.state.players[1].position == INCOME_TAX
    assert h.cash() == [1500, 1500]
    assert not h.log.of("cash")
    assert agents[0].asked("buy") == [] and agents[0].asked("auction_max") == []


def test_unowned_property_is_not_offered():
    agents = [ScriptedAgent(buy=True, auction=100), ScriptedAgent(auction=100)]
    h = make_game(make_state(2), agents, dice=[(1, 2)], movement_only=True)
    h.turn()
    assert h.state.owner[BALTIC] == BANK
    assert not h.log.of("buy") and not h.log.of("auction")


def test_cards_are_drawn_with_replacement_from_the_stream():
    state = make_state(3)
    h = make_game(
        state,
        dice=[(3, 4)] * 3,
        draws={"chance": [CH_JAIL_FREE, CH_JAIL_FREE, CH_GO]},
        decks={"chance": [[99]]},  # a shuffle would fail: it must not happen
        movement_only=True,
    )
    h.turn(3)
    assert [e.data["card"] for e in h.log.of("card")] == [CH_JAIL_FREE, CH_JAIL_FREE, CH_GO]
    assert [p.position for p in h.state.players] == [CHANCE1, CHANCE1, GO]
    assert all(p.jail_cards == 0 for p in h.state.players)  # jail cards are not kept
    assert h.cash() == [1500, 1500, 1500]


def test_card_movement_still_applies():
    h = make_game(make_state(2), dice=[(3, 4)], draws={"chance": [CH_BACK3]}, movement_only=True)
    h.turn()
    assert h.state.players[0].position == INCOME_TAX
    assert h.cash() == [1500, 1500]


def test_doubles_and_third_double_jail_still_apply():
    h = make_game(make_state(2), dice=[(3, 3), (4, 4), (2, 2)], movement_only=True)
    h.turn()
    assert h.state.players[0].in_jail and h.state.players[0].position == JAIL


def test_jail_fine_moves_no_money():
    agents = [ScriptedAgent(jail="pay"), ScriptedAgent()]
    h = make_game(make_state(2, cash=[0, 0], in_jail={0: 0}), agents, dice=[(1, 2)], movement_only=True)
    h.turn()
    a = h.state.players[0]
    assert not a.in_jail and a.position == 13 and a.cash == 0


def test_third_failed_jail_roll_moves_without_paying():
    h = make_game(make_state(2, cash=[0, 0], in_jail={0: 2}), dice=[(1, 2)], movement_only=True)
    h.turn()
    a = h.state.players[0]
    assert not a.in_jail and a.position == 13 and a.cash == 0
