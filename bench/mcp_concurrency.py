"""Concurrent MCP calls: four ``solve`` calls side by side against the same four one at a time.

    python bench/mcp_concurrency.py [--workers 2] [--rollouts 800] [--rounds 3]

Spawns ``monopoly-trade mcp --workers N`` (as ``python -m solver mcp``), drives it with the
``mcp`` SDK's own stdio client, waits until the workers are warm (one call each), then, for
each of ``--rounds`` rounds, times four ``solve`` calls on the mid-game instance (seeds 1-4,
the default 800 rollouts) made one after another, and the same four made at once
(``asyncio.gather``); the two orders alternate between rounds. Prints each round's seconds,
the median ratio together/sequential (the issue's target: <= 0.65 on 2 cores) and checks
that the answers side by side are the ones given one at a time, byte for byte. Also prints
the connect time, the first call's time and the peak RSS of the server and its workers
(``RUSAGE_CHILDREN`` after the server ends: the largest of them).

The bound. With ``cores`` cores, calls at once cannot take less wall time than the CPU they
use divided by ``cores``; so the lowest ratio the machine allows is
``bound = (cpu_par / cores) / wall_seq``, where ``cpu_par`` is the CPU the server, its workers
and this client use for the four calls at once (read from ``/proc/PID/stat``, Linux; the
processes are the server and its children) and ``wall_seq`` the wall time of the four one at a
time. Equivalently, ``bound = busy_seq * cpu_par / cpu_seq`` with ``busy_seq`` the share of
the cores the calls one at a time keep busy: a call that already simulates on every core
leaves little for concurrency to gain. Printed beside the ratio, the median over rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATE = ROOT / "instances" / "midgame-no-monopolies.json"


def _family(root: int) -> list[int]:
    """``root`` and its descendants (from ``/proc``; empty where there is none)."""
    kids: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        kids.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, []))
    return out


def _cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU seconds of ``pids`` (those still alive) and of this process."""
    tick = os.sysconf("SC_CLK_TCK")
    total = time.process_time()
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


async def _run(workers: int, rollouts: int, rounds: int) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "solver", "mcp", "--workers", str(workers)], cwd=str(ROOT))
    calls = [{"state": str(STATE), "rollouts": rollouts, "seed": seed} for seed in (1, 2, 3, 4)]
    t0 = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        connect = time.perf_counter() - t0
        t = time.perf_counter()
        first = await session.call_tool("solve", calls[0])
        assert not first.is_error, first.content
        first_s = time.perf_counter() - t
        await asyncio.gather(*(session.call_tool("solve", c) for c in calls[:workers]))  # every worker has answered once
        server = [p for p in _family(os.getpid()) if p != os.getpid()]  # the server and its workers
        cores = len(os.sched_getaffinity(0))
        ratios, bounds, busy = [], [], []
        same = True
        for r in range(rounds):
            timings = {}
            cpu = {}
            for order in (("seq", "par") if r % 2 == 0 else ("par", "seq")):
                c0 = _cpu_seconds(server)
                t = time.perf_counter()
                if order == "seq":
                    seq = [(await session.call_tool("solve", c)).content[0].text for c in calls]
                else:
                    par = [x.content[0].text for x in await asyncio.gather(*(session.call_tool("solve", c) for c in calls))]
                timings[order] = time.perf_counter() - t
                cpu[order] = _cpu_seconds(server) - c0
            same = same and seq == par
            ratios.append(timings["par"] / timings["seq"])
            bounds.append(cpu["par"] / cores / timings["seq"])
            busy.append(cpu["seq"] / cores / timings["seq"])
            print(
                f"round {r + 1}: 4 sequential {timings['seq']:.2f} s, 4 at once {timings['par']:.2f} s, ratio {ratios[-1]:.2f}; "
                f"CPU {cpu['seq']:.2f} s and {cpu['par']:.2f} s, bound {bounds[-1]:.2f}"
            )
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"connect {connect:.2f} s; first solve {first_s:.2f} s (workers warm at start)")
    print(f"median ratio at once / sequential: {statistics.median(ratios):.2f} (target <= 0.65) over {rounds} rounds, {workers} workers, {rollouts} rollouts")
    if server:
        print(
            f"the calls one at a time kept the {cores} cores {statistics.median(busy):.0%} busy; lowest ratio this machine allows "
            f"(the CPU at once / cores / the wall time one at a time): median {statistics.median(bounds):.2f}"
        )
    print(f"answers at once equal to the answers one at a time, byte for byte: {'yes' if same else 'NO'}")
    print(f"peak RSS of the largest process (server or worker): {peak_mb:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rollouts", type=int, default=800)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    asyncio.run(_run(a.workers, a.rollouts, a.rounds))


if __name__ == "__main__":
    main()
