"""A change's worth against games played to the end by ``strategic`` agents (issue 37's reference).

    python bench/played_out.py [--games 4000] [--seed 11] [--rollouts 800] [--workers 2] [--cases gift,tour,...]

For each case (a state and a change to it: a cash gift or a trade), games are
played to the end (1,000-round cap) by four :class:`StrategicTradeAgent`\\ s
in every seat, from the state with and without the change, on the same dice
and cards (game ``g`` of both branches uses stream seed ``SeedSequence([seed,
g])``: paired). The reference change of each participant is the mean paired
difference of its wins, with its standard error. Beside it, the evaluation
``solve`` uses at its default settings (``--rollouts`` games of 30 rounds,
every seat playing the trading rollout policy, the change judged now against
not now for the deciding seat: :meth:`RescoreSettings.not_now`), the same with
the waiting seat also refusing every offer while it waits (``declines=True``)
and the evaluation before issue 37 (the deciding seat holding:
:meth:`RescoreSettings.holding`). Printed: each figure with its standard
error and the ratio evaluation / reference (target: 0.75-1.25, or within 2
standard errors).

The cases:

``gift``
    ``instances/midgame-no-monopolies.json``: Cy gives Dee $100 (deciding seat Cy).
``tour``
    the same state: the README tour's CP-SAT trade, Cy gives Dee Atlantic Avenue
    and $150 and receives Virginia Avenue (deciding seat Cy).
``swap``
    the same state: the rollout policy's swap, Cy gives Dee Atlantic Avenue and
    receives Virginia Avenue and $180 (deciding seat Cy).
``denial``
    the same state: Ann buys Ventnor Avenue from Dee for $130, the README's library
    example (deciding seat Ann).
``gift-late``
    ``instances/late-game-house-shortage.json``: Dee gives Ann $100 (deciding seat Dee).
``bystander``
    ``instances/cycle-four-bystander.json``: Cy buys Atlantic Avenue from Bob for $320 (deciding seat Cy).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.rules.actions import EndReason  # noqa: E402
from engine.rules.game import Game  # noqa: E402
from engine.rules.seeding import game_seed_sequence, game_seeds  # noqa: E402
from engine.rules.streams import SeededStream  # noqa: E402
from engine.sim.rollout import paired_delta, simulate  # noqa: E402
from models.io import load_state  # noqa: E402
from models.state import GameState  # noqa: E402
from models.trade import Trade, Transfer  # noqa: E402
from solver.agents.strategic import StrategicTradeAgent  # noqa: E402
from solver.trades.rescore import RescoreSettings, trade_after  # noqa: E402

INSTANCES = ROOT / "instances"


def _gift(state: GameState, giver: str, taker: str, amount: int) -> GameState:
    after = state.copy()
    after.players[after.player_index(giver)].cash -= amount
    after.players[after.player_index(taker)].cash += amount
    return after


def _trade(state: GameState, *legs: tuple[str, str, tuple[str, ...], int]) -> GameState:
    return trade_after(state, Trade(tuple(Transfer(a, b, props, cash) for a, b, props, cash in legs)))


def cases() -> dict[str, tuple[GameState, GameState, str, tuple[str, ...]]]:
    """Each case: the state, the state after the change, the deciding seat's name, the participants."""
    mid = load_state(INSTANCES / "midgame-no-monopolies.json")
    late = load_state(INSTANCES / "late-game-house-shortage.json")
    bys = load_state(INSTANCES / "cycle-four-bystander.json")
    return {
        "gift": (mid, _gift(mid, "Cy", "Dee", 100), "Cy", ("Cy", "Dee")),
        "tour": (mid, _trade(mid, ("Cy", "Dee", ("Atlantic Avenue",), 150), ("Dee", "Cy", ("Virginia Avenue",), 0)), "Cy", ("Cy", "Dee")),
        "swap": (mid, _trade(mid, ("Cy", "Dee", ("Atlantic Avenue",), 0), ("Dee", "Cy", ("Virginia Avenue",), 180)), "Cy", ("Cy", "Dee")),
        "denial": (mid, _trade(mid, ("Ann", "Dee", (), 130), ("Dee", "Ann", ("Ventnor Avenue",), 0)), "Ann", ("Ann", "Dee")),
        "gift-late": (late, _gift(late, "Dee", "Ann", 100), "Dee", ("Dee", "Ann")),
        "bystander": (bys, _trade(bys, ("Cy", "Bob", (), 320), ("Bob", "Cy", ("Atlantic Avenue",), 0)), "Cy", ("Cy", "Bob")),
    }


