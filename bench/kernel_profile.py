"""Where the batch kernel's time goes, by compiled function, with Linux ``perf``.

    python bench/kernel_profile.py [--games 20000] [--start opening|midgame] [--seconds-only]

numba's compiled code carries no symbols that ``perf`` can read, so this script
compiles the kernel afresh into a temporary numba cache (about a minute: the
LLVM module of a freshly compiled function keeps its function names, one
loaded from the cache does not), writes a perf map (``/tmp/perf-<pid>.map``:
start, size and name of every function in :func:`engine.sim._kernel.run_batch`'s
module, the size taken as the distance to the next function), then samples
itself with ``perf record`` while it plays ``--games`` games four times
(horizon 100, the default rollout policy, one thread) and prints each
function's share of the samples. Functions inlined into their callers
(``jit_inline``, or small ones LLVM chose to inline) are counted in the
caller. Needs ``perf`` on the PATH and permission to sample this process;
without it, ``--seconds-only`` prints only the speed.

Session 13 (mid-game, before the tuples were passed by pointer): 32% of the
samples were on the ``push`` instructions that copy the 157 words of the
two tuples at every call; after: about 1%.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _short(mangled: str) -> str:
    """The function's own name from numba's Itanium-style mangled name: the last of the
    length-prefixed identifiers after ``_ZN`` (``6engine7_kernel10_act_phase`` ->
    ``_act_phase``), marked ``wrapper:`` for the Python entry points."""
    wrapper = mangled.startswith("cfunc.") or "_ZN7cpython" in mangled
    i = mangled.find("_ZN")
    if i < 0:
        return mangled[:40]
    i += 3
    name = mangled[:40]
    while True:
        m = re.match(r"\d+", mangled[i:])
        if not m:
            break
        n = int(m.group(0))
        i += len(m.group(0))
        name = mangled[i : i + n]
        i += n
    return ("wrapper:" if wrapper else "") + name


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--start", choices=("opening", "midgame"), default="midgame")
    ap.add_argument("--seconds-only", action="store_true", help="no perf: only the speed")
    args = ap.parse_args(argv)
    perf = shutil.which("perf")
    if perf is None and not args.seconds_only:
        print("perf is not on the PATH (use --seconds-only for the speed alone)", file=sys.stderr)
        return 2
    cache = tempfile.mkdtemp(prefix="kernel-profile-")
    os.environ["NUMBA_CACHE_DIR"] = cache  # before numba is imported: compile afresh, keep the names
    sys.path.insert(0, str(ROOT))
    from engine.sim import _kernel
    from engine.sim.rollout import simulate
    from models.io import load_state
    from models.state import GameState

    t = time.perf_counter()
    simulate(GameState.new_game(["A", "B"]), 4, 5, seed=0, scoring="net_worth")
    print(f"compiled in {time.perf_counter() - t:.0f} s")
    lib = next(iter(_kernel.run_batch.overloads.values())).library
    names = [f.name for f in lib._final_module.functions if not f.is_declaration]
    spans = sorted((lib.get_pointer_to_function(n), n) for n in names)
    map_path = Path(f"/tmp/perf-{os.getpid()}.map")
    lines = []
    for (addr, name), nxt in zip(spans, [a for a, _ in spans[1:]] + [spans[-1][0] + 4096]):
        lines.append(f"{addr:x} {nxt - addr:x} {_short(name)}")
    state = GameState.new_game(["A", "B", "C", "D"]) if args.start == "opening" else load_state(ROOT / "instances" / "midgame-no-monopolies.json")
    data = Path(cache) / "perf.data"
    rec = None
    try:
        if not args.seconds_only:
            map_path.write_text("\n".join(lines) + "\n")
            rec = subprocess.Popen([perf, "record", "-q", "-F", "4999", "-p", str(os.getpid()), "-o", str(data)], stderr=subprocess.DEVNULL)
            time.sleep(1.0)  # perf attaches
        turns, secs = 0, 0.0
        for i in range(4):
            r = simulate(state, args.games, 100, seed=1 + i, scoring="net_worth")
            turns, secs = turns + r.player_turns, secs + r.seconds
        print(f"{args.start}: {turns:,} player-turns in {secs:.2f} s = {turns / secs / 1e6:.2f} M player-turns/s")
        if rec is None:
            return 0
        rec.send_signal(2)
        rec.wait()
        out = subprocess.run(
            [perf, "report", "-i", str(data), "--no-children", "--sort", "symbol", "--stdio", "-q"], capture_output=True, text=True
        ).stdout
        print("share of the samples by compiled function (callees inlined into their callers):")
        for line in out.splitlines():
            m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
            if m and float(m.group(1)) >= 0.5:
                print(f"  {float(m.group(1)):5.1f}%  {m.group(2)}")
        return 0
    finally:
        map_path.unlink(missing_ok=True)
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
