"""The batch Monte Carlo kernel: many games at once from any state, a fixed policy per seat.

``simulate(state, n_games, horizon, seed, policy=...)`` plays ``n_games``
games from ``state`` for at most ``horizon`` more rounds, every seat played by
the fixed :class:`engine.sim.rollout_policy.RolloutPolicy` (one for all seats, or
one per seat; by default it buys, builds, mortgages to build and trades to
complete groups), and returns each player's win probability with its
standard error.

How
    The state is encoded once as integer arrays (:mod:`engine.sim.rollout_tables`)
    and the games are played by a numba-compiled loop (:mod:`engine.sim._kernel`)
    that transcribes the reference engine's rules for this policy: dice and
    doubles, jail, both card decks (shuffled, with held Get Out of Jail Free
    cards), rent for streets, railroads and utilities, buying and second-price
    auctions, even building within the bank's supply (hotel breaking under a
    shortage included), mortgaging to build and lifting mortgages, the
    policy's trades (set-completing swaps and purchases), the engine's liquidation order,
    bankruptcy to a player, to the bank and to several players; and every rule
    variant of :class:`models.rules.Rules` (doubles and jail variants, cards
    drawn with replacement, the Free Parking pot, the Go landing bonus, no
    auctions or auctions only, building without the even rule, a finite bank,
    a cash target and a round limit). There is no
    Python-level loop per game or per turn. A numpy version vectorised across
    games was measured against it (``bench/rollout.py``, README): the rules
    are branch-heavy (cards, debts, auctions), and the compiled loop is the
    faster of the two, so it is the one kept.
Randomness
    Game ``g`` of a call seeded ``S`` has the 64-bit key
    :func:`engine.rules.streams.stream_keys` ``(S)[g]``; its dice and cards are the
    counter-based stream :class:`engine.rules.streams.CounterStream` of that key:
    die ``r`` of player ``p``'s ``t``-th turn is a pure function of the key
    and ``(p, t, r)`` (:func:`engine.rules.streams.dice_counter`), and each deck's
    shuffles of the key and the shuffle number. Two states simulated with the
    same seed are therefore played on the same dice and cards (common random
    numbers), and stay aligned after an event that makes one of them throw
    more dice (a utility card, a jail roll). :func:`paired_delta` uses this.
Scoring
    A game that ends by bankruptcy is won by the last player standing: its
    score is 1 for the winner and 0 for the others; so is a game that the
    rules end within the horizon (``rules.cash_target``, ``rules.round_limit``),
    won by the highest net worth as in the reference engine. A game still running
    after ``horizon`` rounds is cut there, and scored either
    (``scoring="model"``, the default) by the calibrated horizon value of
    :mod:`engine.sim.win_model`: each player's score is its modelled probability
    of winning from the state the game reached, fitted on games played to
    the end; or (``scoring="net_worth"``) as the reference engine scores its
    round cap: the highest net worth wins
    (:meth:`models.state.GameState.net_worth`), ties to the earlier seat.
    ``scores[g, p]`` holds each game's scores; ``win_prob`` is their mean and
    its standard error ``sd / sqrt(n)`` (the binomial ``sqrt(p (1 - p) / n)``
    when every score is 0 or 1). ``winners[g]`` is the bankruptcy winner, the
    richest player at a cash target or a round limit, or the richest player
    at the cut, whichever the scoring.
Two engines, one truth
    :mod:`engine.sim.trace` plays the same game with the kernel and with the
    reference engine, turn by turn (the differential test); its names are also
    imported from here, where 0.1 had them.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import numpy as np

from engine.rules.seeding import SeedLike
from engine.rules.streams import stream_keys
from engine.sim import _kernel
from engine.sim import win_model as wm
from engine.sim._features_kernel import features
from engine.sim.rollout_policy import PolicyLike
from engine.sim.rollout_tables import Tables, encode
from engine.sim.trace import (
    DECK_FIELDS,
    GAME_FIELDS,
    PLAYER_FIELDS,
    REASON_CODES,
    TraceLayout,
    kernel_trace,
    reference_game,
    reference_trace,
)
from models.errors import InvalidArgumentError, UnknownNameError
from models.state import GameState

_T = TypeVar("_T")
_R = TypeVar("_R")

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
    that ended by bankruptcy within the horizon; ``ended`` the fraction of games
    per end reason (:data:`REASON_CODES`: ``bankruptcy``, ``cash_target``,
    ``round_limit``, and ``round_cap`` for a game cut at the horizon).

    Attributes
    ----------
    players : tuple of str
        The players' names, in seat order.
    n_games, horizon : int
        Games played and their length in rounds.
    win_prob, win_prob_se : dict of str to float
        Each player's mean score (its win probability) and the standard error of that mean.
    player_turns : int
        Turns played in all.
    finished : float
        The share of games ended by bankruptcy within the horizon.
    mean_rounds : float
        Rounds played per game beyond the state's.
    mean_net_worth : dict of str to float
        Each player's mean final net worth.
    winners : numpy.ndarray
        Per game, the winning seat (-1: none).
    worths : numpy.ndarray
        Per game and seat, the final net worth (float32).
    seconds : float
        Wall time of the run.
    scores : numpy.ndarray
        Per game and seat, the score: 1 for a game's winner and 0 for the others, but for a game
        cut at the horizon under ``scoring="model"``, the calibrated horizon value.
    scoring : str
        ``"model"`` or ``"net_worth"``.
    ended : dict of str to float
        The share of games per end reason.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> res = simulate(state, 200, 20, seed=1)
    >>> {k: round(v, 3) for k, v in res.win_prob.items()}, round(sum(res.win_prob.values()), 9)
    ({'Ann': 0.286, 'Bob': 0.082, 'Cy': 0.522, 'Dee': 0.11}, 1.0)
    >>> round(res.win_prob_se["Ann"], 3), res.score(0)[:3].round(3).tolist()
    (0.03, [0.171, 0.0, 0.0])
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
    scores: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 0), dtype=np.float64))
    scoring: str = "net_worth"
    ended: dict[str, float] = field(default_factory=dict)

    def score(self, i: int) -> np.ndarray:
        """Player ``i``'s score in each game (its win indicator when no scores are stored).

        Parameters
        ----------
        i : int
            The seat.

        Returns
        -------
        numpy.ndarray
            ``n_games`` scores in ``[0, 1]``, float64.
        """
        won: np.ndarray = self.scores[:, i] if self.scores.size else self.winners == i
        return won.astype(np.float64)

    def to_dict(self) -> dict[str, object]:
        """The result's summary as JSON-ready data (the per-game arrays left out).

        Returns
        -------
        dict
            ``players``, ``n_games``, ``horizon``, ``win_prob``, ``win_prob_se``,
            ``player_turns``, ``finished``, ``mean_rounds``, ``mean_net_worth``, ``ended``.
        """
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
            "ended": dict(self.ended),
        }


def _check_args(state: GameState, n_games: int, horizon: int) -> None:
    if n_games < 1:
        raise InvalidArgumentError(f"n_games must be >= 1, got {n_games}")
    if horizon < 1:
        raise InvalidArgumentError(f"horizon must be >= 1 round, got {horizon}")
    if not 2 <= len(state.players) <= 8:
        raise InvalidArgumentError("the kernel plays 2 to 8 players")


def simulate(
    state: GameState,
    n_games: int,
    horizon: int,
    seed: SeedLike = 0,
    *,
    policy: PolicyLike = None,
    batch: int = DEFAULT_BATCH,
    scoring: str | None = None,
    threads: int = 1,
) -> RolloutResult:
    """Play ``n_games`` games from ``state`` for at most ``horizon`` rounds.

    Parameters
    ----------
    state : GameState
        Any valid state; it is not modified.
    n_games : int
        Number of games.
    horizon : int
        Rounds to play beyond ``state.round``; a game still running then is cut and scored
        as ``scoring`` says.
    seed : int or numpy.random.SeedSequence, default 0
        An int or a ``numpy.random.SeedSequence``; game ``g`` uses key
        ``stream_keys(seed)[g]`` (common random numbers across states).
    policy : RolloutPolicy, sequence of RolloutPolicy, or None
        The fixed policy of every seat (default :class:`RolloutPolicy()`), or a
        sequence with one policy per seat (e.g. ``trade=False`` for the seat
        under evaluation, so that it holds what it has).
    batch : int, default DEFAULT_BATCH
        Games per kernel call (memory is sized to it).
    scoring : {"model", "net_worth"} or None
        How a game cut at the horizon is scored: ``"model"`` (the calibrated
        horizon value, :mod:`engine.sim.win_model`) or ``"net_worth"`` (the
        richest player wins); default :data:`DEFAULT_SCORING`. See the module
        docstring.
    threads : int, default 1
        Threads playing each batch side by side (the kernel releases the GIL):
        the batch is cut into ``threads`` consecutive slices, each played into
        its own rows of the batch's arrays with its own work state, and then
        scored and summed exactly as with one thread. Every game depends only
        on its key, so the result is identical for any number of threads
        (a test checks it). At most the process's limit (:func:`set_thread_limit`).

    Returns
    -------
    RolloutResult
        The win probabilities with their standard errors, and the per-game results.

    Raises
    ------
    InvalidArgumentError
        ``n_games`` or ``horizon`` below 1, fewer than 2 or more than 8 players,
        ``threads`` outside ``1..MAX_THREADS``, or an unknown ``scoring``.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> res = simulate(state, 200, 20, seed=1)
    >>> res.n_games, res.players, round(res.win_prob["Cy"], 3)
    (200, ('Ann', 'Bob', 'Cy', 'Dee'), 0.522)
    >>> simulate(state, 200, 20, seed=1, threads=2).win_prob == res.win_prob  # any number of threads
    True
    >>> simulate(state, 0, 20)
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: n_games must be >= 1, got 0
    """
    _check_args(state, n_games, horizon)
    if not 1 <= threads <= MAX_THREADS:
        raise InvalidArgumentError(f"threads must be in 1..{MAX_THREADS}, got {threads}")
    scoring = scoring or DEFAULT_SCORING
    if scoring not in SCORINGS:
        raise InvalidArgumentError(f"scoring must be one of {SCORINGS}, got {scoring!r}")
    threads = _limited(threads)
    tables = encode(state, policy, state.round + horizon)
    n_pl = tables.n_players
    winners = np.empty(n_games, dtype=np.int8)
    all_worths = np.empty((n_games, n_pl), dtype=np.float32)
    scores = np.zeros((n_games, n_pl), dtype=np.float64)
    n_sq = state.board.size
    model = _model_scorer(state) if scoring == "model" else None
    worth_sum = np.zeros(n_pl, dtype=np.float64)
    turns = 0
    finished = 0
    rounds = 0
    reasons = np.zeros(len(REASON_CODES), dtype=np.int64)
    start = time.perf_counter()
    trace = np.zeros((0, 1), dtype=np.int64)  # no rows: no turn is recorded
    works = [tables.work() for _ in range(min(threads, n_games))]
    pool = _shared_pool() if len(works) > 1 else None
    for lo in range(0, n_games, batch):
        m = min(batch, n_games - lo)
        keys = stream_keys(seed, m, first=lo)
        w = np.empty(m, dtype=np.int64)
        worths = np.empty((m, n_pl), dtype=np.int64)
        info = np.empty((m, 3), dtype=np.int64)
        final = np.empty((m if model is not None else 0, 2 * n_pl + 3 * n_sq), dtype=np.int64)
        turns += _play_batch(tables, works, pool, keys, w, worths, info, trace, final)
        winners[lo : lo + m] = w
        reason = info[:, 2]
        cut = reason == _kernel.REASON_CAP  # cut at the horizon; every other end has the rules' winner
        one_hot = (~cut if model is not None else np.ones(m, bool)) & (w >= 0)
        block = scores[lo : lo + m]
        block[np.flatnonzero(one_hot), w[one_hot]] = 1.0
        if model is not None and cut.any():
            block[cut] = model(final[cut], n_pl, n_sq)
        all_worths[lo : lo + m] = worths
        worth_sum += worths.sum(axis=0)
        finished += int((reason == _kernel.REASON_BANKRUPTCY).sum())
        reasons += np.bincount(reason, minlength=len(REASON_CODES))
        rounds += int(info[:, 1].sum()) - m * state.round
    seconds = time.perf_counter() - start
    names = tuple(p.name for p in state.players)
    mean = scores.mean(axis=0)
    sd = np.sqrt(np.maximum((scores**2).mean(axis=0) - mean**2, 0.0))
    return RolloutResult(
        players=names,
        n_games=n_games,
        horizon=horizon,
        win_prob={nm: float(mean[i]) for i, nm in enumerate(names)},
        win_prob_se={nm: float(sd[i]) / math.sqrt(n_games) for i, nm in enumerate(names)},
        player_turns=turns,
        finished=finished / n_games,
        mean_rounds=rounds / n_games,
        mean_net_worth={nm: float(worth_sum[i]) / n_games for i, nm in enumerate(names)},
        winners=winners,
        worths=all_worths,
        seconds=seconds,
        scores=scores,
        scoring=scoring,
        ended={name: float(reasons[code]) / n_games for name, code in REASON_CODES.items()},
    )


MAX_THREADS = 64
"""The most threads :func:`simulate` takes."""


_POOL: dict[int, ThreadPoolExecutor] = {}
"""The process's simulation threads, by process id (a forked child starts its own)."""
_POOL_LOCK = threading.Lock()


