"""A tournament's results file: one header line, then one game per JSON line.

The header (:func:`results_header`) names the format, the kind of run, the
agents as given, the seed, the round cap and the project's version; ``resume``
continues only a file whose header matches the run (:func:`resumable_rows`):
another run's file, a file without a header, or one holding games at or beyond
the requested count is refused with one line (:class:`ResumeError`), so no row
is ever mixed in or deleted. Lines that are not a game (not UTF-8, not JSON,
not an object with a game number) are dropped and counted
(:func:`read_results`). Rows are rewritten atomically (:func:`rewrite_rows`:
temporary file, then rename).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.errors import MonopolyError
from models.files import atomic_write
from models.rules import Rules

log = logging.getLogger("engine.tournament")

RESULTS_FORMAT = "monopoly-results/1"
"""The format named in a results file's header line (:func:`results_header`)."""
MAX_GAME = 10**9
"""Largest game number a results line may carry."""


class ResumeError(MonopolyError, ValueError):
    """A results file that ``resume`` must not continue; the message is one line naming the reason."""


def project_version() -> str:
    """The installed package's version (``"unknown"`` when run from a tree that is not installed).

    Returns
    -------
    str
        The distribution's version.

    Examples
    --------
    >>> from importlib import metadata
    >>> project_version() == metadata.version("monopoly-trade")
    True
    """
    from importlib import metadata

    try:
        return metadata.version("monopoly-trade")
    except metadata.PackageNotFoundError:
        return "unknown"


def results_header(kind: str, agents: Sequence[str], seed: int, max_rounds: int, rules: Rules | None = None) -> dict[str, Any]:
    """The first line of a results file: what wrote it, with which agents, seed, round cap and rules.

    Parameters
    ----------
    kind : str
        The kind of run (``tournament``, ``trial``).
    agents : sequence of str
        The agents as given.
    seed : int
        The run's seed.
    max_rounds : int
        The round cap.
    rules : Rules or None
        The games' rules; ``None`` or the standard rules add no field (a file of a run under
        the standard rules reads as before), others add ``rules``, their
        :meth:`~models.rules.Rules.summary`.

    Returns
    -------
    dict
        ``header`` (:data:`RESULTS_FORMAT`), ``kind``, ``agents``, ``seed``, ``max_rounds``, ``version``
        and, under other rules than the standard ones, ``rules``.

    Examples
    --------
    >>> header = results_header("tournament", ["a", "b"], 7, 30)
    >>> header["header"], header["agents"], header["version"] == project_version(), "rules" in header
    ('monopoly-results/1', ['a', 'b'], True, False)
    >>> from models.rules import preset
    >>> results_header("tournament", ["a", "b"], 7, 30, preset("house-jackpot"))["rules"]["name"]
    'house-jackpot'
    """
    header = {
        "header": RESULTS_FORMAT,
        "kind": kind,
        "agents": list(agents),
        "seed": seed,
        "max_rounds": max_rounds,
        "version": project_version(),
    }
    if rules is not None and rules != Rules():
        header["rules"] = rules.summary()
    return header


@dataclass(frozen=True)
class ResultsFile:
    """What :func:`read_results` found: the header (``None`` without one), the games, the lines dropped.

    Attributes
    ----------
    header : dict or None
        The header line.
    rows : dict of int to dict
        Game number -> its row.
    dropped : int
        Lines that were not a game.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from engine.rules.agents import RandomAgent
    >>> from engine.tournament import run_tournament
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = Path(tmp.name) / "results.jsonl"
    >>> _ = run_tournament([RandomAgent, RandomAgent], ["a", "b"], 2, seed=7, max_rounds=30, out=path)
    >>> with path.open("a") as fh:
    ...     _ = fh.write('{"game": 1, "torn')
    >>> found = read_results(path)
    >>> found.header["kind"], sorted(found.rows), found.dropped
    ('tournament', [0, 1], 1)
    >>> tmp.cleanup()
    """

    header: dict[str, Any] | None
    rows: dict[int, dict[str, Any]]
    dropped: int


def read_results(path: Path) -> ResultsFile:
    """Read a results file: the header line, then one game per line.

    A line that is not UTF-8, not JSON (a line torn by a kill), not an object,
    or an object without a whole ``game`` number in ``0..MAX_GAME`` is dropped
    and counted; never an exception. A missing file reads as empty.

    Parameters
    ----------
    path : Path
        The results file.

    Returns
    -------
    ResultsFile
        The header, the games and the count of dropped lines.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from engine.rules.agents import RandomAgent
    >>> from engine.tournament import run_tournament
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = Path(tmp.name) / "results.jsonl"
    >>> _ = run_tournament([RandomAgent, RandomAgent], ["a", "b"], 2, seed=7, max_rounds=30, out=path)
    >>> sorted(read_results(path).rows), read_results(Path(tmp.name) / "missing.jsonl").rows
    ([0, 1], {})
    >>> tmp.cleanup()
    """
    rows: dict[int, dict[str, Any]] = {}
    header: dict[str, Any] | None = None
    dropped = 0
    if not path.exists():
        return ResultsFile(None, rows, 0)
    with path.open("rb") as fh:
        for number, raw in enumerate(fh):
            try:
                obj = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                dropped += 1
                continue
            if number == 0 and isinstance(obj, dict) and obj.get("header") == RESULTS_FORMAT:
                header = obj
                continue
            game = obj.get("game") if isinstance(obj, dict) else None
            if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game <= MAX_GAME:
                dropped += 1
                continue
            rows[game] = obj
    return ResultsFile(header, rows, dropped)


