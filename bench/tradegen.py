"""Speed and repeatability of trade generation (issue targets in brackets).

    python bench/tradegen.py [--games 30] [--repeat 3] [--load]

States: 4-player mid-game positions sampled from games of four
``StrategicTradeAgent``s (game i seeded ``SeedSequence([0, i])``, the state at
the start of rounds 20, 30 and 40 while all four players are still in),
plus ``instances/midgame-no-monopolies.json``. For each state, the player to
move asks for its top 20 trades with ``generate_trades`` (reserves from the
ruin chain, the linear estimate, the CP-SAT search; the position chain is
built once per board), bilateral only [median <= 100 ms] and with 3-cycles
[median <= 400 ms], one core. Each figure is the median over states of the
best of ``--repeat`` runs; p90 and max are printed too.

Repeatability: every top-20 list is compared across the repeats; with
``--load`` a second process burns a CPU meanwhile, so the lists are also
compared under machine load [identical].
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import statistics
import time
from pathlib import Path

import numpy as np

from engine.chains.markov import chain_for
from engine.rules.game import Game
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from models.io import load_state
from models.state import GameState
from solver.agents.strategic import StrategicTradeAgent
from solver.trades.cpsat import Limits, generate_trades

ROOT = Path(__file__).resolve().parents[1]


def sample_states(games: int) -> list[tuple[str, GameState]]:
    out = [("midgame-no-monopolies", load_state(ROOT / "instances" / "midgame-no-monopolies.json"))]
    for g in range(games):
        stream_seed, seat_seeds = game_seeds(game_seed_sequence(0, g), 4)
        state = GameState.new_game([f"P{k + 1}" for k in range(4)])
        game = Game(state, [StrategicTradeAgent(s) for s in seat_seeds], SeededStream(stream_seed), max_rounds=41)
        wanted = {20, 30, 40}
        while not game.over and wanted:
            if state.round in wanted and state.phase == "start" and state.to_move == 0:
                wanted.discard(state.round)
                if len(state.active_players()) == 4:
                    out.append((f"game {g} round {state.round}", state.copy()))
            game.play_turn()
    return out


def _burn(stop: mp.synchronize.Event) -> None:  # type: ignore[name-defined]
    x = 0
    while not stop.is_set():
        x = (x * 31 + 7) % 1000003


def run(states: list[tuple[str, GameState]], cycles: bool, repeat: int) -> tuple[list[float], int, int]:
    times = []
    differ = 0
    counts = 0
    for _label, state in states:
        chain = chain_for(state.board, state.rules)
        lists = []
        best = float("inf")
        for _ in range(repeat):
            t = time.perf_counter()
            res = generate_trades(state, state.to_move, cycles=cycles, limits=Limits(top_k=20), chain=chain)
            best = min(best, time.perf_counter() - t)
            lists.append([(g.candidate, tuple(sorted(g.gains.items()))) for g in res.trades])
        differ += any(lst != lists[0] for lst in lists)
        counts += len(lists[0])
        times.append(best * 1000)
    return times, differ, counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--load", action="store_true", help="burn a CPU in another process during the runs")
    args = ap.parse_args()
    t0 = time.perf_counter()
    states = sample_states(args.games)
    print(f"{len(states)} four-player states ({time.perf_counter() - t0:.1f} s to sample)")
    stop = mp.Event()
    burner = None
    if args.load:
        burner = mp.Process(target=_burn, args=(stop,), daemon=True)
        burner.start()
    try:
        for cycles in (False, True):
            times, differ, counts = run(states, cycles, args.repeat)
            label = "bilateral + 3-cycles" if cycles else "bilateral"
            print(
                f"{label:<21} top-20: median {statistics.median(times):.1f} ms, p90 {np.percentile(times, 90):.1f} ms, "
                f"max {max(times):.1f} ms; {counts / len(states):.1f} trades per state; "
                f"lists differing across {args.repeat} repeats{' under load' if args.load else ''}: {differ}"
            )
    finally:
        stop.set()
        if burner is not None:
            burner.join()
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
