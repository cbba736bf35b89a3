"""``monopoly-trade validate STATE``: load a state file with every format and rule check of
:func:`models.io.load_state` and print ``ok``; a bad file prints its one-line error and exits with
status 2 (by :func:`solver.cli.main`). It imports nothing beyond the models, so it stays fast.
"""

from __future__ import annotations

import argparse
from typing import Any

from solver.cli.common import STATE_HELP, read_state


def add_parser(subparsers: Any) -> None:
    """Add ``validate`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser("validate", help="check a state file", description="Check a state file: prints ok, or the error (exit 2).")
    p.add_argument("state", help=STATE_HELP)


def run(args: argparse.Namespace) -> int:
    """Run ``validate`` on the parsed ``args``: the exit status."""
    read_state(args.state)
    print("ok")
    return 0
