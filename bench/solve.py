"""Wall time of ``solve``: a fresh process, and a warm one (issue 40's targets: fresh-process
median <= 1.0 s on an idle machine, warm median <= 150 ms, mid-game instance).

    python bench/solve.py [--state instances/midgame-no-monopolies.json] [--repeat 9]

Prints, at the default settings (800 rollouts; the 60 s budget is only a safety cap), with the
load average before the run:

* the CLI (``monopoly-trade solve STATE --json`` in a fresh process): the
  first run, then the median, best and worst of ``--repeat`` later runs (the
  numba cache, the file cache and Python's byte-code cache are warm then), and
  the median import time of such a process (``solver.cli`` and ``solver.decide``
  imported as the CLI imports them, OR-Tools without pandas, ended with ``os._exit``
  as the CLI ends);
* :func:`solver.solve` in one process (what the library and the MCP server's
  warmed workers answer with): its first call, then, after
  :func:`solver.warm_up`, the median, best and worst of ``--repeat`` calls, on
  every core (the default threads);
* the peak RSS of the CLI processes and of this process.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
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
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()
    exe = str(Path(sys.executable).with_name("monopoly-trade"))
    cli = [exe, "solve", args.state, "--json"]
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    first, out = _run(cli)
    fresh = [_run(cli)[0] for _ in range(args.repeat)]
    # the CLI's imports: OR-Tools without pandas, as solver.cli.run arranges (solver/_cp_model.py)
    imports_of_cli = "import os, solver._cp_model as m; m.PANDAS_FREE = True; import solver.cli, solver.decide; os._exit(0)"
    imports = [_run([sys.executable, "-c", imports_of_cli])[0] for _ in range(args.repeat)]
    doc = json.loads(out)
    print(f"solve {args.state} -> {doc['decision']['action']} (truncated: {doc['truncated']})")
    print(
        f"CLI, a fresh process each: first run {first:.2f} s; then median {statistics.median(fresh):.2f} s "
        f"(best {min(fresh):.2f}, worst {max(fresh):.2f}; {args.repeat} runs), of which Python imports median "
        f"{statistics.median(imports):.2f} s (target: median <= 1.0 s on an idle machine)"
    )
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS of the CLI processes {rss:.0f} MB (target < 500 MB)")

    from engine.sim.rollout import default_threads
    from models.io import load_state
    from solver.api import solve, warm_up

    state = load_state(ROOT / args.state)
    t = time.perf_counter()
    solve(state)
    first_call = time.perf_counter() - t
    warm_up()
    runs = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        solve(state)
        runs.append(time.perf_counter() - t)
    print(
        f"solver.solve() warm in one process (the library, the MCP worker): first call {first_call:.2f} s, then median "
        f"{1000 * statistics.median(runs):.0f} ms (best {1000 * min(runs):.0f}, worst {1000 * max(runs):.0f}; {args.repeat} calls) "
        f"on {default_threads()} threads (target: median <= 150 ms); peak RSS of this process "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )

if __name__ == "__main__":
    main()
