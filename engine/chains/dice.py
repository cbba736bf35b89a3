"""Exact distributions of a throw of any dice: the total, and the total with doubles.

For ``n`` dice with face probabilities ``q_1..q_m`` (``DiceSpec``), the
distribution of the total is the ``n``-fold convolution of the face
distribution (e.g. Feller, *An Introduction to Probability Theory*, vol. 1,
XI.2)::

    P(total = t) = (q * q * ... * q)(t)

and a throw is a double when all dice show the same face (``n >= 2``)::

    P(total = t, double) = q_f ** n   if t = n * f,   else 0.

With one die there are no doubles. Arrays are indexed by the total, from 0
to ``n * m``; entries below ``n`` are 0.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from models.errors import InvalidArgumentError
from models.rules import DiceSpec


def face_pmf(dice: DiceSpec) -> np.ndarray:
    """Probabilities of faces 1..m as an array indexed 0..m (index 0 is 0)."""
    out = np.zeros(dice.sides + 1)
    out[1:] = dice.face_probabilities()
    return out


@lru_cache(maxsize=64)
def _total_and_doubles(dice: DiceSpec) -> tuple[np.ndarray, np.ndarray]:
    face = face_pmf(dice)
    total = np.array([1.0])
    for _ in range(dice.count):
        total = np.convolve(total, face)
    doubles = np.zeros_like(total)
    if dice.count >= 2:
        for f in range(1, dice.sides + 1):
            doubles[dice.count * f] += face[f] ** dice.count
    total.setflags(write=False)
    doubles.setflags(write=False)
    return total, doubles


def total_pmf(dice: DiceSpec | None = None) -> np.ndarray:
    """``P(total = t)`` for ``t = 0..count*sides`` (read-only array)."""
    return _total_and_doubles(dice or DiceSpec())[0]


def doubles_pmf(dice: DiceSpec | None = None) -> np.ndarray:
    """``P(total = t and the throw is a double)`` (read-only array)."""
    return _total_and_doubles(dice or DiceSpec())[1]


def non_doubles_pmf(dice: DiceSpec | None = None) -> np.ndarray:
    """``P(total = t and the throw is not a double)``."""
    total, doubles = _total_and_doubles(dice or DiceSpec())
    return total - doubles


def p_doubles(dice: DiceSpec | None = None) -> float:
    return float(doubles_pmf(dice).sum())


def mean_total(dice: DiceSpec | None = None) -> float:
    pmf = total_pmf(dice)
    return float(np.dot(np.arange(len(pmf)), pmf))


def exact_total_pmf(dice: DiceSpec | None = None) -> list[Fraction]:
    """The total's distribution in exact fractions (fair dice, or integer weights)."""
    dice = dice or DiceSpec()
    weights = dice.weights or tuple(1 for _ in range(dice.sides))
    if any(Fraction(w).denominator != 1 for w in weights):
        raise InvalidArgumentError("exact fractions need integer weights")
    wsum = sum(Fraction(w) for w in weights)
    face = [Fraction(0)] + [Fraction(w) / wsum for w in weights]
    total = [Fraction(1)]
    for _ in range(dice.count):
        nxt = [Fraction(0)] * (len(total) + dice.sides)
        for i, a in enumerate(total):
            if a:
                for f in range(1, dice.sides + 1):
                    nxt[i + f] += a * face[f]
        total = nxt
    return total
