"""The novelty catalogue (:mod:`solver.novelty.catalogue`): what each novelty changes, that the
reference engine plays it, and that the exact chain and the EPT reflect it.

Every check compares with something independent: the printed numbers of the
standard board, hand arithmetic, exact fractions, or a movement-only Monte
Carlo of the reference engine with a tolerance from its standard error.
"""

from __future__ import annotations

import re
from dataclasses import fields, replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from engine.chains.dice import total_pmf
from engine.chains.ept import ept_table, long_run_blocks, state_ept
from engine.chains.landing import JailPolicyAgent
from engine.chains.markov import PositionChain, columns, resolution
from engine.rules import legal
from engine.rules.actions import Build, Mortgage, Unmortgage
from engine.rules.game import Game
from engine.rules.streams import SeededStream, stream_keys
from engine.sim import _kernel as kernel
from engine.sim.rollout import (
    GAME_FIELDS,
    TraceLayout,
    kernel_trace,
    reference_trace,
    simulate,
)
from engine.sim.rollout_policy import RolloutPolicy
from engine.sim.rollout_tables import encode
from models.board import Board, Square, standard_board
from models.io import load_state, state_to_dict
from models.rules import DiceSpec, Rules
from models.state import BANK, GameState
from solver.novelty import catalogue as nv
from tests.engine.rules_helpers import (
    B_AND_O,
    BALTIC,
    BOARDWALK,
    CC_DOCTOR,
    CH_BOARDWALK,
    CH_REPAIRS,
    CH_SPEEDING,
    CHANCE1,
    CONNECTICUT,
    ELECTRIC,
    GO,
    INCOME_TAX,
    JAIL,
    LUXURY_TAX,
    MEDITERRANEAN,
    NEW_YORK,
    ORIENTAL,
    PARK_PLACE,
    READING,
    ST_CHARLES,
    ST_JAMES,
    STATES,
    TENNESSEE,
    VERMONT,
    ScriptedAgent,
    deck_order,
    make_game,
    make_state,
)

STD = standard_board()
R0 = Rules()
N = STD.size
EXPECTED_NAMES = [
    "hotel-rent", "rent-cut", "house-cost", "price-hike", "tax-hike", "go-salary", "jail-fine",
    "mortgage-rate", "three-dice", "one-die", "eight-sided", "loaded-die", "board-order", "regroup",
    "smaller-sets", "toll-squares", "free-parking", "auction-only",
]  # fmt: skip
THREE_LOT_GROUPS = ("light_blue", "pink", "orange", "red", "yellow", "green")


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def applied(name: str) -> tuple[Board, Rules]:
    return nv.get(name).apply(STD, R0)


def square_changes(board: Board) -> dict[tuple[int, str], tuple[object, object]]:
    """``(index, field) -> (standard, new)`` for every square field that differs."""
    out = {}
    for a, b in zip(STD.squares, board.squares, strict=True):
        for f in fields(Square):
            va, vb = getattr(a, f.name), getattr(b, f.name)
            if va != vb:
                out[(a.index, f.name)] = (va, vb)
    return out


def rules_changes(rules: Rules) -> dict[str, tuple[object, object]]:
    out = {}
    for f in fields(Rules):
        va, vb = getattr(R0, f.name), getattr(rules, f.name)
        if va != vb:
            out[f.name] = (va, vb)
    return out


def same_but_squares(board: Board) -> None:
    assert board.size == N
    assert board.railroad_rents == STD.railroad_rents and board.utility_multipliers == STD.utility_multipliers
    assert board.chance == STD.chance and board.community_chest == STD.community_chest


def half_up_10(x: Decimal) -> int:
    return int((x / 10).quantize(Decimal(1), rounding=ROUND_HALF_UP)) * 10


def novel(name: str, n: int = 2, **state_kw) -> GameState:
    """A standard-board state (``make_state``, standard indices) with novelty ``name`` injected."""
    return nv.inject(make_state(n, **state_kw), nv.get(name))


# ---------------------------------------------------------------------------
# the catalogue
# ---------------------------------------------------------------------------
def test_catalogue_shape_and_lookup():
    assert nv.names() == EXPECTED_NAMES
    assert len(nv.CATALOGUE) >= 12 and len(set(nv.names())) == len(nv.CATALOGUE)
    assert {n.klass for n in nv.CATALOGUE} == {"attribute", "representation", "class"}
    assert {n.difficulty for n in nv.CATALOGUE} == {"easy", "medium", "hard"}
    for n in nv.CATALOGUE:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", n.name), n.name
        assert n.tags and all(isinstance(t, str) and t for t in n.tags), n.name
        assert n.summary and "\n" not in n.summary
        assert nv.get(n.name) is n
    by = {n.name: n for n in nv.CATALOGUE}
    assert by["loaded-die"].tags == ("dice.weights",) and by["one-die"].tags == ("dice.count", "dice.sides")
    assert by["free-parking"].tags == ("rule.cash",) and by["board-order"].klass == "representation"


def test_unknown_name_lists_the_valid_ones():
    with pytest.raises(nv.UnknownNoveltyError) as info:
        nv.get("free-lunch")
    assert isinstance(info.value, ValueError)
    msg = str(info.value)
    assert "'free-lunch'" in msg and all(name in msg for name in EXPECTED_NAMES)


