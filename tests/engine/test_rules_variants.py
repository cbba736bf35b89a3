"""The rule variants of :class:`models.rules.Rules`, played by the reference engine.

Each test scripts the dice and cards of a short game and checks the engine's
moves and payments against the rule as written in ``models/rules.py`` and the
module docstring of :mod:`engine.rules.game`, by hand. Every game runs with the
:class:`engine.rules.invariants.InvariantChecker` (which also checks that the
players' cash, the Free Parking pot and a finite bank add up to the money at
the start).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.rules.actions import Build, Mortgage, SellBuilding
from engine.rules.game import Game
from engine.rules.invariants import InvariantChecker
from engine.rules.streams import SeededStream
from models.errors import InvalidStateError
from models.io import load_state, state_to_dict
from models.rules import PRESETS, Rules
from models.state import BANK, GameState
from solver.agents.strategic import StrategicTradeAgent
from tests.engine.rules_helpers import (
    BALTIC,
    CC_GO,
    CH_DIVIDEND,
    CH_GO,
    CH_JAIL_FREE,
    CHANCE1,
    CONNECTICUT,
    GO,
    JAIL,
    MEDITERRANEAN,
    ORIENTAL,
    VERMONT,
    ScriptedAgent,
    deck_order,
    make_game,
    make_state,
)

R0 = Rules()


def rolls(h) -> list[tuple[int, ...]]:
    return [e.data["dice"] for e in h.log.of("roll")]


# -- doubles -------------------------------------------------------------------
def test_without_doubles_again_a_double_is_an_ordinary_roll():
    h = make_game(make_state(2, rules=replace(R0, doubles_again=False)), dice=[(3, 3), (1, 2)])
    h.turn()
    assert rolls(h) == [(3, 3)] and h.state.players[0].position == 6 and h.state.to_move == 1
    h.turn()
    assert h.state.players[1].position == 3


def test_doubles_to_jail_zero_never_jails():
    h = make_game(make_state(2, rules=replace(R0, doubles_to_jail=0)), dice=[(3, 3), (4, 4), (5, 5), (2, 2), (1, 2)])
    h.turn()  # Oriental, Virginia, Illinois, Water Works, Pacific: no card on the way
    assert not h.log.of("jail") and h.state.players[0].position == 6 + 8 + 10 + 4 + 3


@pytest.mark.parametrize(("again", "n", "dice", "jailed_after"), [(True, 2, [(2, 2), (3, 3)], 2), (False, 1, [(2, 2)], 1)])
def test_doubles_to_jail_counts_the_run(again, n, dice, jailed_after):
    h = make_game(make_state(2, rules=replace(R0, doubles_again=again, doubles_to_jail=n)), dice=dice)
    h.turn()
    assert len(rolls(h)) == jailed_after and h.state.players[0].in_jail and h.state.players[0].position == JAIL
    assert len(h.log.of("move")) == jailed_after - 1  # the jailing roll does not move


# -- jail ----------------------------------------------------------------------
def test_one_jail_turn_paying_release_pays_and_moves_by_the_roll():
    h = make_game(make_state(2, in_jail={0: 0}, rules=replace(R0, max_jail_rolls=1)), dice=[(1, 2)])
    h.turn()
    assert h.cash()[0] == 1500 - 50 and h.state.players[0].position == JAIL + 3 and not h.state.players[0].in_jail


def test_without_jail_doubles_only_the_last_paying_turn_rolls_and_a_double_does_not_free():
    state = make_state(2, in_jail={0: 0}, rules=replace(R0, jail_doubles=False))
    h = make_game(state, dice=[(1, 2), (1, 3)])
    h.turn(2)  # A sits out (no roll), B rolls 3
    assert rolls(h) == [(1, 2)] and h.state.players[0].jail_turns == 1
    h.turn(2)  # A sits out again, B rolls 4
    assert rolls(h) == [(1, 2), (1, 3)] and h.state.players[0].jail_turns == 2 and h.state.players[0].in_jail


def test_jail_doubles_off_last_turn_pays_and_moves_by_a_double_without_extra_roll():
    state = make_state(2, in_jail={0: 2}, rules=replace(R0, jail_doubles=False))
    h = make_game(state, dice=[(3, 3)])
    h.turn()
    assert rolls(h) == [(3, 3)] and h.cash()[0] == 1450 and h.state.players[0].position == JAIL + 6
    assert h.state.to_move == 1  # no extra roll after leaving jail


def test_free_release_sits_out_then_leaves_without_paying_or_moving():
    rules = PRESETS["no-doubles"]
    h = make_game(make_state(2, in_jail={0: 0}, rules=rules), dice=[(2, 3), (1, 2)])
    h.turn()  # A's jail turn: no roll, released
    assert rolls(h) == [] and not h.state.players[0].in_jail and h.state.players[0].position == JAIL
    assert h.cash()[0] == 1500 and [e.data["how"] for e in h.log.of("leave_jail")] == ["served"]
    h.turn(2)  # B rolls (2, 3); A's ordinary turn (1, 2)
    assert h.state.players[0].position == JAIL + 3


def test_free_release_with_jail_doubles_a_double_still_frees_early():
    rules = replace(R0, jail_release="free", max_jail_rolls=2)
    h = make_game(make_state(2, in_jail={0: 0}, rules=rules), dice=[(1, 2), (4, 5), (2, 2)])
    h.turn()  # a failed roll: stays
    assert h.state.players[0].in_jail and h.state.players[0].jail_turns == 1
    h.turn()  # B
    h.turn()  # a double: out by doubles, moves 4
    assert [e.data["how"] for e in h.log.of("leave_jail")] == ["doubles"] and h.state.players[0].position == JAIL + 4


# -- cards ---------------------------------------------------------------------
def test_replacement_draws_can_repeat_a_card_and_skip_held_cards():
    rules = replace(R0, card_draw="replacement")
    state = make_state(3, positions=[CHANCE1 - 3, CHANCE1 - 3, CHANCE1 - 3], jail_cards={2: 1}, rules=rules)
    # C holds Chance's Get Out of Jail Free card (index 8): draws are indices into the 15 others.
    h = make_game(state, dice=[(1, 2), (1, 2)], draws={"chance": [CH_DIVIDEND, CH_DIVIDEND]})
    h.turn(2)
    assert [e.data["card"] for e in h.log.of("card")] == [CH_DIVIDEND, CH_DIVIDEND]
    assert h.cash()[:2] == [1550, 1550]
    h2 = make_game(
        make_state(2, positions=[CHANCE1 - 3, 0], jail_cards={1: 1}, rules=rules), dice=[(1, 2)], draws={"chance": [CH_JAIL_FREE]}
    )
    h2.turn()
    assert [e.data["card"] for e in h2.log.of("card")] == [CH_JAIL_FREE + 1]  # the 9th free card is "back 3"


# -- Free Parking and Go ------------------------------------------------------
def test_taxes_pot_collects_only_taxes_and_is_reseeded():
    rules = replace(R0, free_parking="taxes", free_parking_seed=100)
    state = GameState.new_game(["A", "B"], rules=rules)
    assert state.pot == 100
    state.players[1].in_jail, state.players[1].position = True, JAIL
    h = make_game(state, [ScriptedAgent(), ScriptedAgent(jail="pay")], dice=[(1, 3), (4, 6), (6, 6), (4, 6)])
    h.turn()  # A: Income Tax $200 into the pot
    assert h.state.pot == 300
    h.turn()  # B pays the $50 fine (not into the pot) and rolls 10: Free Parking
    assert h.state.pot == 100 and h.cash()[1] == 1500 - 50 + 300
    assert [(e.data["frm"], e.data["to"], e.data["amount"]) for e in h.log.cash("Free Parking pot")] == [(None, 1, 300)]


def test_bank_pot_takes_fines_cards_and_repairs():
    rules = replace(R0, free_parking="bank")
    state = make_state(2, in_jail={1: 0}, rules=rules)
    h = make_game(state, [ScriptedAgent(), ScriptedAgent(jail="pay")], dice=[(1, 3), (1, 2)])
    h.turn(2)
    assert h.state.pot == 200 + 50


@pytest.mark.parametrize(("bonus", "expected"), [(False, 200), (True, 400)])
def test_go_landing_bonus_by_roll_and_by_card(bonus, expected):
    rules = replace(R0, go_landing_bonus=bonus)
    h = make_game(make_state(2, positions=[35, 0], rules=rules), dice=[(2, 3)])
    h.turn()
    assert h.state.players[0].position == GO and h.cash()[0] == 1500 + expected
    h = make_game(make_state(2, positions=[36, 0], rules=rules), dice=[(2, 3)])
    h.turn()  # passes Go to Ventnor... no: 36+5 = 41 -> square 1, a pass, never the bonus
    assert h.state.players[0].position == MEDITERRANEAN and h.cash()[0] == 1500 + 200
    h = make_game(make_state(2, positions=[CHANCE1 - 3, 0], rules=rules), dice=[(1, 2)], decks={"chance": deck_order(CH_GO)})
    h.turn()
    assert h.state.players[0].position == GO and h.cash()[0] == 1500 + expected


def test_go_landing_bonus_card_from_community_chest():
    rules = replace(R0, go_landing_bonus=True)
    h = make_game(make_state(2, rules=rules), dice=[(1, 1), (3, 4)], decks={"community_chest": deck_order(CC_GO)})
    h.turn()  # (1,1) -> CC: Advance to Go (+400), double: roll again (3,4) -> 7 Chance
    assert h.log.cash("Go landing bonus") and h.cash()[0] >= 1500 + 400


# -- buying and building -------------------------------------------------------
def test_without_auctions_a_declined_lot_stays_with_the_bank():
    rules = replace(R0, auctions=False)
    h = make_game(make_state(2, rules=rules), [ScriptedAgent(buy=False), ScriptedAgent(auction=100)], dice=[(1, 2)])
    h.turn()
    assert h.state.owner[BALTIC] == BANK and not h.log.of("auction")
    assert [(e.player, e.data["square"]) for e in h.log.of("declined")] == [(0, BALTIC)]
    assert h.agents[1].asked("auction_max") == []


def test_without_auctions_a_bankrupt_s_lots_return_to_the_bank_unsold():
    rules = replace(R0, auctions=False)
    state = make_state(2, cash=[10, 1500], owner={MEDITERRANEAN: 0, VERMONT: 0}, rules=rules)
    h = make_game(state, [ScriptedAgent(), ScriptedAgent(auction=500)], dice=[(1, 3)])
    h.turn()  # Income Tax $200: bankrupt to the bank
    assert h.state.players[0].bankrupt and h.state.owner[MEDITERRANEAN] == BANK and h.state.owner[VERMONT] == BANK
    assert not h.log.of("auction")


def test_auction_only_never_offers():
    rules = replace(R0, auction_only=True)
    h = make_game(make_state(2, rules=rules), [ScriptedAgent(buy=True, auction=70), ScriptedAgent(auction=10)], dice=[(1, 2)])
    h.turn()
    assert h.agents[0].asked("buy") == [] and h.state.owner[BALTIC] == 0 and h.cash()[0] == 1500 - 11


def test_uneven_building_and_selling_without_the_even_rule():
    rules = replace(R0, even_building=False)
    owner = {ORIENTAL: 0, VERMONT: 0, CONNECTICUT: 0}
    acts = [Build(ORIENTAL), Build(ORIENTAL), Build(ORIENTAL), Build(ORIENTAL), Build(ORIENTAL), SellBuilding(ORIENTAL), None]
    h = make_game(make_state(2, owner=owner, rules=rules), [ScriptedAgent(acts=acts), ScriptedAgent()], dice=[(1, 2)])
    h.turn()
    assert [h.state.houses[q] for q in (ORIENTAL, VERMONT, CONNECTICUT)] == [4, 0, 0]
    assert [e.data["levels"] for e in h.log.of("sell_building")] == [{ORIENTAL: 4}]
    with pytest.raises(Exception, match="uneven building"):
        make_game(make_state(2, owner=owner), [ScriptedAgent(acts=[Build(ORIENTAL), Build(ORIENTAL)]), ScriptedAgent()], dice=[(1, 2)]).turn()


# -- the bank and the end --------------------------------------------------------
def test_a_finite_bank_pays_what_it_holds_and_takes_payments():
    rules = replace(R0, bank_cash=1000)
    state = make_state(2, positions=[38, 0], owner={BALTIC: 0}, rules=rules)
    state.bank_cash = 120
    h = make_game(state, [ScriptedAgent(acts=[Mortgage(BALTIC)]), ScriptedAgent()], dice=[(2, 3), (1, 3)])
    h.turn()  # A mortgages Baltic ($30 of the bank's $120), then passes Go: $90 left of $200
    assert [e.data["amount"] for e in h.log.cash("mortgage")] == [30]
    assert [e.data["amount"] for e in h.log.cash("Go salary")] == [90] and h.state.bank_cash == 0
    h.turn()  # B: Income Tax $200 to the bank
    assert h.state.bank_cash == 200


def test_cash_target_ends_the_game_at_the_end_of_the_turn_won_by_net_worth():
    rules = replace(R0, cash_target=1700)
    h = make_game(make_state(2, cash=[1600, 1500], positions=[35, 0], rules=rules), dice=[(2, 3)])
    h.turn()  # Short Line to Go: $1,800
    assert h.game.over and h.game.result.reason == "cash_target" and h.game.result.winner == "A"
    assert h.state.players[0].position == GO


def test_round_limit_ends_the_game_by_net_worth():
    rules = replace(R0, round_limit=1)
    state = make_state(2, cash=[1500, 1600], rules=rules)
    h = make_game(state, dice=[(1, 3), (2, 4)])
    h.turn(2)
    assert h.game.over and h.game.result.reason == "round_limit" and h.game.result.winner == "B"


# -- whole games and the state format ---------------------------------------------
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_preset_plays_whole_games_with_the_invariants(name):
    rules = PRESETS[name]
    ends = set()
    for seed in range(3):
        state = GameState.new_game(["A", "B", "C", "D"], rules=rules)
        checker = InvariantChecker()
        agents = [StrategicTradeAgent(seed * 10 + i) for i in range(4)]
        game = Game(state, agents, SeededStream(seed), max_rounds=300, observers=[checker])
        result = game.play()
        ends.add(result.reason)
        assert checker.checks > 100
        assert load_state(state_to_dict(state)) == state  # the final state is a valid file
    if name == "no-doubles":
        assert "cash_target" in ends or "bankruptcy" in ends
    if name == "short-game":
        assert ends <= {"round_limit", "bankruptcy"}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_round_trip_through_the_state_format(name):
    state = GameState.new_game(["A", "B"], rules=PRESETS[name])
    doc = state_to_dict(state)
    if name == "standard-us":
        assert doc["format"] == "monopoly-state/1" and "rules" not in doc
    else:
        assert doc["rules"] == {"preset": name}
    assert load_state(doc) == state
    custom = replace(PRESETS[name], go_salary=300)
    state = GameState.new_game(["A", "B"], rules=custom)
    assert load_state(state_to_dict(state)).rules == custom


def test_a_preset_with_overrides_in_a_file():
    doc = {"format": "monopoly-state/2", "rules": {"preset": "no-doubles", "cash_target": 5000}, "players": [{"name": "A", "cash": 1500}, {"name": "B", "cash": 1500}]}
    state = load_state(doc)
    assert state.rules == replace(PRESETS["no-doubles"], cash_target=5000) and state.bank_cash == PRESETS["no-doubles"].bank_cash


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"format": "monopoly-state/1", "rules": {"card_draw": "replacement"}}, "rules.card_draw", "needs format"),
        ({"rules": {"preset": "monopoly-junior"}}, "rules.preset", "unknown preset"),
        ({"rules": {"auctions": False, "auction_only": True}}, "rules", "auction_only needs auctions"),
        ({"rules": {"free_parking": "everything"}}, "rules.free_parking", "one of"),
        ({"rules": {"max_jail_rolls": 4}}, "rules.max_jail_rolls", "maximum 3"),
        ({"pot": 50}, "pot", "no pot"),
        ({"bank_cash": 50}, "bank_cash", "absent"),
        ({"rules": {"doubles_again": False}, "phase": "rolled", "doubles_rolled": 1}, "doubles_rolled", ""),
        ({"rules": {"bank_cash": 100}, "bank_cash": None}, "bank_cash", "integer"),
        ({"rules": {"doubles_to_jail": 0, "dice": {"count": 2, "sides": 2, "weights": [0, 1]}}}, "rules", "endless"),
    ],
)
def test_variant_fields_are_checked(change, field, words):
    doc = {"format": "monopoly-state/2", "players": [{"name": "A", "cash": 1500}, {"name": "B", "cash": 1500}], **change}
    with pytest.raises(InvalidStateError) as info:
        load_state(doc)
    assert info.value.field == field and words in str(info.value)


def test_the_json_schema_follows_format_2():
    import jsonschema

    from models.io import state_schema

    validator = jsonschema.Draft202012Validator(state_schema())
    every = {
        "doubles_again": False, "doubles_to_jail": 0, "max_jail_rolls": 1, "jail_doubles": False, "jail_release": "free",
        "card_draw": "replacement", "free_parking": "taxes", "free_parking_seed": 100, "go_landing_bonus": True,
        "auctions": True, "auction_only": True, "even_building": False, "bank_cash": 10_000, "cash_target": 5_000, "round_limit": 80,
    }  # fmt: skip
    state = GameState.new_game(["A", "B"], rules=Rules(**every))
    docs = [state_to_dict(state)] + [state_to_dict(GameState.new_game(["A", "B"], rules=r)) for r in PRESETS.values()]
    for doc in docs:
        assert validator.is_valid(doc), doc
        assert load_state(doc) is not None
    assert set(every) - {"auctions"} == set(docs[0]["rules"])  # auctions is at its default and docs[0]["pot"] == 100 and docs[0]["bank_cash"] == 10_000
    old = dict(docs[0], format="monopoly-state/1")
    assert not validator.is_valid(old)
    with pytest.raises(InvalidStateError, match="needs format"):
        load_state(old)
