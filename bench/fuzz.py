"""Fuzz the loader and the commands with mutated bundled instances.

    python bench/fuzz.py [--cases 10000] [--seed 0] [--commands 200] [--timeout 20] [--memory-mb 1024]

Each case draws a bundled instance and a seed, applies 1-4 edits
(:func:`tests.state_fuzz.mutate` for half the cases, the plausible
:func:`tests.state_fuzz.nudge` for the other half) and loads the result as a
parsed object and as the bytes of a file. Counted: accepted, refused in one
line, and anything else (a traceback: a defect, printed with its case).

The first ``--commands`` accepted states are written to a temporary folder
and run, each command in its own process under a wall-clock limit
(``--timeout`` seconds) and an address-space limit (``--memory-mb``):
``validate``, ``odds``, ``risk``, ``analyze``, ``trades`` and ``solve
--rollouts 32``. Every run must exit 0; a non-zero exit, a traceback, a time
out or a memory failure is reported with the case's seed.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.errors import InvalidStateError  # noqa: E402
from models.io import load_state, load_state_bytes  # noqa: E402
from tests.state_fuzz import mutate, nudge  # noqa: E402

COMMANDS = (
    ("validate",),
    ("odds",),
    ("risk",),
    ("analyze",),
    ("trades",),
    ("solve", "--rollouts", "32"),
)


def _limit(memory_mb: int):  # type: ignore[no-untyped-def]
    def apply() -> None:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--commands", type=int, default=200, help="accepted states sent through the commands")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--memory-mb", type=int, default=1024)
    args = ap.parse_args()
    docs = {p.name: json.loads(p.read_text()) for p in sorted((ROOT / "instances").glob("*.json"))}
    names = sorted(docs)
    counts: Counter[str] = Counter()
    defects: list[str] = []
    accepted: list[tuple[int, dict]] = []
    t0 = time.perf_counter()
    for case in range(args.cases):
        rng = random.Random(args.seed * 1_000_003 + case)
        name = rng.choice(names)
        edit = mutate if case % 2 == 0 else nudge
        doc = edit(docs[name], rng, rng.randint(1, 4))
        outcomes = []
        for load, arg in ((load_state, doc), (load_state_bytes, json.dumps(doc, ensure_ascii=True).encode("ascii"))):
            try:
                load(arg)
                outcomes.append("accepted")
            except InvalidStateError as err:
                outcomes.append("refused" if "\n" not in str(err) else "refused on several lines")
            except Exception as err:  # noqa: BLE001 - a defect: counted and shown
                outcomes.append(f"{type(err).__name__}")
                defects.append(f"case {case} ({name}): {type(err).__name__}: {str(err)[:120]}")
        counts[outcomes[0] if outcomes[0] == outcomes[1] else "the two loads disagree"] += 1
        if outcomes == ["accepted", "accepted"] and len(accepted) < args.commands:
            accepted.append((case, doc))
    load_s = time.perf_counter() - t0
    print(f"{args.cases} mutated states (seed {args.seed}) in {load_s:.1f} s: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    runs: Counter[str] = Counter()
    slowest = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for case, doc in accepted:
            path = Path(tmp) / f"case-{case}.json"
            path.write_text(json.dumps(doc, ensure_ascii=True))
            for cmd in COMMANDS:
                argv = [sys.executable, "-m", "solver", cmd[0], str(path), *cmd[1:]]
                start = time.perf_counter()
                try:
                    proc = subprocess.run(
                        argv, capture_output=True, text=True, timeout=args.timeout, cwd=ROOT, preexec_fn=_limit(args.memory_mb), check=False
                    )
                except subprocess.TimeoutExpired:
                    runs["timed out"] += 1
                    defects.append(f"case {case}: {cmd[0]} ran past {args.timeout:.0f} s")
                    continue
                slowest = max(slowest, time.perf_counter() - start)
                if proc.returncode == 0:
                    runs["ok"] += 1
                else:
                    runs[f"exit {proc.returncode}"] += 1
                    last = proc.stderr.strip().splitlines()[-1:] or [""]
                    defects.append(f"case {case}: {cmd[0]} exit {proc.returncode}: {last[0][:160]}")
    print(
        f"{len(accepted)} accepted states x {len(COMMANDS)} commands ({args.timeout:.0f} s, {args.memory_mb} MB each): "
        + ", ".join(f"{k} {v}" for k, v in sorted(runs.items()))
        + f"; slowest run {slowest:.1f} s"
    )
    print(f"defects: {len(defects)}")
    for line in defects[:40]:
        print("  " + line)


if __name__ == "__main__":
    main()