@pytest.mark.parametrize("name", EXPECTED_NAMES)
def test_apply_is_pure_and_hidden_means_a_rule(name):
    before = (STD.to_dict(), R0.overrides(), hash(R0))
    n = nv.get(name)
    b1, r1 = n.apply(STD, R0)
    b2, r2 = n.apply(STD, R0)
    assert (b1, r1) == (b2, r2) and (STD.to_dict(), R0.overrides(), hash(R0)) == before
    assert STD.builtin and STD.name == "standard-us"
    # hidden: a rule not printed on the board, so the board is the same object; visible: a new board.
    assert n.hidden == (b1 is STD)
    if b1 is not STD:
        assert b1.name == f"standard-us+{name}" and not b1.builtin
        assert [sq.index for sq in b1.squares] == list(range(N))
    assert (r1 is R0) == (not rules_changes(r1))


# ---------------------------------------------------------------------------
# apply: exactly the change of the summary
# ---------------------------------------------------------------------------
def test_apply_hotel_rent():
    board, rules = applied("hotel-rent")
    assert rules is R0
    same_but_squares(board)
    ch = square_changes(board)
    streets = [sq for sq in STD.squares if sq.kind == "street"]
    assert set(ch) == {(sq.index, "rents") for sq in streets}
    for sq in streets:
        new = board.squares[sq.index].rents
        assert new[:5] == sq.rents[:5]
        assert new[5] == half_up_10(Decimal(sq.rents[5]) * Decimal("1.5"))
    # by hand: 2000 -> 3000, 1500 -> 2250, 250 * 1.5 = 375 -> 380 (half up), 750 -> 1125 -> 1130
    assert board.squares[BOARDWALK].rents[5] == 3000 and board.squares[PARK_PLACE].rents[5] == 2250
    assert board.squares[MEDITERRANEAN].rents[5] == 380 and board.squares[ST_CHARLES].rents[5] == 1130


def test_apply_rent_cut():
    board, rules = applied("rent-cut")
    assert rules is R0
    same_but_squares(board)
    ch = square_changes(board)
    assert {k for k in ch} == {(sq.index, "rents") for sq in STD.squares if sq.kind == "street"}
    assert board.squares[MEDITERRANEAN].rents == (1, 5, 15, 45, 80, 125)
    assert board.squares[BOARDWALK].rents == (25, 100, 300, 700, 850, 1000)
    assert board.squares[ST_CHARLES].rents == (5, 25, 75, 225, 312, 375)  # 625 / 2 rounded down


def test_apply_house_cost():
    board, rules = applied("house-cost")
    assert rules is R0
    same_but_squares(board)
    ch = square_changes(board)
    assert ch == {(sq.index, "house_cost"): (sq.house_cost, 2 * sq.house_cost) for sq in STD.squares if sq.kind == "street"}
    assert ch[(PARK_PLACE, "house_cost")] == (200, 400) and ch[(MEDITERRANEAN, "house_cost")] == (50, 100)


def test_apply_price_hike_and_mortgage_values_follow():
    board, rules = applied("price-hike")
    assert rules is R0
    same_but_squares(board)
    ch = square_changes(board)
    assert set(ch) == {(sq, "price") for sq in STD.property_squares}
    by_hand = {MEDITERRANEAN: 90, CONNECTICUT: 180, ST_CHARLES: 210, ELECTRIC: 230, READING: 300, PARK_PLACE: 530, BOARDWALK: 600}
    for sq, price in by_hand.items():
        assert board.squares[sq].price == price
    for sq in STD.property_squares:
        assert board.squares[sq].price == half_up_10(Decimal(STD.squares[sq].price) * Decimal("1.5"))
    state = GameState.new_game(["A", "B"], board, rules)
    assert state.mortgage_value(BOARDWALK) == 300 and state.mortgage_value(ELECTRIC) == 115
    assert state.mortgage_value(MEDITERRANEAN) == 45


def test_apply_tax_hike():
    board, rules = applied("tax-hike")
    assert rules is R0
    same_but_squares(board)
    assert square_changes(board) == {(INCOME_TAX, "amount"): (200, 400), (LUXURY_TAX, "amount"): (100, 200)}


@pytest.mark.parametrize(
    ("name", "changes"),
    [
        ("go-salary", {"go_salary": (200, 100)}),
        ("jail-fine", {"jail_fine": (50, 150)}),
        ("mortgage-rate", {"mortgage_rate": (0.5, 0.3)}),
        ("three-dice", {"dice": (DiceSpec(2, 6), DiceSpec(3, 6))}),
        ("one-die", {"dice": (DiceSpec(2, 6), DiceSpec(1, 12))}),
        ("eight-sided", {"dice": (DiceSpec(2, 6), DiceSpec(2, 8))}),
        ("loaded-die", {"dice": (DiceSpec(2, 6), DiceSpec(2, 6, (1, 1, 1, 1, 1, 3)))}),
        ("smaller-sets", {"set_size": ({}, {g: 2 for g in THREE_LOT_GROUPS})}),
        ("free-parking", {"free_parking": ("off", "bank")}),
        ("auction-only", {"auction_only": (False, True)}),
    ],
)
def test_apply_rule_novelties_change_one_rule(name, changes):
    board, rules = applied(name)
    assert board is STD
    got = rules_changes(rules)
    assert {k: (dict(a) if k == "set_size" else a, dict(b) if k == "set_size" else b) for k, (a, b) in got.items()} == changes


