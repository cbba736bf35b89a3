"""Every command's ``--help`` ends with real examples (issue "The command line people
expect", point 4): each example parses with the real parser, and every file it reads is
bundled."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from solver.cli import COMMANDS, build_parser
from solver.cli.examples import EXAMPLES
from tests.solver.cli_helpers import run_cli

REPO = Path(__file__).resolve().parents[2]


def test_every_command_has_examples() -> None:
    assert set(EXAMPLES) == set(COMMANDS)
    assert all(1 <= len(v) <= 2 for v in EXAMPLES.values())


@pytest.mark.parametrize("command", sorted(EXAMPLES))
def test_examples_parse_and_name_bundled_files(command: str) -> None:
    parser = build_parser()
    for _what, line in EXAMPLES[command]:
        words = shlex.split(line.split("|")[-1])
        assert words[0] == "monopoly-trade" and words[1] == command
        parser.parse_args(words[1:])  # raises UsageError on a bad example
        for w in words[2:]:
            if w.startswith("instances/"):
                assert (REPO / w).is_file(), w


@pytest.mark.parametrize("command", ["solve", "trades", "bidding-game"])
def test_help_ends_with_the_examples(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        run_cli(capsys, command, "--help")
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    tail = out[out.index("examples:") :]
    for _what, line in EXAMPLES[command]:
        assert line in tail
