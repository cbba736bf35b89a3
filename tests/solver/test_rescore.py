"""Monte Carlo re-scoring (solver.trades.rescore) checked against independent computations.

Every expected value here is recomputed outside ``solver.trades.rescore``: the
post-trade state is built by hand, the two simulations are run afresh with
:func:`engine.sim.rollout.simulate`, and the paired statistics, the z-test, the
logistic acceptance, the leader and the balance flag are worked out with numpy
and plain arithmetic from the raw ``winners`` arrays.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from engine.rules.agents import BaseAgent
from engine.rules.game import Game
from engine.rules.streams import SeededStream
from engine.sim.rollout import RolloutResult, simulate
from engine.sim.rollout_policy import RolloutPolicy
from models.io import load_state
from models.state import GameState
from models.trade import Trade, Transfer
from solver.agents.strategic import StrategicTradeAgent
from solver.trades.cpsat import generate_trades
from solver.trades.rescore import (
    RescoreSettings,
    acceptance,
    baseline,
    rescore,
    rescore_one,
    self_balancing,
    trade_after,
)
from solver.trades.space import Candidate, TradeSettings, with_cash

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
N, H, SEED = 400, 20, 7
RS = RescoreSettings(rollouts=N, horizon=H, seed=SEED)


@pytest.fixture(scope="module")
def midgame() -> GameState:
    return load_state(INSTANCES / "midgame-no-monopolies.json")


@pytest.fixture(scope="module")
def midgame_cands(midgame: GameState) -> list[Candidate]:
    res = generate_trades(midgame, midgame.to_move, settings=TradeSettings(value="linear", objective="proposer"))  # several candidates
    assert not res.relaxed and len(res.trades) >= 3
    return [g.candidate for g in res.trades]


def by_hand(state: GameState, cand: Candidate) -> GameState:
    """The post-trade state without the trade machinery: owners, cash, interest on mortgaged lots."""
    s = state.copy()
    for sq, a, b in cand.moves:
        assert s.owner[sq] == a
        s.owner[sq] = b
        if s.mortgaged[sq]:
            s.players[b].cash -= s.rules.interest(s.mortgage_value(sq))
    for a, b, amount in cand.cash:
        s.players[a].cash -= amount
        s.players[b].cash += amount
    return s


def paired_by_hand(rb: RolloutResult, ra: RolloutResult, seat: int) -> tuple[float, float]:
    """Mean and SE of the game-by-game change of ``seat``'s score (its win indicator, or the
    horizon model's probability for a game cut at the horizon), from the raw scores."""
    d = ra.scores[:, seat] - rb.scores[:, seat]
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(d.size))


def logistic(x: float, k: float = 40.0) -> float:
    return 1.0 / (1.0 + math.exp(-k * x))


# ---------------------------------------------------------------------------
# win_delta and its SE against two independent simulations
# ---------------------------------------------------------------------------
def test_win_delta_equals_paired_difference_of_two_independent_simulations(
    midgame: GameState, midgame_cands: list[Candidate]
) -> None:
    base = baseline(midgame, RS)
    names = [p.name for p in midgame.players]
    before = simulate(midgame.copy(), N, H, SEED)
    # common random numbers: the same seed plays the same games on the same state
    assert np.array_equal(before.winners, base.winners)
    for cand in midgame_cands[:3]:
        r = rescore_one(midgame, cand, base, RS)
        assert r is not None
        after = simulate(by_hand(midgame, cand), N, H, SEED)
        assert r.win_before == before.win_prob
        for i, n in enumerate(names):
            d, se = paired_by_hand(before, after, i)
            assert r.win_after[n] == pytest.approx(after.scores[:, i].mean(), abs=1e-12)
            assert r.win_delta[n] == pytest.approx(d, abs=1e-12)
            assert r.win_delta_se[n] == pytest.approx(se, abs=1e-12)
            # the delta of the means is the mean of the deltas
            assert d == pytest.approx(r.win_after[n] - r.win_before[n], abs=1e-12)


def test_common_random_numbers_shrink_the_standard_error(midgame: GameState) -> None:
    """A small change ($20) paired on the same dice leaves most games' winners as they
    were, and its paired SE is far below that of two independently seeded runs.

    Played with the no-trade policy, so that the dice alone are measured: under the
    trading policy a $20 change also changes which trades are affordable (a real
    difference, not noise); the variance ratio with the default policy is checked in
    tests/engine/test_rollout.py against the issue's target."""
    quiet = RolloutPolicy(trade=False, mortgage_to_build=False)
    before = simulate(midgame, N, H, SEED, policy=quiet)
    cand = with_cash("bilateral", (2, 3), [], [(3, 20)])
    same = simulate(by_hand(midgame, cand), N, H, SEED, policy=quiet)
    other = simulate(by_hand(midgame, cand), N, H, SEED + 1000, policy=quiet)
    assert np.mean(same.winners == before.winners) > 0.8
    seat = cand.players[0]
    se_same = paired_by_hand(before, same, seat)[1]
    se_other = paired_by_hand(before, other, seat)[1]
    assert se_same < 0.5 * se_other


