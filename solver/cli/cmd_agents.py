"""``monopoly-trade agents``: list the agents of :mod:`solver.agents.registry`, one line each with its
summary, and the options an agent spec may set with their defaults and their allowed values
(``[lo..hi]`` for a number, ``{a|b}`` for a choice; booleans take true/false, 1/0, yes/no, on/off).

The listing is :func:`solver.agents.registry.listing`, kept in ``solver/data/agents.txt`` so that the
command does not import the agents (numba, OR-Tools: 0.5-1.9 s) to print it;
``tests/solver/test_cli.py`` checks that the file is what the registry says.
"""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any) -> None:
    """Add ``agents`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    subparsers.add_parser("agents", help="list the agents and their options", description="List the registered agents and their options.")


def run(args: argparse.Namespace) -> int:
    """Run ``agents`` on the parsed ``args``: the exit status."""
    from importlib import resources

    print(resources.files("solver").joinpath("data").joinpath("agents.txt").read_text(encoding="utf-8"), end="")
    return 0
