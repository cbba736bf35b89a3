"""End to end: every novelty of the catalogue, played through the engine, is named by the
monitor, and the model it rebuilds matches the true rules where play reveals them exactly."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.board import standard_board
from models.rules import Rules
from solver.novelty import catalogue as catalogue
from solver.novelty.monitor import NoveltyMonitor
from solver.novelty.trial import TrialSpec, play_game

# Rounds per game: enough for every novelty to show in the first novel game
# with these seeds (a hidden rule shows only when its situation arises).
ROUNDS = 150


def _play(name: str | None, seed: int = 0) -> tuple[NoveltyMonitor, TrialSpec]:
    """One standard game, then (with ``name``) one game under the novelty, with one monitor."""
    spec = TrialSpec("strategic", name, games=4, seed=seed, max_rounds=ROUNDS)
    monitor = NoveltyMonitor()
    play_game(spec, 0, monitor, injected_at=1)
    assert monitor.detections == [], monitor.detections  # no false alarm in a standard game
    if name is not None:
        play_game(spec, 1, monitor, injected_at=1)
    return monitor, spec


@pytest.mark.parametrize("name", catalogue.names())
def test_each_novelty_is_named_in_its_first_game(name: str) -> None:
    nov = catalogue.get(name)
    monitor, _ = _play(name)
    hits = monitor.detected(tuple(nov.tags), since_game=1)
    assert hits, (name, monitor.detections)
    board, rules = nov.apply(standard_board(), Rules())
    m_board, m_rules = monitor.model()
    if not nov.hidden:
        assert m_board == board  # the observed board replaces the standard one
    if name in ("go-salary", "jail-fine", "mortgage-rate"):
        assert (m_rules.go_salary, m_rules.jail_fine, m_rules.mortgage_rate) == (rules.go_salary, rules.jail_fine, rules.mortgage_rate)
    if name in ("three-dice", "one-die", "eight-sided"):
        assert m_rules.dice == rules.dice  # count and top face seen within a game
    if name == "smaller-sets":
        assert dict(m_rules.set_size) == dict(rules.set_size)


def test_loaded_die_estimate_after_one_game() -> None:
    monitor, _ = _play("loaded-die", seed=1)
    monitor.start_game(0, ("A", "B", "C", "D"))  # the MAP estimate is refreshed at each game start
    w = np.array(monitor.model()[1].dice.face_probabilities())
    p = np.array([1, 1, 1, 1, 1, 3]) / 8
    n = sum(monitor.posterior or [])
    assert n > 200
    se = np.sqrt(p * (1 - p) / n)
    assert np.all(np.abs(w - p) < 4 * se + 2 / n), (w, p, n)


def test_no_alarm_in_standard_games() -> None:
    for seed in range(3):
        monitor, spec = _play(None, seed)
        play_game(spec, 1, monitor, injected_at=math.inf)  # type: ignore[arg-type]
        assert monitor.detections == []
