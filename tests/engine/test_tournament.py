"""Tournaments: seeding by game, seat rotation, worker independence, crash-safe resume."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from engine.tournament import (
    RESULTS_FORMAT,
    ResumeError,
    read_results,
    run_tournament,
    seating,
    wilson,
)
from solver.agents.registry import parse_agents
from solver.cli import main

SPECS = parse_agents("strategic,random:p_stop=0.7,strategic:reserve=300")
FACTORIES = [make for _, make in SPECS]
LABELS = [spec for spec, _ in SPECS]


def test_wilson_interval_matches_published_values() -> None:
    # Wilson (1927) score interval at 95%: 5/10 -> [0.2366, 0.7634], 0/10 -> [0, 0.2775]
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)


def test_seating_rotates_every_agent_through_every_seat() -> None:
    seats = [seating(g, 3) for g in range(3)]
    assert seats == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    for k in range(3):
        assert sorted(s[k] for s in seats) == [0, 1, 2]


def test_same_results_for_one_or_two_workers(tmp_path: Path) -> None:
    a = run_tournament(FACTORIES, LABELS, 9, 4, workers=1, max_rounds=120, out=tmp_path / "a.jsonl")
    b = run_tournament(FACTORIES, LABELS, 9, 4, workers=2, max_rounds=120, out=tmp_path / "b.jsonl")
    assert a.rows == b.rows
    assert sorted((tmp_path / "a.jsonl").read_text().splitlines()) == sorted((tmp_path / "b.jsonl").read_text().splitlines())
    assert sum(s.wins for s in a.standings) + a.draws == 9


def test_resume_after_a_kill_gives_the_uninterrupted_result(tmp_path: Path) -> None:
    full = run_tournament(FACTORIES, LABELS, 8, 11, max_rounds=100, out=tmp_path / "full.jsonl")
    # a run killed after 3 games, mid-way through writing the 4th line (line 0 is the header)
    lines = (tmp_path / "full.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["header"] == RESULTS_FORMAT
    partial = tmp_path / "partial.jsonl"
    partial.write_text("\n".join(lines[:4]) + "\n" + lines[4][: len(lines[4]) // 2])
    played: list[int] = []
    resumed = run_tournament(
        FACTORIES, LABELS, 8, 11, max_rounds=100, out=partial, resume=True, progress=lambda done, total, row: played.append(done)
    )
    assert resumed.rows == full.rows
    assert len(played) == 5  # only the missing games were played
    rows = [json.loads(line) for line in partial.read_text().splitlines()[1:]]
    assert sorted(r["game"] for r in rows) == list(range(8))  # nothing lost, nothing twice


def test_resume_refuses_files_that_are_not_its_own(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    run_tournament(FACTORIES, LABELS, 4, 11, max_rounds=60, out=out)
    before = out.read_bytes()
    for kwargs, needle in (
        ({"seed": 12}, "seed"),
        ({"max_rounds": 61}, "max_rounds"),
        ({"labels": tuple(reversed(LABELS))}, "agents"),
        ({"games": 2}, "beyond --games 2"),
    ):
        args = {"labels": LABELS, "games": 4, "seed": 11, "max_rounds": 60, **kwargs}
        with pytest.raises(ResumeError, match=needle) as err:
            run_tournament(FACTORIES, args["labels"], args["games"], args["seed"], max_rounds=args["max_rounds"], out=out, resume=True)
        assert "\n" not in str(err.value)
        assert out.read_bytes() == before  # nothing rewritten, nothing deleted
    # A file without a header (another program's) is refused too; an empty one is a fresh start.
    headerless = tmp_path / "old.jsonl"
    headerless.write_text("\n".join(before.decode().splitlines()[1:]) + "\n")
    with pytest.raises(ResumeError, match="no header"):
        run_tournament(FACTORIES, LABELS, 4, 11, max_rounds=60, out=headerless, resume=True)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert len(run_tournament(FACTORIES, LABELS, 2, 11, max_rounds=60, out=empty, resume=True).rows) == 2


def test_bad_lines_are_dropped_and_counted(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    run_tournament(FACTORIES, LABELS, 3, 5, max_rounds=60, out=out)
    lines = out.read_bytes().splitlines()
    out.write_bytes(b"\n".join([lines[0], b"[1, 2]", b"\xff\xfe not utf-8", b'{"game": true}', b'{"game": -1}', *lines[1:]]) + b"\n")
    found = read_results(out)
    assert found.header is not None and sorted(found.rows) == [0, 1, 2] and found.dropped == 4
    resumed = run_tournament(FACTORIES, LABELS, 4, 5, max_rounds=60, out=out, resume=True)
    assert sorted(r["game"] for r in resumed.rows) == [0, 1, 2, 3]
    assert read_results(out).dropped == 0  # rewritten without them


def test_play_replays_a_tournament_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_tournament(FACTORIES, LABELS, 4, 6, max_rounds=150)
    row = result.rows[2]
    assert main(["play", "--agents", ",".join(LABELS), "--seed", "6", "--game", "2", "--max-rounds", "150", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["turns"] == row["turns"] and played["rounds"] == row["rounds"]
    assert list(played["agents"].values()) == row["seats"]
    winner = None if played["winner"] is None else played["agents"][played["winner"]]
    assert winner == row["winner"]


def test_tournament_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "r.jsonl"
    args = ["tournament", "--agents", "strategic,random", "--games", "6", "--seed", "2", "--max-rounds", "100", "--out", str(out), "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["games"] == 6 and {s["agent"] for s in first["standings"]} == {"strategic", "random"}
    assert main([*args, "--resume"]) == 0  # nothing left to play: same table
    assert json.loads(capsys.readouterr().out) == first
    # an existing results file is never overwritten without --force; the refusal says how to resume
    kept = out.read_bytes()
    assert main(["tournament", "--agents", "strategic,random", "--games", "3", "--seed", "2", "--max-rounds", "100", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "exists" in err and "--resume" in err and "--force" in err and len(err.strip().splitlines()) == 1
    assert out.read_bytes() == kept
    assert main([*args, "--resume", "--force"]) == 2 and "choose one" in capsys.readouterr().err
    assert main(["tournament", "--agents", "strategic,random", "--games", "3", "--seed", "2", "--max-rounds", "100", "--out", str(out), "--force", "--json"]) == 0
    capsys.readouterr()
    assert sum(1 for line in out.read_text().splitlines() if '"game"' in line) == 3  # overwritten, as asked
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the ray extra were not installed
    assert main(["tournament", "--agents", "strategic,random", "--games", "2", "--backend", "ray"]) == 2
    assert "monopoly-trade[ray]" in capsys.readouterr().err
    assert main(["tournament", "--agents", "strategic,random", "--games", "2", "--resume"]) == 2


def test_tournament_under_other_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--rules``: every game under them (each row is ``play --rules`` of that game, an independent
    path), the header names them, and a resume under other rules is refused in one line."""
    out = tmp_path / "jackpot.jsonl"
    args = ["tournament", "--agents", "strategic,random", "--games", "4", "--seed", "3", "--max-rounds", "80", "--out", str(out), "--json"]
    assert main([*args, "--rules", "house-jackpot"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["rules"]["name"] == "house-jackpot" and summary["games"] == 4
    header = read_results(out).header
    assert header is not None and header["rules"]["overrides"]["auctions"] is False
    rows = read_results(out).rows
    for g in range(4):
        assert main(["play", "--agents", "strategic,random", "--seed", "3", "--game", str(g), "--max-rounds", "80", "--rules", "house-jackpot", "--json"]) == 0
        played = json.loads(capsys.readouterr().out)
        assert (played["turns"], played["rounds"]) == (rows[g]["turns"], rows[g]["rounds"])
    standard = run_tournament([make for _, make in parse_agents("strategic,random")], ["strategic", "random"], 4, 3, max_rounds=80)
    assert [(r["turns"], r["rounds"]) for r in standard.rows] != [(rows[g]["turns"], rows[g]["rounds"]) for g in range(4)]
    kept = out.read_bytes()
    assert main([*args, "--resume"]) == 2  # the standard rules now: not this file's run
    err = capsys.readouterr().err
    assert "house-jackpot" in err and "standard-us" in err and len(err.strip().splitlines()) == 1
    assert out.read_bytes() == kept
    assert main([*args, "--rules", "house-jackpot", "--resume"]) == 0  # the same rules: complete
    assert json.loads(capsys.readouterr().out) == summary
    assert main(["tournament", "--agents", "strategic,random", "--games", "1", "--rules", "no-such-rules"]) == 2
    assert "--rules" in capsys.readouterr().err
