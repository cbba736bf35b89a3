"""The MCP server's runner (:class:`solver.mcp_server.ToolRunner`) and the simulation's thread cap.

A worker killed between calls fails the next call with one line and is replaced (the call
after answers as before); the in-process runner gives the same text as a worker; a call
refused by its command raises the command's line; :func:`engine.sim.rollout.thread_cap`
bounds :func:`default_threads` and leaves an answer unchanged.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from engine.sim.rollout import default_threads, thread_cap
from models.errors import InvalidArgumentError
from solver.cli import json_answer
from solver.mcp_server import CommandFailed, ToolRunner, _ready

ROOT = Path(__file__).resolve().parents[2]
RISK = ["risk", str(ROOT / "instances" / "near-ruin.json"), "--turns", "3"]
SOLVE = ["solve", str(ROOT / "instances" / "two-player.json"), "--rollouts", "8", "--seed", "5"]


def test_a_dead_worker_fails_one_call_and_is_replaced() -> None:
    local = ToolRunner(0, json_answer)
    runner = ToolRunner(1, json_answer)
    try:
        first = runner.text(SOLVE)
        assert first == local.text(SOLVE)  # a worker answers as this process does
        assert runner._pool is not None
        pid = runner._pool.submit(_ready).result()
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(CommandFailed, match=r"^solve: the worker answering this call stopped unexpectedly") as err:
            for _ in range(50):  # the pool notices the death when it next hands out work
                runner.text(SOLVE)
        assert "\n" not in str(err.value)
        assert runner.text(SOLVE) == first  # new workers answer the same
        with pytest.raises(CommandFailed, match=r"^monopoly-trade risk: argument --turns: 0 is outside 1\.\.1000$"):
            runner.text([*RISK[:2], "--turns", "0"])
    finally:
        runner.close()


def test_thread_cap_bounds_the_default_and_not_the_answer() -> None:
    with thread_cap(1):
        assert default_threads() == 1
        with thread_cap(3):
            assert default_threads() == 1  # the innermost block cannot raise an outer cap
        capped = ToolRunner(0, json_answer).text(SOLVE)
    assert default_threads() >= 1
    assert ToolRunner(0, json_answer).text(SOLVE) == capped
    with pytest.raises(InvalidArgumentError, match="n must be >= 1"):
        with thread_cap(0):
            pass


def test_the_thread_limit_is_read_as_each_simulation_starts() -> None:
    """:func:`engine.sim.rollout.set_thread_limit`: read at every call (a call that began on two
    threads drops to one as soon as the limit says so), the answer unchanged."""
    import threading

    from engine.sim.rollout import set_thread_limit, side_by_side, simulate
    from models.io import load_state

    state = load_state(ROOT / "instances" / "midgame-no-monopolies.json")
    free = simulate(state, 40, 8, seed=3, threads=2).win_prob
    level = [2]
    set_thread_limit(lambda: level[0])
    try:
        where = lambda _: threading.current_thread().name  # noqa: E731
        assert all(n.startswith("simulate") for n in side_by_side(where, [0, 1], 2))  # two pool threads
        level[0] = 1
        assert side_by_side(where, [0, 1], 2) == [threading.current_thread().name] * 2  # here, in turn
        assert default_threads() == 1
        assert simulate(state, 40, 8, seed=3, threads=2).win_prob == free
    finally:
        set_thread_limit(None)
    assert default_threads() >= 1


def test_workers_read_the_runners_in_flight_count() -> None:
    """The runner shares its in-flight count with its workers: with more than one call in flight a
    worker's simulations get one thread, else every core it may use."""
    from engine.sim.rollout import default_threads as threads_here

    runner = ToolRunner(1, json_answer)
    try:
        assert runner._pool is not None
        runner._shared.value = 2
        assert runner._pool.submit(threads_here).result() == 1
        runner._shared.value = 1
        assert runner._pool.submit(threads_here).result() == default_threads()
        runner._shared.value = 0
        assert runner.text(SOLVE) == ToolRunner(0, json_answer).text(SOLVE)
    finally:
        runner.close()
