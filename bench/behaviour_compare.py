"""This checkout's answers and games against another checkout's, through the command line.

    python bench/behaviour_compare.py --base PATH [--only NAME,...] [--list] [--jobs N]

``PATH`` is the root of another checkout of this repository (a git worktree of
an older commit, say). Both run the same commands, each with its own tree first
on ``sys.path`` (``python -m solver ...`` from that tree's root), and the script
compares what they print byte for byte; for ``play`` it also compares a digest
of every state the game saved (``--save-states``: the state at the start of
every round), so two games that end alike but move differently still differ.
It prints one line per command (``same`` or ``DIFFERS``, with the digests) and
exits 1 if any differs.

The command line is the one interface a refactoring must keep as it is, so
this is the check that a change meant to change no behaviour (a move of
modules, a split, typed names) changed none: every bundled instance through
``solve`` (both modes), ``trades``, ``analyze``, ``risk`` and ``odds``; the
auctions of the instances that have an unowned lot; agent games (``subgraph``,
``value``, ``strategic``, ``random`` and mixed line-ups, from the opening and
from saved states, under two rule presets); a small tournament, a novelty trial
and a pruning report; and the reinforcement-learning example. The batch
kernel's own comparison over every configuration is ``bench/kernel_compare.py``.

Outputs that carry the package's version or a wall-clock time are normalised
first (``_normalise``): a version string, the ``elapsed``/``seconds`` keys of
the JSON objects that have them, and the ``"schema"`` key that 0.2.0 put first
in every ``--json`` output (its only change to them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

INSTANCES = sorted(p.name for p in (ROOT / "instances").glob("*.json"))
"""Every bundled instance (this checkout's list; both trees must hold them)."""

AUCTIONS = {
    "midgame-no-monopolies.json": ["Pennsylvania Avenue", "Water Works"],
    "opening.json": ["Boardwalk"],
}
"""Instances with an unowned lot, and the lots to price."""

LINEUPS = [
    ("subgraph,strategic,strategic,strategic", None, None),
    ("value,strategic,strategic,strategic", None, None),
    ("subgraph,value,strategic,random", None, "house-jackpot"),
    ("strategic,strategic,strategic,strategic", "instances/midgame-no-monopolies.json", None),
    ("subgraph,subgraph,strategic,strategic", "instances/late-game-house-shortage.json", None),
    ("random,random,random", None, "no-doubles"),
]
"""Agent line-ups for ``play``: (agents, start state or the opening, rules preset or the state's)."""


@dataclass(frozen=True)
class Case:
    """One command: ``name`` for the report, ``argv`` after ``python``, and whether it saves states."""

    name: str
    argv: tuple[str, ...]
    saves_states: bool = False


def cases() -> Iterator[Case]:
    """Every command compared, cheapest first."""
    cli = ("-m", "solver")
    for inst in INSTANCES:
        path = f"instances/{inst}"
        yield Case(f"analyze {inst}", cli + ("analyze", path, "--json"))
        yield Case(f"risk {inst}", cli + ("risk", path, "--json"))
        yield Case(f"trades {inst}", cli + ("trades", path, "--json", "--top", "8"))
        yield Case(f"trades --cycles {inst}", cli + ("trades", path, "--json", "--top", "4", "--cycles"))
    yield Case("odds", cli + ("odds", "--json"))
    yield Case("odds no-doubles", cli + ("odds", "--json", "--rules", "no-doubles"))
    for inst, lots in AUCTIONS.items():
        for lot in lots:
            yield Case(f"auction {inst} {lot}", cli + ("auction", f"instances/{inst}", "--property", lot, "--json"))
    yield Case("bidding-game", cli + ("bidding-game", "instances/graphs/example-game.json", "--kind", "poorman", "--json"))
    for inst in INSTANCES:
        path = f"instances/{inst}"
        yield Case(f"solve {inst}", cli + ("solve", path, "--seed", "1", "--json"))
        yield Case(f"solve --mode best {inst}", cli + ("solve", path, "--seed", "2", "--mode", "best", "--json"))
    yield Case("solve text midgame", cli + ("solve", "instances/midgame-no-monopolies.json", "--seed", "1"))
    for i, (agents, state, rules) in enumerate(LINEUPS):
        for game in (0, 1):
            argv = cli + ("play", "--agents", agents, "--seed", str(11 + i), "--game", str(game), "--json")
            if state is not None:
                argv += ("--state", state)
            if rules is not None:
                argv += ("--rules", rules)
            yield Case(f"play {agents} {state or 'opening'} {rules or ''} game {game}".strip(), argv, True)
    yield Case(
        "tournament",
        cli + ("tournament", "--agents", "subgraph,strategic,value,random", "--games", "4", "--seed", "3", "--out", "-", "--json"),
    )
    yield Case("trial", cli + ("trial", "--agent", "strategic", "--novelty", "all", "--games", "4", "--json"))
    yield Case("prune-report", cli + ("prune-report", "--from-games", "2", "--max-states", "4", "--json"))
    yield Case("rl example", ("examples/rl_random_vs_subgraph.py", "--games", "1", "--seed", "0", "--max-turns", "300"))


_VERSION = re.compile(r'("version": ")[^"]*(")|(monopoly-trade )\d+\.\d+\.\d+\S*')
_TIMES = re.compile(r'("(?:elapsed|seconds|elapsed_s|wall_s|time_s)": )[-0-9.e]+')
_SCHEMA = re.compile(r'"schema": "urn:monopoly-trade:output:[^"]*", ')
_TEXT_TIMES = re.compile(r"\b\d+(?:\.\d+)? ?(?:s|ms)\b(?= |\)|,|$)")


def _normalise(text: str) -> str:
    """``text`` without what legitimately differs between two checkouts: versions and times."""
    text = _VERSION.sub(lambda m: (m.group(1) or m.group(3)) + "X" + (m.group(2) or ""), text)
    text = _TIMES.sub(r"\g<1>0", text)
    text = _SCHEMA.sub("", text)
    return _TEXT_TIMES.sub("Ts", text)


def run_case(tree: Path, case: Case) -> tuple[str, str]:
    """(digest, first lines of the output) of ``case`` run in ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory() as tmp:
        argv = [sys.executable, *case.argv]
        if case.saves_states:
            argv += ["--save-states", tmp]
        proc = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, timeout=1800)
        h = hashlib.sha256()
        out = _normalise(proc.stdout)
        h.update(f"rc={proc.returncode}\n".encode())
        h.update(out.encode())
        if proc.returncode != 0:
            h.update(proc.stderr.encode())
        if case.saves_states:
            for f in sorted(Path(tmp).iterdir()):
                h.update(f.name.encode())
                h.update(f.read_bytes())
    shown = (out if proc.returncode == 0 else proc.stderr).strip().splitlines()[:3]
    return h.hexdigest()[:16], " | ".join(s[:120] for s in shown)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, help="root of the other checkout")
    ap.add_argument("--only", help="comma-separated substrings: run only the commands whose name holds one")
    ap.add_argument("--list", action="store_true", help="list the commands and exit")
    ap.add_argument("--jobs", type=int, default=2, help="commands run at once (default 2)")
    args = ap.parse_args(argv)
    todo = list(cases())
    if args.only:
        keys = [k.strip() for k in args.only.split(",") if k.strip()]
        todo = [c for c in todo if any(k in c.name for k in keys)]
    if args.list:
        for c in todo:
            print(c.name)
        return 0
    if args.base is None:
        ap.error("--base is required (or --list)")
    base = args.base.resolve()
    if not (base / "solver" / "__main__.py").exists():
        ap.error(f"{base}: not a checkout of this repository")
    differs = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [(c, pool.submit(run_case, ROOT, c), pool.submit(run_case, base, c)) for c in todo]
        for c, new, old in futures:
            (hn, shown_new), (ho, shown_old) = new.result(), old.result()
            same = hn == ho
            differs += not same
            print(f"{'same   ' if same else 'DIFFERS'} {hn} {ho}  {c.name}", flush=True)
            if not same:
                print(f"    this: {shown_new}\n    base: {shown_old}", flush=True)
    print(json.dumps({"commands": len(todo), "differ": differs}))
    return 1 if differs else 0


if __name__ == "__main__":
    raise SystemExit(main())