def _shared_pool() -> ThreadPoolExecutor:
    """The threads that play the slices of a batch: one pool per process, its threads started
    on first use and kept (a simulation used to start and join its own, about 3 ms a call and
    some 30 calls an answer). Calls in several threads share it (``submit`` is thread-safe; a
    slice never waits on another). Keyed by the process id: a child made by ``fork`` inherits
    the parent's pool object but not its threads, so it makes its own."""
    pid = os.getpid()
    with _POOL_LOCK:
        pool = _POOL.get(pid)
        if pool is None:
            _POOL.clear()
            pool = _POOL[pid] = ThreadPoolExecutor(max_workers=MAX_THREADS, thread_name_prefix="simulate")
        return pool


def side_by_side(fn: Callable[[_T], _R], items: Sequence[_T], threads: int) -> list[_R]:
    """``[fn(x) for x in items]``, the items cut into ``threads`` interleaved groups, each run
    in order on one of the process's simulation threads (the pool of :func:`simulate`).

    For work that releases the GIL in its compiled part (the ruin chains' backward passes:
    :func:`solver.analysis.reserve.reserves`), so that one item's Python overlaps another's
    compiled loop. The results are in the items' order and are what one thread gives; ``fn``
    must not wait on this pool itself. One thread (or one item): a plain loop here.

    Parameters
    ----------
    fn : callable
        The work on one item.
    items : sequence
        The items.
    threads : int
        The most items in progress at once (``default_threads()`` is the usual choice).

    Returns
    -------
    list
        ``fn`` of each item, in order.

    Examples
    --------
    >>> side_by_side(lambda x: x * x, [1, 2, 3, 4, 5], 2)
    [1, 4, 9, 16, 25]
    """
    threads = _limited(threads)
    if threads <= 1 or len(items) <= 1:
        return [fn(x) for x in items]
    n = min(threads, len(items))
    groups = [list(range(k, len(items), n)) for k in range(n)]
    pool = _shared_pool()
    futures = [pool.submit(lambda idx: [fn(items[i]) for i in idx], g) for g in groups]
    out: list[_R | None] = [None] * len(items)
    for g, f in zip(groups, futures):
        for i, r in zip(g, f.result()):
            out[i] = r
    return cast(list[_R], out)


