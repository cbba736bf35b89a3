"""The decision point (seed 000's ``onDecisionPoint``): build, propose a trade, or hold.

``decide(state, player, *, budget_s=60.0, rollouts=800, seed=0) -> Decision``

1. **Position** (:func:`solver.analysis.position.assess_position`): GROWING, CAPPED
   or LOSING, with the build ROI, ceiling and 20-turn ruin.
2. **Best build**: the funded plan (:func:`solver.analysis.funded_build.funded_plan`:
   the frontier's levels, paid with cash and, when that is short, by
   mortgaging spare lots; the cash kept chosen by the ruin chain), applied to
   a copy of the state; with ``DecideSettings(build="frontier")`` the exact
   frontier's plan for the cash above the reserve
   (:meth:`solver.analysis.frontier.Frontier.plan`).
   *Fast path*: a GROWING position whose best building returns at least
   ``fast_roi`` of its cost in rent per round builds at once, without a
   trade search (its win delta is still simulated and reported).
3. **Trades**: the bilateral CP-SAT search (:func:`solver.trades.cpsat.generate_trades`,
   top ``candidates``), re-scored by simulation on common dice
   (:mod:`solver.trades.rescore`): every seat plays the trading rollout
   policy, and the action is judged "now, then play on" against "not now,
   then play on" (:meth:`RescoreSettings.not_now`: the player takes no
   other action for the rest of the round in both branches), then
   filtered by the mode (:mod:`solver.trades.selection`): ``fair``, the Nash
   zone (both traders gain beyond the noise) and the third-party check
   (``balanced``); ``best``, what the agent plays (the proposer gains, nobody
   else becomes a 55% leader). When no
   bilateral trade survives, 3-way cycles are searched and filtered the same
   way (the seed's Phase 3 trigger). ``self_balancing`` is computed for the
   best ``self_balance_top`` trades in the Nash zone only (balanced or not:
   for a balanced trade the answer is yes at once).
4. **Price**: the best surviving bilateral trade's cash is set from win
   probabilities simulated at the trade's amount and +-$100, +-$200 (what
   each side can pay; :mod:`solver.trades.bargaining`): by Nash bargaining in
   ``fair`` mode, by the proposer's gain x P(accept) in ``best`` mode.
5. **Choice**, in one unit (the player's change in win probability): the
   best trade's ``risk_adjusted_ev`` against the build's win delta and 0
   for holding cash. The build's delta is "build now" against "not now"
   (the rollout policy builds from the next round on in both branches), so
   it measures a round's rent against cash drained before a rent bill, not
   the whole worth of the buildings. Hence, when no trade wins: build the
   funded plan (it exists only when its own model, rent against the cost of
   ruin, prefers it to holding) unless the simulation finds building now
   harmful beyond the noise; otherwise hold.
   (With ``build="frontier"``, the seed's rule: build when the best building
   returns at least ``roi_threshold`` of its cost per round.) A trade is
   chosen when its risk-adjusted gain is positive and beats the build's delta.

**The forecast** (:attr:`Decision.win_prob`, "win probability now") is
``FORECAST_BLEND`` x a separate simulation of the state in which every seat,
the deciding one included, plays the trading rollout policy from now on, plus
``1 - FORECAST_BLEND`` x the horizon model on the state itself
(:func:`engine.sim.win_model.state_win_probabilities`), with its standard
errors (:attr:`Decision.win_prob_se`: the simulation's, times
``FORECAST_BLEND``; the horizon model has no Monte Carlo error). The blend
is a stacked forecast (Wolpert 1992, "Stacked generalization"): the
simulation alone is over-confident against games played to the end by the
registry agents (forecasts of 0.3-0.9 come true 0.05-0.11 less often;
expected calibration error 0.046 on held-out games), the horizon model alone
knows nothing of turn order or of what the next rounds bring; the weight
0.35 minimises the log loss on half of ``bench/calibration.py``'s games and
gives 0.018 on the other half (docs/evaluation.md). The decision's own
baseline ("not now") is not a forecast and is not shown as one; the
decisions use only paired changes, which the blend does not touch.

The work is fixed by counts (``rollouts``, the number of candidates, CP-SAT's
deterministic time and number of solves), so the same seed gives the same
decision on any machine and under any load. ``budget_s`` is only a safety
cap on the wall clock (default 60 s, far above the 0.2-0.5 s the default work
takes): when a step would start after it, the remaining steps are skipped and
the decision says ``truncated``; a decision that is not truncated never
depended on the clock. The clock starts after the one-off loading of the
compiled kernel in a new process.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.chains.markov import PositionChain, chain_for
from engine.sim.rollout import RolloutResult, default_threads, paired_delta, simulate
from engine.sim.win_model import state_win_probabilities
from models.errors import BankruptPlayerError, InvalidArgumentError
from models.names import Name
from models.state import BANK, GameState, Phase
from models.trade import Trade
from solver.analysis.frontier import build_frontier
from solver.analysis.funded_build import FundedPlan, funded_plan
from solver.analysis.position import Position, assess_position
from solver.analysis.reserve import reserves
from solver.bidding.auction import AuctionBid, auction_bid
from solver.bidding.contest import ContestBid, contest_bid
from solver.decisions.agent import AgentAnswer
from solver.decisions.answer import QuestionAnswer
from solver.decisions.jail import JailAdvice, jail_advice  # they live in solver.decisions.jail; kept importable from here
from solver.decisions.memory import AgentMemory
from solver.decisions.settings import AgentSettings
from solver.schemas import stamp
from solver.trades.bargaining import Bargain, nash_cash, play_cash, trade_with_cash
from solver.trades.candidates import run_funnel
from solver.trades.cpsat import Limits, generate_trades
from solver.trades.policy_trade import policy_candidate
from solver.trades.purchases import DENY, denial_candidates
from solver.trades.rescore import (
    Rescored,
    RescoreSettings,
    acceptance,
    baseline,
    rescore,
    rescore_one,
    self_balancing,
)
from solver.trades.selection import MODES, Mode, qualified_by, qualifies, rank_key
from solver.trades.space import TradeKind, TradeSettings, TradeSpace
from solver.trades.value_model import trade_values


class ActionKind(Name):
    """What :func:`decide` advises (:attr:`Decision.action`); the values are what ``solve``
    prints and writes.

    Examples
    --------
    >>> ActionKind.PROPOSE_TRADE == "propose_trade", [str(a) for a in ActionKind][:3]
    (True, ['hold', 'build', 'propose_trade'])
    """

    HOLD = "hold"
    """Keep the cash."""
    BUILD = "build"
    """Build the plan in :attr:`Decision.build`."""
    PROPOSE_TRADE = "propose_trade"
    """Propose the trade in :attr:`Decision.scored`."""
    ACCEPT = "accept"
    """Accept the pending offer (:attr:`Decision.question`)."""
    REFUSE = "refuse"
    """Refuse the pending offer (its counter-offer in :attr:`Decision.question`)."""
    RAISE_CASH = "raise_cash"
    """Pay the pending debt after the mortgages and sales in :attr:`Decision.question`."""
    BANKRUPT = "bankrupt"
    """The pending debt cannot be covered by selling: bankruptcy."""
    BID = "bid"
    """Bid in the auction in progress, up to the maximum in :attr:`Decision.question`."""
    BUILDING_BID = "building_bid"
    """Bid a premium in the building shortage auction (:attr:`Decision.question`)."""
    PASS = "pass"
    """Do not bid in the auction in progress."""
    WAIT = "wait"
    """The game waits on another player's answer to its pending question."""
    BUY = "buy"
    """Buy the lot at its list price (``solve --agent``: :attr:`Decision.agent`)."""
    DECLINE = "decline"
    """Decline the lot: it goes to auction (``solve --agent``)."""
    ROLL = "roll"
    """Jail: roll for doubles (``solve --agent``)."""
    PAY = "pay"
    """Jail: pay the fine (``solve --agent``)."""
    CARD = "card"
    """Jail: use a Get Out of Jail Free card (``solve --agent``)."""
    MORTGAGE = "mortgage"
    """Mortgage the lot in :attr:`Decision.agent` (the act phase's next step, or raising cash)."""
    UNMORTGAGE = "unmortgage"
    """Lift the mortgage on the lot in :attr:`Decision.agent`."""
    SELL_BUILDING = "sell_building"
    """Sell a building on the lot in :attr:`Decision.agent` (raising cash)."""
    STOP = "stop"
    """Raising cash: nothing left to mortgage or sell (the engine liquidates, or the player is bankrupt)."""