def test_trade_after_matches_the_hand_built_state_and_leaves_the_input_alone(
    midgame: GameState, midgame_cands: list[Candidate]
) -> None:
    snapshot = midgame.copy()
    for cand in midgame_cands:
        assert trade_after(midgame, cand.to_trade(midgame)) == by_hand(midgame, cand)
    assert midgame == snapshot


# ---------------------------------------------------------------------------
# a pure cash gift: the receiver gains, the giver loses, deltas sum to zero
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["opening.json", "midgame-no-monopolies.json"])
def test_cash_gift_helps_receiver_hurts_giver_and_deltas_sum_to_zero(name: str) -> None:
    s = load_state(INSTANCES / name)
    a, b = 0, 1
    cand = with_cash("bilateral", (a, b), [], [(b, 200)])
    assert cand.to_trade(s) == Trade((Transfer(s.players[a].name, s.players[b].name, (), 200),))
    base = baseline(s, RS)
    r = rescore_one(s, cand, base, RS)
    assert r is not None and r.after is not None
    na, nb = s.players[a].name, s.players[b].name
    assert r.win_delta[nb] > 3 * r.win_delta_se[nb] > 0
    assert r.win_delta[na] < -3 * r.win_delta_se[na] < 0
    # every game has exactly one winner before and after: the deltas are zero-sum
    assert (base.winners >= 0).all() and (r.after.winners >= 0).all()
    assert sum(r.win_before.values()) == pytest.approx(1.0, abs=1e-12)
    assert sum(r.win_after.values()) == pytest.approx(1.0, abs=1e-12)
    assert sum(r.win_delta.values()) == pytest.approx(0.0, abs=1e-12)
    # the giver loses: never in the Nash zone; the receiver (a non-strategic
    # counterparty) accepts by the logistic in its own delta
    assert not r.nash_zone
    assert r.acceptance == pytest.approx(logistic(r.win_delta[nb]), rel=1e-12)
    assert r.risk_adjusted_ev == pytest.approx(r.win_delta[na] * r.acceptance, rel=1e-12)
    assert r.risk_adjusted_ev < 0


