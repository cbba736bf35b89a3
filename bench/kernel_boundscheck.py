"""The batch kernel's every array index in range, checked: compiled with bounds checks.

    python bench/kernel_boundscheck.py [--games 300]

The kernel compiles without numba's negative-index wraparound (:mod:`engine.sim._nowrap`),
so a negative index would read or write outside its array instead of wrapping, and
numba checks no upper bound either. This script compiles the kernel afresh into a
temporary numba cache with ``NUMBA_BOUNDSCHECK=1`` (a minute or so): every index,
the negative ones included (the hook leaves them negative), is then checked against
its dimension and raises ``IndexError`` when out of range. It plays
``bench/kernel_compare.py``'s 504 configurations (every start there, every rule
preset, seven policies, ``--games`` games each, horizon 60) and prints how many ran
clean; exit 1 at the first ``IndexError`` (printed with its configuration).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args(argv)
    cache = tempfile.mkdtemp(prefix="kernel-boundscheck-")
    os.environ["NUMBA_CACHE_DIR"] = cache  # before numba is imported: a fresh compile
    os.environ["NUMBA_BOUNDSCHECK"] = "1"
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from kernel_compare import _play, configurations

        from engine.sim import _kernel, rollout_tables

        t = time.perf_counter()
        configs = 0
        for label, state, policy, keys in configurations(args.games):
            try:
                _play(_kernel, rollout_tables, state, policy, keys, 60)
            except IndexError as exc:
                print(f"IndexError on {label}: {exc}")
                return 1
            configs += 1
        print(f"{configs} configurations x {args.games} games with bounds checks: no index out of range ({time.perf_counter() - t:.0f} s, compile included)")
        return 0
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