HOLD, BUILD, TRADE = ActionKind.HOLD, ActionKind.BUILD, ActionKind.PROPOSE_TRADE
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DecideSettings:
    """``mode``: ``"fair"`` (the seed's filters, Nash-bargained price) or ``"best"`` (what the
    agent plays: :mod:`solver.trades.selection`; price by own gain x P(accept)). ``build``:
    ``"funded"`` (:mod:`solver.analysis.funded_build`: mortgages allowed, the cash kept chosen
    by the ruin chain) or ``"frontier"`` (the frontier's plan for the cash above ``reserve``).

    Attributes
    ----------
    reserve : int, default 150
        Cash kept back by the position and the ``"frontier"`` build plan.
    fast_roi : float, default 0.02
        A GROWING position whose best building returns at least this share of its cost per
        round builds at once, without a trade search (the fast path).
    roi_threshold : float, default 0.01
        With ``build="frontier"``, the return per round above which building is advised.
    candidates : int, default 8
        Trades CP-SAT proposes for re-scoring.
    self_balance_top : int, default 1
        How many of the best Nash-zone trades get the self-balancing check.
    bargain_steps : tuple of int, default (-200, -100, 0, 100, 200)
        Cash offsets around a trade's amount simulated for its price.
    mode : Mode, default "fair"
        ``"fair"`` or ``"best"`` (a string is taken and typed).
    build : {"funded", "frontier"}, default "funded"
        Which build plan.
    build_horizon : int, default 20
        Rounds over which the funded plan weighs rent against ruin.
    deny : int or None, default None
        Denial purchases re-scored beside the trades (0..20); ``None``: :attr:`denials`.

    Raises
    ------
    InvalidArgumentError
        An unknown ``mode`` or ``build``, or ``deny`` outside 0..20.

    Examples
    --------
    >>> DecideSettings(mode="best").mode, DecideSettings(mode="best").denials, DecideSettings().denials
    ('best', 3, 0)
    >>> DecideSettings(build="greedy")
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: build must be 'funded' or 'frontier', got 'greedy'
    """

    reserve: int = 150
    fast_roi: float = 0.02
    roi_threshold: float = 0.01
    candidates: int = 8
    self_balance_top: int = 1
    bargain_steps: tuple[int, ...] = (-200, -100, 0, 100, 200)
    mode: Mode = Mode.FAIR
    build: str = "funded"
    build_horizon: int = 20
    deny: int | None = None  # denial purchases re-scored with the generator's trades; None: DENY in mode best, none in fair

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise InvalidArgumentError(f"mode must be one of {MODES}, got {self.mode!r}")
        object.__setattr__(self, "mode", Mode(self.mode))  # the name given as a string, typed inside
        if self.build not in ("funded", "frontier"):
            raise InvalidArgumentError(f"build must be 'funded' or 'frontier', got {self.build!r}")
        if self.deny is not None and not 0 <= self.deny <= 20:
            raise InvalidArgumentError(f"deny must be in 0..20, got {self.deny}")

    @property
    def denials(self) -> int:
        """How many denial purchases (:mod:`solver.trades.purchases`) join the candidates: ``deny``,
        or by default the agent's number in mode ``best`` (what the agent plays) and none in ``fair``
        (a purchase worth something because it hurts a third player is no advice both sides should accept)."""
        if self.deny is not None:
            return self.deny
        return DENY if self.mode == Mode.BEST else 0


