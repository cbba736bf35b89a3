"""``monopoly-trade mcp``: serve the commands as Model Context Protocol tools over stdio, for AI agents
(:mod:`solver.mcp_server`; the ``mcp`` extra)."""

from __future__ import annotations

import argparse
from typing import Any

from solver.cli.common import UsageError


def add_parser(subparsers: Any) -> None:
    """Add ``mcp`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    subparsers.add_parser(
        "mcp",
        help="serve the commands as MCP tools over stdio (for AI agents)",
        description=(
            "A Model Context Protocol server on stdin/stdout with the tools validate, solve, analyze, trades, odds, "
            "risk, auction and bidding_game; each takes a state (an object or a path) and returns the command's "
            "--json object. Needs the mcp extra: pip install -e '.[mcp]'."
        ),
    )


def run(args: argparse.Namespace) -> int:
    """Run ``mcp``: serve until the client closes the connection."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        raise UsageError("mcp: the MCP SDK is not installed (pip install -e '.[mcp]')") from None
    from solver.mcp_server import main

    main(args.cli_main)  # the command line's own entry point, handed in (build_parser's default)
    return 0
