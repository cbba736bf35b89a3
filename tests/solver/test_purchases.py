"""Denial, bank denial and consolidation purchases (:mod:`solver.trades.purchases`).

Hand-made positions check the order, the prices and each exclusion; random
ownerships check both families against independent formulations: a denial
candidate's group is one an opponent could complete by receiving a single lot
from another opponent (tried on a copy with the engine's ``has_monopoly``), and
a consolidation candidate's group is one the position analysis
(:func:`solver.analysis.subgraph.analyze`) calls isolated for the proposer.
"""

from __future__ import annotations

import random

from models.state import BANK, GameState
from models.trade import Trade
from solver.analysis.subgraph import analyze
from solver.trades.purchases import bank_denial_candidates, consolidation_candidates, denial_candidates, outside_purchase_price
from tests.engine.rules_helpers import make_state

ORANGE = (16, 18, 19)
RED = (21, 23, 24)
BROWN = (1, 3)
LIGHT_BLUE = (6, 8, 9)


def _bought(cands: list) -> list[tuple[int, int, int]]:
    """Each candidate as (square, seller, price paid by the proposer)."""
    out = []
    for c in cands:
        assert c.kind == "bilateral" and len(c.moves) == 1 and len(c.cash) == 1
        (sq, frm, to), (payer, payee, amount) = c.moves[0], c.cash[0]
        assert to == c.players[0] == payer and frm == c.players[1] == payee
        out.append((sq, frm, amount))
    return out


def test_denial_orders_the_missing_lot_first_and_dearer_groups_first() -> None:
    # B (1) is one short of orange, C (2) holds its last lot; B and C each hold one brown
    owner = {16: 1, 18: 1, 19: 2, 1: 1, 3: 2}
    state = make_state(4, owner=owner)
    got = _bought(denial_candidates(state, 0, limit=10))
    assert got == [(19, 2, 200), (16, 1, 180), (18, 1, 180), (1, 1, 60), (3, 2, 60)]
    assert _bought(denial_candidates(state, 0, limit=2)) == got[:2]
    assert denial_candidates(state, 0, limit=0) == []


def test_denial_exclusions() -> None:
    base = {16: 1, 18: 1, 19: 2}
    assert denial_candidates(make_state(4, owner={16: 1, 18: 1}), 0, 10) == []  # last lot in the bank
    assert denial_candidates(make_state(4, owner={**base, 19: 0}), 0, 10) == []  # the proposer blocks already
    assert denial_candidates(make_state(4, owner={16: 1, 18: 2, 19: 3}), 0, 10) == []  # nobody one short
    built = make_state(4, owner={16: 1, 18: 1, 19: 1, 21: 2, 23: 2, 24: 3}, houses={16: 1})
    assert [sq for sq, _, _ in _bought(denial_candidates(built, 0, 10))] == [24, 21, 23]  # orange is built and complete
    poor = make_state(4, owner=base, cash=[300, 1500, 1500, 1500])
    assert _bought(denial_candidates(poor, 0, 10, reserve=110)) == [(16, 1, 180), (18, 1, 180)]  # 300 - 200 < 110


def test_consolidation_needs_an_isolated_holding() -> None:
    owner = {6: 0, 8: 1, 9: 2, 16: 0, 18: 0, 19: 1, 21: 0, 23: 1}
    state = make_state(4, owner=owner)
    # light blue: one each of 0, 1, 2 -> isolated; orange: 0 holds two (a partial set already);
    # red: one lot in the bank
    assert _bought(consolidation_candidates(state, 0, 10)) == [(8, 1, 100), (9, 2, 120)]
    assert consolidation_candidates(state, 0, 0) == []
    assert consolidation_candidates(make_state(4, owner={**owner, 9: 1}), 0, 10) == []  # one holder: partial set


def _random_state(rng: random.Random) -> GameState:
    state = make_state(4)
    for sq in state.board.property_squares:
        state.owner[sq] = rng.choice((BANK, BANK, 0, 1, 2, 3))
    for p in state.players:
        p.cash = rng.randrange(0, 2000)
    return state


def _one_lot_completes(state: GameState, group: str, proposer: int) -> bool:
    """Some opponent gets the set by receiving one lot held by another opponent."""
    for r in range(len(state.players)):
        if r == proposer:
            continue
        for sq in state.board.groups[group]:
            holder = state.owner[sq]
            if holder in (BANK, proposer, r):
                continue
            trial = state.copy()
            trial.owner[sq] = r
            if trial.has_monopoly(r, group):
                return True
    return False


def test_both_families_against_independent_definitions() -> None:
    rng = random.Random(7)
    seen_denial = seen_consolidation = 0
    for _ in range(300):
        state = _random_state(rng)
        me = rng.randrange(4)
        reserve = rng.choice((0, 100, 300))
        cash = state.players[me].cash
        want_d, want_c = set(), set()
        isolated = set(analyze(state, me).isolated)
        for group in state.board.street_groups:
            lots = state.board.groups[group]
            owners = [state.owner[sq] for sq in lots]
            if BANK in owners or any(state.has_monopoly(p, group) for p in range(4)):
                continue
            for sq in lots:
                q = state.owner[sq]
                if q == me or cash - state.board.squares[sq].price < reserve:
                    continue
                if me not in owners and _one_lot_completes(state, group, me):
                    want_d.add((sq, q))
                if any(s in isolated for s in lots):
                    want_c.add((sq, q))
        got_d = {(sq, q) for sq, q, _ in _bought(denial_candidates(state, me, 50, reserve))}
        got_c = {(sq, q) for sq, q, _ in _bought(consolidation_candidates(state, me, 50, reserve))}
        assert got_d == want_d
        assert got_c == want_c
        seen_denial += bool(got_d)
        seen_consolidation += bool(got_c)
    assert seen_denial > 20 and seen_consolidation > 20  # the random states do exercise both


