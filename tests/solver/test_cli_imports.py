"""Each command imports what it uses: ``validate`` loads neither numba, OR-Tools, SciPy nor NumPy
(nor the rules engine): parsing the command line imports no command's machinery.

Run in a fresh interpreter (the test process has them loaded already)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

INSTANCE = Path(__file__).resolve().parents[2] / "instances" / "midgame-no-monopolies.json"
PROBE = """
import contextlib, io, json, sys
from solver.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(["validate", sys.argv[1]])
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("numba", "ortools", "scipy", "pandas", "numpy") or m == "engine.game")
print(json.dumps({"code": code, "out": out.getvalue(), "heavy": heavy}))
"""


def test_validate_does_not_import_numba_ortools_or_scipy() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, str(INSTANCE)], capture_output=True, text=True, timeout=120, check=True)
    doc = json.loads(done.stdout)
    assert doc["code"] == 0 and doc["out"].strip() == "ok"
    assert doc["heavy"] == []
