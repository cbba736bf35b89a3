"""Shared helpers for the solver tests."""

from __future__ import annotations

import pytest

from solver.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``monopoly-trade ARGV`` in-process: (exit status, stdout, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
