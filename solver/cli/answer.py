"""One command's ``--json`` answer as text, without printing: what the MCP server's workers run.

:func:`json_answer` parses a command line with the command line's own parser (so a bad
argument gets the same one-line message), calls the command module's ``document`` function
(the object its ``--json`` form prints) and returns that object's text exactly as the command
prints it (:func:`solver.jsonsafe.dumps` and a newline). Nothing goes through standard output,
so calls may run side by side in threads or processes; the server (:mod:`solver.mcp_server`)
runs them in worker processes, one call per process at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.errors import MonopolyError
from solver import jsonsafe
from solver.cli import COMMANDS, build_parser
from solver.cli.common import UsageError

JSON_COMMANDS = ("solve", "evaluate", "respond", "analyze", "trades", "odds", "risk", "auction", "bidding-game")
"""The commands with a ``document`` function (their ``--json`` object)."""


def json_answer(argv: Sequence[str]) -> tuple[bool, str]:
    """``monopoly-trade ARGV --json``'s standard output, or its one-line error.

    Parameters
    ----------
    argv : sequence of str
        A command of :data:`JSON_COMMANDS` and its arguments (``--json`` is added).

    Returns
    -------
    tuple of (bool, str)
        ``(True, text)``: the text the command prints, byte for byte; ``(False, message)``:
        the one line it would print on standard error (exit status 2).

    Examples
    --------
    >>> ok, text = json_answer(["risk", "instances/two-player.json", "--turns", "2"])
    >>> ok, text.startswith('{"schema": "urn:monopoly-trade:output:risk:'), text.endswith("}\\n")
    (True, True, True)
    >>> json_answer(["risk", "instances/two-player.json", "--turns", "0"])
    (False, 'monopoly-trade risk: argument --turns: 0 is outside 1..1000')
    >>> json_answer(["play"])
    (False, 'play: no JSON answer (commands: solve, evaluate, respond, analyze, trades, odds, risk, auction, bidding-game)')
    """
    try:
        if not argv or argv[0] not in JSON_COMMANDS:
            raise UsageError(f"{argv[0] if argv else '(none)'}: no JSON answer (commands: {', '.join(JSON_COMMANDS)})")
        args = build_parser().parse_args([*argv, "--json", "-q"])
        doc = COMMANDS[args.command].document(args)
        return True, jsonsafe.dumps(doc) + "\n"
    except MonopolyError as err:
        return False, " ".join(str(err).split())
    except OSError as err:
        return False, f"{err.filename or ''}: {err.strerror or err}".lstrip(": ")
