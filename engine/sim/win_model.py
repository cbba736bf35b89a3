"""A calibrated value at the horizon: P(player wins | state) by a conditional logit.

A rollout that stops before the game ends must still say who is likely to
win. Scoring such a game by "the richest player wins" over-weights cash (a
$100 gift moves that score about 5 times more at a 30-round horizon than it
moves the outcome of games played to the end). This module replaces it by a
model fitted on states sampled from games that WERE played to the end.

Model
-----
For the active players ``i`` of a state, with a feature vector ``f_i``
(:data:`FEATURES`), the probability that ``i`` wins is the conditional
(multinomial) logit of McFadden (1974, "Conditional logit analysis of
qualitative choice behavior", in Zarembka (ed.), *Frontiers in
Econometrics*)::

    P(i wins) = exp(w . f_i) / sum_j exp(w . f_j)       (j over active players)

One weight vector ``w`` is shared by all seats, so the model is symmetric in
the players and its probabilities sum to 1 over the active players; a
bankrupt player has probability 0. It is fitted by maximum likelihood with a
small L2 penalty (:func:`fit`; the log-likelihood is concave, so the optimum
is unique), by ``bench/fit_win_model.py``; the coefficients ship in
``engine/sim/data/win-model.json`` with the fit's provenance and its held-out
Brier score.

Features
--------
Each is computed per game from arrays (so a batch of kernel games and a
single :class:`~models.state.GameState` share one implementation,
:func:`features_from_arrays`). ``ept`` is the long-run expected rent per
opponent turn of a square for its current owner (:func:`engine.chains.ept.state_ept`
written as lookup tables; mortgaged or unowned squares pay nothing), ``n``
the number of active players:

``worth_share``
    net worth (the short-game valuation of :meth:`GameState.net_worth`)
    over the sum of the active players' net worths.
``income_share``
    the player's summed ``ept`` over the active players' sum (``1/n`` each
    when nobody collects any rent).
``flow``
    ``asinh(net / 100)`` with ``net = (n - 1) * income - outgo`` dollars
    per round: rent collected from the others' turns minus rent paid on its
    own turn (the squares of the others). ``asinh`` keeps hotel-sized flows
    from dominating while staying linear near 0.
``danger``
    the dearest rent the player can land on (others' unmortgaged squares,
    a utility counted at 7 times its multiplier) over its liquidation value,
    capped at 3: near or above 1, one unlucky roll can ruin it.
``monopolies``
    complete colour groups held (``set_size`` honoured).

Why the weights' signs are constrained
--------------------------------------
The model scores the end of a rollout, and decisions compare two such
scores: a trade or a gift is an intervention, so the model must move in the
causal direction (more money or more rent never hurts). An unconstrained
fit on observed games does not: with a cash-share feature its weight came
out negative (-0.57), and without it the net-worth share's weight is -0.26,
because in observed play idle cash marks a player that cannot invest. So
the fit (:func:`fit`) bounds every weight to its sign in :data:`SIGNS`
(L-BFGS-B with bounds); on the held-out games of the shipped fit this costs
0.0001 of Brier score (see the provenance in the data file). Cash still
counts through ``worth_share`` and ``danger``, and through what the rollout
policy buys and builds with it before the horizon.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from engine.chains.ept import long_run_blocks, railroad_ept, street_ept, utility_ept
from engine.chains.markov import PositionChain, chain_for
from models.board import HOTEL, Board
from models.errors import ComputationError, MonopolyError
from models.rules import Rules
from models.state import GameState

FEATURES = ("worth_share", "income_share", "flow", "danger", "monopolies")
SIGNS = (1, 1, 1, -1, 1)
"""The sign each weight is constrained to (:func:`fit`): more worth, rent, flow or sets never
lowers a player's chance, more danger never raises it."""
DANGER_CAP = 3.0
UTILITY_ROLL = 7.0  # the mean total of two dice, for a utility's landing rent in ``danger``


