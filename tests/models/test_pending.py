"""The pending question of the state format (version 3): reading, writing, the rule checks, the schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from models.errors import InvalidStateError
from models.io import load_state, state_schema, state_to_dict
from models.pending import PendingAuction, PendingBuildingAuction, PendingDebt, PendingOffer

ROOT = Path(__file__).resolve().parents[2]
PENDING = sorted((ROOT / "instances").glob("pending-*.json"))


def _doc(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "instances" / name).read_text())


def test_every_question_has_an_instance() -> None:
    kinds = {type(load_state(p).pending) for p in PENDING}
    assert kinds == {PendingOffer, PendingDebt, PendingAuction, PendingBuildingAuction}


@pytest.mark.parametrize("path", PENDING, ids=[p.stem for p in PENDING])
def test_round_trip_and_schema(path: Path) -> None:
    doc = json.loads(path.read_text())
    state = load_state(path)
    assert state_to_dict(state) == doc  # the files are in the canonical layout
    assert load_state(state_to_dict(state)) == state
    assert doc["format"] == "monopoly-state/3"
    jsonschema.Draft202012Validator(state_schema()).validate(doc)


def test_old_formats_load_unchanged_and_write_as_before() -> None:
    for p in sorted((ROOT / "instances").glob("*.json")):
        if p.stem.startswith("pending-"):
            continue
        doc = json.loads(p.read_text())
        state = load_state(p)
        assert state.pending is None and state_to_dict(state)["format"] == doc["format"] != "monopoly-state/3"


def test_the_debt_as_read() -> None:
    s = load_state(ROOT / "instances" / "pending-debt.json")
    assert s.pending == PendingDebt(debtor=0, owed=200, creditor=None)
    assert s.copy().pending == s.pending


def _refused(doc: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(InvalidStateError) as err:
        load_state(doc)
    assert err.value.field == field and words in str(err.value), str(err.value)
    assert "\n" not in str(err.value)


def test_refusals_name_the_field() -> None:
    base = _doc("pending-debt.json")
    _refused({**base, "format": "monopoly-state/2"}, "pending", "needs format 'monopoly-state/3'")
    _refused({**base, "pending": {"question": "loan"}}, "pending.question", "loan")
    _refused({**base, "pending": {"question": "debt", "debtor": "Zed", "owed": 200}}, "pending.debtor", "'Zed' is not a player")
    _refused({**base, "pending": {"question": "debt", "debtor": "Ann", "owed": 50}}, "pending.owed", "nothing to raise")
    _refused({**base, "pending": {"question": "debt", "debtor": "Ann", "owed": 200, "to": "Ann"}}, "pending.to", "cannot owe itself")
    _refused({**base, "pending": {"question": "debt", "debtor": "Ann", "owed": 200, "extra": 1}}, "pending.extra", "unknown key")
    auction = _doc("pending-auction.json")
    _refused({**auction, "pending": {"question": "auction", "property": "Park Place"}}, "pending.property", "not a lot of the bank's")
    _refused({**auction, "pending": {"question": "auction", "property": "Water Works", "bidders": ["Ann", "Ann"]}}, "pending.bidders", "named twice")
    offer = _doc("pending-offer.json")
    bad = json.loads(json.dumps(offer))
    bad["pending"]["trade"]["transfers"][0]["properties"] = ["Boardwalk"]  # Dee does not own it
    _refused(bad, "pending.trade", "Boardwalk")
    bad = json.loads(json.dumps(offer))
    bad["pending"]["to"] = "Ann"
    _refused(bad, "pending.to", "must both take part")
    short = _doc("pending-shortage.json")
    _refused({**short, "pending": {**short["pending"], "bidders": ["Ann"], "requester": "Ann"}}, "pending.bidders", "fewer than the bidders")
    _refused({**short, "pending": {**short["pending"], "building": "castle"}}, "pending.building", "castle")


def test_the_schema_refuses_a_pending_question_outside_format_3() -> None:
    doc = {**_doc("pending-debt.json"), "format": "monopoly-state/2"}
    assert not jsonschema.Draft202012Validator(state_schema()).is_valid(doc)
