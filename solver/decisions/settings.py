"""The agent's settings: every option of ``subgraph`` (:class:`solver.agents.subgraph_agent.SubgraphTradeAgent`), typed.

:class:`AgentSettings` is what the decision modules of :mod:`solver.decisions` read besides the
state and the agent's memory (:mod:`solver.decisions.memory`). It is built from the agent's
options (``SubgraphTradeAgent(**options)`` builds one), or from a registry spec
(:func:`solver.decisions.profile.agent_settings`: ``subgraph``, ``subgraph:hold=false``, ...).
Each option is described in :class:`AgentSettings`; what each decision does with it is in
the module of that decision (docs/agents.md#subgraphtradeagent lists them).

``subgraph`` plays the baseline's rules of thumb for the routine decisions
(:class:`solver.decisions.baseline.BaselineRules`) with only ``reserve`` set.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from engine.rules.agents import check_options
from engine.sim.rollout import SCORINGS
from engine.sim.rollout_policy import PRICINGS, RolloutPolicy
from solver.decisions.baseline import BaselineRules
from solver.trades.purchases import DENY
from solver.trades.space import TradeSettings

AUCTIONS = ("game", "simulate", "price")
"""Auction policies: the bidding game (:mod:`solver.bidding.contest`), the simulated indifference price
(:mod:`solver.bidding.auction`) or the baseline's price rules."""

ANSWER_Z = 1.645
"""The default one-sided z of an answer's noise test (5%; ``RescoreSettings.z``)."""


TIEBREAKS = ("worth", "no_loss", "off")
"""The choices of ``AgentSettings.tiebreak``."""

ANSWER_CHECKS = ("off", "trading")
"""The choices of ``AgentSettings.answer_check``."""

ANSWER_SETS = ("any", "no_gift", "own")
"""The choices of ``AgentSettings.answer_sets``."""


