"""The fitted trade value (solver/trades/value_model.py): its integer coefficients against an
independent float computation, the fit against known weights, the loader, and the generator's
gains recomputed."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from engine.chains.markov import PositionChain
from models.io import load_state
from solver.analysis.reserve import reserves as ruin_reserves
from solver.trades import value_model as vm
from solver.trades.candidates import bilateral_candidates, cycle_candidates
from solver.trades.cpsat import Limits, generate_trades
from solver.trades.space import TradeSettings, TradeSpace, after_state
from solver.trades.values import linear_values
from tests.solver.cli_helpers import run_cli

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
MID = INSTANCES / "midgame-no-monopolies.json"
CYCLE_FILES = sorted(INSTANCES.glob("cycle-*.json"))


def _space(path: Path) -> tuple[TradeSpace, PositionChain]:
    state = load_state(path)
    chain = PositionChain(state.board, state.rules, "long")
    res = ruin_reserves(state, None, epsilon=0.05, chain=chain)
    return TradeSpace(state, state.to_move, TradeSettings(), res), chain


@pytest.mark.parametrize("path", [MID, *CYCLE_FILES[:3]], ids=lambda p: p.name)
def test_integer_coefficients_match_the_float_prediction(path: Path) -> None:
    """``FittedValues`` (tables per holder, group and count, rounded to micro-probabilities)
    against :func:`value_model.predict` (features of the whole state before and after,
    float weights): equal within the rounding, on every enumerated trade."""
    space, chain = _space(path)
    model = vm.default_trade_model()
    ctx = vm.context(space.state, space.proposer, linear_values(space, chain), space.reserves, model.features)
    values = vm.fitted_values(ctx, model, space.proposer, space.participants)
    s = space.state
    checked = 0
    for cand in [*bilateral_candidates(space), *cycle_candidates(space)][:400]:
        after = after_state(s, cand)
        exact = vm.predict(ctx, model, after, cand.players)
        for i in cand.players:
            got = (values(after, i) - values(s, i)) * vm.UNIT
            # each group table entry is off by at most half a unit, each per-dollar slope too
            moved = sum(abs(a) for _p, _q, a in cand.cash) + 200
            tol = (4 * 12 * 0.5 + 2 * 3 * 0.5 * moved) * vm.UNIT
            assert got == pytest.approx(exact[i], abs=tol), (cand, i)
            checked += 1
    assert checked > 20


def test_fit_recovers_known_weights() -> None:
    """Synthetic trades whose simulated change is a known linear function of the features
    plus noise of the stated SE: the bounded weighted least squares finds the weights."""
    rng = np.random.default_rng(5)
    k = 4
    truth = {
        "proposer_own": (0.8, 0.3, 1.5, 0.0),
        "proposer_rival": (-0.2, 0.0, -0.6, -0.1),
        "counterparty_own": (0.4, 0.9, 1.0, 0.2),
        "counterparty_rival": (-0.5, -0.3, 0.0, -1.2),
    }
    samples = []
    for _ in range(1500):
        n = int(rng.choice([2, 3]))
        players = tuple(int(x) for x in rng.choice(4, size=n, replace=False))
        dx = {j: rng.normal(0, 0.1, size=k) for j in players}
        se = {i: 0.004 for i in players}
        true = {
            i: sum(np.asarray(truth[vm.block_of(players[0], i, j)]) @ dx[j] for j in players) for i in players
        }
        sim = {i: float(true[i] + rng.normal(0, se[i])) for i in players}
        samples.append(vm.Sample(players[0], players, dx, sim, se))
    X, y, w, is_p = vm.design(samples)
    assert X.shape == (len(y), 4 * k) and is_p.sum() == len(samples)
    got = vm.fit_weights(X, y, w)
    for b in vm.BLOCKS:
        assert np.allclose(got[b], truth[b], atol=0.02), (b, got[b])
        own = b.endswith("own")
        assert all((c >= 0) if own else (c <= 0) for c in got[b])


def test_loader_rejects_malformed_documents() -> None:
    good = vm.default_trade_model().to_dict()
    assert vm.load_model(json.loads(json.dumps(good))) == vm.default_trade_model()
    with pytest.raises(ValueError, match="monopoly-trade-value/2"):
        vm.load_model({**good, "format": "other"})
    with pytest.raises(ValueError, match="blocks"):
        vm.load_model({**good, "weights": {**good["weights"], "proposer_own": [1.0]}})
    bad = {**good, "weights": {**good["weights"], "proposer_own": [float("nan")] * len(good["features"])}}
    with pytest.raises(ValueError, match="finite"):
        vm.load_model(bad)
    with pytest.raises(ValueError, match="features"):
        vm.load_model({**good, "features": ["cash", *good["features"][1:]]})


def test_shipped_model_has_provenance_and_signs() -> None:
    m = vm.default_trade_model()
    assert m.provenance.get("script") == "bench/fit_trade_model.py" and m.provenance.get("states", 0) >= 200
    for b in vm.BLOCKS:
        assert all((c >= 0) if b.endswith("own") else (c <= 0) for c in m.weights[b])


def test_generated_gains_are_the_fitted_values_recomputed() -> None:
    """Every listed gain equals the fitted value after minus before (an evaluation of the
    after-state outside CP-SAT); counterparties gain at least one unit; the list is
    ranked by the proposer's gain."""
    state = load_state(MID)
    chain = PositionChain(state.board, state.rules, "long")
    result = generate_trades(state, state.to_move, chain=chain, cycles=True, limits=Limits(top_k=10))
    assert result.unit == "win probability" and result.scale == vm.UNIT and result.trades
    res = ruin_reserves(state, None, epsilon=0.05, chain=chain)
    space = TradeSpace(state, state.to_move, TradeSettings(), res)
    values = vm.trade_values(space, chain)
    mine = [g.gains[state.to_move] for g in result.trades]
    assert mine == sorted(mine, reverse=True)
    for g in result.trades:
        after = after_state(state, g.candidate)
        for i, gain in g.gains.items():
            assert gain == values(after, i) - values(state, i)
            if i != state.to_move:
                assert gain >= values.min_gain


