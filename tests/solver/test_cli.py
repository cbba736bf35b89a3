"""The command line: outputs, exit statuses, one-line errors, determinism, saved states."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from models.io import load_state
from tests.solver.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances"


run = run_cli


@pytest.mark.parametrize("path", sorted(INSTANCES.glob("*.json")), ids=lambda p: p.name)
def test_validate_bundled_instances(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    assert run(capsys, "validate", str(path)) == (0, "ok\n", "")


@pytest.mark.parametrize(
    ("doc", "needle"),
    [
        ({"format": "monopoly-state/9", "players": [{"name": "A", "cash": 1}, {"name": "B", "cash": 1}]}, "format"),
        ({"format": "monopoly-state/1", "players": [{"name": "A", "cash": -5}, {"name": "B", "cash": 1}]}, "players[0].cash"),
        (
            {
                "format": "monopoly-state/1",
                "players": [{"name": "A", "cash": 1}, {"name": "B", "cash": 1}],
                "properties": {"Baltic Avenue": {"owner": "A", "houses": 2}},
            },
            'properties["Baltic Avenue"].houses',
        ),
    ],
)
def test_validate_errors_are_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, doc: dict, needle: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(doc))
    code, out, err = run(capsys, "validate", str(f))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_missing_file_and_bad_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "validate", str(tmp_path / "nope.json"))
    assert code == 2 and err.count("\n") == 1
    f = tmp_path / "broken.json"
    f.write_text("{not json")
    code, _, err = run(capsys, "validate", str(f))
    assert code == 2 and err.count("\n") == 1


def test_play_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("play", "--agents", "strategic,strategic,random,random", "--seed", "7", "--max-rounds", "150")
    first = run(capsys, *args)
    second = run(capsys, *args)
    assert first == second
    code, out, _ = first
    assert code == 0
    assert out.splitlines()[0] == "seed 7, game 0: P1 strategic, P2 strategic, P3 random, P4 random"
    assert any(line.startswith("winner: P") for line in out.splitlines())
    assert any(line.startswith("ended by: ") for line in out.splitlines())


def test_play_game_index_changes_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("play", "--agents", "random,random", "--seed", "3", "--max-rounds", "60", "--json")
    a = json.loads(run(capsys, *base, "--game", "0")[1])
    b = json.loads(run(capsys, *base, "--game", "1")[1])
    assert a["game"] == 0 and b["game"] == 1
    assert (a["turns"], a["net_worths"]) != (b["turns"], b["net_worths"])


def test_play_saves_loadable_states(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(
        capsys, "play", "--agents", "strategic,random,strategic", "--seed", "2", "--max-rounds", "12", "--save-states", str(tmp_path)
    )
    assert code == 0
    files = sorted(tmp_path.glob("round-*.json"))
    assert [f.name for f in files[:3]] == ["round-0000.json", "round-0001.json", "round-0002.json"]
    for f in [*files, tmp_path / "final.json"]:
        state = load_state(f)
        assert [p.name for p in state.players] == ["P1", "P2", "P3"]
    assert load_state(files[5]).round == 5
    assert not list(tmp_path.glob("*.tmp"))


def test_play_from_a_state(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "play", "--state", str(INSTANCES / "two-player.json"), "--agents", "strategic,strategic", "--max-rounds", "400"
    )
    assert code == 0 and "winner:" in out
    code, _, err = run(capsys, "play", "--state", str(INSTANCES / "two-player.json"), "--agents", "strategic,strategic,random")
    assert code == 2 and "2 players" in err


@pytest.mark.parametrize(
    ("agents", "needle"),
    [("strategic,wizard", "unknown agent 'wizard'"), ("strategic:reserve=lots,random", "reserve"), ("strategic:colour=red,random", "colour"), ("random", "2 to 8")],
)
def test_bad_agents_exit_2(capsys: pytest.CaptureFixture[str], agents: str, needle: str) -> None:
    code, out, err = run(capsys, "play", "--agents", agents)
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1


def test_agent_options_reach_the_agent() -> None:
    from solver.agents.registry import parse_agents

    (_, make), (_, make2) = parse_agents("strategic:reserve=275,premium=0.2,trade=false,random:p_stop=0.9")
    agent = make(0)
    assert (agent.reserve, agent.premium, agent.trading) == (275, 0.2, False)
    assert make2(0).p_stop == 0.9


def test_agents_lists_registry(capsys: pytest.CaptureFixture[str]) -> None:
    from solver.agents.registry import listing

    code, out, _ = run(capsys, "agents")
    assert code == 0 and out.startswith("random:") and "strategic:" in out and "reserve=150" in out
    # the shipped listing is the registry's own (refresh: solver/data/agents.txt = registry.listing())
    assert out == listing()


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--agents", "random,random", "--seed", "-1")
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(capsys, "frobnicate")
    assert code == 2 and err.count("\n") == 1


def test_module_entry_point_and_help() -> None:
    for argv in (["--help"], ["play", "--help"], ["validate", "--help"], ["agents", "--help"]):
        proc = subprocess.run([sys.executable, "-m", "solver", *argv], capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 0 and "usage:" in proc.stdout
