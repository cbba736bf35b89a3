"""The ``odds`` and ``risk`` commands: pinned JSON shapes, sums, options and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from models.board import standard_board
from models.io import load_state
from tests.solver.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances"


run = run_cli


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert err == ""
    assert out.count("\n") == 1  # exactly one JSON object
    return json.loads(out)


# ---------------------------------------------------------------------------
# odds
# ---------------------------------------------------------------------------


def test_odds_json_shape_on_the_standard_board(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "odds", "--json")
    assert set(out) == {"schema", "rules", "jail", "squares", "in_jail", "ept"}
    assert out["jail"] == "long" and out["rules"] == {"name": "standard-us", "preset": "standard-us", "overrides": {}}
    board = standard_board()
    squares = out["squares"]
    assert len(squares) == 40
    for i, row in enumerate(squares):
        assert set(row) == {"index", "name", "probability"}
        assert row["index"] == i and row["name"] == board.squares[i].name
        assert 0 <= row["probability"] < 0.1
    total = sum(r["probability"] for r in squares) + out["in_jail"]
    assert total == pytest.approx(1.0, abs=1e-12)
    gtj = [r for r in squares if board.squares[r["index"]].kind == "go_to_jail"]
    assert len(gtj) == 1 and gtj[0]["probability"] == 0.0
    assert 0.05 < out["in_jail"] < 0.15

    ept = out["ept"]
    streets = [sq.name for sq in board.squares if sq.kind == "street"]
    railroads = [sq.name for sq in board.squares if sq.kind == "railroad"]
    utilities = [sq.name for sq in board.squares if sq.kind == "utility"]
    groups = list(board.street_groups)
    assert (len(streets), len(railroads), len(utilities), len(groups)) == (22, 4, 2, 8)
    assert set(ept) == set(streets) | set(railroads) | set(utilities) | set(groups)
    for name in streets + groups:
        assert len(ept[name]) == 6
    for name in railroads:
        assert len(ept[name]) == 4
    for name in utilities:
        assert len(ept[name]) == 2
    for values in ept.values():
        assert all(isinstance(v, float) and v > 0 for v in values)
        assert values == sorted(values)  # more houses / more held never pays less
    # A group is the sum of its lots at each level.
    for group in groups:
        lots = [board.squares[s].name for s in board.groups[group]]
        for k in range(6):
            assert ept[group][k] == pytest.approx(sum(ept[n][k] for n in lots), rel=1e-12)
    # Level 0 of a street is its double (monopoly) base rent times its landing share per turn:
    # the long-run probability x rolls per turn, so above base rent x share.
    illinois = board.property_index["Illinois Avenue"]
    assert ept["Illinois Avenue"][0] > 2 * board.squares[illinois].rents[0] * squares[illinois]["probability"]


def test_odds_short_jail_policy_spends_less_time_in_jail(capsys: pytest.CaptureFixture[str]) -> None:
    long_ = run_json(capsys, "odds", "--json")
    short = run_json(capsys, "odds", "--jail", "short", "--json")
    assert short["jail"] == "short"
    assert short["in_jail"] < long_["in_jail"]
    assert sum(r["probability"] for r in short["squares"]) + short["in_jail"] == pytest.approx(1.0, abs=1e-12)
    # Explicit --jail long is the default.
    assert run_json(capsys, "odds", "--jail", "long", "--json") == long_


def test_odds_uses_the_state_board(capsys: pytest.CaptureFixture[str]) -> None:
    path = INSTANCES / "mini-board.json"
    board = load_state(path).board
    out = run_json(capsys, "odds", str(path), "--json")
    assert len(out["squares"]) == 12
    assert [r["name"] for r in out["squares"]] == [sq.name for sq in board.squares]
    assert [r["index"] for r in out["squares"]] == list(range(12))
    assert sum(r["probability"] for r in out["squares"]) + out["in_jail"] == pytest.approx(1.0, abs=1e-12)
    assert out["squares"][10]["name"] == "Go To Jail" and out["squares"][10]["probability"] == 0.0
    ept = out["ept"]
    assert set(ept) == {"Ash Lane", "Birch Lane", "North Line", "Cedar Road", "Dogwood Road", "Power Works", "grey", "gold"}
    assert len(ept["North Line"]) == 1  # one railroad on this board, one rent
    assert len(ept["Power Works"]) == 1  # one utility: its one-held multiplier
    assert len(ept["Ash Lane"]) == 6 and len(ept["grey"]) == 6


def test_odds_text_lists_every_square(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds")
    assert code == 0 and err == ""
    lines = out.splitlines()
    board = standard_board()
    for sq in board.squares:
        assert any(line.split()[:1] == [str(sq.index)] and sq.name in line for line in lines), sq.name
    assert any("In jail" in line for line in lines)
    for group in board.street_groups:
        assert any(line.split()[:1] == [group] for line in lines)
    # Percentages on the square lines add up to 100 with the jail line.
    shares = [float(line.split("%")[0].split()[-1]) for line in lines if "%" in line and line.split()[0].isdigit()]
    jail = [float(line.split("%")[0].split()[-1]) for line in lines if "In jail" in line]
    assert len(shares) == 40 and sum(shares) + jail[0] == pytest.approx(100, abs=0.05)


def test_odds_text_on_the_mini_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", str(INSTANCES / "mini-board.json"))
    assert code == 0
    for sq in load_state(INSTANCES / "mini-board.json").board.squares:
        assert sq.name in out


def test_odds_bad_state_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "odds", str(tmp_path / "missing.json"), "--json")
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    code, out, err = run(capsys, "odds", "--jail", "sometimes")
    assert code == 2 and out == "" and err.count("\n") == 1


# ---------------------------------------------------------------------------
# risk
# ---------------------------------------------------------------------------


def _check_risk(out: dict, turns: int) -> None:
    assert {"player", "turns", "pmf", "cumulative"} <= set(out)
    assert out["turns"] == turns
    pmf, cum = out["pmf"], out["cumulative"]
    assert len(pmf) == turns + 1 and len(cum) == turns + 1
    assert all(p >= 0 for p in pmf)
    assert np.allclose(np.cumsum(pmf), cum, rtol=0, atol=1e-12)
    assert all(b >= a for a, b in zip(cum, cum[1:], strict=False))
    assert cum[-1] <= 1 + 1e-12


def test_risk_json_defaults_to_the_player_to_move(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(INSTANCES / "near-ruin.json")
    out = run_json(capsys, "risk", path, "--json")
    assert out["player"] == "Dee"  # to_move
    _check_risk(out, 20)
    assert out["pmf"][0] == 0.0
    assert 0.5 < out["cumulative"][-1] <= 1.0  # Dee ($45, liquidation $170) faces hotels
    from engine.chains.state_risk import state_ruin_pmf

    expected = state_ruin_pmf(load_state(path), "Dee", 20)
    np.testing.assert_allclose(out["pmf"], expected, rtol=0, atol=1e-12)


def test_risk_player_and_turns(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(INSTANCES / "near-ruin.json")
    full = run_json(capsys, "risk", path, "--json")
    dee = run_json(capsys, "risk", path, "--player", "Dee", "--turns", "5", "--json")
    assert dee["player"] == "Dee"
    _check_risk(dee, 5)
    np.testing.assert_allclose(dee["pmf"], full["pmf"][:6], rtol=0, atol=1e-12)
    ann = run_json(capsys, "risk", path, "--player", "Ann", "--turns", "5", "--json")
    assert ann["player"] == "Ann"
    _check_risk(ann, 5)
    assert ann["cumulative"][-1] < dee["cumulative"][-1]
    code, out, err = run(capsys, "risk", path, "--player", "Cy", "--turns", "3", "--json")  # bankrupt: refused, as solve refuses it
    assert code == 2 and out == "" and err.strip() == "--player: Cy is bankrupt"
    assert run_json(capsys, "risk", path, "--player", "dee", "--turns", "5", "--json") == dee  # names match without regard to case


def test_risk_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "risk", str(INSTANCES / "near-ruin.json"), "--turns", "4")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "rules: standard-us" and lines[1].startswith("Dee")
    assert [line.split()[0] for line in lines[3:]] == ["1", "2", "3", "4"]


def test_rules_option_plays_other_rules_and_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``--rules`` replaces the state's rules: the chain changes (no extra rolls on doubles), the output names them."""
    std = run_json(capsys, "risk", str(INSTANCES / "near-ruin.json"), "--turns", "4", "--json")
    nod = run_json(capsys, "risk", str(INSTANCES / "near-ruin.json"), "--turns", "4", "--json", "--rules", "no-doubles")
    assert nod["rules"]["preset"] == "no-doubles" and nod["cumulative"] != std["cumulative"]
    f = tmp_path / "r.json"
    f.write_text(json.dumps({"preset": "no-doubles", "go_salary": 300}))
    own = run_json(capsys, "odds", "--json", "--rules", str(f))
    assert own["rules"]["name"].startswith("standard-us with ") and own["rules"]["overrides"]["go_salary"] == 300
    for bad, words in (("nope", "neither a rules preset"), (str(f) + "x", "neither"), ):
        code, out, err = run(capsys, "odds", "--rules", bad)
        assert code == 2 and out == "" and words in err and err.count("\n") == 1
    f.write_text(json.dumps({"max_jail_rolls": 9}))
    code, out, err = run(capsys, "risk", str(INSTANCES / "near-ruin.json"), "--rules", str(f))
    assert code == 2 and "rules.max_jail_rolls" in err and err.count("\n") == 1


