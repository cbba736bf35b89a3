"""The batch Monte Carlo kernel: many games at once from any state, one fixed policy.

``simulate(state, n_games, horizon, seed, policy=...)`` plays ``n_games``
games from ``state`` for at most ``horizon`` more rounds, every seat played by
the fixed :class:`engine.rollout_policy.RolloutPolicy`, and returns each
player's win probability with its standard error.

How
    The state is encoded once as integer arrays (:mod:`engine.rollout_tables`)
    and the games are played by a numba-compiled loop (:mod:`engine._kernel`)
    that transcribes the reference engine's rules for this policy: dice and
    doubles, jail, both card decks (shuffled, with held Get Out of Jail Free
    cards), rent for streets, railroads and utilities, buying and second-price
    auctions, even building within the bank's supply (hotel breaking under a
    shortage included), lifting mortgages, the engine's liquidation order,
    bankruptcy to a player, to the bank and to several players. There is no
    Python-level loop per game or per turn. A numpy version vectorised across
    games was measured against it (``bench/rollout.py``, README): the rules
    are branch-heavy (cards, debts, auctions), and the compiled loop is the
    faster of the two, so it is the one kept.
Randomness
    Game ``g`` of a call seeded ``S`` has the 64-bit key
    :func:`engine.streams.stream_keys` ``(S)[g]``; its dice and cards are the
    counter-based stream :class:`engine.streams.CounterStream` of that key
    (die ``r`` of the game is a pure function of the key and ``r``). Two
    states simulated with the same seed are therefore played on the same dice
    and cards: common random numbers. :func:`paired_delta` uses this.
Scoring
    A game that ends by bankruptcy is won by the last player standing. A game
    still running after ``horizon`` rounds is scored as the reference engine
    scores its round cap: the highest net worth wins
    (:meth:`models.state.GameState.net_worth`), ties to the earlier seat.
    ``win_prob`` is the fraction of games won; its standard error is the
    binomial ``sqrt(p (1 - p) / n)``.
Two engines, one truth
    :func:`reference_trace` plays the same game with the reference engine
    (:class:`engine.game.Game`, :class:`engine.rollout_policy.PolicyAgent`,
    :class:`engine.streams.CounterStream`) and :func:`kernel_trace` with the
    kernel; the differential test demands identical states after every turn.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from engine import _kernel
from engine.game import Game, Observer
from engine.rollout_policy import PolicyAgent, RolloutPolicy
from engine.rollout_tables import encode
from engine.seeding import SeedLike
from engine.streams import CounterStream, stream_keys
from models.state import GameState

DEFAULT_BATCH = 16384
"""Games per kernel call: output arrays are sized to this, not to the run."""


@dataclass(frozen=True)
class RolloutResult:
    """What :func:`simulate` measured.

    ``winners[g]`` is the seat that won game ``g`` (-1: none) and
    ``worths[g, p]`` each player's net worth at the end of game ``g``
    (float32), kept so that two results on the same seed can be paired
    (:func:`paired_delta`, :func:`paired_worth_delta`).
    ``mean_rounds`` counts rounds played beyond the state's round (the round
    in progress at a bankruptcy counts); ``finished`` is the fraction of games
    that ended by bankruptcy within the horizon.
    """

    players: tuple[str, ...]
    n_games: int
    horizon: int
    win_prob: dict[str, float]
    win_prob_se: dict[str, float]
    player_turns: int
    finished: float
    mean_rounds: float
    mean_net_worth: dict[str, float]
    winners: np.ndarray = field(repr=False)
    worths: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    seconds: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "players": list(self.players),
            "n_games": self.n_games,
            "horizon": self.horizon,
            "win_prob": dict(self.win_prob),
            "win_prob_se": dict(self.win_prob_se),
            "player_turns": self.player_turns,
            "finished": self.finished,
            "mean_rounds": self.mean_rounds,
            "mean_net_worth": dict(self.mean_net_worth),
        }


def _check_args(state: GameState, n_games: int, horizon: int) -> None:
    if n_games < 1:
        raise ValueError(f"n_games must be >= 1, got {n_games}")
    if horizon < 1:
        raise ValueError(f"horizon must be >= 1 round, got {horizon}")
    if not 2 <= len(state.players) <= 8:
        raise ValueError("the kernel plays 2 to 8 players")


def simulate(
    state: GameState,
    n_games: int,
    horizon: int,
    seed: SeedLike = 0,
    *,
    policy: RolloutPolicy | None = None,
    batch: int = DEFAULT_BATCH,
) -> RolloutResult:
    """Play ``n_games`` games from ``state`` for at most ``horizon`` rounds.

    Parameters
    ----------
    state:
        Any valid state; it is not modified.
    n_games:
        Number of games.
    horizon:
        Rounds to play beyond ``state.round`` before scoring by net worth.
    seed:
        An int or a ``numpy.random.SeedSequence``; game ``g`` uses key
        ``stream_keys(seed)[g]`` (common random numbers across states).
    policy:
        The fixed policy of every seat (default :class:`RolloutPolicy()`).
    batch:
        Games per kernel call (memory is sized to it).
    """
    _check_args(state, n_games, horizon)
    policy = policy or RolloutPolicy()
    tables = encode(state, policy, state.round + horizon)
    n_pl = tables.n_players
    winners = np.empty(n_games, dtype=np.int8)
    all_worths = np.empty((n_games, n_pl), dtype=np.float32)
    worth_sum = np.zeros(n_pl, dtype=np.float64)
    turns = 0
    finished = 0
    rounds = 0
    start = time.perf_counter()
    trace = np.zeros((0, 1), dtype=np.int64)
    work = tables.work()
    for lo in range(0, n_games, batch):
        m = min(batch, n_games - lo)
        keys = stream_keys(seed, m, first=lo)
        w = np.empty(m, dtype=np.int64)
        worths = np.empty((m, n_pl), dtype=np.int64)
        info = np.empty((m, 3), dtype=np.int64)
        turns += int(_kernel.run_batch(tables.B, tables.X0, work, keys, w, worths, info, trace))
        winners[lo : lo + m] = w
        all_worths[lo : lo + m] = worths
        worth_sum += worths.sum(axis=0)
        finished += int((info[:, 2] == _kernel.REASON_BANKRUPTCY).sum())
        rounds += int(info[:, 1].sum()) - m * state.round
    seconds = time.perf_counter() - start
    names = tuple(p.name for p in state.players)
    probs = {nm: float(np.count_nonzero(winners == i)) / n_games for i, nm in enumerate(names)}
    return RolloutResult(
        players=names,
        n_games=n_games,
        horizon=horizon,
        win_prob=probs,
        win_prob_se={nm: math.sqrt(p * (1 - p) / n_games) for nm, p in probs.items()},
        player_turns=turns,
        finished=finished / n_games,
        mean_rounds=rounds / n_games,
        mean_net_worth={nm: float(worth_sum[i]) / n_games for i, nm in enumerate(names)},
        winners=winners,
        worths=all_worths,
        seconds=seconds,
    )


def paired_delta(before: RolloutResult, after: RolloutResult, player: str) -> tuple[float, float]:
    """Mean and standard error of ``win(after) - win(before)`` for ``player``, game by game.

    Both results must come from the same seed and game count, so that game
    ``g`` of each was played on the same dice and cards (common random
    numbers); the standard error is that of the mean of the paired
    differences, ``sd(d) / sqrt(n)``.
    """
    if before.n_games != after.n_games or before.players != after.players:
        raise ValueError("paired results need the same players and the same number of games")
    i = before.players.index(player)
    d = (after.winners == i).astype(np.float64) - (before.winners == i).astype(np.float64)
    n = d.size
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return float(d.mean()), se


def paired_worth_delta(before: RolloutResult, after: RolloutResult, player: str) -> tuple[float, float]:
    """Mean and standard error of the change in ``player``'s final net worth, game by game
    (same conditions as :func:`paired_delta`); a finer signal where the win
    probability does not move (a game already decided either way)."""
    if before.n_games != after.n_games or before.players != after.players:
        raise ValueError("paired results need the same players and the same number of games")
    i = before.players.index(player)
    d = after.worths[:, i].astype(np.float64) - before.worths[:, i].astype(np.float64)
    se = float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else float("nan")
    return float(d.mean()), se


def kernel_trace(state: GameState, key: int, horizon: int, policy: RolloutPolicy | None = None) -> np.ndarray:
    """The kernel's state after every turn of the game with stream key ``key``.

    One row per turn: per player cash, position, in-jail flag, bankrupt flag;
    then owner, building level and mortgage flag per square.
    """
    policy = policy or RolloutPolicy()
    tables = encode(state, policy, state.round + horizon)
    n_pl, n_sq = tables.n_players, tables.n_squares
    cap = 8 * (horizon + 1) * n_pl * 4 + 64
    trace = np.zeros((cap, 4 * n_pl + 3 * n_sq), dtype=np.int64)
    keys = np.array([key], dtype=np.uint64)
    info = np.empty((1, 3), dtype=np.int64)
    _kernel.run_batch(tables.B, tables.X0, tables.work(), keys, np.empty(1, np.int64), np.empty((1, n_pl), np.int64), info, trace)
    return trace[: int(info[0, 0])]


def _row(state: GameState) -> list[int]:
    row: list[int] = []
    for p in state.players:
        row += [p.cash, p.position, int(p.in_jail), int(p.bankrupt)]
    return row + list(state.owner) + list(state.houses) + [int(m) for m in state.mortgaged]


def reference_trace(
    state: GameState,
    key: int,
    horizon: int,
    policy: RolloutPolicy | None = None,
    observers: Iterable[Observer] = (),
) -> np.ndarray:
    """The same game as :func:`kernel_trace`, played by the reference engine
    (``observers`` see its events)."""
    s = state.copy()
    agents = [PolicyAgent(policy=policy) for _ in s.players]
    game = Game(s, agents, CounterStream(key), max_rounds=s.round + horizon, observers=observers)
    rows = []
    while not game.over:
        game.play_turn()
        rows.append(_row(s))
    return np.array(rows, dtype=np.int64).reshape(len(rows), -1)


__all__ = [
    "DEFAULT_BATCH",
    "RolloutResult",
    "kernel_trace",
    "paired_delta",
    "paired_worth_delta",
    "reference_trace",
    "simulate",
]
