"""Where a tournament's games run: this process, a pool of local processes, or Ray tasks.

``backend="local"`` plays in this process (``workers <= 1``) or on a pool of
``workers`` processes; ``backend="ray"`` as Ray tasks on the cluster at
``RAY_ADDRESS`` when set, else on a local Ray instance with ``workers`` CPUs,
shut down at the end if this run started it. Ray is an optional dependency
(the ``ray`` extra), imported only when asked for. Rows come back in the order
games finish; a bounded number of Ray tasks is in flight, so memory stays flat
however many games a run has.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing as mp
import os
import sys
from collections.abc import Iterable, Callable, Generator, Iterator, Sequence
from typing import Any

from models.errors import MonopolyError

Job = tuple[Any, ...]
PlayJob = Callable[[Job], dict[str, Any]]


def parallel_map(fn: Callable[[Any], Any], jobs: Sequence[Any], workers: int, chunksize: int = 1) -> Iterator[Any]:
    """``fn`` over ``jobs``: in this process when ``workers <= 1``, else on a pool of
    ``workers`` processes, results in the order they finish.

    Parameters
    ----------
    fn : callable
        A picklable function of one job.
    jobs : sequence
        The jobs.
    workers : int
        Processes (``<= 1``: this process, in order).
    chunksize : int, default 1
        Jobs per task sent to a worker.

    Yields
    ------
    object
        ``fn(job)`` for each job.

    Examples
    --------
    >>> list(parallel_map(abs, [-1, -2, 3], workers=1))
    [1, 2, 3]
    >>> sorted(parallel_map(abs, [-1, -2, 3], workers=2))
    [1, 2, 3]
    """
    if workers <= 1:
        yield from map(fn, jobs)
        return
    ctx = mp.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(workers) as pool:
        yield from pool.imap_unordered(fn, jobs, chunksize=chunksize)


def _local_results(play: PlayJob, jobs: list[Job], workers: int) -> Iterator[dict[str, Any]]:
    yield from parallel_map(play, jobs, workers, chunksize=4)


BACKENDS = ("local", "ray")
"""The ``backend`` values :func:`engine.tournament.run.run_tournament` takes."""
_RAY_CHUNK = 4  # games per Ray task
_RAY_TASKS_PER_CPU = 2  # tasks in flight per cluster CPU: memory stays flat however many games


class BackendUnavailableError(MonopolyError, RuntimeError):
    """The backend asked for is not installed (``ray`` without the ``ray`` extra)."""


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendUnavailableError("the ray backend needs the 'ray' extra: pip install 'monopoly-trade[ray]'") from None
    return ray


class UnknownBackendError(MonopolyError, ValueError):
    """A backend other than those of :data:`BACKENDS`."""


def check_backend(backend: str) -> None:
    """Refuse an unknown backend, or ``ray`` without the ``ray`` extra, before any file is touched.

    Raises
    ------
    UnknownBackendError
        ``backend`` is not one of :data:`BACKENDS`.
    BackendUnavailableError
        ``backend`` is ``ray`` and Ray is not installed.
    """
    if backend not in BACKENDS:
        raise UnknownBackendError(f"unknown backend {backend!r}: use 'local' or 'ray'")
    if backend == "ray":
        _import_ray()  # fail before touching the results file


def _ray_connect(ray: Any, workers: int) -> bool:
    """Join ``RAY_ADDRESS`` or start a quiet local instance; True if this call connected."""
    if ray.is_initialized():
        return False
    if os.environ.get("RAY_ADDRESS"):
        ray.init(address=os.environ["RAY_ADDRESS"], log_to_driver=False, logging_level=logging.WARNING)
    else:
        ray.init(
            address="local",  # a new instance, even when `ray start` left one running here
            num_cpus=workers if workers > 1 else None,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
    return True


def _play_chunk(play: PlayJob, jobs: list[Job]) -> list[dict[str, Any]]:
    return [play(job) for job in jobs]


def _ray_stream(ray: Any, play: PlayJob, jobs: list[Job]) -> Iterator[dict[str, Any]]:
    """Rows of ``jobs`` as their Ray tasks finish, with a bounded number of tasks in flight."""
    remote = ray.remote(_play_chunk)
    chunks = (jobs[i : i + _RAY_CHUNK] for i in range(0, len(jobs), _RAY_CHUNK))
    limit = _RAY_TASKS_PER_CPU * max(1, int(ray.cluster_resources().get("CPU", 1)))
    pending: list[Any] = []
    try:
        for chunk in chunks:
            pending.append(remote.remote(play, chunk))
            while len(pending) >= limit:
                done, pending = ray.wait(pending, num_returns=1)
                yield from ray.get(done[0])
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
    finally:
        for ref in pending:  # stopped early: do not leave games running on a cluster
            ray.cancel(ref)


def _ray_results(play: PlayJob, jobs: list[Job], workers: int) -> Iterator[dict[str, Any]]:
    ray = _import_ray()
    started = _ray_connect(ray, workers)
    try:
        yield from _ray_stream(ray, play, jobs)
    finally:
        if started:
            ray.shutdown()


def ray_stream(play: PlayJob, jobs: Iterable[Job], workers: int, window: int = 64) -> Iterator[dict[str, Any]]:
    """``play(job)`` for every job of an iterable on Ray, read ``window`` jobs at a time (so
    memory stays flat in the number of jobs), in one Ray session (joined or started once).

    Parameters
    ----------
    play : callable
        A module-level function (it is shipped to the workers).
    jobs : iterable
        The jobs, read lazily.
    workers : int
        CPUs of a local instance started here (an existing one, or ``RAY_ADDRESS``, is joined).
    window : int, default 64
        Jobs read ahead.

    Yields
    ------
    dict
        Each result, in the order its task finishes.

    Raises
    ------
    BackendUnavailableError
        Ray is not installed.
    """
    ray = _import_ray()
    started = _ray_connect(ray, workers)
    try:
        it = iter(jobs)
        while True:
            chunk = list(itertools.islice(it, window))
            if not chunk:
                break
            yield from _ray_stream(ray, play, chunk)
    finally:
        if started:
            ray.shutdown()


def results(play: PlayJob, jobs: list[Job], workers: int, backend: str) -> Generator[dict[str, Any], None, None]:
    """``play(job)`` for every job on ``backend``, rows in the order they finish."""
    if not jobs:
        return
    if backend == "ray":
        yield from _ray_results(play, jobs, workers)
    else:
        yield from _local_results(play, jobs, workers)