def test_class_novelty_rules_are_ordinary_rules_of_the_state_format():
    for name, hook, value in (("free-parking", "free_parking", "bank"), ("auction-only", "auction_only", True)):
        _, rules = applied(name)
        assert getattr(rules, hook) == value and rules.overrides() == {hook: value}
        assert rules != R0 and hash(rules) != hash(R0)
        assert hash(rules) == hash(replace(R0, **{hook: value}))
        state = GameState.new_game(["a", "b"], STD, rules)
        doc = state_to_dict(state)
        assert doc["format"] == "monopoly-state/2" and doc["rules"] == {hook: value}
        assert load_state(doc) == state


def test_apply_board_order():
    board, rules = applied("board-order")
    assert rules is R0
    placed = {1: PARK_PLACE, 3: BOARDWALK, 37: MEDITERRANEAN, 39: BALTIC}
    for new, old in placed.items():
        assert board.squares[new] == replace(STD.squares[old], index=new)
    assert board.squares[3].name == "Boardwalk" and board.squares[3].rents == (50, 200, 600, 1400, 1700, 2000)
    assert {i for i, _ in square_changes(board)} == set(placed)
    assert board.groups["dark_blue"] == (1, 3) and board.groups["brown"] == (37, 39)
    # "Advance to Boardwalk" follows Boardwalk to square 3; nothing else on the cards changes.
    assert STD.chance[CH_BOARDWALK].square == BOARDWALK
    assert board.chance[CH_BOARDWALK] == replace(STD.chance[CH_BOARDWALK], square=3)
    assert board.chance[CH_BOARDWALK].text == "Advance to Boardwalk."
    assert [c for i, c in enumerate(board.chance) if i != CH_BOARDWALK] == [
        c for i, c in enumerate(STD.chance) if i != CH_BOARDWALK
    ]
    assert board.community_chest == STD.community_chest
    assert board.railroad_rents == STD.railroad_rents


def test_apply_regroup():
    board, rules = applied("regroup")
    assert rules is R0
    same_but_squares(board)
    assert square_changes(board) == {(VERMONT, "group"): ("light_blue", "orange")}
    assert board.groups["light_blue"] == (ORIENTAL, CONNECTICUT)
    assert board.groups["orange"] == (VERMONT, ST_JAMES, TENNESSEE, NEW_YORK)


def test_apply_toll_squares():
    board, rules = applied("toll-squares")
    same_but_squares(board)
    rents = (16, 80, 220, 600, 800, 1000)
    assert board.squares[INCOME_TAX] == Square(INCOME_TAX, "street", "Income Toll", "toll", 200, rents, 100)
    assert board.squares[LUXURY_TAX] == Square(LUXURY_TAX, "street", "Luxury Toll", "toll", 200, rents, 100)
    assert {i for i, _ in square_changes(board)} == {INCOME_TAX, LUXURY_TAX}
    assert board.groups["toll"] == (INCOME_TAX, LUXURY_TAX) and not any(sq.kind == "tax" for sq in board.squares)
    assert {k: (dict(a), dict(b)) for k, (a, b) in rules_changes(rules).items()} == {"set_size": ({}, {"toll": 1})}


def test_apply_needs_what_it_changes():
    board, _ = applied("toll-squares")
    with pytest.raises(ValueError, match="tax"):
        nv.get("toll-squares").apply(board, R0)
    flat = Board("flat", tuple(replace(sq, group="brown") if sq.group == "dark_blue" else sq for sq in STD.squares),
                 STD.railroad_rents, STD.utility_multipliers, STD.chance, STD.community_chest)  # fmt: skip
    with pytest.raises(ValueError, match="dark_blue"):
        nv.get("board-order").apply(flat, R0)


# ---------------------------------------------------------------------------
# inject
# ---------------------------------------------------------------------------
def test_inject_copies_and_moves_holdings_by_name():
    state = make_state(2, positions=[BOARDWALK, JAIL], owner={BOARDWALK: 0, PARK_PLACE: 0, BALTIC: 1}, mortgaged=[BALTIC])
    out = nv.inject(state, nv.get("board-order"))
    assert state.board is STD and state.owner[BOARDWALK] == 0  # the input is untouched
    assert out.board.name == "standard-us+board-order" and out.rules is state.rules
    assert (out.owner[3], out.owner[1], out.owner[39], out.mortgaged[39]) == (0, 0, 1, True)
    assert out.owner[BOARDWALK] == 1 and out.owner[37] == BANK  # Baltic at 39; Mediterranean (37) unowned
    assert [p.position for p in out.players] == [3, JAIL]  # the token stays on Boardwalk
    fresh = nv.inject(GameState.new_game(["A", "B"]), nv.get("three-dice"))
    assert fresh.board is STD and fresh.rules.dice == DiceSpec(3, 6) and fresh.players[0].cash == 1500


def test_inject_refuses_to_orphan_property_or_buildings():
    lb = (ORIENTAL, VERMONT, CONNECTICUT)
    built = make_state(2, owner={sq: 1 for sq in lb}, houses={sq: 1 for sq in lb})
    with pytest.raises(ValueError, match="regroup"):  # Vermont's house would stand on an incomplete orange group
        nv.inject(built, nv.get("regroup"))
    bare = make_state(2, owner={sq: 1 for sq in lb})
    assert nv.inject(bare, nv.get("regroup")).owner[VERMONT] == 1
    drop = nv.Novelty(
        "drop-boardwalk", "class", "easy", "Boardwalk becomes a tax square", False, ("board.squares",),
        lambda b, r: (Board(b.name, tuple(Square(i, "tax", "Boardwalk", amount=75) if i == BOARDWALK else s
                                          for i, s in enumerate(b.squares)), b.railroad_rents,
                            b.utility_multipliers, b.chance, b.community_chest), r),
    )  # fmt: skip
    assert nv.inject(make_state(2), drop).board.squares[BOARDWALK].kind == "tax"  # nothing owned: fine
    with pytest.raises(ValueError, match="orphan 'Boardwalk'"):
        nv.inject(make_state(2, owner={BOARDWALK: 0}), drop)


