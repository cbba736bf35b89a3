"""The online opponent model recovers scripted acceptance rules (issue "Play to win", point 4)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from solver.agents.opponent_model import AcceptanceModel

Rule = Callable[[np.ndarray], bool]


def _offers(rng: np.random.Generator, n: int) -> np.ndarray:
    gain = rng.uniform(-0.10, 0.20, n)
    cash = rng.uniform(0.0, 2.0, n)
    gets = rng.integers(0, 2, n)
    gives = rng.integers(0, 2, n)
    return np.column_stack([np.ones(n), gain, cash, gets, gives, gives * (1 - gets)]).astype(float)


def _accuracy(model: AcceptanceModel, rule: Rule, xs: np.ndarray) -> float:
    return float(np.mean([(model.p_accept(x) > 0.5) == rule(x) for x in xs]))


RULES: dict[str, Rule] = {
    # the baseline's shape: its own gain, and never a completion handed over without one back
    "no-kingmaker": lambda x: x[1] > 0.02 and not (x[4] and not x[3]),
    # a cash-minded bot: accepts whatever leaves it $800 or more
    "cash": lambda x: x[2] >= 0.8,
    # a pushover: accepts everything that does not lose more than 5 points
    "pushover": lambda x: x[1] > -0.05,
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_recovers_scripted_rule_from_50_offers(name: str) -> None:
    rule = RULES[name]
    rng = np.random.default_rng(7)
    test = _offers(rng, 2000)
    model = AcceptanceModel()
    prior_acc = _accuracy(model, rule, test)
    for x in _offers(rng, 50):
        model.observe(x, rule(x))
    learned = _accuracy(model, rule, test)
    assert model.answers == 50
    assert learned >= 0.9, (name, prior_acc, learned)
    assert learned >= prior_acc


def test_prior_is_the_assumed_logistic_and_uncertainty_shrinks() -> None:
    model = AcceptanceModel()
    x = np.array([1.0, 0.05, 1.0, 0.0, 0.0, 0.0])
    # before any answer: the slope-40 logistic in the gain, pulled toward 1/2 by the prior spread
    assert 0.5 < model.p_accept(x) < 1 / (1 + np.exp(-40 * 0.05))
    width = float(x @ model.cov @ x)
    rng = np.random.default_rng(1)
    for xi in _offers(rng, 30):
        model.observe(xi, xi[1] > 0)
    assert float(x @ model.cov @ x) < width


def test_rejects_bad_features() -> None:
    with pytest.raises(ValueError, match="features"):
        AcceptanceModel().observe(np.array([1.0, np.nan, 0, 0, 0, 0]), True)
