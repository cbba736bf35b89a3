"""Tests of the lenient loader (models.io.load_state(..., strict=False)): each repair, combined
repairs, valid documents untouched, and what it still refuses.

Each repair test builds a document that breaks one rule, checks that the strict loader refuses
it with the expected field, and that the lenient loader gives exactly the state of a hand-written
valid document with exactly the expected repairs.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from models.errors import InvalidStateError
from models.io import (
    REPAIR_RULES,
    LenientLoad,
    Repair,
    load_state,
    load_state_lenient,
    repair_state,
    state_to_dict,
    validate_state,
)
from models.state import GameState
from tests.models.test_io import INSTANCES, REFUSALS, example
from tests.state_fuzz import mutate, nudge

REPO = Path(__file__).resolve().parents[2]
BALTIC = 'properties["Baltic Avenue"]'
MEDITERRANEAN = 'properties["Mediterranean Avenue"]'


def strict_field(doc: dict[str, Any]) -> str:
    """The field the strict loader names when it refuses ``doc``."""
    with pytest.raises(InvalidStateError) as info:
        load_state(doc)
    return info.value.field


def check(doc: dict[str, Any], refused_at: str, expected: dict[str, Any], repairs: list[tuple[str, str]]) -> LenientLoad:
    """Strict refuses ``doc`` at ``refused_at``; lenient gives the state of ``expected`` and exactly
    ``repairs`` (field, rule), in order. Returns the lenient result."""
    before = copy.deepcopy(doc)
    assert strict_field(doc) == refused_at
    out = load_state(doc, strict=False)
    assert doc == before, "the lenient loader changed the caller's document"
    assert isinstance(out, LenientLoad)
    state, got = out
    assert [(r.field, r.rule) for r in got] == repairs, [str(r) for r in got]
    assert state == load_state(expected)
    for r in got:
        assert r.rule in REPAIR_RULES
        assert r.message and "\n" not in r.message
    validate_state(state)
    assert load_state(state_to_dict(state)) == state  # a repaired state writes a valid document
    return out


def v2(doc: dict[str, Any], **rules: Any) -> dict[str, Any]:
    """``doc`` in format 2 with the variant ``rules`` added."""
    doc["format"] = "monopoly-state/2"
    doc.setdefault("rules", {}).update(rules)
    return doc


# ---------------------------------------------------------------------------
# One test per repair
# ---------------------------------------------------------------------------


def test_negative_cash_is_set_to_zero_and_the_debt_dropped() -> None:
    doc = example()
    doc["players"][0]["cash"] = -120
    expected = example()
    expected["players"][0]["cash"] = 0
    _, (repair,) = check(doc, "players[0].cash", expected, [("players[0].cash", "negative_cash")])
    assert "-$120" in repair.message and "debt dropped" in repair.message


def test_cash_below_the_cash_limit_is_still_refused() -> None:
    doc = example()
    doc["players"][0]["cash"] = -1_000_001
    with pytest.raises(InvalidStateError) as info:
        load_state(doc, strict=False)
    assert info.value.field == "players[0].cash"


def test_jailed_player_off_the_jail_square_is_moved_there() -> None:
    doc = example()
    doc["players"][1]["position"] = 30  # the Go To Jail square: the other engine moved it later
    check(doc, "players[1].in_jail", example(), [("players[1].position", "jail_position")])


@pytest.mark.parametrize(
    ("player", "turns", "rules", "expected_turns"),
    [
        (1, 3, {}, 2),  # beyond the parser's bound too
        (1, 7, {}, 2),
        (1, 2, {"max_jail_rolls": 2}, 1),
        (1, 1, {"max_jail_rolls": 1}, 0),
        (0, 1, {}, 0),  # not in jail
    ],
)
def test_jail_turns_beyond_the_rules_are_set_to_the_limit(player: int, turns: int, rules: dict[str, Any], expected_turns: int) -> None:
    doc, expected = example(), example()
    if rules:
        v2(doc, **rules)
        v2(expected, **rules)
    doc["players"][player]["jail_turns"] = turns
    if expected_turns:
        expected["players"][player]["jail_turns"] = expected_turns
    else:
        expected["players"][player].pop("jail_turns", None)
    field = f"players[{player}].jail_turns"
    check(doc, field, expected, [(field, "jail_turns")])


def test_jail_cards_beyond_the_decks_are_taken_from_the_last_seats() -> None:
    doc = example()
    doc["players"][0]["jail_cards"] = 2  # Cy holds 1: 3 in all, the decks hold 2
    expected = example()
    expected["players"][0]["jail_cards"] = 2
    del expected["players"][2]["jail_cards"]
    check(doc, "players[2].jail_cards", expected, [("players[2].jail_cards", "jail_cards")])


def test_jail_cards_of_one_player_beyond_the_decks() -> None:
    doc = example()
    doc["players"][2]["jail_cards"] = 3
    expected = example()
    expected["players"][2]["jail_cards"] = 2
    check(doc, "players[2].jail_cards", expected, [("players[2].jail_cards", "jail_cards")])


def test_a_bankrupt_players_lots_return_to_the_bank() -> None:
    doc = example()
    doc["players"][2]["bankrupt"] = True  # Cy: Baltic and Mediterranean, 2 houses each
    expected = example()
    expected["players"][2]["bankrupt"] = True
    del expected["properties"]["Baltic Avenue"], expected["properties"]["Mediterranean Avenue"]
    out = check(doc, f"{MEDITERRANEAN}.owner", expected, [(f"{MEDITERRANEAN}.owner", "bankrupt_owner"), (f"{BALTIC}.owner", "bankrupt_owner")])
    assert "2 houses to the bank's supply" in out.repairs[0].message


def test_buildings_without_a_monopoly_return_to_the_bank() -> None:
    doc = example()
    doc["properties"]["Baltic Avenue"]["owner"] = "Ann"  # brown split between Ann and Cy, 2 houses each
    expected = example()
    expected["properties"]["Baltic Avenue"] = {"owner": "Ann"}
    expected["properties"]["Mediterranean Avenue"] = {"owner": "Cy"}
    check(
        doc,
        f"{MEDITERRANEAN}.houses",
        expected,
        [(f"{BALTIC}.houses", "buildings_without_monopoly"), (f"{MEDITERRANEAN}.houses", "buildings_without_monopoly")],
    )


def test_set_size_is_counted_for_a_monopoly() -> None:
    doc = v2(example())
    doc["rules"]["set_size"] = {"orange": 2}
    doc["properties"]["St. James Place"] = {"owner": "Ann", "houses": 1}
    expected = v2(example())
    expected["rules"]["set_size"] = {"orange": 2}
    expected["properties"]["St. James Place"] = {"owner": "Ann"}
    field = 'properties["St. James Place"].houses'
    check(doc, field, expected, [(field, "buildings_without_monopoly")])


def test_a_mortgage_beside_buildings_is_lifted() -> None:
    doc = example()
    doc["properties"]["Baltic Avenue"]["houses"] = 1
    doc["properties"]["Mediterranean Avenue"] = {"owner": "Cy", "mortgaged": True}
    expected = example()
    expected["properties"]["Baltic Avenue"]["houses"] = 1
    expected["properties"]["Mediterranean Avenue"] = {"owner": "Cy"}
    out = check(doc, f"{BALTIC}.houses", expected, [(f"{MEDITERRANEAN}.mortgaged", "mortgage_beside_buildings")])
    assert out.state.players[2].cash == 905  # lifted unpaid


def test_a_mortgaged_lot_carrying_buildings_is_lifted() -> None:
    doc = example()
    doc["properties"]["Baltic Avenue"]["mortgaged"] = True
    check(doc, f"{BALTIC}.houses", example(), [(f"{BALTIC}.mortgaged", "mortgage_beside_buildings")])


def test_uneven_building_is_spread_evenly_keeping_the_count() -> None:
    doc = example()
    doc["properties"]["Baltic Avenue"]["houses"] = 4
    doc["properties"]["Mediterranean Avenue"]["houses"] = 1
    expected = example()
    expected["properties"]["Baltic Avenue"]["houses"] = 3  # 5 levels: the lot that had the most keeps the extra one
    expected["properties"]["Mediterranean Avenue"]["houses"] = 2
    out = check(doc, f"{BALTIC}.houses", expected, [(f"{MEDITERRANEAN}.houses", "uneven_building"), (f"{BALTIC}.houses", "uneven_building")])
    assert "(1, 4)" in out.repairs[0].message and "(2, 3)" in out.repairs[0].message


def test_uneven_hotels_become_houses() -> None:
    doc = example()
    doc["properties"].update(
        {
            "Oriental Avenue": {"owner": "Ann", "houses": 5},
            "Vermont Avenue": {"owner": "Ann", "houses": 5},
            "Connecticut Avenue": {"owner": "Ann"},
        }
    )
    expected = copy.deepcopy(doc)
    # 10 levels on 3 lots: 3 each, and one more for a lot that had the most, the later one on the board
    expected["properties"]["Oriental Avenue"]["houses"] = 3
    expected["properties"]["Vermont Avenue"]["houses"] = 4
    expected["properties"]["Connecticut Avenue"]["houses"] = 3
    conn = 'properties["Connecticut Avenue"].houses'
    check(
        doc,
        'properties["Oriental Avenue"].houses',
        expected,
        [('properties["Oriental Avenue"].houses', "uneven_building"), ('properties["Vermont Avenue"].houses', "uneven_building"), (conn, "uneven_building")],
    )


def test_uneven_building_is_kept_without_the_even_building_rule() -> None:
    doc = v2(example(), even_building=False)
    doc["properties"]["Baltic Avenue"]["houses"] = 4
    state, repairs = load_state(doc, strict=False)
    assert repairs == () and state == load_state(doc)


@pytest.mark.parametrize(
    ("rules", "expected_rules", "levels"),
    [
        ({"houses": 3}, {"houses": 4}, (2, 2)),
        ({"hotels": 1}, {"hotels": 2}, (5, 5)),
    ],
)
def test_a_supply_below_the_board_is_raised(rules: dict[str, int], expected_rules: dict[str, int], levels: tuple[int, int]) -> None:
    doc = example()
    doc["rules"] = rules
    doc["properties"]["Mediterranean Avenue"]["houses"], doc["properties"]["Baltic Avenue"]["houses"] = levels
    expected = copy.deepcopy(doc)
    expected["rules"] = expected_rules
    (kind,) = rules
    out = check(doc, "properties", expected, [(f"rules.{kind}", "supply")])
    assert getattr(out.state.rules, kind) == expected_rules[kind]


def test_a_bankrupt_player_to_move_passes_the_turn() -> None:
    doc = example()
    doc["players"][1] = {"name": "Bob", "cash": 0, "bankrupt": True}
    del doc["properties"]["Indiana Avenue"], doc["properties"]["Boardwalk"]
    doc.update(to_move="Bob", phase="rolled", doubles_rolled=1, round=4)
    expected = copy.deepcopy(doc)
    expected.update(to_move="Cy", phase="start", doubles_rolled=0)
    check(doc, "to_move", expected, [("to_move", "to_move")])


def test_the_turn_passing_round_the_table_starts_a_round() -> None:
    doc = example()
    doc["players"][2] = {"name": "Cy", "cash": 0, "bankrupt": True}
    del doc["properties"]["Baltic Avenue"], doc["properties"]["Mediterranean Avenue"]
    doc.update(to_move="Cy", round=4)
    expected = copy.deepcopy(doc)
    expected.update(to_move="Ann", round=5)
    out = check(doc, "to_move", expected, [("to_move", "to_move")])
    assert "round 4 -> 5" in out.repairs[0].message


@pytest.mark.parametrize(
    ("phase", "doubles", "rules", "expected"),
    [
        ("start", 1, {}, 0),
        ("rolled", 3, {}, 2),
        ("rolled", 2, {"doubles_to_jail": 2}, 1),
        ("rolled", 1, {"doubles_again": False, "doubles_to_jail": 0}, 0),
    ],
)
def test_a_doubles_count_the_rules_do_not_allow_is_capped(phase: str, doubles: int, rules: dict[str, Any], expected: int) -> None:
    doc, want = example(), example()
    if rules:
        v2(doc, **rules)
        v2(want, **rules)
    doc.update(phase=phase, doubles_rolled=doubles)
    want.update(phase=phase, doubles_rolled=expected)
    check(doc, "doubles_rolled", want, [("doubles_rolled", "doubles_rolled")])


def test_a_pot_without_the_rule_is_dropped() -> None:
    doc = v2(example())
    doc["pot"] = 250
    check(doc, "pot", v2(example()), [("pot", "pot")])


def test_bank_cash_without_the_rule_is_dropped() -> None:
    doc = v2(example())
    doc["bank_cash"] = 5_000
    check(doc, "bank_cash", v2(example()), [("bank_cash", "bank_cash")])


# ---------------------------------------------------------------------------
# Repairs combined; valid documents; the API
# ---------------------------------------------------------------------------


def test_repairs_combined_in_their_order() -> None:
    doc = example()
    doc["players"][0]["cash"] = -40
    doc["players"][1].update(position=30, jail_turns=3)
    doc["players"][2].update(jail_cards=3)
    doc["properties"]["Baltic Avenue"].update(houses=4)
    doc["properties"]["Mediterranean Avenue"].update(houses=1)
    doc["properties"]["Park Place"] = {"owner": "Bob", "houses": 2}  # beside mortgaged Boardwalk, uneven
    doc["rules"] = {"houses": 4}  # 5 on brown + 2 on dark blue
    doc.update(phase="start", doubles_rolled=2)
    expected = example()
    expected["players"][0]["cash"] = 0
    expected["players"][1].update(jail_turns=2)
    expected["players"][2].update(jail_cards=2)
    expected["properties"]["Baltic Avenue"].update(houses=3)
    expected["properties"]["Mediterranean Avenue"].update(houses=2)
    expected["properties"]["Park Place"] = {"owner": "Bob", "houses": 1}
    expected["properties"]["Boardwalk"] = {"owner": "Bob", "houses": 1}
    expected["rules"] = {"houses": 7}
    out = check(
        doc,
        "players[0].cash",
        expected,
        [
            ("players[0].cash", "negative_cash"),
            ("players[1].position", "jail_position"),
            ("players[1].jail_turns", "jail_turns"),
            ("players[2].jail_cards", "jail_cards"),
            (f"{MEDITERRANEAN}.houses", "uneven_building"),
            (f"{BALTIC}.houses", "uneven_building"),
            ('properties["Boardwalk"].mortgaged', "mortgage_beside_buildings"),
            ('properties["Park Place"].houses', "uneven_building"),
            ('properties["Boardwalk"].houses', "uneven_building"),
            ("rules.houses", "supply"),
            ("doubles_rolled", "doubles_rolled"),
        ],
    )
    assert str(out.repairs[0]).startswith("players[0].cash: -$40")


def test_levelling_feeds_the_supply() -> None:
    """Spreading a hotel and a house evenly takes 6 houses from a supply of 4: the supply is raised."""
    doc = example()
    doc["rules"] = {"houses": 4}
    doc["properties"]["Mediterranean Avenue"]["houses"] = 5
    doc["properties"]["Baltic Avenue"]["houses"] = 1
    expected = example()
    expected["rules"] = {"houses": 6}
    expected["properties"]["Mediterranean Avenue"]["houses"] = 3
    expected["properties"]["Baltic Avenue"]["houses"] = 3
    repairs = [(f"{MEDITERRANEAN}.houses", "uneven_building"), (f"{BALTIC}.houses", "uneven_building"), ("rules.houses", "supply")]
    check(doc, f"{MEDITERRANEAN}.houses", expected, repairs)


def test_a_bankrupt_owner_and_a_bankrupt_to_move() -> None:
    """Cy, bankrupt, still owns a lot and is to move: the lot goes back to the bank, the turn to Ann."""
    doc = v2(example())
    doc["rules"]["set_size"] = {"orange": 2}
    doc["players"][2]["bankrupt"] = True
    del doc["properties"]["Baltic Avenue"], doc["properties"]["Mediterranean Avenue"]
    doc["properties"]["St. James Place"] = {"owner": "Ann", "houses": 1}
    doc["properties"]["Tennessee Avenue"] = {"owner": "Ann", "houses": 1}
    doc["properties"]["New York Avenue"] = {"owner": "Cy"}
    doc["to_move"] = "Cy"
    expected = copy.deepcopy(doc)
    del expected["properties"]["New York Avenue"]
    expected["to_move"] = "Ann"
    expected["round"] = 1
    check(doc, 'properties["New York Avenue"].owner', expected, [('properties["New York Avenue"].owner', "bankrupt_owner"), ("to_move", "to_move")])


@pytest.mark.parametrize("path", [*INSTANCES, None], ids=[p.name for p in INSTANCES] + ["spec-example"])
def test_a_valid_document_gives_no_repairs_and_the_strict_state(path: Path | None) -> None:
    doc = example() if path is None else json.loads(path.read_text())
    state, repairs = load_state(doc, strict=False)
    assert repairs == ()
    assert state == load_state(doc)
    assert load_state_lenient(doc) == (state, ())


def test_the_api() -> None:
    doc = example()
    doc["players"][0]["cash"] = -1
    assert isinstance(load_state(example()), GameState)  # strict: the state alone
    assert isinstance(load_state(example(), strict=True), GameState)
    out = load_state_lenient(doc)
    assert out == load_state(doc, strict=False)
    assert out.state is out[0] and out.repairs is out[1] and isinstance(out.repairs, tuple)
    assert out.repairs == (Repair("players[0].cash", "negative_cash", out.repairs[0].message),)
    with pytest.raises(AttributeError):
        out.repairs[0].rule = "x"  # type: ignore[misc]


def test_lenient_load_from_a_path(tmp_path: Path) -> None:
    doc = example()
    doc["players"][0]["cash"] = -5
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    assert load_state(path, strict=False) == load_state(str(path), strict=False) == load_state_lenient(doc)
    path.write_text("{")
    with pytest.raises(InvalidStateError):
        load_state(path, strict=False)


def test_repair_state_returns_a_repaired_copy() -> None:
    state = load_state(example())
    state.players[0].cash = -75
    state.houses[state.square_of("Baltic Avenue")] = 4
    fixed, repairs = repair_state(state)
    assert state.players[0].cash == -75 and state.houses[state.square_of("Baltic Avenue")] == 4
    assert [r.rule for r in repairs] == ["negative_cash", "uneven_building", "uneven_building"]
    assert fixed.players[0].cash == 0
    assert (fixed.houses[fixed.square_of("Mediterranean Avenue")], fixed.houses[fixed.square_of("Baltic Avenue")]) == (3, 3)


# ---------------------------------------------------------------------------
# What the lenient loader still refuses
# ---------------------------------------------------------------------------

REPAIRED = {
    "negative-cash", "incomplete-group", "incomplete-group-bank", "set-size-not-met", "mortgaged-member",
    "mortgaged-with-houses", "uneven", "uneven-hotel", "uneven-zero", "house-supply", "hotel-supply",
    "jail-turns-not-in-jail", "jail-turns-3", "jail-cards-3", "jail-cards-total", "bankrupt-owner",
    "in-jail-off-square", "in-jail-no-position", "to-move-bankrupt", "doubles-at-start", "doubles-3",
}  # fmt: skip
"""The strict loader's refusals (tests/models/test_io.py REFUSALS) that the lenient loader repairs."""


