"""Monte Carlo re-scoring of trade candidates (seed 000, Phases 2c and 2d).

For each candidate the post-trade state is simulated by the batch kernel
(:func:`engine.sim.rollout.simulate`) on the same dice and cards as the state
without the trade (common random numbers), and every player's win
probability is compared game by game (:func:`engine.sim.rollout.paired_delta`).

``win_delta``, ``win_delta_se``
    per player, the mean paired change in win probability and its standard
    error.
``nash_zone``
    every participant gains beyond the noise: its ``win_delta`` exceeds
    ``z`` standard errors (one-sided z-test, ``z = 1.645``: 5%); a
    participant whose paired differences are all zero (SE 0) must gain
    strictly.
``leader_win_prob``, ``balanced``
    the highest post-trade win probability of any player; balanced when it
    stays below ``balance`` (0.55).
``self_balancing`` (computed on request, for the few best trades)
    some player outside the trade has a counter-move: a trade of its own
    from the trade generator, in the post-trade state, after which the
    leader's win probability is back at or below the larger of ``balance``
    and the leader's win probability before the trade.
``acceptance``
    the probability that the counterparties accept: for a counterparty known
    to be a :class:`solver.agents.strategic.StrategicTradeAgent`, its own rule
    (1 or 0); otherwise a logistic in its win delta, ``1 / (1 + exp(-k
    delta))`` with ``k = 40`` (a +5-point gain is accepted 88% of the time);
    several counterparties accept independently (the product).
``risk_adjusted_ev``
    the proposer's ``win_delta`` x ``acceptance``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.rules.view import GameView
from engine.sim.rollout import RolloutResult, paired_delta, simulate
from engine.sim.rollout_policy import PolicyLike, RolloutPolicy, seat_policies
from models.errors import InvalidTradeError
from models.state import GameState
from models.trade import Trade
from solver.agents.strategic import StrategicTradeAgent
from solver.trades.space import Candidate


@dataclass(frozen=True)
class RescoreSettings:
    """How candidates are simulated and judged.

    Parameters
    ----------
    rollouts, horizon, seed:
        Games per simulation, rounds per game, and the seed of the dice and
        cards (the same for every candidate: common random numbers).
    z:
        The one-sided z of "beyond the noise" (1.645: 5%).
    balance:
        A trade is balanced when no player's win probability after it reaches this.
    acceptance_slope:
        ``k`` of the logistic acceptance (module docstring).
    policy:
        The rollout policy, one for every seat or one per seat
        (:data:`engine.sim.rollout_policy.PolicyLike`).
    scoring:
        How a rollout cut at the horizon is scored (:func:`engine.sim.rollout.simulate`).
    threads:
        Threads per simulation (the result is the same for any number).

    Examples
    --------
    >>> st = RescoreSettings(rollouts=8).holding(0, 4)
    >>> [p.trade for p in st.policy]
    [False, True, True, True]
    """

    rollouts: int = 800
    horizon: int = 30
    seed: int = 0
    z: float = 1.645
    balance: float = 0.55
    acceptance_slope: float = 40.0
    policy: PolicyLike = field(default_factory=RolloutPolicy)
    scoring: str | None = None
    threads: int = 1

    def not_now(self, seat: int, n_players: int, to_move: int, declines: bool = False) -> RescoreSettings:
        """The same settings with ``seat`` taking no action of its own until its next turn
        begins (its policy gets ``wait_turns`` 2 when it is the seat to move, else 1), then
        playing on; the other seats keep their policies. This is how
        :func:`solver.decide.decide` and the agent judge an action (the counterfactual
        "not now", docs/evaluation.md).

        Why: every seat plays the trading rollout policy (realistic play, so that cash and
        lots are worth in the rollouts what they are worth in games played to the end), and
        the action under evaluation (a trade, a build) is applied to the state before the
        rollouts start. Without the wait, the baseline "no action" would be "the policy's
        own action at once": the rollout policy builds wherever it can at its first act phase,
        so a build would be compared with the same build (a paired difference of exactly 0).
        Every active player has an act phase at the start of every turn, so waiting only for
        the rest of the round would be no wait for the last seat. With the wait, the
        comparison is "do it now, then play on" against "do not do it now, then play on": the
        seat waits in both branches until its next turn (the action, when taken, is already
        in the state), and from then on plays the policy, which may then make the same trade
        or build. Another seat's policy may still propose the same trade in between, and the
        waiting seat accepts what its policy accepts: the trade then happens anyway, unless
        ``declines`` (the waiting seat also refuses every offer while it waits,
        ``RolloutPolicy.wait_declines``).

        Parameters
        ----------
        seat : int
            The seat under evaluation.
        n_players : int
            The number of seats.
        to_move : int
            The seat to move in the state (``GameState.to_move``).
        declines : bool, default False
            The waiting seat also refuses every trade offered to it while it waits.

        Returns
        -------
        RescoreSettings
            One policy per seat, ``seat``'s with ``wait_turns`` set.

        Examples
        --------
        >>> st = RescoreSettings(rollouts=8).not_now(1, 3, to_move=1)
        >>> [(p.trade, p.wait_turns) for p in st.policy]
        [(True, 0), (True, 2), (True, 0)]
        >>> RescoreSettings().not_now(2, 3, to_move=1).policy[2].wait_turns
        1
        """
        seats = list(seat_policies(self.policy, n_players))
        seats[seat] = dataclasses.replace(seats[seat], wait_turns=2 if seat == to_move else 1, wait_declines=declines)
        return dataclasses.replace(self, policy=tuple(seats))

    def holding(self, seat: int, n_players: int) -> RescoreSettings:
        """The same settings with ``seat`` holding in the rollouts: it proposes and
        accepts no trade there (its policy gets ``trade=False``); the other seats keep
        theirs. The evaluation before :meth:`not_now` (kept for comparison: the agent's
        ``hold=True``); it values cash at about half of its worth in games played to the
        end (docs/evaluation.md).

        Why it was used: the rollout policy itself makes the set-completing trades that the
        candidates are made of, so if the seat under evaluation traded in the
        rollouts, "no trade now" would be simulated as "the same trade a turn
        later" and every trade's change would shrink toward 0. With the seat
        holding, the baseline is "this seat does not trade" and the change is
        the trade's own worth (as the decision to build is judged against a
        seat that does not build, see :mod:`solver.decide`).

        Parameters
        ----------
        seat : int
            The seat under evaluation.
        n_players : int
            The number of seats.

        Returns
        -------
        RescoreSettings
            One policy per seat, ``seat``'s with ``trade=False``.
        """
        seats = list(seat_policies(self.policy, n_players))
        seats[seat] = dataclasses.replace(seats[seat], trade=False)
        return dataclasses.replace(self, policy=tuple(seats))


@dataclass
class Rescored:
    """One candidate's re-scoring (the module docstring defines each figure); win
    probabilities and their changes are per player name.

    Parameters
    ----------
    candidate, trade:
        The candidate and the same trade by names.
    win_before, win_after:
        Each player's win probability without and with the trade.
    win_delta, win_delta_se:
        The paired change and its standard error.
    nash_zone:
        Every participant gains beyond the noise.
    leader, leader_win_prob:
        The player most likely to win after the trade, and that probability.
    balanced:
        ``leader_win_prob`` below the settings' ``balance``.
    acceptance:
        The probability that every counterparty accepts.
    risk_adjusted_ev:
        The proposer's ``win_delta`` x ``acceptance``.
    self_balancing:
        Whether some bystander has a counter-trade (:func:`self_balancing`; ``None``: not asked).
    after:
        The simulation after the trade (not in :meth:`to_dict`).
    qualified_by:
        The rule it qualified by, set by :func:`solver.decide.decide`
        (:func:`solver.trades.selection.qualified_by`); ``None``: it did not, or was not judged.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.cpsat import generate_trades
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> st = RescoreSettings(rollouts=8, horizon=10)  # a few rollouts: noise, for the example
    >>> r = rescore_one(s, generate_trades(s, 2).trades[0].candidate, baseline(s, st), st)
    >>> r.trade.participants(), r.leader, sorted(r.to_dict())[:4]
    (['Cy', 'Dee'], 'Cy', ['acceptance', 'balanced', 'kind', 'leader'])
    """

    candidate: Candidate
    trade: Trade
    win_before: dict[str, float]
    win_after: dict[str, float]
    win_delta: dict[str, float]
    win_delta_se: dict[str, float]
    nash_zone: bool
    leader: str
    leader_win_prob: float
    balanced: bool
    acceptance: float
    risk_adjusted_ev: float
    self_balancing: bool | None = None
    after: RolloutResult | None = field(default=None, repr=False)
    qualified_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``solve``'s trade entries): the figures, the transfers without jail cards.

        Returns
        -------
        dict
            ``kind``, ``transfers``, ``win_delta``, ``win_delta_se``, ``nash_zone``, ``leader``,
            ``leader_win_prob``, ``balanced``, ``self_balancing``, ``acceptance``,
            ``risk_adjusted_ev``, ``qualified_by``.
        """
        return {
            "kind": self.candidate.kind,
            "transfers": [
                {"from": t.frm, "to": t.to, "properties": list(t.properties), "cash": t.cash} for t in self.trade.transfers
            ],
            "win_delta": dict(self.win_delta),
            "win_delta_se": dict(self.win_delta_se),
            "nash_zone": self.nash_zone,
            "leader": self.leader,
            "leader_win_prob": self.leader_win_prob,
            "balanced": self.balanced,
            "self_balancing": self.self_balancing,
            "acceptance": self.acceptance,
            "risk_adjusted_ev": self.risk_adjusted_ev,
            "qualified_by": self.qualified_by,
        }


