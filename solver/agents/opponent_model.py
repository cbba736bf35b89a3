"""Opponent models learned in play: each opponent's acceptance as a Bayesian logistic regression.

For an offer to opponent ``q`` the features are (:func:`offer_features`)::

    x = (1, gain_q, cash_q, gets_q, gives_q, gives_q (1 - gets_q))

``gain_q`` its change in win probability by our simulation, ``cash_q`` its cash
after the trade in thousands of dollars, ``gets_q`` whether the trade completes
a colour group for it, ``gives_q`` whether it completes one for another player;
the last feature, a completion handed over without one in return, is the rule
many bots (and this project's baseline) apply, and a linear model cannot form it
from the two before.
The model is ``P(accept | x) = sigma(w . x)`` with a Gaussian prior ``w ~ N(m0,
S0)``. The prior mean is the rule the solver assumed before any evidence (the
logistic in the opponent's own gain, slope 40, of :mod:`solver.trades.rescore`:
a +5-point gain is accepted 88% of the time) and the other weights 0; the prior
standard deviations (intercept 2, gain 30, cash 2, completion features 4) let a
few answers move each weight by about its own size.

After each answer the posterior is refitted by the Laplace approximation
(Bishop, *Pattern Recognition and Machine Learning*, 2006, sec. 4.4-4.5): the
MAP weights by Newton's method on the log posterior, the covariance ``S`` the
inverse Hessian there. Predictions integrate over the posterior with the probit
approximation (MacKay 1992; Bishop eq. 4.155)::

    P(accept | x) ~ sigma( mu / sqrt(1 + pi s2 / 8) ),   mu = w_MAP . x,  s2 = x' S x

so an opponent seen a few times keeps predictions near 1/2 where its answers
have not been tested. All answers are kept (a few per game), so the fit is
exact, not a running update; the history is capped at ``max_history`` answers
(the oldest dropped), which bounds the cost per answer.

What offers from an opponent mean: :meth:`AcceptanceModel.offer_signal` reads
an offer it makes as evidence that it gains by its own measure; the agent only
logs it (the acceptance rule of the agent itself stays its simulation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from models.errors import InvalidArgumentError
from models.state import GameState
from models.trade import Trade

FEATURES = ("intercept", "gain", "cash_k", "gets_set", "gives_set", "gives_only")
PRIOR_MEAN = np.array([0.0, 40.0, 0.0, 0.0, 0.0, 0.0])
PRIOR_SD = np.array([2.0, 30.0, 2.0, 4.0, 4.0, 4.0])


def _sigmoid(z: np.ndarray | float) -> np.ndarray:
    """The logistic function, elementwise, as ``(1 + tanh(z / 2)) / 2`` (no overflow)."""
    out: np.ndarray = 0.5 * (1.0 + np.tanh(0.5 * np.asarray(z)))
    return out


def offer_features(before: GameState, after: GameState, q: int, gain: float) -> np.ndarray:
    """The feature vector of an offer to ``q`` (module docstring), from the states before and
    after the trade and ``q``'s simulated win delta ``gain``."""
    gets = bool(before.newly_complete(after, q))
    gives = any(before.newly_complete(after, o) for o in range(len(before.players)) if o != q)
    return np.array([1.0, float(gain), after.players[q].cash / 1000.0, float(gets), float(gives), float(gives and not gets)])


