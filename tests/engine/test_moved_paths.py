"""The flat paths of 0.1 (``engine.game``, ``engine.markov``, ...) still import, with a warning.

Each old path of :data:`engine._moved.MOVED`, imported in a fresh interpreter
(so that nothing imported it before), warns once with a
:class:`DeprecationWarning` naming the new path and the version that drops it,
and is the very module at the new path; ``from old import name`` gives the
same object as the new path.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine._moved import MOVED, REMOVAL

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, sys, warnings
out = {}
for old, new in json.loads(sys.argv[1]).items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mod = importlib.import_module(old)
    real = importlib.import_module(new)
    out[old] = {
        "same": mod is real and sys.modules[old] is real,
        "spec": real.__spec__.name,
        "warnings": [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning) and old in str(w.message)],
    }
from engine.game import Game
from engine.rules.game import Game as G2
from engine.strategic import StrategicTradeAgent
from solver.agents.strategic import StrategicTradeAgent as S2
out["objects"] = Game is G2 and StrategicTradeAgent is S2
print(json.dumps(out))
"""


def test_every_old_path_warns_and_is_the_new_module() -> None:
    import json

    proc = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(MOVED)], cwd=ROOT, capture_output=True, text=True, check=True, timeout=300
    )
    got = json.loads(proc.stdout)
    assert got.pop("objects") is True
    assert set(got) == set(MOVED)
    for old, new in MOVED.items():
        row = got[old]
        assert row["same"], old
        assert row["spec"] == new, old  # the real module keeps its own spec
        assert row["warnings"] == [f"{old} moved to {new}; the old path goes in {REMOVAL}"], old


def test_new_paths_do_not_warn() -> None:
    proc = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", "import engine.rules.game, engine.chains.markov, engine.sim.rollout, engine.tournament"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("name", ["engine.no_such_module", "engine.rules.no_such_module"])
def test_unknown_paths_still_fail(name: str) -> None:
    import importlib

    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(name)
