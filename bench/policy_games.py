"""How often the rollout policy plays a game to its end.

    python bench/policy_games.py [--games 4000] [--horizon 1000] [--seed 0] [--reference 200]

For the mid-game instance (``instances/midgame-no-monopolies.json``) and the
opening (4 players), plays ``--games`` kernel games (:func:`engine.sim.rollout.simulate`)
for at most ``--horizon`` rounds, with the default (trading) policy and with
the old policy (``trade=False, mortgage_to_build=False``), and prints the
share of games that end by bankruptcy within the horizon with its 95% Wilson
interval, the mean number of rounds played, and the kernel's speed
(player-turns per second on one core, after a warm-up call that compiles or
loads the kernel).

``--reference N`` also plays N games of each case in the reference engine
(:class:`engine.rules.game.Game` with :class:`engine.sim.rollout_policy.PolicyAgent`
on the same counter-based dice and cards: the same games as the kernel's
first N), as a cross-check.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engine.rules.game import Game
from engine.rules.streams import CounterStream, stream_keys
from engine.sim.rollout import simulate
from engine.sim.rollout_policy import PolicyAgent, RolloutPolicy
from engine.tournament import wilson
from models.io import load_state
from models.state import GameState

ROOT = Path(__file__).resolve().parents[1]
POLICIES = {
    "trading (default)": RolloutPolicy(),
    "old (no trades, no mortgages to build)": RolloutPolicy(trade=False, mortgage_to_build=False),
}


def reference_share(state: GameState, n: int, horizon: int, seed: int, policy: RolloutPolicy) -> tuple[int, float]:
    """Games ended by bankruptcy and mean rounds over the first ``n`` games of the seed, in the reference engine."""
    ended = 0
    rounds = 0
    for key in stream_keys(seed, n):
        s = state.copy()
        game = Game(s, [PolicyAgent(policy=policy) for _ in s.players], CounterStream(int(key)), max_rounds=s.round + horizon)
        res = game.play()
        ended += res.reason == "bankruptcy"
        rounds += res.rounds - state.round
    return ended, rounds / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--horizon", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reference", type=int, default=0, help="also play this many games in the reference engine")
    args = ap.parse_args()
    simulate(GameState.new_game(["A", "B"]), 4, 5, seed=0)  # compile or load the cache
    starts = (
        ("midgame-no-monopolies", load_state(ROOT / "instances" / "midgame-no-monopolies.json")),
        ("opening, 4 players", GameState.new_game(["A", "B", "C", "D"])),
    )
    print(f"{args.games} kernel games per line, at most {args.horizon} rounds, seed {args.seed}")
    for label, state in starts:
        for name, policy in POLICIES.items():
            r = simulate(state, args.games, args.horizon, seed=args.seed, policy=policy, scoring="net_worth")
            k = round(r.finished * args.games)
            lo, hi = wilson(k, args.games)
            print(
                f"  {label:<22} {name:<40} ended by bankruptcy {r.finished:6.1%} [{lo:.1%}, {hi:.1%}]"
                f"  mean rounds {r.mean_rounds:6.1f}  {r.player_turns / r.seconds / 1e6:.2f} M player-turns/s"
            )
            if args.reference:
                t = time.perf_counter()
                ended, mean_rounds = reference_share(state, args.reference, args.horizon, args.seed, policy)
                lo, hi = wilson(ended, args.reference)
                print(
                    f"  {'':<22} {'  reference engine, ' + str(args.reference) + ' games':<40} ended by bankruptcy "
                    f"{ended / args.reference:6.1%} [{lo:.1%}, {hi:.1%}]  mean rounds {mean_rounds:6.1f}"
                    f"  ({time.perf_counter() - t:.1f} s)"
                )


if __name__ == "__main__":
    main()
