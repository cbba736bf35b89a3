"""Tests of models.io: loading, refusing, saving and the JSON Schema of the state format."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.board import HOTEL, Board, parse_board, standard_board
from models.errors import InvalidStateError
from models.io import (
    dumps_state,
    jail_cards_in_decks,
    load_state,
    save_state,
    state_schema,
    state_to_dict,
    validate_state,
)
from models.rules import DiceSpec, Rules
from models.state import BANK, GameState, PlayerState

REPO = Path(__file__).resolve().parents[2]
INSTANCES = sorted((REPO / "instances").glob("*.json"))

# The example of the spec (shared/spec/state-format.md), verbatim.
SPEC_EXAMPLE: dict[str, Any] = {
    "format": "monopoly-state/1",
    "board": "standard-us",
    "rules": {"houses": 32, "hotels": 12},
    "players": [
        {"name": "Ann", "cash": 640, "position": 24},
        {"name": "Bob", "cash": 310, "position": 10, "in_jail": True, "jail_turns": 1},
        {"name": "Cy", "cash": 905, "position": 39, "jail_cards": 1},
    ],
    "properties": {
        "Illinois Avenue": {"owner": "Ann"},
        "Kentucky Avenue": {"owner": "Ann"},
        "Indiana Avenue": {"owner": "Bob"},
        "Baltic Avenue": {"owner": "Cy", "houses": 2},
        "Mediterranean Avenue": {"owner": "Cy", "houses": 2},
        "Boardwalk": {"owner": "Bob", "mortgaged": True},
    },
    "to_move": "Ann",
}


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(state_schema())


def example() -> dict[str, Any]:
    """A fresh deep copy of the spec's example."""
    return copy.deepcopy(SPEC_EXAMPLE)


# ---------------------------------------------------------------------------
# Loading valid documents
# ---------------------------------------------------------------------------


def test_spec_example_loads() -> None:
    state = load_state(example())
    b = state.board
    assert b.builtin and b.name == "standard-us"
    assert state.rules == Rules()
    assert [p.name for p in state.players] == ["Ann", "Bob", "Cy"]
    bob = state.players[1]
    assert (bob.in_jail, bob.jail_turns, bob.position) == (True, 1, 10)
    assert state.players[2].jail_cards == 1
    assert state.owner[b.property_index["Baltic Avenue"]] == 2
    assert state.houses[b.property_index["Baltic Avenue"]] == 2
    assert state.mortgaged[b.property_index["Boardwalk"]]
    assert state.owner[b.property_index["Park Place"]] == BANK
    assert (state.to_move, state.round, state.phase, state.doubles_rolled) == (0, 0, "start", 0)


def test_minimal_document_takes_defaults() -> None:
    players = [{"name": "Ann", "cash": 0}, {"name": "Bob", "cash": 9}]
    state = load_state({"format": "monopoly-state/1", "players": players})
    assert state.board is standard_board()
    assert state.rules == Rules()
    assert state.players[0] == PlayerState("Ann", 0)
    assert all(o == BANK for o in state.owner)
    assert (state.to_move, state.round, state.phase, state.doubles_rolled) == (0, 0, "start", 0)


def test_to_move_defaults_to_first_active_player() -> None:
    doc = example()
    doc["players"][0]["bankrupt"] = True
    for name in ("Illinois Avenue", "Kentucky Avenue"):
        del doc["properties"][name]
    del doc["to_move"]
    assert load_state(doc).to_move == 1


def test_rules_overrides_are_parsed() -> None:
    doc = example()
    doc["rules"] = {
        "go_salary": 400,
        "jail_fine": 100,
        "houses": 20,
        "hotels": 4,
        "mortgage_interest": 0,
        "dice": {"count": 3, "sides": 4, "weights": [1, 2, 3, 0.5]},
        "set_size": {"green": 2, "railroad": 2},
    }
    rules = load_state(doc).rules
    assert (rules.go_salary, rules.jail_fine, rules.houses, rules.hotels) == (400, 100, 20, 4)
    assert rules.mortgage_interest == 0.0
    assert rules.dice == DiceSpec(3, 4, (1.0, 2.0, 3.0, 0.5))
    assert dict(rules.set_size) == {"green": 2, "railroad": 2}


