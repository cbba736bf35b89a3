"""engine.chains.dice against brute-force enumeration of every throw (itertools.product)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from engine.chains import dice as dm
from models.rules import DiceSpec

CASES = [
    DiceSpec(),  # 2d6
    DiceSpec(3, 4),
    DiceSpec(1, 6),
    DiceSpec(2, 6, (1, 1, 1, 1, 1, 3)),  # loaded: six comes up 3/8
    DiceSpec(3, 3, (2, 1, 5)),
    DiceSpec(2, 2),
]


def brute(spec: DiceSpec) -> tuple[list[Fraction], list[Fraction]]:
    """P(total = t) and P(total = t, double) by walking every face combination."""
    weights = spec.weights or (1,) * spec.sides
    wsum = sum(Fraction(w) for w in weights)
    size = spec.count * spec.sides + 1
    total = [Fraction(0)] * size
    double = [Fraction(0)] * size
    for faces in itertools.product(range(1, spec.sides + 1), repeat=spec.count):
        p = Fraction(1)
        for f in faces:
            p *= Fraction(weights[f - 1]) / wsum
        t = sum(faces)
        total[t] += p
        if spec.count >= 2 and len(set(faces)) == 1:
            double[t] += p
    return total, double


@pytest.mark.parametrize("spec", CASES, ids=str)
def test_total_and_doubles_match_enumeration(spec):
    total, double = brute(spec)
    np.testing.assert_allclose(dm.total_pmf(spec), [float(x) for x in total], rtol=0, atol=1e-15)
    np.testing.assert_allclose(dm.doubles_pmf(spec), [float(x) for x in double], rtol=0, atol=1e-15)
    np.testing.assert_allclose(
        dm.non_doubles_pmf(spec), [float(a - b) for a, b in zip(total, double)], rtol=0, atol=1e-15
    )
    assert dm.p_doubles(spec) == pytest.approx(float(sum(double)), abs=1e-15)
    mean = sum(t * p for t, p in enumerate(total))
    assert dm.mean_total(spec) == pytest.approx(float(mean), abs=1e-12)
    # Entries below the smallest total are 0; the array ends at count * sides.
    assert len(dm.total_pmf(spec)) == spec.count * spec.sides + 1
    assert not dm.total_pmf(spec)[: spec.count].any()


@pytest.mark.parametrize("spec", CASES, ids=str)
def test_exact_total_pmf_is_the_enumeration(spec):
    total, _ = brute(spec)
    exact = dm.exact_total_pmf(spec)
    assert all(isinstance(x, Fraction) for x in exact)
    assert exact == total


def test_two_d_six_published_numbers():
    exact = dm.exact_total_pmf(DiceSpec())
    assert exact[7] == Fraction(1, 6)
    assert exact[2] == exact[12] == Fraction(1, 36)
    assert sum(exact) == 1
    assert dm.p_doubles(DiceSpec()) == pytest.approx(1 / 6, abs=1e-15)
    assert dm.mean_total(DiceSpec()) == pytest.approx(7.0, abs=1e-12)
    assert dm.total_pmf() is dm.total_pmf(DiceSpec())  # default is 2d6


def test_one_die_has_no_doubles():
    spec = DiceSpec(1, 6)
    assert dm.p_doubles(spec) == 0.0
    np.testing.assert_allclose(dm.non_doubles_pmf(spec), dm.total_pmf(spec))


def test_loaded_die_by_hand():
    spec = DiceSpec(2, 6, (1, 1, 1, 1, 1, 3))
    # Faces 1..5: 1/8 each, 6: 3/8. P(double) = 5/64 + 9/64; P(12) = 9/64; P(7) = 2*(5*1/64 ... ).
    assert dm.p_doubles(spec) == pytest.approx(14 / 64, abs=1e-15)
    assert dm.total_pmf(spec)[12] == pytest.approx(9 / 64, abs=1e-15)
    # 7 = 1+6, 6+1 (3/64 each), 2+5, 5+2, 3+4, 4+3 (1/64 each)
    assert dm.exact_total_pmf(spec)[7] == Fraction(10, 64)
    assert dm.mean_total(spec) == pytest.approx(2 * (15 / 8 + 18 / 8), abs=1e-12)


def test_arrays_are_read_only():
    with pytest.raises(ValueError):
        dm.total_pmf()[7] = 0.5
    with pytest.raises(ValueError):
        dm.doubles_pmf()[2] = 0.5


def test_exact_needs_integer_weights():
    with pytest.raises(ValueError):
        dm.exact_total_pmf(DiceSpec(2, 2, (0.5, 1.5)))