@dataclass(frozen=True)
class AgentSettings:
    """Every option of the ``subgraph`` agent (the registry's spec options, with their defaults).

    Attributes
    ----------
    rollouts : int, default 160
        Games simulated per trade search (re-scoring the candidates) and per play price.
    horizon : int, default 20
        Rounds per simulated game, in the searches and the answers (the baseline's static values
        keep their own horizon, 30).
    candidates : int, default 4
        The CP-SAT generator's top K per search.
    cash_step : int, default 150
        The width of the cash buckets in the search key (``cash_key``).
    accept_rollouts : int, default 240
        Games simulated to answer an offer.
    cycles : bool, default True
        Search strict 3-cycles when no bilateral trade survives.
    reserve : int, default 150
        The baseline's ``reserve``: its buying rule where that applies, and its jail, lifting and
        building reserves (:class:`BaselineRules`).
    balance_self : bool, default False
        Also refuse to propose a trade that makes the agent itself the leader at 55% or more.
    auction : str, default "game"
        Buying and bidding: ``"game"`` (the bidding game), ``"simulate"`` (the simulated
        indifference price) or ``"price"`` (the baseline's price rules).
    auction_rollouts : int, default 120
        Games per evaluation with ``auction="simulate"``.
    auction_horizon : int, default 15
        Rounds per game with ``auction="simulate"``.
    auction_sure_buy : int, default 700
        A lot is bought at list price when the cash after it is at least this much (not with
        ``auction="price"``).
    relax : bool, default True
        Run the bilateral search on the relaxed rule-1 model.
    exploit : bool, default True
        A trade qualifies when the agent gains beyond the noise; ``False``: every participant must
        (the Nash zone).
    hold : bool, default True
        ``True``: the agent holds in its rollouts (:meth:`RescoreSettings.holding`, the evaluation
        it was measured with); ``False``: it plays the rollout policy like the others, and an
        action is judged now against not now (:meth:`RescoreSettings.not_now`), as ``solve``
        judges it.
    rollout_trades : bool, default True
        The rollouts use the trading rollout policy (``sell_premium``, ``rollout_mortgage``);
        ``False``: the policy that never trades nor mortgages to build.
    scoring : str, default "model"
        How a rollout cut at the horizon is scored: one of :data:`engine.sim.rollout.SCORINGS`.
    value : str, default "linear"
        The generator's value: ``"linear"`` (the horizon-rent estimate in dollars) or ``"fitted"``.
    objective : str, default "proposer"
        The generator's ranking: ``"proposer"`` or ``"balanced"``.
    margin : float, default 0.0
        The least predicted win gain of every side in the generator (with ``value="fitted"``).
    build : str, default "funded"
        ``"funded"``: the funded build plan; ``"even"``: the baseline's build rule.
    build_horizon : int, default 20
        The funded plan's rounds of rent weighed against the cost of ruin.
    learn : bool, default True
        P(accept) from an online model per opponent, fitted on its answers; ``False``: the default
        logistic in the counterparty's simulated gain.
    price : str, default "play"
        ``"play"``: a bilateral offer's cash set by :func:`solver.trades.bargaining.play_cash`;
        ``"generated"``: the generator's cash.
    price_step : int, default 100
        The step of the amounts the play price samples, and the least improvement of a re-offer.
    offers : int, default 2
        Proposals per act phase (1 or 2); with 2, the ranking keeps one trade per set of counterparties.
    cash_key : str, default "geometric"
        The cash buckets: ``"geometric"`` (one per doubling above ``2 cash_step``) or ``"linear"``.
    reserve_turns : int, default 20
        The ruin-chain reserves' horizon in turns (ruin at 5% or less); 0: no reserve.
    answer_z : float, default 1.645
        The one-sided z of the answer's noise test (``RescoreSettings.z``); 0: risk-neutral.
    deny : int, default 3
        The most denial purchases added to a search (``DENY``); 0: none.
    consolidate : int, default 0
        The most consolidation purchases added to a search; 0: none.
    deny_bank : int, default 3
        The most bank denial purchases added to a search
        (:func:`solver.trades.purchases.bank_denial_candidates`: one of an opponent's lots of a group
        whose only other lot is still in the bank); 0: none.
    purchase_cap : float, default 2
        A purchase outside the agent's holdings (one lot bought, none given, of a group the agent
        holds none of: :func:`solver.trades.purchases.outside_purchase_price`) is not offered at a
        price above ``purchase_cap`` x the lot's printed price once priced for play (haggled
        re-offers included); 0: no bound.
    price_ladder : int, default 1
        The play price samples the generated cash and +-``price_step`` x 2^j for j < ``price_ladder``.
    haggle : int, default 2
        0: a refused structure is never offered again; 1: again when a later search ranks it, at a
        price better for the counterparty by at least ``price_step``; 2: also at once.
    recall : int, default 0
        Rounds after which a refusal is forgotten; 0: never.
    no_auction_buy : str, default "rule"
        Without auctions (``rules.auctions`` false): ``"rule"``, the baseline's buy rule decides
        (the bidding game and the simulation price an auction that cannot happen); ``"auction"``,
        the ``auction`` option's method as with auctions (the behaviour before session 18).
    deaf_after : int, default 30
        An opponent that has answered at least this many of the agent's offers and accepted none
        (with ``learn``: :meth:`solver.agents.opponent_model.OpponentModels.deaf`) is offered
        nothing more, and no search runs while every opponent is such; 0: never.
    trade_model : str, default "observed"
        ``"observed"``: an opponent trades in the rollouts until it is seen not to
        (:class:`solver.agents.opponent_model.TradeHabits`); ``"all"``: every opponent does;
        ``"fitted"``: as ``"observed"``, and each opponent's buy and build reserves and jail
        choice in the rollouts are those it was seen to play
        (:class:`solver.agents.observed_play.ObservedPlay`).
    bid_risk : str, default "relative"
        A bid's reserve: ``"relative"`` (lowered to :func:`solver.analysis.reserve.relative_reserve`
        when the rival taking the lot would leave the agent's ruin above 5% anyway) or ``"reserve"``.
    sell_premium : int, default 100
        The trading rollout policy's asking premium, in percent, for a lot that completes another
        seat's group.
    rollout_mortgage : bool, default True
        The trading rollout policy's seats mortgage spare lots to build.
    policy_offer : bool, default True
        With ``hold=False``, the rollout policy's own proposal for the agent
        (:func:`solver.trades.policy_trade.policy_candidate`) joins the bilateral candidates.
    wait_declines : bool, default False
        With ``hold=False``, the agent's seat in the "not now" branch also refuses every trade
        offered to it while it waits (``RescoreSettings.not_now(declines=True)``).
    answer_hold : bool, default False
        With ``hold=False``, the answer to an offer is still judged with the agent holding in
        its rollouts (an ablation: which decisions the "not now" evaluation changes in play).
    fit_accept : bool, default False
        Each opponent accepts a proposer's trades in a rollout with the rate it accepted
        offers in this game (``RolloutPolicy.accept``, fitted by
        :meth:`solver.agents.observed_play.SeatPlay.accept_percent`); off: every opponent
        accepts every trade the rollout policy's rule accepts.
    accept_prior : int, default 100
        With ``fit_accept``: the acceptance rate, in percent, a seat is fitted from before any
        answer is seen (weighted as 3 answers); 100 starts from "accepts everything".
    tiebreak : str, default "no_loss"
        The answer to an offer whose change in win probability is within the noise:
        ``"worth"``, accept when the final net worth rises beyond the noise; ``"no_loss"``, the
        same only when the change's estimate is not a loss (a loss within the noise is refused:
        the hardening against the ``adversary``, whose harmful offers were such losses
        bought with cash); ``"off"``, refuse (``respond``'s rule).
    answer_check : str, default "trading"
        ``"trading"``: an offer the holding evaluation accepts (``hold`` or ``answer_hold``) is
        simulated again with the agent's seat trading in the rollouts (not now, refusing offers
        while it waits: ``RescoreSettings.not_now(declines=True)``, ``accept_rollouts`` games on
        the next seed), and refused when the agent loses there beyond the noise (``check_z``).
        Holding values a lot given away as if no trade could later complete or sell it; on the
        adversary's harmful offers the holding evaluation said the target gains where games
        played to the end said it loses (docs/benchmarks.md, issue 39's exploitability).
        ``"off"``: one evaluation.
    check_z : float, default 0.0
        The second evaluation's threshold (``answer_check="trading"``): refuse when its change
        is a loss beyond ``check_z`` standard errors (one-sided); ``0`` refuses any loss in
        its estimate. Apart from ``answer_z`` (the first evaluation's) so the two can differ.
        ``0`` is the default since session 33 (1.645 before; see ``check_horizon``).
    check_margin : float, default 0.03
        The gain in win probability the second evaluation must show (``answer_check="trading"``):
        refuse when its change falls short of ``check_margin`` beyond ``check_z`` standard
        errors (``beyond_noise(check_margin - d, se, check_z)``). ``0``: refuse only a loss beyond
        the noise (the rule before the option); with ``check_z=0``, refuse unless the estimate is
        at least ``check_margin``. ``0.03`` is the default since session 33 (``0`` before).
    answer_sets : str, default "own"
        Which offers the agent weighs at all, by the groups they complete (a rule before any
        simulation): ``"any"``, every offer; ``"no_gift"``, refuse an offer that completes a street
        group for another participant while completing none for the agent; ``"own"``, refuse
        every offer that takes a lot from the agent and completes no street group for it (a
        gift, or a lot bought for cash, is still simulated). Of the ``adversary``'s 123 judged
        offers, the 70 completing nothing for the target held 25 of the 30 harmful ones
        (docs/benchmarks.md, issue 39's exploitability, session 29). ``"own"`` is the default since
        session 30 (``"any"`` before): 2,000 games against three ``strategic`` paired with
        ``"any"``, -0.0030 [-0.0061, +0.0001]; of the adversary's offers it accepts, 10 of 99 are
        harmful (20% of 25 with ``"any"``).
    answer_premium : int, default -1
        The trading rollout policy's ``sell_premium`` in the answer's simulations (both
        evaluations of an offer): what the other seats are modelled to ask and pay for a lot
        that completes a group while the agent weighs an offer. ``-1``: ``sell_premium`` (one
        premium for every simulation, as before the option). The agent's other simulations
        keep ``sell_premium`` whatever this is.
    rollout_pricing : str, default "premium"
        How the trading rollout policy's seats price a lot that completes another seat's group
        (``RolloutPolicy.pricing``): ``"premium"``, ``sell_premium`` on the printed price (and
        half the groups' price difference in a swap); ``"value"``, the split of the static
        surplus, as the baseline ``strategic`` prices (:mod:`engine.sim.rollout_values`). In
        every simulation of the agent, with ``answer_premium`` still setting the premium of
        the answer's under ``"premium"``.
    answer_pricing : str, default "rollout"
        The trading rollout policy's ``pricing`` in the answer's simulations only (both
        evaluations of an offer): ``"rollout"``, ``rollout_pricing``; ``"premium"`` or
        ``"value"`` (``RolloutPolicy.pricing``). The agent's other simulations keep
        ``rollout_pricing``.
    check_pricing : str, default "value"
        The trading rollout policy's ``pricing`` in the answer's second evaluation only
        (``answer_check="trading"``): ``"answer"``, as the first evaluation prices (``answer_pricing``);
        ``"premium"`` or ``"value"`` (``RolloutPolicy.pricing``). With ``"value"`` an offer must pass
        a premium-priced holding evaluation and a value-priced trading one, two ways of valuing the
        lots that err on different offers (docs/benchmarks.md, issue 39's exploitability, session 31).
        ``"value"`` is the default since session 33 (``"answer"`` before).
    check_mortgage : str, default "off"
        Whether the seats of the answer's second evaluation mortgage lots outside their sets to
        build (``RolloutPolicy.mortgage_to_build``): ``"answer"``, as in the first evaluation
        (``rollout_mortgage``); ``"off"``, they build from cash alone, as the baseline
        ``strategic`` does (docs/benchmarks.md, issue 39's exploitability, session 32). ``"off"``
        is the default since session 33 (``"answer"`` before).
    check_horizon : int, default 100
        The rounds of the answer's second evaluation's games: ``0``, ``horizon`` (as the first);
        otherwise this many. A set bought with most of a seat's cash is built at once and pays
        within 20 rounds, while the cash it cost would have bought the lots still for sale: the
        loss shows later (docs/benchmarks.md, session 32). ``100`` is the default since
        session 33 (``0`` before), with ``check_pricing="value"``, ``check_mortgage="off"``,
        ``check_z=0`` and ``check_margin=0.03``: 2,000 games against three ``strategic``
        paired with the defaults before, +0.0035 [-0.0008, +0.0078]; of the offers the
        ``adversary`` got it to accept in 200 games, 6 of 79 are harmful (10 of 99 before).
    LIMITS : dict
        A class attribute, not an option: the range or the choices of each option.

    Raises
    ------
    InvalidArgumentError
        An option outside :attr:`LIMITS` (one line naming it).

    Examples
    --------
    >>> s = AgentSettings(hold=False)
    >>> s.hold, s.rollouts, s.baseline.reserve, s.trade_settings.value
    (False, 160, 150, 'linear')
    >>> AgentSettings(offers=3)
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: option 'offers': 3 is outside 1..2
    """

    rollouts: int = 160
    horizon: int = 20
    candidates: int = 4
    cash_step: int = 150
    accept_rollouts: int = 240
    cycles: bool = True
    reserve: int = 150
    balance_self: bool = False
    auction: str = "game"
    auction_rollouts: int = 120
    auction_horizon: int = 15
    auction_sure_buy: int = 700
    relax: bool = True
    exploit: bool = True
    hold: bool = True
    rollout_trades: bool = True
    scoring: str = "model"
    value: str = "linear"
    objective: str = "proposer"
    margin: float = 0.0
    build: str = "funded"
    build_horizon: int = 20
    learn: bool = True
    price: str = "play"
    price_step: int = 100
    offers: int = 2
    cash_key: str = "geometric"
    reserve_turns: int = 20
    answer_z: float = ANSWER_Z
    deny: int = DENY
    consolidate: int = 0
    price_ladder: int = 1
    haggle: int = 2
    recall: int = 0
    no_auction_buy: str = "rule"
    deaf_after: int = 30
    trade_model: str = "observed"
    bid_risk: str = "relative"
    sell_premium: int = 100  # RolloutPolicy's default
    rollout_mortgage: bool = True
    policy_offer: bool = True
    wait_declines: bool = False
    answer_hold: bool = False
    fit_accept: bool = False
    accept_prior: int = 100
    tiebreak: str = "no_loss"
    answer_check: str = "trading"
    check_z: float = 0.0
    check_margin: float = 0.03
    answer_sets: str = "own"
    answer_premium: int = -1  # -1: sell_premium
    rollout_pricing: str = "premium"
    answer_pricing: str = "rollout"  # rollout: rollout_pricing
    check_pricing: str = "value"  # answer: the first evaluation's pricing
    check_mortgage: str = "off"  # answer: the first evaluation's rollout_mortgage
    check_horizon: int = 100  # 0: horizon
    deny_bank: int = 3
    purchase_cap: float = 2.0

    LIMITS: ClassVar[dict[str, tuple[float, float] | tuple[str, ...]]] = {
        "rollouts": (1, 100_000),
        "horizon": (1, 1000),
        "candidates": (1, 100),
        "cash_step": (1, 10_000),
        "accept_rollouts": (1, 100_000),
        "reserve": (0, 10**6),
        "auction": AUCTIONS,
        "auction_rollouts": (1, 100_000),
        "auction_horizon": (1, 1000),
        "auction_sure_buy": (0, 10**6),
        "scoring": SCORINGS,
        "value": ("fitted", "linear"),
        "objective": ("proposer", "balanced"),
        "margin": (0.0, 1.0),
        "build": ("even", "funded"),
        "build_horizon": (0, 200),
        "price": ("generated", "play"),
        "price_step": (10, 1000),
        "offers": (1, 2),
        "cash_key": ("linear", "geometric"),
        "reserve_turns": (0, 100),
        "answer_z": (0.0, 5.0),
        "deny": (0, 20),
        "deny_bank": (0, 20),
        "purchase_cap": (0.0, 100.0),
        "consolidate": (0, 20),
        "price_ladder": (1, 6),
        "haggle": (0, 2),
        "recall": (0, 10_000),
        "no_auction_buy": ("rule", "auction"),
        "deaf_after": (0, 10_000),
        "trade_model": ("all", "observed", "fitted"),
        "bid_risk": ("reserve", "relative"),
        "sell_premium": (0, 100_000),
        "accept_prior": (0, 100),
        "tiebreak": TIEBREAKS,
        "answer_check": ANSWER_CHECKS,
        "check_z": (0.0, 5.0),
        "check_margin": (0.0, 0.5),
        "answer_sets": ANSWER_SETS,
        "answer_premium": (-1, 100_000),
        "rollout_pricing": PRICINGS,
        "answer_pricing": ("rollout", *PRICINGS),
        "check_pricing": ("answer", *PRICINGS),
        "check_mortgage": ("answer", "off"),
        "check_horizon": (0, 1000),
    }
    """The range or the choices of each option (a class attribute, not an option)."""

    def __post_init__(self) -> None:
        check_options(self.LIMITS, self.to_dict())  # offers: the engine allows two proposals per phase

    def to_dict(self) -> dict[str, Any]:
        """Every option and its value.

        Returns
        -------
        dict
            Option -> value, in the order of the fields.
        """
        return dataclasses.asdict(self)

    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults (what a spec must say).

        Returns
        -------
        dict
            Option -> value.

        Examples
        --------
        >>> AgentSettings(hold=False, rollouts=80).changed()
        {'rollouts': 80, 'hold': False}
        """
        default = AgentSettings()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}

    def spec(self) -> str:
        """The registry spec of these settings (``subgraph`` and the changed options).

        Returns
        -------
        str
            ``subgraph`` or ``subgraph:key=value,...``.

        Examples
        --------
        >>> AgentSettings().spec(), AgentSettings(hold=False).spec()
        ('subgraph', 'subgraph:hold=false')
        """
        opts = ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in self.changed().items())
        return "subgraph" + (f":{opts}" if opts else "")

    @cached_property
    def baseline(self) -> BaselineRules:
        """The baseline's rules of thumb with this ``reserve`` (the others at their defaults)."""
        return BaselineRules(reserve=self.reserve)

    @cached_property
    def trade_settings(self) -> TradeSettings:
        """The trade generator's settings (``value``, ``objective``, ``margin``; ``"linear"``: the
        generator as it was before the fitted value, in dollars, where ``margin`` does not apply)."""
        return TradeSettings(value=self.value, objective=self.objective, min_win_gain=self.margin, min_own_win_gain=self.margin)

    @cached_property
    def rollout_policy(self) -> RolloutPolicy:
        """Every seat's rollout policy (``rollout_trades``, ``sell_premium``, ``rollout_mortgage``,
        ``rollout_pricing``)."""
        if self.rollout_trades:
            return RolloutPolicy(sell_premium=self.sell_premium, mortgage_to_build=self.rollout_mortgage, pricing=self.rollout_pricing)
        return RolloutPolicy(trade=False, mortgage_to_build=False)


__all__ = ["ANSWER_CHECKS", "ANSWER_SETS", "ANSWER_Z", "AUCTIONS", "TIEBREAKS", "AgentSettings"]
