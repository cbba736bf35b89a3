"""Batch solving (solver.batch, ``solve --batch``): each row is ``solve --json`` for its state,
the same for any number of workers; a killed run resumes without losing or repeating a row;
another run's file is refused; at most ``2 x workers`` states are read ahead of the answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.io import load_state, to_line
from solver.api import solve
from solver.batch import BatchError, BatchSettings, read_inputs, solve_many
from tests.solver.cli_helpers import run_cli

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
NAMES = ["opening.json", "near-ruin.json", "midgame-no-monopolies.json", "two-player.json"]
ST = BatchSettings(rollouts=24, seed=3)


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    d = tmp_path / "in"
    d.mkdir()
    for n in NAMES:
        (d / n).write_bytes((INSTANCES / n).read_bytes())
    (d / "bad.json").write_text('{"format": "monopoly-state/1", "board": "nowhere"}')
    return d


def _rows(path: Path) -> list[dict]:
    lines = path.read_text().splitlines()
    return [json.loads(x) for x in lines[1:]]


def test_each_row_is_solves_answer_and_workers_do_not_change_it(folder: Path, tmp_path: Path) -> None:
    one = list(solve_many(read_inputs(folder), ST, out=tmp_path / "a.jsonl", workers=1))
    two = list(solve_many(read_inputs(folder), ST, out=tmp_path / "b.jsonl", workers=2))
    assert [r["name"] for r in one] == sorted(NAMES + ["bad.json"])
    assert sorted(json.dumps(r, sort_keys=True) for r in one) == sorted(json.dumps(r, sort_keys=True) for r in two)
    for r in one:
        if r["name"] == "bad.json":
            assert set(r) == {"name", "error"} and "players" in r["error"]
            continue
        direct = solve(folder / r["name"], rollouts=ST.rollouts, seed=ST.seed).to_dict()
        assert {k: v for k, v in r.items() if k != "name"} == json.loads(json.dumps(direct))
    assert _rows(tmp_path / "a.jsonl") == one
    assert json.loads((tmp_path / "a.jsonl").read_text().splitlines()[0]) == ST.header()


def test_a_killed_run_resumes_without_losing_or_repeating(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    full = list(solve_many(read_inputs(folder), ST, out=out))
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])  # two rows kept, the third torn by a kill
    again = list(solve_many(read_inputs(folder), ST, out=out, resume=True))
    assert len(again) == len(full) - 2
    final = _rows(out)
    assert sorted(r["name"] for r in final) == sorted(r["name"] for r in full)
    assert sorted(json.dumps(r, sort_keys=True) for r in final) == sorted(json.dumps(r, sort_keys=True) for r in full)
    with pytest.raises(BatchError, match="not written by this batch"):
        list(solve_many(read_inputs(folder), BatchSettings(rollouts=25, seed=3), out=out, resume=True))


def test_input_lines_and_reading_ahead(tmp_path: Path) -> None:
    state = json.loads((INSTANCES / "opening.json").read_text())
    src = tmp_path / "states.jsonl"
    line = to_line(load_state(state))
    src.write_text(json.dumps(state) + "\n" + json.dumps({"name": "named", "state": state}) + "\n{nope\n\n" + line + "\n")
    rows = list(solve_many(read_inputs(src), ST))
    assert [r["name"] for r in rows] == ["states.jsonl:1", "named", "states.jsonl:3", "states.jsonl:5"]
    assert "not JSON" in rows[2]["error"] and rows[0]["decision"] == rows[1]["decision"]
    assert {k: v for k, v in rows[3].items() if k != "name"} == {k: v for k, v in rows[0].items() if k != "name"}  # a line: the same answer
    read = []

    def states():
        for k in range(12):
            read.append(k)
            yield f"s{k}", str(INSTANCES / "opening.json")

    it = solve_many(states(), BatchSettings(rollouts=8), workers=2)
    next(it)
    assert len(read) <= 5  # at most 2 x workers in flight, plus the one being read
    assert len(list(it)) == 11


def test_cli_batch(folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.jsonl"
    code, text, err = run_cli(capsys, "solve", "--batch", str(folder), "--out", str(out), "--rollouts", "24", "--seed", "3", "--workers", "2")
    assert code == 0, err
    assert "4 states solved, 1 refused" in text
    assert len(_rows(out)) == 5
    for argv, says in (
        (["solve", "--batch", str(folder), "--out", str(out)], "exists"),
        (["solve", str(INSTANCES / "opening.json"), "--batch", str(folder), "--out", "-"], "not also a STATE"),
        (["solve", "--batch", str(folder), "--out", "-", "--player", "Ann"], "--player"),
        (["solve", "--batch", str(tmp_path / "none"), "--out", str(tmp_path / "x.jsonl")], "neither a folder nor a file"),
        (["solve", "--batch", str(folder)], "needs --out"),
        (["solve", str(INSTANCES / "opening.json"), "--out", "x"], "only with --batch"),
    ):
        code, _, err = run_cli(capsys, *argv)
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1, (argv, err)
    code, text, _ = run_cli(capsys, "solve", "--batch", str(folder), "--out", "-", "--rollouts", "24", "--seed", "3")
    lines = text.splitlines()
    assert json.loads(lines[0])["header"] == "monopoly-solve-batch/1" and len(lines) == 6


def test_the_ray_backend_gives_the_rows_of_local_processes(folder: Path, tmp_path: Path) -> None:
    """On a local Ray instance (as ``ray start --head`` would give; joined through ray.init here)."""
    ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    try:
        on_ray = list(solve_many(read_inputs(folder), ST, out=tmp_path / "ray.jsonl", backend="ray"))
    finally:
        ray.shutdown()
    local = list(solve_many(read_inputs(folder), ST, workers=1))
    assert sorted(json.dumps(r, sort_keys=True) for r in on_ray) == sorted(json.dumps(r, sort_keys=True) for r in local)
    assert len(_rows(tmp_path / "ray.jsonl")) == len(local)
    with pytest.raises(BatchError, match="unknown backend"):
        list(solve_many(read_inputs(folder), ST, backend="spark"))