def baseline(state: GameState, settings: RescoreSettings) -> RolloutResult:
    """The simulation of ``state`` without any trade, on the settings' dice (what every candidate is paired with).

    Parameters
    ----------
    state : GameState
        The position.
    settings : RescoreSettings
        The rollouts, horizon, seed, policy, scoring and threads.

    Returns
    -------
    RolloutResult
        :func:`engine.sim.rollout.simulate` of ``state``.

    Examples
    --------
    >>> from models.io import load_state
    >>> base = baseline(load_state("instances/midgame-no-monopolies.json"), RescoreSettings(rollouts=8, horizon=10))
    >>> base.n_games, base.horizon
    (8, 10)
    """
    return simulate(state, settings.rollouts, settings.horizon, settings.seed, policy=settings.policy, scoring=settings.scoring, threads=settings.threads)


def trade_after(state: GameState, trade: Trade) -> GameState:
    """The state after ``trade``, validated (a copy: :meth:`models.trade.Trade.apply` on it;
    mortgaged lots received: interest only, no mortgage lifted).

    Parameters
    ----------
    state : GameState
        The position (not changed).
    trade : Trade
        The trade.

    Returns
    -------
    GameState
        A copy with the trade applied.

    Raises
    ------
    InvalidTradeError
        When the trade cannot happen in ``state``.

    Examples
    --------
    >>> from models.io import load_state
    >>> from models.trade import Trade, Transfer
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> swap = Trade((Transfer("Cy", "Dee", ("Atlantic Avenue",)), Transfer("Dee", "Cy", ("Virginia Avenue",))))
    >>> after = trade_after(s, swap)
    >>> after.owner[26], after.owner[14], s.owner[26]  # Atlantic to Dee, Virginia to Cy
    (3, 2, 2)
    >>> trade_after(s, Trade((Transfer("Cy", "Dee", ("Boardwalk",)),)))
    Traceback (most recent call last):
    ...
    models.errors.InvalidTradeError: transfers[0].properties: Cy does not own Boardwalk
    """
    after = state.copy()
    trade.apply(after)
    return after