@dataclass
class BuildPlan:
    """A build: the levels after it, its cost, its simulated win delta (build now against hold,
    the player's own rollout policy told to hold), and for a funded plan the lots it mortgages
    and the model's figures (:class:`~solver.analysis.funded_build.FundedPlan`).

    Attributes
    ----------
    levels : dict of int to int
        Square -> building level after the build (5: a hotel).
    cost : int
        What the buildings cost.
    win_delta, win_delta_se : float
        The simulated change in the player's win probability, build now against hold, and its
        standard error (0 until :func:`decide` simulates it).
    funded : FundedPlan or None
        The funded plan it came from (mortgages, cash kept, the ruin figures), or ``None``.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> plan, after = build_plan(state, 1, 150, chain_for(state.board, state.rules))
    >>> plan.to_dict(state)["levels"], plan.cost
    ({'Kentucky Avenue': 4, 'Indiana Avenue': 4, 'Illinois Avenue': 5}, 150)
    """

    levels: dict[int, int]
    cost: int
    win_delta: float = 0.0
    win_delta_se: float = 0.0
    funded: FundedPlan | None = None

    def to_dict(self, state: GameState) -> dict[str, Any]:
        """The plan as ``solve --json`` writes it (``decision.build``, ``build``).

        Parameters
        ----------
        state : GameState
            The state it is for (to name the squares).

        Returns
        -------
        dict
            ``levels`` by street name, ``cost``, ``win_delta``, ``win_delta_se``; for a funded
            plan also ``mortgage`` (lot names), ``cash_after`` and ``funding``.
        """
        out: dict[str, Any] = {
            "levels": {state.board.squares[sq].name: lv for sq, lv in sorted(self.levels.items())},
            "cost": self.cost,
            "win_delta": self.win_delta,
            "win_delta_se": self.win_delta_se,
        }
        if self.funded is not None:
            f = self.funded.to_dict(state)
            out["mortgage"] = f["mortgage"]
            out["cash_after"] = f["cash_after"]
            out["funding"] = f
        return out