def test_set_size_allows_building_on_part_of_a_group() -> None:
    doc = example()
    doc["rules"] = {"set_size": {"orange": 2}}
    doc["properties"]["St. James Place"] = {"owner": "Ann", "houses": 3}
    doc["properties"]["Tennessee Avenue"] = {"owner": "Ann", "houses": 2}
    doc["properties"]["New York Avenue"] = {"owner": "Bob", "mortgaged": True}
    state = load_state(doc)
    assert state.has_monopoly(0, "orange")


def test_hotel_next_to_four_houses_is_even() -> None:
    doc = example()
    doc["properties"]["Baltic Avenue"]["houses"] = HOTEL
    doc["properties"]["Mediterranean Avenue"]["houses"] = 4
    state = load_state(doc)
    assert (state.houses_on_board(), state.hotels_on_board()) == (4, 1)


def test_supply_counts_houses_and_hotels_separately() -> None:
    doc = example()
    doc["rules"] = {"houses": 0, "hotels": 2}
    doc["properties"]["Baltic Avenue"]["houses"] = HOTEL
    doc["properties"]["Mediterranean Avenue"]["houses"] = HOTEL
    assert load_state(doc).hotels_in_bank() == 0


def test_load_from_paths(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(SPEC_EXAMPLE), encoding="utf-8")
    assert load_state(path) == load_state(str(path)) == load_state(SPEC_EXAMPLE)


@pytest.mark.parametrize(
    "text",
    ["{", '{"format": "monopoly-state/1", "format": "monopoly-state/1"}', '{"x": NaN}', "[]", "3"],
    ids=["truncated", "duplicate-key", "nan", "list", "number"],
)
def test_bad_json_files_are_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidStateError):
        load_state(path)


def test_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        load_state(tmp_path / "absent.json")


def test_load_refuses_other_argument_types() -> None:
    with pytest.raises(InvalidStateError):
        load_state(42)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------


def test_instances_present() -> None:
    names = {p.name for p in INSTANCES}
    required = {
        "opening.json",
        "midgame-no-monopolies.json",
        "late-game-house-shortage.json",
        "near-ruin.json",
        "mortgaged.json",
        "two-player.json",
    }
    assert required <= names
    readme = (REPO / "instances" / "README.md").read_text(encoding="utf-8")
    for name in names:
        assert f"`{name}`" in readme, name


@pytest.mark.parametrize("path", INSTANCES, ids=[p.name for p in INSTANCES])
def test_instance_round_trip(path: Path, tmp_path: Path, validator: jsonschema.Draft202012Validator) -> None:
    raw = json.loads(path.read_text(encoding="utf-8"))
    validator.validate(raw)
    state = load_state(path)
    out = tmp_path / path.name
    save_state(state, out)
    assert load_state(out) == state
    validator.validate(json.loads(out.read_text(encoding="utf-8")))


def test_opening_instance() -> None:
    state = load_state(REPO / "instances" / "opening.json")
    assert len(state.players) == 4
    assert all(p.cash == 1500 and p.position == 0 for p in state.players)
    assert not any(o != BANK for o in state.owner)


def test_midgame_instance_has_no_monopoly_but_complementary_pairs() -> None:
    state = load_state(REPO / "instances" / "midgame-no-monopolies.json")
    assert len(state.players) == 4
    assert sum(1 for _ in state.iter_owned()) >= 20
    for player in range(4):
        assert state.complete_groups(player) == []
    # Ann <-> Bob: orange for red.
    ann, bob = state.player_index("Ann"), state.player_index("Bob")
    assert state.count_in_group(ann, "orange") == 2 and state.count_in_group(bob, "orange") == 1
    assert state.count_in_group(bob, "red") == 2 and state.count_in_group(ann, "red") == 1


