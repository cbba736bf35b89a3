"""The command line's conventions (issue "The command line people expect", points 1 and 3
in part): ``--version``, ``-`` for standard input, ``-v`` / ``-q``."""

from __future__ import annotations

import io
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from solver.cli import common
from tests.solver.cli_helpers import run_cli

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
MID = INSTANCES / "midgame-no-monopolies.json"


class _Stdin:
    """A stand-in for ``sys.stdin`` with the ``buffer`` that :func:`common.read_state` reads."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_version_is_the_package_metadata() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "solver", "--version"], capture_output=True, text=True, check=False, timeout=60
    )
    assert out.returncode == 0
    assert out.stdout.strip() == f"monopoly-trade {metadata.version('monopoly-trade')}"


@pytest.mark.parametrize(
    "argv",
    [("validate",), ("analyze", "--player", "Ann", "--json"), ("trades", "--json", "--cycles"), ("risk", "--json")],
    ids=lambda a: a[0],
)
def test_stdin_gives_the_same_bytes_as_the_file(
    argv: tuple[str, ...], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, from_file, _ = run_cli(capsys, argv[0], str(MID), *argv[1:])
    assert code == 0
    monkeypatch.setattr(sys, "stdin", _Stdin(MID.read_bytes()))
    code, from_stdin, err = run_cli(capsys, argv[0], "-", *argv[1:])
    assert code == 0, err
    assert from_stdin == from_file


def test_bad_stdin_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin(b'{"format": '))
    code, out, err = run_cli(capsys, "validate", "-")
    assert code == 2 and out == ""
    assert err.startswith("<stdin>: not valid JSON") and err.count("\n") == 1


def test_oversized_stdin_is_refused(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "STDIN_LIMIT", 100)
    monkeypatch.setattr(sys, "stdin", _Stdin(MID.read_bytes()))
    code, _, err = run_cli(capsys, "validate", "-")
    assert code == 2 and "over 100 bytes" in err


def test_verbose_logs_the_phases_and_leaves_json_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("solve", str(MID), "--seed", "1", "--json", "--rollouts", "200")
    code, plain, err_plain = run_cli(capsys, *args)
    assert code == 0 and err_plain == ""
    code, loud, err_loud = run_cli(capsys, *args, "-v")
    assert code == 0 and loud == plain
    for phase in ("position and build plan", "CP-SAT, bilateral", "re-scoring"):
        assert f"solver.decide: {phase}: " in err_loud
    code, quiet, err_quiet = run_cli(capsys, *args, "-q")
    assert code == 0 and quiet == plain and err_quiet == ""


def test_verbose_and_quiet_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "validate", str(MID), "-v", "-q")
    assert code == 2 and "not allowed with" in err
