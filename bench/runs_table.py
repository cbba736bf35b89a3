"""One line per results file: the first agent's win rate against the rest, with its interval.

    python bench/runs_table.py FILE [FILE ...]

For the runs kept in ``bench/runs/`` (docs/benchmarks.md, "Runs kept in the repository"): each
file's header names the agents (the first is the one measured; a table of one agent against
copies of another) and the rules. Printed per file: the players, the rules, the games played,
the first agent's wins, its rate with the Wilson 95% interval
(the tournament's own standings, :func:`engine.tournament.run.summarize`), the par of a table of equals (1 / players), the
share of games the round cap decided, and the mean rounds. The rows are read by
:func:`engine.tournament.results.read_results`; a file without a header, or whose first agent
appears twice in the line-up, is refused in one line (exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.tournament.results import read_results  # noqa: E402
from engine.tournament.run import summarize  # noqa: E402


def line(path: Path) -> str:
    """The summary line of one results file (module docstring).

    Raises
    ------
    SystemExit
        No header, no game, or the first agent named twice.
    """
    found = read_results(path)
    if found.header is None:
        raise SystemExit(f"{path}: no results header")
    agents = found.header["agents"]
    first = agents[0]
    if agents.count(first) != 1:
        raise SystemExit(f"{path}: the first agent {first!r} is in the line-up more than once")
    rows = list(found.rows.values())
    if not rows:
        raise SystemExit(f"{path}: no game")
    n, players = len(rows), len(agents)
    standing = summarize(rows, agents)[0][0]  # the first agent's: wins, rate and Wilson interval
    wins, (lo, hi) = standing.wins, standing.interval
    capped = sum(r["reason"] == "round_cap" for r in rows) / n
    rounds = sum(r["rounds"] for r in rows) / n
    rules = found.header.get("rules", {}).get("name", "standard-us")
    others = ",".join(dict.fromkeys(agents[1:]))
    return (
        f"{path.name}: {first} vs {players - 1} x {others}, {rules}: {n} games, {wins} wins, "
        f"{standing.rate:.4f} [{lo:.4f}, {hi:.4f}] (par {1 / players:.4f}); round cap {capped:.1%}, {rounds:.0f} rounds"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    args = ap.parse_args()
    for path in args.files:
        try:
            print(line(path))
        except SystemExit as err:
            print(f"runs_table.py: {err}", file=sys.stderr)
            raise SystemExit(2) from None


if __name__ == "__main__":
    main()