@dataclass
class AcceptanceModel:
    """One opponent's acceptance (module docstring)."""

    prior_mean: np.ndarray = field(default_factory=lambda: PRIOR_MEAN.copy())
    prior_sd: np.ndarray = field(default_factory=lambda: PRIOR_SD.copy())
    max_history: int = 200
    xs: list[np.ndarray] = field(default_factory=list)
    ys: list[int] = field(default_factory=list)
    offers_seen: int = 0

    def __post_init__(self) -> None:
        self.mean = self.prior_mean.copy()
        self.cov = np.diag(self.prior_sd**2)

    def observe(self, x: np.ndarray, accepted: bool) -> None:
        """Record one answer and refit the posterior."""
        x = np.asarray(x, dtype=float)
        if x.shape != self.prior_mean.shape or not np.all(np.isfinite(x)):
            raise InvalidArgumentError(f"features must be {len(self.prior_mean)} finite numbers")
        self.xs.append(x)
        self.ys.append(1 if accepted else 0)
        if len(self.xs) > self.max_history:
            del self.xs[0], self.ys[0]
        self._fit()

    def _fit(self) -> None:
        X = np.array(self.xs)
        y = np.array(self.ys, dtype=float)
        prec0 = 1.0 / self.prior_sd**2
        w = self.prior_mean.copy()

        def log_post(v: np.ndarray) -> float:
            z = X @ v
            return float(np.sum(y * z - np.logaddexp(0.0, z)) - 0.5 * np.sum(prec0 * (v - self.prior_mean) ** 2))

        current = log_post(w)
        for _ in range(100):  # Newton with step halving on the (concave) log posterior
            p = _sigmoid(X @ w)
            grad = X.T @ (y - p) - prec0 * (w - self.prior_mean)
            hess = (X * (p * (1 - p))[:, None]).T @ X + np.diag(prec0)
            step = np.linalg.solve(hess, grad)
            t = 1.0
            while t > 1e-6:
                trial = log_post(w + t * step)
                if trial >= current - 1e-12:
                    break
                t *= 0.5
            w, current = w + t * step, trial
            if float(np.max(np.abs(t * step))) < 1e-8:
                break
        p = _sigmoid(X @ w)
        hess = (X * (p * (1 - p))[:, None]).T @ X + np.diag(prec0)
        self.mean = w
        self.cov = np.linalg.inv(hess)

    def p_accept(self, x: np.ndarray) -> float:
        """Predictive probability of acceptance (probit approximation, module docstring)."""
        x = np.asarray(x, dtype=float)
        mu = float(self.mean @ x)
        s2 = float(x @ self.cov @ x)
        return float(_sigmoid(mu / math.sqrt(1.0 + math.pi * s2 / 8.0)))

    @property
    def answers(self) -> int:
        return len(self.ys)

    def offer_signal(self) -> None:
        """Count an offer made by this opponent (see the module docstring)."""
        self.offers_seen += 1


class OpponentModels:
    """An :class:`AcceptanceModel` per opponent seat, with the offers waiting for an answer."""

    def __init__(self) -> None:
        self.models: dict[int, AcceptanceModel] = {}
        self.pending: dict[tuple[object, ...], list[tuple[int, np.ndarray]]] = {}

    def model(self, q: int) -> AcceptanceModel:
        if q not in self.models:
            self.models[q] = AcceptanceModel()
        return self.models[q]

    def deaf(self, q: int, after: int) -> bool:
        """Whether ``q`` answered at least ``after`` (> 0) of the offers kept in its history
        (the last ``max_history``) and accepted none of them.

        Such an opponent is one that refuses whatever it is offered (a bot that never trades, or
        a host that forbids trading): the logistic model, whose prior expects an opponent to take
        a gain, keeps predicting some acceptance of a generous offer long after the evidence
        says otherwise, so the agent would go on searching and pricing offers that are refused
        (about 30 ms each, 700 in a 1,000-round game). ``after`` is set above what trading
        opponents show: in 20 games each against three ``strategic`` and three ``value``
        (seed 0, session 18), the most refusals an opponent gave before its first acceptance
        were 23 and 8.

        Examples
        --------
        >>> m = OpponentModels()
        >>> x = np.array([1.0, 0.05, 1.0, 0.0, 0.0, 0.0])
        >>> for _ in range(3):
        ...     m.model(1).observe(x, False)
        >>> m.deaf(1, 3), m.deaf(1, 4), m.deaf(2, 3)
        (True, False, False)
        >>> m.model(1).observe(x, True)
        >>> m.deaf(1, 3)
        False
        """
        model = self.models.get(q)
        return after > 0 and model is not None and model.answers >= after and not any(model.ys)

    def p_accept(self, before: GameState, after: GameState, trade: Trade, proposer: int, gains: dict[str, float]) -> float:
        """Probability that every counterparty accepts (independently: the product)."""
        p = 1.0
        for name in trade.participants():
            q = before.player_index(name)
            if q != proposer:
                p *= self.model(q).p_accept(offer_features(before, after, q, gains[name]))
        return p

    def offered(self, key: tuple[object, ...], before: GameState, after: GameState, trade: Trade, proposer: int, gains: dict[str, float]) -> None:
        """Remember the features of an offer just made, until its answer arrives."""
        rows = []
        for name in trade.participants():
            q = before.player_index(name)
            if q != proposer:
                rows.append((q, offer_features(before, after, q, gains[name])))
        self.pending[key] = rows

    def answered(self, key: tuple[object, ...], accepted: bool, refusers: set[int] | None = None) -> None:
        """The answer to a pending offer: with several counterparties, an acceptance means each
        accepted; a refusal is charged to ``refusers`` when known, else to every counterparty."""
        rows = self.pending.pop(key, None)
        if rows is None:
            return
        for q, x in rows:
            if accepted:
                self.model(q).observe(x, True)
            elif refusers is None or q in refusers:
                self.model(q).observe(x, False)


