"""``monopoly-trade convert`` and a one-line position (MPN) as every command's ``STATE``.

A JSON state becomes its line and a line its canonical JSON document (the bytes
``save_state`` writes), on every bundled instance both ways; ``--to`` forces
either, ``--out`` writes the file (``-``: standard output); a line is read from
the argument, a file or standard input; bad input is one line on stderr with
exit status 2. Other commands (``validate``, ``risk --json``) and the library
(``solver.solve``) give the same answer for a line as for its file.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from models.io import dumps_state, load_state, to_line
from solver.cli import common
from tests.solver.cli_helpers import run_cli

INSTANCES = sorted((Path(__file__).resolve().parents[2] / "instances").glob("*.json"))
TWO = INSTANCES[0].parent / "two-player.json"


class _Stdin:
    """A stand-in for ``sys.stdin`` with the ``buffer`` that :func:`common.read_state_source` reads."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


@pytest.mark.parametrize("path", INSTANCES, ids=[p.stem for p in INSTANCES])
def test_json_to_line_to_json_on_every_instance(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, line, err = run_cli(capsys, "convert", str(path))
    assert code == 0 and not err and line.count("\n") == 1 and line.startswith("MPN1 ")
    assert line == to_line(load_state(path)) + "\n"
    code, doc, err = run_cli(capsys, "convert", line.strip())
    assert code == 0 and not err
    assert doc == dumps_state(load_state(path))  # the canonical layout, byte for byte


def test_to_forces_the_form_and_out_writes_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "convert", str(TWO), "--to", "json")[1] == dumps_state(load_state(TWO))
    line = to_line(load_state(TWO))
    assert run_cli(capsys, "convert", line, "--to", "line")[1] == line + "\n"
    out = tmp_path / "state.json"
    assert run_cli(capsys, "convert", line, "--out", str(out)) == (0, "", "")
    assert out.read_text(encoding="utf-8") == dumps_state(load_state(TWO))
    assert run_cli(capsys, "convert", str(out), "--out", "-")[1] == line + "\n"
    held = tmp_path / "position.mpn"
    assert run_cli(capsys, "convert", str(TWO), "--out", str(held))[0] == 0
    assert run_cli(capsys, "convert", str(held))[1] == dumps_state(load_state(TWO))  # a file holding a line


def test_standard_input_holds_a_line_or_a_document(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    line = to_line(load_state(TWO))
    monkeypatch.setattr(common.sys, "stdin", _Stdin((line + "\n").encode()))
    assert run_cli(capsys, "convert", "-")[1] == dumps_state(load_state(TWO))
    monkeypatch.setattr(common.sys, "stdin", _Stdin(TWO.read_bytes()))
    assert run_cli(capsys, "convert", "-")[1] == line + "\n"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("convert", "MPN1 Ann:1500 Bob:x"), "notation: column 19: expected a cash amount after 'Bob:', got 'x'"),
        (("convert", "MPN1 Ann:1500 Bob:1500 br=AA2"), "notation: column 28: properties[\"Baltic Avenue\"].houses: 2 houses"),
        (("convert", "no/such/file.json"), "no/such/file.json: No such file or directory"),
        (("convert", str(TWO), "--to", "yaml"), "argument --to: invalid choice: 'yaml'"),
        (("validate", "MPN1 Ann:1500 Bob:1500 to=Zed"), "notation: column 27: to_move: 'Zed' is not a player"),
        (("solve", "MPN1 Ann:1500"), "notation: column 6: players: expected at least 2 items, got 1"),
    ],
)
def test_bad_input_is_one_line_and_status_2(argv: tuple[str, ...], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and not out and err.count("\n") == 1 and says in err, err


def test_other_commands_take_a_line_as_their_state(capsys: pytest.CaptureFixture[str]) -> None:
    line = to_line(load_state(TWO))
    assert run_cli(capsys, "validate", line) == (0, "ok\n", "")
    by_file = run_cli(capsys, "risk", str(TWO), "--turns", "3", "--json")
    assert by_file[0] == 0 and run_cli(capsys, "risk", line, "--turns", "3", "--json") == by_file


def test_the_library_takes_a_line() -> None:
    import solver

    line = to_line(load_state(TWO))
    by_line = solver.solve(line, rollouts=16, seed=1).to_dict()
    assert by_line == solver.solve(str(TWO), rollouts=16, seed=1).to_dict()
