"""Seed 000, Test 4: states where no bilateral trade helps but a 3-way cycle does.

Each ``instances/cycle-*.json`` (described in ``instances/README.md``) is a
mid-game state in which, for the player to move:

1. the bilateral search (CP-SAT, default reserves, under the linear
   horizon-rent estimate the instances were built for: ``value="linear"``)
   finds no strict trade;
2. with cycles, it finds a strict ``cycle3`` trade whose properties move
   around a directed cycle through three players, and applying it gives each
   of the three a colour group it did not hold complete before;
3. the explicit enumerator agrees: among the candidates that pass rules 1-4
   there is a ``cycle3`` and no ``bilateral``, and the CP-SAT cycles are
   among them.

With the default fitted value, the README's claim is checked too: the
cycle-only search returns a strict cycle on exactly the three instances it
names, and nothing on the other four. What the simulation makes of each
instance is reported in ``instances/README.md`` (``bench/instance_outcomes.py``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from engine.chains.markov import PositionChain
from models.io import load_state
from models.state import GameState
from solver.analysis.reserve import reserves as ruin_reserves
from solver.trades.candidates import Funnel, run_funnel
from solver.trades.cpsat import GeneratedTrade, TradeList, generate_trades
from solver.trades.space import TradeSettings, TradeSpace
from solver.trades.values import linear_values

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
CYCLE_FILES = sorted(INSTANCES.glob("cycle-*.json"))
IDS = [p.name for p in CYCLE_FILES]


@cache
def _state(name: str) -> GameState:
    return load_state(INSTANCES / name)


@cache
def _search(name: str, cycles: bool) -> TradeList:
    state = _state(name)
    return generate_trades(state, state.to_move, settings=TradeSettings(value="linear", objective="proposer"), cycles=cycles)


@cache
def _funnel(name: str) -> Funnel:
    state = _state(name)
    settings = TradeSettings()
    chain = PositionChain(state.board, state.rules, "long")
    reserves = ruin_reserves(state, None, epsilon=settings.reserve_epsilon, chain=chain)
    space = TradeSpace(state, state.to_move, settings, reserves)
    return run_funnel(space, linear_values(space, chain), cycles=True)


def _cycles(name: str) -> list[GeneratedTrade]:
    found = _search(name, True)
    assert not found.relaxed, f"{name}: only relaxed trades ({found.empty_reason})"
    return [t for t in found.trades if t.candidate.kind == "cycle3"]


def test_at_least_five_cycle_instances() -> None:
    assert len(CYCLE_FILES) >= 5, IDS


@pytest.mark.parametrize("name", IDS)
def test_no_strict_bilateral_trade(name: str) -> None:
    found = _search(name, False)
    assert not found.truncated
    assert found.trades == [] or found.relaxed, [t.candidate for t in found.trades]
    assert all(t.candidate.kind == "bilateral" for t in found.trades)


@pytest.mark.parametrize("name", IDS)
def test_strict_cycle_completes_a_set_for_each_participant(name: str) -> None:
    state = _state(name)
    proposer = state.to_move
    cycles = _cycles(name)
    assert cycles, f"{name}: no cycle3 trade"
    for gt in cycles:
        cand = gt.candidate
        a, b, c = cand.players
        assert a == proposer and len({a, b, c}) == 3
        # the properties go round P -> B -> C -> P, at least one on each arc
        arcs = {(frm, to) for _, frm, to in cand.moves}
        assert arcs == {(a, b), (b, c), (c, a)}, cand
        trade = cand.to_trade(state)
        names = {state.players[i].name for i in (a, b, c)}
        assert set(trade.participants()) == names
        prop_arcs = {(t.frm, t.to) for t in trade.transfers if t.properties}
        na, nb, nc = (state.players[i].name for i in (a, b, c))
        assert prop_arcs == {(na, nb), (nb, nc), (nc, na)}
        assert all(t.properties or t.cash > 0 for t in trade.transfers)
    # the best cycle completes a colour group for all three
    best = cycles[0].candidate
    after = state.copy()
    best.to_trade(state).apply(after)
    for i in best.players:
        new = [
            g
            for g in state.board.street_groups
            if after.has_monopoly(i, g) and not state.has_monopoly(i, g)
        ]
        assert new, f"{name}: {state.players[i].name} completes nothing with {best}"


@pytest.mark.parametrize("name", IDS)
def test_explicit_enumerator_agrees(name: str) -> None:
    funnel = _funnel(name)
    kinds = {e.candidate.kind for e in funnel.passed_rules_1_4}
    assert "cycle3" in kinds, funnel.stages()
    assert "bilateral" not in kinds, funnel.stages()
    passed = {e.candidate for e in funnel.passed_rules_1_4}
    for gt in _cycles(name):
        assert gt.candidate in passed, gt.candidate


FITTED_FINDS_A_CYCLE = {"cycle-four-bystander.json", "cycle-mortgaged-piece.json", "cycle-orange-red-yellow.json"}
"""The instances on which instances/README.md says the default (fitted) cycle search finds a strict cycle."""


def test_fitted_cycle_search_finds_what_the_readme_says() -> None:
    readme = (INSTANCES / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("**With the fitted value**") :].split("\n\n")[0]
    assert {n for n in IDS if f"`{n}`" in section} == FITTED_FINDS_A_CYCLE
    for name in IDS:
        state = _state(name)
        found = generate_trades(state, state.to_move, cycles=True, bilateral=False, explain=False)
        assert not found.relaxed and all(t.candidate.kind == "cycle3" for t in found.trades)
        assert bool(found.trades) == (name in FITTED_FINDS_A_CYCLE), name


def test_readme_tables_are_what_the_bench_prints() -> None:
    """instances/README.md's per-instance tables are ``bench/instance_outcomes.py --rollouts 4000
    --seed 1``'s output (its headings one level down), so the claims cannot drift from the code."""
    import subprocess
    import sys

    root = INSTANCES.parent
    out = subprocess.run(
        [sys.executable, str(root / "bench" / "instance_outcomes.py"), "--rollouts", "4000", "--seed", "1"],
        capture_output=True, text=True, check=True, cwd=root, timeout=600,
    ).stdout
    printed = out[out.index("### `midgame") :].rstrip().rsplit("\n\n", 1)[0].replace("### `", "#### `")
    readme = (INSTANCES / "README.md").read_text(encoding="utf-8")
    shown = readme[readme.index("#### `midgame") :].rstrip()
    assert shown == printed