def _play(args: tuple[Any, ...]) -> int:
    """The winner's seat (-1: none) of game ``g`` of run ``seed`` from ``state``, four strategic agents;
    with a fourth item, a trade every seat refuses for the whole game (``barred``)."""
    return _play_ended(args)[0]


def _play_ended(args: tuple[Any, ...]) -> tuple[int, bool]:
    """:func:`_play`'s winner, and whether the game ended at the 1,000-round cap (won on net worth)."""
    state, seed, g = args[:3]
    barred: Trade | None = args[3] if len(args) > 3 else None
    stream_seed, seats = game_seeds(game_seed_sequence(seed, g), len(state.players))
    agents = [StrategicTradeAgent(s) for s in seats]
    if barred is not None:
        for agent in agents:
            agent.accept_trade = _refusing(agent.accept_trade, barred)  # type: ignore[method-assign]
    result = Game(state.copy(), agents, SeededStream(stream_seed), max_rounds=1000).play()
    names = [p.name for p in state.players]
    return (names.index(result.winner) if result.winner in names else -1), result.reason == EndReason.ROUND_CAP


def _legs(trade: Trade) -> frozenset[tuple[str, str, tuple[str, ...], int, int]]:
    """A trade's legs, whoever proposes it and in whatever order (the same exchange, the same key)."""
    return frozenset((t.frm, t.to, tuple(sorted(t.properties)), t.cash, t.jail_cards) for t in trade.transfers)


def _refusing(accept: Callable[[Any, Trade], bool], barred: Trade) -> Callable[[Any, Trade], bool]:
    """``accept``, except that ``barred`` (the same exchange, proposed by either side) is refused."""
    key = _legs(barred)

    def answer(view: Any, trade: Trade) -> bool:
        return False if _legs(trade) == key else accept(view, trade)

    return answer