# ---------------------------------------------------------------------------
# nash_zone, leader, balance, acceptance, risk-adjusted EV by hand
# ---------------------------------------------------------------------------
def _check_flags(state: GameState, r, settings: RescoreSettings) -> None:  # type: ignore[no-untyped-def]
    names = [p.name for p in state.players]
    parts = [names[i] for i in r.candidate.players]
    zone = all(r.win_delta[n] > settings.z * r.win_delta_se[n] for n in parts)  # SE 0: strict gain
    assert r.nash_zone == zone
    top = max(r.win_after.values())
    leader = next(n for n in names if r.win_after[n] == top)  # ties: the earlier seat
    assert (r.leader, r.leader_win_prob) == (leader, top)
    assert r.balanced == (top < settings.balance)
    acc = 1.0
    for n in parts[1:]:
        acc *= logistic(r.win_delta[n], settings.acceptance_slope)
    assert r.acceptance == pytest.approx(acc, rel=1e-12, abs=1e-300)
    assert r.risk_adjusted_ev == pytest.approx(r.win_delta[parts[0]] * acc, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize(
    ("z", "balance", "slope"),
    [(1.645, 0.55, 40.0), (0.0, 0.3, 5.0), (1e6, 1.01, 400.0)],
)
def test_flags_recomputed_by_hand_bilateral(
    midgame: GameState, midgame_cands: list[Candidate], z: float, balance: float, slope: float
) -> None:
    rs = RescoreSettings(rollouts=N, horizon=H, seed=SEED, z=z, balance=balance, acceptance_slope=slope)
    scored = rescore(midgame, midgame_cands, rs)
    assert len(scored) == len(midgame_cands)
    for r in scored:
        _check_flags(midgame, r, rs)
    if z >= 1e6:  # nobody gains by a million standard errors (every SE here is positive)
        assert all(r.win_delta_se[n] > 0 for r in scored for n in r.win_delta_se)
        assert not any(r.nash_zone for r in scored)
    if z == 0.0:  # the zone is then: every participant's delta is positive
        for r in scored:
            assert r.nash_zone == all(r.win_delta[midgame.players[i].name] > 0 for i in r.candidate.players)
    if balance > 1:
        assert all(r.balanced for r in scored)


def test_flags_recomputed_by_hand_three_way_cycles() -> None:
    s = load_state(INSTANCES / "cycle-four-bystander.json")
    res = generate_trades(s, s.to_move, cycles=True)
    cycles = [g.candidate for g in res.trades if g.candidate.kind == "cycle3"]
    assert cycles
    scored = rescore(s, cycles, RS)
    assert len(scored) == len(cycles)
    for r in scored:
        assert len(r.candidate.players) == 3
        _check_flags(s, r, RS)  # acceptance: the product over the two counterparties
        # the bystander is the loser of every completing cycle here
        assert r.win_delta["Dee"] < 0


def test_rescore_sorts_by_risk_adjusted_ev_and_drops_invalid_trades(
    midgame: GameState, midgame_cands: list[Candidate]
) -> None:
    base = baseline(midgame, RS)
    # a candidate moving a lot its "giver" does not own: invalid in the engine
    sq = next(sq for sq in midgame.board.property_squares if midgame.owner[sq] == 1)
    bogus = with_cash("bilateral", (0, 2), [(sq, 2, 0)], [])
    assert rescore_one(midgame, bogus, base, RS) is None
    cands = [*midgame_cands, bogus]
    scored = rescore(midgame, cands, RS, base=base)
    assert len(scored) == len(midgame_cands)
    evs = [r.risk_adjusted_ev for r in scored]
    assert evs == sorted(evs, reverse=True)
    one_by_one = [rescore_one(midgame, c, base, RS) for c in midgame_cands]
    expected = sorted(((r.risk_adjusted_ev, k) for k, r in enumerate(one_by_one) if r is not None), key=lambda t: -t[0])
    assert [r.candidate for r in scored] == [midgame_cands[k] for _, k in expected]


# ---------------------------------------------------------------------------
# acceptance of a strategic counterparty: the engine's own answer
# ---------------------------------------------------------------------------
def engine_accepts(state: GameState, trade: Trade, proposer: int, strategic_seat: int) -> bool:
    """Propose ``trade`` in a real game where ``strategic_seat`` is a StrategicTradeAgent."""
    agents = [StrategicTradeAgent(0) if i == strategic_seat else BaseAgent(0) for i in range(len(state.players))]
    game = Game(state.copy(), agents, SeededStream(0))
    return game.propose_trade(proposer, trade)


def test_strategic_acceptance_is_the_engine_answer(midgame: GameState, midgame_cands: list[Candidate]) -> None:
    names = [p.name for p in midgame.players]
    delta = {n: 0.0 for n in names}  # ignored for a strategic counterparty
    gift = with_cash("bilateral", (0, 1), [], [(1, 300)])
    grab = with_cash("bilateral", (0, 1), [], [(1, -300)])
    cases = [(c, c.to_trade(midgame)) for c in [gift, grab, *midgame_cands]]
    seen = set()
    for cand, trade in cases:
        p, q = cand.players
        want = engine_accepts(midgame, trade, p, q)
        got = acceptance(midgame, trade, p, delta, RS, strategic=(q,))
        assert got == (1.0 if want else 0.0)
        seen.add(want)
    assert acceptance(midgame, gift.to_trade(midgame), 0, delta, RS, strategic=(1,)) == 1.0
    assert acceptance(midgame, grab.to_trade(midgame), 0, delta, RS, strategic=(1,)) == 0.0
    assert seen == {True, False}


def test_acceptance_logistic_by_hand(midgame: GameState) -> None:
    trade = with_cash("bilateral", (0, 1), [], [(1, 50)]).to_trade(midgame)
    names = [p.name for p in midgame.players]
    for d in (-0.2, -0.05, 0.0, 0.05, 0.2):
        delta = {n: 0.0 for n in names} | {"Bob": d}
        assert acceptance(midgame, trade, 0, delta, RS) == pytest.approx(1 / (1 + math.exp(-40 * d)), rel=1e-12)
    # a +5-point gain is accepted 88% of the time (module docstring)
    assert acceptance(midgame, trade, 0, {n: 0.05 for n in names}, RS) == pytest.approx(0.8808, abs=1e-4)
    # the proposer's own delta never enters
    assert acceptance(midgame, trade, 0, {"Ann": -1.0, "Bob": 0.0, "Cy": 0.0, "Dee": 0.0}, RS) == 0.5


# ---------------------------------------------------------------------------
# self-balancing
# ---------------------------------------------------------------------------
def test_self_balancing_two_players_has_no_outsider() -> None:
    """Two players: nobody outside the trade, so a trade that makes a leader above
    0.55 and above its pre-trade odds is never self-balancing; one that does not is."""
    s = GameState.new_game(["Ann", "Bob"])
    base = baseline(s, RS)
    big = rescore_one(s, with_cash("bilateral", (0, 1), [], [(1, 1200)]), base, RS)
    assert big is not None
    assert big.leader == "Bob" and big.leader_win_prob > max(0.55, big.win_before["Bob"])
    assert not big.balanced
    assert self_balancing(s, big, RS) is False
    small = rescore_one(s, with_cash("bilateral", (0, 1), [], [(1, 10)]), base, RS)
    assert small is not None
    target = max(RS.balance, small.win_before[small.leader])
    assert self_balancing(s, small, RS) is (small.leader_win_prob <= target)
