"""Trades: properties, cash and jail cards; bilateral and 3-way; acceptance;
mortgaged properties received; invalid proposals."""

from __future__ import annotations

import pytest

from engine.rules.actions import ProposeTrade, Unmortgage
from models.errors import IllegalActionError
from models.state import BANK
from models.trade import Trade, Transfer
from tests.engine.rules_helpers import (
    BALTIC,
    BOARDWALK,
    CH_JAIL_FREE,
    ELECTRIC,
    MEDITERRANEAN,
    ORIENTAL,
    PARK_PLACE,
    ScriptedAgent,
    make_game,
    make_state,
)

NEUTRAL = (4, 6)


def trade_game(trade, *, n=2, accept=(True,) * 8, lift=(False,) * 8, b_acts=(), dice=(NEUTRAL,), **state_kw):
    """A proposes ``trade`` at the start of its turn."""
    agents = [ScriptedAgent(acts=[ProposeTrade(trade), None], accept=accept[0], lift=lift[0])]
    for i in range(1, n):
        acts = list(b_acts) if i == 1 else []
        agents.append(ScriptedAgent(accept=accept[i], lift=lift[i], acts=acts))
    return make_game(make_state(n, **state_kw), agents, dice=dice)


def test_bilateral_property_for_cash_and_jail_card():
    trade = Trade.bilateral("A", "B", a_gives=["Baltic Avenue"], cash_a_to_b=-100, cards_b_to_a=1)
    h = trade_game(trade, owner={BALTIC: 0}, jail_cards={1: 1})
    h.turn()
    assert h.state.owner[BALTIC] == 1
    assert h.cash() == [1600, 1400]
    assert h.state.players[0].jail_cards == 1 and h.state.players[1].jail_cards == 0
    assert h.game.held_cards[0] == [("chance", CH_JAIL_FREE)]
    assert h.game.held_cards[1] == []
    assert h.game.decks["chance"].held == {CH_JAIL_FREE}  # still out of the deck
    ev = h.log.of("trade")
    assert len(ev) == 1 and ev[0].data["accepted"]
    assert len(h.agents[1].asked("accept_trade")) == 1


def test_property_swap():
    trade = Trade.bilateral("A", "B", a_gives=["Mediterranean Avenue"], b_gives=["Boardwalk", "Park Place"])
    h = trade_game(trade, owner={MEDITERRANEAN: 0, BOARDWALK: 1, PARK_PLACE: 1})
    h.turn()
    assert h.state.owner[MEDITERRANEAN] == 1
    assert h.state.owner[BOARDWALK] == 0 and h.state.owner[PARK_PLACE] == 0
    assert h.cash() == [1500, 1500]


def test_refusal_changes_nothing():
    trade = Trade.bilateral("A", "B", a_gives=["Baltic Avenue"], cash_a_to_b=-100)
    h = trade_game(trade, accept=(True, False), owner={BALTIC: 0})
    before = h.state.copy()
    h.turn()
    assert h.state.owner == before.owner
    assert h.cash() == [1500, 1500]
    ev = h.log.of("trade")
    assert len(ev) == 1 and not ev[0].data["accepted"] and ev[0].data["refused_by"] == 1


def test_three_way_cycle():
    # A -> B: Mediterranean; B -> C: Oriental; C -> A: $50.
    trade = Trade(
        (
            Transfer("A", "B", ("Mediterranean Avenue",)),
            Transfer("B", "C", ("Oriental Avenue",)),
            Transfer("C", "A", (), 50),
        )
    )
    h = trade_game(trade, n=3, owner={MEDITERRANEAN: 0, ORIENTAL: 1})
    h.turn()
    assert h.state.owner[MEDITERRANEAN] == 1 and h.state.owner[ORIENTAL] == 2
    assert h.cash() == [1550, 1500, 1450]
    assert len(h.agents[1].asked("accept_trade")) == 1 and len(h.agents[2].asked("accept_trade")) == 1


def test_three_way_cycle_needs_every_other_participant():
    trade = Trade(
        (
            Transfer("A", "B", ("Mediterranean Avenue",)),
            Transfer("B", "C", ("Oriental Avenue",)),
            Transfer("C", "A", (), 50),
        )
    )
    h = trade_game(trade, n=3, accept=(True, True, False), owner={MEDITERRANEAN: 0, ORIENTAL: 1})
    h.turn()
    assert h.state.owner[MEDITERRANEAN] == 0 and h.state.owner[ORIENTAL] == 1
    assert h.cash() == [1500, 1500, 1500]


