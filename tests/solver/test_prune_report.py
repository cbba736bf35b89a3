"""The pruning-validation report (seed 000, Test 3): rows, an independent recount, summary, files, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.chains.markov import PositionChain
from engine.rules.actions import Event
from engine.rules.game import Game
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from models.io import load_state, state_to_dict
from models.state import GameState
from solver.agents.strategic import StrategicTradeAgent
from solver.analysis.position import frontier_value
from solver.analysis.reserve import reserves
from solver.trades import prune_report as report
from solver.trades.candidates import bilateral_candidates
from solver.trades.prune_report import (
    STAGES,
    funnel_rows,
    sample_game_states,
    summarize,
    write_report,
)
from solver.trades.rules import evaluate
from solver.trades.space import TradeSettings, TradeSpace, after_state
from solver.trades.values import FrontierValues
from tests.solver.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances"
NAMES = ("midgame-no-monopolies.json", "near-ruin.json", "mortgaged.json", "cycle-four-reserve.json")


@pytest.fixture(scope="module")
def states() -> list[tuple[str, GameState]]:
    return [(name, load_state(INSTANCES / name)) for name in NAMES]


@pytest.fixture(scope="module")
def rows(states: list[tuple[str, GameState]]) -> list[dict[str, Any]]:
    return funnel_rows(states)


def test_one_row_per_active_proposer(states: list[tuple[str, GameState]], rows: list[dict[str, Any]]) -> None:
    expected = [(label, s.players[p].name) for label, s in states for p in s.active_players()]
    assert [(r["label"], r["proposer"]) for r in rows] == expected


def test_survivors_never_increase(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        counts = [r["stages"][k] for k in STAGES]
        assert counts == sorted(counts, reverse=True), r
        assert r["raw"] == counts[0] == sum(r["per_opponent_raw"].values())  # bilateral: one opponent each
        assert r["final"] == counts[-1]
        assert r["many"] == (r["final"] > 100)
        assert r["none"] == (r["final"] == 0)
        if r["emptied_by"] is not None:
            assert r["stages"][r["emptied_by"]] == 0 and r["raw"] > 0
    assert any(r["final"] > 0 for r in rows) and any(r["none"] and r["raw"] > 0 for r in rows)


def _dominated(e: tuple[Any, dict[int, float]], others: list[tuple[Any, dict[int, float]]]) -> bool:
    cand, gains = e
    for o_cand, o_gains in others:
        if o_cand is cand or o_cand.players != cand.players:
            continue
        if all(o_gains[i] >= gains[i] for i in gains) and any(o_gains[i] > gains[i] for i in gains):
            return True
    return False


@pytest.mark.parametrize(
    ("name", "proposer", "bites"), [("midgame-no-monopolies.json", 0, "domination"), ("cycle-four-reserve.json", 0, "cash")]
)
def test_independent_recount(rows: list[dict[str, Any]], name: str, proposer: int, bites: str) -> None:
    """Stage counts recomputed from the candidates, plain FrontierValues and eager reserves."""
    s = load_state(INSTANCES / name)
    st = TradeSettings()
    chain = PositionChain(s.board, s.rules, "long")
    space = TradeSpace(s, proposer, st, reserves(s, epsilon=st.reserve_epsilon, chain=chain))
    values = FrontierValues(s, st, chain)
    base = {i: values(s, i) for i in space.participants}
    cands = list(bilateral_candidates(space))
    failed = [evaluate(space, c, values, base) for c in cands]
    count = {"raw": len(cands)}
    for k, rule in enumerate(("completion", "proposer", "counterparty", "cash")):
        count[rule] = sum(1 for e in failed if e.failed not in ("completion", "proposer", "counterparty", "cash")[: k + 1])
    passed = [(e.candidate, e.gains) for e in failed if e.failed is None]
    count["domination"] = sum(1 for e in passed if not _dominated(e, passed))
    per_opp: dict[str, int] = {}
    for c in cands:
        per_opp[s.players[c.players[1]].name] = per_opp.get(s.players[c.players[1]].name, 0) + 1
    (row,) = [r for r in rows if r["label"] == name and r["proposer"] == s.players[proposer].name]
    assert row["stages"] == count
    assert {k: v for k, v in row["per_opponent_raw"].items() if v} == per_opp
    before = STAGES[STAGES.index(bites) - 1]
    assert count[before] > count[bites]  # the rule named removes something here


def test_cached_values_equal_frontier_value() -> None:
    """FrontierValues (a frontier shared by every cash amount) gives frontier_value + cash
    exactly, recomputed from scratch on every after-state."""
    st = TradeSettings()
    for name in ("mortgaged.json", "midgame-no-monopolies.json"):
        s = load_state(INSTANCES / name)
        chain = PositionChain(s.board, s.rules, "long")
        cached = FrontierValues(s, st, chain)
        for p in s.active_players()[:2]:
            for k, c in enumerate(bilateral_candidates(TradeSpace(s, p, st))):
                if k % 3:
                    continue
                after = after_state(s, c)
                for q in c.players:
                    direct = frontier_value(after, q, horizon=st.horizon, reserve=st.value_reserve, chain=chain)
                    assert cached(after, q) == direct + after.players[q].cash


def test_summary_matches_numpy(rows: list[dict[str, Any]]) -> None:
    summary = summarize(rows)
    assert summary["rows"] == len(rows) and summary["states"] == len(NAMES)
    for k in STAGES:
        a = np.array([r["stages"][k] for r in rows], dtype=float)
        assert summary["stages"][k]["median"] == float(np.percentile(a, 50)) == float(np.median(a))
        assert summary["stages"][k]["p90"] == float(np.percentile(a, 90))
    pairs = [v for r in rows for v in r["per_opponent_raw"].values()]
    assert summary["raw_per_opponent"]["median"] == float(np.percentile([v for v in pairs if v > 0], 50))
    assert summary["raw_per_opponent_all"]["p90"] == float(np.percentile(pairs, 90))
    assert summary["final_survivors"]["p90"] == float(np.percentile([r["final"] for r in rows], 90))
    assert summary["flagged"]["none"] == sum(r["none"] for r in rows)
    assert summary["flagged"]["many"] == sum(r["many"] for r in rows)
    assert sum(summary["emptied_by"].values()) == summary["flagged"]["none_with_raw"]
    assert "linear" in summary["percentile_method"]


def test_write_report(tmp_path: Path, rows: list[dict[str, Any]]) -> None:
    out = tmp_path / "rep"
    meta = report.default_meta(seed=None, sampling="the three test instances.", timing={"funnel_s": 1.0})
    paths = write_report(rows, summarize(rows), out, meta=meta)
    assert sorted(p.name for p in out.iterdir()) == ["funnel.png", "report.json", "report.md"]  # no temporary left
    doc = json.loads(paths["json"].read_text())
    assert set(doc) == {"meta", "summary", "rows"}
    assert {"version", "settings", "sampling", "timing", "seed"} <= set(doc["meta"])
    assert doc["meta"]["settings"]["cash_grid"] == list(TradeSettings().cash_grid)
    assert doc["rows"] == json.loads(json.dumps(rows))
    assert set(doc["summary"]["stages"]) == set(STAGES)
    text = paths["md"].read_text()
    assert "100-200" in text and "5-20" in text and "whatever it is" in text
    assert "| completion |" in text and "linear" in text
    assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_missing_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def no_plot() -> None:
        raise report.PlotUnavailableError("the funnel plot needs matplotlib: pip install 'monopoly-trade[plot]'")

    monkeypatch.setattr(report, "_pyplot", no_plot)
    out = tmp_path / "rep"
    code, stdout, err = run_cli(capsys, "prune-report", str(INSTANCES / NAMES[0]), "--out", str(out))
    assert (code, stdout) == (2, "") and "plot" in err and err.count("\n") == 1
    assert not out.exists()


def test_sampled_states_are_the_games_states() -> None:
    """Game 0 of seed 0, replayed with an observer on "turn" events: the same states at rounds 10 and 20."""
    info: dict[str, Any] = {}
    got = sample_game_states(1, 0, max_rounds=25, info=info)
    assert [label for label, _ in got] == ["game 0 round 10", "game 0 round 20"]
    assert info == {"games_played": 1, "states_per_game": [2]}
    stream_seed, seat_seeds = game_seeds(game_seed_sequence(0, 0), 4)
    seen: dict[int, dict[str, Any]] = {}

    def observe(event: Event, game: Game) -> None:
        if event.kind == "turn" and game.state.round not in seen:
            seen[game.state.round] = state_to_dict(game.state)

    agents = [StrategicTradeAgent(s) for s in seat_seeds]
    Game(GameState.new_game(["P1", "P2", "P3", "P4"]), agents, SeededStream(stream_seed), max_rounds=25, observers=[observe]).play()
    assert [state_to_dict(s) for _, s in got] == [seen[10], seen[20]]
    # the cap on states stops the sampling
    assert len(sample_game_states(3, 0, max_states=3, max_rounds=40)) == 3


def test_cli_from_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games"
    argv = ("prune-report", "--from-games", "2", "--seed", "0", "--max-rounds", "35", "--out", str(out))
    code, stdout, err = run_cli(capsys, *argv)
    assert (code, err) == (0, "")
    assert "raw per opponent" in stdout and "every 10th round" in stdout and "domination" in stdout
    doc = json.loads((out / "report.json").read_text())
    meta = doc["meta"]
    assert meta["seed"] == 0 and meta["games"]["played"] == 2 and meta["games"]["states_per_game"] == [3, 3]
    assert {r["label"] for r in doc["rows"]} == {f"game {g} round {r}" for g in (0, 1) for r in (10, 20, 30)}
    assert "every 10th round" in meta["sampling"] and "at most 500" in meta["sampling"]
    assert "every 10th round" in (out / "report.md").read_text()
    code, stdout2, _ = run_cli(capsys, *argv, "--json")
    assert code == 0 and json.loads(stdout2)["summary"] == doc["summary"]


def test_cli_state_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "files"
    code, stdout, err = run_cli(capsys, "prune-report", *(str(INSTANCES / n) for n in NAMES[:2]), "--out", str(out))
    assert (code, err) == (0, "")
    assert stdout.startswith("prune-report: 2 states")
    assert json.loads((out / "report.json").read_text())["meta"]["state_files"] == [str(INSTANCES / n) for n in NAMES[:2]]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        ((), "STATE files or --from-games"),
        (("no-such-file.json",), "no-such-file.json"),
        (("--from-games", "0"), "--from-games"),
        (("--from-games", "2", "--seed", "-1"), "--seed"),
    ],
)
def test_cli_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], needle: str) -> None:
    out = tmp_path / "bad"
    code, stdout, err = run_cli(capsys, "prune-report", *argv, "--out", str(out))
    assert (code, stdout) == (2, "")
    assert needle in err and err.count("\n") == 1
    assert not out.exists()


def test_cli_out_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "plain"
    target.write_text("x")
    code, _, err = run_cli(capsys, "prune-report", str(INSTANCES / NAMES[0]), "--out", str(target))
    assert code == 2 and "not a folder" in err
    code, _, err = run_cli(capsys, "prune-report", str(INSTANCES / NAMES[0]))
    assert code == 2 and "--out" in err
