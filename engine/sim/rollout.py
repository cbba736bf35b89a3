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
    :func:`reference_trace` plays the same game with the reference engine
    (:class:`engine.rules.game.Game`, :class:`engine.sim.rollout_policy.PolicyAgent`,
    :class:`engine.rules.streams.CounterStream`) and :func:`kernel_trace` with the
    kernel; the differential test demands identical rows after every turn
    (:class:`TraceLayout`: the doubles counter after each roll of the turn,
    then the whole state: cash, positions, jail, held Get Out of Jail Free
    cards, buildings, mortgages, the Free Parking pot and the bank's cash, both
    decks' order, held cards and with-replacement draws, and the
    winner and end reason once the game is over). Only the kernel's trace
    call records them: :func:`simulate` passes a trace without rows, and its
    turns run the version of :func:`engine.sim._kernel.play_turn` compiled
    without recording.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.rules.game import Game, Observer
from engine.rules.seeding import SeedLike
from engine.rules.streams import CounterStream, stream_keys
from engine.sim import _kernel
from engine.sim import win_model as wm
from engine.sim._features_kernel import features
from engine.sim.rollout_policy import PolicyAgent, PolicyLike, seat_policies
from engine.sim.rollout_tables import DECK_NAMES, Tables, encode
from models.errors import InvalidArgumentError
from models.state import GameState, Phase

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
        Per game and seat, the score: 1 for the winner of a finished game, the calibrated
        horizon value for a game cut at the horizon (``scoring="model"``).
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
        The fixed policy of every seat (default :class:`RolloutPolicy()`), or a
        sequence with one policy per seat (e.g. ``trade=False`` for the seat
        under evaluation, so that it holds what it has).
    batch:
        Games per kernel call (memory is sized to it).
    scoring:
        How a game cut at the horizon is scored: ``"model"`` (the calibrated
        horizon value, :mod:`engine.sim.win_model`) or ``"net_worth"`` (the
        richest player wins); default :data:`DEFAULT_SCORING`. See the module
        docstring.
    threads:
        Threads playing each batch side by side (the kernel releases the GIL):
        the batch is cut into ``threads`` consecutive slices, each played into
        its own rows of the batch's arrays with its own work state, and then
        scored and summed exactly as with one thread. Every game depends only
        on its key, so the result is identical for any number of threads
        (a test checks it).

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
    pool = ThreadPoolExecutor(max_workers=len(works)) if len(works) > 1 else None
    try:
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
    finally:
        if pool is not None:
            pool.shutdown()
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


def default_threads() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else the
    CPU count), at most :data:`MAX_THREADS`: the ``threads`` that ``solve`` and
    :func:`solver.decide.decide` use unless told."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, n))


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
    i = before.players.index(player)
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
    i = before.players.index(player)
    d = after.worths[:, i].astype(np.float64) - before.worths[:, i].astype(np.float64)
    se = float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else float("nan")
    return float(d.mean()), se


GAME_FIELDS = ("to_move", "round", "phase", "doubles", "dice_thrown", "over", "winner", "reason", "pot", "bank_cash")
PLAYER_FIELDS = ("cash", "position", "in_jail", "bankrupt", "jail_turns", "jail_cards", "net_worth")
DECK_FIELDS = ("shuffles", "left", "draws")
REASON_CODES = {
    "bankruptcy": _kernel.REASON_BANKRUPTCY,
    "round_cap": _kernel.REASON_CAP,
    "round_limit": _kernel.REASON_LIMIT,
    "cash_target": _kernel.REASON_TARGET,
}
"""The reference engine's end reasons (``GameResult.reason``) as the kernel's codes."""
assert (len(GAME_FIELDS), len(PLAYER_FIELDS), len(DECK_FIELDS)) == (_kernel.TRACE_GAME, _kernel.TRACE_PLAYER, _kernel.TRACE_DECK)


