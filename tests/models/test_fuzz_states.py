"""Fuzzing the loader: mutated bundled instances are accepted or refused in one line, never a traceback.

Hypothesis draws a bundled instance, a seed and a number of edits; the
mutations (:mod:`tests.state_fuzz`: deleted keys, changed types, extreme
numbers, hostile text, deep nesting, unknown keys) are applied and the
document is loaded twice, as a parsed object and as the bytes of a file. Each
load returns a state or raises :class:`InvalidStateError` whose message is one
line; both paths agree. ``bench/fuzz.py`` runs 10,000 such cases and sends
the accepted states through the commands.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.errors import InvalidStateError
from models.io import load_state, load_state_bytes
from tests.state_fuzz import mutate

INSTANCES = sorted((Path(__file__).resolve().parents[2] / "instances").glob("*.json"))
DOCS = {p.name: json.loads(p.read_text()) for p in INSTANCES}


def _outcome(load, arg) -> str:  # type: ignore[no-untyped-def]
    try:
        load(arg)
    except InvalidStateError as err:
        text = str(err)
        assert "\n" not in text and "\r" not in text, text
        return "refused"
    return "accepted"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.sampled_from(sorted(DOCS)), st.integers(0, 2**32 - 1), st.integers(1, 4))
def test_mutated_states_are_accepted_or_refused_in_one_line(name: str, seed: int, count: int) -> None:
    doc = mutate(DOCS[name], random.Random(seed), count)
    as_object = _outcome(load_state, doc)
    as_bytes = _outcome(load_state_bytes, json.dumps(doc, ensure_ascii=True).encode("ascii"))
    assert as_object == as_bytes
