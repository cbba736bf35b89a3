"""The agent's memory and settings as data: JSON round trips, bounds, and malformed files refused in one line;
``solve --agent/--settings/--memory/--memory-out`` on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.rules.game import Game
from engine.rules.streams import SeededStream
from models.io import load_state
from models.state import GameState
from solver.agents.registry import factory
from solver.agents.subgraph_agent import SubgraphTradeAgent
from solver.decisions.memory import AgentMemory, AgentMemoryError, load_memory, save_memory
from solver.decisions.profile import agent_settings
from solver.decisions.settings import AgentSettings
from tests.solver.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
JAILED = str(ROOT / "instances" / "jailed-early.json")


@pytest.fixture(scope="module")
def played() -> SubgraphTradeAgent:
    """A ``subgraph`` agent after 40 rounds against three baselines (its memory well filled)."""
    agent = SubgraphTradeAgent(1, rollouts=40, accept_rollouts=40)
    others = [factory("strategic")(s) for s in (2, 3, 4)]
    Game(GameState.new_game(["P1", "P2", "P3", "P4"]), [agent, *others], SeededStream(5), max_rounds=40).play()
    return agent


def test_a_played_memory_round_trips_through_json(played: SubgraphTradeAgent) -> None:
    doc = played.memory.to_dict()
    assert doc["seeds"] > 0 and doc["reserves"] and doc["opponents"]["models"]
    again = AgentMemory.from_dict(json.loads(json.dumps(doc)))
    assert again.to_dict() == doc
    # the fitted opponent models come back with the same posterior (refitted from the answers)
    for q, model in played.memory.opponents.models.items():
        assert (again.opponents.models[q].mean == model.mean).all()


def test_memory_files(played: SubgraphTradeAgent, tmp_path: Path) -> None:
    path = tmp_path / "memory.json"
    save_memory(played.memory, path)
    assert load_memory(path).to_dict() == played.memory.to_dict()


def _refused(doc: dict[str, object]) -> str:
    with pytest.raises(AgentMemoryError) as info:
        AgentMemory.from_dict(doc)
    message = str(info.value)
    assert "\n" not in message and message.startswith("memory: ")
    return message


def test_malformed_memories_are_refused_in_one_line(played: SubgraphTradeAgent) -> None:
    good = played.memory.to_dict()
    assert "format" in _refused({**good, "format": "monopoly-agent-memory/0"})
    assert "missing key 'queue'" in _refused({k: v for k, v in good.items() if k != "queue"})
    assert "seeds" in _refused({**good, "seeds": "many"})
    assert "refused" in _refused({**good, "refused": [[[["A", "B"]], 3]]})
    assert "at most" in _refused({**good, "refused": [[[["A", "B", ["Boardwalk"]]], 1]] * 100_001})
    models = {"1": {"xs": [[1.0, 2.0]], "ys": [1], "offers_seen": 0, "max_history": 200}}
    assert "finite features" in _refused({**good, "opponents": {"models": models, "pending": []}})
    assert "refusals" in _refused({**good, "refusals": {"positions": [{"owner": [0]}], "last": None, "count": 0}})
    with pytest.raises(AgentMemoryError, match="expected a JSON object"):
        AgentMemory.from_dict([])  # type: ignore[arg-type]


def test_unreadable_memory_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.decisions.memory as mod

    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(AgentMemoryError, match="is not JSON"):
        load_memory(bad)
    big = tmp_path / "big.json"
    save_memory(AgentMemory(), big)
    monkeypatch.setattr(mod, "MAX_FILE_BYTES", 10)
    with pytest.raises(AgentMemoryError, match="larger than 10 bytes"):
        load_memory(big)


def test_settings_from_a_spec_and_back() -> None:
    for spec in ("subgraph", "subgraph:hold=false", "subgraph:rollouts=80,auction=simulate,margin=0.02"):
        settings = agent_settings(spec)
        assert agent_settings(settings.spec()) == settings
        assert SubgraphTradeAgent(0, **settings.changed()).settings == settings
    assert AgentSettings().to_dict() == factory("subgraph")(0).settings.to_dict()  # type: ignore[attr-defined]


# -- the command line ---------------------------------------------------------------


def test_solve_as_the_agent_with_a_memory_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "after.json"
    code, out, err = run_cli(capsys, "solve", JAILED, "--agent", "subgraph", "--rollouts", "8", "--memory-out", str(out_file))
    assert code == 0, err
    assert "DECISION: PAY: rule of thumb" in out and "AGENT (subgraph): jail: pay, by rule" in out
    assert load_memory(out_file).seat == 0
    code, out, err = run_cli(capsys, "solve", JAILED, "--settings", "subgraph:hold=false", "--memory", str(out_file), "--rollouts", "8", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["decision"]["action"] == doc["agent"]["action"] == "pay"
    assert doc["agent"]["spec"] == "subgraph:hold=false" and doc["agent"]["memory"]["format"] == "monopoly-agent-memory/1"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--memory", "m.json"], "--memory: only with --agent"),
        (["--memory-out", "m.json"], "--memory-out: only with --agent"),
        (["--agent", "strategic"], "--agent: agent 'strategic': solve answers as the subgraph agent only"),
        (["--agent", "subgraph:hold=maybe"], "--agent: agent 'subgraph' option 'hold'"),
        (["--agent", "subgraph:offers=3"], "--agent: agent 'subgraph': option 'offers': 3 is outside 1..2"),
        (["--agent", "subgraph", "--memory", "no-such-file.json"], "--memory: cannot read 'no-such-file.json'"),
        (["--agent", "subgraph", "--memory", JAILED], "--memory: format 'monopoly-state/1' is not monopoly-agent-memory/1"),
        (["--agent", "subgraph", "--html", "r.html"], "--html: not with --agent"),
        (["--agent", "subgraph", "--memory-out", "/no/such/folder/m.json"], "--memory-out:"),
    ],
)
def test_agent_options_are_checked(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    code, out, err = run_cli(capsys, "solve", JAILED, "--rollouts", "8", *argv)
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1


def test_a_memory_of_another_seat_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "seat2.json"
    save_memory(AgentMemory(seat=2), path)
    code, out, err = run_cli(capsys, "solve", JAILED, "--agent", "subgraph", "--memory", str(path), "--rollouts", "8")
    assert code == 2 and "it is seat 2's memory, not seat 0's" in err and err.count("\n") == 1


def test_batch_does_not_take_the_agent(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run_cli(capsys, "solve", "--batch", str(ROOT / "instances"), "--out", str(tmp_path / "o.jsonl"), "--agent", "subgraph")
    assert code == 2 and "--agent: not with --batch" in err


def test_the_library_takes_the_agent_and_its_memory() -> None:
    import solver
    from solver.api import SolveError

    state = load_state(JAILED)
    r = solver.solve(state, agent=AgentSettings(), memory=AgentMemory(seat=0).to_dict(), rollouts=8)
    assert r.action == "pay" and r.decision.agent is not None and r.to_dict()["agent"]["question"] == "jail"
    with pytest.raises(SolveError, match="memory: only with agent"):
        solver.solve(state, memory=AgentMemory(), rollouts=8)
    with pytest.raises(SolveError, match="agent: expected a spec"):
        solver.solve(state, agent=3, rollouts=8)  # type: ignore[arg-type]
