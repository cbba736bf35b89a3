"""A random masked policy against a ``SubgraphTradeAgent`` seat, through the PettingZoo environment.

Trains nothing: it shows the loop a learner runs. Seat ``player_0`` is the
learner (here a uniform choice among the legal actions of the mask); seat
``player_1`` is the solver's agent, played inside the engine with a small
simulation budget so that a game takes a few seconds::

    python examples/rl_random_vs_subgraph.py --games 2 --seed 0

Per game it prints the winner, how the game ended, and the random seat's
decisions: how many, by kind, and how many legal actions the mask offered
(mean and most). Needs the ``[rl]`` extra (``pip install -e '.[rl]'``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

import numpy as np

from solver.rl.aec_env import MonopolyAECEnv

SUBGRAPH = "subgraph:rollouts=8,horizon=8,accept_rollouts=8,candidates=2,auction=price,build=even,price=generated"
"""The opponent: the solver's agent with a small budget (the defaults take about a second per decision that searches)."""


def play(games: int, seed: int, opponent: str, max_turns: int) -> list[dict[str, object]]:
    """Play ``games`` games (game ``i`` seeded as game ``i`` of a run seeded ``seed``); one summary per game.

    Parameters
    ----------
    games:
        How many games.
    seed:
        Seeds the games and the random policy.
    opponent:
        The agent spec of seat ``player_1`` (:mod:`solver.agents.registry`).
    max_turns:
        Engine turns after which a game is cut off (truncation).

    Returns
    -------
    list of dict
        Per game: winner, reason, turns, the random seat's reward, decisions,
        decisions by kind, mean and most legal actions, seconds.
    """
    env = MonopolyAECEnv(n_players=2, opponents={"player_1": opponent}, max_turns=max_turns)
    policy = np.random.default_rng(seed)
    out = []
    try:
        for game in range(games):
            start = time.perf_counter()
            if game == 0:
                env.reset(seed=seed)
            else:
                env.reset()
            kinds: Counter[str] = Counter()
            legal_counts = []
            reward = 0.0
            for agent in env.agent_iter():
                obs, reward, terminated, truncated, info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                kinds[info["decision"]["kind"]] += 1
                legal_counts.append(len(legal))
                env.step(int(policy.choice(legal)))
            result = env.result
            out.append(
                {
                    "game": game,
                    "winner": result.winner if result is not None else None,
                    "reason": result.reason if result is not None else f"cut at {max_turns} turns",
                    "turns": result.turns if result is not None else max_turns,
                    "reward": reward,
                    "decisions": len(legal_counts),
                    "kinds": dict(kinds.most_common()),
                    "mean_legal": float(np.mean(legal_counts)) if legal_counts else 0.0,
                    "max_legal": max(legal_counts, default=0),
                    "seconds": time.perf_counter() - start,
                }
            )
    finally:
        env.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games to play (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games and of the random policy (default 0)")
    parser.add_argument("--opponent", default=SUBGRAPH, help="agent spec of seat player_1 (default: a small subgraph agent)")
    parser.add_argument("--max-turns", type=int, default=600, help="engine turns before a game is cut off (default 600)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.seed < 0 or args.max_turns < 1:
        parser.error("--games and --max-turns must be positive, --seed non-negative")
    wins = 0
    for row in play(args.games, args.seed, args.opponent, args.max_turns):
        wins += row["winner"] == "player_0"
        kinds = ", ".join(f"{k} {v}" for k, v in row["kinds"].items())  # type: ignore[union-attr]
        print(
            f"game {row['game']}: winner {row['winner']} ({row['reason']}, {row['turns']} turns, {row['seconds']:.1f} s); "
            f"random seat player_0: reward {row['reward']:+g}, {row['decisions']} decisions ({kinds}), "
            f"legal actions per decision mean {row['mean_legal']:.2f}, most {row['max_legal']}"
        )
    print(f"random seat won {wins} of {args.games}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