def beyond_noise(d: float, se: float, z: float) -> bool:
    """``d > z se`` (one-sided z-test); with ``se == 0`` (every paired difference equal), ``d > 0``.

    Parameters
    ----------
    d : float
        A mean difference.
    se : float
        Its standard error.
    z : float
        The one-sided z.

    Returns
    -------
    bool
        Whether ``d`` is positive beyond the noise.

    Examples
    --------
    >>> beyond_noise(0.05, 0.02, 1.645), beyond_noise(0.03, 0.02, 1.645), beyond_noise(0.01, 0.0, 1.645)
    (True, False, True)
    """
    return d > z * se if se > 0 else d > 0


def acceptance(
    state: GameState,
    trade: Trade,
    proposer: int,
    win_delta: dict[str, float],
    settings: RescoreSettings,
    strategic: Sequence[int] = (),
) -> float:
    """Probability that every counterparty accepts (module docstring).

    Parameters
    ----------
    state, trade:
        The position and the trade.
    proposer:
        The proposer's player index (it accepts its own trade).
    win_delta:
        Each player's simulated change in win probability, by name.
    settings:
        ``acceptance_slope`` of the logistic.
    strategic:
        Player indices known to be :class:`~solver.agents.strategic.StrategicTradeAgent`: their own rule decides.

    Returns
    -------
    float
        The product over counterparties of ``1 / (1 + exp(-k d))``, or 0/1 by the strategic rule.

    Examples
    --------
    Dee gaining 0.05: ``1 / (1 + e^-2)`` = 0.8808 at the default slope 40 (by hand); losing
    0.05: its complement.

    >>> from models.io import load_state
    >>> from models.trade import Trade, Transfer
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> swap = Trade((Transfer("Cy", "Dee", ("Atlantic Avenue",)), Transfer("Dee", "Cy", ("Virginia Avenue",))))
    >>> st = RescoreSettings()
    >>> round(acceptance(s, swap, 2, {"Cy": 0.1, "Dee": 0.05}, st), 4), round(acceptance(s, swap, 2, {"Cy": 0.1, "Dee": -0.05}, st), 4)
    (0.8808, 0.1192)
    """
    p = 1.0
    for name in trade.participants():
        q = state.player_index(name)
        if q == proposer:
            continue
        if q in strategic:
            agent = StrategicTradeAgent(0)
            agent.start_game(q, tuple(pl.name for pl in state.players))
            p *= 1.0 if agent.accept_trade(GameView(state, q), trade) else 0.0
        else:
            p *= 1.0 / (1.0 + math.exp(-settings.acceptance_slope * win_delta[name]))
    return p


