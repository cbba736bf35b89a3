"""Chance and Community Chest: scripted order, every kind of card, reshuffles, jail cards."""

from __future__ import annotations

from models.state import BANK
from tests.engine.rules_helpers import (
    B_AND_O,
    BALTIC,
    BOARDWALK,
    CC3,
    CC_BANK_ERROR,
    CC_BIRTHDAY,
    CC_DOCTOR,
    CC_GO_TO_JAIL,
    CC_REPAIRS,
    CH_BACK3,
    CH_BOARDWALK,
    CH_CHAIRMAN,
    CH_DIVIDEND,
    CH_GO,
    CH_GO_TO_JAIL,
    CH_JAIL_FREE,
    CH_LOAN,
    CH_RAILROAD,
    CH_RAILROAD2,
    CH_READING,
    CH_REPAIRS,
    CH_SPEEDING,
    CH_ST_CHARLES,
    CH_UTILITY,
    CHANCE1,
    CONNECTICUT,
    ELECTRIC,
    INCOME_TAX,
    JAIL,
    MEDITERRANEAN,
    NEW_YORK,
    ORIENTAL,
    PENNSYLVANIA_RR,
    READING,
    ST_CHARLES,
    VERMONT,
    WATER_WORKS,
    ScriptedAgent,
    deck_order,
    make_game,
    make_state,
)


def chance_game(card, *, positions=(0, 0), dice=((3, 4),), n=2, **kw):
    """Player A rolls onto a Chance square and draws ``card`` first."""
    pos = list(positions) + [0] * (n - len(positions))
    state = make_state(n, positions=pos, **kw.pop("state", {}))
    return make_game(state, kw.pop("agents", None), dice=dice, decks={"chance": deck_order(card)}, **kw)


def test_decks_are_drawn_in_the_scripted_order():
    state = make_state(2)
    h = make_game(state, dice=[(3, 4), (3, 4)], decks={"chance": deck_order(CH_DIVIDEND, CH_SPEEDING)})
    h.turn(2)
    assert [e.data["card"] for e in h.log.of("card")] == [CH_DIVIDEND, CH_SPEEDING]
    assert h.cash() == [1550, 1485]


def test_advance_to_a_square_and_buy_it():
    agents = [ScriptedAgent(buy=True), ScriptedAgent()]
    h = chance_game(CH_BOARDWALK, agents=agents)
    h.turn()
    assert h.state.players[0].position == BOARDWALK
    assert h.state.owner[BOARDWALK] == 0
    assert h.cash() == [1100, 1500]


def test_advance_to_an_owned_square_pays_rent_and_salary():
    # 31 + 5 = 36 (Chance) -> St. Charles (11): passes Go, pays B $10.
    h = chance_game(CH_ST_CHARLES, positions=(31, 0), dice=[(2, 3)], state={"owner": {ST_CHARLES: 1}})
    h.turn()
    assert h.state.players[0].position == ST_CHARLES
    assert h.cash() == [1500 + 200 - 10, 1510]


def test_advance_to_reading_railroad_pays_normal_rent():
    # Chance 7 -> Reading (5) goes round the board: salary, then $25 (not doubled).
    h = chance_game(CH_READING, state={"owner": {READING: 1}})
    h.turn()
    assert h.state.players[0].position == READING
    assert h.cash() == [1500 + 200 - 25, 1525]


def test_nearest_railroad_pays_double_rent():
    # Chance 7 -> Pennsylvania RR (15); B owns 2 railroads: 2 x $50.
    h = chance_game(CH_RAILROAD, state={"owner": {PENNSYLVANIA_RR: 1, READING: 1}})
    h.turn()
    assert h.state.players[0].position == PENNSYLVANIA_RR
    assert h.cash() == [1400, 1600]


def test_nearest_railroad_single_railroad_owner():
    # Chance 22 -> B&O (25); B owns only it: 2 x $25.
    h = chance_game(CH_RAILROAD2, positions=(19, 0), dice=[(1, 2)], state={"owner": {B_AND_O: 1}})
    h.turn()
    assert h.state.players[0].position == B_AND_O
    assert h.cash() == [1450, 1550]


def test_nearest_railroad_unowned_is_offered_past_go():
    # Chance 36 -> Reading (5) passing Go: salary, then buy for $200.
    agents = [ScriptedAgent(buy=True), ScriptedAgent()]
    h = chance_game(CH_RAILROAD, positions=(31, 0), dice=[(2, 3)], agents=agents)
    h.turn()
    assert h.state.players[0].position == READING
    assert h.state.owner[READING] == 0
    assert h.cash() == [1500, 1500]
    assert agents[0].asked("buy") == [READING]


