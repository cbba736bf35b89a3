"""Same seed, same bytes, under load: ``solve``'s defaults are counts of work, not the clock.

Two runs of ``monopoly-trade solve --json`` at the default settings, each in a fresh
process, while two other processes keep both cores busy, must print identical bytes
and must not be cut by the safety cap (``truncated`` is false); so must runs with one
thread and with three (the default uses every core)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

INSTANCE = Path(__file__).resolve().parents[2] / "instances" / "midgame-no-monopolies.json"
BUSY = "import time\nend = time.time() + 120\nwhile time.time() < end:\n    pass\n"


def _solve(*extra: str) -> bytes:
    cmd = [sys.executable, "-m", "solver", "solve", str(INSTANCE), "--json", "--seed", "3", *extra]
    done = subprocess.run(cmd, capture_output=True, timeout=300, check=True)
    return done.stdout


def test_solve_json_identical_while_both_cores_are_loaded() -> None:
    _solve()  # compile/load the kernel once (cached on disk) before the timed comparison
    load = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2)]
    try:
        first, second, one_thread, three = _solve(), _solve(), _solve("--threads", "1"), _solve("--threads", "3")
    finally:
        for p in load:
            p.kill()
            p.wait()
    assert first == second
    assert one_thread == first == three  # the simulations' threads do not change the answer
    doc = json.loads(first)
    assert doc["truncated"] is False