@dataclass
class Decision:
    """What :func:`decide` answers: the action, why, and everything it was chosen from.

    Attributes
    ----------
    player : str
        The deciding player's name.
    action : ActionKind
        ``hold``, ``build`` or ``propose_trade``.
    reason : str
        Why, in one line.
    position : Position
        GROWING, CAPPED or LOSING, with its figures (:mod:`solver.analysis.position`).
    build : BuildPlan or None
        The best build plan, with its simulated win delta.
    scored : Rescored or None
        The recommended trade's re-scoring (``action`` is ``propose_trade``).
    bargain, play_price : Bargain or None
        The Nash-bargained price of the trade's cash, and the price for play (mode ``best``).
    trades : list of Rescored
        Every trade re-scored, best first.
    pruning : dict of str to int
        The funnel of the searches that ran: candidates left after each rule (the explicit
        enumerator on the generator's own value and floors), then the distinct property
        structures CP-SAT returned (``cpsat``), the denial purchases and the policy's proposal
        added, re-scored, in the Nash zone, balanced, qualified.
    searches : list of str
        The trade searches that ran: ``"bilateral"``, then ``"cycle3"`` when no bilateral trade
        qualified (their funnels are summed); empty when no search ran (the fast path).
    truncated : bool
        Whether the wall-clock cap cut the work short.
    win_prob : dict of str to float
        The forecast: each player's win probability when every seat plays the trading rollout
        policy from this state (module docstring).
    win_prob_se : dict of str to float
        Their standard errors.
    seconds : float
        The wall time taken.
    mode : Mode
        ``fair`` or ``best``.
    funding : FundedPlan or None
        The funded plan considered (also when it holds).
    purchase : AuctionBid or None
        The buy-or-auction answer (:func:`purchase_advice`): the simulated indifference price.
    purchase_diagnostic : ContestBid or None
        The bidding game's figures for the same lot, kept as a diagnostic (not the answer).
    jail : JailAdvice or None
        The jail choice when the player is to play its turn in jail (:func:`jail_advice`).
    question : QuestionAnswer or None
        The answer to the state's pending question (:mod:`solver.decisions`): then
        :attr:`action` is that answer's, and no build or trade is searched (the game waits on
        the answer).
    agent : AgentAnswer or None
        With ``agent`` settings (``solve --agent``), the agent's answer to the question the state
        poses (:func:`solver.decisions.agent.answer_as_agent`): then :attr:`action` and
        :attr:`reason` are that answer's, and nothing else is searched.

    Examples
    --------
    >>> from models.io import load_state
    >>> d = decide(load_state("instances/late-game-house-shortage.json"), "Ann", rollouts=100, seed=0)
    >>> d.action, d.build.cost, d.build.funded.mortgages, d.truncated
    ('build', 300, (26,), False)
    """

    player: str
    action: ActionKind
    reason: str
    position: Position
    build: BuildPlan | None
    scored: Rescored | None
    bargain: Bargain | None
    trades: list[Rescored]
    pruning: dict[str, int]
    truncated: bool
    win_prob: dict[str, float] = field(default_factory=dict)
    win_prob_se: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0
    mode: Mode = Mode.FAIR
    funding: FundedPlan | None = None
    play_price: Bargain | None = None
    searches: list[str] = field(default_factory=list)
    purchase: AuctionBid | None = None
    """The buy-or-auction answer when the player has rolled onto a lot the bank still holds."""
    purchase_diagnostic: ContestBid | None = None
    jail: JailAdvice | None = None
    """The jail choice when the player is to play its turn in jail (:func:`jail_advice`)."""
    question: QuestionAnswer | None = None
    """The answer to the state's pending question (:mod:`solver.decisions`)."""
    agent: AgentAnswer | None = None
    """The agent's answer (``solve --agent``): then :attr:`action` is that answer's."""

    @property
    def trade(self) -> Trade | None:
        """The recommended trade (the best survivor's :class:`~models.trade.Trade`), or ``None``;
        :attr:`scored` holds its re-scoring."""
        return self.scored.trade if self.scored is not None else None

    def to_dict(self, state: GameState) -> dict[str, Any]:
        """The JSON object of ``solve --json`` (``docs/cli.md#solve``), stamped with its schema.

        Parameters
        ----------
        state : GameState
            The state the decision is about (to name players and squares).

        Returns
        -------
        dict
            ``schema``, ``rules``, ``player``, ``position``, ``decision``, ``win_prob``,
            ``win_prob_se``, ``build``, ``trades``, ``pruning``, ``searches``, ``truncated``, ``complete`` (not
            truncated: a cut-short answer is not a decision), ``mode``, ``funding``, ``purchase``
            (the one answer, ``method`` ``"simulation"``, with the bidding game under
            ``diagnostics``), ``jail``, ``question`` (the pending question's answer), ``agent``
            (the agent's answer, ``solve --agent``).
        """
        pos = self.position
        decision: dict[str, Any] = {"action": self.action, "reason": self.reason, "complete": not self.truncated}
        if self.action == BUILD and self.build is not None:
            decision["build"] = self.build.to_dict(state)
        if self.action == TRADE and self.scored is not None:
            decision["trade"] = self.scored.to_dict()
            if self.bargain is not None:
                decision["nash_cash"] = asdict(self.bargain)
            if self.play_price is not None:
                decision["play_cash"] = asdict(self.play_price)
        return stamp("solve", {
            "rules": state.rules.summary(),
            "player": self.player,
            "position": {
                "state": pos.verdict,
                "build_roi": pos.build_roi,
                "ceiling": pos.ceiling,
                "turns_to_max_dev": pos.turns_to_max_dev,
                "ruin_20": pos.ruin_20,
                "reserve": pos.reserve,
                "cheapest_building": pos.cheapest,
            },
            "decision": decision,
            "win_prob": dict(self.win_prob),
            "win_prob_se": dict(self.win_prob_se),
            "build": self.build.to_dict(state) if self.build is not None else None,
            "trades": [r.to_dict() for r in self.trades],
            "pruning": dict(self.pruning),
            "searches": list(self.searches),
            "truncated": self.truncated,
            "complete": not self.truncated,
            "mode": self.mode,
            "funding": self.funding.to_dict(state) if self.funding is not None else None,
            "purchase": self._purchase_dict(),
            "jail": self.jail.to_dict() if self.jail is not None else None,
            "question": self.question.to_dict() if self.question is not None else None,
            "agent": self.agent.to_dict(state) if self.agent is not None else None,
        })

    def _purchase_dict(self) -> dict[str, Any] | None:
        if self.purchase is None:
            return None
        out: dict[str, Any] = {"method": "simulation", **self.purchase.to_dict()}
        diag = self.purchase_diagnostic
        # The diagnostic carries no verdict of its own (one buy_at_list, one max_bid per answer).
        game = {k: v for k, v in diag.to_dict().items() if k not in ("max_bid", "buy_at_list")} if diag is not None else None
        out["diagnostics"] = {"bidding_game": game}
        return out


FORECAST_BLEND = 0.35
"""The simulation's weight in the forecast (module docstring; fitted by ``bench/calibration.py --fit``)."""


def forecast(state: GameState, settings: RescoreSettings) -> tuple[dict[str, float], dict[str, float]]:
    """The forecast ``solve`` prints as "win probability now", and its standard errors (module docstring).

    Parameters
    ----------
    state : GameState
        The position.
    settings : RescoreSettings
        The simulation: every seat plays ``settings.policy`` (no seat waits).

    Returns
    -------
    tuple of (dict, dict)
        Each player's forecast and its standard error, by name.

    Examples
    --------
    >>> from models.io import load_state
    >>> p, se = forecast(load_state("instances/opening.json"), RescoreSettings(rollouts=100, horizon=10))
    >>> round(sum(p.values()), 9), all(v < 0.05 for v in se.values())
    (1.0, True)
    """
    sim = baseline(state, settings)
    model = state_win_probabilities(state)
    names = [p.name for p in state.players]
    win = {n: FORECAST_BLEND * float(sim.win_prob[n]) + (1 - FORECAST_BLEND) * float(model[i]) for i, n in enumerate(names)}
    se = {n: FORECAST_BLEND * float(sim.win_prob_se[n]) for n in names}
    return win, se


PURCHASE_CHECK_ROLLOUTS = 200
PURCHASE_CHECK_HORIZON = 20


