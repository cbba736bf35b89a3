"""Batch solving at scale: states/s with one and two workers, a killed run resumed, Ray's rows.

    python bench/batch.py [--states 200] [--rollouts 800] [--seed 0] [--kill-seed 1] [--ray]

States: ``--states`` turn-start states from agent games (:func:`tests.played_states.played_states`:
the opening under each preset and every bundled instance between questions, ``strategic`` and
``random`` seats), written as a JSON-lines batch, one named state a line. Then, each through
``monopoly-trade solve --batch FILE --out OUT`` in a fresh process (the first worker's start-up
included, as a user pays it):

1. one worker, then two workers (each simulating on one thread): wall time, states/s, the
   speed-up (the issue's target: >= 1.7x on 2 cores), and that both give the same rows. One
   worker alone simulates on every core (as a user runs it), so its speed-up counts only
   what the second process adds beyond the first's threads; where ``taskset`` exists, one
   worker held to one core (``taskset -c 0``) is timed too, and the speed-up of two workers
   over it printed beside: the scaling of the workers themselves;
2. two workers killed (SIGKILL to the command and its workers) at a seeded random moment between 20% and 80% of the
   two-worker time, then ``--resume``: the rows, compared by state name, must equal the
   uninterrupted run's, none lost, none twice;
3. with ``--ray``: ``--backend ray`` on a local Ray instance of 2 CPUs gives the same rows.

Prints each figure, the machine's load before the run, and the peak RSS of the children.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.io import state_to_dict  # noqa: E402
from tests.played_states import played_states  # noqa: E402


def _rows(path: Path) -> dict[str, str]:
    """The results file's rows by state name (each as canonical JSON text); a name twice is a defect."""
    out: dict[str, str] = {}
    for line in path.read_text().splitlines()[1:]:
        row = json.loads(line)
        name = row.pop("name")
        if name in out:
            raise SystemExit(f"{name}: two rows")
        out[name] = json.dumps(row, sort_keys=True)
    return out


def _batch(
    inp: Path, out: Path, workers: int, rollouts: int, seed: int, *extra: str, pin: bool = False
) -> tuple[float, subprocess.Popen[bytes]]:
    exe = Path(sys.executable).with_name("monopoly-trade")
    argv = [*(["taskset", "-c", "0"] if pin else []), str(exe), "solve", "--batch", str(inp), "--out", str(out), "--workers", str(workers), "--rollouts", str(rollouts), "--seed", str(seed), "-q", *extra]
    t = time.perf_counter()
    return t, subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def _children_cpu() -> float:
    """User plus system CPU seconds of the waited-for children (and, through them, their workers)."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _finish(t: float, proc: subprocess.Popen[bytes]) -> float:
    _, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"batch failed ({proc.returncode}): {err.decode()[-400:]}")
    return time.perf_counter() - t


def _busy(cpu: float, wall: float, cores: int) -> str:
    """The run's CPU and the share of ``cores`` it kept busy: with two workers a share near 100%
    means the cores were full, and a speed-up short of 2x came from CPU per state, not waiting."""
    return f"CPU {cpu:.1f} s, {cpu / wall / cores:.0%} of {cores} cores"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--states", type=int, default=200)
    ap.add_argument("--rollouts", type=int, default=800)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kill-seed", type=int, default=1)
    ap.add_argument("--ray", action="store_true")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    states = [s for s in played_states(args.states, seed=args.seed) if not s.players[s.to_move].bankrupt]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        inp = d / "states.jsonl"
        inp.write_text("".join(json.dumps({"name": f"s{k:04d}", "state": state_to_dict(s)}) + "\n" for k, s in enumerate(states)))
        n = len(states)
        print(f"{n} states from agent games (seed {args.seed}), {args.rollouts} rollouts each")
        times: dict[int, float] = {}
        rows: dict[int, dict[str, str]] = {}
        cores = len(os.sched_getaffinity(0))
        for w in (1, 2):
            c0 = _children_cpu()
            t, proc = _batch(inp, d / f"w{w}.jsonl", w, args.rollouts, args.seed)
            times[w] = _finish(t, proc)
            rows[w] = _rows(d / f"w{w}.jsonl")
            errors = sum('"error"' in r for r in rows[w].values())
            print(
                f"  {w} worker{'s' if w > 1 else ''}: {times[w]:.1f} s, {n / times[w]:.2f} states/s ({errors} error rows; "
                f"{_busy(_children_cpu() - c0, times[w], cores)})"
            )
        same = rows[1] == rows[2]
        print(f"  speed-up 2 workers / 1: {times[1] / times[2]:.2f}x; the same rows: {'yes' if same else 'NO'}")
        if shutil.which("taskset"):
            c0 = _children_cpu()
            t, proc = _batch(inp, d / "pinned.jsonl", 1, args.rollouts, args.seed, pin=True)
            pinned = _finish(t, proc)
            pinned_cpu = _children_cpu() - c0
            same_pinned = _rows(d / "pinned.jsonl") == rows[1]
            print(
                f"  1 worker held to one core: {pinned:.1f} s, {n / pinned:.2f} states/s ({_busy(pinned_cpu, pinned, 1)}); "
                f"speed-up 2 workers / 1 on one core: {pinned / times[2]:.2f}x; the same rows: {'yes' if same_pinned else 'NO'}"
            )
        at = random.Random(args.kill_seed).uniform(0.2, 0.8) * times[2]
        killed = d / "killed.jsonl"
        t, proc = _batch(inp, killed, 2, args.rollouts, args.seed)
        time.sleep(at)
        os.killpg(proc.pid, signal.SIGKILL)  # the command and its workers, as a crash would
        proc.wait()
        kept = len(killed.read_text().splitlines()) - 1
        t, proc = _batch(inp, killed, 2, args.rollouts, args.seed, "--resume")
        _finish(t, proc)
        resumed = _rows(killed)
        print(
            f"  killed at {at:.1f} s with {kept} rows written, then --resume: {len(resumed)} rows; "
            f"equal to the uninterrupted run by name: {'yes' if resumed == rows[2] else 'NO'}"
        )
        if args.ray:
            t, proc = _batch(inp, d / "ray.jsonl", 2, args.rollouts, args.seed, "--backend", "ray")
            tr = _finish(t, proc)
            ray_rows = _rows(d / "ray.jsonl")
            print(f"  Ray backend (a local instance, 2 CPUs): {tr:.1f} s; the same rows: {'yes' if ray_rows == rows[1] else 'NO'}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"  peak RSS of the largest child process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