# ---------------------------------------------------------------------------
# the engine plays it
# ---------------------------------------------------------------------------
def test_engine_hotel_rent():
    kw = {"positions": [35, 0], "cash": [3500, 1500], "owner": {BOARDWALK: 1, PARK_PLACE: 1},
          "houses": {BOARDWALK: 5, PARK_PLACE: 5}}  # fmt: skip
    for name, rent in (("hotel-rent", 3000), (None, 2000)):
        state = novel(name, **kw) if name else make_state(2, **kw)
        h = make_game(state, dice=[(1, 3)])
        h.turn()
        assert [e.data["amount"] for e in h.log.cash("rent on Boardwalk")] == [rent]
        assert h.cash() == [3500 - rent, 1500 + rent]


def test_engine_rent_cut():
    for owned, rent in (({BALTIC: 1}, 2), ({BALTIC: 1, MEDITERRANEAN: 1}, 4)):  # printed: 4 and 8
        h = make_game(novel("rent-cut", owner=owned), dice=[(1, 2)])
        h.turn()
        assert h.cash() == [1500 - rent, 1500 + rent]


def test_engine_house_cost():
    agents = [ScriptedAgent(acts=[Build(PARK_PLACE)]), ScriptedAgent()]
    h = make_game(novel("house-cost", owner={PARK_PLACE: 0, BOARDWALK: 0}), agents, dice=[(1, 2)])
    h.turn()
    assert [e.data["amount"] for e in h.log.cash("building")] == [400]
    assert h.state.houses[PARK_PLACE] == 1 and h.cash()[0] == 1100


def test_engine_price_hike_purchase_and_mortgage():
    agents = [ScriptedAgent(buy=True, acts=[None, Mortgage(BOARDWALK), Unmortgage(BOARDWALK)]), ScriptedAgent()]
    h = make_game(novel("price-hike", positions=[35, 0]), agents, dice=[(1, 3)])
    h.turn()
    cash = [(e.data["why"], e.data["amount"]) for e in h.log.of("cash")]
    assert cash == [("purchase", 600), ("mortgage", 300), ("mortgage lifted", 330)]
    assert h.state.owner[BOARDWALK] == 0 and h.cash()[0] == 1500 - 600 + 300 - 330


def test_engine_tax_hike():
    h = make_game(novel("tax-hike", positions=[0, 35]), dice=[(1, 3), (1, 2)])
    h.turn(2)
    assert [(e.data["why"], e.data["amount"]) for e in h.log.of("cash")] == [("Income Tax", 400), ("Luxury Tax", 200)]
    assert h.cash() == [1100, 1300]


def test_engine_go_salary():
    h = make_game(novel("go-salary", positions=[37, 34]), dice=[(2, 4), (2, 4)])
    h.turn(2)  # A passes Go, B lands on it
    assert [e.data["amount"] for e in h.log.cash("Go salary")] == [100, 100]
    assert h.cash() == [1600, 1600] and [p.position for p in h.state.players] == [BALTIC, GO]


def test_engine_jail_fine_pay_and_third_failed_roll():
    agents = [ScriptedAgent(jail="pay"), ScriptedAgent(jail="roll")]
    h = make_game(novel("jail-fine", in_jail={0: 0, 1: 2}), agents, dice=[(1, 2), (1, 2)])
    h.turn(2)
    assert [(e.player, e.data["why"], e.data["amount"]) for e in h.log.of("cash")] == [
        (0, "jail fine", 150),
        (1, "jail fine (third failed roll)", 150),
    ]
    assert h.cash() == [1350, 1350] and [p.position for p in h.state.players] == [STATES, STATES]


def test_engine_mortgage_rate():
    agents = [ScriptedAgent(acts=[Mortgage(BOARDWALK), Mortgage(MEDITERRANEAN), Unmortgage(BOARDWALK)]), ScriptedAgent()]
    h = make_game(novel("mortgage-rate", owner={BOARDWALK: 0, MEDITERRANEAN: 0}), agents, dice=[(2, 4)])
    h.turn()
    cash = [(e.data["why"], e.data["amount"]) for e in h.log.of("cash")]
    # 30% of $400 and of $60; lifting costs the value plus 10% interest, rounded up
    assert cash == [("mortgage", 120), ("mortgage", 18), ("mortgage lifted", 132)]
    assert h.cash()[0] == 1500 + 120 + 18 - 132


def test_engine_three_dice_all_equal_is_a_double():
    h = make_game(novel("three-dice"), dice=[(1, 1, 1), (2, 2, 1), (1, 2, 3)])
    h.turn()
    rolls = h.log.of("roll")
    assert [e.data["dice"] for e in rolls] == [(1, 1, 1), (2, 2, 1)]
    assert [e.data["doubles"] for e in rolls] == [True, False]  # a pair of three is no double
    assert h.state.players[0].position == BALTIC + 5 == VERMONT and h.state.to_move == 1
    h.turn()
    assert h.state.players[1].position == ORIENTAL


