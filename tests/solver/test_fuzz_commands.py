"""A state that validates never crashes a command: plausible mutations of the bundled instances
(:func:`tests.state_fuzz.nudge`) that still load are run through ``odds``, ``risk``, ``analyze``,
``trades`` and ``solve --rollouts 32``, in process; each must exit 0. ``bench/fuzz.py`` runs the
same over many more states, each command in its own process under time and memory limits."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from models.errors import InvalidStateError
from models.io import load_state
from tests.solver.cli_helpers import run_cli
from tests.state_fuzz import nudge

INSTANCES = sorted((Path(__file__).resolve().parents[2] / "instances").glob("*.json"))
DOCS = {p.name: json.loads(p.read_text()) for p in INSTANCES}
COMMANDS = (("odds",), ("risk",), ("analyze",), ("trades",), ("solve", "--rollouts", "32"))


@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture],
)
@given(name=st.sampled_from(sorted(DOCS)), seed=st.integers(0, 2**32 - 1), count=st.integers(1, 3))
def test_accepted_mutations_run_every_command(
    name: str, seed: int, count: int, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = nudge(DOCS[name], random.Random(seed), count)
    try:
        load_state(doc)
    except InvalidStateError:
        assume(False)
    path = tmp_path_factory.mktemp("fuzz") / "state.json"
    path.write_text(json.dumps(doc, ensure_ascii=True))
    for cmd in COMMANDS:
        code, _, err = run_cli(capsys, cmd[0], str(path), *cmd[1:])
        assert code == 0, (name, seed, count, cmd, err)
