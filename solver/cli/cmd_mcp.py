"""``monopoly-trade mcp``: serve the commands as Model Context Protocol tools over stdio, for AI agents
(:mod:`solver.mcp_server`; the ``mcp`` extra)."""

from __future__ import annotations

import argparse
from typing import Any

from solver.cli.common import UsageError, int_in


def add_parser(subparsers: Any) -> None:
    """Add ``mcp`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "mcp",
        help="serve the commands as MCP tools over stdio (for AI agents)",
        description=(
            "A Model Context Protocol server on stdin/stdout with the tools validate, solve, analyze, trades, odds, "
            "risk, auction and bidding_game; each takes a state (an object or a path) and returns the command's "
            "--json object. Calls run side by side in worker processes, each warmed once at start. "
            "Needs the mcp extra: pip install -e '.[mcp]'."
        ),
    )
    p.add_argument(
        "--workers",
        type=int_in(0, 256),
        default=None,
        help="worker processes answering calls side by side (default: the cores this process may use; 0: in the server's process, one call at a time; 0..256)",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``mcp``: serve until the client closes the connection."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        raise UsageError("mcp: the MCP SDK is not installed (pip install -e '.[mcp]')") from None
    from solver.mcp_server import main

    main(args.workers, args.json_answer)  # solver.cli.json_answer, handed in (build_parser's default)
    return 0
