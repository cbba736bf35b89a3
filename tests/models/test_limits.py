"""Hostile state files: every documented limit (models.limits) refused at load, in one line naming the field."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from models import limits
from models.board import standard_board
from models.errors import InvalidStateError
from models.io import load_state, load_state_bytes, state_schema

OPENING = Path(__file__).resolve().parents[2] / "instances" / "opening.json"


def _doc() -> dict[str, Any]:
    return json.loads(OPENING.read_text())


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(doc: dict[str, Any]) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return apply


def _inline_board(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def apply(doc: dict[str, Any]) -> None:
        board = standard_board().to_dict()
        change(board)
        doc["board"] = board

    return apply


CASES = {
    "cash": (_set(("players", 0, "cash"), limits.MAX_CASH + 1), "players[0].cash"),
    "huge integer": (_set(("round",), 2**70), "round"),
    "round": (_set(("round",), limits.MAX_ROUND + 1), "round"),
    "salary": (_set(("rules",), {"go_salary": 2**63}), "rules.go_salary"),
    "supply": (_set(("rules",), {"houses": limits.MAX_SUPPLY + 1}), "rules.houses"),
    "dice count": (_set(("rules",), {"dice": {"count": 40, "sides": 6}}), "rules.dice.count"),
    "dice sides": (_set(("rules",), {"dice": {"count": 2, "sides": 1000}}), "rules.dice.sides"),
    "name surrogate": (_set(("players", 0, "name"), "A\ud800"), "players[0].name"),
    "name newline": (_set(("players", 0, "name"), "A\nB"), "players[0].name"),
    "name length": (_set(("players", 0, "name"), "x" * (limits.MAX_NAME + 1)), "players[0].name"),
    "key with a newline": (_set(("ne\nwkey",), 1), '["ne\\nwkey"]'),
    "rent": (_inline_board(lambda b: b["squares"][1].update(rents=[2, 10, 30, 90, 160, 2**40])), "board.squares[1].rents[5]"),
    "price": (_inline_board(lambda b: b["squares"][1].update(price=limits.MAX_AMOUNT + 1)), "board.squares[1].price"),
    "board size": (_inline_board(lambda b: b["squares"].extend([{"type": "free_parking", "name": "x"}] * limits.MAX_SQUARES)), "board.squares"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_limit_is_refused_in_one_line(case: str) -> None:
    change, field = CASES[case]
    doc = _doc()
    change(doc)
    with pytest.raises(InvalidStateError) as err:
        load_state(doc)
    assert err.value.field == field
    assert "\n" not in str(err.value)
    if case != "name surrogate":  # the one limit a JSON Schema cannot express
        assert not jsonschema.Draft202012Validator(state_schema()).is_valid(doc), f"the schema accepts {case}"
    # and the same through the bytes path (a file, or standard input), where the text can be encoded
    try:
        data = json.dumps(doc).encode("utf-8")
    except UnicodeEncodeError:
        return
    with pytest.raises(InvalidStateError):
        load_state_bytes(data)


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested deeper"),
        (b'{"format": "monopoly-state/1", "round": ' + b"9" * 5000 + b"}", "beyond what a state may hold"),
        (b" " * (limits.MAX_STATE_BYTES + 1), "larger than"),
        (b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"["}', "unknown key"),  # brackets (and an escaped quote) inside a string are not nesting
    ],
)
def test_hostile_bytes_are_refused_in_one_line(data: bytes, needle: str) -> None:
    with pytest.raises(InvalidStateError) as err:
        load_state_bytes(data)
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_every_bundled_instance_is_within_the_limits() -> None:
    for path in sorted(OPENING.parent.glob("*.json")):
        load_state(path)