def purchase_advice(
    state: GameState, player: int, chain: PositionChain, seed: int = 0, threads: int = 1
) -> tuple[AuctionBid, ContestBid] | None:
    """Buy-or-auction advice for the lot ``player`` stands on, when ``player`` is the one to move,
    has rolled (phase ``rolled``: the only phase in which the state format lets a player buy
    the lot it stands on) and the bank still holds that lot; else ``None``.

    A to-move player in phase ``rolled`` on an unowned lot has just landed
    there and must buy it at list price (``buy_at_list``) or let it go to
    auction (bid up to ``max_bid``). In phase ``start`` the player has not
    rolled yet: the lot it stands on was declined or passed at an earlier
    turn, and no purchase is asked.
    One answer per question: the simulated indifference price
    (:func:`solver.bidding.auction.auction_bid`, ``PURCHASE_CHECK_ROLLOUTS``
    games of ``PURCHASE_CHECK_HORIZON`` rounds on ``seed``): buy at list price
    when ``p*`` reaches it, and bid up to ``max_bid`` otherwise. It measures the
    lot's worth to the bidder in win probability, which is what a second-price
    auction asks for. The bidding game (:func:`solver.bidding.contest.contest_bid`)
    is returned second, as a diagnostic: it prices the race for the lot's
    group as if that race decided the game, whatever the stake, and so bids
    $447 for Water Works on the mid-game instance where the simulation bids
    $83 (``docs/bidding.md``); it is not the answer.

    Rule variants: under ``rules.auction_only`` the lot is never offered, so only
    ``max_bid`` applies (the text says so). Without auctions (``rules.auctions``
    false) a declined lot stays with the bank until someone lands there and buys
    it; the advice still prices the decline as the race for the group that the
    contest models, the rival taking the lot, which overstates what declining
    costs (a lot the bank keeps may also fall to the player later): the advice
    then leans to buying, and the text says how it was priced.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.
    chain : PositionChain
        The long-run position chain.
    seed, threads : int
        The simulations' seed and threads.

    Returns
    -------
    tuple of (AuctionBid, ContestBid) or None
        The answer and the diagnostic, or ``None`` when no purchase is asked.

    Examples
    --------
    >>> from engine.chains.markov import chain_for
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> purchase_advice(s, s.to_move, chain_for(s.board, s.rules)) is None  # phase start: not asked
    True
    """
    here = state.players[player].position
    if player != state.to_move or state.phase != Phase.ROLLED or not state.board.squares[here].is_property or state.owner[here] != BANK:
        return None
    answer = auction_bid(
        state, player, here, rollouts=PURCHASE_CHECK_ROLLOUTS, horizon=PURCHASE_CHECK_HORIZON, seed=seed, chain=chain, threads=threads
    )
    return answer, contest_bid(state, player, here, chain=chain)


def funded_build_plan(
    state: GameState, player: int, chain: PositionChain, horizon: int = 20
) -> tuple[BuildPlan | None, GameState | None, FundedPlan]:
    """The funded plan (:func:`solver.analysis.funded_build.funded_plan`) as a :class:`BuildPlan`
    and the state after it (mortgages taken, buildings placed); ``(None, None, plan)`` when it holds."""
    fp = funded_plan(state, player, chain, horizon=horizon)
    if fp.empty:
        return None, None, fp
    after = state.copy()
    for sq in fp.mortgages:
        after.mortgaged[sq] = True
    for sq, lv in fp.levels.items():
        after.mortgaged[sq] = False
        after.houses[sq] = lv
    after.players[player].cash = fp.cash_after
    return BuildPlan(dict(fp.levels), fp.build_cost, funded=fp), after, fp


def build_plan(state: GameState, player: int, reserve: int, chain: PositionChain) -> tuple[BuildPlan | None, GameState | None]:
    """The frontier's plan for the cash above ``reserve``, and the state after it.

    Parameters
    ----------
    state : GameState
        The position (not changed).
    player : int
        The builder's seat.
    reserve : int
        Cash kept back; the plan spends only what is above it.
    chain : PositionChain
        The position chain of the state's board and rules.

    Returns
    -------
    tuple of (BuildPlan or None, GameState or None)
        The plan (:meth:`solver.analysis.frontier.Frontier.plan`; mortgaged streets built on are
        lifted) and a copy of the state with it built, or ``(None, None)`` when nothing is affordable.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> plan, after = build_plan(state, 1, 150, chain_for(state.board, state.rules))
    >>> plan.levels, plan.cost, state.players[1].cash - after.players[1].cash
    ({21: 4, 23: 4, 24: 5}, 150, 150)
    >>> build_plan(state, 0, 150, chain_for(state.board, state.rules))
    (None, None)
    """
    spare = max(0, state.players[player].cash - reserve)
    fr = build_frontier(state, player, chain)
    plan = fr.plan(spare) if len(fr.gains) else []
    if not plan:
        return None, None
    after = state.copy()
    levels: dict[int, int] = {}
    cost = 0
    for opt in plan:
        cost += opt.cost
        for sq, lv in opt.levels.items():
            if after.mortgaged[sq]:
                after.mortgaged[sq] = False
            after.houses[sq] = lv
            levels[sq] = lv
    after.players[player].cash -= cost
    return BuildPlan(levels, cost), after


_KERNEL_LOADED = False


def _load_kernel() -> None:
    """Load the compiled batch kernel once per process, before the clock starts: the
    one-off loading (or, in a fresh environment, compiling) is not the decision's work."""
    global _KERNEL_LOADED
    if not _KERNEL_LOADED:
        simulate(GameState.new_game(["a", "b"]), 1, 1, 0)
        _KERNEL_LOADED = True