def test_min_win_gain_is_honoured() -> None:
    state = load_state(MID)
    settings = dataclasses.replace(TradeSettings(), min_win_gain=0.05)
    result = generate_trades(state, state.to_move, settings=settings, limits=Limits(top_k=10), explain=False)
    for g in result.trades:
        assert all(result.gain(g, i) >= 0.05 - 1e-9 for i in g.candidate.players if i != state.to_move)


def test_unknown_value_is_refused() -> None:
    state = load_state(MID)
    with pytest.raises(ValueError, match="unknown trade value"):
        generate_trades(state, state.to_move, settings=TradeSettings(value="nosuch"))


def test_trades_cli_reports_the_value_and_unit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "trades", str(MID), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["value"] == "fitted" and doc["unit"] == "win probability"
    assert all(isinstance(v, float) and abs(v) < 1 for t in doc["trades"] for v in t["estimated_gain"].values())
    code, out, _ = run_cli(capsys, "trades", str(MID), "--value", "linear")
    assert code == 0 and "dollars of value over 20 rounds" in out


def test_agent_generator_options() -> None:
    from solver.agents.subgraph_agent import SubgraphTradeAgent

    a = SubgraphTradeAgent(0)
    assert (a.settings.trade_settings.value, a.settings.trade_settings.objective) == ("linear", "proposer")
    b = SubgraphTradeAgent(0, value="fitted", objective="balanced", margin=0.04)
    assert b.settings.trade_settings.min_win_gain == b.settings.trade_settings.min_own_win_gain == 0.04
    for bad in ({"value": "nosuch"}, {"objective": "nosuch"}, {"margin": -0.1}, {"margin": float("nan")}):
        with pytest.raises(ValueError):
            SubgraphTradeAgent(0, **bad)


@pytest.mark.parametrize(
    "name", ["midgame-no-monopolies.json", "cycle-four-reserve.json", "cycle-orange-red-yellow.json", "mortgaged.json", "near-ruin.json"]
)
def test_groupwise_gains_equal_whole_state_gains(name: str) -> None:
    """The funnel reads a trade's gain on the groups it touches (``partial``): on every
    enumerated trade, the same integers as the whole value after less before, for the fitted
    and the linear values, and the same completions as over every colour group."""
    from solver.trades.rules import new_completions

    space, chain = _space(INSTANCES / name)
    s = space.state
    model = vm.default_trade_model()
    linear = linear_values(space, chain)
    fitted = vm.fitted_values(vm.context(s, space.proposer, linear, space.reserves, model.features), model, space.proposer, space.participants)
    checked = set_terms = 0
    for cand in [*bilateral_candidates(space), *cycle_candidates(space)][:300]:
        after = after_state(s, cand)
        touched = {s.board.squares[sq].group for sq, _, _ in cand.moves}
        for i in cand.players:
            for values in (fitted, linear):
                assert values.partial(after, i, touched) - values.partial(s, i, touched) == values(after, i) - values(s, i)
            assert new_completions(s, after, i, touched) == new_completions(s, after, i)
            set_terms += bool(fitted.terms(i).set_cash)
            checked += 1
    assert checked > 20 and set_terms > 0  # set-holders too: cycle-four-reserve, mortgaged and near-ruin have complete sets
