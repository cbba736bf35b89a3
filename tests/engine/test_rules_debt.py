"""Debt: raising cash, the engine's liquidation order, bankruptcy to a player,
to the bank, and to several players at once."""

from __future__ import annotations

import pytest

from engine.rules.actions import Build, Mortgage, ProposeTrade
from models.errors import IllegalActionError
from models.state import BANK
from models.trade import Trade
from tests.engine.rules_helpers import (
    BALTIC,
    BOARDWALK,
    CC_BIRTHDAY,
    CH_CHAIRMAN,
    CH_JAIL_FREE,
    ELECTRIC,
    MEDITERRANEAN,
    ORIENTAL,
    PARK_PLACE,
    READING,
    VERMONT,
    ScriptedAgent,
    deck_order,
    make_game,
    make_state,
)


def owe(*, agents=None, n=2, start=0, dice=(1, 3), **state_kw):
    """A rolls ``dice`` from ``start``: by default Go -> Income Tax ($200)."""
    positions = [start] + [0] * (n - 1)
    return make_game(make_state(n, positions=positions, **state_kw), agents, dice=[dice])


def test_player_short_of_cash_is_asked_to_raise_it():
    agents = [ScriptedAgent(raise_actions=[Mortgage(BOARDWALK)]), ScriptedAgent()]
    h = owe(agents=agents, cash=[10, 1500], owner={BOARDWALK: 0})
    h.turn()
    assert agents[0].asked("raise_cash") == [200]
    assert h.state.mortgaged[BOARDWALK]
    assert h.cash() == [10, 1500]


def test_raise_cash_may_not_build():
    agents = [ScriptedAgent(raise_actions=[Build(MEDITERRANEAN)]), ScriptedAgent()]
    h = owe(agents=agents, cash=[10, 1500], owner={MEDITERRANEAN: 0, BALTIC: 0})
    with pytest.raises(IllegalActionError):
        h.turn()


def test_engine_liquidates_cheapest_mortgage_first():
    # Luxury Tax $100 with $20: Mediterranean (30) then Oriental (50) cover it; Reading is spared.
    h = owe(start=35, dice=(1, 2), cash=[20, 1500], owner={MEDITERRANEAN: 0, ORIENTAL: 0, READING: 0})
    h.turn()
    assert h.state.mortgaged[MEDITERRANEAN] and h.state.mortgaged[ORIENTAL]
    assert not h.state.mortgaged[READING]
    assert h.cash() == [0, 1500]
    assert [e.data["square"] for e in h.log.of("mortgage")] == [MEDITERRANEAN, ORIENTAL]


def test_liquidation_mortgages_outside_monopolies_first():
    h = owe(start=35, dice=(1, 2), cash=[0, 1500], owner={MEDITERRANEAN: 0, BALTIC: 0, READING: 0})
    h.turn()
    assert h.state.mortgaged[READING]
    assert not h.state.mortgaged[MEDITERRANEAN] and not h.state.mortgaged[BALTIC]
    assert h.cash() == [0, 1500]


def test_liquidation_sells_buildings_after_the_mortgages():
    # Income Tax $200 with $0: Reading +100; then the two brown houses +25 +25;
    # then Mediterranean +30, Baltic +30 -> 210; pays 200.
    h = owe(
        cash=[0, 1500],
        owner={MEDITERRANEAN: 0, BALTIC: 0, READING: 0},
        houses={MEDITERRANEAN: 1, BALTIC: 1},
    )
    h.turn()
    assert h.cash() == [10, 1500]
    assert h.state.houses[MEDITERRANEAN] == 0 and h.state.houses[BALTIC] == 0
    assert all(h.state.mortgaged[sq] for sq in (MEDITERRANEAN, BALTIC, READING))
    kinds = [e.kind for e in h.log.events if e.kind in ("mortgage", "sell_building")]
    assert kinds == ["mortgage", "sell_building", "sell_building", "mortgage", "mortgage"]


def test_partial_raise_then_engine_finishes():
    agents = [ScriptedAgent(raise_actions=[Mortgage(READING), None]), ScriptedAgent()]
    h = owe(agents=agents, cash=[0, 1500], owner={READING: 0, ORIENTAL: 0, BOARDWALK: 0})
    h.turn()
    # Reading +100 by the agent, then the engine: Oriental +50, Boardwalk +200 -> 350 - 200.
    assert h.cash() == [150, 1500]
    assert all(h.state.mortgaged[sq] for sq in (READING, ORIENTAL, BOARDWALK))


# -- bankruptcy to a player ------------------------------------------------------
def bankrupt_to_b(lift):
    # A ($100; brown with 2 houses each; Reading mortgaged; Electric; a jail card) lands on
    # B's Boardwalk hotel ($2000). Liquidation value 100 + 100 + 60 + 75 = 335 < 2000.
    agents = [ScriptedAgent(), ScriptedAgent(lift=lift), ScriptedAgent()]
    state = make_state(
        3,
        cash=[100, 1500, 1500],
        positions=[35, 0, 0],
        owner={MEDITERRANEAN: 0, BALTIC: 0, READING: 0, ELECTRIC: 0, BOARDWALK: 1, PARK_PLACE: 1},
        houses={MEDITERRANEAN: 2, BALTIC: 2, BOARDWALK: 5, PARK_PLACE: 5},
        mortgaged=[READING],
        jail_cards={0: 1},
    )
    h = make_game(state, agents, dice=[(1, 3)])
    h.turn()
    return h


