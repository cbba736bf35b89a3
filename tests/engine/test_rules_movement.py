"""Rules of movement: 2d6, doubles, the third double, loaded dice, Go salary, taxes."""

from __future__ import annotations

import numpy as np

from engine.rules.game import Game
from engine.rules.invariants import InvariantChecker
from engine.rules.streams import SeededStream
from models.rules import DiceSpec, Rules
from models.state import BANK
from tests.engine.rules_helpers import (
    BALTIC,
    CH_BACK3,
    CH_GO,
    CH_GO_TO_JAIL,
    CH_ILLINOIS,
    CHANCE1,
    CHANCE3,
    FREE_PARKING,
    GO,
    ILLINOIS,
    INCOME_TAX,
    JAIL,
    LUXURY_TAX,
    ORIENTAL,
    TENNESSEE,
    VIRGINIA,
    EventLog,
    ScriptedAgent,
    deck_order,
    make_game,
    make_state,
)


def test_two_dice_move_the_sum_and_the_turn_passes():
    h = make_game(make_state(2), dice=[(6, 4), (2, 3)])
    h.turn()
    assert h.state.players[0].position == 10  # Jail, just visiting
    assert not h.state.players[0].in_jail
    assert h.state.to_move == 1
    h.turn()
    assert h.state.players[1].position == 5
    assert h.state.to_move == 0 and h.state.round == 1
    assert h.cash() == [1500, 1500]
    assert h.stream.remaining_rolls == 0
    assert [e.data["dice"] for e in h.log.of("roll")] == [(6, 4), (2, 3)]


def test_doubles_roll_again_until_a_non_double():
    h = make_game(make_state(2), dice=[(3, 3), (1, 3), (5, 6)])
    h.turn()
    # 0 -> 6 (Oriental, declined, no bids) -> 10 (just visiting); the third roll is B's.
    assert h.state.players[0].position == JAIL
    assert not h.state.players[0].in_jail
    assert h.stream.remaining_rolls == 1
    assert h.state.owner[ORIENTAL] == BANK
    assert h.state.to_move == 1
    assert [e.data["to"] for e in h.log.of("move")] == [ORIENTAL, JAIL]


def test_third_double_goes_to_jail_without_moving():
    # B owns Tennessee (18): the third roll (2,2) from 14 would land there.
    state = make_state(2, owner={TENNESSEE: 1})
    h = make_game(state, dice=[(3, 3), (4, 4), (2, 2)])
    h.turn()
    a = h.state.players[0]
    assert a.position == JAIL and a.in_jail and a.jail_turns == 0
    assert [e.data["to"] for e in h.log.of("move")] == [ORIENTAL, VIRGINIA]  # no third move
    assert h.cash() == [1500, 1500]  # no rent from the third roll
    jail = h.log.of("jail")
    assert len(jail) == 1 and jail[0].player == 0
    assert h.state.to_move == 1 and h.state.doubles_rolled == 0


def test_doubles_count_restarts_each_turn():
    h = make_game(make_state(2), dice=[(3, 3), (4, 4), (1, 3), (2, 3), (5, 5), (1, 2)])
    h.turn(3)
    a = h.state.players[0]
    # Turn 1: 0 -> 6 -> 14 -> 18; turn 3: 18 -> 28 -> 31, two doubles in a row across turns.
    assert not a.in_jail
    assert a.position == 31
    assert h.stream.remaining_rolls == 0


def test_loaded_die_always_six():
    stream = SeededStream(1234)
    spec = DiceSpec(2, 6, (0, 0, 0, 0, 0, 1))
    rolls = {stream.roll(spec) for _ in range(2000)}
    assert rolls == {(6, 6)}


def test_loaded_die_frequencies():
    stream = SeededStream(99)
    spec = DiceSpec(1, 6, (3, 1, 1, 1, 1, 1))
    faces = np.array([stream.roll(spec)[0] for _ in range(40000)])
    freq = np.bincount(faces, minlength=7)[1:] / len(faces)
    expected = np.array([3, 1, 1, 1, 1, 1]) / 8
    # 40000 draws: the standard error is below 0.0025 per face.
    assert np.all(np.abs(freq - expected) < 0.012), freq