def rescore_one(
    state: GameState,
    cand: Candidate,
    base: RolloutResult,
    settings: RescoreSettings,
    strategic: Sequence[int] = (),
    trade: Trade | None = None,
) -> Rescored | None:
    """Re-score one candidate on the dice of ``base`` (module docstring).

    Parameters
    ----------
    state:
        The position.
    cand:
        The candidate; its first player is the proposer.
    base:
        The simulation without the trade (:func:`baseline` on the same settings).
    settings:
        The simulation and the judging.
    strategic:
        As for :func:`acceptance`.
    trade:
        The trade by names (default: ``cand.to_trade(state)``; a priced variant may be passed).

    Returns
    -------
    Rescored or None
        ``None`` when the trade is not valid in the engine (:class:`~models.errors.InvalidTradeError`).

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.cpsat import generate_trades
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> cand = generate_trades(s, 0).trades[0].candidate
    >>> st = RescoreSettings(rollouts=8, horizon=10)  # a few rollouts: noise, for the example
    >>> r = rescore_one(s, cand, baseline(s, st), st)
    >>> {n: round(d, 4) for n, d in r.win_delta.items()}
    {'Ann': -0.1437, 'Bob': 0.2156, 'Cy': -0.083, 'Dee': 0.0111}
    >>> r.nash_zone, r.leader, round(r.risk_adjusted_ev, 4)
    (False, 'Cy', -0.1437)
    """
    trade = trade or cand.to_trade(state)
    try:
        sc = score_trade(state, trade, cand.players[0], base, settings, strategic, participants=[state.players[i].name for i in cand.players])
    except InvalidTradeError:
        return None
    return Rescored(
        cand,
        trade,
        sc.win_before,
        sc.win_after,
        sc.win_delta,
        sc.win_delta_se,
        sc.nash_zone,
        sc.leader,
        sc.leader_win_prob,
        sc.balanced,
        sc.acceptance,
        sc.risk_adjusted_ev,
        after=sc.after,
    )