def test_the_repaired_refusals_are_refusals() -> None:
    assert REPAIRED <= {r[0] for r in REFUSALS}


@pytest.mark.parametrize(("name", "mutation", "field"), [(r[0], r[1], r[2]) for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_every_strict_refusal_is_repaired_or_refused_alike(name: str, mutation: Any, field: str) -> None:
    doc = example()
    mutation(doc)
    if name in REPAIRED:
        state, repairs = load_state(doc, strict=False)
        assert repairs
        validate_state(state)
        return
    with pytest.raises(InvalidStateError) as strict:
        load_state(doc)
    with pytest.raises(InvalidStateError) as lenient:
        load_state(doc, strict=False)
    assert (lenient.value.field, lenient.value.message) == (strict.value.field, strict.value.message) == (field, strict.value.message)


@pytest.mark.parametrize(
    ("where", "value", "field"),
    [
        (("format",), "monopoly-state/9", "format"),
        (("players", 0, "cash"), "12", "players[0].cash"),
        (("players", 0, "cash"), True, "players[0].cash"),
        (("players", 1, "jail_turns"), -1, "players[1].jail_turns"),
        (("properties", "Baltic Avenue", "houses"), 6, f"{BALTIC}.houses"),
        (("pot",), 100, "pot"),  # a format-2 field in format 1
    ],
)
def test_unrepairable_documents_still_raise(where: tuple[Any, ...], value: Any, field: str) -> None:
    doc = example()
    target: Any = doc
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    with pytest.raises(InvalidStateError) as info:
        load_state(doc, strict=False)
    assert info.value.field == field


def test_every_player_bankrupt_is_refused() -> None:
    doc = example()
    for p in doc["players"]:
        p["bankrupt"] = True
    with pytest.raises(InvalidStateError) as info:
        load_state(doc, strict=False)
    assert info.value.field == "players"


@pytest.mark.parametrize("seed", range(3))
def test_fuzzed_documents(seed: int) -> None:
    """Mutated documents: the lenient loader accepts everything the strict one does, unchanged, and
    refuses only with an InvalidStateError; whatever it returns is valid and writes a valid document."""
    rng = random.Random(seed)
    docs = [example(), *(json.loads(p.read_text()) for p in INSTANCES)]
    for k in range(300):
        base = docs[k % len(docs)]
        doc = nudge(base, rng, rng.randint(1, 3)) if k % 2 else mutate(base, rng, 1)
        try:
            strict: GameState | None = load_state(doc)
        except InvalidStateError:
            strict = None
        try:
            state, repairs = load_state(doc, strict=False)
        except InvalidStateError:
            assert strict is None
            continue
        if strict is not None:
            assert repairs == () and state == strict
        validate_state(state)
        assert load_state(state_to_dict(state)) == state


def _foreign(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``doc`` broken as another engine may break it, only in ways the lenient loader repairs."""
    out = copy.deepcopy(doc)
    players, props = out["players"], out.setdefault("properties", {})
    board = load_state(doc).board
    for _ in range(rng.randint(1, 6)):
        p = rng.choice(players)
        kind = rng.randrange(8)
        if kind == 0:
            p["cash"] = -rng.randint(1, 5_000)
        elif kind == 1 and props:
            name = rng.choice(sorted(props))
            if board.squares[board.property_index[name]].kind == "street":
                props[name]["houses"] = rng.randint(0, 5)
        elif kind == 2 and props:
            props[rng.choice(sorted(props))]["mortgaged"] = True
        elif kind == 3 and sum(not q.get("bankrupt", False) for q in players) > 1:
            p["bankrupt"] = True
        elif kind == 4:
            p.update(in_jail=rng.random() < 0.5, position=rng.randrange(board.size), jail_turns=rng.randint(0, 5))
        elif kind == 5:
            p["jail_cards"] = rng.randint(0, 4)
        elif kind == 6:
            out["to_move"] = p["name"]
        else:
            out.update(phase=rng.choice(("start", "rolled")), doubles_rolled=rng.randint(0, 4))
    return out


@pytest.mark.parametrize("seed", range(2))
def test_foreign_states_always_load(seed: int) -> None:
    """Documents broken only in repairable ways always load leniently, to a valid state."""
    rng = random.Random(seed)
    docs = [example(), *(json.loads(p.read_text()) for p in INSTANCES)]
    rules: set[str] = set()
    for k in range(200):
        doc = _foreign(docs[k % len(docs)], rng)
        state, repairs = load_state(doc, strict=False)
        validate_state(state)
        assert load_state(state_to_dict(state)) == state
        rules.update(r.rule for r in repairs)
    assert rules >= set(REPAIR_RULES) - {"pot", "bank_cash", "supply", "pending"}


# ---------------------------------------------------------------------------
# The documentation
# ---------------------------------------------------------------------------


def test_the_docs_table_lists_every_repair() -> None:
    text = (REPO / "docs" / "state-format.md").read_text()
    section = text.split("## Lenient loading", 1)[1].split("\n## ", 1)[0]
    codes = re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE)
    assert codes == list(REPAIR_RULES)


def test_a_pending_question_the_repairs_undo_is_dropped() -> None:
    doc = json.loads((REPO / "instances" / "pending-debt.json").read_text())
    doc["players"][0]["cash"] = -50  # the foreign engine's way to hold the debt: the repair sets it to 0
    doc["pending"]["owed"] = 200
    state, repairs = load_state(doc, strict=False)
    assert state.pending is not None and [r.rule for r in repairs] == ["negative_cash"]  # still a debt above $0
    doc["players"][0]["bankrupt"] = True  # Ann out: her lots go back to the bank, the debt cannot stand
    doc["to_move"] = "Bob"
    state, repairs = load_state(doc, strict=False)
    assert state.pending is None and repairs[-1].rule == "pending" and "'Ann' is bankrupt" in repairs[-1].message
