"""Novelty trials (seed 002): a run of games with one novelty injected at a seeded game.

A trial plays ``games`` games of one line-up: the tested agent (wrapped in an
:class:`solver.novelty.monitor.AdaptiveAgent` with ONE :class:`~solver.novelty.monitor.NoveltyMonitor`
that persists through the trial) and its opponents (fresh each game). Game
``i`` is seeded like game ``i`` of a tournament (``SeedSequence([S, i])``,
seats rotated by ``i``: :mod:`engine.tournament`). From game
``injected_at`` on, the games are played on the novelty's board and rules
(:mod:`solver.novelty.catalogue`); every view shows the standard rules (the announced
ones), so a hidden change must be inferred. ``injected_at`` is drawn
uniformly from ``[ceil(games/4), floor(3 games/4)]`` by
``SeedSequence([S, 0x4E4F56])``, so that both sides of the injection hold at
least a quarter of the games (the seed says only "in any one of the 100
games").

Metrics (defined by the SAIL-ON evaluators, as the seed reports them):

PNWP
    the tested agent's wins over the games before the injection;
NDA
    a trial counts as detected when the monitor names the novelty (a
    detection whose tag starts with one of the novelty's ``tags``) in a game
    at or after the injection, with no detection of any kind before it; a
    novelty-free trial counts as correct when it detects nothing; NDA is the
    share of correct trials;
NRP
    the tested agent's win rate after the injection divided by the
    StrategicTradeAgent's win rate before it in the same line-up (wins of the
    ``strategic`` opponents over their seats, pre-injection); ``None`` when
    that rate is 0 or there is no ``strategic`` opponent.

Each finished game is one JSON line in the results file; after it the
monitor is checkpointed (JSON, :mod:`solver.novelty.checkpoint`, written to a
temporary name and renamed) so that ``resume`` continues where the run
stopped, with the agent's memory as it was; a checkpoint of another trial,
or one that fails any check, is refused with one line. Trials are independent: :func:`run_trials` plays many of them on a pool
of processes, in any order, with the same results.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.rules.game import Game
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from engine.tournament import parallel_map, read_rows, rewrite_rows, seating, wilson
from models.board import standard_board
from models.errors import InvalidArgumentError
from models.rules import Rules
from models.state import GameState
from solver.agents.registry import factory
from solver.novelty import catalogue as catalogue
from solver.novelty.checkpoint import read_checkpoint, write_checkpoint
from solver.novelty.monitor import AdaptiveAgent, NoveltyMonitor

BASELINE = "strategic"


@dataclass(frozen=True)
class TrialSpec:
    """One trial: the tested agent (a registry spec), the novelty (``None``: a control trial), the line-up.

    Attributes
    ----------
    agent : str
        The tested agent's registry spec.
    novelty : str or None
        The novelty's catalogue name; ``None``: a control trial.
    games : int, default 100
        Games in the trial (at least 4).
    seed : int, default 0
        The trial's seed (the games' and the injection's).
    opponents : tuple of str
        1 to 7 opponents' specs (default: three baselines).
    adapt : bool, default True
        Whether the monitor adapts the agent's model after a detection.
    max_rounds : int, default 1000
        The round cap of each game.

    Raises
    ------
    InvalidArgumentError
        Fewer than 4 games or an opponent count outside 1..7 (and the registry's and the
        catalogue's errors for unknown names).

    Examples
    --------
    >>> spec = TrialSpec("strategic", "three-dice", games=4, seed=1, opponents=("strategic", "strategic"), max_rounds=60)
    >>> spec.key()
    'strategic__three-dice__s1__g4__adapt'
    >>> TrialSpec("strategic", None, games=3)
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: a trial needs at least 4 games (a quarter of them on each side of the injection)
    """

    agent: str
    novelty: str | None
    games: int = 100
    seed: int = 0
    opponents: tuple[str, ...] = (BASELINE, BASELINE, BASELINE)
    adapt: bool = True
    max_rounds: int = 1000

    def __post_init__(self) -> None:
        if self.games < 4:
            raise InvalidArgumentError("a trial needs at least 4 games (a quarter of them on each side of the injection)")
        if not 1 <= len(self.opponents) <= 7:
            raise InvalidArgumentError("a trial needs 1 to 7 opponents")
        if self.novelty is not None:
            catalogue.get(self.novelty)
        factory(self.agent)
        for o in self.opponents:
            factory(o)

    def key(self) -> str:
        """The trial's file name stem (agent, novelty, seed, games, adaptation), safe in a path.

        Returns
        -------
        str
            ``agent__novelty__sSEED__gGAMES__adapt`` (or ``__fixed``).
        """
        nov = self.novelty or "none"
        return f"{self.agent}__{nov}__s{self.seed}__g{self.games}__{'adapt' if self.adapt else 'fixed'}".replace(":", "-").replace(",", "-").replace("=", "")


def injection_game(seed: int, games: int) -> int:
    """The first game played with the novelty: uniform on ``[ceil(games/4), floor(3 games/4)]``.

    Parameters
    ----------
    seed : int
        The trial's seed (drawn by ``SeedSequence([seed, 0x4E4F56])``).
    games : int
        Games in the trial.

    Returns
    -------
    int
        The injection game.

    Examples
    --------
    >>> injection_game(1, 4), injection_game(1, 100)
    (3, 62)
    """
    lo, hi = math.ceil(games / 4), (3 * games) // 4
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x4E4F56]))
    return int(rng.integers(lo, hi + 1))


def play_game(spec: TrialSpec, g: int, monitor: NoveltyMonitor, injected_at: int) -> dict[str, Any]:
    """Game ``g`` of the trial; the monitor carries over. One result row.

    Parameters
    ----------
    spec : TrialSpec
        The trial.
    g : int
        The game's number (its seating and seeds).
    monitor : NoveltyMonitor
        The tested agent's monitor, kept across games.
    injected_at : int
        The first game on the novelty's board and rules.

    Returns
    -------
    dict
        ``game``, ``novelty_active``, ``seats``, ``test_seat``, ``winner_seat``, ``winner``,
        ``tested_won``, ``reason``, ``rounds``, ``detections``.

    Examples
    --------
    >>> from solver.novelty.monitor import NoveltyMonitor
    >>> spec = TrialSpec("strategic", "three-dice", games=4, seed=1, opponents=("strategic", "strategic"), max_rounds=60)
    >>> row = play_game(spec, 0, NoveltyMonitor(), 2)
    >>> row["seats"], row["novelty_active"]
    (['strategic', 'strategic', 'strategic'], False)
    """
    labels = [spec.agent, *spec.opponents]
    n = len(labels)
    order = seating(g, n)
    stream_seed, seat_seeds = game_seeds(game_seed_sequence(spec.seed, g), n)
    agents = []
    for who, s in zip(order, seat_seeds, strict=True):
        agent = factory(labels[who])(s)
        agents.append(AdaptiveAgent(agent, monitor) if who == 0 else agent)
    active = spec.novelty is not None and g >= injected_at
    board, rules = standard_board(), Rules()
    if active:
        assert spec.novelty is not None
        board, rules = catalogue.get(spec.novelty).apply(board, rules)
    state = GameState.new_game([f"P{k + 1}" for k in range(n)], board, rules)
    before = len(monitor.detections)
    result = Game(state, agents, SeededStream(stream_seed), max_rounds=spec.max_rounds, announced_rules=Rules()).play()
    seat = order.index(0)
    return {
        "game": g,
        "novelty_active": active,
        "seats": [labels[a] for a in order],
        "test_seat": seat,
        "winner_seat": result.winner_index,
        "winner": labels[order[result.winner_index]] if result.winner_index is not None else None,
        "tested_won": result.winner_index == seat,
        "reason": result.reason,
        "rounds": result.rounds,
        "detections": [d.to_dict() for d in monitor.detections[before:]],
    }


@dataclass
class TrialResult:
    """What :func:`play_trial` returns.

    Attributes
    ----------
    spec : TrialSpec
        The trial.
    injected_at : int or None
        The injection game (``None``: a control trial).
    rows : list of dict
        One row per game (:func:`play_game`).
    seconds : float
        Wall time.
    metrics : dict
        :func:`trial_metrics`.

    Examples
    --------
    >>> spec = TrialSpec("strategic", "three-dice", games=4, seed=1, opponents=("strategic", "strategic"), max_rounds=60)
    >>> res = play_trial(spec)
    >>> res.injected_at, [r["novelty_active"] for r in res.rows], sorted(res.to_dict())
    (3, [False, False, False, True], ['injected_at', 'metrics', 'seconds', 'spec'])
    """

    spec: TrialSpec
    injected_at: int | None
    rows: list[dict[str, Any]]
    seconds: float = 0.0
    metrics: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The trial's summary (what ``trial --json`` prints): the spec, the injection, the metrics, the time.

        Returns
        -------
        dict
            ``spec``, ``injected_at``, ``metrics``, ``seconds``.
        """
        return {"spec": {**asdict(self.spec), "opponents": list(self.spec.opponents)}, "injected_at": self.injected_at, "metrics": self.metrics, "seconds": round(self.seconds, 1)}


def trial_metrics(spec: TrialSpec, injected_at: int | None, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """PNWP, NDA (this trial: correct or not), NRP and their counts (module docstring).

    Parameters
    ----------
    spec : TrialSpec
        The trial.
    injected_at : int or None
        The injection game (``None``: a control trial).
    rows : sequence of dict
        The games' rows.

    Returns
    -------
    dict
        ``pre_games``, ``post_games``, ``pnwp`` (with ``pnwp_95``), ``detected``, ``nrp``, the
        baseline's counts, false alarms, the detection and its delay, ``tags_seen``.

    Examples
    --------
    >>> spec = TrialSpec("strategic", "three-dice", games=4, seed=1, opponents=("strategic", "strategic"), max_rounds=60)
    >>> res = play_trial(spec)
    >>> m = trial_metrics(spec, res.injected_at, res.rows)
    >>> m["pre_games"], m["post_games"], m["detected"], m["tags_seen"]
    (3, 1, True, ['dice.count'])
    """
    cut = injected_at if injected_at is not None else len(rows)
    pre = [r for r in rows if r["game"] < cut]
    post = [r for r in rows if r["game"] >= cut]
    pre_wins = sum(r["tested_won"] for r in pre)
    post_wins = sum(r["tested_won"] for r in post)
    n_base = sum(1 for o in spec.opponents if o == BASELINE)
    base_wins = sum(1 for r in pre if r["winner"] == BASELINE)
    base_seats = n_base * len(pre)
    tags = tuple(catalogue.get(spec.novelty).tags) if spec.novelty is not None else ()
    false_alarm = [d for r in pre for d in r["detections"]]
    hits = [(r["game"], d) for r in post for d in r["detections"] if tags and d["tag"].startswith(tags)]
    if spec.novelty is None:
        correct = not false_alarm
    else:
        correct = bool(hits) and not false_alarm
    post_rate = post_wins / len(post) if post else None
    base_rate = base_wins / base_seats if base_seats else None
    return {
        "pre_games": len(pre),
        "post_games": len(post),
        "pre_wins": pre_wins,
        "post_wins": post_wins,
        "pnwp": pre_wins / len(pre) if pre else None,
        "pnwp_95": list(wilson(pre_wins, len(pre))) if pre else None,
        "baseline_pre_wins": base_wins,
        "baseline_pre_seats": base_seats,
        "baseline_pre_rate": base_rate,
        "post_rate": post_rate,
        "nrp": post_rate / base_rate if post_rate is not None and base_rate else None,
        "detected": correct,
        "false_alarms": len(false_alarm),
        "first_false_alarm": false_alarm[0] if false_alarm else None,
        "detection_delay_games": (hits[0][0] - cut) if hits else None,
        "detection": hits[0][1] if hits else None,
        "tags_seen": sorted({d["tag"] for r in post for d in r["detections"]}),
    }


def _checkpoint_path(out: Path) -> Path:
    return out.with_name(out.name + ".monitor")


def play_trial(
    spec: TrialSpec,
    *,
    out: Path | None = None,
    resume: bool = False,
    progress: Callable[[int, int, dict[str, Any]], None] | None = None,
) -> TrialResult:
    """Play one trial (only its missing games when resuming ``out``).

    Parameters
    ----------
    spec : TrialSpec
        The trial.
    out : Path or None
        The results file (one JSON line per game) and, beside it, the monitor's checkpoint.
    resume : bool, default False
        Continue from ``out`` and its checkpoint.
    progress : callable or None
        ``progress(done, total, row)`` after each game.

    Returns
    -------
    TrialResult
        The rows and the metrics.

    Examples
    --------
    >>> spec = TrialSpec("strategic", "three-dice", games=4, seed=1, opponents=("strategic", "strategic"), max_rounds=60)
    >>> play_trial(spec).metrics["detected"]  # the three dice named in the game after the injection
    True
    """
    start = time.perf_counter()
    injected_at = injection_game(spec.seed, spec.games) if spec.novelty is not None else None
    cut = injected_at if injected_at is not None else spec.games
    monitor = NoveltyMonitor(adapt=spec.adapt)
    rows: dict[int, dict[str, Any]] = {}
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        ckpt = _checkpoint_path(out)
        if resume and ckpt.exists():
            last, monitor = read_checkpoint(ckpt, spec)
            rows = {g: r for g, r in read_rows(out).items() if g <= last}
        rewrite_rows(out, rows)
    with contextlib.ExitStack() as stack:
        fh = stack.enter_context(out.open("a", encoding="utf-8")) if out is not None else None
        for g in range(spec.games):
            if g in rows:
                continue
            row = play_game(spec, g, monitor, cut)
            rows[g] = row
            if fh is not None and out is not None:
                fh.write(json.dumps(row, sort_keys=True) + "\n")
                fh.flush()
                write_checkpoint(_checkpoint_path(out), spec, g, monitor)
            if progress is not None:
                progress(len(rows), spec.games, row)
    ordered = [rows[g] for g in range(spec.games)]
    return TrialResult(spec, injected_at, ordered, time.perf_counter() - start, trial_metrics(spec, injected_at, ordered))


def _trial_job(args: tuple[TrialSpec, str | None, bool]) -> dict[str, Any]:
    spec, out, resume = args
    res = play_trial(spec, out=Path(out) if out else None, resume=resume)
    return res.to_dict()


def run_trials(specs: Sequence[TrialSpec], *, workers: int = 1, outdir: Path | None = None, resume: bool = False) -> Iterator[dict[str, Any]]:
    """Play many trials (each sequential, as its monitor must be), ``workers`` at a time.

    Yields each trial's summary (:meth:`TrialResult.to_dict`) as it finishes;
    with ``outdir`` each trial keeps its games in ``outdir/<key>.jsonl`` and
    ``resume`` picks them up.

    Parameters
    ----------
    specs : sequence of TrialSpec
        The trials.
    workers : int, default 1
        Processes.
    outdir : Path or None
        Where each trial's results file and checkpoint go.
    resume : bool, default False
        Continue the trials found in ``outdir``.

    Yields
    ------
    dict
        Each trial's :meth:`TrialResult.to_dict`, in the order they finish.

    Examples
    --------
    >>> spec = TrialSpec("strategic", "three-dice", games=4, seed=1, opponents=("strategic", "strategic"), max_rounds=60)
    >>> [t["metrics"]["post_games"] for t in run_trials([spec])]
    [1]
    """
    jobs = [(s, str(outdir / f"{s.key()}.jsonl") if outdir is not None else None, resume) for s in specs]
    yield from parallel_map(_trial_job, jobs, workers)


def summarize(trials: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Pooled metrics per novelty class and per (class, difficulty), and overall.

    NDA is the share of correct trials (Wilson interval); PNWP and NRP pool
    the wins and games of the trials in the cell (NRP = pooled post-injection
    win rate / pooled baseline pre-injection rate).

    Parameters
    ----------
    trials : sequence of dict
        Trial summaries (:meth:`TrialResult.to_dict`).

    Returns
    -------
    dict
        Per cell (``all``, each class, each class/difficulty, ``control``): ``trials``, ``nda``
        with its interval, ``pnwp``, ``post_rate``, ``baseline_pre_rate``, ``nrp``, ``games``.

    Examples
    --------
    >>> spec = TrialSpec("strategic", "three-dice", games=4, seed=1, opponents=("strategic", "strategic"), max_rounds=60)
    >>> cells = summarize(list(run_trials([spec])))
    >>> sorted(cells), cells["all"]["trials"], cells["all"]["nda"]
    (['all', 'attribute', 'attribute/easy'], 1, 1.0)
    """
    cells: dict[str, list[dict[str, Any]]] = {}
    for t in trials:
        nov = t["spec"]["novelty"]
        if nov is None:
            keys = ["control"]
        else:
            n = catalogue.get(nov)
            keys = ["all", n.klass, f"{n.klass}/{n.difficulty}"]
        for k in keys:
            cells.setdefault(k, []).append(t)
    out: dict[str, Any] = {}
    for k, ts in sorted(cells.items()):
        ms = [t["metrics"] for t in ts]
        correct = sum(bool(m["detected"]) for m in ms)
        pre_g = sum(m["pre_games"] for m in ms)
        post_g = sum(m["post_games"] for m in ms)
        pre_w = sum(m["pre_wins"] for m in ms)
        post_w = sum(m["post_wins"] for m in ms)
        bw = sum(m["baseline_pre_wins"] for m in ms)
        bs = sum(m["baseline_pre_seats"] for m in ms)
        post_rate = post_w / post_g if post_g else None
        base_rate = bw / bs if bs else None
        out[k] = {
            "trials": len(ts),
            "nda": correct / len(ts),
            "nda_95": list(wilson(correct, len(ts))),
            "pnwp": pre_w / pre_g if pre_g else None,
            "pnwp_95": list(wilson(pre_w, pre_g)) if pre_g else None,
            "post_rate": post_rate,
            "post_rate_95": list(wilson(post_w, post_g)) if post_g else None,
            "baseline_pre_rate": base_rate,
            "nrp": post_rate / base_rate if post_rate is not None and base_rate else None,
            "games": pre_g + post_g,
        }
    return out


__all__ = ["BASELINE", "TrialResult", "TrialSpec", "injection_game", "play_game", "play_trial", "run_trials", "summarize", "trial_metrics"]
