"""``monopoly-trade convert STATE [--to line|json] [--out FILE]``: a state between the JSON format
and the one-line notation (MPN, docs/state-format.md#one-line-positions).

A JSON state (a file, or standard input) becomes its line; a line (given as ``STATE``, or held by
the file or standard input) becomes its JSON document in the canonical layout that
:func:`models.io.save_state` writes. ``--to`` forces either. The output goes to standard output,
or with ``--out FILE`` to that file, written atomically (:func:`models.files.atomic_write`).
Bad input is one line on stderr and exit status 2. It imports nothing beyond the models.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from solver.cli.common import STATE_HELP, read_state_source


def add_parser(subparsers: Any) -> None:
    """Add ``convert`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "convert",
        help="a state between JSON and the one-line notation",
        description=(
            "Convert a state: a JSON state to its one-line form (MPN1 ...), a line to its JSON document "
            "(the canonical layout). Both are checked by the loader first."
        ),
    )
    p.add_argument("state", help=STATE_HELP)
    p.add_argument("--to", choices=("line", "json"), help="the output's form (default: the other form than the input's: a JSON state gives its line, a line its JSON)")
    p.add_argument("--out", metavar="FILE", help="write to FILE (atomically) instead of standard output; - for standard output")


def run(args: argparse.Namespace) -> int:
    """Run ``convert`` on the parsed ``args``: the exit status."""
    from models.files import atomic_write
    from models.io import dumps_state, to_line

    state, was_line = read_state_source(args.state)
    to = args.to or ("json" if was_line else "line")
    text = dumps_state(state) if to == "json" else to_line(state) + "\n"
    if args.out is None or args.out == "-":
        sys.stdout.write(text)
    else:
        atomic_write(args.out, text)
    return 0