_THREAD_CAP: list[int] = []
"""The caps of the :func:`thread_cap` blocks this process is in (innermost last)."""

_THREAD_LIMIT: list[Callable[[], int]] = []
"""The process-wide limit of :func:`set_thread_limit` (none when empty)."""


def set_thread_limit(limit: Callable[[], int] | None) -> None:
    """Make ``limit()``, read as each simulation starts, the most threads any simulation of
    this process plays on, whatever it is asked (``None``: no limit).

    The MCP server's workers set it to "one while more than one call is in flight", so a
    call that began alone (on every core) drops to one thread for its next simulations as
    soon as another call arrives, and goes back when that one ends. An answer does not
    depend on its threads (:func:`simulate`), so the limit changes the time, never the
    figures. Also bounds :func:`default_threads` and :func:`side_by_side`.

    Parameters
    ----------
    limit : callable or None
        Returns the limit (values below 1 count as 1).

    Examples
    --------
    >>> set_thread_limit(lambda: 1)
    >>> default_threads()
    1
    >>> set_thread_limit(None)
    """
    _THREAD_LIMIT[:] = [] if limit is None else [limit]


def _limited(threads: int) -> int:
    """``threads`` within the process-wide limit (:func:`set_thread_limit`)."""
    if _THREAD_LIMIT:
        return max(1, min(threads, _THREAD_LIMIT[0]()))
    return threads