def played_out(
    state: GameState, after: GameState, games: int, seed: int, workers: int, barred: Trade | None = None
) -> np.ndarray:
    """Per game, each seat's win in ``after`` minus its win in ``state`` (paired games).

    ``barred``: a trade refused by every seat in the games from ``state``. A state met at the
    moment an agent proposed a trade is one from which the same agent proposes it again at
    once: without the bar the branch "without the trade" would make it a moment later."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return paired_block(pool, state, after, seed, range(games), barred)


def paired_block(
    pool: ProcessPoolExecutor, state: GameState, after: GameState, seed: int, games: range, barred: Trade | None = None
) -> np.ndarray:
    """:func:`played_out` on the games ``games`` of the run (game ``g`` of both branches on stream
    ``SeedSequence([seed, g])``), in a pool the caller keeps between blocks."""
    return paired_block_ends(pool, state, after, seed, games, barred)[0]


def paired_block_ends(
    pool: ProcessPoolExecutor, state: GameState, after: GameState, seed: int, games: range, barred: Trade | None = None
) -> tuple[np.ndarray, int, int]:
    """:func:`paired_block`, and how many games of each branch (without, with the change) ended at
    the round cap: those are won on net worth, not played to a last player standing."""
    n, k = len(state.players), len(games)
    jobs = [(state, seed, g, barred) for g in games] + [(after, seed, g) for g in games]
    ends = list(pool.map(_play_ended, jobs, chunksize=max(1, min(50, k // 8))))
    diff = np.zeros((k, n))
    for i in range(k):
        a, b = ends[i][0], ends[k + i][0]
        if b >= 0:
            diff[i, b] += 1
        if a >= 0:
            diff[i, a] -= 1
    return diff, sum(c for _, c in ends[:k]), sum(c for _, c in ends[k:])


def sequential(
    state: GameState,
    after: GameState,
    seats: tuple[int, ...],
    max_games: int,
    seed: int,
    workers: int,
    barred: Trade | None = None,
    block: int = 200,
    z_stop: float = 3.0,
    tolerance: float = 0.02,
) -> np.ndarray:
    """:func:`played_out` in blocks of ``block`` paired games, stopped once every seat of
    ``seats`` is settled: its mean change beyond ``z_stop`` standard errors (its sign is
    known), or its 95% half-width (2 se) below ``tolerance`` (whatever its sign, the change is
    too small to matter); at most ``max_games``, never before two blocks. The stop at 3 se
    rather than the 2 se the agreement is counted at keeps the repeated looks from
    inflating false signs: a seat whose true change is 0 stops "beyond 3 se" with
    probability at most (looks) x 0.0027 by Bonferroni's inequality, 5.1% with the 19
    looks of 4,000 games in blocks of 200.

    Returns
    -------
    numpy.ndarray
        The paired differences of the games played (``(games, n_players)``)."""
    diff = np.zeros((0, len(state.players)))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        while len(diff) < max_games:
            start = len(diff)
            block_diff = paired_block(pool, state, after, seed, range(start, min(start + block, max_games)), barred)
            diff = np.concatenate([diff, block_diff])
            if len(diff) >= 2 * block and all(_settled(diff[:, i], z_stop, tolerance) for i in seats):
                break
    return diff


def _settled(d: np.ndarray, z_stop: float, tolerance: float) -> bool:
    """Whether one seat's paired differences are settled (:func:`sequential`)."""
    se = float(d.std(ddof=1)) / math.sqrt(len(d))
    return abs(float(d.mean())) > z_stop * se or 2 * se < tolerance


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--rollouts", type=int, default=800)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--cases", default=",".join(cases()))
    args = ap.parse_args()
    all_cases = cases()
    for name in args.cases.split(","):
        state, after, decider, who = all_cases[name]
        t0 = time.perf_counter()
        diff = played_out(state, after, args.games, args.seed, args.workers)
        names = [p.name for p in state.players]
        seat = names.index(decider)
        evals = {
            "not now (solve)": RescoreSettings(rollouts=args.rollouts).not_now(seat, len(names), state.to_move),
            "not now, declining": RescoreSettings(rollouts=args.rollouts).not_now(seat, len(names), state.to_move, declines=True),
            "holding (before)": RescoreSettings(rollouts=args.rollouts).holding(seat, len(names)),
        }
        print(f"{name}: {args.games} paired games to the end by strategic agents (seed {args.seed}), {time.perf_counter() - t0:.0f} s")
        for label, rs in evals.items():
            a = simulate(state, rs.rollouts, rs.horizon, 1, policy=rs.policy)
            b = simulate(after, rs.rollouts, rs.horizon, 1, policy=rs.policy)
            for n in who:
                i = names.index(n)
                ref, ref_se = diff[:, i].mean(), diff[:, i].std(ddof=1) / math.sqrt(args.games)
                d, se = paired_delta(a, b, n)
                ratio = d / ref if ref else math.nan
                ok = 0.75 <= ratio <= 1.25 or abs(d - ref) <= 2 * math.hypot(se, ref_se)
                print(
                    f"  {label:18s} {n:4s} evaluation {d:+.3f} (se {se:.3f})  played out {ref:+.3f} (se {ref_se:.3f})"
                    f"  ratio {ratio:.2f}  {'ok' if ok else 'OFF'}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
