"""The trade generator end to end: the ``trades`` command, top-K order,
determinism, the empty-set explanation and the relaxed search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.chains.markov import PositionChain
from models.io import load_state
from solver.trades.candidates import bilateral_candidates, run_funnel
from solver.trades.cpsat import Limits, generate_trades
from solver.trades.space import TradeSettings, TradeSpace, after_state
from solver.trades.values import FrontierValues, linear_values
from tests.solver.cli_helpers import run_cli

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
MID = INSTANCES / "midgame-no-monopolies.json"


def test_trades_json_shape_and_gains(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "trades", str(MID), "--json", "--cycles", "--value", "linear")
    assert code == 0
    doc = json.loads(out)
    assert set(doc) == {"schema", "rules", "trades", "value", "unit", "empty_reason", "relaxed", "truncated"}
    assert doc["unit"] == "dollars"
    assert doc["trades"] and doc["empty_reason"] is None and doc["relaxed"] is False and doc["truncated"] is False
    state = load_state(MID)
    me = state.players[state.to_move].name
    gains = [t["estimated_gain"][me] for t in doc["trades"]]
    assert gains == sorted(gains, reverse=True)  # ranked by the proposer's estimated gain
    for t in doc["trades"]:
        assert t["kind"] in ("bilateral", "cycle3")
        for leg in t["transfers"]:
            assert set(leg) <= {"from", "to", "properties", "cash", "jail_cards"}
        assert all(v >= 10 for n, v in t["estimated_gain"].items() if n != me)  # the counterparty's minimum gain


def test_estimated_gains_are_the_linear_values_recomputed(capsys: pytest.CaptureFixture[str]) -> None:
    """An independent recomputation of every listed gain: apply the trade, evaluate the
    linear estimate before and after."""
    state = load_state(MID)
    chain = PositionChain(state.board, state.rules, "long")
    result = generate_trades(state, state.to_move, settings=TradeSettings(value="linear", objective="proposer"), chain=chain)
    space = TradeSpace(state, state.to_move, TradeSettings())
    values = linear_values(space, chain)
    for g in result.trades:
        after = after_state(state, g.candidate)
        for i, gain in g.gains.items():
            assert gain == values(after, i) - values(state, i)


def test_top_k_is_repeatable_and_minimal() -> None:
    state = load_state(MID)
    runs = [generate_trades(state, 1, cycles=True, limits=Limits(top_k=20)) for _ in range(3)]
    lists = [[(g.candidate, g.gains) for g in r.trades] for r in runs]
    assert lists[0] == lists[1] == lists[2]
    sets = [g.candidate.move_set() for g in runs[0].trades]
    assert len(set(sets)) == len(sets)
    # the superset cut: no trade contains the moves of one listed before it (a later one may
    # be a subset of an earlier one: the same lots for cash instead of a sweetener lot)
    assert not any(sets[i] <= sets[j] for i in range(len(sets)) for j in range(i + 1, len(sets)))


def test_empty_set_is_explained_and_relaxed_search_flagged() -> None:
    state = load_state(INSTANCES / "late-game-house-shortage.json")
    strict = generate_trades(state, 1, reserves={i: 0 for i in state.active_players()})
    assert strict.empty_reason is not None and "rule 1" in strict.empty_reason
    # the explanation agrees with the explicit funnel on the same estimate
    space = TradeSpace(state, 1, TradeSettings(), {i: 0 for i in state.active_players()})
    assert run_funnel(space, linear_values(space)).emptied_by() == "completion"
    assert strict.relaxed == bool(strict.trades)
    for g in strict.trades:  # relaxed: a completion handed over only for at least $100
        assert any(a != 1 and amount >= 100 for a, _b, amount in g.candidate.cash) or any(
            b != 1 and amount >= 100 for _a, b, amount in g.candidate.cash
        )


def test_relaxed_only_search_equals_the_fallback_and_contains_the_strict_trades() -> None:
    """``relaxed=True`` (the agent's third search) gives the list that the explained fallback gives
    on a state where the strict rules leave nothing; where they leave trades, it keeps them all."""
    state = load_state(INSTANCES / "late-game-house-shortage.json")
    res = {i: 0 for i in state.active_players()}
    lin = TradeSettings(value="linear", objective="proposer")  # a state where the dollar estimate's relaxed search finds trades
    fallback = generate_trades(state, 1, settings=lin, reserves=res)
    direct = generate_trades(state, 1, settings=lin, reserves=res, relaxed=True)
    assert fallback.relaxed and direct.relaxed
    assert [(g.candidate, g.gains) for g in direct.trades] == [(g.candidate, g.gains) for g in fallback.trades]
    mid = load_state(MID)
    strict = generate_trades(mid, 1, limits=Limits(top_k=200))
    relaxed = generate_trades(mid, 1, limits=Limits(top_k=400), relaxed=True)
    assert not strict.truncated and not relaxed.truncated
    assert {g.candidate for g in strict.trades} <= {g.candidate for g in relaxed.trades}
    assert len(relaxed.trades) > len(strict.trades)


def test_no_partial_set_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "trades", str(INSTANCES / "opening.json"), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["trades"] == [] and "no partial set" in doc["empty_reason"]


def test_bad_player_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "trades", str(MID), "--player", "Nobody")
    assert code == 2 and "Nobody" in err


def test_frontier_values_agree_with_the_position_analysis() -> None:
    from solver.analysis.position import frontier_value

    state = load_state(MID)
    values = FrontierValues(state, TradeSettings())
    for i in state.active_players():
        assert values(state, i) == pytest.approx(frontier_value(state, i, horizon=20, reserve=150) + state.players[i].cash)


@pytest.mark.parametrize("name", ["midgame-no-monopolies", "cycle-orange-red-yellow", "cycle-four-bystander", "cycle-cash-flows"])
def test_presolve_off_finds_the_same_trades(name: str) -> None:
    """The default search runs CP-SAT without presolve and LP linearization (``Limits.presolve``,
    for speed); with both on, every proposer's top 20 bilateral trades and 3-cycles are the same
    trades with the same gains, in the same order of objective (ties may come in another order)."""
    state = load_state(INSTANCES / f"{name}.json")
    chain = PositionChain(state.board, state.rules, "long")
    found = 0
    for p in state.active_players():
        for cycles in (False, True):
            runs = [generate_trades(state, p, cycles=cycles, chain=chain, limits=Limits(top_k=20, presolve=flag)) for flag in (False, True)]
            fast, slow = ([(g.candidate, tuple(sorted(g.gains.items()))) for g in r.trades] for r in runs)
            assert sorted(fast, key=repr) == sorted(slow, key=repr), (p, cycles)
            objective = [[g.gains[p] for g in r.trades] for r in runs]
            assert objective[0] == objective[1]
            assert all(g.optimal for r in runs for g in r.trades)
            found += len(fast)
    assert found > 0


def test_a_heavy_tailed_solve_is_solved_again_presolved(monkeypatch: pytest.MonkeyPatch) -> None:
    """A position met by the ``adversary`` in play (seed 0, game 2) whose relaxed model took
    CP-SAT 19,625 conflicts (23 s) without presolve: the conflict cap stops that solve and the
    presolved one gives the list the presolved search (the second method) gives, trade for
    trade and gain for gain."""
    import solver.trades.cpsat as cpsat

    state = load_state(Path(__file__).parent / "data" / "relaxed-heavy-tail.json")
    zero = {q: 0 for q in range(len(state.players))}
    seen: list[tuple[bool, int]] = []
    real = cpsat._solver

    class Counting:
        def __init__(self, solver: object, presolved: bool) -> None:
            self.solver, self.presolved = solver, presolved

        def solve(self, model: object) -> object:
            status = self.solver.solve(model)  # type: ignore[attr-defined]
            seen.append((self.presolved, self.solver.num_conflicts))  # type: ignore[attr-defined]
            return status

        def __getattr__(self, name: str) -> object:
            return getattr(self.solver, name)

    monkeypatch.setattr(cpsat, "_solver", lambda limits, left, presolve=False: Counting(real(limits, left, presolve), presolve or limits.presolve))
    runs = [generate_trades(state, 2, limits=Limits(top_k=6, presolve=flag), relaxed=True, explain=False, reserves=zero) for flag in (False, True)]
    default, presolved = ([(g.candidate, tuple(sorted(g.gains.items()))) for g in r.trades] for r in runs)
    assert default == presolved and len(default) == 6
    assert not runs[0].truncated and all(g.optimal for g in runs[0].trades)
    unpresolved = [c for flag, c in seen if not flag]
    capped = sum(c >= Limits().conflicts for c in unpresolved)  # CP-SAT stops a few conflicts past the cap
    assert capped > 0 and max(unpresolved) < 2 * Limits().conflicts  # the cap stopped solves ...
    assert sum(flag for flag, _ in seen) == 6 + capped  # ... each solved again presolved


@pytest.mark.parametrize("name", ["mortgaged", "midgame-no-monopolies", "cycle-mortgaged-piece"])
def test_after_state_is_the_validated_trade_where_it_is_valid(name: str) -> None:
    """``after_state`` (unchecked) and ``Trade.apply`` (checked) move a trade the same way
    (``models.trade.apply_moves``), mortgaged lots included; where the check refuses a
    candidate, it is one a payer cannot afford, which the funnel must still see (rule 4)."""
    from models.errors import InvalidTradeError
    from solver.trades.candidates import cycle_candidates

    state = load_state(INSTANCES / f"{name}.json")
    snapshot = state.copy()
    seen = refused = mortgaged = 0
    for p in state.active_players():
        space = TradeSpace(state, p)
        for cand in [*bilateral_candidates(space), *cycle_candidates(space)]:
            after = after_state(state, cand)
            checked = state.copy()
            try:
                cand.to_trade(state).apply(checked)
            except InvalidTradeError:
                refused += 1
                assert any(after.players[i].cash < 0 for i in cand.players)
                continue
            seen += 1
            mortgaged += any(state.mortgaged[sq] for sq, _, _ in cand.moves)
            assert after == checked
    assert state == snapshot
    assert seen > 0 and (mortgaged > 0 or name == "midgame-no-monopolies")


def test_cycle_only_search_returns_only_cycles_and_agrees_with_the_mixed_search() -> None:
    """``bilateral=False``: every top-K slot is a 3-cycle, and the cycles are those of the
    mixed search (the best cycles of the mixed list, in the same order, are a prefix)."""
    state = load_state(INSTANCES / "cycle-brown-pair.json")
    lin = TradeSettings(value="linear", objective="proposer")
    mixed = generate_trades(state, state.to_move, settings=lin, cycles=True, limits=Limits(top_k=20))
    only = generate_trades(state, state.to_move, settings=lin, cycles=True, bilateral=False, limits=Limits(top_k=20))
    assert only.trades and all(g.candidate.kind == "cycle3" for g in only.trades)
    mixed_cycles = [g.candidate for g in mixed.trades if g.candidate.kind == "cycle3"]
    assert [g.candidate for g in only.trades][: len(mixed_cycles)] == mixed_cycles
    space = TradeSpace(state, state.to_move, TradeSettings(), {i: 0 for i in state.active_players()})
    kinds = {e.candidate.kind for e in run_funnel(space, linear_values(space), cycles=True, bilateral=False).passed_rules_1_4}
    assert kinds == {"cycle3"}
    with pytest.raises(ValueError, match="neither"):
        generate_trades(state, state.to_move, bilateral=False)
