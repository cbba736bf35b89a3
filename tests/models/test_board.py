"""Tests of models.board: the standard US board against the published figures, and inline boards."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from models.board import Board, load_board, parse_board, standard_board
from models.checks import key_path
from models.errors import InvalidStateError

# The published US board (Hasbro, 2008+ edition): name -> (group, price, rents
# unimproved/1-4 houses/hotel, house cost).
US_STREETS: dict[str, tuple[str, int, tuple[int, ...], int]] = {
    "Mediterranean Avenue": ("brown", 60, (2, 10, 30, 90, 160, 250), 50),
    "Baltic Avenue": ("brown", 60, (4, 20, 60, 180, 320, 450), 50),
    "Oriental Avenue": ("light_blue", 100, (6, 30, 90, 270, 400, 550), 50),
    "Vermont Avenue": ("light_blue", 100, (6, 30, 90, 270, 400, 550), 50),
    "Connecticut Avenue": ("light_blue", 120, (8, 40, 100, 300, 450, 600), 50),
    "St. Charles Place": ("pink", 140, (10, 50, 150, 450, 625, 750), 100),
    "States Avenue": ("pink", 140, (10, 50, 150, 450, 625, 750), 100),
    "Virginia Avenue": ("pink", 160, (12, 60, 180, 500, 700, 900), 100),
    "St. James Place": ("orange", 180, (14, 70, 200, 550, 750, 950), 100),
    "Tennessee Avenue": ("orange", 180, (14, 70, 200, 550, 750, 950), 100),
    "New York Avenue": ("orange", 200, (16, 80, 220, 600, 800, 1000), 100),
    "Kentucky Avenue": ("red", 220, (18, 90, 250, 700, 875, 1050), 150),
    "Indiana Avenue": ("red", 220, (18, 90, 250, 700, 875, 1050), 150),
    "Illinois Avenue": ("red", 240, (20, 100, 300, 750, 925, 1100), 150),
    "Atlantic Avenue": ("yellow", 260, (22, 110, 330, 800, 975, 1150), 150),
    "Ventnor Avenue": ("yellow", 260, (22, 110, 330, 800, 975, 1150), 150),
    "Marvin Gardens": ("yellow", 280, (24, 120, 360, 850, 1025, 1200), 150),
    "Pacific Avenue": ("green", 300, (26, 130, 390, 900, 1100, 1275), 200),
    "North Carolina Avenue": ("green", 300, (26, 130, 390, 900, 1100, 1275), 200),
    "Pennsylvania Avenue": ("green", 320, (28, 150, 450, 1000, 1200, 1400), 200),
    "Park Place": ("dark_blue", 350, (35, 175, 500, 1100, 1300, 1500), 200),
    "Boardwalk": ("dark_blue", 400, (50, 200, 600, 1400, 1700, 2000), 200),
}
US_RAILROADS = ("Reading Railroad", "Pennsylvania Railroad", "B&O Railroad", "Short Line")
US_UTILITIES = ("Electric Company", "Water Works")
US_ORDER = (
    "Go", "Mediterranean Avenue", "Community Chest", "Baltic Avenue", "Income Tax", "Reading Railroad",
    "Oriental Avenue", "Chance", "Vermont Avenue", "Connecticut Avenue", "Jail", "St. Charles Place",
    "Electric Company", "States Avenue", "Virginia Avenue", "Pennsylvania Railroad", "St. James Place",
    "Community Chest", "Tennessee Avenue", "New York Avenue", "Free Parking", "Kentucky Avenue", "Chance",
    "Indiana Avenue", "Illinois Avenue", "B&O Railroad", "Atlantic Avenue", "Ventnor Avenue", "Water Works",
    "Marvin Gardens", "Go To Jail", "Pacific Avenue", "North Carolina Avenue", "Community Chest",
    "Pennsylvania Avenue", "Short Line", "Chance", "Park Place", "Luxury Tax", "Boardwalk",
)  # fmt: skip
SPEC_GROUPS = ("brown", "light_blue", "pink", "orange", "red", "yellow", "green", "dark_blue")


@pytest.fixture(scope="module")
def board() -> Board:
    return standard_board()


def test_standard_board_counts(board: Board) -> None:
    assert board.size == 40
    assert len(board.property_squares) == 28
    streets = [sq for sq in board.squares if sq.kind == "street"]
    assert len(streets) == 22
    assert set(board.street_groups) == set(SPEC_GROUPS)
    assert len(board.street_groups) == 8
    assert {g: len(board.groups[g]) for g in SPEC_GROUPS} == {
        "brown": 2, "light_blue": 3, "pink": 3, "orange": 3, "red": 3, "yellow": 3, "green": 3, "dark_blue": 2,
    }  # fmt: skip
    assert board.jail == 10 and board.go_to_jail == 30


def test_standard_board_order_and_names(board: Board) -> None:
    assert tuple(sq.name for sq in board.squares) == US_ORDER
    assert tuple(board.squares[i].name for i in board.railroads) == US_RAILROADS
    assert tuple(board.squares[i].name for i in board.utilities) == US_UTILITIES


def test_standard_streets_match_published_figures(board: Board) -> None:
    for name, (group, price, rents, house_cost) in US_STREETS.items():
        sq = board.squares[board.property_index[name]]
        got = (sq.kind, sq.group, sq.price, sq.rents, sq.house_cost)
        assert got == ("street", group, price, rents, house_cost), name
        assert sq.mortgage_value == price // 2


def test_railroads_utilities_taxes(board: Board) -> None:
    for name in US_RAILROADS:
        assert board.squares[board.property_index[name]].price == 200
    for name in US_UTILITIES:
        assert board.squares[board.property_index[name]].price == 150
    assert board.railroad_rents == (25, 50, 100, 200)
    assert board.utility_multipliers == (4, 10)
    taxes = {sq.name: sq.amount for sq in board.squares if sq.kind == "tax"}
    assert taxes == {"Income Tax": 200, "Luxury Tax": 100}


def test_sum_of_prices_is_5690(board: Board) -> None:
    published = sum(price for _, price, _, _ in US_STREETS.values()) + 200 * 4 + 150 * 2
    assert published == 5690  # 4,590 streets + 800 railroads + 300 utilities
    assert sum(board.squares[i].price for i in board.property_squares) == 5690


@pytest.mark.parametrize("deck", ["chance", "community_chest"])
def test_decks_have_16_cards_and_one_jail_card(board: Board, deck: str) -> None:
    cards = board.deck(deck)
    assert len(cards) == 16
    assert sum(1 for c in cards if c.action == "jail_free") == 1


def test_chance_targets(board: Board) -> None:
    targets = {board.squares[c.square].name for c in board.chance if c.action == "advance_to" and c.square is not None}
    assert targets == {"Go", "Boardwalk", "Illinois Avenue", "St. Charles Place", "Reading Railroad"}


def test_to_dict_round_trip(board: Board) -> None:
    doc = board.to_dict()
    assert parse_board(doc, builtin=True) == board
    again = parse_board(doc)
    assert not again.builtin
    assert (again.squares, again.chance, again.community_chest) == (board.squares, board.chance, board.community_chest)
    assert parse_board(again.to_dict()) == again


def test_inline_board_without_decks_gets_standard_decks(board: Board) -> None:
    doc = board.to_dict()
    del doc["decks"]
    assert parse_board(doc).chance == board.chance


def test_load_board_by_name(board: Board) -> None:
    assert load_board("standard-us") is board
    with pytest.raises(InvalidStateError) as info:
        load_board("standard-uk")
    assert info.value.field == "board"


def _mutate(path: list[Any], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(standard_board().to_dict())
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


_DELETE = object()

BAD_BOARDS = [
    (["squares", 3, "rents"], [4, 20, 60, 180, 320], "board.squares[3].rents"),
    (["squares", 3, "rents", 2], True, "board.squares[3].rents[2]"),
    (["squares", 1, "price"], -60, "board.squares[1].price"),
    (["squares", 1, "price"], "60", "board.squares[1].price"),
    (["squares", 1, "type"], "avenue", "board.squares[1].type"),
    (["squares", 1, "colour"], "brown", "board.squares[1].colour"),
    (["squares", 1, "group"], "railroad", "board.squares[1].group"),
    (["squares", 5, "house_cost"], 50, "board.squares[5].house_cost"),
    (["squares", 0, "type"], "free_parking", "board.squares[0]"),
    (["squares", 20, "type"], "jail", "board.squares"),
    (["squares", 3, "name"], "Mediterranean Avenue", "board.squares[3].name"),
    (["squares", 39, "name"], "", "board.squares[39].name"),
    (["railroad_rents"], [25, 50, 100], "board.railroad_rents"),
    (["utility_multipliers", 0], 4.5, "board.utility_multipliers[0]"),
    (["decks", "chance", 0, "action"], "teleport", "board.decks.chance[0].action"),
    (["decks", "chance", 0, "square"], "Boardwalk Avenue", "board.decks.chance[0].square"),
    (["decks", "chance", 0, "steps"], 3, "board.decks.chance[0].steps"),
    (["decks", "community_chest"], _DELETE, "board.decks.community_chest"),
    (["decks", "chance"], [], "board.decks.chance"),
    (["name"], 7, "board.name"),
    (["edition"], 2008, "board.edition"),
]


@pytest.mark.parametrize(("path", "value", "field"), BAD_BOARDS, ids=[f for _, _, f in BAD_BOARDS])
def test_inline_board_errors_name_the_field(path: list[Any], value: Any, field: str) -> None:
    with pytest.raises(InvalidStateError) as info:
        parse_board(_mutate(path, value))
    assert info.value.field == field
    assert str(info.value).startswith(field + ":")


def test_standard_cards_need_standard_squares() -> None:
    doc = _mutate(["squares", 39, "name"], "Beach Walk")
    del doc["decks"]
    with pytest.raises(InvalidStateError) as info:
        parse_board(doc)
    assert info.value.field == "board.decks"
    assert "Boardwalk" in str(info.value)


def test_key_path_formats() -> None:
    assert key_path("properties", "Baltic Avenue") == 'properties["Baltic Avenue"]'
    assert key_path("properties", "Boardwalk") == 'properties["Boardwalk"]'
    assert key_path("players", 2) == "players[2]"