def test_engine_one_die_no_doubles_so_the_fine_after_three_rolls():
    agents = [ScriptedAgent(jail="roll"), ScriptedAgent()]
    dice = [(6,), (1,), (6,), (2,), (6,), (12,)]
    h = make_game(novel("one-die", in_jail={0: 0}), agents, dice=dice)
    h.turn(5)
    a = h.state.players[0]
    assert [e.data["dice"] for e in h.log.of("roll") if e.player == 0] == [(6,), (6,), (6,)]
    assert not any(e.data["doubles"] for e in h.log.of("roll"))
    assert [e.data["how"] for e in h.log.of("leave_jail")] == ["third roll"]
    assert not a.in_jail and a.position == ST_JAMES and a.cash == 1450
    h.turn()  # B throws a 12 from Baltic: one die, no extra roll
    assert h.state.players[1].position == 15 and h.state.to_move == 0


def test_engine_eight_sided_double_eights():
    h = make_game(novel("eight-sided"), dice=[(8, 8), (7, 8)])
    h.turn()
    assert [e.data["to"] for e in h.log.of("move")] == [16, 31]
    assert [e.data["doubles"] for e in h.log.of("roll")] == [True, False]


def test_engine_board_order_square_3_is_boardwalk():
    h = make_game(novel("board-order", owner={BOARDWALK: 1}), dice=[(1, 2)])
    h.turn()
    assert h.state.owner[3] == 1
    assert [e.data["amount"] for e in h.log.cash("rent on Boardwalk")] == [50]
    # The card "Advance to Boardwalk" from Chance (7) passes Go and stops on square 3.
    h = make_game(novel("board-order", owner={BOARDWALK: 1}), dice=[(3, 4)], decks={"chance": deck_order(CH_BOARDWALK)})
    h.turn()
    assert h.state.players[0].position == 3
    assert [(e.data["why"], e.data["amount"]) for e in h.log.of("cash")] == [("Go salary", 200), ("rent on Boardwalk", 50)]


def test_engine_regroup_orange_needs_four_lots():
    # A from Jail (just visiting) rolls 6 to St. James Place; from Go 6 to Oriental.
    three = {ST_JAMES: 1, TENNESSEE: 1, NEW_YORK: 1}
    for owned, rent in ((three, 14), ({**three, VERMONT: 1}, 28)):
        state = novel("regroup", positions=[JAIL, 0], owner=owned)
        assert (legal.why_not_build(state, 1, ST_JAMES) is None) == (rent == 28)
        h = make_game(state, dice=[(2, 4)])
        h.turn()
        assert h.cash() == [1500 - rent, 1500 + rent]
    h = make_game(novel("regroup", owner={ORIENTAL: 1, CONNECTICUT: 1}), dice=[(2, 4)])
    h.turn()
    assert h.cash() == [1488, 1512]  # light blue is complete with two lots: 2 x $6


def test_engine_smaller_sets_two_of_three():
    state = novel("smaller-sets", positions=[JAIL, 0], owner={ST_JAMES: 1, TENNESSEE: 1})
    assert legal.why_not_build(state, 1, ST_JAMES) is None
    h = make_game(state, dice=[(2, 4)])
    h.turn()
    assert h.cash() == [1472, 1528]  # 2 x $14 with 2 of the 3 orange lots
    h = make_game(make_state(2, positions=[JAIL, 0], owner={ST_JAMES: 1, TENNESSEE: 1}), dice=[(2, 4)])
    h.turn()
    assert h.cash() == [1486, 1514]  # the standard rules: $14


def test_engine_toll_squares_are_bought_and_charge_rent():
    # A's act phases: T1 before and after its roll, T2 before B's roll, T3 before C's roll: build.
    agents = [ScriptedAgent(buy=True, acts=[None, None, None, Build(INCOME_TAX)]), ScriptedAgent(), ScriptedAgent()]
    h = make_game(novel("toll-squares", 3), agents, dice=[(1, 3), (1, 3), (1, 3)])
    h.turn(2)
    assert h.state.owner[INCOME_TAX] == 0
    cash = [(e.player, e.data["why"], e.data["amount"]) for e in h.log.of("cash")]
    assert cash == [(0, "purchase", 200), (1, "rent on Income Toll", 32)]  # one toll is a set: 2 x $16
    h.turn()  # A builds a house on Income Toll ($100), then C lands there and pays $80
    assert [e.data["amount"] for e in h.log.cash("building")] == [100] and h.state.houses[INCOME_TAX] == 1
    assert [(e.player, e.data["amount"]) for e in h.log.cash("rent on Income Toll")] == [(1, 32), (2, 80)]


