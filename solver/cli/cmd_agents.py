"""``monopoly-trade agents``: list the agents of :mod:`solver.agents.registry`, one line each with its
summary, and the options an agent spec may set with their defaults and their allowed values
(``[lo..hi]`` for a number, ``{a|b}`` for a choice; booleans take true/false, 1/0, yes/no, on/off).
"""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any) -> None:
    """Add ``agents`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    subparsers.add_parser("agents", help="list the agents and their options", description="List the registered agents and their options.")


def run(args: argparse.Namespace) -> int:
    """Run ``agents`` on the parsed ``args``: the exit status."""
    from solver.agents.registry import entries

    for entry in entries():
        opts = entry.describe_options()
        print(f"{entry.name}: {entry.summary}")
        if opts:
            print(f"  options: {opts}")
    return 0
