"""The exact position chain under a rule preset against the reference engine (issue #17, item 2).

    python bench/chain_variants.py [--rules no-doubles] [--rolls 10000000] [--workers 2] [--seed 2024]
    python bench/chain_variants.py --rules standard-us --full --rolls 2000000

Plays one token through ``--rolls`` rolls (at least) of the reference engine
(:class:`engine.rules.game.Game`) in movement-only mode, split over ``--workers``
processes whose seeds are spawned from the one ``--seed``
(``numpy.random.SeedSequence(seed).spawn(workers)``), each cut into
``--batches`` batches of equal turns. Landings are counted the chain's way
(:class:`engine.chains.landing.RollLandings`: one per roll, in jail apart) and
compared with the long-run landing shares of :class:`engine.chains.markov.PositionChain`
(long jail policy: roll, or sit out, as the rules say).

The estimate of square ``s``'s share is ``R_s = sum_b c_bs / sum_b r_b``
(``c_bs`` landings on ``s`` and ``r_b`` rolls in batch ``b``); its standard
error is the batch-means ratio estimator's, ``sd_b(c_bs - R_s r_b) /
(mean_b(r_b) sqrt(B))`` over the ``B`` batches of all workers (batches are long,
so their correlation is negligible; Law & Kelton, batch means). Prints every
square (chain share, Monte Carlo share, SE, z), the largest ``|z|``, the
rolls per turn both ways, and the time.

``--full`` plays the engine's full game instead of movement-only (two players
with $10^9 each, who buy nothing and bid nothing, so no money decides
anything), with the rules' own card draws: for ``card_draw="shuffled"`` (the
standard) real decks, shuffled and drawn in order, which the chain
approximates by independent uniform draws. A Get Out of Jail Free card the
token draws is handed back at the end of its turn (as if used at once), so
the decks keep all their cards, as in the chain; what remains is the effect of
the deck order.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time

import numpy as np

from engine.chains.landing import JailPolicyAgent, RollLandings
from engine.chains.markov import PositionChain, columns
from engine.rules.game import Game
from engine.rules.streams import SeededStream
from models.board import standard_board
from models.rules import PRESETS, preset

RICH = 10**9


def play(args: tuple[str, int, int, np.random.SeedSequence, bool]) -> np.ndarray:
    """One worker: ``batches`` batches of ``per_batch`` turns; returns the (batches, n + 1) landing counts."""
    rules_name, batches, per_batch, seed, full = args
    board = standard_board()
    rules = preset(rules_name)
    from models.state import GameState

    state = GameState.new_game(["token", "idle"], board, rules)
    if full:
        for pl in state.players:
            pl.cash = RICH
    counts = np.zeros((batches, board.size + 1))
    observe = RollLandings(board, 0, counts[0])
    game = Game(
        state,
        [JailPolicyAgent("long"), JailPolicyAgent("long")],
        SeededStream(seed),
        movement_only=not full,
        max_rounds=10**12,
        observers=[observe],
    )
    token = state.players[0]
    for b in range(batches):
        observe.row = counts[b]
        for _ in range(per_batch):
            state.to_move, state.phase = 0, "start"
            game.play_turn()
            if full and game.held_cards[0]:  # hand a Get Out of Jail Free card straight back
                for deck, idx in game.held_cards[0]:
                    game.decks[deck].held.discard(idx)
                game.held_cards[0].clear()
                token.jail_cards = 0
    assert not game.over
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="no-doubles", choices=sorted(PRESETS))
    parser.add_argument("--rolls", type=int, default=10_000_000, help="at least this many rolls in all")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batches", type=int, default=50, help="batches per worker")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--full", action="store_true", help="the full game with the rules' own card draws")
    args = parser.parse_args()

    board = standard_board()
    rules = preset(args.rules)
    chain = PositionChain(board, rules, "long")
    n = board.size
    exact = chain.long_run_landing()
    turns = int(np.ceil(args.rolls / chain.rolls_per_turn * 1.002))
    per_batch = -(-turns // (args.workers * args.batches))
    seeds = np.random.SeedSequence(args.seed).spawn(args.workers)
    jobs = [(args.rules, args.batches, per_batch, s, args.full) for s in seeds]
    t0 = time.perf_counter()
    if args.workers == 1:
        parts = [play(jobs[0])]
    else:
        with mp.get_context("spawn").Pool(args.workers) as pool:
            parts = pool.map(play, jobs)
    elapsed = time.perf_counter() - t0
    counts = np.concatenate(parts)  # (B, n + 1)
    rolls_b = counts.sum(axis=1)
    total = counts.sum(axis=0)
    rolls = float(rolls_b.sum())
    share = total / rolls
    b = len(counts)
    resid = counts - share[None, :] * rolls_b[:, None]
    se = resid.std(axis=0, ddof=1) / (rolls_b.mean() * np.sqrt(b))
    z = np.where(se > 0, (share - exact) / np.where(se > 0, se, 1.0), 0.0)
    never = se == 0
    assert np.all(exact[never] == 0) and np.all(share[never] == 0), "a square the simulation never saw"

    mode = "full game, the rules' own card draws" if args.full else "movement-only"
    print(f"rules {rules.describe()} ({mode}), long jail policy; seed {args.seed}, {args.workers} workers x {args.batches} batches x {per_batch} turns")
    print(f"{'square':<28} {'chain %':>9} {'engine %':>9} {'SE %':>7} {'z':>6}")
    names = [f"{sq.index:2d} {sq.name}" for sq in board.squares] + ["   In Jail"]
    for s in range(n + 1):
        print(f"{names[s]:<28} {100 * exact[s]:9.4f} {100 * share[s]:9.4f} {100 * se[s]:7.4f} {z[s]:6.2f}")
    worst = int(np.argmax(np.abs(z)))
    turns_played = b * per_batch
    cols = columns(n)
    print(f"max |z| = {abs(z[worst]):.2f} ({names[worst]}); |z| > 3 on {int((np.abs(z) > 3).sum())} of {int((~never).sum())} squares")
    print(f"rolls {rolls:,.0f} in {turns_played:,} turns: {rolls / turns_played:.5f} rolls per turn (chain {chain.rolls_per_turn:.5f});"
          f" in jail per turn {total[n] / turns_played:.5f} (chain {chain.landings_per_turn[cols['jail']][0]:.5f})")
    print(f"time {elapsed:.1f} s: {rolls / elapsed:,.0f} rolls/s over {args.workers} workers")


if __name__ == "__main__":
    main()
