"""The results files kept in ``bench/runs/`` are whole, documented, and still the games the code plays.

A head-to-head of 2,000 games takes longer than a session on this project's
machine, and a session's scratch files do not outlive it, so a run that must
go on in the next session is committed there and resumed with ``--resume``
(docs/benchmarks.md, "Runs kept in the repository"). Each file must:

- carry a results header (``engine.tournament.results``) and no line that is
  not a game, within a size bound (a few hundred bytes a game);
- be named in docs/benchmarks.md, which gives the command that continues it;
- replay: its shortest game, played again by ``engine.tournament.run.play_one``
  with the header's agents, seed, round cap and rules, gives the same row. A
  change of play makes this fail, and the run must then start in a new file
  rather than mix two agents' games under one name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.tournament.results import read_results
from engine.tournament.run import play_one
from models.rules import Rules
from solver.agents.registry import factory

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "bench" / "runs"
FILES = sorted(RUNS.glob("*.jsonl"))
MAX_BYTES = 2_000_000
"""A bound on one kept file (about 10,000 games of a tournament)."""


def test_there_is_a_kept_run() -> None:
    assert FILES, "bench/runs/ holds no results file"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_kept_run_is_whole_and_documented(path: Path) -> None:
    assert path.stat().st_size <= MAX_BYTES, f"{path.name}: larger than {MAX_BYTES} bytes"
    found = read_results(path)
    assert found.header is not None and found.header["kind"] == "tournament", f"{path.name}: no tournament header"
    assert found.dropped == 0, f"{path.name}: {found.dropped} line(s) that are not a game"
    assert found.rows, f"{path.name}: no game"
    seats = len(found.header["agents"])
    for g, row in found.rows.items():
        assert row["game"] == g and len(row["seats"]) == seats
        assert row["winner"] is None or row["winner"] in found.header["agents"]
    doc = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert f"bench/runs/{path.name}" in doc, f"{path.name} is not named in docs/benchmarks.md"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_kept_run_replays(path: Path) -> None:
    found = read_results(path)
    assert found.header is not None
    header = found.header
    rules = Rules(**header["rules"]["overrides"]) if "rules" in header else None
    # the shortest game is the cheapest to replay; ties go to the lower game number
    g = min(found.rows, key=lambda k: (found.rows[k]["turns"], k))
    agents = header["agents"]
    row = play_one([factory(s) for s in agents], agents, header["seed"], g, header["max_rounds"], rules)
    assert row == found.rows[g], f"{path.name}: game {g} no longer plays as recorded; start the run in a new file"
