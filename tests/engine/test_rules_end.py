"""Game end: the last player standing, the round cap and net worth, round counting."""

from __future__ import annotations

from tests.engine.rules_helpers import (
    BALTIC,
    BOARDWALK,
    MEDITERRANEAN,
    PARK_PLACE,
    make_game,
    make_state,
)

NEUTRAL = (4, 6)


def test_one_player_left_ends_the_game_by_bankruptcy():
    state = make_state(
        2,
        cash=[100, 1500],
        positions=[35, 0],
        owner={BOARDWALK: 1, PARK_PLACE: 1},
        houses={BOARDWALK: 5, PARK_PLACE: 5},
    )
    h = make_game(state, dice=[(1, 3)])
    h.turn()
    assert h.game.over
    r = h.game.result
    assert r is not None
    assert r.reason == "bankruptcy" and r.winner == "B" and r.winner_index == 1
    assert r.rounds == 1 and r.turns == 1
    assert r.bankrupt_order == ("A",)
    assert r.net_worths == {"A": 0, "B": 1600 + 400 + 350 + 5 * 200 * 2}
    end = h.log.of("game_end")
    assert len(end) == 1 and end[0].player == 1 and end[0].data["reason"] == "bankruptcy"
    h.turn()  # no-op once over
    assert h.game.turns == 1 and h.game.play() is r


def test_round_cap_highest_net_worth_wins():
    state = make_state(2, owner={BOARDWALK: 1})
    h = make_game(state, dice=[NEUTRAL, NEUTRAL], max_rounds=1)
    h.turn()
    assert not h.game.over
    h.turn()
    r = h.game.result
    assert h.game.over and r is not None
    assert r.reason == "round_cap" and r.winner == "B" and r.winner_index == 1
    assert r.rounds == 1 and r.turns == 2
    assert r.net_worths == {"A": 1500, "B": 1900}


def test_round_cap_net_worth_counts_mortgage_value_and_buildings_at_cost():
    # A: 1000 cash + Boardwalk mortgaged (200) + brown 60 + 60 with a $50 house each = 1420.
    state = make_state(
        2,
        cash=[1000, 1421],
        owner={BOARDWALK: 0, MEDITERRANEAN: 0, BALTIC: 0},
        mortgaged=[BOARDWALK],
        houses={MEDITERRANEAN: 1, BALTIC: 1},
    )
    h = make_game(state, dice=[NEUTRAL, NEUTRAL], max_rounds=1)
    h.turn(2)
    r = h.game.result
    assert r is not None and r.net_worths == {"A": 1420, "B": 1421}
    assert r.winner == "B"


def test_round_cap_hotel_counts_five_buildings():
    state = make_state(
        2,
        cash=[0, 1370],
        owner={BOARDWALK: 0, PARK_PLACE: 0},
        houses={BOARDWALK: 5, PARK_PLACE: 4},
    )
    h = make_game(state, dice=[NEUTRAL, NEUTRAL], max_rounds=1)
    h.turn(2)
    # A: 400 + 350 + 9 x 200 = 2550.
    assert h.game.result.net_worths["A"] == 2550 and h.game.result.winner == "A"


def test_round_cap_tie_goes_to_the_earlier_seat():
    h = make_game(make_state(3), dice=[NEUTRAL] * 3, max_rounds=1)
    h.turn(3)
    assert h.game.result.winner == "A" and h.game.result.reason == "round_cap"


def test_rounds_are_complete_rounds_and_doubles_stay_in_one_turn():
    h = make_game(make_state(2), dice=[(3, 3), (1, 3), NEUTRAL, NEUTRAL, NEUTRAL], max_rounds=2)
    h.turn(3)
    assert not h.game.over and h.state.round == 1
    h.turn()
    r = h.game.result
    assert r.rounds == 2 and r.turns == 4
    assert h.stream.remaining_rolls == 0


def test_bankrupt_seats_are_skipped_in_rounds():
    state = make_state(3)
    state.players[1].bankrupt = True
    state.players[1].cash = 0
    h = make_game(state, dice=[NEUTRAL, NEUTRAL], max_rounds=1)
    h.turn()
    assert h.state.to_move == 2
    h.turn()
    assert h.game.over and h.game.result.turns == 2 and h.game.result.rounds == 1


def test_game_with_one_active_player_is_over_at_once():
    state = make_state(2)
    state.players[0].bankrupt = True
    state.players[0].cash = 0
    state.to_move = 1
    h = make_game(state)
    assert h.game.over
    assert h.game.result.reason == "bankruptcy" and h.game.result.winner == "B" and h.game.result.rounds == 0