def test_risk_unknown_player_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "risk", str(INSTANCES / "near-ruin.json"), "--player", "Zed", "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Zed" in err and "Traceback" not in err


@pytest.mark.parametrize("content", [None, "{not json", '{"format": "monopoly-state/1", "players": []}'])
def test_risk_bad_state_file_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | None) -> None:
    f = tmp_path / "state.json"
    if content is not None:
        f.write_text(content)
    code, out, err = run(capsys, "risk", str(f), "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("turns", ["0", "-3", "many"])
def test_risk_bad_turns_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], turns: str) -> None:
    code, out, err = run(capsys, "risk", str(INSTANCES / "near-ruin.json"), "--turns", turns)
    assert code == 2 and out == "" and err.count("\n") == 1


def test_risk_jail_policy_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = json.loads((INSTANCES / "near-ruin.json").read_text())
    doc["players"][3].update(position=10, in_jail=True, jail_turns=0)
    f = tmp_path / "jailed.json"
    f.write_text(json.dumps(doc))
    long_ = run_json(capsys, "risk", str(f), "--turns", "6", "--json")
    short = run_json(capsys, "risk", str(f), "--turns", "6", "--jail", "short", "--json")
    _check_risk(long_, 6)
    _check_risk(short, 6)
    assert long_["pmf"] != short["pmf"]
    # Short pays the $50 fine at once: Dee's cash is $45 but her liquidation value covers it.
    assert short["pmf"][0] == 0.0