def test_engine_free_parking_pot_fills_and_pays_out_once():
    agents = [ScriptedAgent(buy=True), ScriptedAgent(jail="pay")]
    dice = [(1, 3), (3, 4), (1, 2), (1, 2), (2, 4), (2, 3)]
    decks = {"chance": deck_order(CH_SPEEDING), "community_chest": deck_order(CC_DOCTOR)}
    for name in ("free-parking", None):
        state = novel(name, in_jail={1: 0}) if name else make_state(2, in_jail={1: 0})
        h = make_game(state, agents if name else [ScriptedAgent(buy=True), ScriptedAgent(jail="pay")], dice=dice, decks=decks)
        pots = []
        for _ in range(6):
            h.turn()
            pots.append(h.game.pot)
        # A: Income Tax $200; B: fine $50 then Doctor's fee $50; A: Speeding $15;
        # B: Free Parking; A: buys States Avenue ($140: no pot); B: B&O, declined, no bids.
        assert [p.position for p in h.state.players] == [STATES, B_AND_O]
        if name:
            assert pots == [200, 300, 315, 0, 0, 0]
            payout = h.log.cash("Free Parking pot")
            assert [(e.data["frm"], e.data["to"], e.data["amount"]) for e in payout] == [(None, 1, 315)]
            assert h.cash() == [1500 - 200 - 15 - 140, 1500 - 50 - 50 + 315]
        else:
            assert pots == [0] * 6 and not h.log.cash("Free Parking pot")
            assert h.cash() == [1500 - 200 - 15 - 140, 1500 - 50 - 50]


def test_free_parking_pot_takes_repairs_and_the_third_jail_fine_not_bankruptcy():
    agents = [ScriptedAgent(), ScriptedAgent(jail="roll")]
    state = novel("free-parking", owner={MEDITERRANEAN: 0, BALTIC: 0}, houses={MEDITERRANEAN: 1, BALTIC: 1}, in_jail={1: 2})
    h = make_game(state, agents, dice=[(3, 4), (1, 2)], decks={"chance": deck_order(CH_REPAIRS)})
    h.turn()
    assert h.game.pot == 50  # 2 houses x $25
    h.turn()
    assert h.game.pot == 100 and h.log.cash("jail fine (third failed roll)")[0].data["amount"] == 50
    # Bankruptcy to the bank does not feed the pot.
    h = make_game(novel("free-parking", 3, cash=[100, 1500, 1500]), dice=[(1, 3)])
    h.turn()
    assert h.state.players[0].bankrupt and h.game.pot == 0
    assert [e.data["why"] for e in h.log.of("cash")] == ["bankruptcy"]


def test_engine_auction_only_never_offers():
    def play(state):
        agents = [ScriptedAgent(buy=True, auction=100), ScriptedAgent(auction=50)]
        h = make_game(state, agents, dice=[(1, 2)])
        h.turn()
        return h, agents

    h, agents = play(novel("auction-only"))
    assert agents[0].asked("buy") == [] and agents[0].asked("auction_max") == [BALTIC]
    assert [(e.data["winner"], e.data["price"]) for e in h.log.of("auction")] == [(0, 51)]
    assert h.state.owner[BALTIC] == 0 and h.cash()[0] == 1449
    h, agents = play(make_state(2))  # the standard rules: offered, bought at the printed $60
    assert agents[0].asked("buy") == [BALTIC] and h.cash()[0] == 1440 and not h.log.of("auction")


def test_batch_kernel_plays_the_rule_hooks_and_encodes_data_novelties():
    """The class novelties free-parking and auction-only are ordinary rules the kernel plays:
    encoded in its rules table, and the same games as the reference engine's, turn by turn
    (the pot in the trace; every lot auctioned, none bought)."""
    hooks = {"free-parking": (kernel.R_POT, kernel.POT_BANK), "auction-only": (kernel.R_AUCONLY, 1)}
    for name, (column, value) in hooks.items():
        state = novel(name, 4)
        assert encode(state, RolloutPolicy(), 10).B[7][column] == value
        events: list[str] = []
        pots = []

        def record(ev, game, events=events):
            events.append(ev.kind)

        for key in stream_keys(17, 3):
            ref = reference_trace(state, int(key), 30, observers=[record])
            assert np.array_equal(kernel_trace(state, int(key), 30), ref)
            pots += ref[:, TraceLayout.of(state).game + GAME_FIELDS.index("pot")].tolist()
        if name == "free-parking":
            assert max(pots) > 0
        else:
            assert "auction" in events and "buy" not in events
        assert simulate(state, 50, 30, seed=1).n_games == 50
    for name in ("three-dice", "board-order", "toll-squares", "smaller-sets"):
        tables = encode(novel(name), RolloutPolicy(), 10)
        assert tables.n_squares == N


# ---------------------------------------------------------------------------
# dice: the engine's throws and the exact chain
# ---------------------------------------------------------------------------
def movement_mc(rules: Rules, reps: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray, list[tuple[int, ...]]]:
    """``reps`` independent movement-only runs of ``k`` turns from Go (long jail policy):
    mean and SE of the landings per square (then in jail) over the ``k`` turns, and every throw."""
    state = GameState.new_game(["token", "idle"], STD, rules)
    counts = np.zeros((reps, N + 1))
    row = [counts[0]]
    throws: list[tuple[int, ...]] = []

    def observe(event, game):
        if event.kind == "roll_end" and event.player == 0:
            row[0][N if event.data["in_jail"] else event.data["position"]] += 1
        elif event.kind == "roll":
            throws.append(event.data["dice"])

    agents = [JailPolicyAgent("long"), JailPolicyAgent("long")]
    game = Game(state, agents, SeededStream(seed), movement_only=True, max_rounds=10**12, observers=[observe])
    token = state.players[0]
    for r in range(reps):
        row[0] = counts[r]
        token.position, token.in_jail, token.jail_turns = 0, False, 0
        for _ in range(k):
            state.to_move, state.phase = 0, "start"
            game.play_turn()
    return counts.mean(axis=0), counts.std(axis=0, ddof=1) / np.sqrt(reps), throws


