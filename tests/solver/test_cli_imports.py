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
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("numba", "ortools", "scipy", "pandas", "numpy") or m == "engine.rules.game")
print(json.dumps({"code": code, "out": out.getvalue(), "heavy": heavy}))
"""


def test_validate_does_not_import_numba_ortools_or_scipy() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, str(INSTANCE)], capture_output=True, text=True, timeout=120, check=True)
    doc = json.loads(done.stdout)
    assert doc["code"] == 0 and doc["out"].strip() == "ok"
    assert doc["heavy"] == []


CHAINS_PROBE = """
import contextlib, io, json, sys
from solver.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main([sys.argv[2], sys.argv[1]])
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("numba", "ortools", "pandas") or m == "scipy.sparse.linalg")
print(json.dumps({"code": code, "heavy": heavy}))
"""


def test_risk_and_analyze_import_no_kernel_solver_or_sparse_linalg() -> None:
    """The chains' commands need neither the batch kernel (numba), CP-SAT (OR-Tools, pandas) nor
    SciPy's sparse solvers (only the eventual-ruin solve of ``engine.chains.bankruptcy`` uses them)."""
    for command in ("risk", "analyze"):
        done = subprocess.run([sys.executable, "-c", CHAINS_PROBE, str(INSTANCE), command], capture_output=True, text=True, timeout=120, check=True)
        doc = json.loads(done.stdout)
        assert doc == {"code": 0, "heavy": []}, command


SOLVE_PROBE = """
import contextlib, io, json, sys
from solver.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["solve", sys.argv[1], "--rollouts", "40"])
print(json.dumps({"code": code, "networkx": "networkx" in sys.modules}))
"""


def test_solve_with_purchase_advice_does_not_import_networkx() -> None:
    """The mid-game instance's player stands on a bank lot, so ``solve`` gives purchase advice
    (the bidding game of :mod:`solver.bidding.contest`); it walks the race tree without networkx
    (0.2 s of imports), which only the general bidding-game solvers use."""
    done = subprocess.run([sys.executable, "-c", SOLVE_PROBE, str(INSTANCE)], capture_output=True, text=True, timeout=300, check=True)
    assert json.loads(done.stdout) == {"code": 0, "networkx": False}


def test_quick_exit_keeps_the_output_and_the_status(tmp_path: Path) -> None:
    """``python -m solver`` ends one-process commands with ``os._exit`` (solver.cli.run): the
    output is still complete (the same bytes as :func:`solver.cli.main` in this process) and the
    status is main's (2 for a missing file, with its one-line message)."""
    import contextlib
    import io

    from solver.cli import QUICK_EXIT, main

    assert {"solve", "validate"} <= QUICK_EXIT and not {"tournament", "play", "mcp", "prune-report"} & QUICK_EXIT
    args = ["solve", str(INSTANCE), "--json", "--rollouts", "40"]
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(args) == 0
    done = subprocess.run([sys.executable, "-m", "solver", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout == out.getvalue()
    missing = subprocess.run([sys.executable, "-m", "solver", "solve", str(tmp_path / "none.json")], capture_output=True, text=True, timeout=300)
    assert missing.returncode == 2 and missing.stdout == ""
    assert len(missing.stderr.strip().splitlines()) == 1 and "none.json" in missing.stderr


PANDAS_PROBE = """
import contextlib, io, json, sys
import solver._cp_model
solver._cp_model.PANDAS_FREE = True  # what solver.cli.run sets for the command line
from solver.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(["solve", sys.argv[1], "--json", "--rollouts", "40"])
print(json.dumps({"code": code, "pandas": "pandas" in sys.modules, "out": out.getvalue()}))
"""

FLAG_PROBE = """
import solver._cp_model, solver.cli
solver.cli.main = lambda argv: print(solver._cp_model.PANDAS_FREE) or 0
solver.cli.run(["validate", "x"])
"""


def test_the_command_line_solves_without_pandas() -> None:
    """Under the command line CP-SAT is imported with a placeholder pandas (``solver._cp_model``):
    ``solve`` then loads no pandas (0.2 s of a fresh process) and prints exactly what it prints
    with OR-Tools' ordinary import (this process has pandas loaded); ``run`` sets the flag."""
    import contextlib
    import io

    from solver.cli import main

    done = subprocess.run([sys.executable, "-c", PANDAS_PROBE, str(INSTANCE)], capture_output=True, text=True, timeout=300, check=True)
    doc = json.loads(done.stdout)
    assert doc["code"] == 0 and doc["pandas"] is False
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(["solve", str(INSTANCE), "--json", "--rollouts", "40"]) == 0
    assert "pandas" in sys.modules
    assert doc["out"] == out.getvalue()
    flag = subprocess.run([sys.executable, "-c", FLAG_PROBE], capture_output=True, text=True, timeout=120)
    assert flag.returncode == 0 and flag.stdout.strip() == "True"
