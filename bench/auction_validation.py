"""The bidding-game auction bid against the simulated indifference price, on situations from real games.

    python bench/auction_validation.py [--situations 200] [--seed 0] [--rollouts 300] [--horizon 20] [--out FILE]

Situations: games of four ``strategic`` agents (seed ``--seed``, game ``g``
from :func:`engine.rules.seeding.game_seed_sequence`) are played; every time a
player lands on an unowned lot (the engine asks it whether to buy), the
state and the lot are recorded. One situation in every ``--every`` (default
3) is kept, game after game, until ``--situations`` are collected; so the
sample spans openings, mid-games and late games as they occur in play.

For each situation, from the lander's side:

* the bidding game (:func:`solver.bidding.contest.contest_bid`): its
  *price* ``min(game bid, outbid cap, cash)`` (the bid before the
  liquidity and risk caps, cut at cash as the simulated ``p*`` is) and its
  maximum bid;
* the simulation (:class:`solver.bidding.auction.AuctionEvaluator`,
  ``--rollouts`` games of ``--horizon`` rounds, $5 bisection): the
  indifference price ``p*`` (censored at the player's cash) and its maximum
  bid.

Printed: Spearman's rank correlation (with a bootstrap 95% interval over
situations) and the median absolute difference in dollars, for the prices
and for the maximum bids; the same for the list price as a reference, and
for the simulation against itself (``p*`` again on another seed: the
ceiling that the simulation's own noise puts on any agreement); the share where both agree on buying at list
price; and the situations where the prices disagree most, with the
components that explain it. ``--out`` writes every row as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import spearmanr  # type: ignore[import-untyped]

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.rules.game import Game
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from models.files import atomic_write
from models.state import GameState
from solver.agents.strategic import StrategicTradeAgent
from solver.bidding.auction import AuctionEvaluator
from solver.bidding.contest import contest_bid


def situations(seed: int, wanted: int, every: int, cap: int = 300) -> list[tuple[GameState, int, int, int]]:
    """``(state, player, square, game)`` at every ``every``-th purchase question, until ``wanted``."""
    found: list[tuple[GameState, int, int, int]] = []
    seen = 0
    game = 0
    while len(found) < wanted:
        stream_seed, seat_seeds = game_seeds(game_seed_sequence(seed, game), 4)
        agents = [StrategicTradeAgent(s) for s in seat_seeds]
        for agent in agents:
            original = agent.buy

            def spy(view: Any, square: int, __orig: Any = original, __agent: Any = agent, __game: int = game) -> bool:
                nonlocal seen
                seen += 1
                if seen % every == 0 and len(found) < wanted:
                    found.append((view.copy(), __agent.me, square, __game))
                return bool(__orig(view, square))

            agent.buy = spy  # type: ignore[method-assign]
        state = GameState.new_game([f"P{k + 1}" for k in range(4)])
        Game(state, agents, SeededStream(stream_seed), max_rounds=cap).play()
        game += 1
    return found


def bootstrap_spearman(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, n: int = 2000) -> tuple[float, float]:
    stats = []
    for _ in range(n):
        i = rng.integers(0, len(x), len(x))
        r = spearmanr(x[i], y[i]).statistic
        if np.isfinite(r):
            stats.append(r)
    return float(np.percentile(stats, 2.5)), float(np.percentile(stats, 97.5))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--situations", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--rollouts", type=int, default=300)
    ap.add_argument("--horizon", type=int, default=20)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    if not 1 <= args.situations <= 5000 or not 1 <= args.every <= 100:
        ap.error("--situations must be in 1..5000 and --every in 1..100")
    rows: list[dict[str, Any]] = []
    game_ms: list[float] = []
    for k, (state, player, square, game) in enumerate(situations(args.seed, args.situations, args.every)):
        t0 = time.process_time()
        gb = contest_bid(state, player, square)
        game_ms.append((time.process_time() - t0) * 1e3)
        ev = AuctionEvaluator(state, player, square, rollouts=args.rollouts, horizon=args.horizon, seed=k)
        sim = ev.bid()
        retest = AuctionEvaluator(state, player, square, rollouts=args.rollouts, horizon=args.horizon, seed=10**6 + k)
        p_again = retest.indifference_price()[0]
        rows.append(
            {
                "situation": k,
                "game": game,
                "round": state.round,
                "player": state.players[player].name,
                "property": gb.property,
                "list_price": gb.list_price,
                "cash": state.players[player].cash,
                "contested": len(gb.lots),
                "rival": gb.rival,
                "sim_rival": sim.rival,
                "game_price": min(gb.game_bid, gb.outbid_cap, state.players[player].cash),
                "game_bid": gb.game_bid,
                "outbid_cap": gb.outbid_cap,
                "poorman_fraction": gb.poorman_fraction,
                "money_in_play": gb.money_in_play,
                "game_max": gb.max_bid,
                "game_buy": gb.buy_at_list,
                "sim_price": sim.indifference_price,
                "sim_censored": sim.censored,
                "sim_price_retest": p_again,
                "sim_max": sim.max_bid,
                "sim_buy": sim.buy_at_list,
            }
        )
    n = len(rows)
    rng = np.random.default_rng(args.seed)
    print(f"{n} auction situations from games of four strategic agents (seed {args.seed}, every {args.every}th purchase question)")
    print(f"simulation: {args.rollouts} rollouts x {args.horizon} rounds per state; bidding game: {np.median(game_ms):.1f} ms median CPU")
    for label, a, b in (("price (before liquidity/risk caps)", "game_price", "sim_price"), ("maximum bid", "game_max", "sim_max")):
        x = np.array([r[a] for r in rows], float)
        y = np.array([r[b] for r in rows], float)
        rho = spearmanr(x, y).statistic
        lo, hi = bootstrap_spearman(x, y, rng)
        mad = float(np.median(np.abs(x - y)))
        print(f"  {label}: Spearman {rho:.3f} [{lo:.3f}, {hi:.3f}], median |game - simulation| ${mad:.0f}")
    x = np.array([r["sim_price_retest"] for r in rows], float)
    y = np.array([r["sim_price"] for r in rows], float)
    lo, hi = bootstrap_spearman(x, y, rng)
    print(
        f"  ceiling, the simulation against itself on other dice: Spearman {spearmanr(x, y).statistic:.3f} [{lo:.3f}, {hi:.3f}], "
        f"median |difference| ${float(np.median(np.abs(x - y))):.0f}"
    )
    x = np.array([r["list_price"] for r in rows], float)
    print(
        f"  reference, the list price as the bid: Spearman {spearmanr(x, y).statistic:.3f}, "
        f"median |list - simulation| ${float(np.median(np.abs(x - y))):.0f}"
    )
    agree = sum(r["game_buy"] == r["sim_buy"] for r in rows)
    print(f"  buy at list price: same answer in {agree}/{n} = {agree / n:.2f}")
    censored = sum(r["sim_censored"] for r in rows)
    print(f"  simulated p* censored at cash: {censored}/{n}")
    worst = sorted(rows, key=lambda r: -abs(r["game_price"] - r["sim_price"]))[:8]
    print("  largest disagreements (price):")
    for r in worst:
        print(
            f"    #{r['situation']} game {r['game']} round {r['round']}: {r['property']} (list ${r['list_price']}, cash ${r['cash']}, "
            f"{r['contested']} contested) game ${r['game_price']} [bid ${r['game_bid']}, "
            f"outbid ${r['outbid_cap']}] vs simulation ${r['sim_price']}{' (censored)' if r['sim_censored'] else ''}; "
            f"rivals {r['rival']}/{r['sim_rival']}"
        )
    if args.out:
        atomic_write(args.out, "".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