@dataclass(frozen=True)
class TraceLayout:
    """The columns of a row of :func:`kernel_trace` and :func:`reference_trace` (one row per turn).

    ``rolls`` (column 0) counts the rolls of the turn (a jail turn counts as
    one, with the roll it may lead to); columns ``1 .. TRACE_ROLLS`` hold
    the doubles counter (``GameState.doubles_rolled``) after each of them and
    its consequences (-1 padding; a turn's rolls past :data:`engine.sim._kernel.TRACE_ROLLS`
    are counted, not recorded). Then the state after the turn:
    :data:`GAME_FIELDS` (``phase`` 0 at the start of a turn; ``winner`` and
    ``reason``, :data:`REASON_CODES`, are -1 until the game is over;
    ``bank_cash`` -1 when the bank never runs out), per
    player :data:`PLAYER_FIELDS` and ``held_width`` (deck, card) pairs, the
    Get Out of Jail Free cards it holds in the order received (the last is
    used first; -1 padding); owner, level and mortgage flag per square; per
    deck (Chance, then Community Chest) :data:`DECK_FIELDS` (shuffles so
    far, cards left before the next shuffle, with-replacement draws so far),
    the cards left in draw order
    (``deck_width`` columns, -1 padding) and a held flag per card.

    Attributes
    ----------
    n_players, n_squares : int
        The state's players and squares.
    held_width : int
        Get Out of Jail Free cards a player can hold (the decks' number, at least 1).
    deck_width : int
        The larger deck's size.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> layout = TraceLayout.of(state)
    >>> layout.width, layout.player(1), layout.squares, layout.deck(0)
    (253, 30, 63, 183)
    >>> names = layout.names()
    >>> names[layout.player(2)], names[layout.squares + 1], len(names) == layout.width
    ('player 2 cash', 'square 1 owner', True)
    """

    n_players: int
    n_squares: int
    held_width: int
    deck_width: int

    @classmethod
    def of(cls, state: GameState) -> TraceLayout:
        """The layout of ``state``'s rows.

        Parameters
        ----------
        state : GameState
            The state the trace starts from (players, board, decks).

        Returns
        -------
        TraceLayout
            Its widths.
        """
        board = state.board
        decks = [board.deck(name) for name in DECK_NAMES]
        pool = sum(c.action == "jail_free" for cards in decks for c in cards)
        return cls(len(state.players), board.size, max(1, pool), max(1, *(len(d) for d in decks)))

    @property
    def game(self) -> int:
        """First column of :data:`GAME_FIELDS` (after the rolls and the doubles counters)."""
        return _kernel.TRACE_STATE

    def player(self, q: int) -> int:
        """First column of player ``q`` (:data:`PLAYER_FIELDS`, then its held cards).

        Parameters
        ----------
        q : int
            The seat (``n_players``: the column after the last player's).

        Returns
        -------
        int
            The column.
        """
        return self.game + len(GAME_FIELDS) + q * (len(PLAYER_FIELDS) + 2 * self.held_width)

    def held(self, q: int) -> slice:
        """Columns of player ``q``'s held cards, ``(deck, card)`` pairs.

        Parameters
        ----------
        q : int
            The seat.

        Returns
        -------
        slice
            ``2 * held_width`` columns.
        """
        start = self.player(q) + len(PLAYER_FIELDS)
        return slice(start, start + 2 * self.held_width)

    @property
    def squares(self) -> int:
        """First column of the owners; levels and mortgage flags follow."""
        return self.player(self.n_players)

    def deck(self, d: int) -> int:
        """First column of deck ``d`` (:data:`DECK_FIELDS`, then its pile and its held flags).

        Parameters
        ----------
        d : int
            0 for Chance, 1 for Community Chest (2: the end of the row).

        Returns
        -------
        int
            The column.
        """
        return self.squares + 3 * self.n_squares + d * (len(DECK_FIELDS) + 2 * self.deck_width)

    def pile(self, d: int) -> slice:
        """Columns of deck ``d``'s cards left, in draw order.

        Parameters
        ----------
        d : int
            0 for Chance, 1 for Community Chest.

        Returns
        -------
        slice
            ``deck_width`` columns.
        """
        start = self.deck(d) + len(DECK_FIELDS)
        return slice(start, start + self.deck_width)

    def deck_held(self, d: int) -> slice:
        """Columns of deck ``d``'s held flags, one per card.

        Parameters
        ----------
        d : int
            0 for Chance, 1 for Community Chest.

        Returns
        -------
        slice
            ``deck_width`` columns.
        """
        start = self.deck(d) + len(DECK_FIELDS) + self.deck_width
        return slice(start, start + self.deck_width)

    @property
    def width(self) -> int:
        """Columns per row."""
        return self.deck(2)

    def names(self) -> list[str]:
        """A name per column, for messages.

        Returns
        -------
        list of str
            ``width`` names (``"player 2 cash"``, ``"square 1 owner"``, ...).
        """
        out = ["rolls"] + [f"doubles after roll {i}" for i in range(_kernel.TRACE_ROLLS)] + list(GAME_FIELDS)
        for q in range(self.n_players):
            out += [f"player {q} {f}" for f in PLAYER_FIELDS]
            out += [f"player {q} held card {k} {f}" for k in range(self.held_width) for f in ("deck", "card")]
        for f in ("owner", "level", "mortgaged"):
            out += [f"square {sq} {f}" for sq in range(self.n_squares)]
        for d, name in enumerate(DECK_NAMES):
            out += [f"{name} {f}" for f in DECK_FIELDS]
            out += [f"{name} pile {i}" for i in range(self.deck_width)]
            out += [f"{name} held {i}" for i in range(self.deck_width)]
        assert len(out) == self.width
        return out