TRADE_CHANCES = 6
"""Rounds with a chance to propose (:func:`has_trade_chance`) after which an opponent that has
proposed nothing is modelled as not trading (:class:`TradeHabits`)."""


def _one_short(state: GameState, q: int, g: str) -> bool:
    """The rollout policy's "one short": ``q`` owns ``set_size - 1`` lots of street group ``g``
    (at least one) and nobody has built there."""
    need = state.set_size(g)
    return need >= 2 and state.count_in_group(q, g) == need - 1 and not state.group_has_buildings(g)


def _for_sale(state: GameState, r: int, g: str) -> list[int]:
    """``r``'s unmortgaged lots of ``g``, when ``r`` is active and does not hold ``g`` completely."""
    if state.players[r].bankrupt or state.has_monopoly(r, g):
        return []
    return [sq for sq in state.board.groups[g] if state.owner[sq] == r and not state.mortgaged[sq]]


def has_trade_chance(state: GameState, q: int) -> bool:
    """Whether ``q`` now has a reason to propose a trade: it is one lot short of a street group
    (the rollout policy's "one short", :mod:`engine.sim.rollout_policy`, "Trades") and another
    active seat holds a missing lot for sale (unmortgaged, the group not complete in its
    hands). The rollout policy proposes then, a swap or a purchase; a player that never does
    in such positions does not trade the way the rollouts assume."""
    if state.players[q].bankrupt:
        return False
    for g in state.board.street_groups:
        if _one_short(state, q, g) and any(r != q and _for_sale(state, r, g) for r in range(len(state.players))):
            return True
    return False


@dataclass
class TradeHabits:
    """Which opponents trade, for the rollouts' model of them.

    The trading rollout policy (:mod:`engine.sim.rollout_policy`) lets every seat propose and
    accept set-completing trades. Some opponents never propose one (seed 002's agent never
    does), and rollouts in which they trade mis-value every position. An opponent counts as
    trading until it has had :data:`TRADE_CHANCES` rounds with a chance to propose
    (:func:`has_trade_chance`, counted once a round when the agent looks) without proposing
    anything; any proposal it makes, to anyone, makes it trading again for the rest of the game.
    The prior is that every seat trades, kept until the evidence against it is several rounds
    long. A baseline that proposes only the swaps its own valuation likes can be switched off
    too (some ``strategic`` seats are, in games where they never propose), which is what its
    play showed.
    """

    chances: dict[int, int] = field(default_factory=dict)
    proposals: dict[int, int] = field(default_factory=dict)
    _seen_round: dict[int, int] = field(default_factory=dict)

    def look(self, state: GameState, me: int, round_: int) -> None:
        """Count, once per round, the opponents that have a chance to propose now."""
        for q in range(len(state.players)):
            if q == me or self._seen_round.get(q) == round_:
                continue
            if has_trade_chance(state, q):
                self._seen_round[q] = round_
                self.chances[q] = self.chances.get(q, 0) + 1

    def proposed(self, q: int) -> None:
        self.proposals[q] = self.proposals.get(q, 0) + 1

    def trades(self, q: int) -> bool:
        """Whether ``q`` is modelled as trading (class docstring)."""
        return self.proposals.get(q, 0) > 0 or self.chances.get(q, 0) < TRADE_CHANCES


__all__ = ["FEATURES", "TRADE_CHANCES", "AcceptanceModel", "OpponentModels", "TradeHabits", "has_trade_chance", "offer_features"]
