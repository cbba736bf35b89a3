"""The library entry point solver.solve: one function, any state form, any player form, JSON-ready.

Checked against the CLI (``solve --json`` prints the same object for the
same arguments) and across input forms (path, parsed document, GameState;
name, seat, to-move), and the JSON is strict: with one rollout the raw
decision holds undefined standard errors (NaN), which the result writes as
null, and the text parses with NaN and Infinity refused.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import solver
from models.errors import InvalidStateError
from models.io import load_state
from tests.solver.cli_helpers import run_cli

MIDGAME = Path(__file__).resolve().parents[2] / "instances" / "midgame-no-monopolies.json"


def _strict(text: str) -> object:
    def refuse(name: str) -> object:
        raise ValueError(f"{name} in the JSON")

    return json.loads(text, parse_constant=refuse)


def test_every_state_and_player_form_gives_the_same_answer() -> None:
    state = load_state(MIDGAME)
    doc = json.loads(MIDGAME.read_text())
    answers = [
        solver.solve(MIDGAME, rollouts=48, seed=3).to_dict(),
        solver.solve(str(MIDGAME), "Cy", rollouts=48, seed=3).to_dict(),
        solver.solve(doc, state.player_index("Cy"), rollouts=48, seed=3).to_dict(),
        solver.solve(state, None, rollouts=48, seed=3).to_dict(),
    ]
    assert all(a == answers[0] for a in answers)
    assert answers[0]["player"] == "Cy"


def test_the_answer_is_what_the_cli_prints(capsys: pytest.CaptureFixture[str]) -> None:
    result = solver.solve(MIDGAME, rollouts=48, seed=5, mode="best")
    code, out, _ = run_cli(capsys, "solve", str(MIDGAME), "--rollouts", "48", "--seed", "5", "--mode", "best", "--json")
    assert code == 0 and json.loads(out) == result.to_dict()
    assert result.action == result.to_dict()["decision"]["action"] and isinstance(result.reason, str)


def test_undefined_numbers_are_null_never_nan() -> None:
    result = solver.solve(MIDGAME, rollouts=1)
    raw = json.dumps(result.decision.to_dict(result.state))
    assert "NaN" in raw  # one rollout: standard errors are undefined ...
    text = result.to_json()
    doc = _strict(text)  # ... and the result is strict JSON
    assert "NaN" not in text and "Infinity" not in text

    def finite(x: object) -> bool:
        if isinstance(x, float):
            return math.isfinite(x)
        if isinstance(x, dict):
            return all(finite(v) for v in x.values())
        if isinstance(x, list):
            return all(finite(v) for v in x)
        return True

    assert finite(result.to_dict()) and finite(doc)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"player": 9}, "seat 9 does not exist"),
        ({"player": "Zed"}, "no player named 'Zed'"),
        ({"player": True}, "expected a name or a seat"),
        ({"mode": "greedy"}, "mode"),
        ({"rollouts": 0}, "rollouts"),
        ({"budget_s": float("nan")}, "budget_s"),
    ],
)
def test_bad_questions_raise_one_line(kwargs: dict[str, object], needle: str) -> None:
    with pytest.raises(solver.SolveError) as err:
        solver.solve(MIDGAME, **kwargs)  # type: ignore[arg-type]
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_bad_states_raise_invalid_state_error() -> None:
    doc = json.loads(MIDGAME.read_text())
    doc["players"][0]["cash"] = -5
    with pytest.raises(InvalidStateError, match="cash"):
        solver.solve(doc)
    with pytest.raises(solver.SolveError, match="expected a GameState"):
        solver.solve(42)  # type: ignore[arg-type]
    state = load_state(MIDGAME)
    state.players[0].bankrupt = True
    with pytest.raises(solver.SolveError, match="bankrupt"):
        solver.solve(state, 0)
