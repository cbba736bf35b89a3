"""The trade arguments of ``evaluate`` and ``respond``: a trade file (the state format's trade
form, ``{"transfers": [...]}``), or the compact form ``--give "Atlantic Avenue,$50" --to Dee
--get "Virginia Avenue"`` (from ``--player``, default the player to move).

A compact item is a property's name (matched without regard to case), ``$N`` (cash) or
``jail card`` / ``N jail cards``. Every file is bounded (:data:`TRADE_LIMIT` bytes) and parsed as
JSON only; a bad one is a one-line :class:`~solver.cli.common.UsageError` naming the option.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from models.errors import InvalidArgumentError
from models.state import GameState
from models.trade import Trade, Transfer
from solver.cli.common import UsageError

__all__ = ["TRADE_LIMIT", "add_trade_options", "read_json_file", "trade_from_args"]

TRADE_LIMIT = 1024 * 1024
"""Bytes of a trade or history file (or of standard input) read; more is refused."""

_CASH = re.compile(r"^\$\s*(\d{1,9})$")
_CARDS = re.compile(r"^(?:(\d{1,2})\s+)?jail\s+cards?$", re.IGNORECASE)


def _refuse_constant(name: str) -> Any:
    raise InvalidArgumentError(f"{name} is not a number")


def read_json_file(arg: str, option: str) -> Any:
    """The JSON document in file ``arg`` (``-``: standard input), at most :data:`TRADE_LIMIT` bytes."""
    try:
        data = sys.stdin.buffer.read(TRADE_LIMIT + 1) if arg == "-" else Path(arg).open("rb").read(TRADE_LIMIT + 1)
    except OSError as err:
        raise UsageError(f"{option}: cannot read {arg!r}: {err.strerror or err}") from None
    if len(data) > TRADE_LIMIT:
        raise UsageError(f"{option}: {arg!r} is over {TRADE_LIMIT} bytes")
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError) as err:
        raise UsageError(f"{option}: {arg!r} is not JSON ({err})") from None


def _trade_doc(doc: Any, option: str) -> Trade:
    items = doc.get("transfers") if isinstance(doc, dict) else doc
    if not isinstance(items, list) or not all(isinstance(t, dict) for t in items):
        raise UsageError(f'{option}: expected {{"transfers": [{{"from": ..., "to": ..., ...}}]}} or a list of transfers')
    if len(items) > 64:
        raise UsageError(f"{option}: {len(items)} transfers (at most 64)")
    for k, t in enumerate(items):
        if not isinstance(t.get("from"), str) or not isinstance(t.get("to"), str):
            raise UsageError(f"{option}: transfer {k} needs \"from\" and \"to\" names")
        props = t.get("properties", [])
        if not isinstance(props, list) or not all(isinstance(x, str) for x in props):
            raise UsageError(f"{option}: transfer {k}: \"properties\" must be a list of names")
        for key in ("cash", "jail_cards"):
            v = t.get(key, 0)
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10**9:
                raise UsageError(f"{option}: transfer {k}: {key!r} must be a whole number in 0..10^9")
    return Trade.from_dict(items)


def _items(state: GameState, text: str, option: str) -> tuple[list[str], int, int]:
    """Properties, cash and jail cards of a compact item list."""
    lots: list[str] = []
    cash = cards = 0
    names = {sq.name.casefold(): sq.name for sq in state.board.squares if sq.is_property}
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            continue
        if m := _CASH.match(item):
            cash += int(m.group(1))
        elif m := _CARDS.match(item):
            cards += int(m.group(1) or 1)
        elif item.casefold() in names:
            lots.append(names[item.casefold()])
        else:
            import difflib

            close = difflib.get_close_matches(item.casefold(), list(names), n=3, cutoff=0.6)
            hint = f" (closest: {', '.join(names[c] for c in close)})" if close else ""
            raise UsageError(f"{option}: {item[:80]!r} is not a property on the board, $N or 'jail card'{hint}")
    return lots, cash, cards


def add_trade_options(p: Any, file_option: str, what: str) -> None:
    """``FILE_OPTION FILE|-`` and the compact ``--give``/``--to``/``--get`` form."""
    p.add_argument(file_option, metavar="FILE|-", help=f"the {what} as a JSON file (the state format's trade form), or - for standard input")
    p.add_argument("--give", metavar="ITEMS", help='compact form: what --player gives, e.g. "Atlantic Avenue,$50"')
    p.add_argument("--to", metavar="NAME", help="compact form: who receives --give and gives --get")
    p.add_argument("--get", metavar="ITEMS", help='compact form: what --player gets, e.g. "Virginia Avenue"')


def trade_from_args(state: GameState, args: Any, file_option: str, giver: str | None) -> Trade:
    """The trade of ``file_option`` or of the compact form (exactly one of them)."""
    dest = file_option.lstrip("-").replace("-", "_")
    path = getattr(args, dest)
    compact = args.give is not None or args.get is not None or args.to is not None
    if (path is None) == (not compact):
        raise UsageError(f"give the {file_option} FILE or the compact form (--give/--get with --to), one of them")
    if path is not None:
        return _trade_doc(read_json_file(path, file_option), file_option)
    if args.to is None:
        raise UsageError("--to: the compact form needs the other player")
    me = giver if giver is not None else state.players[state.to_move].name
    a_lots, a_cash, a_cards = _items(state, args.give or "", "--give")
    b_lots, b_cash, b_cards = _items(state, args.get or "", "--get")
    legs = [Transfer(me, args.to, tuple(a_lots), a_cash, a_cards), Transfer(args.to, me, tuple(b_lots), b_cash, b_cards)]
    return Trade(tuple(t for t in legs if not t.is_empty()))