def test_receiving_a_mortgaged_property_pays_ten_percent_now():
    trade = Trade.bilateral("A", "B", a_gives=["Electric Company"], cash_a_to_b=-100)
    h = trade_game(
        trade,
        owner={ELECTRIC: 0},
        mortgaged=[ELECTRIC],
        b_acts=[None, Unmortgage(ELECTRIC), None],
        dice=[NEUTRAL, NEUTRAL],
    )
    # B's first act phase (A's turn start) is closed by None; B lifts in its own turn.
    h.turn()
    assert h.state.owner[ELECTRIC] == 1 and h.state.mortgaged[ELECTRIC]
    assert h.cash() == [1600, 1500 - 100 - 8]
    interest = h.log.cash("mortgaged property received")
    assert [e.data["amount"] for e in interest] == [8]
    # Later lifting costs value + 10% again.
    h.turn()
    assert not h.state.mortgaged[ELECTRIC]
    assert h.cash()[1] == 1392 - 83


def test_receiving_a_mortgaged_property_and_lifting_at_once():
    trade = Trade.bilateral("A", "B", a_gives=["Electric Company"], cash_a_to_b=-100)
    h = trade_game(trade, lift=(False, True), owner={ELECTRIC: 0}, mortgaged=[ELECTRIC])
    h.turn()
    assert h.state.owner[ELECTRIC] == 1 and not h.state.mortgaged[ELECTRIC]
    assert h.cash() == [1600, 1500 - 100 - 83]
    assert h.agents[1].asked("lift_on_receipt") == [ELECTRIC]


def test_lifting_at_once_unaffordable_falls_back_to_interest():
    trade = Trade.bilateral("A", "B", a_gives=["Electric Company"], cash_a_to_b=-100)
    h = trade_game(trade, lift=(False, True), cash=[1500, 150], owner={ELECTRIC: 0}, mortgaged=[ELECTRIC])
    h.turn()
    assert h.state.owner[ELECTRIC] == 1 and h.state.mortgaged[ELECTRIC]
    assert h.cash() == [1600, 150 - 100 - 8]


@pytest.mark.parametrize(
    "trade",
    [
        # A does not own Boardwalk
        Trade.bilateral("A", "B", a_gives=["Boardwalk"]),
        # brown carries a house: unimproved groups only
        Trade.bilateral("A", "B", a_gives=["Mediterranean Avenue"]),
        # more cash than A holds
        Trade.bilateral("A", "B", cash_a_to_b=1501),
        # a jail card A doesn't hold
        Trade.bilateral("A", "B", cards_a_to_b=1),
        # nothing moves
        Trade((Transfer("A", "B"),)),
        # to oneself
        Trade((Transfer("A", "A", (), 10),)),
        # unknown player
        Trade((Transfer("A", "Z", (), 10),)),
        # a trade A takes no part in
        Trade((Transfer("B", "C", (), 10),)),
        # a property moving twice
        Trade((Transfer("A", "B", ("Oriental Avenue",)), Transfer("A", "C", ("Oriental Avenue",)))),
    ],
)
def test_invalid_trades_raise(trade):
    h = trade_game(
        trade,
        n=3,
        owner={BOARDWALK: 1, MEDITERRANEAN: 0, BALTIC: 0, ORIENTAL: 0},
        houses={BALTIC: 1},
    )
    with pytest.raises(IllegalActionError):
        h.turn()
    assert h.state.owner[ORIENTAL] == 0 and h.cash() == [1500, 1500, 1500]
    assert not any(a.asked("accept_trade") for a in h.agents)


def test_mortgaged_receiver_who_cannot_pay_the_interest_is_refused():
    # B has $5: the $8 interest on Electric Company makes the trade invalid.
    trade = Trade.bilateral("A", "B", a_gives=["Electric Company"])
    h = trade_game(trade, cash=[1500, 5], owner={ELECTRIC: 0}, mortgaged=[ELECTRIC])
    with pytest.raises(IllegalActionError):
        h.turn()
    assert h.state.owner[ELECTRIC] == 0


def test_trade_of_a_bank_property_is_refused():
    trade = Trade.bilateral("A", "B", a_gives=["Park Place"])
    h = trade_game(trade)
    assert h.state.owner[PARK_PLACE] == BANK
    with pytest.raises(IllegalActionError):
        h.turn()
