"""Which opponents trade, for the rollouts (``trade_model="observed"``, :class:`TradeHabits`).

Hand-made positions check :func:`has_trade_chance` case by case; random ownerships check it
against an independent definition (one lot moved from another player's unmortgaged holdings
completes the group). The habits' counting and the agent's per-seat rollout policies are
checked directly.
"""

from __future__ import annotations

import random

from engine.rules.actions import Event
from engine.sim.rollout_policy import seat_policies
from models.state import BANK, GameState
from models.trade import Trade
from solver.agents.opponent_model import TRADE_CHANCES, TradeHabits, has_trade_chance
from solver.agents.subgraph_agent import SubgraphTradeAgent
from solver.decisions.simulation import rescore_settings
from tests.engine.rules_helpers import make_state

# orange: 16, 18, 19; red: 21, 23, 24
ORANGE_TWO = {16: 1, 18: 1}


def test_hand_cases() -> None:
    assert has_trade_chance(make_state(4, owner={**ORANGE_TWO, 19: 2}), 1)  # B one short, C holds the lot
    assert not has_trade_chance(make_state(4, owner={**ORANGE_TWO, 19: 2}), 2)  # C holds one lot only
    assert not has_trade_chance(make_state(4, owner=ORANGE_TWO), 1)  # the lot is the bank's
    assert not has_trade_chance(make_state(4, owner={**ORANGE_TWO, 19: 2}, mortgaged=[19]), 1)  # not for sale
    bust = make_state(4, owner={**ORANGE_TWO, 19: 2})
    bust.players[2].bankrupt = True
    assert not has_trade_chance(bust, 1)
    bust.players[1].bankrupt, bust.players[2].bankrupt = True, False
    assert not has_trade_chance(bust, 1)


def _random_state(rng: random.Random) -> GameState:
    state = make_state(4)
    for sq in state.board.property_squares:
        state.owner[sq] = rng.choice((BANK, BANK, 0, 1, 2, 3))
        state.mortgaged[sq] = state.owner[sq] != BANK and rng.random() < 0.2
    return state


def _one_lot_completes(state: GameState, q: int) -> bool:
    """``q`` gets a street set by receiving one unmortgaged lot from another player's hands."""
    for g in state.board.street_groups:
        if state.has_monopoly(q, g):
            continue
        for sq in state.board.groups[g]:
            holder = state.owner[sq]
            if holder in (BANK, q) or state.mortgaged[sq]:
                continue
            trial = state.copy()
            trial.owner[sq] = q
            if trial.has_monopoly(q, g):
                return True
    return False


def test_against_an_independent_definition() -> None:
    rng = random.Random(11)
    seen = 0
    for _ in range(300):
        state = _random_state(rng)
        for q in range(4):
            expected = _one_lot_completes(state, q)
            assert has_trade_chance(state, q) == expected
            seen += expected
    assert seen > 50  # the random states do exercise both answers


def test_habits_count_rounds_and_proposals() -> None:
    state = make_state(4, owner={**ORANGE_TWO, 19: 2})
    habits = TradeHabits()
    for r in range(TRADE_CHANCES):
        assert habits.trades(1)
        habits.look(state, 0, r)
        habits.look(state, 0, r)  # counted once a round
    assert habits.chances == {1: TRADE_CHANCES}
    assert not habits.trades(1) and habits.trades(2) and habits.trades(3)
    habits.proposed(1)
    assert habits.trades(1)


def test_the_agent_turns_off_trading_for_seats_seen_not_to() -> None:
    state = make_state(4, owner={**ORANGE_TWO, 19: 2})
    for model in ("all", "observed"):
        agent = SubgraphTradeAgent(0, trade_model=model, hold=True)
        agent.start_game(0, tuple(p.name for p in state.players))
        for r in range(TRADE_CHANCES):
            agent.notify(Event("turn", 0, {"round": r}))
            agent.memory.habits.look(state, 0, agent.memory.round)
        trading = [p.trade for p in seat_policies(rescore_settings(state, 0, agent.settings, agent.memory, 10).policy, 4)]
        assert trading == ([False, True, True, True] if model == "all" else [False, False, True, True])
        offer = Trade.bilateral("B", "C", [], [state.board.squares[19].name], 400)  # a proposal by B, to anyone
        agent.notify(Event("trade", 1, {"trade": offer, "accepted": False, "refused_by": 2}))
        assert agent.memory.habits.trades(1)
