"""What the ``monopoly-trade`` commands share: the program name, :class:`UsageError` (bad
command-line input, printed as one line with exit status 2), the :class:`Parser` that raises it
instead of exiting, the bounded argument types :func:`int_in` and :func:`float_in` (``SEED``
for seeds), and :func:`player_arg` for the ``--player`` option.
It imports nothing heavy, so every command module can use it.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from models.errors import MonopolyError
from models.state import GameState

if TYPE_CHECKING:
    from models.board import Board
    from models.rules import Rules

PROG = "monopoly-trade"


class UsageError(MonopolyError):
    """Bad command-line input: printed as one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors raise :class:`UsageError` instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


MAX_SEED = 2**63 - 1
"""Largest seed (an integer of more digits is refused before it is converted)."""


def int_in(lo: int, hi: int) -> Callable[[str], int]:
    """Argument type: an integer in ``lo..hi`` (refused with one line otherwise)."""

    def parse(text: str) -> int:
        if len(text) > 25:
            raise argparse.ArgumentTypeError(f"{text[:20]!r}... is not an integer in {lo}..{hi}")
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} is outside {lo}..{hi}")
        return value

    parse.__name__ = f"integer {lo}..{hi}"
    return parse


def float_in(lo: float, hi: float, *, open_low: bool = False) -> Callable[[str], float]:
    """Argument type: a finite number in ``[lo, hi]`` (``(lo, hi]`` with ``open_low``)."""

    def parse(text: str) -> float:
        try:
            value = float(text[:40])
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number") from None
        if not math.isfinite(value) or len(text) > 40:
            raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a finite number")
        if value > hi or value < lo or (open_low and value == lo):
            raise argparse.ArgumentTypeError(f"{value:g} is outside {'(' if open_low else '['}{lo:g}, {hi:g}]")
        return value

    parse.__name__ = f"number {lo:g}..{hi:g}"
    return parse


SEED = int_in(0, MAX_SEED)
"""``--seed``: an integer in 0..2^63 - 1."""


def match_name(given: str, names: list[str], what: str, option: str) -> str:
    """The one of ``names`` that ``given`` names: exactly, else without regard to case; else a
    :class:`UsageError` naming ``option`` and the closest names (``difflib``).

    Examples
    --------
    >>> match_name("boardwalk", ["Park Place", "Boardwalk"], "property", "--property")
    'Boardwalk'
    >>> match_name("Bordwalk", ["Park Place", "Boardwalk"], "property", "--property")
    Traceback (most recent call last):
    ...
    solver.cli.common.UsageError: --property: no property named 'Bordwalk' (closest: Boardwalk)
    """
    import difflib

    if given in names:
        return given
    folded = [n for n in names if n.casefold() == given.casefold()]
    if len(folded) == 1:
        return folded[0]
    close = difflib.get_close_matches(given.casefold(), [n.casefold() for n in names], n=3, cutoff=0.6)
    by_fold = {n.casefold(): n for n in names}
    hint = f" (closest: {', '.join(by_fold[c] for c in close)})" if close else f" (known: {', '.join(names[:8])}{', ...' if len(names) > 8 else ''})"
    return _refuse(f"{option}: no {what} named {given[:80]!r}{hint}")


def _refuse(message: str) -> str:
    raise UsageError(message)


def player_arg(state: GameState, name: str | None, option: str = "--player", active: bool = False) -> int:
    """The index of the player ``option`` names in ``state`` (default: the player the state's
    pending question asks, the first when several may answer; else ``to_move``), matched without
    regard to case (:func:`match_name`); with ``active``, a bankrupt player is refused as
    ``solve`` refuses it."""
    if name is None:
        p = state.pending.who_answers()[0] if state.pending is not None else state.to_move
    else:
        p = state.player_index(match_name(name, [pl.name for pl in state.players], "player", option))
    if active and state.players[p].bankrupt:
        raise UsageError(f"{option}: {state.players[p].name} is bankrupt")
    return p


def property_arg(state: GameState, name: str, option: str = "--property") -> str:
    """The property ``option`` names (its name on the board), matched without regard to case."""
    return match_name(name, [sq.name for sq in state.board.squares if sq.is_property], "property", option)


STDIN_LIMIT = 64 * 1024 * 1024
"""Bytes of standard input a command reads as a state (``-``); more is refused."""


RULES_HELP = (
    "play under these rules instead of the state's: a preset (standard-us, house-jackpot, no-doubles, short-game) "
    "or a JSON file holding one rules object (docs/state-format.md#rules)"
)


def add_rules_option(p: argparse.ArgumentParser) -> None:
    """The ``--rules NAME|FILE`` option of the commands that read a state."""
    p.add_argument("--rules", metavar="NAME|FILE", help=RULES_HELP)


STATE_HELP = "a state file, a one-line position (MPN1 ...), or - for standard input"
"""The help of a command's ``STATE`` argument."""


def read_state_source(arg: str) -> tuple[GameState, bool]:
    """The state named by a command's ``STATE`` argument, and whether it was a line of the notation.

    ``STATE`` is a line (``MPN1 ...``: :func:`models.io.is_line`), a file, or ``-`` for standard
    input (at most :data:`STDIN_LIMIT` bytes); a file or standard input holds a JSON document or a
    line."""
    from pathlib import Path

    from models.io import is_line, load_line, load_state_bytes
    from models.io.json_text import read_bytes
    from models.io.line import line_in_bytes

    if is_line(arg):
        return load_line(arg), True
    if arg == "-":
        data, source = sys.stdin.buffer.read(STDIN_LIMIT + 1), "<stdin>"
        if len(data) > STDIN_LIMIT:
            raise UsageError(f"-: standard input is over {STDIN_LIMIT} bytes")
    else:
        data, source = read_bytes(Path(arg)), arg
    line = line_in_bytes(data, source)
    return (load_line(line), True) if line is not None else (load_state_bytes(data, source), False)


def read_state(arg: str, rules: str | None = None) -> GameState:
    """The state named by a command's ``STATE`` argument (:func:`read_state_source`: a line, a
    file, or ``-`` for standard input); with ``rules`` (``--rules``), moved under those rules
    (:func:`models.rules_file.with_rules`)."""
    state, _ = read_state_source(arg)
    if rules is None:
        return state
    from models.errors import InvalidStateError
    from models.rules_file import with_rules

    try:
        return with_rules(state, rules_arg(rules, state.board))
    except InvalidStateError as err:
        raise UsageError(f"--rules: the state under these rules: {err}") from None


def rules_arg(spec: str, board: Board) -> Rules:
    """The rules named by ``--rules`` (a preset or a rules file) for ``board``; a bad name or file
    is a :class:`UsageError` naming ``--rules``."""
    from models.errors import InvalidStateError
    from models.rules_file import load_rules

    try:
        return load_rules(spec, board)
    except InvalidStateError as err:
        raise UsageError(f"--rules: {err}") from None
    except OSError as err:
        raise UsageError(f"--rules: cannot read {spec!r}: {err.strerror or err}") from None


def rules_line(state: GameState) -> str:
    """The text line that says which rules a command used."""
    return f"rules: {state.rules.describe()}"