@dataclass(frozen=True)
class BoardTables:
    """Per-square lookup tables of one (board, rules): everything the features need.

    ``street_ept[sq, k]``: EPT of street ``sq`` at level ``k`` (0..5), where
    level 0 is the bare rent and column 6 the doubled bare rent of a monopoly;
    ``rr_ept[sq, c]`` for ``c + 1`` railroads held, ``ut_ept[sq, c]`` for ``c + 1``
    utilities held; the same layout with the landing rent in dollars in the
    ``*_rent`` tables. ``group[sq]``: the index of the square's group (-1 for
    other squares), ``need[g]``: lots needed for a monopoly of street group
    ``g`` (``is_street[g]``), ``price``, ``house_cost``, ``mortgage``: per square.

    Attributes
    ----------
    kind, group : numpy.ndarray
        Per square: 0 other, 1 street, 2 railroad, 3 utility; the group's index or -1.
    is_street, need : numpy.ndarray
        Per group: a colour group or not; the lots a monopoly needs (``set_size`` honoured).
    price, house_cost, mortgage, sell : numpy.ndarray
        Per square: the list price, a building's cost, the mortgage value, a building's
        sale value.
    street_ept, street_rent : numpy.ndarray
        ``(squares, 7)``: EPT and rent per level (column 6: a monopoly's doubled bare rent).
    rr_ept, rr_rent, ut_ept, ut_rent : numpy.ndarray
        ``(squares, held)``: EPT and landing rent by the number held.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> t = board_tables(state.board, state.rules)
    >>> t.street_ept.shape, round(float(t.street_ept[39, 5]), 2), int(t.need[t.group[39]])  # Boardwalk
    ((40, 7), 57.97, 2)
    """

    kind: np.ndarray  # 0 other, 1 street, 2 railroad, 3 utility
    group: np.ndarray
    is_street: np.ndarray
    need: np.ndarray
    price: np.ndarray
    house_cost: np.ndarray
    mortgage: np.ndarray
    sell: np.ndarray
    street_ept: np.ndarray
    street_rent: np.ndarray
    rr_ept: np.ndarray
    rr_rent: np.ndarray
    ut_ept: np.ndarray
    ut_rent: np.ndarray


def board_tables(board: Board, rules: Rules, chain: PositionChain | None = None) -> BoardTables:
    """The lookup tables of ``board`` under ``rules`` (long-run landings, long jail policy).

    Parameters
    ----------
    board : Board
        The board.
    rules : Rules
        The rules (mortgage rate, sale value, set sizes, the chain's dice and jail).
    chain : PositionChain or None
        Its position chain; ``None``: the shared one.

    Returns
    -------
    BoardTables
        The tables.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> round(float(board_tables(state.board, state.rules).rr_ept[5, 3]), 2)  # Reading, 4 held
    7.18
    """
    chain = chain or chain_for(board, rules, "long")
    b = long_run_blocks(chain)
    n = board.size
    groups = sorted(board.groups)
    gidx = {g: i for i, g in enumerate(groups)}
    kind = np.zeros(n, np.int64)
    group = np.full(n, -1, np.int64)
    price = np.zeros(n)
    house = np.zeros(n)
    mort = np.zeros(n)
    sell = np.zeros(n)
    s_ept = np.zeros((n, 7))
    s_rent = np.zeros((n, 7))
    n_rr, n_ut = max(len(board.railroads), 1), max(len(board.utilities), 1)
    r_ept, r_rent = np.zeros((n, n_rr)), np.zeros((n, n_rr))
    u_ept, u_rent = np.zeros((n, n_ut)), np.zeros((n, n_ut))
    for sq in board.property_squares:
        s = board.squares[sq]
        price[sq] = s.price
        mort[sq] = int(s.price * rules.mortgage_rate)
        if s.group is not None:
            group[sq] = gidx[s.group]
        if s.kind == "street":
            kind[sq] = 1
            house[sq] = s.house_cost
            sell[sq] = rules.sell_value(s.house_cost)
            rents = [*s.rents[: HOTEL + 1], 2 * s.rents[0]]
            s_rent[sq] = rents
            s_ept[sq] = [float(street_ept(chain, sq, r, b)) for r in rents]
        elif s.kind == "railroad":
            kind[sq] = 2
            rr_rents = board.railroad_rents[:n_rr]
            r_rent[sq, : len(rr_rents)] = rr_rents
            r_ept[sq, : len(rr_rents)] = [float(railroad_ept(chain, sq, r, b)) for r in rr_rents]
        else:
            kind[sq] = 3
            mults = board.utility_multipliers[:n_ut]
            u_rent[sq, : len(mults)] = [UTILITY_ROLL * m for m in mults]
            u_ept[sq, : len(mults)] = [float(utility_ept(chain, sq, m, b)) for m in mults]
    is_street = np.array([g in board.street_groups for g in groups], bool)
    need = np.array([rules.set_size.get(g, len(board.groups[g])) for g in groups], np.int64)
    return BoardTables(kind, group, is_street, need, price, house, mort, sell, s_ept, s_rent, r_ept, r_rent, u_ept, u_rent)


