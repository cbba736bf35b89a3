"""Wall time of ``solve`` (issue target: <= 1 s on a 4-player mid-game instance, warm).

    python bench/solve.py [--state instances/midgame-no-monopolies.json] [--repeat 3]

Prints, at the default settings (800 rollouts; the 60 s budget is only a safety cap):

* the CLI (``monopoly-trade solve STATE --json`` in a fresh process): the
  first run and the best of ``--repeat`` later runs (the numba cache, the
  file cache and Python's byte-code cache are warm then), each split into
  the process's import time (``python -c "import solver.cli, solver.decide"``, ended
  with ``os._exit`` as the CLI ends, without the interpreter's teardown,
  measured the same way) and the rest;
* ``decide`` in one process: its first call (loading the compiled kernel)
  and the best of ``--repeat`` later calls, with every core (the default
  ``threads``) and with one thread (the answer is the same);
* the peak RSS of the CLI process.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# Python writes and reads its byte-code cache in the runs, as on a user's machine, even
# where the environment turns it off (PYTHONDONTWRITEBYTECODE: recompiling some 70 of
# our modules from source costs about 0.12 s a run).
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _run(argv: list[str]) -> tuple[float, str]:
    t = time.perf_counter()
    out = subprocess.run(argv, check=True, capture_output=True, text=True, cwd=ROOT, env=_ENV).stdout
    return time.perf_counter() - t, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--state", default="instances/midgame-no-monopolies.json")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    exe = str(Path(sys.executable).with_name("monopoly-trade"))
    cli = [exe, "solve", args.state, "--json"]
    first, out = _run(cli)
    later = min(_run(cli)[0] for _ in range(args.repeat))
    imports = min(_run([sys.executable, "-c", "import os, solver.cli, solver.decide; os._exit(0)"])[0] for _ in range(args.repeat))
    doc = json.loads(out)
    print(f"solve {args.state} -> {doc['decision']['action']} (truncated: {doc['truncated']})")
    print(f"CLI first run {first:.2f} s; warm runs best {later:.2f} s, of which Python imports {imports:.2f} s")
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS of the CLI processes {rss:.0f} MB (target < 500 MB)")

    from engine.sim.rollout import default_threads
    from models.io import load_state
    from solver.decide import decide

    state = load_state(ROOT / args.state)
    name = state.players[state.to_move].name
    t = time.perf_counter()
    decide(state, name)
    first_call = time.perf_counter() - t
    runs = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        decide(state, name)
        runs.append(time.perf_counter() - t)
    one = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        decide(state, name, threads=1)
        one.append(time.perf_counter() - t)
    print(
        f"decide() in one process: first call {first_call:.2f} s, later calls best {min(runs):.2f} s "
        f"on {default_threads()} threads, {min(one):.2f} s on one"
    )


if __name__ == "__main__":
    main()