def test_nearest_utility_charges_ten_times_a_fresh_roll():
    # 19 + 3 = 22 (Chance) -> Water Works (28), B owns one utility: 10 x (3+4), not 4 x 3.
    h = chance_game(CH_UTILITY, positions=(19, 0), dice=[(1, 2), (3, 4)], state={"owner": {WATER_WORKS: 1}})
    h.turn()
    assert h.state.players[0].position == WATER_WORKS
    assert h.cash() == [1430, 1570]
    assert h.stream.remaining_rolls == 0
    rolls = h.log.of("roll")
    assert [r.data["dice"] for r in rolls] == [(1, 2), (3, 4)]


def test_nearest_utility_ten_times_even_with_both_utilities():
    h = chance_game(CH_UTILITY, dice=[(3, 4), (6, 5)], state={"owner": {ELECTRIC: 1, WATER_WORKS: 1}})
    h.turn()
    assert h.state.players[0].position == ELECTRIC
    assert h.cash() == [1390, 1610]


def test_nearest_utility_unowned_is_offered():
    agents = [ScriptedAgent(buy=True), ScriptedAgent()]
    h = chance_game(CH_UTILITY, agents=agents)
    h.turn()
    assert h.state.owner[ELECTRIC] == 0
    assert h.cash() == [1350, 1500]
    assert h.stream.remaining_rolls == 0  # no fresh roll when nothing is owed


def test_back_three_to_an_owned_street_pays_rent():
    # Chance 22 -> back 3 -> New York (19), B owns it: $16.
    h = chance_game(CH_BACK3, positions=(19, 0), dice=[(1, 2)], state={"owner": {NEW_YORK: 1}})
    h.turn()
    assert h.state.players[0].position == NEW_YORK
    assert h.cash() == [1484, 1516]


def test_back_three_from_36_draws_community_chest():
    state = make_state(2, positions=[31, 0])
    h = make_game(
        state,
        dice=[(2, 3)],
        decks={"chance": deck_order(CH_BACK3), "community_chest": deck_order(CC_BANK_ERROR)},
    )
    h.turn()
    assert h.state.players[0].position == CC3
    assert [(e.data["deck"], e.data["card"]) for e in h.log.of("card")] == [
        ("chance", CH_BACK3),
        ("community_chest", CC_BANK_ERROR),
    ]
    assert h.cash() == [1700, 1500]
    assert not h.log.cash("Go salary")


def test_back_three_onto_income_tax():
    h = chance_game(CH_BACK3)
    h.turn()
    assert h.state.players[0].position == INCOME_TAX
    assert h.cash()[0] == 1300


def test_community_chest_go_to_jail():
    state = make_state(2, positions=[14, 0])
    h = make_game(state, dice=[(1, 2)], decks={"community_chest": deck_order(CC_GO_TO_JAIL)})
    h.turn()
    a = h.state.players[0]
    assert a.in_jail and a.position == JAIL
    assert h.cash()[0] == 1500


def test_go_to_jail_card_on_a_double_ends_the_turn():
    h = make_game(make_state(2, positions=[5, 0]), dice=[(1, 1), (3, 4)], decks={"chance": deck_order(CH_GO_TO_JAIL)})
    h.turn()
    assert h.state.players[0].in_jail and h.state.players[0].position == JAIL
    assert h.stream.remaining_rolls == 1
    assert h.state.to_move == 1


BUILT = {
    # A: brown with hotels, light blue with 2 houses each (6 houses, 2 hotels).
    "owner": {MEDITERRANEAN: 0, BALTIC: 0, ORIENTAL: 0, VERMONT: 0, CONNECTICUT: 0},
    "houses": {MEDITERRANEAN: 5, BALTIC: 5, ORIENTAL: 2, VERMONT: 2, CONNECTICUT: 2},
}


def test_chance_repairs_25_per_house_100_per_hotel():
    h = chance_game(CH_REPAIRS, state=BUILT)
    h.turn()
    assert h.cash()[0] == 1500 - (6 * 25 + 2 * 100)


def test_community_chest_repairs_40_per_house_115_per_hotel():
    state = make_state(2, positions=[14, 0], **BUILT)
    h = make_game(state, dice=[(1, 2)], decks={"community_chest": deck_order(CC_REPAIRS)})
    h.turn()
    assert h.cash()[0] == 1500 - (6 * 40 + 2 * 115)


