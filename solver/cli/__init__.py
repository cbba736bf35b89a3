"""The ``monopoly-trade`` command line (also ``python -m solver``): the commands ``validate``,
``convert``, ``play``, ``tournament``, ``agents``, ``odds``, ``risk``, ``analyze``, ``solve``, ``trades``,
``auction``, ``bidding-game``, ``prune-report`` and ``trial``, each in its module
``solver.cli.cmd_<command>`` (its parser, ``add_parser``, and its ``run``), with the shared helpers
in :mod:`solver.cli.common`; :func:`json_answer` gives a command's ``--json`` text without printing
(what the MCP server's workers run, handed to the server by ``mcp``'s parser default). Every command takes ``--help``. Bad input (a state that breaks the
format or a rule, an unknown agent, a file that cannot be read) prints one line on stderr and exits
with status 2, without a traceback; files are written to a temporary name and renamed. Command
modules import their heavy dependencies (numba, OR-Tools, SciPy, matplotlib) only when they run.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from models.errors import MonopolyError
from solver.cli import (
    cmd_agents,
    cmd_analyze,
    cmd_auction,
    cmd_bidding_game,
    cmd_convert,
    cmd_evaluate,
    cmd_mcp,
    cmd_odds,
    cmd_play,
    cmd_prune_report,
    cmd_respond,
    cmd_risk,
    cmd_solve,
    cmd_tournament,
    cmd_trades,
    cmd_trial,
    cmd_validate,
)
from solver import jsonsafe
from solver.cli.common import PROG, Parser, UsageError
from solver.cli.examples import ExampleFormatter, epilog
from solver.version import package_version

# In the order of ``--help``.
COMMANDS = {
    "validate": cmd_validate,
    "convert": cmd_convert,
    "play": cmd_play,
    "tournament": cmd_tournament,
    "agents": cmd_agents,
    "odds": cmd_odds,
    "risk": cmd_risk,
    "analyze": cmd_analyze,
    "solve": cmd_solve,
    "trades": cmd_trades,
    "evaluate": cmd_evaluate,
    "respond": cmd_respond,
    "bidding-game": cmd_bidding_game,
    "auction": cmd_auction,
    "prune-report": cmd_prune_report,
    "trial": cmd_trial,
    "mcp": cmd_mcp,
}


QUICK_EXIT = frozenset({"validate", "convert", "odds", "risk", "analyze", "solve", "trades", "evaluate", "respond", "bidding-game", "auction"})
"""Commands that run in this one process (no worker processes, no Ray, no server) and leave
nothing behind but what they wrote and flushed: :func:`run` ends them without the interpreter's
teardown (0.2-0.35 s after ``solve``, mostly freeing numba's, OR-Tools' and pandas' modules)."""

_ran: list[str] = []  # the command main() last ran, for run()

def build_parser() -> argparse.ArgumentParser:
    """The ``monopoly-trade`` parser, one subcommand per module of :data:`COMMANDS`."""
    parser = Parser(prog=PROG, description="A Monopoly decision engine: rules, odds, trades, decisions.")
    parser.add_argument("--version", action="version", version=f"{PROG} {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS.values():
        command.add_parser(sub)
    for name, sub_parser in sub.choices.items():
        sub_parser.epilog = epilog(name)
        sub_parser.formatter_class = ExampleFormatter
        noise = sub_parser.add_mutually_exclusive_group()
        noise.add_argument("-v", "--verbose", action="count", default=0, help="say what is being done, and how long each step took (stderr)")
        noise.add_argument("-q", "--quiet", action="store_true", help="errors only on stderr, no progress bars")
    parser.set_defaults(json_answer=json_answer)  # handed to the MCP server (cmd_mcp), which does not import this package
    return parser


_PARSER: list[argparse.ArgumentParser] = []
"""The parser :func:`json_answer` reuses (building one takes 10-15 ms: every subcommand's options)."""


def _json_parser() -> argparse.ArgumentParser:
    """:func:`build_parser`'s parser, built on first use and kept (parsing does not change it)."""
    if not _PARSER:
        _PARSER.append(build_parser())
    return _PARSER[0]


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
        args = _json_parser().parse_args([*argv, "--json", "-q"])
        doc = COMMANDS[args.command].document(args)
        return True, jsonsafe.dumps(doc) + "\n"
    except MonopolyError as err:
        return False, " ".join(str(err).split())
    except OSError as err:
        return False, f"{err.filename or ''}: {err.strerror or err}".lstrip(": ")


class _StderrHandler(logging.StreamHandler[TextIO]):
    """The command line's own handler (told apart from a caller's when main runs again)."""


def configure_logging(verbose: int, quiet: bool) -> None:
    """The standard ``logging`` module to stderr: warnings by default, ``-v`` info,
    ``-vv`` debug, ``-q`` errors only. Never on stdout, so ``--json`` output is unchanged."""
    level = logging.ERROR if quiet else logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    root = logging.getLogger()
    for h in [h for h in root.handlers if isinstance(h, _StderrHandler)]:
        root.removeHandler(h)
    handler = _StderrHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(level)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``monopoly-trade`` on ``argv`` (default: the process's arguments): the exit status."""
    try:
        args = build_parser().parse_args(argv)
        configure_logging(args.verbose, args.quiet)
        _ran[:] = [args.command]
        return COMMANDS[args.command].run(args)
    except MonopolyError as err:  # bad input of any kind (UsageError included): one line, status 2
        print(str(err), file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        sys.stderr.close()
        return 0
    except OSError as err:
        print(f"{err.filename or ''}: {err.strerror or err}".lstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def run(argv: Sequence[str] | None = None) -> NoReturn:
    """The process entry point (the ``monopoly-trade`` script and ``python -m solver``):
    :func:`main`, then, after a command of :data:`QUICK_EXIT`, stdout, stderr and the logging
    handlers flushed and the process ended with ``os._exit`` and main's status, skipping the
    interpreter's teardown; otherwise an ordinary exit. Callers in Python use :func:`main`."""
    import solver._cp_model

    solver._cp_model.PANDAS_FREE = True  # this process runs only our code: CP-SAT without pandas
    _ran.clear()
    code = main(argv)
    if _ran and _ran[0] in QUICK_EXIT:
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # a closed pipe (e.g. into `head`), or a stream already closed
                pass
        os._exit(code)
    raise SystemExit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
