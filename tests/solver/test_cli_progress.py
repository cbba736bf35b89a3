"""Progress bars and ``--out -`` (issue "The command line people expect", points 2, 3 and 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import solver.cli.progress as progress
from tests.solver.cli_helpers import run_cli

TOURNAMENT = ("tournament", "--agents", "strategic,random", "--games", "3", "--seed", "4", "--max-rounds", "60")


def test_no_bar_when_stderr_is_captured(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, *TOURNAMENT)
    assert code == 0 and out.startswith("tournament: 3 games")
    assert "\r" not in err and "game/s" not in err and "it/s" not in err
    assert err == ""


def test_bar_on_a_terminal_goes_to_stderr_only(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, plain, _ = run_cli(capsys, *TOURNAMENT, "--json")
    monkeypatch.setattr(progress, "bar_enabled", lambda quiet=False: not quiet)  # as on a terminal
    code2, out, err = run_cli(capsys, *TOURNAMENT, "--json")
    assert code == code2 == 0
    assert out == plain  # --json is byte-identical with the bar on
    assert "tournament" in err and "3/3" in err and "game" in err
    # the leading agent's win rate with its interval (strategic wins all three)
    assert "strategic 1.00 [0.44, 1.00]" in err
    # -q turns it off
    _, out_q, err_q = run_cli(capsys, "tournament", "-q", *TOURNAMENT[1:], "--json")
    assert out_q == plain and err_q == ""


def test_out_dash_streams_the_rows_to_stdout(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "rows.jsonl"
    code, _, _ = run_cli(capsys, *TOURNAMENT, "--out", str(f))
    assert code == 0
    code, out, err = run_cli(capsys, *TOURNAMENT, "--out", "-")
    assert code == 0
    streamed, written = out.splitlines(), f.read_text().splitlines()
    assert streamed[0] == written[0] and json.loads(streamed[0])["header"] == "monopoly-results/1"
    by_game = sorted((json.loads(x) for x in streamed[1:]), key=lambda r: r["game"])
    assert by_game == [json.loads(x) for x in sorted(written[1:], key=lambda x: json.loads(x)["game"])]
    assert err.startswith("tournament: 3 games")  # the summary moved to stderr
    code, _, err = run_cli(capsys, *TOURNAMENT, "--out", "-", "--resume")
    assert code == 2 and "--out -" in err


def test_trial_out_dash(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ("trial", "--agent", "strategic", "--novelty", "none", "--games", "4", "--max-rounds", "40", "--json")
    f = tmp_path / "t.jsonl"
    code, out_file, _ = run_cli(capsys, *argv, "--out", str(f))
    assert code == 0
    code, out, err = run_cli(capsys, *argv, "--out", "-")
    assert code == 0
    assert [json.loads(x) for x in out.splitlines()] == [json.loads(x) for x in f.read_text().splitlines()]
    summary = json.loads(err)
    assert summary["metrics"] == json.loads(out_file)["metrics"]


def test_game_bar_counts_wins_with_intervals() -> None:
    bar = progress.GameBar(4, "x", quiet=True, done_rows=[{"winner": "a"}])
    bar(2, 4, {"winner": "a"})
    bar(3, 4, {"winner": "b"})
    bar(4, 4, {"winner": None})
    assert bar.games == 4 and bar.wins == {"a": 2, "b": 1}
    assert bar.postfix().startswith("a 0.50 [0.15, 0.85]; b 0.25 [")
    bar.close()


def test_plot_dash_writes_the_png_to_stdout(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from solver.cli import main

    state = str(Path(__file__).resolve().parents[2] / "instances" / "two-player.json")
    assert main(["analyze", state, "--plot", "-"]) == 0
    out, err = capsysbinary.readouterr()
    assert out.startswith(b"\x89PNG\r\n\x1a\n")
    assert err.decode().startswith("rules: standard-us\nAnn: GROWING")  # the analysis moved to stderr
    assert main(["analyze", state, "--plot", str(tmp_path / "f.png")]) == 0
    assert (tmp_path / "f.png").read_bytes() == out


def test_prune_report_refuses_out_dash(capsys: pytest.CaptureFixture[str]) -> None:
    state = str(Path(__file__).resolve().parents[2] / "instances" / "two-player.json")
    code, _, err = run_cli(capsys, "prune-report", state, "--out", "-")
    assert code == 2 and "give a folder" in err