def test_house_shortage_instance() -> None:
    state = load_state(REPO / "instances" / "late-game-house-shortage.json")
    assert 0 <= state.houses_in_bank() <= 2
    four_house_groups = [
        g for g in state.board.street_groups if all(state.houses[sq] == 4 for sq in state.board.groups[g])
    ]
    assert len(four_house_groups) >= 2


def test_near_ruin_instance() -> None:
    state = load_state(REPO / "instances" / "near-ruin.json")
    poor = min(state.active_players(), key=lambda i: state.players[i].cash)
    assert state.players[poor].cash < 100
    rivals = [i for i in state.active_players() if i != poor]
    assert any(state.building_counts(i) != (0, 0) for i in rivals)


def test_mortgaged_instance() -> None:
    state = load_state(REPO / "instances" / "mortgaged.json")
    assert sum(state.mortgaged) >= 4
    groups = state.board.groups
    assert any(
        state.has_monopoly(p, g) and not state.group_has_buildings(g) and any(state.mortgaged[sq] for sq in groups[g])
        for p in state.active_players()
        for g in state.board.street_groups
    )


def test_two_player_instance() -> None:
    assert len(load_state(REPO / "instances" / "two-player.json").players) == 2


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


def test_state_to_dict_of_spec_example() -> None:
    doc = state_to_dict(load_state(example()))
    assert list(doc) == ["format", "board", "players", "properties", "to_move", "round", "phase", "doubles_rolled"]
    assert doc["board"] == "standard-us"
    assert doc["players"][1] == {"name": "Bob", "cash": 310, "position": 10, "in_jail": True, "jail_turns": 1}
    assert doc["properties"]["Boardwalk"] == {"owner": "Bob", "mortgaged": True}
    assert doc["properties"]["Illinois Avenue"] == {"owner": "Ann"}
    assert set(doc["properties"]) == set(SPEC_EXAMPLE["properties"])
    assert doc["to_move"] == "Ann"


def test_rules_written_as_overrides_only() -> None:
    doc = example()
    doc["rules"] = {"go_salary": 200, "jail_fine": 75, "dice": {"count": 2, "sides": 6}}
    assert state_to_dict(load_state(doc))["rules"] == {"jail_fine": 75}


def test_inline_board_written_inline() -> None:
    doc = example()
    board_doc = standard_board().to_dict()
    board_doc["name"] = "double-rent"
    doc["board"] = board_doc
    state = load_state(doc)
    assert not state.board.builtin
    out = state_to_dict(state)
    assert isinstance(out["board"], dict) and out["board"]["name"] == "double-rent"
    assert load_state(out) == state


def test_dumps_state_layout() -> None:
    state = load_state(example())
    text = dumps_state(state)
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text.startswith('{\n  "format": "monopoly-state/1",\n')
    assert json.loads(text) == state_to_dict(state)
    assert dumps_state(load_state(json.loads(text))) == text


def test_save_state_writes_atomically(tmp_path: Path) -> None:
    state = load_state(example())
    path = tmp_path / "game.json"
    path.write_text("old", encoding="utf-8")
    save_state(state, path)
    assert path.read_text(encoding="utf-8") == dumps_state(state)
    assert os.listdir(tmp_path) == ["game.json"]


