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
    """Probabilities of faces 1..m as an array indexed 0..m (index 0 is 0).

    Parameters
    ----------
    dice : DiceSpec
        The dice; only the faces' weights matter.

    Returns
    -------
    numpy.ndarray
        ``sides + 1`` probabilities summing to 1.

    Examples
    --------
    >>> from models.rules import DiceSpec
    >>> face_pmf(DiceSpec()).round(4).tolist()
    [0.0, 0.1667, 0.1667, 0.1667, 0.1667, 0.1667, 0.1667]
    """
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
    """``P(total = t)`` for ``t = 0..count*sides`` (read-only array), the ``count``-fold convolution.

    Parameters
    ----------
    dice : DiceSpec or None
        The dice (count, sides, face weights); ``None``: two fair six-sided dice.

    Returns
    -------
    numpy.ndarray
        ``count * sides + 1`` probabilities, cached and read-only.

    Examples
    --------
    >>> pmf = total_pmf()
    >>> len(pmf), round(float(pmf[7]) * 36, 6), round(float(pmf.sum()), 12)
    (13, 6.0, 1.0)
    """
    return _total_and_doubles(dice or DiceSpec())[0]


def doubles_pmf(dice: DiceSpec | None = None) -> np.ndarray:
    """``P(total = t and the throw is a double)`` (read-only array): ``q_f ** n`` at ``t = n * f``.

    Parameters
    ----------
    dice : DiceSpec or None
        The dice (count, sides, face weights); ``None``: two fair six-sided dice.

    Returns
    -------
    numpy.ndarray
        Indexed as :func:`total_pmf`; all 0 for one die.

    Examples
    --------
    >>> (doubles_pmf() * 36).round(6).tolist()
    [0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    """
    return _total_and_doubles(dice or DiceSpec())[1]


def non_doubles_pmf(dice: DiceSpec | None = None) -> np.ndarray:
    """``P(total = t and the throw is not a double)``: :func:`total_pmf` minus :func:`doubles_pmf`.

    Parameters
    ----------
    dice : DiceSpec or None
        The dice (count, sides, face weights); ``None``: two fair six-sided dice.

    Returns
    -------
    numpy.ndarray
        Indexed as :func:`total_pmf`.

    Examples
    --------
    >>> pmf = non_doubles_pmf()
    >>> round(float(pmf[7]) * 36, 6), round(float(pmf[8]) * 36, 6)
    (6.0, 4.0)
    """
    total, doubles = _total_and_doubles(dice or DiceSpec())
    out: np.ndarray = total - doubles
    return out


def p_doubles(dice: DiceSpec | None = None) -> float:
    """The probability that a throw is a double (all dice alike).

    Parameters
    ----------
    dice : DiceSpec or None
        The dice (count, sides, face weights); ``None``: two fair six-sided dice.

    Returns
    -------
    float
        ``sum_f q_f ** n``: 1/6 for two fair dice, 1/36 for three.

    Examples
    --------
    >>> from models.rules import DiceSpec
    >>> round(p_doubles(), 6), round(p_doubles(DiceSpec(count=3)), 6)
    (0.166667, 0.027778)
    """
    return float(doubles_pmf(dice).sum())


def mean_total(dice: DiceSpec | None = None) -> float:
    """The expected total of a throw.

    Parameters
    ----------
    dice : DiceSpec or None
        The dice (count, sides, face weights); ``None``: two fair six-sided dice.

    Returns
    -------
    float
        ``sum_t t P(total = t)``: 7 for two fair dice.

    Examples
    --------
    >>> from models.rules import DiceSpec
    >>> round(mean_total(), 9), round(mean_total(DiceSpec(count=3)), 9)
    (7.0, 10.5)
    """
    pmf = total_pmf(dice)
    return float(np.dot(np.arange(len(pmf)), pmf))


def exact_total_pmf(dice: DiceSpec | None = None) -> list[Fraction]:
    """The total's distribution in exact fractions (fair dice, or integer weights).

    Parameters
    ----------
    dice : DiceSpec or None
        The dice (count, sides, face weights); ``None``: two fair six-sided dice.

    Returns
    -------
    list of Fraction
        ``P(total = t)`` for ``t = 0..count*sides``, summing to exactly 1.

    Raises
    ------
    InvalidArgumentError
        A face weight that is not an integer.

    Examples
    --------
    >>> from models.rules import DiceSpec
    >>> exact_total_pmf()[7], sum(exact_total_pmf())
    (Fraction(1, 6), Fraction(1, 1))
    >>> exact_total_pmf(DiceSpec(weights=(2, 1, 1, 1, 1, 1)))[2]  # (2/7) ** 2
    Fraction(4, 49)
    >>> exact_total_pmf(DiceSpec(weights=(0.5, 1, 1, 1, 1, 1)))
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: exact fractions need integer weights
    """
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
