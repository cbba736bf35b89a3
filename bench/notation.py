"""The one-line notation (MPN) at scale: round trips of states from agent games, and mutated lines.

    python bench/notation.py [--states 10000] [--mutations 2000] [--seed 0] [--max-rounds 60]

States: one game from each starting position of :mod:`tests.played_states` (the opening
under each preset, every bundled instance), seed after seed, until ``--states`` turn-start
states are collected; each goes JSON -> line -> JSON (``state_to_dict(load_line(to_line(s)))
== state_to_dict(s)``). Printed: the count, the failures (each printed), the line lengths
and the time per state to write and to read a line.

Mutations: ``--mutations`` lines from :func:`tests.state_fuzz.mutate_line` applied to the
bundled instances' lines. Counted: refused in one line naming the column, accepted (and
then its own line must round-trip), and anything else (a defect, printed with its case).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.io import NotationError, load_line, load_state, state_to_dict, to_line  # noqa: E402
from models.state import GameState  # noqa: E402
from tests.played_states import INSTANCES, game_states, starts  # noqa: E402
from tests.state_fuzz import mutate_line  # noqa: E402

_COLUMN = re.compile(r"^notation: column \d+: ")


def _states(count: int, seed: int, max_rounds: int) -> list[GameState]:
    out: list[GameState] = []
    first = starts()
    game = 0
    while len(out) < count:
        out += game_states(first[game % len(first)], seed, game, max_rounds)
        game += 1
    return out[:count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--states", type=int, default=10_000)
    ap.add_argument("--mutations", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-rounds", type=int, default=60)
    args = ap.parse_args()

    t0 = time.perf_counter()
    states = _states(args.states, args.seed, args.max_rounds)
    print(f"{len(states)} states from agent games in {time.perf_counter() - t0:.1f} s")
    failures = 0
    lengths, write_s, read_s = [], 0.0, 0.0
    for state in states:
        doc = state_to_dict(state)
        t = time.perf_counter()
        line = to_line(state)
        t1 = time.perf_counter()
        back = state_to_dict(load_line(line))
        t2 = time.perf_counter()
        write_s, read_s = write_s + t1 - t, read_s + t2 - t1
        lengths.append(len(line))
        if back != doc:
            failures += 1
            print("ROUND TRIP FAILED:", line)
    print(f"round trip JSON -> line -> JSON: {len(states) - failures} of {len(states)} exact")
    print(f"line length: median {statistics.median(lengths):.0f}, max {max(lengths)} characters")
    print(f"per state: to_line {1e6 * write_s / len(states):.0f} us, load_line {1e6 * read_s / len(states):.0f} us")

    rng = random.Random(args.seed)
    sources = [to_line(load_state(p)) for p in INSTANCES]
    outcomes: Counter[str] = Counter()
    for case in range(args.mutations):
        line = mutate_line(rng.choice(sources), rng)
        try:
            state = load_line(line)
        except NotationError as err:
            text = str(err)
            one_line = "\n" not in text and text.isprintable() and _COLUMN.match(text)
            outcomes["refused in one line naming the column" if one_line else "refused, badly"] += 1
            if not one_line:
                print(f"case {case}: {line!r}: {text!r}")
        except Exception as err:  # noqa: BLE001 - counting what must not happen
            outcomes["another exception"] += 1
            print(f"case {case}: {line!r}: {type(err).__name__}: {err}")
        else:
            ok = state_to_dict(load_line(to_line(state))) == state_to_dict(state)
            outcomes["accepted (a valid line)" if ok else "accepted, round trip failed"] += 1
    print(f"{args.mutations} mutated lines: " + ", ".join(f"{n} {what}" for what, n in outcomes.most_common()))


if __name__ == "__main__":
    main()
