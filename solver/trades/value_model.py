"""The fitted trade value: a linear prediction of the simulated change in win probability.

The trade generator (:mod:`solver.trades.cpsat`) needs a value that is linear
in its decision variables (who holds how many lots of each group, and the
cash each player receives) so that CP-SAT stays exact; the re-scoring
(:mod:`solver.trades.rescore`) judges trades by simulated changes in win
probability. This module makes the first predict the second.

Features
--------
For a player ``j`` and a state (before or after a trade), with ``T_jg(k)``
the horizon value in dollars of ``j`` holding ``k`` lots of group ``g`` (the
table of :func:`solver.trades.values.linear_values`: expected rent over the
horizon, a complete colour group valued with the development ``j`` can
afford) and ``W`` the summed net worth of the active players before the
trade:

``completion``
    ``sum_g T_jg(k_jg) / W`` over colour groups held at or above their set size;
``lots``
    the same sum over every other holding (partial sets, railroads, utilities);
``near_blocked``, ``near_open``, ``near_bank``
    ``sum_g T_jg(set size) / W`` over colour groups held one lot short of their
    set size (one trade from completion), split by who holds the rest
    (:func:`near_status`): *open* when another player than ``j`` and the
    proposer holds one of the other lots, else *bank* when one is unowned,
    else *blocked* (every other lot is the proposer's). The split matters
    because of what is simulated: the rollout policy completes open sets by
    trade within a few turns (it swaps and buys completing lots), a bank lot
    is bought on landing, and the proposer holds in the rollouts, so a set
    whose missing lot it holds stays blocked. On seed 11's held-out states
    (unbounded least squares) the split lifts Spearman's rho from 0.62 to
    0.73 (counterparties 0.47 to 0.64);
``cash``
    ``cash_j / W``;
``cash_near_reserve``
    ``min(cash_j, cap_j) / W`` with ``cap_j = reserve_j + CASH_BUFFER``: money
    below the cap counts twice (diminishing returns above it; the reserve is
    the ruin-chain reserve of :func:`solver.analysis.reserve.reserves`);
``set_cash``
    ``min(max(0, cash_j - reserve_j), SET_CASH_CAP) / W`` when ``j`` holds a
    complete colour group, else 0: money to build with is worth more to a
    player with something to build on (on seed 11's held-out states the
    proposer's rho over trades that complete its set rises from 0.76 to
    0.79, and the R^2 from 0.53 to 0.55; before the split of "one short" the
    same interaction showed no gain);
``set:<group>``
    1 when colour group ``<group>`` is held complete (one per group of the
    standard board: the simulation values a complete brown set very
    differently from a complete orange one, beyond their rents over the
    horizon). A group of another board takes the mean of these weights.

A trade changes the features ``x_j`` of its participants, and the one-short
status of a bystander whose missing lot changes hands, by ``dx_j``.

Model
-----
The predicted change in ``i``'s win probability is::

    dp_i = a_r . dx_i + b_r . sum_{j != i} dx_j

(the sum over every active player: the trade's participants, and any
bystander whose one-short status the trade changes)
with one pair of weight vectors per role ``r``: the proposer's (``a_P``,
``b_P``) and the counterparties' (``a_Q``, ``b_Q``). The roles differ because
the simulation they predict differs: the proposer holds in the rollouts (its
baseline makes no trade), while a counterparty keeps trading there, so part of
what a trade gives it would have come by a later trade anyway. Own weights
are non-negative and rival weights non-positive (a trade is an intervention,
so more rent or money must never hurt its holder; :mod:`engine.sim.win_model`
says why the signs are bounded). They are fitted by weighted least squares
(scipy ``lsq_linear``, bounded-variable least squares) on simulated paired
changes of trades sampled from games, by ``bench/fit_trade_model.py``; the
weights ship in ``solver/data/trade-value.json`` with the fit's provenance and
its held-out figures. Tried and not kept: the same model with the logit's
scaling ``p_i (1 - p_i)`` for own and ``-p_i p_j`` for rival effects (held-out
Spearman 0.527 vs 0.531 without it, one role) and per-group "one short"
indicators (no gain over the three shares above, ill-conditioned).

In CP-SAT the prediction is an integer in micro-probabilities
(:data:`UNIT`): every coefficient is rounded to an integer number of units,
and :class:`FittedValues` evaluates the same integers outside the solver, so
the explicit enumerator and the model agree exactly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from engine.chains.markov import PositionChain
from models.errors import InvalidArgumentError, UnknownNameError
from models.state import BANK, GameState
from solver.trades.space import TradeSpace
from solver.trades.values import GainTerms, LinearValues, linear_values

BASE_FEATURES = ("completion", "lots", "near_blocked", "near_open", "near_bank", "cash", "cash_near_reserve", "set_cash")
NEAR = (2, 3, 4)  # indices of near_blocked, near_open, near_bank
CASH, KINK, SET_CASH = 5, 6, 7
SET_CASH_CAP = 1000
"""Dollars above the reserve that ``set_cash`` counts (what a set's development can use)."""
BLOCKS = ("proposer_own", "proposer_rival", "counterparty_own", "counterparty_rival")
FORMAT = "monopoly-trade-value/2"
UNIT = 1e-6
"""One unit of the integer prediction: a millionth of win probability."""
CASH_BUFFER = 200
"""Dollars above the ruin reserve within which cash counts twice (``cap_j``)."""


class TradeValueModelError(InvalidArgumentError):
    """A trade-value document or set of weights that breaks the format (:data:`FORMAT`)."""


@dataclass(frozen=True)
class TradeValueModel:
    """Fitted weights: for each block of :data:`BLOCKS`, one per feature of ``features``.

    Parameters
    ----------
    features:
        :data:`BASE_FEATURES`, then ``set:<group>`` entries.
    weights:
        Per block of :data:`BLOCKS`, one weight per feature.
    provenance:
        How the fit was made (script, command, states, held-out figures).

    Raises
    ------
    TradeValueModelError
        When the features, the blocks or the number of weights break the format,
        or a weight is not finite.

    Examples
    --------
    >>> m = default_trade_model()
    >>> m.features[:3], len(m.weights["proposer_own"]) == len(m.features)
    (('completion', 'lots', 'near_blocked'), True)
    """

    features: tuple[str, ...]
    weights: dict[str, tuple[float, ...]]
    provenance: dict[str, Any]

    def __post_init__(self) -> None:
        if self.features[: len(BASE_FEATURES)] != BASE_FEATURES or not all(f.startswith("set:") for f in self.features[len(BASE_FEATURES) :]):
            raise TradeValueModelError(f"trade value features must be {', '.join(BASE_FEATURES)} then set:<group> entries")
        if set(self.weights) != set(BLOCKS) or any(len(w) != len(self.features) for w in self.weights.values()):
            raise TradeValueModelError(f"trade value weights must have the blocks {', '.join(BLOCKS)}, one weight per feature")
        if not all(np.isfinite(w).all() for w in self.weights.values()):
            raise TradeValueModelError("trade value weights must be finite")

    def to_dict(self) -> dict[str, Any]:
        """The document :func:`load_model` reads (``solver/data/trade-value.json``'s form)."""
        return {
            "format": FORMAT,
            "features": list(self.features),
            "weights": {b: list(self.weights[b]) for b in BLOCKS},
            "provenance": self.provenance,
        }


def load_model(doc: dict[str, Any]) -> TradeValueModel:
    """The model of a ``monopoly-trade-value/2`` document (:data:`FORMAT`).

    Parameters
    ----------
    doc:
        The parsed JSON: ``format``, ``features``, ``weights`` per block, ``provenance``.

    Returns
    -------
    TradeValueModel

    Raises
    ------
    TradeValueModelError
        When the document is not of the format or its weights are malformed.

    Examples
    --------
    >>> load_model(default_trade_model().to_dict()) == default_trade_model()
    True
    >>> load_model({"format": "other"})
    Traceback (most recent call last):
    ...
    solver.trades.value_model.TradeValueModelError: not a monopoly-trade-value/2 document
    """
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise TradeValueModelError(f"not a {FORMAT} document")
    weights = {b: tuple(map(float, doc["weights"][b])) for b in BLOCKS}
    return TradeValueModel(tuple(map(str, doc["features"])), weights, dict(doc.get("provenance", {})))


@cache
def default_trade_model() -> TradeValueModel:
    """The shipped fit (``solver/data/trade-value.json``), loaded once.

    Returns
    -------
    TradeValueModel
    """
    text = resources.files("solver").joinpath("data/trade-value.json").read_text(encoding="utf-8")
    return load_model(json.loads(text))


def standard_features(state: GameState) -> tuple[str, ...]:
    """The feature names for ``state``'s board (what a fit on its games uses)."""
    return (*BASE_FEATURES, *(f"set:{g}" for g in state.board.street_groups))


# ---------------------------------------------------------------------------
# features
# ---------------------------------------------------------------------------
def near_status(state: GameState, j: int, g: str, proposer: int) -> int | None:
    """``None`` unless ``j`` holds colour group ``g`` one lot short of its set size (and the
    set size is at least 2); then 1 (*open*: some other lot is held by a player other
    than ``j`` and ``proposer``), else 2 (*bank*: some other lot is unowned), else 0
    (*blocked*: the others are the proposer's)."""
    if g not in state.board.street_groups:
        return None
    need = state.set_size(g)
    lots = state.board.groups[g]
    owners = [state.owner[sq] for sq in lots]
    if need < 2 or owners.count(j) != need - 1:
        return None
    others = [o for o in owners if o != j]
    if any(o not in (proposer, BANK) for o in others):
        return 1
    return 2 if BANK in others else 0


@dataclass(frozen=True)
class Context:
    """The constants of one state and proposer: the horizon-value table, ``W``, the cash caps."""

    state: GameState
    proposer: int
    table: dict[int, dict[str, tuple[int, ...]]]
    worth: float
    cap: dict[int, int]
    features: tuple[str, ...]
    reserve: dict[int, int]

    def group_features(self, j: int, g: str, k: int) -> np.ndarray:
        """The part of ``x_j`` from holding ``k`` lots of ``g`` (cash and near features 0)."""
        s = self.state
        x = np.zeros(len(self.features))
        v = self.table[j][g][k] / self.worth
        if g in s.board.street_groups and k >= s.set_size(g):
            x[0] = v
            name = f"set:{g}"
            if name in self.features:
                x[self.features.index(name)] = 1.0
            else:  # a group the fit did not see: the mean of the set weights
                n_sets = len(self.features) - len(BASE_FEATURES)
                x[len(BASE_FEATURES) :] = 1.0 / max(1, n_sets)
            return x
        x[1] = v
        return x

    def near_features(self, j: int, g: str, status: int) -> np.ndarray:
        """The part of ``x_j`` from being one short of ``g`` with ``status`` (:func:`near_status`)."""
        x = np.zeros(len(self.features))
        x[NEAR[status]] = self.table[j][g][self.state.set_size(g)] / self.worth
        return x

    def cash_features(self, j: int, cash: int) -> np.ndarray:
        x = np.zeros(len(self.features))
        x[CASH] = cash / self.worth
        x[KINK] = min(cash, self.cap[j]) / self.worth
        return x

    def set_cash(self, state: GameState, j: int) -> int:
        """The dollars ``set_cash`` counts for ``j`` in ``state`` (before dividing by ``W``)."""
        if not any(state.has_monopoly(j, g) for g in state.board.street_groups):
            return 0
        return min(max(0, state.players[j].cash - self.reserve.get(j, 0)), SET_CASH_CAP)

    def features_of(self, state: GameState, j: int) -> np.ndarray:
        """``x_j`` in ``state`` (the context's state or one after a trade from it)."""
        x = self.cash_features(j, state.players[j].cash)
        x[SET_CASH] = self.set_cash(state, j) / self.worth
        for g in self.table[j]:
            k = sum(1 for sq in state.board.groups[g] if state.owner[sq] == j)
            x += self.group_features(j, g, k)
            st = near_status(state, j, g, self.proposer)
            if st is not None:
                x += self.near_features(j, g, st)
        return x


def context(
    state: GameState, proposer: int, values: LinearValues, reserves: dict[int, int], features: tuple[str, ...] | None = None
) -> Context:
    active = state.active_players()
    worth = float(max(1, sum(state.net_worth(i) for i in active)))
    cap = {i: reserves.get(i, 0) + CASH_BUFFER for i in active}
    res = {i: reserves.get(i, 0) for i in active}
    return Context(state, proposer, values.table, worth, cap, features or standard_features(state), res)


# ---------------------------------------------------------------------------
# the prediction as integer coefficients (what CP-SAT and the enumerator share)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class FittedValues:
    """``dp_i`` in :data:`UNIT` s, as a value function of after-states.

    ``terms[i]`` (:class:`~solver.trades.values.GainTerms`): units of ``i``'s value
    when ``j`` holds ``k`` lots of ``g``, when ``j`` is one short of ``g`` with each
    :func:`near_status` (relative to ``proposer``), and per dollar of ``cash_j`` and
    of ``min(cash_j, cap_j)``. ``values(after, i) - values(before, i)`` is the integer
    prediction for the trade, the same integers as in CP-SAT. ``min_gain`` is the
    least predicted gain, in units, a counterparty must get (rule 3).
    """

    by_player: dict[int, GainTerms]
    proposer: int
    min_gain: int = 1
    proposer_min: int = 0
    unit: str = "win probability"
    scale: float = UNIT
    _index: dict[int, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    _holders: dict[tuple[int, ...], frozenset[int]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def terms(self, i: int) -> GainTerms:
        return self.by_player[i]

    def __call__(self, state: GameState, i: int) -> float:
        """``i``'s value in ``state``: the sum of :class:`~solver.trades.values.GainTerms`
        (the owners of each group read once; the same integers as summing term by term)."""
        return self.partial(state, i, None)

    def _by_group(self, i: int) -> dict[str, tuple[list[tuple[int, tuple[int, ...]]], list[tuple[int, tuple[int, int, int]]]]]:
        """``i``'s group and near terms indexed by group: ``{g: ([(j, coef)], [(j, near coef)])}`` (built once)."""
        got = self._index.get(i)
        if got is None:
            t = self.by_player[i]
            got = {}
            for (j, g), coef in t.group.items():
                got.setdefault(g, ([], []))[0].append((j, coef))
            for (j, g), ncoef in t.near.items():
                got.setdefault(g, ([], []))[1].append((j, ncoef))
            self._index[i] = got
        return got

    def _set_holders(self, state: GameState) -> frozenset[int]:
        """The players holding a complete colour group in ``state`` (by its owners: kept for
        the last 4,096 owner vectors, as the funnel reads the same before-state hundreds of times)."""
        key = tuple(state.owner)
        got = self._holders.get(key)
        if got is None:
            owner, board_groups, sizes = state.owner, state.board.groups, state.rules.set_size
            found: set[int] = set()
            for g in state.board.street_groups:
                os_ = [owner[sq] for sq in board_groups[g]]
                need = sizes.get(g, len(os_))
                found.update(j for j in set(os_) if j != BANK and os_.count(j) >= need)
            if len(self._holders) >= 4096:
                self._holders.clear()
            got = self._holders[key] = frozenset(found)
        return got

    def partial(self, state: GameState, i: int, groups: Iterable[str] | None) -> int:
        """``i``'s value in ``state`` counting the group and near terms of ``groups`` only
        (``None``: every group) and every cash term.

        A trade changes the owners of the groups whose lots it moves and nothing
        else, so ``partial(after, i, G) - partial(before, i, G)`` over those groups
        ``G`` is exactly ``self(after, i) - self(before, i)`` (integers), with a
        fraction of the work: what the pruning funnel evaluates for each of its
        hundreds of candidates.
        """
        t = self.by_player[i]
        index = self._by_group(i)
        owner, board_groups, street = state.owner, state.board.groups, state.board.street_groups
        sizes = state.rules.set_size
        proposer = self.proposer
        total = 0
        for g in index if groups is None else groups:
            terms = index.get(g)
            if terms is None:
                continue
            os_ = [owner[sq] for sq in board_groups[g]]
            for j, coef in terms[0]:
                total += coef[os_.count(j)]
            if g not in street:
                continue
            need = sizes.get(g, len(os_))
            for j, ncoef in terms[1]:
                # near_status, on the owners read once
                if need < 2 or os_.count(j) != need - 1:
                    continue
                others = [o for o in os_ if o != j]
                if any(o != proposer and o != BANK for o in others):
                    total += ncoef[1]
                else:
                    total += ncoef[2] if BANK in others else ncoef[0]
        players = state.players
        for j, c in t.cash.items():
            total += c * players[j].cash
        for j, c in t.kink.items():
            total += c * min(players[j].cash, t.cap[j])
        if t.set_cash:
            setters = self._set_holders(state)
            for j, c in t.set_cash.items():
                if j in setters:
                    total += c * min(max(0, players[j].cash - t.reserve[j]), SET_CASH_CAP)
        return total


def block_of(proposer: int, i: int, j: int) -> str:
    """The weight block for the effect of ``dx_j`` on ``i``'s win probability."""
    return ("proposer_" if i == proposer else "counterparty_") + ("own" if i == j else "rival")


def fitted_values(
    ctx: Context, model: TradeValueModel, proposer: int, players: tuple[int, ...], min_gain: float = 0.0, own_min: float = 0.0
) -> FittedValues:
    """The integer coefficients of ``model`` at ``ctx`` for the trades of ``proposer`` among
    ``players``; ``min_gain`` (a counterparty's least gain, at least one unit: a strict
    gain) and ``own_min`` (the proposer's) in win probability."""
    s = ctx.state
    out: dict[int, GainTerms] = {}
    for i in players:
        group: dict[tuple[int, str], tuple[int, ...]] = {}
        near: dict[tuple[int, str], tuple[int, int, int]] = {}
        cash: dict[int, int] = {}
        kink: dict[int, int] = {}
        set_cash: dict[int, int] = {}
        for j in players:
            w = np.asarray(model.weights[block_of(proposer, i, j)]) / UNIT
            for g in ctx.table[j]:
                n = len(s.board.groups[g])
                group[(j, g)] = tuple(round(float(w @ ctx.group_features(j, g, k))) for k in range(n + 1))
                if g in s.board.street_groups and s.set_size(g) >= 2:
                    blocked, open_, bank = (round(float(w @ ctx.near_features(j, g, st))) for st in range(3))
                    near[(j, g)] = (blocked, open_, bank)
            # the cash features are linear in cash_j (slope 1 / W) and in min(cash_j, cap_j)
            if c := round(float(w[CASH]) / ctx.worth):
                cash[j] = c
            if c := round(float(w[KINK]) / ctx.worth):
                kink[j] = c
            if c := round(float(w[SET_CASH]) / ctx.worth):
                set_cash[j] = c
        out[i] = GainTerms(group, cash, kink, {j: ctx.cap[j] for j in kink}, near, set_cash, {j: ctx.reserve[j] for j in set_cash})
    return FittedValues(out, proposer, max(1, round(min_gain / UNIT)), max(0, round(own_min / UNIT)))


TradeValues = LinearValues | FittedValues
"""A value the CP-SAT model can write: per-player :class:`~solver.trades.values.GainTerms`."""


def trade_values(space: TradeSpace, chain: PositionChain | None = None, model: TradeValueModel | None = None) -> TradeValues:
    """The value the generator uses under ``space.settings.value``: ``"fitted"`` (this
    module's prediction; counterparties must gain at least ``min_win_gain``, the
    proposer ``min_own_win_gain``) or
    ``"linear"`` (the horizon-rent estimate in dollars, at least ``min_gain``).

    Parameters
    ----------
    space:
        The trade space.
    chain:
        The long-run position chain (default: built from the state).
    model:
        The fitted weights (default: :func:`default_trade_model`).

    Returns
    -------
    TradeValues

    Raises
    ------
    UnknownNameError
        When ``space.settings.value`` is neither ``"fitted"`` nor ``"linear"``.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.space import TradeSpace
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> v = trade_values(TradeSpace(s, 0))
    >>> type(v).__name__, v.unit, v.min_gain, v.proposer_min  # 0.04 in millionths
    ('FittedValues', 'win probability', 40000, 40000)
    """
    lin = linear_values(space, chain)
    kind = space.settings.value
    if kind == "linear":
        return lin
    if kind != "fitted":
        raise UnknownNameError(f"unknown trade value {kind!r} (expected 'fitted' or 'linear')")
    model = model or default_trade_model()
    ctx = context(space.state, space.proposer, lin, space.reserves, model.features)
    st = space.settings
    return fitted_values(ctx, model, space.proposer, space.participants, st.min_win_gain, st.min_own_win_gain)


def predict(ctx: Context, model: TradeValueModel, after: GameState, players: tuple[int, ...]) -> dict[int, float]:
    """The real-valued prediction ``dp_i`` (no rounding) for each of ``players``, the
    rival sum over every active player whose features change."""
    dx = {j: ctx.features_of(after, j) - ctx.features_of(ctx.state, j) for j in ctx.state.active_players()}
    p = ctx.proposer
    return {i: float(sum(np.asarray(model.weights[block_of(p, i, j)]) @ d for j, d in dx.items())) for i in players}


# ---------------------------------------------------------------------------
# fitting (bench/fit_trade_model.py)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Sample:
    """One simulated trade: its proposer and participants, the feature change ``dx[j]`` of
    every active player (ordered as the model's features; a bystander's one-short status
    can change), each participant's simulated change ``sim[i]`` and its SE."""

    proposer: int
    players: tuple[int, ...]
    dx: dict[int, np.ndarray]
    sim: dict[int, float]
    se: dict[int, float]


def design(samples: list[Sample], tau: float = 0.01) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(X, y, w, is_proposer)``, one line per (sample, participant ``i``): ``X`` holds the four
    blocks of :data:`BLOCKS` side by side, ``dx_i`` in the own block of ``i``'s role and
    ``sum_{j != i} dx_j`` in its rival block (the other two zero); ``w = 1 / (se^2 + tau^2)``."""
    xs, ys, ws, roles = [], [], [], []
    for smp in samples:
        k = len(next(iter(smp.dx.values())))
        for i in smp.players:
            x = np.zeros(len(BLOCKS) * k)
            for j, d in smp.dx.items():
                blk = BLOCKS.index(block_of(smp.proposer, i, j))
                x[blk * k : (blk + 1) * k] += d
            xs.append(x)
            ys.append(smp.sim[i])
            ws.append(1.0 / (smp.se[i] ** 2 + tau**2))
            roles.append(i == smp.proposer)
    return np.asarray(xs, float), np.asarray(ys, float), np.asarray(ws, float), np.asarray(roles, bool)


def fit_weights(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> dict[str, tuple[float, ...]]:
    """Weighted least squares on :func:`design`'s matrix, own weights >= 0 and rival weights
    <= 0 (scipy ``lsq_linear``, bounded-variable least squares: exact, a convex problem)."""
    from scipy.optimize import lsq_linear

    k = X.shape[1] // len(BLOCKS)
    lo = np.concatenate([np.zeros(k) if b.endswith("own") else np.full(k, -np.inf) for b in BLOCKS])
    hi = np.concatenate([np.full(k, np.inf) if b.endswith("own") else np.zeros(k) for b in BLOCKS])
    sw = np.sqrt(w / w.mean())
    res = lsq_linear(X * sw[:, None], y * sw, bounds=(lo, hi), method="bvls")
    return {b: tuple(float(c) for c in res.x[n * k : (n + 1) * k]) for n, b in enumerate(BLOCKS)}


def predict_rows(X: np.ndarray, weights: dict[str, tuple[float, ...]]) -> np.ndarray:
    """The prediction for :func:`design`'s rows."""
    return X @ np.concatenate([np.asarray(weights[b]) for b in BLOCKS])


__all__ = [
    "BASE_FEATURES",
    "BLOCKS",
    "CASH_BUFFER",
    "SET_CASH_CAP",
    "UNIT",
    "Context",
    "FittedValues",
    "Sample",
    "TradeValueModel",
    "TradeValueModelError",
    "TradeValues",
    "block_of",
    "context",
    "default_trade_model",
    "design",
    "fit_weights",
    "fitted_values",
    "load_model",
    "near_status",
    "predict",
    "predict_rows",
    "standard_features",
    "trade_values",
]
