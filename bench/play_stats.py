"""How an agent plays: offers per game, acceptance, buildings, and its CPU per game.

    python bench/play_stats.py [--agent subgraph] [--games 30] [--seed 0] [--start 0] [--cap 1000]

Plays games ``start .. start + games - 1`` of ``--seed`` exactly as
``monopoly-trade tournament --agents AGENT,strategic,strategic,strategic --seed S``
does (same seats, dice and agent seeds: :func:`engine.tournament.play_one`'s
recipe), one process, and measures the tested agent only:

* CPU: :func:`time.process_time` spent inside its methods (every call the
  engine makes to it), per game, and the part spent on the auction path
  (``buy`` and ``auction_max``); the other seats and the engine are not counted
  (a call costs about 0.7 us here, a few milliseconds per game);
* offers: trades it proposed per game and the share accepted (from the
  engine's ``trade`` events);
* buildings: its peak number of buildings (a hotel counts 5) per game, and
  among the games where it held a complete set, the share where its peak was 0
  (a bare monopoly);
* wins, with a 95% Wilson interval.

CPU time is robust to other load on the machine, not to a slower clock or shared caches.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from typing import Any

from engine.rules.actions import Event
from engine.rules.game import Game
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from engine.tournament import seating, wilson
from models.state import GameState
from solver.agents.registry import factory

METHODS = (
    "act",
    "accept_trade",
    "buy",
    "auction_max",
    "raise_cash",
    "jail_choice",
    "notify",
    "building_bid",
    "place_building",
    "lift_on_receipt",
    "start_game",
)


AUCTION_PATH = ("buy", "auction_max")
"""The methods of the auction path (buying at list price and bidding), timed apart as well."""


def _timed(agent: Any, clock: list[float]) -> None:
    """Wrap the agent's methods: ``clock[0]`` all of them, ``clock[1]`` the auction path."""
    for name in METHODS:
        fn = getattr(agent, name, None)
        if fn is None:
            continue

        @functools.wraps(fn)
        def wrapper(*a: Any, __fn: Any = fn, __auction: bool = name in AUCTION_PATH, **k: Any) -> Any:
            t = time.process_time()
            try:
                return __fn(*a, **k)
            finally:
                spent = time.process_time() - t
                clock[0] += spent
                if __auction:
                    clock[1] += spent

        setattr(agent, name, wrapper)


def play(spec: str, seed: int, game: int, cap: int) -> dict[str, Any]:
    specs = [spec, "strategic", "strategic", "strategic"]
    factories = [factory(s) for s in specs]
    order = seating(game, 4)
    stream_seed, seat_seeds = game_seeds(game_seed_sequence(seed, game), 4)
    agents = [factories[a](s) for a, s in zip(order, seat_seeds, strict=True)]
    seat = order.index(0)
    clock = [0.0, 0.0]
    _timed(agents[seat], clock)
    counts = {"offers": 0, "accepted": 0}
    state = GameState.new_game([f"P{k + 1}" for k in range(4)])
    peak = 0
    had_set = False

    def watch(ev: Event, g: Game) -> None:
        nonlocal peak, had_set
        if ev.kind == "trade" and ev.player == seat:
            counts["offers"] += 1
            counts["accepted"] += bool(ev.data.get("accepted"))
        s = g.state
        if ev.kind == "build" and ev.player == seat:
            peak = max(peak, sum(s.houses[sq] for sq in s.board.property_squares if s.owner[sq] == seat))
        if not had_set and ev.kind in ("trade", "buy", "auction") and s.complete_groups(seat):
            had_set = True

    result = Game(state, agents, SeededStream(stream_seed), max_rounds=cap, observers=[watch]).play()
    return {
        "won": result.winner_index == seat,
        "rounds": result.rounds,
        "cpu": clock[0],
        "auction_cpu": clock[1],
        "peak": peak,
        "had_set": had_set,
        **counts,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agent", default="subgraph")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--cap", type=int, default=1000)
    args = ap.parse_args()
    rows = [play(args.agent, args.seed, i, args.cap) for i in range(args.start, args.start + args.games)]
    n = len(rows)
    wins = sum(r["won"] for r in rows)
    lo, hi = wilson(wins, n)
    offers = sum(r["offers"] for r in rows)
    acc = sum(r["accepted"] for r in rows)
    sets = [r for r in rows if r["had_set"]]
    bare = sum(1 for r in sets if r["peak"] == 0)
    cpu = [r["cpu"] for r in rows]
    print(f"{args.agent}: {n} games of seed {args.seed} from {args.start}, vs three strategic")
    print(f"  wins {wins}/{n} = {wins / n:.3f} [{lo:.3f}, {hi:.3f}]; mean rounds {statistics.mean(r['rounds'] for r in rows):.0f}")
    print(f"  CPU in the agent: {statistics.mean(cpu):.2f} s per game (median {statistics.median(cpu):.2f}, max {max(cpu):.2f})")
    auction = [r["auction_cpu"] for r in rows]
    print(f"  of which the auction path (buy, auction_max): {statistics.mean(auction):.3f} s per game (max {max(auction):.3f})")
    print(f"  offers {offers / n:.2f} per game, accepted {acc}/{offers} = {acc / max(offers, 1):.2f}")
    print(
        f"  peak buildings: median {statistics.median(r['peak'] for r in rows):.0f}; "
        f"games with a complete set {len(sets)}, bare {bare} ({bare / max(len(sets), 1):.0%})"
    )


if __name__ == "__main__":
    main()
