"""Solve many states at once: ``monopoly-trade solve --batch DIR|FILE.jsonl --out FILE.jsonl``.

:func:`solve_many` answers a stream of named states with :func:`solver.solve` (the player to
move of each, the same settings for all) on ``workers`` local processes, and yields one row
per state as its answer arrives: ``{"name": NAME, ...}`` followed by the ``solve --json``
object, or ``{"name": NAME, "error": "one line"}`` for a state that cannot be solved (the
others go on). With ``out`` the rows are appended to a JSON-lines file, one flushed line each,
after a header line naming the settings (``{"header": "monopoly-solve-batch/1", ...}``), so a
killed run loses no finished answer; ``resume`` continues a file whose header matches these
settings, skipping the names already in it (a torn last line is dropped and that state solved
again); a file that is not this run's is refused. Memory stays flat in the number of states:
states are read one at a time and at most ``2 x workers`` are in flight. With more than one
worker, each simulates on one thread (the workers share the cores; the answers do not change).

Each answer depends only on its state and the settings (the work is fixed by counts), so the
rows are the same for any ``workers`` and on either backend (local processes, or Ray tasks:
``backend="ray"``); their order in the file is the order answers finish (with one local worker,
the input order).

Inputs (:func:`read_inputs`): a folder (every ``*.json`` file in it, by name; the name is the
file's) or a JSON-lines file whose lines are state documents or positions in one line
(``MPN1 ...``, docs/state-format.md#one-line-positions), each named ``FILE:LINE``, or
``{"name": NAME, "state": {...} | "MPN1 ..."}``. Lines are at most :data:`MAX_LINE_BYTES`; a line that is not
JSON becomes an error row.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

from models.errors import MonopolyError
from models.io import is_line
from solver import jsonsafe

__all__ = ["BATCH_HEADER", "BatchError", "BatchSettings", "read_inputs", "read_done", "solve_many"]

BATCH_HEADER = "monopoly-solve-batch/1"
MAX_LINE_BYTES = 4 * 1024 * 1024
"""Longest input line read (a state file's limit)."""
MAX_STATES = 1_000_000


class BatchError(MonopolyError, ValueError):
    """A batch that cannot run (a missing input, another run's results file); one line."""


@dataclass(frozen=True)
class BatchSettings:
    """The settings every state of a batch is solved with (``solve``'s options).

    Attributes
    ----------
    rollouts, seed, horizon : int
        As :func:`solver.solve`.
    mode : str
        ``"fair"`` or ``"best"``.

    Examples
    --------
    >>> BatchSettings(rollouts=100).header()["rollouts"]
    100
    """

    rollouts: int = 800
    seed: int = 0
    horizon: int = 30
    mode: str = "fair"

    def header(self) -> dict[str, Any]:
        """The results file's first line: the format, the settings and the package version.

        Returns
        -------
        dict
            ``header``, the settings, ``version``.
        """
        from solver.version import package_version

        return {"header": BATCH_HEADER, **asdict(self), "version": package_version()}


def read_inputs(source: str | Path) -> Iterator[tuple[str, Any]]:
    """The named states of a batch input, one at a time: ``(name, state document or error text)``.

    Parameters
    ----------
    source : str or Path
        A folder of ``*.json`` state files, or a JSON-lines file (module docstring).

    Yields
    ------
    tuple of (str, object)
        The name and the parsed document (a path for a folder's file), or the name and a
        :class:`BatchError` for a line that is not JSON.

    Raises
    ------
    BatchError
        The source does not exist.

    Examples
    --------
    >>> [name for name, _ in read_inputs("instances")][:2]
    ['cycle-brown-pair.json', 'cycle-cash-flows.json']
    """
    path = Path(source)
    if path.is_dir():
        for k, f in enumerate(sorted(path.glob("*.json"))):
            if k >= MAX_STATES:
                raise BatchError(f"--batch: more than {MAX_STATES} states in {path}")
            yield f.name, f
        return
    if not path.is_file():
        raise BatchError(f"--batch: {str(path)!r} is neither a folder nor a file")
    with path.open("rb") as fh:
        for lineno, raw in enumerate(iter(lambda: fh.readline(MAX_LINE_BYTES + 1), b""), 1):
            if lineno > MAX_STATES:
                raise BatchError(f"--batch: more than {MAX_STATES} lines in {path}")
            name = f"{path.name}:{lineno}"
            if len(raw) > MAX_LINE_BYTES:
                yield name, BatchError(f"line {lineno} is over {MAX_LINE_BYTES} bytes")
                fh.readline()  # the rest of the long line
                continue
            if not raw.strip():
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                yield name, BatchError(f"line {lineno} is not UTF-8 text ({err})")
                continue
            if is_line(text.strip()):  # a position in one line (MPN1 ...), passed on as it is
                yield name, text.strip()
                continue
            try:
                doc = json.loads(text)
            except (UnicodeDecodeError, ValueError) as err:
                yield name, BatchError(f"line {lineno} is not JSON ({err})")
                continue
            if isinstance(doc, dict) and set(doc) == {"name", "state"} and isinstance(doc["name"], str):
                yield doc["name"][:200], doc["state"]
            else:
                yield name, doc


def _solve_one(job: tuple[str, Any, BatchSettings], one_thread: bool = False) -> dict[str, Any]:
    """One row: the named state's ``solve --json`` object, or its one-line error; with
    ``one_thread`` (a worker among several) its simulations run on one thread, so that the
    workers share the cores instead of each starting a thread per core (the answer is the
    same for any number of threads: :func:`engine.sim.rollout.thread_cap`)."""
    name, state, st = job
    if isinstance(state, BatchError):
        return {"name": name, "error": str(state)}
    import contextlib

    from engine.sim.rollout import thread_cap
    from solver.api import solve

    try:
        with thread_cap(1) if one_thread else contextlib.nullcontext():
            doc = solve(state, rollouts=st.rollouts, seed=st.seed, mode=st.mode, horizon=st.horizon).to_dict()
    except (MonopolyError, OSError) as err:
        return {"name": name, "error": " ".join(str(err).split())}
    return {"name": name, **doc}


def read_done(out: Path, settings: BatchSettings) -> list[dict[str, Any]]:
    """The rows already in ``out`` (for ``resume``), after checking that it is this run's file.

    Parameters
    ----------
    out : Path
        The results file.
    settings : BatchSettings
        This run's settings.

    Returns
    -------
    list of dict
        The complete rows (a torn last line is left out).

    Raises
    ------
    BatchError
        The file's header is not this run's.
    """
    with out.open(encoding="utf-8") as fh:
        first = fh.readline()
        try:
            header = json.loads(first)
        except ValueError:
            header = None
        if header != settings.header():
            raise BatchError(f"--resume: {out} was not written by this batch's settings ({first.strip()[:200]!r}); use another --out")
        rows = []
        for line in fh:
            try:
                rows.append(json.loads(line))
            except ValueError:
                break
    return rows


def solve_many(
    states: Iterable[tuple[str, Any]],
    settings: BatchSettings | None = None,
    *,
    out: str | Path | None = None,
    workers: int = 1,
    resume: bool = False,
    backend: str = "local",
) -> Iterator[dict[str, Any]]:
    """Solve every named state (module docstring), yielding each row as it is answered.

    Parameters
    ----------
    states : iterable of (str, state)
        Names and states (a :class:`~models.state.GameState`, a document or a path); a
        :class:`BatchError` in place of a state becomes an error row.
    settings : BatchSettings or None
        The settings (default :class:`BatchSettings`).
    out : str, Path or None
        The results file (appended, with a header line; module docstring).
    workers : int, default 1
        Local processes (1: in this process).
    resume : bool, default False
        Continue ``out``: skip the names already in it.
    backend : {"local", "ray"}, default "local"
        Local processes, or Ray tasks on the cluster at ``RAY_ADDRESS`` (or one Ray already
        initialised in this process, else a local instance of ``workers`` CPUs):
        :func:`engine.tournament.backends.ray_stream`. The rows are the same.

    Yields
    ------
    dict
        ``{"name", ...solve --json}`` or ``{"name", "error"}``.

    Raises
    ------
    BatchError
        ``out`` exists and is not this run's (with ``resume``).

    Examples
    --------
    >>> rows = list(solve_many([("opening", "instances/opening.json")], BatchSettings(rollouts=16)))
    >>> rows[0]["name"], rows[0]["decision"]["action"]
    ('opening', 'hold')
    """
    st = settings or BatchSettings()
    done: set[str] = set()
    fh = None
    if out is not None:
        path = Path(out)
        if resume and path.exists():
            kept = read_done(path, st)
            done = {str(r.get("name")) for r in kept}
            path.write_text("".join(jsonsafe.dumps(x) + "\n" for x in [st.header(), *kept]), encoding="utf-8")
        else:
            path.write_text(jsonsafe.dumps(st.header()) + "\n", encoding="utf-8")
        fh = path.open("a", encoding="utf-8")
    jobs = ((name, state, st) for name, state in states if name not in done)
    if backend not in ("local", "ray"):
        raise BatchError(f"--backend: unknown backend {backend!r}: use 'local' or 'ray'")
    if backend == "ray":
        from engine.tournament.backends import check_backend

        check_backend("ray")
    try:
        rows = _run(jobs, workers) if backend == "local" else _ray_rows(jobs, workers)
        for row in rows:
            if fh is not None:
                fh.write(jsonsafe.dumps(row) + "\n")
                fh.flush()
            yield row
    finally:
        if fh is not None:
            fh.close()


def _run(jobs: Iterator[tuple[str, Any, BatchSettings]], workers: int) -> Iterator[dict[str, Any]]:
    """The rows of ``jobs``: in this process with one worker, else on a pool with at most
    ``2 x workers`` jobs in flight (so the input is read as the answers come)."""
    if workers <= 1:
        for job in jobs:
            yield _solve_one(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: set[Future[dict[str, Any]]] = set()
        for job in jobs:
            pending.add(pool.submit(_solve_one, _portable(job), True))
            if len(pending) >= 2 * workers:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    yield f.result()
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                yield f.result()


def _ray_rows(jobs: Iterator[tuple[str, Any, BatchSettings]], workers: int) -> Iterator[dict[str, Any]]:
    """The rows of ``jobs`` as Ray tasks (:func:`engine.tournament.backends.ray_stream`)."""
    from engine.tournament.backends import ray_stream

    yield from ray_stream(partial(_solve_one, one_thread=workers > 1), (_portable(j) for j in jobs), workers)


def _portable(job: tuple[str, Any, BatchSettings]) -> tuple[str, Any, BatchSettings]:
    """A job a worker process can receive: a state as its document or path (no live objects)."""
    name, state, st = job
    from models.state import GameState

    if isinstance(state, GameState):
        from models.io import state_to_dict

        return name, state_to_dict(state), st
    if isinstance(state, Path):
        return name, str(state), st
    if isinstance(state, Mapping) or isinstance(state, (str, BatchError)):
        return job
    return name, BatchError(f"expected a state document, got {type(state).__name__}"), st