def exact_pmf(dice: DiceSpec) -> dict[int, Fraction]:
    """The total of one throw by walking every face combination."""
    w = dice.weights or (1,) * dice.sides
    out: dict[int, Fraction] = {}
    for faces in product(range(1, dice.sides + 1), repeat=dice.count):
        p = Fraction(1)
        for f in faces:
            p *= Fraction(w[f - 1], sum(w))
        out[sum(faces)] = out.get(sum(faces), Fraction(0)) + p
    return out


@pytest.fixture(scope="module")
def std_chain():
    return PositionChain(STD, R0, "long")


@pytest.mark.parametrize(
    ("name", "faces", "p_double", "seed"),
    [("three-dice", 6, Fraction(1, 36), 11), ("one-die", 12, Fraction(0), 12), ("eight-sided", 8, Fraction(1, 8), 13),
     ("loaded-die", 6, Fraction(14, 64), 14)],
)  # fmt: skip
def test_dice_chain_against_the_engine(name, faces, p_double, seed, std_chain):
    board, rules = applied(name)
    chain = PositionChain(board, rules, "long")
    # the exact throw: walked by hand, against what the chain is built from
    pmf = exact_pmf(rules.dice)
    by_walk = [float(pmf.get(t, 0)) for t in range(rules.dice.count * faces + 1)]
    np.testing.assert_allclose(total_pmf(rules.dice), by_walk, atol=1e-15)
    assert chain.p_doubles == pytest.approx(float(p_double), abs=1e-15)
    assert chain.mean_total == pytest.approx(float(sum(t * p for t, p in pmf.items())))
    # the long-run table moves away from the standard one
    assert np.abs(chain.long_run_landing() - std_chain.long_run_landing()).max() > 2e-3
    # the engine: 4000 independent 20-turn runs from Go against the chain's exact expectation
    k = 20
    mean, se, throws = movement_mc(rules, 4000, k, seed)
    exact = chain.expected_landings(0, k).sum(axis=0)
    standard = std_chain.expected_landings(0, k).sum(axis=0)
    zero = se == 0
    assert np.all(exact[zero] == 0) and np.all(mean[zero] == 0)  # Go To Jail is never a landing
    z = (mean - exact)[~zero] / se[~zero]
    z_std = (mean - standard)[~zero] / se[~zero]
    assert np.abs(z).max() < 4.5, f"max |z| = {np.abs(z).max():.2f}"
    assert np.abs(z_std).max() > 6, f"the standard chain fits too: max |z| = {np.abs(z_std).max():.2f}"
    # the engine throws the novelty's dice
    assert {len(t) for t in throws} == {rules.dice.count}
    counts = np.bincount([f for t in throws for f in t], minlength=faces + 1)
    assert counts[0] == 0 and len(counts) == faces + 1 and counts[1:].min() > 0
    n = counts.sum()
    probs = np.array(rules.dice.face_probabilities())
    se_face = np.sqrt(probs * (1 - probs) / n)
    assert np.all(np.abs(counts[1:] / n - probs) < 5 * se_face), counts[1:] / n
    if name == "loaded-die":
        assert (counts[6] / n - 1 / 6) > 20 * se_face[5]  # far from a fair die


def test_one_die_first_turn_from_go_by_hand():
    board, rules = applied("one-die")
    chain = PositionChain(board, rules, "long")
    c = columns(N)
    row = chain.L[0]
    d = Fraction(1, 12)
    card = d / 16  # one card of a 16-card deck, drawn on square 2 (CC) or 7 (Chance)
    plain = {t: d for t in range(1, 13)}
    plain[2] = d * 14 / 16  # Community Chest: Advance to Go and Go to Jail move away
    plain[7] = d * 6 / 16  # Chance: 10 of the 16 cards move the token
    plain[GO] = 2 * card  # Advance to Go on both decks
    plain[INCOME_TAX] += card  # Go back 3 spaces
    plain[READING] += card
    plain[ST_CHARLES] += card
    plain[24] = card  # Illinois
    plain[BOARDWALK] = card
    expected = np.zeros(N)
    for sq, p in plain.items():
        expected[sq] = float(p)
    np.testing.assert_allclose(row[c["plain"]], expected, atol=1e-15)
    assert row[c["jail"]][0] == pytest.approx(float(2 * card))
    assert row[c["rr"]][15] == pytest.approx(float(2 * card)) and row[c["rr"]].sum() == pytest.approx(float(2 * card))
    assert row[c["ut"]][ELECTRIC] == pytest.approx(float(card)) and row[c["ut"]].sum() == pytest.approx(float(card))
    assert row[: 3 * N + 1].sum() == pytest.approx(1.0)  # exactly one roll per turn: no doubles


# ---------------------------------------------------------------------------
# board, rent and set-size novelties: the chain and the expected rent
# ---------------------------------------------------------------------------
def plain_landing(chain: PositionChain) -> np.ndarray:
    return long_run_blocks(chain)["plain"]