class _Clock:
    def __init__(self, budget_s: float) -> None:
        self.start = time.perf_counter()
        self.budget = budget_s
        self.cut = False

    def left(self) -> bool:
        if time.perf_counter() - self.start > self.budget:
            self.cut = True
        return not self.cut


def decide(
    state: GameState,
    player: str,
    *,
    budget_s: float = 60.0,
    rollouts: int = 800,
    seed: int = 0,
    horizon: int = 30,
    settings: DecideSettings | None = None,
    strategic: tuple[int, ...] = (),
    chain: PositionChain | None = None,
    threads: int | None = None,
    agent: AgentSettings | None = None,
    memory: AgentMemory | None = None,
) -> Decision:
    """What ``player`` should do now: build, propose a trade or hold (the steps: module docstring).

    Parameters
    ----------
    state : GameState
        The position (not changed).
    player : str
        The deciding player's name.
    budget_s : float, default 60.0
        The wall-clock safety cap; a step that would start after it is skipped and the
        decision says ``truncated``.
    rollouts : int, default 800
        Games per simulated state.
    seed : int, default 0
        The simulations' seed (common dice across the compared states).
    horizon : int, default 30
        Rounds per simulated game, the rest scored by :mod:`engine.sim.win_model`.
    settings : DecideSettings or None
        The knobs; ``None``: the defaults.
    strategic : tuple of int, default ()
        Seats known to play :class:`solver.agents.strategic.StrategicTradeAgent` (their
        acceptance is their own rule).
    chain : PositionChain or None
        The position chain; ``None``: the shared one (:func:`engine.chains.markov.chain_for`).
    threads : int or None
        Simulations played side by side (default :func:`engine.sim.rollout.default_threads`,
        every core this process may use); the decision is the same for any number.
    agent : AgentSettings or None
        Answer as the ``subgraph`` agent with these settings (:mod:`solver.decisions.agent`):
        the question the state poses, by the agent's decision modules; ``None``: ``decide``'s
        own answer.
    memory : AgentMemory or None
        With ``agent``, the agent's memory before the question (not changed; the answer holds
        the memory after it); ``None``: a fresh one.

    Returns
    -------
    Decision
        The action, its reason, and what it was chosen from.

    Raises
    ------
    BankruptPlayerError
        ``player`` is bankrupt.
    UnknownPlayerError
        ``player`` is not in the state (from :meth:`models.state.GameState.player_index`).

    Examples
    --------
    >>> from models.io import load_state
    >>> d = decide(load_state("instances/cycle-brown-pair.json"), "Ann", rollouts=100, seed=0)
    >>> d.action, d.trade is None
    ('hold', True)
    >>> d.reason
    'no trade survives the filters and no funded build beats holding (ruin within 20 turns 0.0% now): keep the cash'
    """
    st = settings or DecideSettings()
    p = state.player_index(player)
    if state.players[p].bankrupt:
        raise BankruptPlayerError(f"{player} is bankrupt")
    _load_kernel()
    clock = _Clock(budget_s)
    chain = chain or chain_for(state.board, state.rules, "long")
    threads = default_threads() if threads is None else threads
    realistic = RescoreSettings(rollouts=rollouts, horizon=horizon, seed=seed, threads=threads)
    rs = realistic.not_now(p, len(state.players), state.to_move)
    t = time.perf_counter()
    if agent is not None:
        return _answer_as_agent(state, p, st, realistic, chain, clock, agent, memory)
    if state.pending is not None:
        return _answer_question(state, p, st, realistic, chain, clock)
    pos = assess_position(state, p, reserve=st.reserve, chain=chain)
    funding: FundedPlan | None = None
    if st.build == "funded":
        plan, built, funding = funded_build_plan(state, p, chain, st.build_horizon)
    else:
        plan, built = build_plan(state, p, st.reserve, chain)
    t = _phase("position and build plan", t, f"{pos.verdict}")
    win_now, win_now_se = forecast(state, realistic)
    base = baseline(state, rs)
    if plan is not None and built is not None:
        after = simulate(built, rs.rollouts, rs.horizon, rs.seed, policy=rs.policy, scoring=rs.scoring, threads=rs.threads)
        plan.win_delta, plan.win_delta_se = paired_delta(base, after, player)
    _phase("baseline and build simulation", t, f"{rs.rollouts} rollouts of {rs.horizon} rounds")
    decision = Decision(
        player, HOLD, "", pos, plan, None, None, [], {}, False, win_now, win_now_se, mode=st.mode, funding=funding
    )
    advice = purchase_advice(state, p, chain, seed, threads)
    if advice is not None:
        decision.purchase, decision.purchase_diagnostic = advice
    decision.jail = jail_advice(state, p)
    if plan is not None and pos.verdict == "GROWING" and pos.build_roi >= st.fast_roi:
        decision.action = BUILD
        decision.reason = (
            f"fast path: the position is GROWING and the best building returns {pos.build_roi:.1%} of its cost "
            f"in rent per round (>= {st.fast_roi:.0%}); no trade search"
        )
        return _finish(decision, clock)
    _search_trades(state, p, decision, base, rs, st, chain, strategic, clock)
    _choose(decision, state, st, rs.z)
    return _finish(decision, clock)


