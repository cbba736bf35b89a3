"""The horizon value (engine/sim/win_model.py): features by hand and by a second path, the fit
against data drawn from a known model, the gradient against finite differences, the file checks."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest

from engine.chains.ept import state_ept
from engine.chains.markov import chain_for
from engine.sim import win_model as wm
from models.io import load_state
from models.state import GameState

INSTANCES = Path(__file__).resolve().parents[2] / "instances"


def _names(state: GameState, *names: str) -> list[int]:
    by = {s.name: s.index for s in state.board.squares}
    return [by[n] for n in names]


def test_features_by_hand_two_players() -> None:
    s = GameState.new_game(["a", "b"])
    med, baltic, rr1, rr2, boardwalk = _names(s, "Mediterranean Avenue", "Baltic Avenue", "Reading Railroad",
                                              "Pennsylvania Railroad", "Boardwalk")
    for sq in (med, baltic):
        s.owner[sq] = 0
    s.houses[baltic] = 2
    s.houses[med] = 1
    s.owner[rr1] = s.owner[rr2] = 1
    s.owner[boardwalk] = 1
    s.mortgaged[boardwalk] = True
    s.players[0].cash, s.players[1].cash = 300, 500
    f = wm.state_features(s)
    chain = chain_for(s.board, s.rules, "long")
    ept = state_ept(chain, s)  # the engine's own EPT of every square for its owner: a second path
    inc_a = ept[med] + ept[baltic]
    inc_b = ept[rr1] + ept[rr2]
    assert ept[boardwalk] == 0
    worth_a = 300 + 60 + 60 + 3 * 50  # two lots at price, 3 houses at $50
    worth_b = 500 + 200 + 200 + 200  # two railroads at price, Boardwalk mortgaged at $200
    assert f[0, 0] == pytest.approx(worth_a / (worth_a + worth_b))
    assert f[0, 1] == pytest.approx(inc_a / (inc_a + inc_b))
    assert f[0, 2] == pytest.approx(math.asinh((inc_a - inc_b) / 100))
    assert f[1, 2] == pytest.approx(math.asinh((inc_b - inc_a) / 100))
    # a's dearest landing: two railroads ($50); liquidation 300 + 2*30 + 3*25
    assert f[0, 3] == pytest.approx(50 / (300 + 60 + 75))
    # b's dearest: Baltic with 2 houses ($60); liquidation 500 + 2*100 (Boardwalk already mortgaged)
    assert f[1, 3] == pytest.approx(60 / 700)
    assert f[0, 4] == 1 and f[1, 4] == 0


def test_features_monopoly_doubles_bare_rent_and_respects_set_size() -> None:
    s = GameState.new_game(["a", "b"])
    med, baltic = _names(s, "Mediterranean Avenue", "Baltic Avenue")
    s.owner[med] = s.owner[baltic] = 0
    chain = chain_for(s.board, s.rules, "long")
    f = wm.state_features(s)
    inc = state_ept(chain, s)[[med, baltic]].sum()
    assert f[0, 2] == pytest.approx(math.asinh(inc / 100))
    # b's dearest landing: Baltic's bare rent doubled by the monopoly ($8), against $1,500 cash
    assert f[1, 3] == pytest.approx(8 / 1500)
    assert f[0, 4] == 1
    # two of the three light blues: no monopoly under the standard rules, one with set_size 2
    s.owner[med] = s.owner[baltic] = -1
    oriental, vermont = _names(s, "Oriental Avenue", "Vermont Avenue")
    s.owner[oriental] = s.owner[vermont] = 0
    assert wm.state_features(s)[0, 4] == 0
    s.rules = dataclasses.replace(s.rules, set_size={"light_blue": 2})
    assert wm.state_features(s)[0, 4] == 1


def test_batch_equals_single_states() -> None:
    states = [load_state(p) for p in sorted(INSTANCES.glob("*.json"))]
    states = [s for s in states if len(s.players) == 4 and s.board.size == 40 and not s.rules.set_size][:6]
    assert len(states) >= 3
    single = np.stack([wm.state_features(s) for s in states])
    cols = [np.concatenate([a for a in x]) for x in zip(*(wm.state_arrays(s) for s in states), strict=True)]
    batch = wm.features_from_arrays(wm.board_tables(states[0].board, states[0].rules), *cols)
    np.testing.assert_allclose(batch, single, atol=1e-12)


def test_probabilities_sum_to_one_and_bankrupt_get_zero() -> None:
    rng = np.random.default_rng(1)
    f = rng.normal(size=(50, 4, len(wm.FEATURES)))
    bankrupt = rng.random((50, 4)) < 0.3
    bankrupt[:, 0] = False
    p = wm.win_probabilities(rng.normal(size=len(wm.FEATURES)), f, bankrupt)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    assert np.all(p[bankrupt] == 0)


def test_gradient_matches_finite_differences() -> None:
    rng = np.random.default_rng(2)
    k = len(wm.FEATURES)
    f = rng.normal(size=(40, 4, k))
    mask = np.ones((40, 4), bool)
    mask[::3, 3] = False
    winner = rng.integers(0, 3, size=40)
    w = rng.normal(size=k)
    _, g = wm.neg_log_likelihood(w, f, mask, winner, 0.01)
    h = 1e-6
    num = [(wm.neg_log_likelihood(w + h * e, f, mask, winner, 0.01)[0] - wm.neg_log_likelihood(w - h * e, f, mask, winner, 0.01)[0]) / (2 * h)
           for e in np.eye(k)]
    np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-8)


def test_fit_recovers_known_weights() -> None:
    """Winners drawn from a known conditional logit: the maximum-likelihood fit recovers the
    weights within 4 standard errors (SE from the inverse Fisher information)."""
    rng = np.random.default_rng(3)
    k = len(wm.FEATURES)
    true = np.array([2.0, 0.5, 1.0, -0.8, 0.4])
    m = 6000
    f = rng.normal(size=(m, 4, k))
    mask = np.ones((m, 4), bool)
    mask[rng.random(m) < 0.3, 3] = False
    p = wm.win_probabilities(true, f, ~mask)
    winner = np.array([rng.choice(4, p=row) for row in p])
    w = wm.fit(f, mask, winner, l2=1e-9, signs=None)
    # Fisher information of the conditional logit: sum_s Cov_p(f)
    pf = wm.win_probabilities(w, f, ~mask)
    mean = (pf[..., None] * f).sum(axis=1)
    cov = np.einsum("sp,spi,spj->ij", pf, f, f) - mean.T @ mean
    se = np.sqrt(np.diag(np.linalg.inv(cov)))
    assert np.all(np.abs(w - true) < 4 * se), (w, true, se)


def test_fit_holds_weights_to_their_signs() -> None:
    """Data whose true 'danger' weight is positive (the wrong sign): the bounded fit puts it at 0,
    the free fit recovers it."""
    rng = np.random.default_rng(4)
    k = len(wm.FEATURES)
    true = np.array([1.0, 0.5, 0.5, 1.5, 0.2])
    f = rng.normal(size=(3000, 3, k))
    mask = np.ones((3000, 3), bool)
    p = wm.win_probabilities(true, f, ~mask)
    winner = np.array([rng.choice(3, p=row) for row in p])
    bounded = wm.fit(f, mask, winner)
    free = wm.fit(f, mask, winner, signs=None)
    assert bounded[3] == 0.0 and free[3] > 1.0
    assert np.all(np.array(wm.SIGNS) * bounded >= 0)


def test_richest_rule_and_scores() -> None:
    f = np.zeros((2, 3, len(wm.FEATURES)))
    f[0, :, 0] = [0.5, 0.3, 0.2]
    f[1, :, 0] = [0.4, 0.4, 0.2]
    mask = np.ones((2, 3), bool)
    p = wm.richest_rule(f, mask)
    np.testing.assert_allclose(p, [[1, 0, 0], [0.5, 0.5, 0]])
    winner = np.array([0, 2])
    # Brier by hand: state 0 perfect (0); state 1: 0.25 + 0.25 + 1
    assert wm.brier(p, mask, winner) == pytest.approx((0 + 1.5) / 2)
    table = wm.reliability(p, mask, winner, bins=2)
    assert sum(r["n"] for r in table) == 6


def test_shipped_model_loads_and_ranks_a_dominant_player_first() -> None:
    model = wm.default_model()
    assert model.weights.shape == (len(wm.FEATURES),)
    s = load_state(INSTANCES / "midgame-no-monopolies.json")
    p = model.predict(s)
    assert p.sum() == pytest.approx(1.0)
    rich = s.copy()
    rich.players[1].cash += 3000
    q = model.predict(rich)
    assert q[1] > p[1] and q[1] == q.max()


@pytest.mark.parametrize(
    "doc, what",
    [
        ({"format": "x"}, "format"),
        ({"format": "monopoly-win-model/1", "features": ["a"], "weights": [1]}, "features"),
        ({"format": "monopoly-win-model/1", "features": list(wm.FEATURES), "weights": [1.0] * 4}, "weights"),
        ({"format": "monopoly-win-model/1", "features": list(wm.FEATURES), "weights": [float("nan")] * 5}, "weights"),
        ({"format": "monopoly-win-model/1", "features": list(wm.FEATURES), "weights": [1e9] * 5}, "weights"),
    ],
)
def test_load_model_refuses_bad_documents(doc: dict, what: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=what):
        wm.load_model(json.loads(json.dumps(doc)))


def _random_end_states(state: GameState, games: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Random ``(cash, owner, houses, mortgaged, bankrupt)`` of ``games`` games on ``state``'s
    board: owners among the players and the bank, buildings on streets only, mortgages on
    unbuilt lots, some players bankrupt (their lots the bank's), cash from -200 to 3,000."""
    board = state.board
    n_pl, n_sq = len(state.players), board.size
    props = np.array(board.property_squares)
    streets = np.array([sq for sq in board.property_squares if board.squares[sq].kind == "street"])
    owner = np.full((games, n_sq), -1, np.int64)
    owner[:, props] = rng.integers(-1, n_pl, (games, len(props)))
    houses = np.zeros((games, n_sq), np.int64)
    houses[:, streets] = rng.integers(0, 6, (games, len(streets))) * (rng.random((games, len(streets))) < 0.4)
    houses[owner < 0] = 0
    mortgaged = (rng.random((games, n_sq)) < 0.15) & (owner >= 0) & (houses == 0)
    bankrupt = rng.random((games, n_pl)) < 0.15
    for g, p in zip(*np.nonzero(bankrupt), strict=True):
        sel = owner[g] == p
        owner[g, sel], houses[g, sel], mortgaged[g, sel] = -1, 0, False
    cash = rng.integers(-200, 3000, (games, n_pl)).astype(float)
    return cash, owner, houses, mortgaged, bankrupt


