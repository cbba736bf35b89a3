"""Nash bargaining over the cash of a trade (solver.trades.bargaining).

The win curves are replaced by synthetic ones whose Nash-product maximiser is
known in closed form (linear curves: the product is a parabola whose vertex is
the midpoint of its two roots) or by brute force over the $10 grid with a
hand-written interpolation; the real simulation is checked sample by sample
against independent :func:`engine.sim.rollout.simulate` runs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.sim.rollout import simulate
from models.io import load_state
from models.state import GameState
from models.trade import Trade, Transfer
from solver.trades import bargaining
from solver.trades.bargaining import nash_cash, trade_with_cash
from solver.trades.rescore import RescoreSettings, baseline

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
A, B = "Bob", "Ann"  # proposer and counterparty in midgame-no-monopolies
RS = RescoreSettings(rollouts=400, horizon=20, seed=5).holding(1, 4)  # Bob holds in the rollouts, as in decide


@pytest.fixture(scope="module")
def midgame() -> GameState:
    return load_state(INSTANCES / "midgame-no-monopolies.json")


@pytest.fixture(scope="module")
def swap(midgame: GameState) -> Trade:
    """Bob gets Kentucky Avenue (red), Ann gets New York Avenue (orange): no cash."""
    t = Trade.bilateral(A, B, ["New York Avenue"], ["Kentucky Avenue"])
    t.validate(midgame)
    assert all(not midgame.mortgaged[midgame.square_of(p)] for x in t.transfers for p in x.properties)
    return t


# ---------------------------------------------------------------------------
# with_cash
# ---------------------------------------------------------------------------
def _props(t: Trade) -> list[tuple[str, str, tuple[str, ...], int]]:
    return sorted((x.frm, x.to, x.properties, x.jail_cards) for x in t.transfers if x.properties or x.jail_cards)


@pytest.mark.parametrize("cash", [-250, -1, 0, 1, 120, 400])
def test_with_cash_sets_the_cash_leg_and_keeps_the_properties(swap: Trade, cash: int) -> None:
    for base in (swap, trade_with_cash(swap, A, B, 70), trade_with_cash(swap, A, B, -90)):
        t = trade_with_cash(base, A, B, cash)
        assert _props(t) == _props(swap)
        assert t.net_cash(B) == cash and t.net_cash(A) == -cash
        # one cash leg at most, from the payer, and never an empty transfer
        paid = [x for x in t.transfers if x.cash]
        assert len(paid) == (cash != 0)
        if cash:
            assert (paid[0].frm, paid[0].to, paid[0].cash) == ((A, B, cash) if cash > 0 else (B, A, -cash))
        assert all(not x.is_empty() for x in t.transfers)


def test_with_cash_purchase_jail_cards_and_third_parties() -> None:
    # a purchase: only B gives; paying adds a new leg A -> B
    buy = Trade((Transfer(B, A, ("Boardwalk",)),))
    t = trade_with_cash(buy, A, B, 300)
    assert set(t.transfers) == {Transfer(B, A, ("Boardwalk",)), Transfer(A, B, (), 300)}
    # removing the cash of a pure cash leg removes the leg
    assert trade_with_cash(Trade((Transfer(A, B, (), 300),)), A, B, 0).transfers == ()
    assert trade_with_cash(t, A, B, 0) == buy
    # jail cards travel unchanged, legs with a third player are left alone
    three = Trade((Transfer(A, B, ("Park Place",), 50, 1), Transfer(B, "Cy", ("Boardwalk",), 20), Transfer("Cy", A, (), 40)))
    u = trade_with_cash(three, A, B, -80)
    assert Transfer(A, B, ("Park Place",), 0, 1) in u.transfers
    assert Transfer(B, A, (), 80) in u.transfers
    assert Transfer(B, "Cy", ("Boardwalk",), 20) in u.transfers and Transfer("Cy", A, (), 40) in u.transfers
    assert len(u.transfers) == 4


# ---------------------------------------------------------------------------
# the Nash product on synthetic win curves
# ---------------------------------------------------------------------------
def fake_simulate(state0: GameState, ua: Callable[[float], float], ub: Callable[[float], float], calls: list[int]):  # type: ignore[no-untyped-def]
    """A stand-in for ``simulate``: win probabilities as functions of the cash ``c`` that A paid B
    (read off the post-trade state: the swap moves no other cash)."""
    ia, ib = state0.player_index(A), state0.player_index(B)

    def sim(after: GameState, n_games: int, horizon: int, seed: int = 0, *, policy=None, scoring=None, threads=1):  # type: ignore[no-untyped-def]
        c = state0.players[ia].cash - after.players[ia].cash
        assert after.players[ib].cash - state0.players[ib].cash == c
        calls.append(c)
        return SimpleNamespace(win_prob={A: ua(c), B: ub(c)})

    return sim


def grid_argmax(lo: int, hi: int, ua, ub, da: float, db: float):  # type: ignore[no-untyped-def]
    """Brute force over lo, lo+10, ..., hi: the first maximiser of the product with both sides above BATNA."""
    best = None
    for c in range(lo, hi + 1, 10):
        fa, fb = ua(c), ub(c)
        if fa > da and fb > db:
            p = (fa - da) * (fb - db)
            if best is None or p > best[1] + 1e-15:
                best = (c, p)
    return best


AMOUNTS = [-200, -100, 0, 100, 200]


@pytest.mark.parametrize(
    ("ua0", "ka", "ub0", "kb", "da", "db", "expected"),
    [
        # roots 200 and 25: vertex 112.5, nearest grid point 110
        (0.5, 0.001, 0.2, 0.002, 0.3, 0.25, 110),
        # roots 100 and -100: vertex 0
        (0.4, 0.0005, 0.35, 0.0005, 0.35, 0.3, 0),
        # roots 600 and 100: vertex 350 lies beyond the sampled range, so the top amount
        (0.9, 0.001, 0.1, 0.001, 0.3, 0.2, 200),
        # roots -40 and -174: vertex -107, B pays A: -110
        (0.3, 0.001, 0.5, 0.002, 0.34, 0.152, -110),
    ],
)
def test_linear_curves_closed_form(
    monkeypatch: pytest.MonkeyPatch, midgame: GameState, swap: Trade, ua0, ka, ub0, kb, da, db, expected  # type: ignore[no-untyped-def]
) -> None:
    def ua(c: float) -> float:
        return ua0 - ka * c

    def ub(c: float) -> float:
        return ub0 + kb * c

    # the closed form: the product's roots and its vertex
    root_a, root_b = (ua0 - da) / ka, (db - ub0) / kb
    vertex = (root_a + root_b) / 2
    calls: list[int] = []
    monkeypatch.setattr(bargaining, "simulate", fake_simulate(midgame, ua, ub, calls))
    base = SimpleNamespace(win_prob={A: da, B: db})  # the default BATNA: the state without the trade
    got = nash_cash(midgame, swap, A, B, RS, base=base, amounts=AMOUNTS)  # type: ignore[arg-type]
    assert got is not None
    assert sorted(calls) == AMOUNTS and got.amounts == tuple(AMOUNTS)
    assert got.cash == expected
    brute = grid_argmax(-200, 200, ua, ub, da, db)
    assert brute is not None and got.cash == brute[0]
    assert abs(got.cash - min(max(vertex, -200), 200)) <= 5
    assert got.u_a == pytest.approx(ua(got.cash), abs=1e-12)
    assert got.u_b == pytest.approx(ub(got.cash), abs=1e-12)
    assert got.product == pytest.approx((ua(got.cash) - da) * (ub(got.cash) - db), abs=1e-15)
    assert got.samples_a == pytest.approx([ua(c) for c in AMOUNTS])
    assert got.samples_b == pytest.approx([ub(c) for c in AMOUNTS])


def test_piecewise_linear_interpolation_brute_force(monkeypatch: pytest.MonkeyPatch, midgame: GameState, swap: Trade) -> None:
    """Concave curves sampled at five amounts: the answer maximises the product of the
    piecewise-linear interpolants (interpolated here by hand) on the $10 grid."""

    def ua(c: float) -> float:
        return 0.45 - 0.0004 * c - 1.5e-6 * c * c

    def ub(c: float) -> float:
        return 0.25 + 0.0009 * c - 1e-6 * c * c

    def interp(f, c: float) -> float:  # type: ignore[no-untyped-def]
        for lo, hi in itertools.pairwise(AMOUNTS):
            if lo <= c <= hi:
                w = (c - lo) / (hi - lo)
                return (1 - w) * f(lo) + w * f(hi)
        raise AssertionError(c)

    da, db = 0.3, 0.2
    monkeypatch.setattr(bargaining, "simulate", fake_simulate(midgame, ua, ub, []))
    got = nash_cash(midgame, swap, A, B, RS, base=None, amounts=AMOUNTS, batna=(da, db))  # type: ignore[arg-type]
    brute = grid_argmax(-200, 200, lambda c: interp(ua, c), lambda c: interp(ub, c), da, db)
    assert got is not None and brute is not None
    assert got.cash == brute[0]
    assert got.product == pytest.approx(brute[1], abs=1e-15)
    # on the exact (not interpolated) curves the answer is close to the true optimum
    exact = grid_argmax(-200, 200, ua, ub, da, db)
    assert exact is not None and abs(got.cash - exact[0]) <= 30


def test_no_bargain_without_a_zone_or_without_two_affordable_amounts(
    monkeypatch: pytest.MonkeyPatch, midgame: GameState, swap: Trade
) -> None:
    def ua(c: float) -> float:
        return 0.5 - 0.001 * c

    def ub(c: float) -> float:
        return 0.2 + 0.001 * c

    calls: list[int] = []
    monkeypatch.setattr(bargaining, "simulate", fake_simulate(midgame, ua, ub, calls))
    # A needs c < 100 and B needs c > 150: no amount pleases both
    assert nash_cash(midgame, swap, A, B, RS, base=None, amounts=AMOUNTS, batna=(0.4, 0.35)) is None  # type: ignore[arg-type]
    assert grid_argmax(-200, 200, ua, ub, 0.4, 0.35) is None
    # neither side can pay $5,000: only one amount is left, no curve
    rich = 5000
    assert midgame.players[midgame.player_index(A)].cash < rich and midgame.players[midgame.player_index(B)].cash < rich
    calls.clear()
    assert nash_cash(midgame, swap, A, B, RS, base=None, amounts=[-rich, 0, rich], batna=(0.0, 0.0)) is None  # type: ignore[arg-type]
    assert calls == [0]
    # unaffordable amounts are skipped, not sampled
    calls.clear()
    got = nash_cash(midgame, swap, A, B, RS, base=None, amounts=[-rich, *AMOUNTS, rich], batna=(0.3, 0.2))  # type: ignore[arg-type]
    assert got is not None and got.amounts == tuple(AMOUNTS) and sorted(calls) == AMOUNTS


# ---------------------------------------------------------------------------
# the real simulation
# ---------------------------------------------------------------------------
def test_real_samples_match_independent_simulations(midgame: GameState, swap: Trade) -> None:
    base = baseline(midgame, RS)
    got = nash_cash(midgame, swap, A, B, RS, base=base, amounts=AMOUNTS)
    assert got is not None
    for k, c in enumerate(AMOUNTS):
        after = midgame.copy()
        ia, ib = after.player_index(A), after.player_index(B)
        for x in swap.transfers:  # the swap by hand
            for p in x.properties:
                after.owner[after.square_of(p)] = after.player_index(x.to)
        after.players[ia].cash -= c
        after.players[ib].cash += c
        r = simulate(after, RS.rollouts, RS.horizon, RS.seed, policy=RS.policy)
        assert got.samples_a[k] == r.win_prob[A] and got.samples_b[k] == r.win_prob[B]
    # on common dice, paying more hurts the payer and helps the payee
    assert list(got.samples_a) == sorted(got.samples_a, reverse=True)
    assert list(got.samples_b) == sorted(got.samples_b)
    assert got.cash % 10 == 0 and -200 <= got.cash <= 200
    assert got.u_a > base.win_prob[A] and got.u_b > base.win_prob[B]
    assert got.product == pytest.approx((got.u_a - base.win_prob[A]) * (got.u_b - base.win_prob[B]))
    # the interpolated curves at the answer, by hand
    lo = max(c for c in AMOUNTS if c <= got.cash)
    hi = min(c for c in AMOUNTS if c >= got.cash)
    k_lo, k_hi = AMOUNTS.index(lo), AMOUNTS.index(hi)
    w = 0.0 if hi == lo else (got.cash - lo) / (hi - lo)
    assert got.u_a == pytest.approx((1 - w) * got.samples_a[k_lo] + w * got.samples_a[k_hi], abs=1e-12)
    assert got.u_b == pytest.approx((1 - w) * got.samples_b[k_lo] + w * got.samples_b[k_hi], abs=1e-12)
    assert math.isfinite(got.product) and got.product > 0


def _play_curves() -> tuple[Callable[[float], float], Callable[[float], float]]:
    """Linear stub curves for the price-for-play tests: A loses and B gains with the cash A pays."""
    return (lambda c: 0.45 - 0.0006 * c), (lambda c: 0.22 + 0.0007 * c)


@pytest.mark.parametrize("slope", [20.0, 40.0, 80.0])
def test_play_cash_equals_brute_force_on_the_grid(monkeypatch: pytest.MonkeyPatch, midgame: GameState, swap: Trade, slope: float) -> None:
    """The price for play maximises the proposer's gain x P(accept) on the $10 grid: the same
    answer as evaluating the (linear, so exactly interpolated) stub curves at every grid point."""
    ua, ub = _play_curves()

    def p_accept(c: int, gain_b: float) -> float:
        # a counterparty that also minds the cash it must find when it pays (c < 0)
        return 1.0 / (1.0 + math.exp(-slope * gain_b + (0.004 * -c if c < 0 else 0.0)))

    da, db = 0.30, 0.25
    calls: list[int] = []
    monkeypatch.setattr(bargaining, "simulate", fake_simulate(midgame, ua, ub, calls))
    base = SimpleNamespace(win_prob={A: da, B: db})
    got = bargaining.play_cash(midgame, swap, A, B, RS, base=base, amounts=AMOUNTS, p_accept=p_accept)  # type: ignore[arg-type]
    assert got is not None and sorted(calls) == AMOUNTS
    best = None
    for c in range(-200, 201, 10):
        if ua(c) > da:
            v = (ua(c) - da) * p_accept(c, ub(c) - db)
            if best is None or v > best[1] + 1e-15:
                best = (c, v)
    assert best is not None
    assert got.cash == best[0]
    assert got.product == pytest.approx(best[1], abs=1e-12)
    assert got.u_a == pytest.approx(ua(got.cash)) and got.u_b == pytest.approx(ub(got.cash))
    # a more demanding counterparty (steeper in its gain) is offered at least as much cash
    if slope == 80.0:
        soft = bargaining.play_cash(
            midgame, swap, A, B, RS, base=base, amounts=AMOUNTS, p_accept=lambda c, g: 1.0 / (1.0 + math.exp(-20.0 * g))  # type: ignore[arg-type]
        )
        assert soft is not None and soft.cash <= got.cash


def test_play_cash_none_when_the_proposer_never_gains(monkeypatch: pytest.MonkeyPatch, midgame: GameState, swap: Trade) -> None:
    monkeypatch.setattr(bargaining, "simulate", fake_simulate(midgame, lambda c: 0.2, lambda c: 0.5, []))
    base = SimpleNamespace(win_prob={A: 0.3, B: 0.2})
    assert bargaining.play_cash(midgame, swap, A, B, RS, base=base, amounts=AMOUNTS, p_accept=lambda c, g: 1.0) is None  # type: ignore[arg-type]


def test_play_cash_memo_reuses_simulations_and_changes_nothing(monkeypatch: pytest.MonkeyPatch, midgame: GameState, swap: Trade) -> None:
    """With a memo, a second pricing of the same structure simulates only the new amounts, and
    its answer equals the answer without the memo."""
    ua, ub = _play_curves()
    calls: list[int] = []
    monkeypatch.setattr(bargaining, "simulate", fake_simulate(midgame, ua, ub, calls))
    base = SimpleNamespace(win_prob={A: 0.30, B: 0.25})

    def accept(c: int, g: float) -> float:
        return 1.0 / (1.0 + math.exp(-40.0 * g))

    memo: dict[int, tuple[float, float]] = {}
    first = bargaining.play_cash(midgame, swap, A, B, RS, base=base, amounts=AMOUNTS, p_accept=accept, memo=memo)  # type: ignore[arg-type]
    assert first is not None and sorted(calls) == AMOUNTS and sorted(memo) == AMOUNTS
    calls.clear()
    later = [150, AMOUNTS[-1], 250]
    again = bargaining.play_cash(midgame, swap, A, B, RS, base=base, amounts=later, p_accept=accept, memo=memo)  # type: ignore[arg-type]
    assert sorted(calls) == [150, 250]  # the amount priced before is not simulated again
    plain = bargaining.play_cash(midgame, swap, A, B, RS, base=base, amounts=later, p_accept=accept)  # type: ignore[arg-type]
    assert again == plain