def features_from_arrays(
    t: BoardTables,
    cash: np.ndarray,
    owner: np.ndarray,
    houses: np.ndarray,
    mortgaged: np.ndarray,
    bankrupt: np.ndarray,
) -> np.ndarray:
    """Features of every player of every game: an array ``(games, players, len(FEATURES))``.

    ``cash`` and ``bankrupt`` are ``(games, players)``; ``owner`` (player
    index or -1), ``houses`` (0..5) and ``mortgaged`` are ``(games, squares)``.
    Bankrupt players get zero features (their probability is set to 0 by
    :func:`win_probabilities`).

    Parameters
    ----------
    t : BoardTables
        The board's tables (:func:`tables_for`).
    cash, bankrupt : numpy.ndarray
        ``(games, players)``.
    owner, houses, mortgaged : numpy.ndarray
        ``(games, squares)``.

    Returns
    -------
    numpy.ndarray
        ``(games, players, len(FEATURES))``.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> f = features_from_arrays(tables_for(state.board, state.rules), *state_arrays(state))
    >>> f.shape, bool((f[0] == state_features(state)).all())
    ((1, 4, 5), True)
    """
    cash = np.asarray(cash, float)
    owner = np.asarray(owner, np.int64)
    houses = np.asarray(houses, np.int64)
    mortgaged = np.asarray(mortgaged, bool)
    active = ~np.asarray(bankrupt, bool)
    games, players = cash.shape
    n_groups = len(t.need)
    # counts[g, p, group] of lots held
    onehot = owner[:, None, :] == np.arange(players)[None, :, None]  # (G, P, S)
    gsq = t.group >= 0
    counts = np.zeros((games, players, n_groups), np.int64)
    for k in range(n_groups):
        counts[:, :, k] = onehot[:, :, t.group == k].sum(axis=2)
    mono = (counts >= t.need[None, None, :]) & t.is_street[None, None, :]
    owned = owner >= 0
    safe_owner = np.where(owned, owner, 0)
    gi = np.where(gsq, t.group, 0)
    own_count = np.take_along_axis(counts.reshape(games, players * n_groups), (safe_owner * n_groups + gi[None, :]), axis=1)
    own_mono = np.take_along_axis(mono.reshape(games, players * n_groups), (safe_owner * n_groups + gi[None, :]), axis=1)
    sq_idx = np.arange(len(t.kind))[None, :]
    street_col = np.where(houses > 0, houses, np.where(own_mono, 6, 0))
    ept = np.zeros(owner.shape)
    rent = np.zeros(owner.shape)
    is_st = t.kind[None, :] == 1
    ept = np.where(is_st, t.street_ept[sq_idx, street_col], ept)
    rent = np.where(is_st, t.street_rent[sq_idx, street_col], rent)
    rr_c = np.clip(own_count - 1, 0, t.rr_ept.shape[1] - 1)
    ut_c = np.clip(own_count - 1, 0, t.ut_ept.shape[1] - 1)
    ept = np.where(t.kind[None, :] == 2, t.rr_ept[sq_idx, rr_c], ept)
    rent = np.where(t.kind[None, :] == 2, t.rr_rent[sq_idx, rr_c], rent)
    ept = np.where(t.kind[None, :] == 3, t.ut_ept[sq_idx, ut_c], ept)
    rent = np.where(t.kind[None, :] == 3, t.ut_rent[sq_idx, ut_c], rent)
    live = owned & ~mortgaged
    ept = np.where(live, ept, 0.0)
    rent = np.where(live, rent, 0.0)
    # per player sums
    mine = onehot & owned[:, None, :]
    income = (mine * ept[:, None, :]).sum(axis=2)
    total_ept = ept.sum(axis=1, keepdims=True)
    outgo = total_ept - income
    worst = np.where(mine, 0.0, rent[:, None, :]).max(axis=2)
    value = np.where(mortgaged, t.mortgage[None, :], t.price[None, :]) + houses * t.house_cost[None, :]
    worth = cash + (mine * value[:, None, :]).sum(axis=2)
    liq_sq = np.where(mortgaged, 0.0, t.mortgage[None, :]) + houses * t.sell[None, :]
    liquid = cash + (mine * liq_sq[:, None, :]).sum(axis=2)
    n_act = active.sum(axis=1, keepdims=True)

    def share(x: np.ndarray) -> np.ndarray:
        x = np.where(active, np.maximum(x, 0.0), 0.0)
        tot = x.sum(axis=1, keepdims=True)
        even = np.where(active, 1.0 / np.maximum(n_act, 1), 0.0)
        return np.where(tot > 0, x / np.where(tot > 0, tot, 1.0), even)

    f = np.zeros((games, players, len(FEATURES)))
    f[..., 0] = share(worth)
    f[..., 1] = share(income)
    f[..., 2] = np.arcsinh(((n_act - 1) * income - outgo) / 100.0)
    f[..., 3] = np.minimum(worst / np.maximum(liquid, 1.0), DANGER_CAP)
    f[..., 4] = mono.sum(axis=2)
    return np.where(active[..., None], f, 0.0)