def kernel_trace(state: GameState, key: int, horizon: int, policy: PolicyLike = None) -> np.ndarray:
    """The kernel's rows (:class:`TraceLayout`), one per turn of the game with stream key ``key``.

    Parameters
    ----------
    state : GameState
        The start.
    key : int
        The game's stream key (:class:`engine.rules.streams.CounterStream`).
    horizon : int
        Rounds to play.
    policy : RolloutPolicy, sequence of them, or None
        As :func:`simulate`.

    Returns
    -------
    numpy.ndarray
        One row per turn, int64.

    Examples
    --------
    The differential test in one line: the kernel and the reference engine play the same
    game, turn by turn.

    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> rows = kernel_trace(state, 12345, 2)
    >>> rows.shape, bool((rows == reference_trace(state, 12345, 2)).all())
    ((6, 253), True)
    """
    tables = encode(state, policy, state.round + horizon)
    layout = TraceLayout.of(state)
    assert (tables.X0[7].shape[1], tables.X0[5].shape[1]) == (layout.held_width, layout.deck_width)
    n_pl = tables.n_players
    cap = 8 * (horizon + 1) * n_pl * 4 + 64
    trace = np.zeros((cap, layout.width), dtype=np.int64)
    keys = np.array([key], dtype=np.uint64)
    info = np.empty((1, 3), dtype=np.int64)
    _kernel.run_batch(
        tables.B, tables.X0, tables.work(), keys, np.empty(1, np.int64), np.empty((1, n_pl), np.int64), info, trace, np.empty((0, 1), np.int64)
    )
    return trace[: int(info[0, 0])]


def _reference_row(game: Game, layout: TraceLayout, rolls: list[int], stream: CounterStream) -> list[int]:
    s = game.state
    res = game.result
    row = [len(rolls)] + (rolls + [-1] * _kernel.TRACE_ROLLS)[: _kernel.TRACE_ROLLS]
    row += [s.to_move, s.round, int(s.phase != Phase.START), s.doubles_rolled, stream.dice_thrown, int(game.over)]
    if res is None:
        row += [-1, -1]
    else:
        row += [res.winner_index if res.winner_index is not None else -1, REASON_CODES[res.reason]]
    row += [s.pot, -1 if s.bank_cash is None else s.bank_cash]
    for q, p in enumerate(s.players):
        row += [p.cash, p.position, int(p.in_jail), int(p.bankrupt), p.jail_turns, p.jail_cards, s.net_worth(q)]
        held = [v for deck, idx in game.held_cards[q] for v in (DECK_NAMES.index(deck), idx)]
        row += held + [-1] * (2 * layout.held_width - len(held))
    row += list(s.owner) + list(s.houses) + [int(m) for m in s.mortgaged]
    for name in DECK_NAMES:
        deck = game.decks[name]
        pile = list(reversed(deck._pile))  # the next card is at the end of _pile
        row += [stream._shuffles[name], len(pile), stream._draws[name]]
        row += pile + [-1] * (layout.deck_width - len(pile))
        row += [int(i in deck.held) for i in range(layout.deck_width)]
    return row


