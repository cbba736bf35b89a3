"""Position assessment, frontier value, property values and the analyze command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from models.io import load_state
from solver.analysis.position import (
    CAPPED,
    GROWING,
    LOSING,
    assess_position,
    frontier_value,
    property_value,
)
from solver.cli import main

INSTANCES = Path(__file__).resolve().parents[2] / "instances"


def state_of(props: dict[str, Any], cash: tuple[int, ...] = (1500, 1500, 1500)) -> Any:
    return load_state(
        {
            "format": "monopoly-state/1",
            "players": [{"name": n, "cash": c} for n, c in zip(("Ann", "Bob", "Cy"), cash, strict=False)],
            "properties": {k: (v if isinstance(v, dict) else {"owner": v}) for k, v in props.items()},
        }
    )


def test_completing_piece_is_worth_far_more_than_an_isolated_one() -> None:
    s = state_of({"St. James Place": "Ann", "Tennessee Avenue": "Ann", "New York Avenue": "Bob", "Atlantic Avenue": "Ann",
                  "Ventnor Avenue": "Bob", "Marvin Gardens": "Cy"})
    completing = property_value(s, 0, s.square_of("New York Avenue"))
    isolated = property_value(s, 0, s.square_of("Atlantic Avenue"))
    assert completing > 5 * isolated > 0
    # and to Cy, who has no orange, New York is only its own rent
    assert property_value(s, 2, s.square_of("New York Avenue")) < completing / 5


def test_frontier_value_counts_the_affordable_development() -> None:
    props = {n: "Ann" for n in ("St. James Place", "Tennessee Avenue", "New York Avenue")}
    rich = frontier_value(state_of(props, cash=(1500, 1500, 1500)), 0)
    poor = frontier_value(state_of(props, cash=(150, 1500, 1500)), 0)
    assert rich > 3 * poor > 0  # with $150 (all reserve) nothing is built


def test_states_by_situation() -> None:
    built = {n: {"owner": "Ann", "houses": 0} for n in ("St. James Place", "Tennessee Avenue", "New York Avenue")}
    assert assess_position(state_of(built), "Ann").verdict == GROWING  # cash and a set to build on
    assert assess_position(state_of({"Boardwalk": "Ann"}), "Ann").verdict == CAPPED  # nothing to build
    near = load_state(INSTANCES / "near-ruin.json")
    dee = assess_position(near, "Dee")
    assert dee.verdict == LOSING and dee.net_flow < 0 and dee.ruin_20 > 0.25


def test_position_numbers_are_consistent() -> None:
    s = load_state(INSTANCES / "two-player.json")
    pos = assess_position(s, "Ann")
    assert pos.ceiling >= pos.current_rent >= 0
    assert 0 <= pos.ruin_20 <= 1
    assert pos.build_roi >= 0


@pytest.mark.parametrize("path", sorted(INSTANCES.glob("*.json")), ids=lambda p: p.name)
def test_analyze_json_on_every_instance(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    assert main(["analyze", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    state = load_state(path)
    assert set(out["players"]) == {state.players[p].name for p in state.active_players()}
    for r in out["players"].values():
        assert r["position"]["state"] in (GROWING, CAPPED, LOSING)
        assert {"subgraph", "frontier", "property_values"} <= set(r)
        gains = [row["rent_gain"] for row in r["frontier"]["table"]]
        assert gains == sorted(gains)


def test_analyze_one_player_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(INSTANCES / "midgame-no-monopolies.json"), "--player", "Ann"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rules: standard-us\nAnn: CAPPED") and "partial orange" in out and "New York Avenue" in out
    assert main(["analyze", str(INSTANCES / "midgame-no-monopolies.json"), "--player", "Zed"]) == 2
    assert "Zed" in capsys.readouterr().err


def test_analyze_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "frontier.png"
    assert main(["analyze", str(INSTANCES / "two-player.json"), "--plot", str(target)]) == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(tmp_path.glob("*.tmp.png"))
