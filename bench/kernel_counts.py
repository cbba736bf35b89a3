"""The batch kernel's instructions and mispredicted branches per player-turn, counted by valgrind.

    python bench/kernel_counts.py [--base PATH] [--games N]

A count that does not drift: on a shared host the kernel's speed moves by
10-25% within the hour, more than most changes worth measuring, while the
instructions it executes on the same games are the same on every run.
valgrind's ``cachegrind`` counts them, and with ``--branch-sim=yes`` the
branches its simple predictor model misses (a real core misses fewer, but a
change that removes data-dependent branches shows in both).

For this checkout (and ``--base``, the root of another checkout, to compare):
the kernel is compiled for ``x86-64-v3`` (valgrind runs no AVX-512) into a
numba cache of its own under the temporary folder (about a minute the first
time, reused afterwards), then a child process runs under valgrind three
times with ``PYTHONHASHSEED=0``: start-up alone, and ``--games`` games
(default 10,000, horizon 100, the default policy, one thread) from the
opening and from ``instances/midgame-no-monopolies.json``. The start-up's
counts are subtracted and the rest divided by the player-turns played. Each
valgrind run of 10,000 games takes about a minute. Needs ``valgrind`` on
the PATH. The counts are not exact to the instruction: the same kernel has
read up to 3% apart in separate invocations (the start-up subtracted is not
quite the same each time), so compare two kernels within one invocation
(``--base``) and read small differences with care.

Session 16, against session 15's kernel: from the opening 1,936 -> 1,683
instructions and 36.2 -> 20.7 mispredicts per player-turn, from the mid-game
3,002 -> 2,451 and 65.8 -> 34.3 (4 minutes in all, both compiles included).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child(tree: str, games: int, start: str) -> None:
    """Run in the child: load ``tree``'s kernel, play, print the player-turns."""
    sys.path.insert(0, tree)
    try:
        from engine.sim.rollout import simulate
    except ImportError:  # a checkout from before engine/ was split by job (0.1)
        from engine.rollout import simulate  # type: ignore[no-redef]
    from models.io import load_state
    from models.state import GameState

    simulate(GameState.new_game(["A", "B"]), 4, 5, seed=0)  # load the compiled kernel
    if games:
        state = GameState.new_game(["A", "B", "C", "D"]) if start == "opening" else load_state(Path(tree) / "instances" / "midgame-no-monopolies.json")
        print("player-turns", simulate(state, games, 100, seed=1, scoring="net_worth").player_turns)


def _env(tree: Path) -> dict[str, str]:
    kernel = next(p for p in (tree / "engine" / "sim" / "_kernel.py", tree / "engine" / "_kernel.py") if p.exists())
    digest = hashlib.sha256(kernel.read_bytes()).hexdigest()[:16]
    cache = Path(tempfile.gettempdir()) / f"kernel-counts-{digest}"
    return {**os.environ, "PYTHONHASHSEED": "0", "NUMBA_CPU_NAME": "x86-64-v3", "NUMBA_CPU_FEATURES": "", "NUMBA_CACHE_DIR": str(cache)}


def _count(tree: Path, games: int, start: str) -> tuple[int, int, int]:
    """(instructions, mispredicts, player-turns) of one valgrind run."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes", "--cachegrind-out-file=/dev/null"]
    cmd += [sys.executable, __file__, "--child", str(tree), str(games), start]
    out = subprocess.run(cmd, capture_output=True, text=True, env=_env(tree), check=True)
    text = out.stdout + out.stderr

    def number(label: str) -> int:
        m = re.search(label + r":\s+([\d,]+)", text)
        if m is None:
            raise RuntimeError(f"no {label!r} in valgrind's output:\n{text[-2000:]}")
        return int(m.group(1).replace(",", ""))

    m = re.search(r"player-turns (\d+)", text)
    return number(r"I\s+refs"), number("Mispredicts"), int(m.group(1)) if m else 0


def counts(tree: Path, games: int) -> dict[str, tuple[float, float]]:
    """Per player-turn (instructions, mispredicts) from the opening and the mid-game."""
    subprocess.run([sys.executable, __file__, "--child", str(tree), "0", "opening"], env=_env(tree), check=True)  # compile
    ir0, mp0, _ = _count(tree, 0, "opening")
    out = {}
    for start in ("opening", "midgame"):
        ir, mp, turns = _count(tree, games, start)
        out[start] = ((ir - ir0) / turns, (mp - mp0) / turns)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        child(argv[1], int(argv[2]), argv[3])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, help="root of another checkout to compare with")
    ap.add_argument("--games", type=int, default=10_000)
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not on the PATH", file=sys.stderr)
        return 2
    trees = [("this", ROOT)] + ([("base", args.base.resolve())] if args.base else [])
    results = {name: counts(tree, args.games) for name, tree in trees}
    for start in ("opening", "midgame"):
        for name, _ in trees:
            ir, mp = results[name][start]
            line = f"{start:8s} {name:5s} {ir:8.1f} instructions, {mp:6.2f} mispredicted branches per player-turn"
            if name == "this" and "base" in results:
                bir, bmp = results["base"][start]
                line += f" ({ir / bir:.3f}x and {mp / bmp:.3f}x the base's)"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