def _answer_question(state: GameState, p: int, st: DecideSettings, realistic: RescoreSettings, chain: PositionChain, clock: _Clock) -> Decision:
    """The decision in a state that waits on a question (``state.pending``): its answer
    (:func:`solver.decisions.answer_pending`), the position and the forecast; no build or
    trade is searched, because nothing else can happen until the question is answered."""
    from solver.decisions import answer_pending

    quiet = state.copy()
    quiet.pending = None
    pos = assess_position(quiet, p, reserve=st.reserve, chain=chain)
    win_now, win_now_se = forecast(quiet, realistic)
    answer = answer_pending(
        state, p, rollouts=realistic.rollouts, horizon=realistic.horizon, seed=realistic.seed, threads=realistic.threads, chain=chain
    )
    assert answer is not None
    decision = Decision(
        state.players[p].name, ActionKind(answer.action), answer.reason, pos, None, None, None, [], {}, False, win_now, win_now_se,
        mode=st.mode, question=answer,
    )
    return _finish(decision, clock)


def _answer_as_agent(
    state: GameState,
    p: int,
    st: DecideSettings,
    realistic: RescoreSettings,
    chain: PositionChain,
    clock: _Clock,
    agent: AgentSettings,
    memory: AgentMemory | None,
) -> Decision:
    """The agent's answer (:func:`solver.decisions.agent.answer_as_agent`), the position and the
    forecast (of the state without its pending question); no build or trade is searched but the
    agent's own."""
    from solver.decisions.agent import answer_as_agent

    quiet = state.copy()
    quiet.pending = None
    pos = assess_position(quiet, p, reserve=st.reserve, chain=chain)
    win_now, win_now_se = forecast(quiet, realistic)
    answer = answer_as_agent(state, p, agent, memory)
    decision = Decision(
        state.players[p].name, ActionKind(answer.action), answer.reason, pos, None, None, None, [], {}, False, win_now, win_now_se,
        mode=st.mode, agent=answer,
    )
    return _finish(decision, clock)


def _search_trades(
    state: GameState,
    p: int,
    decision: Decision,
    base: RolloutResult,
    rs: RescoreSettings,
    st: DecideSettings,
    chain: PositionChain,
    strategic: tuple[int, ...],
    clock: _Clock,
) -> None:
    limits = Limits(top_k=st.candidates)
    t = time.perf_counter()
    reserves = _reserves_of(state, chain, rs.threads)
    # One value for both searches and the funnel: the generator's own value and floors (the
    # fitted win-probability value, 0.04 margins), so the funnel counts the search that ran.
    space = TradeSpace(state, p, TradeSettings(), reserves)
    values = trade_values(space, chain)
    bil = generate_trades(state, p, limits=limits, chain=chain, reserves=reserves, explain=False, values=values)
    decision.searches.append("bilateral")
    t = _phase("CP-SAT, bilateral", t, f"{len(bil.trades)} trades in {bil.solves} solves")
    funnel = run_funnel(space, values)
    pruning = funnel.stages()
    t = _phase("pruning funnel", t, f"{funnel.raw} raw candidates")
    cands = [g.candidate for g in bil.trades if not bil.relaxed]
    denials = [c for c in denial_candidates(state, p, st.denials, reserves.get(p, 0)) if c not in cands]
    own = policy_candidate(state, p, rs.policy)
    policy = [own] if own is not None and own not in cands + denials else []
    scored = rescore(state, cands + denials + policy, rs, base, strategic, go_on=clock.left)
    me = state.players[p].name

    def select(rs_list: list[Rescored]) -> list[Rescored]:
        for r in rs_list:
            r.qualified_by = qualified_by(r, base, me, st.mode, rs.z)
        ok = [r for r in rs_list if r.qualified_by is not None]
        return sorted(ok, key=lambda r: rank_key(r, base, me), reverse=True)

    survivors = select(scored)
    t = _phase("re-scoring", t, f"{len(scored)} trades, {len(survivors)} survive")
    if not survivors and clock.left():
        # The 3-cycle search runs: its enumeration joins the funnel (the counts are then of both searches).
        decision.searches.append("cycle3")
        for k, v in run_funnel(space, values, cycles=True, bilateral=False).stages().items():
            pruning[k] += v
        cyc = generate_trades(
            state, p, cycles=True, bilateral=False, limits=limits, chain=chain, reserves=reserves, explain=False, values=values
        )
        more = [g.candidate for g in cyc.trades if not cyc.relaxed]
        t = _phase("CP-SAT, 3-cycles", t, f"{len(more)} cycles")
        cands += more
        extra = rescore(state, more, rs, base, strategic, go_on=clock.left)
        scored = sorted(scored + extra, key=lambda r: -r.risk_adjusted_ev)
        survivors = select(scored)
        t = _phase("re-scoring cycles", t, f"{len(extra)} cycles")
    pruning.update(
        cpsat=len(cands),
        denial=len(denials),
        policy=len(policy),
        rescored=len(scored),
        nash_zone=sum(r.nash_zone for r in scored),
        balanced=sum(r.nash_zone and r.balanced for r in scored),
        qualified=len(survivors),
    )
    # The counter-move question matters for trades the balance filter rejects, so it is
    # asked of the best trades in the Nash zone, balanced or not.
    for r in [r for r in scored if r.nash_zone][: st.self_balance_top]:
        if clock.left():
            r.self_balancing = self_balancing(state, r, rs)
    decision.trades = scored
    decision.pruning = pruning
    if survivors:
        decision.scored = survivors[0]
        if survivors[0].candidate.kind == TradeKind.BILATERAL and clock.left():
            price, decision.scored = _priced(state, survivors[0], base, rs, st, strategic)
            if st.mode == Mode.FAIR:
                decision.bargain = price
            else:
                decision.play_price = price
            _phase("Nash bargaining" if st.mode == Mode.FAIR else "pricing for play", t, "")