def read_rows(path: Path) -> dict[int, dict[str, Any]]:
    """Games recorded in a results file (:func:`read_results`; header and bad lines left out).

    Parameters
    ----------
    path : Path
        The results file.

    Returns
    -------
    dict of int to dict
        Game number -> its row.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from engine.rules.agents import RandomAgent
    >>> from engine.tournament import run_tournament
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = Path(tmp.name) / "results.jsonl"
    >>> _ = run_tournament([RandomAgent, RandomAgent], ["a", "b"], 2, seed=7, max_rounds=30, out=path)
    >>> [row["winner"] for _, row in sorted(read_rows(path).items())]
    ['b', 'b']
    >>> tmp.cleanup()
    """
    return read_results(path).rows


def resumable_rows(path: Path, header: dict[str, Any], games: int) -> dict[int, dict[str, Any]]:
    """The games of ``path`` that a run with ``header`` and ``games`` games may keep.

    Parameters
    ----------
    path : Path
        The results file.
    header : dict
        The run's header (:func:`results_header`).
    games : int
        The run's number of games.

    Returns
    -------
    dict of int to dict
        The games to keep.

    Raises
    ------
    ResumeError
        The file has games but no header, its header differs from ``header``
        (the field is named), or it holds games at or beyond ``games``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from engine.rules.agents import RandomAgent
    >>> from engine.tournament import run_tournament
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = Path(tmp.name) / "results.jsonl"
    >>> _ = run_tournament([RandomAgent, RandomAgent], ["a", "b"], 2, seed=7, max_rounds=30, out=path)
    >>> sorted(resumable_rows(path, results_header("tournament", ["a", "b"], 7, 30), 4))
    [0, 1]
    >>> resumable_rows(path, results_header("tournament", ["a", "b"], 8, 30), 4)
    Traceback (most recent call last):
    ...
    engine.tournament.results.ResumeError: --resume: ...results.jsonl was written with seed 7, this run has 8
    >>> tmp.cleanup()
    """
    found = read_results(path)
    if found.dropped:
        log.warning("--resume: %s: %d line(s) that are not a game were dropped", path, found.dropped)
    if found.header is None:
        if found.rows:
            raise ResumeError(
                f"--resume: {path} has no header line (another program or an older version wrote it); "
                "refusing to mix its games into this run"
            )
        return {}
    for key in ("kind", "agents", "seed", "max_rounds", "version"):
        if found.header.get(key) != header[key]:
            raise ResumeError(
                f"--resume: {path} was written with {key} {found.header.get(key)!r:.200}, this run has {header[key]!r:.200}"
            )
    if found.header.get("rules") != header.get("rules"):  # absent: the standard rules

        def name(doc: Any) -> str:
            return str(doc.get("name"))[:200] if isinstance(doc, dict) else "standard-us"

        raise ResumeError(f"--resume: {path} was played under the rules {name(found.header.get('rules'))!r}, this run under {name(header.get('rules'))!r}")
    beyond = sorted(g for g in found.rows if g >= games)
    if beyond:
        raise ResumeError(
            f"--resume: {path} holds {len(beyond)} game(s) at or beyond --games {games} (up to game {beyond[-1]}); "
            f"rerun with --games {beyond[-1] + 1} or more, nothing is deleted"
        )
    return found.rows


def rewrite_rows(path: Path, rows: dict[int, dict[str, Any]], header: dict[str, Any] | None = None) -> None:
    """Write ``header`` (when given) and ``rows`` (game -> row) as JSON lines, in game order, atomically
    (temp file, rename).

    Parameters
    ----------
    path : Path
        The results file (replaced).
    rows : dict of int to dict
        Game number -> its row.
    header : dict or None
        The header line to write first.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from engine.rules.agents import RandomAgent
    >>> from engine.tournament import run_tournament
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = Path(tmp.name) / "results.jsonl"
    >>> _ = run_tournament([RandomAgent, RandomAgent], ["a", "b"], 2, seed=7, max_rounds=30, out=path)
    >>> found = read_results(path)
    >>> rewrite_rows(path, {0: found.rows[0]}, found.header)
    >>> sorted(read_rows(path)), read_results(path).header == found.header
    ([0], True)
    >>> tmp.cleanup()
    """
    head = json.dumps(header, sort_keys=True) + "\n" if header is not None else ""
    atomic_write(path, head + "".join(json.dumps(rows[g], sort_keys=True) + "\n" for g in sorted(rows)))