def test_save_state_failure_leaves_target_and_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    path.write_text("old", encoding="utf-8")

    def boom(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        save_state(load_state(example()), path)
    assert path.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["game.json"]


# ---------------------------------------------------------------------------
# Schema
# ---------------------------------------------------------------------------


def test_schema_is_valid_draft_2020_12() -> None:
    schema = state_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    schema["title"] = "changed"
    assert state_schema()["title"] != "changed"


def test_schema_accepts_spec_example(validator: jsonschema.Draft202012Validator) -> None:
    validator.validate(SPEC_EXAMPLE)


def test_schema_knows_standard_property_names(validator: jsonschema.Draft202012Validator) -> None:
    names = validator.schema["allOf"][1]["then"]["properties"]["properties"]["propertyNames"]["enum"]
    board = standard_board()
    assert names == [board.squares[i].name for i in board.property_squares]


# ---------------------------------------------------------------------------
# Refusals: one case per rule of the spec's list "What a loader must refuse"
# ---------------------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], None]


def _set(*path_and_value: Any) -> Mutation:
    *path, value = path_and_value

    def mutate(doc: dict[str, Any]) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _delete(*path: Any) -> Mutation:
    def mutate(doc: dict[str, Any]) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


def _all(*mutations: Mutation) -> Mutation:
    def mutate(doc: dict[str, Any]) -> None:
        for m in mutations:
            m(doc)

    return mutate


def _bob_bankrupt(doc: dict[str, Any]) -> None:
    doc["players"][1] = {"name": "Bob", "cash": 0, "bankrupt": True}
    del doc["properties"]["Indiana Avenue"], doc["properties"]["Boardwalk"]


def _nine_players(doc: dict[str, Any]) -> None:
    doc["players"] += [{"name": n, "cash": 100} for n in ("Dee", "Eve", "Fay", "Gus", "Hal", "Ida")]


def _everyone_bankrupt(doc: dict[str, Any]) -> None:
    doc["players"] = [{"name": "Ann", "cash": 0, "bankrupt": True}, {"name": "Bob", "cash": 0, "bankrupt": True}]
    doc["properties"] = {}
    del doc["to_move"]


BALTIC = 'properties["Baltic Avenue"]'
MEDITERRANEAN = 'properties["Mediterranean Avenue"]'

# (id, mutation of the spec example, field the error must name, the schema also rejects it)
REFUSALS: list[tuple[str, Mutation, str, bool]] = [
    # unknown format
    ("unknown-format", _set("format", "monopoly-state/9"), "format", True),
    ("format-missing", _delete("format"), "format", True),
    ("format-not-string", _set("format", 1), "format", True),
    # unknown keys, at every level
    ("unknown-top-key", _set("turn", "Ann"), "turn", True),
    ("unknown-player-key", _set("players", 0, "money", 5), "players[0].money", True),
    ("typo-mortaged", _set("properties", "Boardwalk", "mortaged", True), 'properties["Boardwalk"].mortaged', True),
    ("unknown-rules-key", _set("rules", "house", 30), "rules.house", True),
    ("unknown-dice-key", _set("rules", "dice", {"count": 2, "faces": 6}), "rules.dice.faces", True),
    # values of the wrong type (JSON true is not an integer)
    ("cash-true", _set("players", 0, "cash", True), "players[0].cash", True),
    ("cash-string", _set("players", 0, "cash", "640"), "players[0].cash", True),
    ("cash-float", _set("players", 0, "cash", 640.5), "players[0].cash", True),
    # 640.0 is an integer to JSON Schema, but the loader wants an integer literal.
    ("cash-integral-float", _set("players", 0, "cash", 640.0), "players[0].cash", False),
    ("position-string", _set("players", 0, "position", "24"), "players[0].position", True),
    ("in-jail-int", _set("players", 1, "in_jail", 1), "players[1].in_jail", True),
    ("houses-true", _set("properties", "Baltic Avenue", "houses", True), f"{BALTIC}.houses", True),
    ("mortgaged-int", _set("properties", "Boardwalk", "mortgaged", 1), 'properties["Boardwalk"].mortgaged', True),
    ("owner-null", _set("properties", "Boardwalk", "owner", None), 'properties["Boardwalk"].owner', True),
    ("owner-missing", _delete("properties", "Boardwalk", "owner"), 'properties["Boardwalk"].owner', True),
    ("cash-missing", _delete("players", 0, "cash"), "players[0].cash", True),
    ("players-object", _set("players", {"Ann": 1}), "players", True),
    ("properties-list", _set("properties", []), "properties", True),
    ("rules-list", _set("rules", [32]), "rules", True),
    ("board-number", _set("board", 5), "board", True),
    ("unknown-board", _set("board", "standard-uk"), "board", True),
    ("round-string", _set("round", "3"), "round", True),
    ("to-move-int", _set("to_move", 0), "to_move", True),
    # unknown property or player name
    ("unknown-property", _set("properties", "Boardwalk Ave", {"owner": "Ann"}), 'properties["Boardwalk Ave"]', True),
    ("non-property-square", _set("properties", "Go", {"owner": "Ann"}), 'properties["Go"]', True),
    ("unknown-owner", _set("properties", "Boardwalk", "owner", "Zed"), 'properties["Boardwalk"].owner', False),
    # duplicate player names; empty names; player count
    ("duplicate-player", _set("players", 2, "name", "Ann"), "players[2].name", False),
    ("empty-name", _set("players", 0, "name", ""), "players[0].name", True),
    ("one-player", _set("players", [{"name": "Ann", "cash": 1}]), "players", True),
    ("nine-players", _nine_players, "players", True),
    # negative cash; position off the board
    ("negative-cash", _set("players", 0, "cash", -1), "players[0].cash", True),
    ("position-40", _set("players", 0, "position", 40), "players[0].position", True),
    ("position-negative", _set("players", 0, "position", -1), "players[0].position", True),
    # houses on a railroad or utility
    ("houses-railroad", _set("properties", "Reading Railroad", {"owner": "Ann", "houses": 1}),
     'properties["Reading Railroad"].houses', True),
    ("hotel-utility", _set("properties", "Water Works", {"owner": "Ann", "houses": 5}),
     'properties["Water Works"].houses', True),
    # houses on a street whose group is not complete in one hand ...
    ("incomplete-group", _set("properties", "Baltic Avenue", "owner", "Ann"), f"{MEDITERRANEAN}.houses", False),
    ("incomplete-group-bank", _delete("properties", "Mediterranean Avenue"), f"{BALTIC}.houses", False),
    ("set-size-not-met", _all(_set("rules", {"set_size": {"orange": 2}}),
                              _set("properties", "St. James Place", {"owner": "Ann", "houses": 1})),
     'properties["St. James Place"].houses', False),
    # ... or has a mortgaged member; a mortgaged lot carrying buildings
    ("mortgaged-member", _all(_set("properties", "Mediterranean Avenue", {"owner": "Cy", "mortgaged": True}),
                              _set("properties", "Baltic Avenue", "houses", 1)), f"{BALTIC}.houses", False),
    ("mortgaged-with-houses", _set("properties", "Baltic Avenue", "mortgaged", True), f"{BALTIC}.houses", True),
    # uneven building within a group
    ("uneven", _set("properties", "Baltic Avenue", "houses", 4), f"{BALTIC}.houses", False),
    ("uneven-hotel", _set("properties", "Mediterranean Avenue", "houses", 5), f"{MEDITERRANEAN}.houses", False),
    ("uneven-zero", _set("properties", "Mediterranean Avenue", "houses", 0), f"{BALTIC}.houses", False),
    # more houses or hotels on the board than the total supply
    ("house-supply", _set("rules", {"houses": 3}), "properties", False),
    ("hotel-supply", _all(_set("rules", {"hotels": 1}), _set("properties", "Baltic Avenue", "houses", 5),
                          _set("properties", "Mediterranean Avenue", "houses", 5)), "properties", False),
    # houses above 5
    ("houses-6", _set("properties", "Baltic Avenue", "houses", 6), f"{BALTIC}.houses", True),
    ("houses-negative", _set("properties", "Baltic Avenue", "houses", -1), f"{BALTIC}.houses", True),
    # jail_turns above 0 for a player not in jail; jail_turns out of range
    ("jail-turns-not-in-jail", _set("players", 0, "jail_turns", 1), "players[0].jail_turns", True),
    ("jail-turns-3", _set("players", 1, "jail_turns", 3), "players[1].jail_turns", True),
    # more Get Out of Jail Free cards than the decks hold
    ("jail-cards-3", _set("players", 2, "jail_cards", 3), "players[2].jail_cards", False),
    ("jail-cards-total", _all(_set("players", 0, "jail_cards", 1), _set("players", 1, "jail_cards", 1)),
     "players[2].jail_cards", False),
    ("jail-cards-negative", _set("players", 2, "jail_cards", -1), "players[2].jail_cards", True),
    # a bankrupt player who owns property
    ("bankrupt-owner", _set("players", 2, "bankrupt", True), f"{MEDITERRANEAN}.owner", False),
    # in_jail off the jail square
    ("in-jail-off-square", _set("players", 1, "position", 11), "players[1].in_jail", True),
    ("in-jail-no-position", _delete("players", 1, "position"), "players[1].in_jail", True),
    # to_move not an active player
    ("to-move-unknown", _set("to_move", "Zed"), "to_move", False),
    ("to-move-bankrupt", _all(_bob_bankrupt, _set("to_move", "Bob")), "to_move", False),
    ("everyone-bankrupt", _everyone_bankrupt, "players", False),
    # turn fields
    ("phase-unknown", _set("phase", "moving"), "phase", True),
    ("doubles-at-start", _set("doubles_rolled", 1), "doubles_rolled", True),
    ("doubles-3", _all(_set("phase", "rolled"), _set("doubles_rolled", 3)), "doubles_rolled", False),  # a rule (rules.doubles_to_jail), the loader's
    ("round-negative", _set("round", -1), "round", True),
    # rules overrides
    ("supply-negative", _set("rules", {"houses": -1}), "rules.houses", True),
    ("interest-above-1", _set("rules", {"mortgage_interest": 1.5}), "rules.mortgage_interest", True),
    ("dice-count-0", _set("rules", {"dice": {"count": 0, "sides": 6}}), "rules.dice.count", True),
    ("dice-sides-1", _set("rules", {"dice": {"count": 2, "sides": 1}}), "rules.dice.sides", True),
    ("weights-length", _set("rules", {"dice": {"sides": 6, "weights": [1, 1, 1, 1, 1]}}), "rules.dice.weights", False),
    ("weights-negative", _set("rules", {"dice": {"sides": 2, "weights": [-1, 2]}}), "rules.dice.weights[0]", True),
    ("weights-huge", _set("rules", {"dice": {"sides": 2, "weights": [10**400, 1]}}), "rules.dice.weights[0]", False),
    ("weights-zero", _set("rules", {"dice": {"sides": 2, "weights": [0, 0]}}), "rules.dice.weights", False),
    ("set-size-unknown-group", _set("rules", {"set_size": {"purple": 2}}), "rules.set_size.purple", True),
    ("set-size-too-big", _set("rules", {"set_size": {"brown": 3}}), "rules.set_size.brown", True),
    ("set-size-zero", _set("rules", {"set_size": {"green": 0}}), "rules.set_size.green", True),
    # an inline board's own errors
    ("inline-board-rents", lambda d: d.update(board=_bad_inline_board()), "board.squares[1].rents", True),
]  # fmt: skip


def _bad_inline_board() -> dict[str, Any]:
    doc = standard_board().to_dict()
    doc["squares"][1]["rents"] = [2, 10, 30, 90, 160]
    return doc


@pytest.mark.parametrize(("mutation", "field"), [(m, f) for _, m, f, _ in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_loader_refuses(mutation: Mutation, field: str) -> None:
    doc = example()
    mutation(doc)
    with pytest.raises(InvalidStateError) as info:
        load_state(doc)
    assert info.value.field == field, str(info.value)
    assert str(info.value).startswith(f"{field}: ")
    assert info.value.message


@pytest.mark.parametrize(
    ("mutation", "schema_rejects"), [(m, s) for _, m, _, s in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_schema_cross_check(
    mutation: Mutation, schema_rejects: bool, validator: jsonschema.Draft202012Validator
) -> None:
    """Type, unknown-key and range errors fail the schema too; rule errors pass it (they are the loader's)."""
    doc = example()
    mutation(doc)
    assert (not validator.is_valid(doc)) == schema_rejects


def test_refusal_messages_read_well() -> None:
    doc = example()
    doc["properties"]["Baltic Avenue"]["owner"] = "Ann"
    doc["properties"]["Mediterranean Avenue"]["houses"] = 0
    with pytest.raises(InvalidStateError) as info:
        load_state(doc)
    expected = 'properties["Baltic Avenue"].houses: 2 houses, but the brown group is not owned by one player'
    assert str(info.value) == expected


def test_jail_card_limit_follows_the_decks() -> None:
    doc = example()
    board = standard_board().to_dict()
    board["decks"]["chance"].append({"action": "jail_free"})
    doc["board"] = board
    doc["players"][0]["jail_cards"] = 2
    state = load_state(doc)
    assert jail_cards_in_decks(state.board) == 3


def test_validate_state_checks_in_memory_states() -> None:
    state = load_state(example())
    validate_state(state)
    state.owner[0] = 0  # Go owned by Ann
    with pytest.raises(InvalidStateError) as info:
        validate_state(state)
    assert info.value.field == "board.squares[0]"


# ---------------------------------------------------------------------------
# Property tests: random valid states round-trip and satisfy the schema
# ---------------------------------------------------------------------------

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """The standard board, or an inline variant of it (other rents, name, group sizes, decks)."""
    if draw(st.booleans()):
        return standard_board()
    doc = standard_board().to_dict()
    doc["name"] = draw(st.sampled_from(["house-rules", "standard-us", "high-rent"]))
    factors = draw(st.lists(st.integers(1, 4), min_size=22, max_size=22))
    streets = [sq for sq in doc["squares"] if sq["type"] == "street"]
    for sq, k in zip(streets, factors, strict=True):
        sq["rents"] = [r * k // 2 for r in sq["rents"]]
    if draw(st.booleans()):
        doc["squares"][3]["group"] = "light_blue"  # brown of 1 lot, light blue of 4
    if draw(st.booleans()):
        doc["railroad_rents"] = draw(st.lists(st.integers(0, 400), min_size=4, max_size=6))
    if draw(st.booleans()):
        del doc["decks"]
    elif draw(st.booleans()):
        doc["decks"]["community_chest"].append({"action": "jail_free", "text": "Another one."})
    return parse_board(doc)


@st.composite
def dice(draw: st.DrawFn) -> DiceSpec:
    count, sides = draw(st.integers(1, 3)), draw(st.integers(2, 8))
    if not draw(st.booleans()):
        return DiceSpec(count, sides)
    weights = draw(st.lists(st.floats(0, 10, allow_nan=False), min_size=sides, max_size=sides))
    if sum(weights) <= 0:
        weights[0] = 1.0
    return DiceSpec(count, sides, tuple(weights))


@st.composite
def rules_for(draw: st.DrawFn, board: Board) -> Rules:
    groups = draw(st.lists(st.sampled_from(sorted(board.groups)), unique=True, max_size=4))
    set_size = {g: draw(st.integers(1, len(board.groups[g]))) for g in groups}
    return Rules(
        go_salary=draw(st.integers(0, 500)),
        jail_fine=draw(st.integers(0, 200)),
        houses=draw(st.integers(0, 40)),
        hotels=draw(st.integers(0, 15)),
        mortgage_interest=draw(st.one_of(st.just(0.1), st.floats(0, 1))),
        dice=draw(dice()),
        set_size=set_size,
    )


@st.composite
def players_for(draw: st.DrawFn, board: Board) -> list[PlayerState]:
    names = draw(st.permutations(NAMES))[: draw(st.integers(2, 8))]
    bankrupt = draw(st.lists(st.booleans(), min_size=len(names), max_size=len(names)))
    if all(bankrupt):
        bankrupt[0] = False
    players = []
    for name, out in zip(names, bankrupt, strict=True):
        in_jail = draw(st.booleans())
        players.append(
            PlayerState(
                name,
                cash=draw(st.integers(0, 10_000)),
                position=board.jail if in_jail else draw(st.integers(0, board.size - 1)),
                in_jail=in_jail,
                jail_turns=draw(st.integers(0, 2)) if in_jail else 0,
                bankrupt=out,
            )
        )
    for _ in range(draw(st.integers(0, jail_cards_in_decks(board)))):
        draw(st.sampled_from(players)).jail_cards += 1
    return players


def _build(draw: st.DrawFn, state: GameState) -> None:
    """Even buildings on unmortgaged monopolies, then trimmed to the supply."""
    for group in state.board.street_groups:
        lots = state.board.groups[group]
        for player in {state.owner[sq] for sq in lots if state.owner[sq] != BANK}:
            if state.has_monopoly(player, group) and draw(st.booleans()):
                base = draw(st.integers(0, HOTEL - 1))
                for sq in lots:
                    if state.owner[sq] == player:
                        state.houses[sq] = base + draw(st.integers(0, 1))
    for group in state.board.street_groups:
        if state.houses_in_bank() >= 0 and state.hotels_in_bank() >= 0:
            break
        for sq in state.board.groups[group]:
            state.houses[sq] = 0


@st.composite
def valid_states(draw: st.DrawFn) -> GameState:
    board = draw(boards())
    rules = draw(rules_for(board))
    players = draw(players_for(board))
    state = GameState(board, rules, players)
    active = state.active_players()
    for sq in board.property_squares:
        state.owner[sq] = draw(st.sampled_from([BANK, *active]))
    _build(draw, state)
    for sq in board.property_squares:
        group = state.group_of(sq)
        if state.owner[sq] != BANK and not state.group_has_buildings(group):
            state.mortgaged[sq] = draw(st.booleans())
    state.to_move = draw(st.sampled_from(active))
    state.round = draw(st.integers(0, 1000))
    state.phase = draw(st.sampled_from(["start", "rolled"]))
    state.doubles_rolled = draw(st.integers(0, 2)) if state.phase == "rolled" else 0
    return state


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_states())
def test_random_valid_states_round_trip(state: GameState) -> None:
    validate_state(state)
    doc = state_to_dict(state)
    jsonschema.Draft202012Validator(state_schema()).validate(doc)
    assert load_state(doc) == state
    assert load_state(json.loads(dumps_state(state))) == state
    assert state_to_dict(load_state(doc)) == doc


JSON_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 50), st.just(10**400), st.floats(-2, 2, allow_nan=False), st.text(max_size=4),
    st.sampled_from(["Ann", "Bob", "Boardwalk", "rolled", "brown", "standard-us"]), st.just([]), st.just({}),
)  # fmt: skip


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_mutated_documents_load_or_fail_cleanly(data: st.DataObject) -> None:
    """Any change to a valid document either loads or raises InvalidStateError, never another exception."""
    doc = example()
    doc["rules"] = {"dice": {"count": 2, "sides": 3, "weights": [1, 2, 3]}, "set_size": {"red": 2}}
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(doc)))
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = data.draw(JSON_LEAVES)
    try:
        state = load_state(doc)
    except InvalidStateError as err:
        assert str(err)
    else:
        assert load_state(state_to_dict(state)) == state
