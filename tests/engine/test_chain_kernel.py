"""The ruin chains' compiled loops (:mod:`engine.chains._chain_kernel`) against their NumPy/SciPy
forms, bit for bit: the matrices and ruin vectors of every move set, the backward pass from
zero and from one, and the forward run, on every bundled instance under four rule sets."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engine.chains.bankruptcy as bk
import engine.chains.state_risk as sr
from models.errors import InvalidStateError
from models.io import load_state
from models.rules import PRESETS
from models.state import GameState

INSTANCES = Path(__file__).resolve().parents[2] / "instances"

RULES: dict[str, Any] = {
    "own": lambda r: r,
    "dtj-1": lambda r: dataclasses.replace(r, doubles_to_jail=1),  # one roll a turn, its double to jail
    "no-doubles": lambda r: PRESETS["no-doubles"],  # one roll a turn, no jailing double
    "doubles-unbounded": lambda r: dataclasses.replace(r, doubles_to_jail=0),  # the cut geometric turn
}


def _states() -> Iterator[tuple[str, GameState]]:
    for path in sorted(INSTANCES.glob("*.json")):
        try:
            state = load_state(path)
        except InvalidStateError:
            continue
        yield path.stem, state


def _path(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    monkeypatch.setattr(bk, "compiled_chains", lambda: compiled)
    monkeypatch.setattr(sr, "compiled_chains", lambda: compiled)


def _chain(state: GameState, p: int, jail: Any, income: bool, bucket: float, transposed: bool) -> Any:
    return sr._build_chain(state, p, state.liquidation_value(p), bucket, None, jail, income, None, transposed=transposed)


def _same_matrix(a: Any, b: Any) -> bool:
    a, b = a.tocsr() if a.format == "csc" else a, b.tocsr() if b.format == "csc" else b
    return (
        a.format == b.format
        and a.shape == b.shape
        and a.indptr.dtype == b.indptr.dtype
        and np.array_equal(a.indptr, b.indptr)
        and np.array_equal(a.indices, b.indices)
        and np.array_equal(a.data, b.data)
        and np.array_equal(np.signbit(a.data), np.signbit(b.data))
    )


@pytest.mark.parametrize("rules", sorted(RULES))
def test_compiled_chains_are_numpy_to_the_bit(rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("numba")
    checked = 0
    for name, state in _states():
        state.rules = RULES[rules](state.rules)
        for pl in state.players:
            pl.jail_turns = min(pl.jail_turns, max(state.rules.max_jail_rolls - 1, 0))
        for p in state.active_players():
            for jail, income, bucket in (("long", True, 200), ("short", False, 50), ("long", False, 50)):
                built = {}
                for compiled in (False, True):
                    _path(monkeypatch, compiled)
                    ch = _chain(state, p, jail, income, bucket, transposed=False)
                    ones = np.ones(len(ch.grid) * ch.n_pos)
                    built[compiled] = (ch, sr._backward(ch, 20), sr._backward(ch, 7, ones), sr._backward(ch, 0))
                (a, *ua), (b, *ub) = built[False], built[True]
                where = (name, rules, p, jail, income, bucket)
                assert a.mats.keys() == b.mats.keys(), where
                for key in a.mats:
                    assert _same_matrix(a.mats[key], b.mats[key]), (*where, key)
                    assert np.array_equal(a.ruins[key], b.ruins[key]), (*where, key)
                for x, y in zip(ua, ub, strict=True):
                    assert np.array_equal(x, y), where
                checked += 1
            _path(monkeypatch, False)
            pmf = sr.state_ruin_pmf(state, p, 12, 100)
            _path(monkeypatch, True)
            assert np.array_equal(pmf, sr.state_ruin_pmf(state, p, 12, 100)), (name, rules, p)
    assert checked >= 3 * 30


def test_compiled_moves_match_on_awkward_cash(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bucket rule's corners, both paths: flows landing exactly on grid points, at and
    over the cap, on zero, below it, and a pre-payment that ruins though the flow would
    bring the cash back (zero pre-payments are no payment)."""
    pytest.importorskip("numba")
    grid = bk.cash_grid(130.0, 50, 400.0)
    rng = np.random.default_rng(3)
    n = 5
    src = rng.integers(0, n, 400)
    dst = rng.integers(0, n + 2, 400)
    delta = rng.choice(np.array([-500.0, -130.0, -80.0, -30.0, 0.0, 20.0, 50.0, 270.0, 1000.0, -129.5, 3.25]), 400)
    prob = rng.random(400)
    pre = rng.choice(np.array([0.0, -50.0, -80.0, -200.0]), 400)
    for with_pre in (False, True):
        for transposed in (False, True):
            out = {}
            for compiled in (False, True):
                _path(monkeypatch, compiled)
                out[compiled] = bk.cash_moves(grid, n, src, dst, delta, prob, n_dst=n + 2, pre=pre if with_pre else None, transposed=transposed)
            assert _same_matrix(out[False][0], out[True][0]), (with_pre, transposed)
            assert np.array_equal(out[False][1], out[True][1]), (with_pre, transposed)
            assert out[False][1].sum() > 0  # some moves ruin


def test_csr_add_is_scipys_sum_entry_for_entry() -> None:
    """:func:`engine.chains._chain_kernel.csr_add` against ``a + b``: the same row pointers, columns
    in the same order and values to the bit, on canonical pairs (SciPy's merge) and on pairs
    with duplicates and unsorted columns (its general path), with cancelling entries dropped."""
    pytest.importorskip("numba")
    import scipy.sparse as sp

    from engine.chains._chain_kernel import csr_add

    rng = np.random.default_rng(5)
    kinds = set()
    for trial in range(40):
        n_row, n_col = int(rng.integers(1, 30)), int(rng.integers(1, 30))
        a = sp.random(n_row, n_col, density=0.3, format="csr", random_state=rng)
        b = sp.random(n_row, n_col, density=0.3, format="csr", random_state=rng)
        if trial % 4 == 1:  # b cancels part of a
            b = (b - a.multiply(rng.random(a.shape) < 0.5)).tocsr()
        if trial % 2 == 0:  # duplicates and unsorted columns, from triplets
            rows = rng.integers(0, n_row, 60)
            order = np.argsort(rows, kind="stable")
            cols = rng.integers(0, n_col, 60)[order]
            vals = rng.choice(np.array([0.5, -0.25, 1e-3, 3.0, 0.0]), 60)
            ptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n_row))])
            a = sp.csr_matrix((vals, cols, ptr), shape=(n_row, n_col))
        ref = a + b
        kinds.add(bool(a.has_canonical_format and b.has_canonical_format))
        ptr, idx, dat = csr_add(a.indptr, a.indices, a.data, b.indptr, b.indices, b.data, n_col)
        assert np.array_equal(ptr, ref.indptr), trial
        assert np.array_equal(idx, ref.indices), trial
        assert np.array_equal(dat, ref.data), trial
    assert kinds == {True, False}