def test_repairs_without_buildings_cost_nothing():
    h = chance_game(CH_REPAIRS, state={"owner": {MEDITERRANEAN: 0, BALTIC: 0}})
    h.turn()
    assert h.cash() == [1500, 1500]


def test_birthday_collects_10_from_each_player():
    state = make_state(3, positions=[14, 0, 0])
    h = make_game(state, dice=[(1, 2)], decks={"community_chest": deck_order(CC_BIRTHDAY)})
    h.turn()
    assert h.cash() == [1520, 1490, 1490]


def test_chairman_pays_50_to_each_player():
    h = chance_game(CH_CHAIRMAN, n=3)
    h.turn()
    assert h.cash() == [1400, 1550, 1550]


def test_chairman_skips_bankrupt_players():
    state = make_state(3)
    state.players[2].bankrupt = True
    state.players[2].cash = 0
    h = make_game(state, dice=[(3, 4)], decks={"chance": deck_order(CH_CHAIRMAN)})
    h.turn()
    assert h.cash() == [1450, 1550, 0]


def test_fixed_payments_and_collections():
    state = make_state(2, positions=[0, 14])
    h = make_game(
        state,
        dice=[(3, 4), (1, 2)],
        decks={"chance": deck_order(CH_LOAN), "community_chest": deck_order(CC_DOCTOR)},
    )
    h.turn(2)
    assert h.cash() == [1650, 1450]


def test_deck_reshuffles_when_used_up():
    first = deck_order(CH_DIVIDEND)
    second = deck_order(CH_SPEEDING)
    h = make_game(make_state(2), dice=[(3, 4)], decks={"chance": [first, second]})
    deck = h.game.decks["chance"]
    # Use up the first shuffle but its last card through the engine's own deck ...
    drawn = [deck.draw() for _ in range(15)]
    assert drawn == first[:15]
    # ... A draws the 16th card, then the deck is empty.
    h.turn()
    assert h.log.of("card")[0].data["card"] == first[15]
    assert [deck.draw() for _ in range(16)] == second


def test_jail_card_leaves_the_deck_while_held_and_returns_when_used():
    # A draws the Chance Get Out of Jail Free card first.
    order = deck_order(CH_JAIL_FREE)
    agents = [ScriptedAgent(jail="card"), ScriptedAgent()]
    state = make_state(2)
    h = make_game(
        state,
        agents,
        dice=[(3, 4), (1, 2), (6, 5)],
        decks={"chance": [order, list(range(15)), list(range(16))]},
    )
    h.turn()
    a = h.state.players[0]
    assert a.jail_cards == 1 and a.position == CHANCE1
    deck = h.game.decks["chance"]
    assert deck.held == {CH_JAIL_FREE}
    rest = [deck.draw() for _ in range(15)]
    assert CH_JAIL_FREE not in rest
    # The reshuffle while it is held: 15 cards, the jail card left out.
    again = [deck.draw() for _ in range(15)]
    assert sorted(again) == [i for i in range(16) if i != CH_JAIL_FREE]
    # A goes to jail and uses the card: it goes back to the deck.
    h.turn()  # B
    a.position, a.in_jail = JAIL, True
    h.turn()  # A: card, then rolls (6,5) to 21
    assert a.jail_cards == 0 and not a.in_jail and a.position == 21
    assert deck.held == set()
    assert sorted(deck.draw() for _ in range(16)) == list(range(16))


def test_community_chest_jail_card_is_kept():
    state = make_state(2, positions=[14, 0])
    h = make_game(state, dice=[(1, 2)], decks={"community_chest": deck_order(4)})
    h.turn()
    assert h.state.players[0].jail_cards == 1
    assert h.game.held_cards[0] == [("community_chest", 4)]
    assert h.game.decks["community_chest"].held == {4}
    assert h.cash()[0] == 1500


def test_card_paths_leave_the_bank_unowned():
    h = chance_game(CH_GO)
    h.turn()
    assert all(o == BANK for o in h.state.owner)


def test_utility_card_fresh_double_gives_no_extra_roll():
    # The fresh roll (5, 5) only prices the rent: 10 x 10; the turn ends (the last roll is unused).
    h = chance_game(CH_UTILITY, dice=[(3, 4), (5, 5), (1, 2)], state={"owner": {ELECTRIC: 1}})
    h.turn()
    assert h.cash() == [1400, 1600]
    assert h.stream.remaining_rolls == 1
    assert h.state.to_move == 1