def test_bank_denial_buys_the_lots_of_the_opponent_one_bank_lot_short() -> None:
    # B (1) holds two oranges, the third in the bank; C (2) holds one brown, the other in the bank
    state = make_state(4, owner={16: 1, 18: 1, 1: 2})
    got = _bought(bank_denial_candidates(state, 0, limit=10))
    assert got == [(16, 1, 180), (18, 1, 180), (1, 2, 60)]  # dearer group first, then by square
    assert _bought(bank_denial_candidates(state, 0, limit=1)) == got[:1]
    assert bank_denial_candidates(state, 0, limit=0) == []
    assert bank_denial_candidates(make_state(4, owner={16: 1, 18: 1, 19: 2}), 0, 10) == []  # no lot in the bank: denial's case
    assert bank_denial_candidates(make_state(4, owner={16: 1}), 0, 10) == []  # two lots in the bank
    assert bank_denial_candidates(make_state(4, owner={16: 1, 18: 2}), 0, 10) == []  # two holders: nobody one lot short
    assert bank_denial_candidates(make_state(4, owner={16: 1, 18: 0}), 0, 10) == []  # the proposer blocks already
    poor = make_state(4, owner={16: 1, 18: 1, 1: 2}, cash=[250, 1500, 1500, 1500])
    assert _bought(bank_denial_candidates(poor, 0, 10, reserve=100)) == [(1, 2, 60)]  # 250 - 180 < 100


def test_bank_denial_against_an_independent_definition() -> None:
    """A candidate is a lot of an opponent who would hold the whole group by buying a lot from the
    bank (tried on a copy with ``has_monopoly``), in a group the proposer holds none of and without
    buildings, within the reserve; and every such lot is a candidate."""
    rng = random.Random(11)
    seen = 0
    for _ in range(300):
        state = _random_state(rng)
        me = rng.randrange(4)
        reserve = rng.choice((0, 100, 300))
        cash = state.players[me].cash
        want = set()
        for group in state.board.street_groups:
            lots = state.board.groups[group]
            if any(state.owner[sq] == me for sq in lots):
                continue
            for r in range(4):
                if r == me or state.players[r].bankrupt:
                    continue
                for bank_lot in (sq for sq in lots if state.owner[sq] == BANK):
                    trial = state.copy()
                    trial.owner[bank_lot] = r
                    if trial.has_monopoly(r, group):
                        want |= {(sq, r) for sq in lots if state.owner[sq] == r and cash - state.board.squares[sq].price >= reserve}
        got = {(sq, q) for sq, q, _ in _bought(bank_denial_candidates(state, me, 50, reserve))}
        assert got == want
        seen += bool(got)
    assert seen > 20  # the random states do exercise it


def test_outside_purchase_price_by_hand() -> None:
    # B (1) holds Park Place, Boardwalk in the bank; A (0) holds Reading Railroad and one orange
    state = make_state(4, owner={37: 1, 5: 0, 15: 2, 16: 0, 18: 3})
    names = [p.name for p in state.players]
    buy = Trade.bilateral(names[0], names[1], [], ["Park Place"], 700)
    assert outside_purchase_price(state, 0, buy) == 350
    assert outside_purchase_price(state, 1, buy) is None  # B gives the lot: not its purchase
    assert outside_purchase_price(state, 0, Trade.bilateral(names[0], names[2], [], ["Pennsylvania Railroad"], 200)) is None  # A holds a railroad
    assert outside_purchase_price(state, 0, Trade.bilateral(names[0], names[3], [], ["Tennessee Avenue"], 180)) is None  # A holds an orange
    assert outside_purchase_price(state, 0, Trade.bilateral(names[0], names[1], ["Reading Railroad"], ["Park Place"], 0)) is None  # A gives a lot
    state.owner[39] = 1
    assert outside_purchase_price(state, 0, Trade.bilateral(names[0], names[1], [], ["Park Place", "Boardwalk"], 900)) is None  # two lots


def test_outside_purchases_are_the_denials_not_the_consolidations() -> None:
    """On random ownerships, every denial and bank denial purchase is a purchase outside the
    proposer's holdings at its printed price, and no consolidation purchase is one."""
    rng = random.Random(13)
    seen = {"denial": 0, "bank": 0, "consolidation": 0}
    for _ in range(200):
        state = _random_state(rng)
        me = rng.randrange(4)
        families = {"denial": denial_candidates(state, me, 50), "bank": bank_denial_candidates(state, me, 50),
                    "consolidation": consolidation_candidates(state, me, 50)}
        for family, cands in families.items():
            for c in cands:
                trade = c.to_trade(state)
                (sq, _, _), = c.moves
                want = None if family == "consolidation" else state.board.squares[sq].price
                assert outside_purchase_price(state, me, trade) == want
                seen[family] += 1
    assert min(seen.values()) > 20
