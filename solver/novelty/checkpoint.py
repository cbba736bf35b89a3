"""A trial's checkpoint as JSON: the spec, the last finished game and the novelty monitor's memory.

A trial (:mod:`solver.novelty.trial`) checkpoints its
:class:`~solver.novelty.monitor.NoveltyMonitor` after every game so that
``--resume`` continues with the agent's memory as it was. The checkpoint is a
user file, so it is data, never code: JSON only (no pickle), at most
:data:`MAX_BYTES`, every field checked on reading, and any fault refused with
one line naming the field (:class:`CheckpointError`).

Format (``"format": "monopoly-trial-checkpoint/1"``)::

    {"format", "spec": {TrialSpec fields}, "game": last finished game,
     "monitor": {"adapt", "alpha", "game", "me", "initial": {"board", "rules"} | null,
                 "board", "rules", "detections": [{"game", "round", "tag", "detail"}],
                 "window": [faces seen this game], "posterior": [faces] | null}}

Boards are written as in a state file: a built-in board by its name, any
other as its inline-board document (:meth:`models.board.Board.to_dict`),
read back by :func:`models.board.load_board`. Rules are written field by field
(:func:`rules_to_dict`), including the rules the state format does not
carry (mortgage and building sale rates, jail rolls, doubles to jail, the
trial-only novelty hooks), since a novelty may change any of them.

Only the monitor's memory *between* games is written: the per-game fields
(the attached view, the last cash seen, a pending offer) are reset by
:meth:`~solver.novelty.monitor.NoveltyMonitor.start_game`, and a checkpoint
is written after a game has finished.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from models.board import Board, load_board
from models.checks import (
    expect_bool,
    expect_int,
    expect_list,
    expect_number,
    expect_object,
    expect_str,
    key_path,
)
from models.errors import InvalidStateError, MonopolyError
from models.files import atomic_write
from models.io import parse_rules
from models.rules import Rules
from solver.novelty.belief import Detection
from solver.novelty.monitor import NoveltyMonitor

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "CheckpointError",
    "monitor_from_dict",
    "monitor_to_dict",
    "read_checkpoint",
    "rules_from_dict",
    "rules_to_dict",
    "write_checkpoint",
]

FORMAT = "monopoly-trial-checkpoint/1"
MAX_BYTES = 16 << 20
"""Largest checkpoint read (a monitor's memory is a few kilobytes plus two boards)."""
MAX_DETECTIONS = 10_000
MAX_TEXT = 2_000

class CheckpointError(MonopolyError, ValueError):
    """A checkpoint that cannot be read back; the message names the file and the field."""


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """Every field of ``rules`` as JSON values (``dice`` as its document, ``set_size`` as an object)."""
    out: dict[str, Any] = {}
    for f in fields(rules):
        value = getattr(rules, f.name)
        if f.name == "dice":
            out[f.name] = value.to_dict()
        elif f.name == "set_size":
            out[f.name] = dict(value)
        else:
            out[f.name] = value
    return out


def rules_from_dict(doc: Any, board: Board, field: str = "rules") -> Rules:
    """The :class:`Rules` written by :func:`rules_to_dict`: every field required and checked by the
    state format's parser (:func:`models.io.parse_rules`; set sizes against ``board``)."""
    names = tuple(f.name for f in fields(Rules))
    return parse_rules(doc, board, field, keys=names, required=names)


def monitor_to_dict(monitor: NoveltyMonitor) -> dict[str, Any]:
    """The monitor's memory between games (module docstring)."""

    def pair(board: Board | None, rules: Rules | None) -> dict[str, Any] | None:
        if board is None or rules is None:
            return None
        return {"board": board.name if board.builtin else board.to_dict(), "rules": rules_to_dict(rules)}

    initial = pair(*monitor.initial) if monitor.initial is not None else None
    current = pair(monitor.board, monitor.rules)
    return {
        "adapt": monitor.adapt,
        "alpha": monitor.alpha,
        "game": monitor.game,
        "me": monitor.me,
        "initial": initial,
        "current": current,
        "detections": [d.to_dict() for d in monitor.detections],
        "window": list(monitor.window),
        "posterior": list(monitor.posterior) if monitor.posterior is not None else None,
    }


def _pair_from_dict(doc: Any, field: str) -> tuple[Board, Rules] | None:
    if doc is None:
        return None
    obj = expect_object(doc, field, ("board", "rules"), ("board", "rules"))
    board = load_board(obj["board"], key_path(field, "board"))
    return board, rules_from_dict(obj["rules"], board, key_path(field, "rules"))


def _counts(doc: Any, field: str) -> list[int]:
    return [expect_int(x, key_path(field, i), 0, 10**12) for i, x in enumerate(expect_list(doc, field, 0, 1000))]


def monitor_from_dict(doc: Any, field: str = "monitor") -> NoveltyMonitor:
    """A :class:`NoveltyMonitor` with the memory written by :func:`monitor_to_dict`."""
    keys = ("adapt", "alpha", "game", "me", "initial", "current", "detections", "window", "posterior")
    obj = expect_object(doc, field, keys, keys)
    monitor = NoveltyMonitor(
        adapt=expect_bool(obj["adapt"], key_path(field, "adapt")),
        alpha=expect_number(obj["alpha"], key_path(field, "alpha"), 0, 1),
    )
    monitor.game = expect_int(obj["game"], key_path(field, "game"), -1, 10**9)
    monitor.me = expect_int(obj["me"], key_path(field, "me"), -1, 7)
    monitor.initial = _pair_from_dict(obj["initial"], key_path(field, "initial"))
    current = _pair_from_dict(obj["current"], key_path(field, "current"))
    monitor.board, monitor.rules = current if current is not None else (None, None)
    dfield = key_path(field, "detections")
    detections = []
    for i, d in enumerate(expect_list(obj["detections"], dfield, 0, MAX_DETECTIONS)):
        f = key_path(dfield, i)
        det = expect_object(d, f, ("game", "round", "tag", "detail"), ("game", "round", "tag", "detail"))
        tag = expect_str(det["tag"], key_path(f, "tag"))
        detail = expect_str(det["detail"], key_path(f, "detail"))
        if len(tag) > MAX_TEXT or len(detail) > MAX_TEXT:
            raise InvalidStateError(f, f"tag and detail must be at most {MAX_TEXT} characters")
        detections.append(
            Detection(
                expect_int(det["game"], key_path(f, "game"), 0, 10**9), expect_int(det["round"], key_path(f, "round"), 0, 10**9), tag, detail
            )
        )
    monitor.detections = detections
    monitor.window = _counts(obj["window"], key_path(field, "window"))
    monitor.posterior = None if obj["posterior"] is None else _counts(obj["posterior"], key_path(field, "posterior"))
    return monitor


def write_checkpoint(path: Path, spec: Any, game: int, monitor: NoveltyMonitor) -> None:
    """Write the checkpoint of a trial (``spec`` a :class:`~solver.novelty.trial.TrialSpec`) atomically."""
    doc = {"format": FORMAT, "spec": asdict(spec), "game": game, "monitor": monitor_to_dict(monitor)}
    atomic_write(path, json.dumps(doc, sort_keys=True))


def read_checkpoint(path: Path, spec: Any) -> tuple[int, NoveltyMonitor]:
    """``(last finished game, monitor)`` from ``path``, refused unless it is the checkpoint of ``spec``.

    Raises
    ------
    CheckpointError
        Too large, not UTF-8 JSON, another format, another trial, or a bad field (named).
    """
    where = f"--resume: {path}"
    if path.stat().st_size > MAX_BYTES:
        raise CheckpointError(f"{where}: larger than {MAX_BYTES} bytes, not a checkpoint of this program")
    try:
        doc = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise CheckpointError(f"{where}: not a JSON checkpoint ({type(err).__name__})") from None
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise CheckpointError(f"{where}: not a trial checkpoint (format must be {FORMAT!r})")
    want = json.loads(json.dumps(asdict(spec)))  # tuples as lists, as written
    if doc.get("spec") != want:
        raise CheckpointError(f"{where}: the checkpoint of a different trial ({doc.get('spec')!r:.200})")
    try:
        game = expect_int(doc.get("game"), "game", -1, spec.games - 1)
        monitor = monitor_from_dict(doc.get("monitor"))
    except InvalidStateError as err:
        raise CheckpointError(f"{where}: {err}") from None
    return game, monitor