def test_game_honours_loaded_dice_of_the_rules():
    # Every die shows 6: 0 -> 12 -> 24, then the third double sends A to jail.
    state = make_state(2, rules=Rules(dice=DiceSpec(2, 6, (0, 0, 0, 0, 0, 1))))
    checker, log = InvariantChecker(), EventLog()
    game = Game(state, [ScriptedAgent(), ScriptedAgent()], SeededStream(7), observers=[checker, log])
    game.play_turn()
    assert [e.data["dice"] for e in log.of("roll")] == [(6, 6)] * 3
    assert [e.data["to"] for e in log.of("move")] == [12, ILLINOIS]
    assert state.players[0].in_jail and state.players[0].position == JAIL


# -- Go salary -------------------------------------------------------------------
def test_salary_when_passing_go():
    h = make_game(make_state(2, positions=[37, 0]), dice=[(2, 4)])
    h.turn()
    assert h.state.players[0].position == BALTIC
    assert h.cash()[0] == 1700
    assert [e.data["amount"] for e in h.log.cash("Go salary")] == [200]


def test_salary_when_landing_on_go():
    h = make_game(make_state(2, positions=[34, 0]), dice=[(2, 4)])
    h.turn()
    assert h.state.players[0].position == GO
    assert h.cash()[0] == 1700
    assert len(h.log.cash("Go salary")) == 1


def test_salary_when_a_card_advances_past_go():
    # 31 + 5 = 36 (Chance): Advance to Illinois passes Go.
    h = make_game(make_state(2, positions=[31, 0]), dice=[(2, 3)], decks={"chance": deck_order(CH_ILLINOIS)})
    h.turn()
    assert h.state.players[0].position == ILLINOIS
    assert h.cash()[0] == 1700
    assert h.state.owner[ILLINOIS] == BANK


def test_advance_to_go_card_pays_the_salary_once():
    h = make_game(make_state(2), dice=[(3, 4)], decks={"chance": deck_order(CH_GO)})
    h.turn()
    assert h.state.players[0].position == GO
    assert h.cash()[0] == 1700


def test_no_salary_going_back_three_spaces():
    # Chance (7) -> back 3 -> Income Tax (4): pays $200, no salary.
    h = make_game(make_state(2), dice=[(3, 4)], decks={"chance": deck_order(CH_BACK3)})
    h.turn()
    assert h.state.players[0].position == INCOME_TAX
    assert h.cash()[0] == 1300
    assert not h.log.cash("Go salary")
    assert h.log.of("move")[-1].data["passed_go"] is False


def test_no_salary_when_a_card_sends_to_jail_from_beyond_go():
    # From Chance at 36 the jail (10) is "ahead" past Go, yet no salary.
    h = make_game(make_state(2, positions=[31, 0]), dice=[(2, 3)], decks={"chance": deck_order(CH_GO_TO_JAIL)})
    h.turn()
    a = h.state.players[0]
    assert a.position == JAIL and a.in_jail
    assert h.cash()[0] == 1500
    assert not h.log.cash("Go salary")


def test_no_salary_from_the_go_to_jail_square():
    h = make_game(make_state(2, positions=[25, 0]), dice=[(2, 3)])
    h.turn()
    a = h.state.players[0]
    assert a.position == JAIL and a.in_jail
    assert h.cash() == [1500, 1500]


# -- taxes and Free Parking -------------------------------------------------------
def test_income_tax_is_200():
    h = make_game(make_state(2), dice=[(1, 3)])
    h.turn()
    assert h.state.players[0].position == INCOME_TAX
    assert h.cash() == [1300, 1500]
    tax = h.log.cash("Income Tax")
    assert len(tax) == 1 and tax[0].data["frm"] == 0 and tax[0].data["to"] is None and tax[0].data["amount"] == 200


def test_luxury_tax_is_100():
    h = make_game(make_state(2, positions=[35, 0]), dice=[(1, 2)])
    h.turn()
    assert h.state.players[0].position == LUXURY_TAX
    assert h.cash() == [1400, 1500]


def test_free_parking_does_nothing():
    h = make_game(make_state(2, positions=[15, 0]), dice=[(2, 3)])
    h.turn()
    assert h.state.players[0].position == FREE_PARKING
    assert h.cash() == [1500, 1500]
    assert not h.log.of("cash")


def test_chance_square_constants():
    # Guard for the helpers' square numbering.
    board = make_state(2).board
    assert board.squares[CHANCE1].kind == "chance" and board.squares[CHANCE3].kind == "chance"
    assert board.squares[TENNESSEE].name == "Tennessee Avenue"