@pytest.mark.parametrize("name", ["midgame-no-monopolies", "late-game-house-shortage", "mini-board", "two-player", "novelty-rules"])
def test_compiled_features_are_numpys_to_the_bit(name: str) -> None:
    """The compiled features that score simulated games (:mod:`engine.sim._features_kernel`) are
    :func:`engine.sim.win_model.features_from_arrays` bit for bit, on 600 random end states of each
    board (monopolies, buildings, mortgages, bankrupt players, negative cash) and on the
    instance itself; so are the win probabilities read from them."""
    from engine.sim._features_kernel import features

    state = load_state(Path(__file__).resolve().parents[2] / "instances" / f"{name}.json")
    tables = wm.tables_for(state.board, state.rules)
    rng = np.random.default_rng(11)
    for arrays in (_random_end_states(state, 600, rng), wm.state_arrays(state)):
        cash, owner, houses, mortgaged, bankrupt = (np.asarray(a) for a in arrays)
        ref = wm.features_from_arrays(tables, cash, owner, houses, mortgaged, bankrupt)
        got = features(tables, cash, owner, houses, mortgaged, bankrupt)
        assert got.shape == ref.shape and np.array_equal(got, ref)
        assert ref[..., 4].max() >= (1 if len(cash) > 1 else 0)  # the random states do hold monopolies
        weights = wm.default_model().weights
        assert np.array_equal(wm.win_probabilities(weights, got, bankrupt), wm.win_probabilities(weights, ref, bankrupt))


def test_compiled_sum_is_numpys_reduce_to_the_bit() -> None:
    """The features' sums (:func:`engine.sim._features_kernel._sum`) are ``np.add.reduce`` bit for bit
    at every length up to 248 (one pairwise block up to 128 values, two halves above), with
    zeros mixed in as the masked sums have them; the fields it unpacks are the tables' own."""
    from engine.sim._features_kernel import MAX_LEN, TABLE_FIELDS, _sum

    assert TABLE_FIELDS == tuple(f.name for f in dataclasses.fields(wm.BoardTables))
    rng = np.random.default_rng(3)
    for n in range(1, MAX_LEN + 1):
        for _ in range(5):
            a = rng.random(n) * 100 * (rng.random(n) < 0.6)
            assert _sum(a) == np.add.reduce(a), n