def test_bankruptcy_to_a_player_passes_everything():
    h = bankrupt_to_b(lift=False)
    a = h.state.players[0]
    assert a.bankrupt and a.cash == 0 and a.jail_cards == 0
    # Buildings sold at half price (4 x $25) before the cash passes: 100 + 100; interest $10.
    assert h.cash() == [0, 1500 + 200 - 10, 1500]
    for sq in (MEDITERRANEAN, BALTIC, READING, ELECTRIC):
        assert h.state.owner[sq] == 1
    assert h.state.houses[MEDITERRANEAN] == 0 and h.state.houses[BALTIC] == 0
    assert h.state.mortgaged[READING] and not h.state.mortgaged[ELECTRIC]
    assert h.state.players[1].jail_cards == 1
    assert h.game.held_cards[1] == [("chance", CH_JAIL_FREE)]
    ev = h.log.of("bankrupt")
    assert len(ev) == 1 and ev[0].player == 0 and ev[0].data["creditor"] == 1
    assert h.game.bankrupt_order == ["A"]
    assert not h.game.over


def test_bankruptcy_creditor_may_lift_at_once():
    h = bankrupt_to_b(lift=True)
    assert h.cash() == [0, 1500 + 200 - 110, 1500]
    assert not h.state.mortgaged[READING]


def test_bankruptcy_to_a_player_from_a_birthday_card():
    state = make_state(3, cash=[1500, 5, 1500], positions=[14, 0, 0])
    h = make_game(state, dice=[(1, 2)], decks={"community_chest": deck_order(CC_BIRTHDAY)})
    h.turn()
    assert h.state.players[1].bankrupt
    assert h.cash() == [1515, 0, 1490]
    assert h.log.of("bankrupt")[0].data["creditor"] == 0


# -- bankruptcy to the bank ---------------------------------------------------------
def test_bankruptcy_to_the_bank_auctions_properties_unmortgaged():
    # A ($40; Oriental mortgaged; Vermont; a jail card) owes the Luxury Tax ($100):
    # liquidation value 40 + 50 = 90 < 100.
    agents = [
        ScriptedAgent(auction=1000),
        ScriptedAgent(auction={ORIENTAL: 70}),
        ScriptedAgent(auction={ORIENTAL: 60, VERMONT: 5}),
    ]
    state = make_state(
        3,
        cash=[40, 1500, 1500],
        positions=[35, 0, 0],
        owner={ORIENTAL: 0, VERMONT: 0},
        mortgaged=[ORIENTAL],
        jail_cards={0: 1},
    )
    h = make_game(state, agents, dice=[(1, 2)])
    assert h.game.decks["chance"].held == {CH_JAIL_FREE}
    h.turn()
    assert h.state.players[0].bankrupt
    assert h.state.owner[ORIENTAL] == 1 and not h.state.mortgaged[ORIENTAL]
    assert h.state.owner[VERMONT] == 2 and not h.state.mortgaged[VERMONT]
    assert h.cash() == [0, 1500 - 61, 1500 - 1]
    assert h.game.decks["chance"].held == set()
    assert agents[0].asked("auction_max") == []  # the bankrupt player does not bid
    tax = h.log.cash("bankruptcy")
    assert [(e.data["to"], e.data["amount"]) for e in tax] == [(None, 40)]
    assert h.log.of("bankrupt")[0].data["creditor"] is None


def test_bankruptcy_to_the_bank_unsold_property_stays_with_the_bank():
    state = make_state(3, cash=[40, 1500, 1500], positions=[35, 0, 0], owner={ORIENTAL: 0}, mortgaged=[ORIENTAL])
    h = make_game(state, dice=[(1, 2)])
    h.turn()
    assert h.state.owner[ORIENTAL] == BANK and not h.state.mortgaged[ORIENTAL]


def test_pay_each_player_bankruptcy_shares_cash_and_auctions():
    # A ($100, Mediterranean mortgaged) must pay $50 to each of three players.
    agents = [
        ScriptedAgent(),
        ScriptedAgent(auction=10),
        ScriptedAgent(auction=20),
        ScriptedAgent(),
    ]
    state = make_state(4, cash=[100, 1500, 1500, 1500], owner={MEDITERRANEAN: 0}, mortgaged=[MEDITERRANEAN])
    h = make_game(state, agents, dice=[(3, 4)], decks={"chance": deck_order(CH_CHAIRMAN)})
    h.turn()
    cash = h.cash()
    assert cash[0] == 0 and h.state.players[0].bankrupt
    gains = [cash[1] - 1500, cash[2] - 1500 + 11, cash[3] - 1500]
    assert sum(gains) == 100 and all(g in (33, 34) for g in gains)
    assert h.state.owner[MEDITERRANEAN] == 2 and not h.state.mortgaged[MEDITERRANEAN]
    assert h.log.of("bankrupt")[0].data["creditor"] is None


def test_pay_each_player_shares_in_proportion():
    # Two creditors, $90: $45 each.
    state = make_state(3, cash=[90, 1500, 1500])
    h = make_game(state, dice=[(3, 4)], decks={"chance": deck_order(CH_CHAIRMAN)})
    h.turn()
    assert h.cash() == [0, 1545, 1545]


def test_raise_cash_by_selling_a_property_to_another_player():
    sale = Trade.bilateral("A", "B", a_gives=["Boardwalk"], cash_a_to_b=-300)
    agents = [ScriptedAgent(raise_actions=[ProposeTrade(sale)]), ScriptedAgent(accept=True)]
    h = owe(agents=agents, cash=[10, 1500], owner={BOARDWALK: 0})
    h.turn()
    assert h.state.owner[BOARDWALK] == 1 and not h.state.mortgaged[BOARDWALK]
    assert h.cash() == [10 + 300 - 200, 1200]