def test_ept_hotel_rent_and_rent_cut(std_chain):
    std = ept_table(std_chain)
    p = plain_landing(std_chain)
    hot = PositionChain(applied("hotel-rent")[0], R0)
    np.testing.assert_allclose(hot.long_run_landing(), std_chain.long_run_landing(), atol=1e-14)
    t = ept_table(hot)
    assert t["Boardwalk"][5] == pytest.approx(3000 * p[BOARDWALK]) and std["Boardwalk"][5] == pytest.approx(2000 * p[BOARDWALK])
    assert t["Boardwalk"][:5] == pytest.approx(std["Boardwalk"][:5])
    cut = ept_table(PositionChain(applied("rent-cut")[0], R0))
    assert cut["Baltic Avenue"][0] == pytest.approx(2 * 2 * p[BALTIC])  # complete group: 2 x $2
    assert std["Baltic Avenue"][0] == pytest.approx(2 * 4 * p[BALTIC])
    assert cut["Boardwalk"][5] == pytest.approx(1000 * p[BOARDWALK])


@pytest.mark.parametrize("name", ["house-cost", "price-hike", "tax-hike", "go-salary", "jail-fine", "mortgage-rate",
                                  "free-parking", "auction-only"])  # fmt: skip
def test_chain_and_ept_unchanged_where_movement_and_rents_are(name, std_chain):
    board, rules = applied(name)
    chain = PositionChain(board, rules, "long")
    np.testing.assert_allclose(chain.T, std_chain.T, atol=1e-15)
    std, new = ept_table(std_chain), ept_table(chain)
    assert new.keys() == std.keys() and all(new[k] == pytest.approx(std[k]) for k in std)


def test_board_order_chain_and_ept(std_chain):
    board, _ = applied("board-order")
    chain = PositionChain(board, R0)
    res, res_std = resolution(board), resolution(STD)
    assert res.plain[CHANCE1, 3] == pytest.approx(1 / 16) and res.plain[CHANCE1, 39] == 0
    assert res_std.plain[CHANCE1, BOARDWALK] == pytest.approx(1 / 16)
    # Independently: the same squares without following the card move exactly like the standard board,
    # so every difference of the new chain comes from the card that follows Boardwalk.
    unbound = Board("x", board.squares, STD.railroad_rents, STD.utility_multipliers, STD.chance, STD.community_chest)
    np.testing.assert_allclose(PositionChain(unbound, R0).T, std_chain.T, atol=1e-15)
    assert np.abs(chain.long_run_landing() - std_chain.long_run_landing()).max() > 1e-3
    p = plain_landing(chain)
    assert p[3] > plain_landing(std_chain)[3] + 1e-3 and p[39] < plain_landing(std_chain)[39] - 1e-3
    t = ept_table(chain)
    assert t["Boardwalk"][0] == pytest.approx(2 * 50 * p[3])
    assert t["Mediterranean Avenue"][5] == pytest.approx(250 * p[37])
    assert t["Boardwalk"][0] != pytest.approx(ept_table(std_chain)["Boardwalk"][0], rel=1e-3)
    state = novel("board-order", owner={BOARDWALK: 1})
    assert state_ept(chain, state)[3] == pytest.approx(50 * p[3]) and state_ept(chain, state)[39] == 0


def test_regroup_and_smaller_sets_ept(std_chain):
    p = plain_landing(std_chain)
    chain = PositionChain(applied("regroup")[0], R0)
    np.testing.assert_allclose(chain.T, std_chain.T, atol=1e-15)  # a group is not a place
    lb = novel("regroup", owner={ORIENTAL: 1, CONNECTICUT: 1, ST_JAMES: 0, TENNESSEE: 0, NEW_YORK: 0})
    e = state_ept(chain, lb)
    assert e[ORIENTAL] == pytest.approx(2 * 6 * p[ORIENTAL])  # light blue complete with 2
    assert e[ST_JAMES] == pytest.approx(14 * p[ST_JAMES])  # orange incomplete without Vermont
    orange = 6 * p[VERMONT] + 14 * p[ST_JAMES] + 14 * p[TENNESSEE] + 16 * p[NEW_YORK]
    assert ept_table(chain)["orange"][0] == pytest.approx(2 * orange)
    _, rules = applied("smaller-sets")
    chain = PositionChain(STD, rules)
    two = nv.inject(make_state(2, owner={ST_JAMES: 1, TENNESSEE: 1}), nv.get("smaller-sets"))
    assert state_ept(chain, two)[ST_JAMES] == pytest.approx(2 * 14 * p[ST_JAMES])
    assert state_ept(std_chain, make_state(2, owner={ST_JAMES: 1, TENNESSEE: 1}))[ST_JAMES] == pytest.approx(14 * p[ST_JAMES])


def test_toll_squares_chain_has_property_squares_at_4_and_38(std_chain):
    board, rules = applied("toll-squares")
    chain = PositionChain(board, rules)
    assert {INCOME_TAX, LUXURY_TAX} <= set(chain.board.property_squares)
    np.testing.assert_allclose(chain.T, std_chain.T, atol=1e-15)  # a toll is landed on like the tax was
    p = plain_landing(chain)
    t = ept_table(chain)
    assert t["Income Toll"] == pytest.approx([32 * p[4], 80 * p[4], 220 * p[4], 600 * p[4], 800 * p[4], 1000 * p[4]])
    assert t["Luxury Toll"][0] == pytest.approx(32 * p[38]) and t["toll"][0] == pytest.approx(32 * (p[4] + p[38]))
    state = nv.inject(make_state(2, owner={}), nv.get("toll-squares"))
    state.owner[INCOME_TAX] = 1
    assert state_ept(chain, state)[INCOME_TAX] == pytest.approx(32 * p[4])  # one toll is a set
