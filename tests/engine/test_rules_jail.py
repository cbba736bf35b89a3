"""Jail: doubles, a card, paying the fine, the third failed roll, rent while jailed."""

from __future__ import annotations

import pytest

from models.errors import IllegalActionError
from tests.engine.rules_helpers import (
    BOARDWALK,
    CH_JAIL_FREE,
    JAIL,
    NEW_YORK,
    ST_JAMES,
    STATES,
    VIRGINIA,
    ScriptedAgent,
    make_game,
    make_state,
)


def test_doubles_release_and_move_without_an_extra_roll():
    h = make_game(make_state(2, in_jail={0: 0}), dice=[(2, 2), (1, 2)])
    h.turn()
    a = h.state.players[0]
    assert not a.in_jail and a.jail_turns == 0
    assert a.position == VIRGINIA  # 10 + 4
    assert h.stream.remaining_rolls == 1  # no extra roll for the double
    assert h.state.to_move == 1
    assert [e.data["how"] for e in h.log.of("leave_jail")] == ["doubles"]
    assert h.cash()[0] == 1500


def test_failed_roll_stays_in_jail():
    h = make_game(make_state(2, in_jail={0: 0}), dice=[(1, 2)])
    h.turn()
    a = h.state.players[0]
    assert a.in_jail and a.position == JAIL and a.jail_turns == 1
    assert h.cash()[0] == 1500
    assert not h.log.of("move")


def test_second_failed_roll_counts_two():
    h = make_game(make_state(2, in_jail={0: 1}), dice=[(1, 2)])
    h.turn()
    assert h.state.players[0].in_jail and h.state.players[0].jail_turns == 2


def test_third_failed_roll_pays_50_and_moves_by_that_roll():
    h = make_game(make_state(2, in_jail={0: 2}), dice=[(1, 2), (3, 4)])
    h.turn()
    a = h.state.players[0]
    assert not a.in_jail and a.jail_turns == 0
    assert a.position == STATES  # 10 + 3
    assert h.cash() == [1450, 1500]
    fine = [e for e in h.log.of("cash") if e.data["to"] is None]
    assert [e.data["amount"] for e in fine] == [50]
    assert h.stream.remaining_rolls == 1
    assert [e.data["how"] for e in h.log.of("leave_jail")] == ["third roll"]


def test_pay_before_rolling_then_roll_normally_doubles_included():
    agents = [ScriptedAgent(jail="pay"), ScriptedAgent()]
    h = make_game(make_state(2, in_jail={0: 0}), agents, dice=[(3, 3), (1, 2)])
    h.turn()
    a = h.state.players[0]
    # Paid $50, rolled 6 (doubles: 16, St. James), rolled again 3 -> 19 (New York).
    assert not a.in_jail
    assert a.position == NEW_YORK
    assert h.cash() == [1450, 1500]
    assert [e.data["to"] for e in h.log.of("move")] == [ST_JAMES, NEW_YORK]
    kinds = h.log.kinds()
    assert kinds.index("leave_jail") < kinds.index("roll")


def test_card_releases_and_returns_to_its_deck():
    agents = [ScriptedAgent(jail="card"), ScriptedAgent()]
    h = make_game(make_state(2, in_jail={0: 1}, jail_cards={0: 1}), agents, dice=[(1, 2)])
    assert h.game.decks["chance"].held == {CH_JAIL_FREE}
    h.turn()
    a = h.state.players[0]
    assert not a.in_jail and a.jail_cards == 0
    assert a.position == STATES
    assert h.cash()[0] == 1500
    assert h.game.decks["chance"].held == set()
    assert h.game.held_cards[0] == []


def test_card_choice_without_a_card_is_illegal():
    agents = [ScriptedAgent(jail="card"), ScriptedAgent()]
    h = make_game(make_state(2, in_jail={0: 0}), agents, dice=[(1, 2)])
    with pytest.raises(IllegalActionError):
        h.turn()


def test_pay_choice_without_the_cash_is_illegal():
    agents = [ScriptedAgent(jail="pay"), ScriptedAgent()]
    h = make_game(make_state(2, cash=[40, 1500], in_jail={0: 0}), agents, dice=[(1, 2)])
    with pytest.raises(IllegalActionError):
        h.turn()


def test_player_in_jail_collects_rent():
    state = make_state(2, positions=[0, 35], owner={BOARDWALK: 0}, in_jail={0: 1}, to_move=1)
    h = make_game(state, dice=[(1, 3)])
    h.turn()
    assert h.state.players[1].position == BOARDWALK
    assert h.cash() == [1550, 1450]
    assert h.state.players[0].in_jail


def test_go_to_jail_on_a_double_ends_the_turn():
    # 24 + 6 = 30 (Go To Jail) with a double: no further roll.
    h = make_game(make_state(2, positions=[24, 0]), dice=[(3, 3), (1, 2)])
    h.turn()
    a = h.state.players[0]
    assert a.in_jail and a.position == JAIL
    assert h.stream.remaining_rolls == 1
    assert h.state.to_move == 1


def test_third_failed_roll_raises_the_fine_by_mortgaging():
    # $0 cash: the engine mortgages Boardwalk (+$200) to pay the $50 fine, then A moves.
    h = make_game(make_state(2, cash=[0, 1500], owner={BOARDWALK: 0}, in_jail={0: 2}), dice=[(1, 2)])
    h.turn()
    a = h.state.players[0]
    assert not a.in_jail and a.position == STATES
    assert h.state.mortgaged[BOARDWALK]
    assert a.cash == 150