def state_arrays(state: GameState) -> tuple[np.ndarray, ...]:
    """``(cash, owner, houses, mortgaged, bankrupt)`` of one state, with a leading game axis of 1."""
    cash = np.array([[p.cash for p in state.players]], float)
    owner = np.array([state.owner], np.int64)  # BANK is -1, as the features expect
    houses = np.array([state.houses], np.int64)
    mortgaged = np.array([state.mortgaged], bool)
    bankrupt = np.array([[p.bankrupt for p in state.players]], bool)
    return cash, owner, houses, mortgaged, bankrupt


@cache
def tables_for(board: Board, rules: Rules) -> BoardTables:
    """:func:`board_tables`, computed once per (board, rules) in a process.

    Parameters
    ----------
    board : Board
        The board.
    rules : Rules
        The rules.

    Returns
    -------
    BoardTables
        The tables (the same object on every call with equal arguments: do not modify them).

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> t = tables_for(state.board, state.rules)
    >>> fresh = board_tables(state.board, state.rules)
    >>> t is tables_for(state.board, state.rules), bool((t.street_ept == fresh.street_ept).all())
    (True, True)
    """
    return board_tables(board, rules)


def state_features(state: GameState) -> np.ndarray:
    """Features of the players of ``state``: ``(players, len(FEATURES))``.

    Parameters
    ----------
    state : GameState
        The position.

    Returns
    -------
    numpy.ndarray
        One row per player, the columns of :data:`FEATURES`.

    Examples
    --------
    Bob, with the hotels: a third of the worth and of the rent, one monopoly.

    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> dict(zip(FEATURES, state_features(state)[1].round(3).tolist()))
    {'worth_share': 0.306, 'income_share': 0.326, 'flow': 0.765, 'danger': 0.959, 'monopolies': 1.0}
    """
    out: np.ndarray = features_from_arrays(tables_for(state.board, state.rules), *state_arrays(state))[0]
    return out


def state_win_probabilities(state: GameState, model: WinModel | None = None) -> np.ndarray:
    """The horizon model's win probability of each player of ``state`` itself (no rollouts).

    Parameters
    ----------
    state : GameState
        The position.
    model : WinModel or None
        The weights (default: :func:`default_model`).

    Returns
    -------
    numpy.ndarray
        ``(players,)``, summing to 1 over the active players (0 for a bankrupt one).

    Examples
    --------
    >>> from models.io import load_state
    >>> p = state_win_probabilities(load_state("instances/opening.json"))
    >>> [round(float(x), 3) for x in p]
    [0.25, 0.25, 0.25, 0.25]
    """
    m = model or default_model()
    feats = features_from_arrays(tables_for(state.board, state.rules), *state_arrays(state))
    bankrupt = np.array([[p.bankrupt for p in state.players]])
    out: np.ndarray = win_probabilities(m.weights, feats, bankrupt)[0]
    return out