def default_threads() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else the
    CPU count), at most :data:`MAX_THREADS`, the cap of the :func:`thread_cap` block it is
    in and the process's limit (:func:`set_thread_limit`): the ``threads`` that ``solve`` and
    :func:`solver.decide.decide` use unless told."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return _limited(max(1, min(MAX_THREADS, n, *_THREAD_CAP)))


@contextlib.contextmanager
def thread_cap(n: int) -> Iterator[None]:
    """Within the block, :func:`default_threads` is at most ``n`` (>= 1): what the MCP server's
    workers use when several calls run at once, one thread each, so that the calls share the
    cores instead of each starting a thread per core. An answer does not depend on its threads
    (the games of a batch are cut into slices; each game's rows depend only on its key), so the
    cap changes the time, never the figures. Not for threads of one process running side by
    side (the cap is the process's)."""
    if n < 1:
        raise InvalidArgumentError(f"thread_cap: n must be >= 1, got {n}")
    _THREAD_CAP.append(n)
    try:
        yield
    finally:
        _THREAD_CAP.pop()


def _play_batch(
    tables: Tables,
    works: list[tuple[Any, ...]],
    pool: ThreadPoolExecutor | None,
    keys: np.ndarray,
    w: np.ndarray,
    worths: np.ndarray,
    info: np.ndarray,
    trace: np.ndarray,
    final: np.ndarray,
) -> int:
    """Play the games of ``keys`` into the batch's arrays; with a pool, as ``len(works)``
    consecutive slices side by side, each with its own work state (a game's rows depend
    only on its key and the tables, so the arrays are the same either way). Returns the
    player-turns played."""
    m = len(keys)
    if pool is None or m < 2:
        return int(_kernel.run_batch(tables.B, tables.X0, works[0], keys, w, worths, info, trace, final))
    k = min(len(works), m)
    cuts = [m * i // k for i in range(k + 1)]

    def run(i: int) -> int:
        a, b = cuts[i], cuts[i + 1]
        f = final[a:b] if len(final) else final
        return int(_kernel.run_batch(tables.B, tables.X0, works[i], keys[a:b], w[a:b], worths[a:b], info[a:b], trace, f))

    return sum(pool.map(run, range(k)))


SCORINGS = ("model", "net_worth")
"""The ``scoring`` values :func:`simulate` takes."""
DEFAULT_SCORING = "model"
"""How :func:`simulate` scores a game cut at the horizon unless told (see the module docstring)."""


def _model_scorer(state: GameState) -> Callable[[np.ndarray, int, int], np.ndarray]:
    """``f(final, n_players, n_squares) -> scores``: the shipped horizon model on the end
    states written by :func:`engine.sim._kernel.run_batch` (one row per game)."""
    tables = wm.tables_for(state.board, state.rules)
    weights = wm.default_model().weights

    def score(final: np.ndarray, p: int, s: int) -> np.ndarray:
        cash, bankrupt = final[:, :p], final[:, p : 2 * p].astype(bool)
        owner, level, mortgaged = final[:, 2 * p : 2 * p + s], final[:, 2 * p + s : 2 * p + 2 * s], final[:, 2 * p + 2 * s :]
        f = features(tables, cash, owner, level, mortgaged, bankrupt)  # compiled: wm.features_from_arrays to the bit
        return wm.win_probabilities(weights, f, bankrupt)

    return score


def _seat_of(result: RolloutResult, player: str) -> int:
    if player not in result.players:
        raise UnknownNameError(f"no player named {player!r} in the results (players: {', '.join(result.players)})")
    return result.players.index(player)


def paired_delta(before: RolloutResult, after: RolloutResult, player: str) -> tuple[float, float]:
    """Mean and standard error of ``win(after) - win(before)`` for ``player``, game by game.

    Both results must come from the same seed and game count, so that game
    ``g`` of each was played on the same dice and cards (common random
    numbers); the standard error is that of the mean of the paired
    differences, ``sd(d) / sqrt(n)``.

    Parameters
    ----------
    before, after : RolloutResult
        Two results of :func:`simulate` with the same seed, game count and players.
    player : str
        The player's name.

    Returns
    -------
    tuple of (float, float)
        The mean change in the player's score and its standard error (``nan`` for one game).

    Raises
    ------
    InvalidArgumentError
        The two results differ in players, game count or scoring.
    UnknownNameError
        ``player`` is not one of the results' players.

    Examples
    --------
    $500 more for Cy, on the same dice:

    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> before = simulate(state, 200, 20, seed=1)
    >>> richer = state.copy(); richer.players[2].cash += 500
    >>> delta, se = paired_delta(before, simulate(richer, 200, 20, seed=1), "Cy")
    >>> round(delta, 3), round(se, 3)
    (0.208, 0.027)
    >>> paired_delta(before, simulate(state, 100, 20, seed=1), "Cy")
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: paired results need the same players and the same number of games
    """
    if before.n_games != after.n_games or before.players != after.players:
        raise InvalidArgumentError("paired results need the same players and the same number of games")
    if before.scoring != after.scoring:
        raise InvalidArgumentError("paired results need the same scoring")
    i = _seat_of(before, player)
    d = after.score(i) - before.score(i)
    n = d.size
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return float(d.mean()), se


def paired_worth_delta(before: RolloutResult, after: RolloutResult, player: str) -> tuple[float, float]:
    """Mean and standard error of the change in ``player``'s final net worth, game by game
    (same conditions as :func:`paired_delta`); a finer signal where the win
    probability does not move (a game already decided either way).

    Parameters
    ----------
    before, after : RolloutResult
        Two results of :func:`simulate` with the same seed, game count and players.
    player : str
        The player's name.

    Returns
    -------
    tuple of (float, float)
        The mean change in dollars and its standard error (``nan`` for one game).

    Raises
    ------
    InvalidArgumentError
        The two results differ in players or game count.
    UnknownNameError
        ``player`` is not one of the results' players.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> before = simulate(state, 200, 20, seed=1)
    >>> richer = state.copy(); richer.players[2].cash += 500
    >>> delta, se = paired_worth_delta(before, simulate(richer, 200, 20, seed=1), "Cy")
    >>> round(delta), round(se)
    (1637, 153)
    """
    if before.n_games != after.n_games or before.players != after.players:
        raise InvalidArgumentError("paired results need the same players and the same number of games")
    i = _seat_of(before, player)
    d = after.worths[:, i].astype(np.float64) - before.worths[:, i].astype(np.float64)
    se = float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else float("nan")
    return float(d.mean()), se


__all__ = [
    "DECK_FIELDS",
    "DEFAULT_BATCH",
    "DEFAULT_SCORING",
    "GAME_FIELDS",
    "PLAYER_FIELDS",
    "REASON_CODES",
    "SCORINGS",
    "RolloutResult",
    "TraceLayout",
    "kernel_trace",
    "paired_delta",
    "paired_worth_delta",
    "reference_game",
    "reference_trace",
    "set_thread_limit",
    "side_by_side",
    "simulate",
]