def _phase(name: str, start: float, what: str) -> float:
    """Log (INFO, ``solve -v``) how long a step took; return the time now."""
    now = time.perf_counter()
    log.info("%s: %.3f s%s", name, now - start, f" ({what})" if what else "")
    return now


def _reserves_of(state: GameState, chain: PositionChain, threads: int = 1) -> dict[int, int]:
    return reserves(state, None, epsilon=TradeSettings().reserve_epsilon, chain=chain, threads=threads)


def _priced(
    state: GameState, best: Rescored, base: RolloutResult, rs: RescoreSettings, st: DecideSettings, strategic: tuple[int, ...]
) -> tuple[Bargain | None, Rescored]:
    """The best bilateral trade's cash set by the mode's rule, and the trade re-scored there.

    ``fair``: Nash bargaining between the two (:func:`nash_cash`); the priced trade is kept
    when it is still in the Nash zone and balanced. ``best``: the cash maximising the
    proposer's gain x P(accept) (:func:`play_cash`, with the acceptance rule of
    :mod:`solver.trades.rescore`: a seat in ``strategic`` by its own rule on the trade at
    that price, any other by the logistic curve of its gain); kept when it still qualifies
    and its risk-adjusted gain is at least the generated price's. Either way the trade as
    generated stays when the rule finds no other price or the priced trade is not kept.
    The amounts tried are the generated price plus :attr:`DecideSettings.bargain_steps`.
    """
    a, b = (state.players[i].name for i in best.candidate.players)
    now = best.trade.net_cash(b)
    amounts = [now + d for d in st.bargain_steps]
    if st.mode == Mode.FAIR:
        price = nash_cash(state, best.trade, a, b, rs, base=base, amounts=amounts)
    else:
        q = state.player_index(b)

        def p_accept(c: int, gain_b: float) -> float:
            if q in strategic:  # its own rule, on the trade at that price
                return acceptance(state, trade_with_cash(best.trade, a, b, c), state.player_index(a), {b: gain_b}, rs, strategic)
            return 1.0 / (1.0 + math.exp(-rs.acceptance_slope * gain_b))

        price = play_cash(state, best.trade, a, b, rs, base=base, amounts=amounts, p_accept=p_accept)
    if price is None or price.cash == now:
        return price, best
    priced = rescore_one(state, best.candidate, base, rs, strategic, trade=trade_with_cash(best.trade, a, b, price.cash))
    if priced is None:
        return price, best
    if st.mode == Mode.FAIR:
        keep = priced.nash_zone and priced.balanced
    else:
        keep = qualifies(priced, base, a, Mode.BEST, rs.z) and priced.risk_adjusted_ev >= best.risk_adjusted_ev
    if not keep:
        return price, best
    priced.self_balancing = best.self_balancing
    priced.qualified_by = qualified_by(priced, base, a, st.mode, rs.z)  # kept only when it qualifies: never None here
    return price, priced


def _choose(decision: Decision, state: GameState, st: DecideSettings, z: float) -> None:
    trade = decision.scored
    build = decision.build
    build_delta = build.win_delta if build is not None else 0.0
    if trade is not None and trade.risk_adjusted_ev > 0 and trade.risk_adjusted_ev > build_delta:
        decision.action = TRADE
        decision.reason = (
            f"the trade's risk-adjusted gain in win probability {trade.risk_adjusted_ev:+.3f} beats building "
            f"({build_delta:+.3f}) and holding (0)"
        )
        return
    roi = decision.position.build_roi
    if build is not None and build.funded is not None and build.win_delta >= -z * build.win_delta_se:
        f = build.funded
        decision.action = BUILD
        decision.reason = (
            f"no trade beats it: build (cost ${f.build_cost}"
            + (f", mortgaging {len(f.mortgages)} lot(s) for ${f.raised}" if f.mortgages else "")
            + f", keeping ${f.cash_after}): {f.horizon} rounds of ${f.rent_gain - f.rent_lost:.0f} more rent per round "
            f"outweigh the cost of ruin (within {f.turns} turns {f.ruin_before:.1%} -> {f.ruin_after:.1%}); "
            f"building now changes the win probability by {build.win_delta:+.3f}"
        )
        return
    if build is not None and build.funded is None and roi >= st.roi_threshold and build.win_delta >= -z * build.win_delta_se:
        decision.action = BUILD
        decision.reason = (
            f"no trade beats it: build the frontier's plan (best building returns {roi:.1%} of its cost per round; "
            f"building now changes the win probability by {build.win_delta:+.3f})"
        )
        return
    decision.action = HOLD
    if build is not None and (build.funded is not None or roi >= st.roi_threshold):
        decision.reason = "building now would drain cash the simulation says is needed: keep the cash"
    elif decision.funding is not None and build is None:
        f = decision.funding
        decision.reason = (
            "no trade survives the filters and no funded build beats holding "
            f"(ruin within {f.turns} turns {f.ruin_before:.1%} now): keep the cash"
        )
    else:
        decision.reason = "no trade survives the filters and no building is worth its cost: keep the cash"


def _finish(decision: Decision, clock: _Clock) -> Decision:
    decision.truncated = clock.cut
    decision.seconds = time.perf_counter() - clock.start
    return decision


__all__ = [
    "BUILD",
    "HOLD",
    "TRADE",
    "ActionKind",
    "BuildPlan",
    "DecideSettings",
    "Decision",
    "JailAdvice",
    "build_plan",
    "FORECAST_BLEND",
    "decide",
    "forecast",
    "jail_advice",
    "purchase_advice",
]