@dataclass(frozen=True)
class TradeScore:
    """Any trade's re-scoring on the dice of a baseline (the figures of :class:`Rescored`,
    without a candidate: a given trade may be multi-way or move jail cards).

    Attributes
    ----------
    win_before, win_after, win_delta, win_delta_se, nash_zone, leader, leader_win_prob, balanced, acceptance, risk_adjusted_ev:
        As :class:`Rescored` (``nash_zone``: every participant gains beyond the noise).
    after:
        The simulation after the trade.

    Examples
    --------
    >>> from models.io import load_state
    >>> from models.trade import Trade
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> st = RescoreSettings(rollouts=8, horizon=10)
    >>> score_trade(s, Trade.bilateral("Cy", "Dee", cash_a_to_b=100), 2, baseline(s, st), st).nash_zone
    False
    """

    win_before: dict[str, float]
    win_after: dict[str, float]
    win_delta: dict[str, float]
    win_delta_se: dict[str, float]
    nash_zone: bool
    leader: str
    leader_win_prob: float
    balanced: bool
    acceptance: float
    risk_adjusted_ev: float
    after: RolloutResult = field(repr=False)


def score_trade(
    state: GameState,
    trade: Trade,
    proposer: int,
    base: RolloutResult,
    settings: RescoreSettings,
    strategic: Sequence[int] = (),
    participants: Sequence[str] | None = None,
) -> TradeScore:
    """Re-score ``trade`` on the dice of ``base``: the state after it simulated with the same
    settings and seed, every player's paired change, the Nash zone, the leader and balance check,
    the counterparties' acceptance (what :func:`rescore_one` does for a candidate).

    Parameters
    ----------
    state, trade:
        The position and the trade (validated: :func:`trade_after`).
    proposer:
        The proposer's player index.
    base:
        The simulation without the trade (:func:`baseline` on ``settings``).
    settings:
        The simulation and the judging.
    strategic:
        As for :func:`acceptance`.
    participants:
        Who must gain for the Nash zone (default: ``trade.participants()``).

    Returns
    -------
    TradeScore

    Raises
    ------
    InvalidTradeError
        The trade is not valid in the state.

    Examples
    --------
    >>> from models.io import load_state
    >>> from models.trade import Trade
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> st = RescoreSettings(rollouts=8, horizon=10)
    >>> sc = score_trade(s, Trade.bilateral("Cy", "Dee", cash_a_to_b=100), 2, baseline(s, st), st)
    >>> abs(sc.win_delta["Cy"] + sc.win_delta["Dee"] + sc.win_delta["Ann"] + sc.win_delta["Bob"]) < 1e-12  # the changes sum to 0
    True
    """
    after_state = trade_after(state, trade)
    after = simulate(after_state, settings.rollouts, settings.horizon, settings.seed, policy=settings.policy, scoring=settings.scoring, threads=settings.threads)
    names = base.players
    delta, se = {}, {}
    for n in names:
        delta[n], se[n] = paired_delta(base, after, n)
    parts = list(participants) if participants is not None else trade.participants()
    zone = all(beyond_noise(delta[n], se[n], settings.z) for n in parts)
    leader = max(names, key=lambda n: (after.win_prob[n], -names.index(n)))
    acc = acceptance(state, trade, proposer, delta, settings, strategic)
    me = state.players[proposer].name
    return TradeScore(
        dict(base.win_prob),
        dict(after.win_prob),
        delta,
        se,
        zone,
        leader,
        after.win_prob[leader],
        after.win_prob[leader] < settings.balance,
        acc,
        delta[me] * acc,
        after,
    )


