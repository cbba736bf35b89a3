"""The Ray backend of tournaments: the same rows as local processes, streamed, resumable."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray")

from engine.tournament import run_tournament
from models.rules import preset
from solver.agents.registry import parse_agents
from tests.solver.cli_helpers import run_cli

SPECS = parse_agents("random,random,random,random")
FACTORIES = [make for _, make in SPECS]
LABELS = [spec for spec, _ in SPECS]
GAMES, SEED, ROUNDS = 12, 5, 60


@pytest.fixture(scope="module", autouse=True)
def ray_instance() -> Iterator[None]:
    """One local Ray instance for the module (run_tournament joins it and leaves it running)."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    yield
    ray.shutdown()


def _run(tmp_path: Path, name: str, **kw: Any) -> tuple[Any, list[str]]:
    out = tmp_path / name
    result = run_tournament(FACTORIES, LABELS, GAMES, SEED, max_rounds=ROUNDS, out=out, **kw)
    return result, sorted(out.read_text().splitlines())


def test_ray_gives_the_rows_and_standings_of_local_processes(tmp_path: Path) -> None:
    serial, serial_lines = _run(tmp_path, "serial.jsonl", workers=1)
    pool, pool_lines = _run(tmp_path, "pool.jsonl", workers=2)
    on_ray, ray_lines = _run(tmp_path, "ray.jsonl", workers=2, backend="ray")
    assert serial.rows == pool.rows == on_ray.rows
    assert serial.standings == pool.standings == on_ray.standings and serial.draws == on_ray.draws
    assert serial_lines == pool_lines == ray_lines and len(ray_lines) == GAMES + 1  # the header and one line per game
    assert ray.is_initialized()  # a run that joined an instance leaves it running
    # under other rules too (the rules travel with each game to the Ray workers)
    jackpot = preset("house-jackpot")
    local_j, local_lines = _run(tmp_path, "local-j.jsonl", workers=1, rules=jackpot)
    ray_j, ray_j_lines = _run(tmp_path, "ray-j.jsonl", workers=2, backend="ray", rules=jackpot)
    assert local_j.rows == ray_j.rows != serial.rows and local_lines == ray_j_lines


def test_ray_resume_after_a_kill_gives_the_uninterrupted_result(tmp_path: Path) -> None:
    full, _ = _run(tmp_path, "full.jsonl", workers=2, backend="ray")
    lines = (tmp_path / "full.jsonl").read_text().splitlines()
    partial = tmp_path / "partial.jsonl"
    partial.write_text("\n".join(lines[:6]) + "\n" + lines[6][: len(lines[6]) // 2])  # header, 5 games, killed mid-line
    played: list[int] = []
    resumed = run_tournament(
        FACTORIES,
        LABELS,
        GAMES,
        SEED,
        workers=2,
        max_rounds=ROUNDS,
        out=partial,
        resume=True,
        backend="ray",
        progress=lambda done, total, row: played.append(done),
    )
    assert resumed.rows == full.rows and resumed.to_dict() == full.to_dict()
    assert len(played) == GAMES - 5  # only the missing games were played
    games = [json.loads(line)["game"] for line in partial.read_text().splitlines()[1:]]
    assert sorted(games) == list(range(GAMES))  # nothing lost, nothing twice


def test_unknown_backend_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="dask"):
        run_tournament(FACTORIES, LABELS, 2, out=tmp_path / "x.jsonl", backend="dask")
    assert not (tmp_path / "x.jsonl").exists()  # refused before touching the results file


def test_tournament_cli_on_ray_matches_local(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--agents", "random,random", "--games", "4", "--max-rounds", "30", "--json"]
    code, ray_out, err = run_cli(capsys, *args, "--backend", "ray")
    assert code == 0, err
    code, local_out, err = run_cli(capsys, *args, "--backend", "local")
    assert code == 0, err
    assert json.loads(ray_out) == json.loads(local_out)