def win_probabilities(weights: np.ndarray, features: np.ndarray, bankrupt: np.ndarray) -> np.ndarray:
    """The conditional logit: softmax of ``features @ weights`` over the active players.

    ``features`` is ``(..., players, k)``, ``bankrupt`` ``(..., players)``;
    returns ``(..., players)`` summing to 1 over the active players of each
    game (all zeros for a game with nobody active).

    Parameters
    ----------
    weights : numpy.ndarray
        ``(k,)``.
    features : numpy.ndarray
        ``(..., players, k)``.
    bankrupt : numpy.ndarray
        ``(..., players)``.

    Returns
    -------
    numpy.ndarray
        ``(..., players)`` probabilities.

    Examples
    --------
    Odds of 3 to 1 for a score ``log 3`` higher; a bankrupt player gets 0:

    >>> import numpy as np
    >>> win_probabilities(np.array([1.0]), np.array([[[0.0], [np.log(3.0)]]]), np.array([[False, False]])).round(3).tolist()
    [[0.25, 0.75]]
    >>> win_probabilities(np.array([1.0]), np.array([[[0.0], [1.0]]]), np.array([[False, True]])).tolist()
    [[1.0, 0.0]]
    """
    z = features @ np.asarray(weights, float)
    z = np.where(bankrupt, -np.inf, z)
    top = np.max(np.where(bankrupt, -np.inf, z), axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.where(bankrupt, 0.0, np.exp(z - top))
    tot = e.sum(axis=-1, keepdims=True)
    return np.where(tot > 0, e / np.where(tot > 0, tot, 1.0), 0.0)


def neg_log_likelihood(weights: np.ndarray, features: np.ndarray, mask: np.ndarray, winner: np.ndarray, l2: float) -> tuple[float, np.ndarray]:
    """Mean negative log-likelihood (plus ``l2 * |w|^2 / 2``) and its gradient.

    ``features`` ``(m, players, k)``, ``mask`` ``(m, players)`` True for active
    players, ``winner`` ``(m,)`` the index of the eventual winner (active).
    Gradient: ``mean_s (E_p[f] - f_winner) + l2 * w`` (the usual logit score).

    Parameters
    ----------
    weights : numpy.ndarray
        ``(k,)``.
    features : numpy.ndarray
        ``(m, players, k)`` features of ``m`` states.
    mask : numpy.ndarray
        ``(m, players)``, True for the active players.
    winner : numpy.ndarray
        ``(m,)``, the index of each state's eventual winner.
    l2 : float
        The penalty.

    Returns
    -------
    tuple of (float, numpy.ndarray)
        The objective and its gradient.

    Examples
    --------
    At ``w = 0`` every two-player state has probability 1/2: the loss is ``log 2``.

    >>> import numpy as np
    >>> x = np.array([[[1.0], [0.0]], [[0.0], [1.0]], [[1.0], [0.0]], [[1.0], [0.0]]])
    >>> mask, winner = np.ones((4, 2), bool), np.array([0, 1, 0, 1])
    >>> loss, grad = neg_log_likelihood(np.zeros(1), x, mask, winner, 0.0)
    >>> round(loss, 6), grad.round(6).tolist()
    (0.693147, [-0.25])
    """
    p = win_probabilities(weights, features, ~mask)
    m = len(winner)
    rows = np.arange(m)
    lp = np.log(np.maximum(p[rows, winner], 1e-300))
    expected = (p[..., None] * features).sum(axis=1)
    grad = (expected - features[rows, winner]).mean(axis=0) + l2 * weights
    return float(-lp.mean() + 0.5 * l2 * weights @ weights), grad


def fit(
    features: np.ndarray, mask: np.ndarray, winner: np.ndarray, l2: float = 1e-3, signs: tuple[int, ...] | None = SIGNS
) -> np.ndarray:
    """Maximum-likelihood weights (L-BFGS-B on :func:`neg_log_likelihood`), each bounded to
    its sign in ``signs`` (``0``: free; ``None``: no bounds). The objective is strictly
    convex for ``l2 > 0`` and the bounds are a convex set, so the optimum is unique.

    Parameters
    ----------
    features : numpy.ndarray
        ``(m, players, k)`` features of ``m`` states.
    mask : numpy.ndarray
        ``(m, players)``, True for the active players.
    winner : numpy.ndarray
        ``(m,)``, the index of each state's eventual winner.
    l2 : float, default 1e-3
        The L2 penalty.
    signs : tuple of int or None, default SIGNS
        Each weight's sign bound.

    Returns
    -------
    numpy.ndarray
        The weights.

    Raises
    ------
    ComputationError
        The optimiser did not converge.

    Examples
    --------
    The player with the feature wins 3 states of 4, so the maximum-likelihood weight is
    ``log 3`` (by hand):

    >>> import numpy as np
    >>> x = np.array([[[1.0], [0.0]], [[0.0], [1.0]], [[1.0], [0.0]], [[1.0], [0.0]]])
    >>> mask, winner = np.ones((4, 2), bool), np.array([0, 1, 0, 1])
    >>> w = fit(x, mask, winner, l2=0.0, signs=None)
    >>> round(float(w[0]), 3), round(float(np.log(3.0)), 3)
    (1.099, 1.099)
    """
    from scipy.optimize import minimize

    k = features.shape[-1]
    bounds = None if signs is None else [(0, None) if s > 0 else (None, 0) if s < 0 else (None, None) for s in signs]
    res = minimize(neg_log_likelihood, np.zeros(k), args=(features, mask, winner, l2), jac=True, method="L-BFGS-B", bounds=bounds)
    if not res.success:
        raise ComputationError(f"win-model fit did not converge: {res.message}")
    return np.asarray(res.x)


def brier(prob: np.ndarray, mask: np.ndarray, winner: np.ndarray) -> float:
    """Mean over states of ``sum_i (p_i - y_i)^2`` over the active players (Brier, 1950).

    Parameters
    ----------
    prob : numpy.ndarray
        ``(m, players)`` predicted probabilities.
    mask : numpy.ndarray
        ``(m, players)``, True for the active players.
    winner : numpy.ndarray
        ``(m,)`` the winners.

    Returns
    -------
    float
        The Brier score (0: perfect; 0.5 for a coin's 1/2 between two players).

    Examples
    --------
    >>> import numpy as np
    >>> brier(np.array([[0.5, 0.5]]), np.ones((1, 2), bool), np.array([0]))
    0.5
    """
    y = np.zeros_like(prob)
    y[np.arange(len(winner)), winner] = 1.0
    return float((((prob - y) ** 2) * mask).sum(axis=1).mean())


def reliability(prob: np.ndarray, mask: np.ndarray, winner: np.ndarray, bins: int = 10) -> list[dict[str, float]]:
    """Reliability table: (player, state) pairs binned by predicted probability;
    per bin the count, the mean prediction and the observed win frequency with its
    binomial standard error.

    Parameters
    ----------
    prob : numpy.ndarray
        ``(m, players)`` predicted probabilities.
    mask : numpy.ndarray
        ``(m, players)``, True for the active players.
    winner : numpy.ndarray
        ``(m,)`` the winners.
    bins : int, default 10
        Equal-width bins on ``[0, 1]``.

    Returns
    -------
    list of dict
        Per non-empty bin: ``lo``, ``hi``, ``n``, ``predicted``, ``observed``, ``se``.

    Examples
    --------
    >>> import numpy as np
    >>> table = reliability(np.array([[0.5, 0.5], [0.9, 0.1]]), np.ones((2, 2), bool), np.array([0, 0]), bins=2)
    >>> [(b["lo"], b["n"], round(b["predicted"], 3), round(b["observed"], 3)) for b in table]
    [(0.0, 1, 0.1, 0.0), (0.5, 3, 0.633, 0.667)]
    """
    y = np.zeros_like(prob)
    y[np.arange(len(winner)), winner] = 1.0
    p, o = prob[mask], y[mask]
    edges = np.linspace(0, 1, bins + 1)
    idx = np.clip(np.digitize(p, edges) - 1, 0, bins - 1)
    out = []
    for b in range(bins):
        sel = idx == b
        n = int(sel.sum())
        if n == 0:
            continue
        freq = float(o[sel].mean())
        out.append({"lo": float(edges[b]), "hi": float(edges[b + 1]), "n": n, "predicted": float(p[sel].mean()),
                    "observed": freq, "se": float(np.sqrt(max(freq * (1 - freq), 1e-12) / n))})
    return out


def richest_rule(features: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The net-worth rule as probabilities: 1 for the richest active player (ties split).

    Parameters
    ----------
    features : numpy.ndarray
        ``(m, players, k)``; column 0 is ``worth_share``.
    mask : numpy.ndarray
        ``(m, players)``, True for the active players.

    Returns
    -------
    numpy.ndarray
        ``(m, players)``.

    Examples
    --------
    >>> import numpy as np
    >>> richest_rule(np.array([[[0.6], [0.4]], [[0.5], [0.5]]]), np.ones((2, 2), bool)).tolist()
    [[1.0, 0.0], [0.5, 0.5]]
    """
    w = np.where(mask, features[..., 0], -np.inf)
    top = w.max(axis=-1, keepdims=True)
    best = (w == top) & mask
    out: np.ndarray = best / best.sum(axis=-1, keepdims=True)
    return out


class WinModelFileError(MonopolyError, ValueError):
    """A win-model document that breaks its format (``monopoly-win-model/1``)."""


@dataclass(frozen=True)
class WinModel:
    """Fitted weights (one per :data:`FEATURES` entry) and the fit's provenance.

    Attributes
    ----------
    weights : numpy.ndarray
        One per feature.
    provenance : dict
        How and on what it was fitted, with its held-out Brier score.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> model = default_model()
    >>> dict(zip(FEATURES, [round(float(w), 3) for w in model.weights]))
    {'worth_share': 0.0, 'income_share': 0.988, 'flow': 1.138, 'danger': -0.388, 'monopolies': 0.217}
    >>> p = model.predict(state)
    >>> p.round(3).tolist(), round(float(p.sum()), 9)
    ([0.167, 0.322, 0.008, 0.503], 1.0)
    """

    weights: np.ndarray
    provenance: dict[str, Any]

    def predict(self, state: GameState) -> np.ndarray:
        """P(win) of each player of ``state`` (0 for the bankrupt).

        Parameters
        ----------
        state : GameState
            The position.

        Returns
        -------
        numpy.ndarray
            One probability per seat, summing to 1 over the active players.
        """
        bankrupt = np.array([p.bankrupt for p in state.players])
        return win_probabilities(self.weights, state_features(state), bankrupt)

    def to_dict(self) -> dict[str, Any]:
        """The model's JSON document (``monopoly-win-model/1``), as :func:`load_model` reads it.

        Returns
        -------
        dict
            ``format``, ``features``, ``weights``, ``provenance``.
        """
        return {"format": "monopoly-win-model/1", "features": list(FEATURES),
                "weights": [float(x) for x in self.weights], "provenance": self.provenance}


MAX_MODEL_BYTES = 1 << 20


def load_model(doc: dict[str, Any]) -> WinModel:
    """A :class:`WinModel` from its JSON document (checked: format, feature names, finite weights).

    Parameters
    ----------
    doc : dict
        The parsed document.

    Returns
    -------
    WinModel
        The model.

    Raises
    ------
    WinModelFileError
        A wrong format, other feature names, or weights that are not one finite number per
        feature with ``|w| <= 1000``.

    Examples
    --------
    >>> model = load_model(default_model().to_dict())
    >>> model.weights.tolist() == default_model().weights.tolist()
    True
    >>> load_model({"format": "monopoly-win-model/0"})
    Traceback (most recent call last):
    ...
    engine.sim.win_model.WinModelFileError: win model: format must be 'monopoly-win-model/1'
    """
    if doc.get("format") != "monopoly-win-model/1":
        raise WinModelFileError("win model: format must be 'monopoly-win-model/1'")
    if doc.get("features") != list(FEATURES):
        raise WinModelFileError(f"win model: features must be {list(FEATURES)}")
    w = np.array(doc.get("weights"), float)
    if w.shape != (len(FEATURES),) or not np.all(np.isfinite(w)) or np.any(np.abs(w) > 1e3):
        raise WinModelFileError("win model: weights must be finite numbers, one per feature, |w| <= 1000")
    return WinModel(w, dict(doc.get("provenance", {})))


@cache
def default_model() -> WinModel:
    """The shipped model (``engine/sim/data/win-model.json``), read once per process.

    Returns
    -------
    WinModel
        The model, with its fit's provenance.

    Raises
    ------
    WinModelFileError
        The file is larger than ``MAX_MODEL_BYTES``, or breaks its format (:func:`load_model`).

    Examples
    --------
    >>> model = default_model()
    >>> model is default_model(), model.to_dict()["format"], round(model.provenance["brier"]["model"], 3)
    (True, 'monopoly-win-model/1', 0.403)
    """
    text = resources.files("engine.sim").joinpath("data").joinpath("win-model.json").read_text(encoding="utf-8")
    if len(text) > MAX_MODEL_BYTES:
        raise WinModelFileError("win model: file too large")
    return load_model(json.loads(text))


__all__ = [
    "FEATURES",
    "SIGNS",
    "BoardTables",
    "WinModel",
    "board_tables",
    "tables_for",
    "brier",
    "default_model",
    "features_from_arrays",
    "fit",
    "load_model",
    "neg_log_likelihood",
    "reliability",
    "richest_rule",
    "state_features",
    "state_win_probabilities",
    "win_probabilities",
]