def _count_rolls(game: Game, rolls: list[int]) -> None:
    """Append ``state.doubles_rolled`` to ``rolls`` after every roll of a turn
    (``Game._roll_and_move``, or ``Game._jail_turn`` with the roll it may lead
    to), as the kernel's :func:`engine.sim._kernel.play_turn` records it."""
    depth = 0

    def outer(method: Callable[[int], bool]) -> Callable[[int], bool]:
        def wrapped(p: int) -> bool:
            nonlocal depth
            depth += 1
            try:
                return method(p)
            finally:
                depth -= 1
                if depth == 0:
                    rolls.append(game.state.doubles_rolled)

        return wrapped

    for name in ("_roll_and_move", "_jail_turn"):
        setattr(game, name, outer(getattr(game, name)))


def reference_game(
    state: GameState,
    key: int,
    horizon: int,
    policy: PolicyLike = None,
    observers: Iterable[Observer] = (),
) -> Game:
    """Game ``key`` of the kernel as a reference-engine game, not yet played: a copy of
    ``state``, the policy's agents, the counter stream of ``key`` and the horizon as
    the round cap.

    Parameters
    ----------
    state : GameState
        The start (copied).
    key : int
        The game's stream key.
    horizon : int
        Rounds to play.
    policy : RolloutPolicy, sequence of them, or None
        As :func:`simulate`.
    observers : iterable of Observer
        Told every event of the game.

    Returns
    -------
    Game
        Ready to :meth:`~engine.rules.game.Game.play`.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> result = reference_game(state, 12345, 2).play()
    >>> result.reason, result.rounds - state.round
    ('round_cap', 2)
    """
    s = state.copy()
    policies = seat_policies(policy, len(s.players))
    agents = [PolicyAgent(policies=policies) for _ in s.players]
    return Game(s, agents, CounterStream(key), max_rounds=s.round + horizon, observers=observers)


def reference_trace(
    state: GameState,
    key: int,
    horizon: int,
    policy: PolicyLike = None,
    observers: Iterable[Observer] = (),
) -> np.ndarray:
    """The same game as :func:`kernel_trace`, played by the reference engine
    (``observers`` see its events); the same rows.

    Parameters
    ----------
    state : GameState
        The start (copied).
    key : int
        The game's stream key.
    horizon : int
        Rounds to play.
    policy : RolloutPolicy, sequence of them, or None
        As :func:`simulate`.
    observers : iterable of Observer
        Told every event of the game.

    Returns
    -------
    numpy.ndarray
        One row per turn (:class:`TraceLayout`), int64.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> reference_trace(state, 12345, 2).shape
    (6, 253)
    """
    game = reference_game(state, key, horizon, policy, observers)
    stream = game.stream
    assert isinstance(stream, CounterStream)  # reference_game's stream (for the type checker)
    s = game.state
    layout = TraceLayout.of(s)
    rolls: list[int] = []
    _count_rolls(game, rolls)
    rows = []
    while not game.over:
        rolls.clear()
        game.play_turn()
        rows.append(_reference_row(game, layout, rolls, stream))
    return np.array(rows, dtype=np.int64).reshape(len(rows), layout.width)


__all__ = [
    "DEFAULT_BATCH",
    "DEFAULT_SCORING",
    "SCORINGS",
    "RolloutResult",
    "TraceLayout",
    "kernel_trace",
    "paired_delta",
    "paired_worth_delta",
    "reference_game",
    "reference_trace",
    "simulate",
]
