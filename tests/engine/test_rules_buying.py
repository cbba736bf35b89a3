"""Buying and auctions (second-price equivalent of the open ascending auction)."""

from __future__ import annotations

from models.state import BANK
from tests.engine.rules_helpers import BALTIC, ScriptedAgent, make_game, make_state

# Every test: the player to move rolls (1, 2) from Go onto Baltic Avenue ($60).


def land_on_baltic(agents, *, cash=1500, to_move=0):
    n = len(agents)
    state = make_state(n, cash=cash, to_move=to_move)
    return make_game(state, agents, dice=[(1, 2)])


def test_buy_at_list_price():
    agents = [ScriptedAgent(buy=True), ScriptedAgent(auction=500)]
    h = land_on_baltic(agents)
    h.turn()
    assert h.state.owner[BALTIC] == 0
    assert h.cash() == [1440, 1500]
    buy = h.log.of("buy")
    assert len(buy) == 1 and buy[0].data["price"] == 60
    assert not h.log.of("auction")
    assert agents[1].asked("auction_max") == []


def test_declined_goes_to_auction_among_all_including_the_lander():
    agents = [ScriptedAgent(auction=50), ScriptedAgent(auction=100), ScriptedAgent(auction=80)]
    h = land_on_baltic(agents)
    h.turn()
    assert all(a.asked("auction_max") == [BALTIC] for a in agents)
    assert h.state.owner[BALTIC] == 1
    assert h.cash() == [1500, 1500 - 81, 1500]  # second-highest 80 + 1
    auction = h.log.of("auction")[0].data
    assert auction["winner"] == 1 and auction["price"] == 81


def test_lander_can_win_its_own_auction():
    agents = [ScriptedAgent(auction=45), ScriptedAgent(auction=30)]
    h = land_on_baltic(agents)
    h.turn()
    assert h.state.owner[BALTIC] == 0
    assert h.cash() == [1469, 1500]


def test_price_capped_at_winners_own_maximum():
    # Maxima 70 and 70 from different bidders can't exceed 70 for the winner.
    agents = [ScriptedAgent(auction=0), ScriptedAgent(auction=70), ScriptedAgent(auction=69)]
    h = land_on_baltic(agents)
    h.turn()
    assert h.state.owner[BALTIC] == 1
    assert h.cash()[1] == 1500 - 70


def test_lone_bidder_pays_one_dollar():
    agents = [ScriptedAgent(), ScriptedAgent(), ScriptedAgent(auction=500)]
    h = land_on_baltic(agents)
    h.turn()
    assert h.state.owner[BALTIC] == 2
    assert h.cash() == [1500, 1500, 1499]


def test_tie_goes_to_the_bidder_nearest_the_lander():
    # Lander A bids nothing; B and C both bid 90: B is next after A.
    agents = [ScriptedAgent(), ScriptedAgent(auction=90), ScriptedAgent(auction=90)]
    h = land_on_baltic(agents)
    h.turn()
    assert h.state.owner[BALTIC] == 1
    assert h.cash() == [1500, 1410, 1500]


def test_tie_order_wraps_around_from_the_lander():
    # Lander B: order B, C, A; A and C tie at 90 -> C.
    agents = [ScriptedAgent(auction=90), ScriptedAgent(), ScriptedAgent(auction=90)]
    h = land_on_baltic(agents, to_move=1)
    h.turn()
    assert h.state.players[1].position == BALTIC
    assert h.state.owner[BALTIC] == 2
    assert h.cash() == [1500, 1500, 1410]


def test_tie_with_the_lander_goes_to_the_lander():
    agents = [ScriptedAgent(auction=90), ScriptedAgent(auction=90)]
    h = land_on_baltic(agents)
    h.turn()
    assert h.state.owner[BALTIC] == 0
    assert h.cash() == [1410, 1500]


def test_no_bids_bank_keeps_it():
    agents = [ScriptedAgent(), ScriptedAgent()]
    h = land_on_baltic(agents)
    h.turn()
    assert h.state.owner[BALTIC] == BANK
    assert h.cash() == [1500, 1500]
    auction = h.log.of("auction")
    assert len(auction) == 1 and auction[0].data["winner"] is None


def test_bids_are_capped_at_cash():
    # B bids 1000 with $30: its bid counts as 30; C's 20 -> B pays 21.
    agents = [ScriptedAgent(), ScriptedAgent(auction=1000), ScriptedAgent(auction=20)]
    h = land_on_baltic(agents, cash=[1500, 30, 1500])
    h.turn()
    assert h.state.owner[BALTIC] == 1
    assert h.cash() == [1500, 9, 1500]


def test_capped_bid_loses_to_a_higher_real_bid():
    agents = [ScriptedAgent(), ScriptedAgent(auction=1000), ScriptedAgent(auction=100)]
    h = land_on_baltic(agents, cash=[1500, 30, 1500])
    h.turn()
    assert h.state.owner[BALTIC] == 2
    assert h.cash() == [1500, 30, 1469]


def test_lander_short_of_cash_is_not_offered_and_auction_follows():
    agents = [ScriptedAgent(buy=True, auction=55), ScriptedAgent()]
    h = land_on_baltic(agents, cash=[50, 1500])
    h.turn()
    assert agents[0].asked("buy") == []
    assert h.state.owner[BALTIC] == 0
    assert h.cash() == [49, 1500]
