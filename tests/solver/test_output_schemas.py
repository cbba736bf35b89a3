"""Every command's ``--json`` output validates against its shipped JSON Schema, on every bundled instance.

The schemas (``solver/data/output-*.schema.json``, :mod:`solver.schemas`) are
checked as schemas first; then ``solve`` (both modes, and as the agent), ``trades``,
``analyze``, ``odds``, ``risk`` and ``auction`` (all three methods, on the
first lot the bank holds) run on each instance in ``instances/``, and
``bidding-game`` (both kinds) on each graph in ``instances/graphs``, and each
output is validated; the JSON text must also parse with NaN and Infinity
refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from models.io import load_state
from models.state import BANK
from solver.schemas import OUTPUTS, output_schema
from tests.solver.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = sorted((ROOT / "instances").glob("*.json"))
GRAPHS = sorted((ROOT / "instances" / "graphs").glob("*.json"))


def _strict(text: str) -> object:
    def refuse(name: str) -> object:
        raise ValueError(f"{name} in the JSON output")

    return json.loads(text, parse_constant=refuse)


def _check(capsys: pytest.CaptureFixture[str], schema: str, *argv: str) -> None:
    code, out, err = run_cli(capsys, *argv, "--json")
    assert code == 0, (argv, err)
    jsonschema.validate(_strict(out), output_schema(schema), cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize("name", OUTPUTS)
def test_schemas_are_valid_schemas(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(output_schema(name))


@pytest.mark.parametrize("path", INSTANCES, ids=[p.stem for p in INSTANCES])
def test_outputs_match_their_schemas(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = str(path)
    _check(capsys, "solve", "solve", f, "--rollouts", "8")
    _check(capsys, "solve", "solve", f, "--rollouts", "8", "--mode", "best")
    _check(capsys, "solve", "solve", f, "--rollouts", "8", "--agent", "subgraph:rollouts=16,accept_rollouts=16")
    _check(capsys, "trades", "trades", f)
    _check(capsys, "analyze", "analyze", f)
    _check(capsys, "odds", "odds", f)
    _check(capsys, "risk", "risk", f)
    state = load_state(path)
    free = [sq for sq in state.board.property_squares if state.owner[sq] == BANK]
    if free:
        lot = state.board.squares[free[0]].name
        for method in ("game", "simulate", "both"):
            _check(capsys, "auction", "auction", f, "--property", lot, "--method", method, "--rollouts", "8", "--horizon", "3")


@pytest.mark.parametrize("path", GRAPHS, ids=[p.stem for p in GRAPHS])
def test_bidding_game_outputs_match_their_schema(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for kind in ("richman", "poorman"):
        _check(capsys, "bidding-game", "bidding-game", str(path), "--kind", kind)


def test_undefined_numbers_fit_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    # One rollout leaves every standard error undefined: written as null, allowed by the schema.
    _check(capsys, "solve", "solve", str(ROOT / "instances" / "midgame-no-monopolies.json"), "--rollouts", "1")