def rescore(
    state: GameState,
    cands: Sequence[Candidate],
    settings: RescoreSettings,
    base: RolloutResult | None = None,
    strategic: Sequence[int] = (),
    go_on: Callable[[], bool] | None = None,
) -> list[Rescored]:
    """Re-score candidates, best ``risk_adjusted_ev`` first (ties: the candidate order).

    Parameters
    ----------
    state, settings, strategic:
        As for :func:`rescore_one`.
    cands:
        The candidates; those not valid in the engine are left out.
    base:
        The simulation without a trade (default: :func:`baseline`).
    go_on:
        Asked before each candidate; re-scoring stops when it says no (a time budget).

    Returns
    -------
    list[Rescored]

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.cpsat import generate_trades
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> cands = [g.candidate for g in generate_trades(s, 1).trades]
    >>> scored = rescore(s, cands, RescoreSettings(rollouts=8, horizon=10))
    >>> len(scored) == len(cands), scored == sorted(scored, key=lambda r: -r.risk_adjusted_ev)
    (True, True)
    """
    base = base or baseline(state, settings)
    out = []
    for c in cands:
        if go_on is not None and not go_on():
            break
        r = rescore_one(state, c, base, settings, strategic)
        if r is not None:
            out.append(r)
    return sorted(out, key=lambda r: -r.risk_adjusted_ev)


def self_balancing(state: GameState, scored: Rescored, settings: RescoreSettings, top: int = 3) -> bool:
    """Whether a player outside the trade has a counter-trade that brings the leader back down
    (module docstring): the ``top`` trades of each bystander from
    :func:`~solver.trades.cpsat.generate_trades` in the state after the trade,
    re-scored on the dice of ``scored.after``.

    Parameters
    ----------
    state : GameState
        The position before the trade.
    scored : Rescored
        The trade's re-scoring (with its ``after``).
    settings : RescoreSettings
        As the re-scoring's.
    top : int, default 3
        Counter-trades searched per bystander.

    Returns
    -------
    bool
        True at once when the leader after the trade is below the bar.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.cpsat import generate_trades
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> st = RescoreSettings(rollouts=8, horizon=10)
    >>> r = rescore_one(s, generate_trades(s, 2).trades[0].candidate, baseline(s, st), st)
    >>> self_balancing(s, r, st)
    True
    """
    from solver.trades.cpsat import Limits, generate_trades

    after_state = trade_after(state, scored.trade)
    names = [p.name for p in state.players]
    leader = scored.leader
    target = max(settings.balance, scored.win_before[leader])
    if scored.leader_win_prob <= target:
        return True
    base = scored.after
    assert base is not None
    parts = {state.players[i].name for i in scored.candidate.players}
    for n in names:
        q = names.index(n)
        if n in parts or state.players[q].bankrupt:
            continue
        counter = generate_trades(after_state, q, limits=Limits(top_k=top))
        if counter.relaxed:
            continue
        for g in counter.trades:
            r = rescore_one(after_state, g.candidate, base, settings)
            if r is not None and r.win_after[leader] <= target:
                return True
    return False


__all__ = [
    "RescoreSettings",
    "Rescored",
    "acceptance",
    "baseline",
    "beyond_noise",
    "rescore",
    "rescore_one",
    "score_trade",
    "self_balancing",
    "TradeScore",
    "trade_after",
]
