"""Judge a given trade, and answer an offer with a verdict and a counter-offer.

:func:`evaluate_trade` is the question "what does this trade do to everyone?";
:func:`respond` is "I have been offered this: take it, or ask for what
instead?". Both use the evaluation of ``solve`` (:mod:`solver.decide`):
every seat plays the trading rollout policy, and the deciding seat (the
proposer for :func:`evaluate_trade`, the responder for :func:`respond`) takes
no action of its own until its next turn, in both branches ("now, then play
on" against "not now, then play on": :meth:`RescoreSettings.not_now`). The
trade's state and the state without it are simulated on the same dice
(``rollouts`` games of ``horizon`` rounds on ``seed``), so every player's
change in win probability is a paired difference with its standard error
(:func:`solver.trades.rescore.score_trade`). With the same seed and
settings, a trade ``solve`` lists gets the same changes here.

The players
-----------
The simulations assume how every player will play after the decision, ``players``:
``"trading"`` (the default, :data:`PLAYERS`): the trading rollout policy, whose players trade
(swaps and purchases that complete a group) and build as soon as they hold $150, mortgaging spare
lots to do it, as the ``subgraph`` agent plays; ``"cautious"``: no trades, and building only with
$600 to spare, never mortgaging to build, closer to rule-of-thumb players such as ``strategic``.
Without trades the branch without the decision is "never" rather than "not now" (nobody makes the
same exchange later). Measured against games played to the end by four ``strategic`` agents
(40 trades from agent games, 66 verdicts beyond 2 standard errors; docs/benchmarks.md, "Answering
offers"), 61% of the ``trading`` verdicts and 80% of the ``cautious`` ones agree with the
played-out sign.

Verdicts
--------
A participant **accepts** when its change is a gain beyond the noise: a
one-sided z-test at 5% (``d > 1.645 se``; a trade that changes none of the
paired games is no gain), the Nash-zone test of ``solve``. It **refuses**
otherwise: the reason says whether it loses beyond the noise or the change
is within it (a trade that is not shown to help is not worth its risk).

Price
-----
For a bilateral trade, the Nash-bargained cash of the same structure
(:func:`solver.trades.bargaining.nash_cash`, sampled at the trade's cash
and $100 and $200 either way, as ``solve`` prices), or ``None`` when no
amount leaves both above their no-trade win probability. Multi-way trades
are not priced.

Counter-offers
--------------
:func:`respond` tries every change of one step to the offer, on the same
dice as the offer: the cash between the proposer and the responder moved
$25, $50, $100, $150, $200, $300, $400 or $500 towards the responder; for a
two-player offer, the same lots at their Nash-bargained price
(:func:`solver.trades.bargaining.nash_cash`, sampled at the offer's cash
and $150, $300, $500 and $800 more towards the responder; with both sides
above their no-trade win probability, the price that maximises the product
of their gains), when it is more than the offer pays the responder; one
more lot of the proposer's (one it may trade: its group carries no
buildings) added to what the responder gets; one lot the responder gives
taken out. For each, the
proposer's predicted acceptance is the opponent model's
(:class:`solver.agents.opponent_model.AcceptanceModel`: its prior, the
logistic in the proposer's own gain with slope 40, plus the answers
``history`` gives). The counter is the change the responder gains most from
among those the proposer accepts with probability at least 1/2 and that
beat the offer for the responder on the same dice, so it is never worse for
the responder than the offer, and that the responder itself would accept (a
gain beyond the noise: a counter it would refuse is no answer); ``None`` when
no change qualifies. One step at a time: changes are not combined.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from engine.sim.rollout import RolloutResult, default_threads, paired_worth_delta
from engine.sim.rollout_policy import RolloutPolicy
from models.errors import InvalidArgumentError, InvalidTradeError, MonopolyError
from models.io import load_state
from models.state import GameState
from models.trade import Trade, Transfer
from solver.agents.opponent_model import AcceptanceModel, offer_features
from solver.schemas import stamp
from solver.trades.bargaining import Bargain, nash_cash, trade_with_cash
from solver.trades.rescore import RescoreSettings, TradeScore, baseline, beyond_noise, score_trade, trade_after
from solver.trades.space import TradeSettings, TradeSpace

__all__ = [
    "CASH_STEPS",
    "Counter",
    "OfferError",
    "PLAYERS",
    "PRICE_STEPS",
    "Response",
    "TradeEvaluation",
    "Verdict",
    "evaluate_trade",
    "judge",
    "respond",
]

CASH_STEPS = (25, 50, 100, 150, 200, 300, 400, 500)
"""The cash changes a counter-offer tries, towards the responder (dollars)."""

PRICE_STEPS = (0, 150, 300, 500, 800)
"""The amounts above the offer's cash, towards the responder, that the counter's Nash bargaining
samples (a refused offer is most often short by more than the ladder's last step)."""

PLAYERS: dict[str, RolloutPolicy] = {
    "trading": RolloutPolicy(),
    "cautious": RolloutPolicy(build_reserve=600, mortgage_to_build=False, trade=False),
}
"""How every seat plays in the simulations, by the name ``players`` takes (module docstring)."""

BARGAIN_STEPS = (-200, -100, 0, 100, 200)
"""The amounts around the trade's cash that Nash bargaining samples (as ``solve``)."""


class OfferError(MonopolyError, ValueError):
    """A trade or offer that cannot be judged (no such player, not a participant, not valid); one line."""


@dataclass(frozen=True)
class Verdict:
    """One participant's answer to a trade.

    Attributes
    ----------
    player : str
        The participant.
    verdict : {"accept", "refuse"}
        Whether it gains beyond the noise.
    reason : str
        Why, with its change and standard error.

    Examples
    --------
    >>> Verdict("Dee", "accept", "Dee gains +0.152 (se 0.014), beyond the noise").verdict
    'accept'
    """

    player: str
    verdict: str
    reason: str


def _verdict(name: str, d: float, se: float, z: float, worth: Callable[[], tuple[float, float]] | None = None, on_loss: bool = True) -> Verdict:
    """Accept a gain beyond one-sided noise (module docstring); with ``worth`` (the change in final
    net worth and its standard error), a change in win probability within the noise either way is
    judged by the net worth instead (not ``on_loss``: only a change whose estimate is >= 0)."""
    figure = f"{d:+.3f} (se {se:.3f})"
    if beyond_noise(d, se, z):
        return Verdict(name, "accept", f"{name} gains {figure}, beyond the noise")
    if beyond_noise(-d, se, z):
        return Verdict(name, "refuse", f"{name} loses {figure}, beyond the noise")
    if worth is not None and not on_loss and d < 0:
        return Verdict(name, "refuse", f"{name}'s change {figure} is a loss within the noise: not shown to help {name}")
    if worth is not None:
        w, w_se = worth()
        money = f"${w:+.0f} (se {w_se:.0f})"
        if beyond_noise(w, w_se, z):
            return Verdict(name, "accept", f"{name}'s change {figure} is within the noise, and its final net worth rises {money}, beyond it")
        return Verdict(name, "refuse", f"{name}'s change {figure} is within the noise, and so is its final net worth's {money}: not shown to help {name}")
    return Verdict(name, "refuse", f"{name}'s change {figure} is within the noise: the trade is not shown to help {name}")


@dataclass(frozen=True)
class TradeEvaluation:
    """What a trade does to every player (module docstring).

    Attributes
    ----------
    trade : Trade
        The trade judged.
    proposer : str
        The deciding seat (it waits until its next turn in both branches).
    score : TradeScore
        Every player's paired change, the Nash zone, the leader and balance check.
    verdicts : dict of str to Verdict
        Each participant's answer.
    bargain : Bargain or None
        The Nash-bargained cash of the same structure (bilateral trades), ``None`` otherwise.
    settings : RescoreSettings
        The simulations.
    players : str
        How the players play in them, a name of :data:`PLAYERS` (``"policy"``: the caller's own
        settings, as the agent's answers).

    Examples
    --------
    >>> ev = evaluate_trade("instances/midgame-no-monopolies.json", Trade.bilateral("Cy", "Dee", cash_a_to_b=100), rollouts=100, seed=1)
    >>> ev.proposer, {n: v.verdict for n, v in ev.verdicts.items()}
    ('Cy', {'Cy': 'refuse', 'Dee': 'accept'})
    """

    trade: Trade
    proposer: str
    score: TradeScore
    verdicts: dict[str, Verdict]
    bargain: Bargain | None
    settings: RescoreSettings
    players: str = "policy"

    @property
    def win_delta(self) -> dict[str, float]:
        """Each player's change in win probability."""
        return self.score.win_delta

    @property
    def win_delta_se(self) -> dict[str, float]:
        """Its standard error (paired games)."""
        return self.score.win_delta_se

    def to_dict(self, state: GameState) -> dict[str, Any]:
        """The JSON object of ``evaluate --json`` (``docs/cli.md#evaluate``), stamped with its schema.

        Parameters
        ----------
        state : GameState
            The state the trade was judged in (for the rules' summary).

        Returns
        -------
        dict
            ``schema``, ``rules``, ``proposer``, ``trade``, ``participants``, ``win_delta``,
            ``win_delta_se``, ``win_after``, ``nash_zone``, ``leader``, ``leader_win_prob``,
            ``balanced``, ``verdicts``, ``reasons``, ``nash_cash``, ``players``, ``rollouts``,
            ``horizon``, ``seed``.
        """
        sc = self.score
        return stamp("evaluate", {
            "rules": state.rules.summary(),
            "proposer": self.proposer,
            "trade": self.trade.to_dict(),
            "participants": self.trade.participants(),
            "win_delta": dict(sc.win_delta),
            "win_delta_se": dict(sc.win_delta_se),
            "win_after": dict(sc.win_after),
            "nash_zone": sc.nash_zone,
            "leader": sc.leader,
            "leader_win_prob": sc.leader_win_prob,
            "balanced": sc.balanced,
            "verdicts": {n: v.verdict for n, v in self.verdicts.items()},
            "reasons": {n: v.reason for n, v in self.verdicts.items()},
            "nash_cash": asdict(self.bargain) if self.bargain is not None else None,
            "players": self.players,
            "rollouts": self.settings.rollouts,
            "horizon": self.settings.horizon,
            "seed": self.settings.seed,
        })


def _state_of(state: GameState | Mapping[str, Any] | str | os.PathLike[str]) -> GameState:
    if isinstance(state, GameState):
        return state
    if isinstance(state, Mapping):
        return load_state(state)
    if isinstance(state, (str, os.PathLike)):
        return load_state(state)  # a path, or a one-line position (MPN1 ...)
    raise OfferError(f"state: expected a GameState, a state document or a path, got {type(state).__name__}")


def _trade_of(trade: Trade | Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> Trade:
    if isinstance(trade, Trade):
        return trade
    try:
        return Trade.from_dict(trade)
    except (KeyError, TypeError, ValueError) as err:
        raise OfferError(f"trade: not a trade document ({err.__class__.__name__}: {err})") from None


def _name(state: GameState, player: str | int, what: str) -> str:
    if isinstance(player, bool) or not isinstance(player, (str, int)):
        raise OfferError(f"{what}: expected a name or a seat number, got {type(player).__name__}")
    if isinstance(player, int):
        if not 0 <= player < len(state.players):
            raise OfferError(f"{what}: seat {player} does not exist (seats 0..{len(state.players) - 1})")
        return state.players[player].name
    try:
        return state.players[state.player_index(player)].name
    except KeyError:
        raise OfferError(f"{what}: no player named {player!r} in the state") from None


def _settings(rollouts: int, horizon: int, seed: int, threads: int | None, players: str = "trading") -> RescoreSettings:
    for name, value, lo, hi in (("rollouts", rollouts, 1, 100_000), ("horizon", horizon, 1, 1000), ("seed", seed, 0, 2**63 - 1)):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise OfferError(f"{name}: must be an integer in {lo}..{hi}, got {value!r}")
    if not isinstance(players, str) or players not in PLAYERS:
        raise OfferError(f"players: must be one of {', '.join(PLAYERS)}, got {players!r}")
    return RescoreSettings(
        rollouts=rollouts, horizon=horizon, seed=seed, threads=default_threads() if threads is None else threads, policy=PLAYERS[players]
    )


def _checked(state: GameState, trade: Trade) -> None:
    if not trade.transfers:
        raise OfferError("trade: no transfers")
    for name in trade.participants():
        _name(state, name, "trade")
        if state.players[state.player_index(name)].bankrupt:
            raise OfferError(f"trade: {name} is bankrupt")
    try:
        trade_after(state, trade)
    except InvalidTradeError as err:
        raise OfferError(f"trade: {err}") from None


def _waiting(state: GameState, decider: int, rs: RescoreSettings) -> RescoreSettings:
    """The simulations with ``decider`` waiting until its next turn in both branches."""
    return rs.not_now(decider, len(state.players), state.to_move)


def _judge(state: GameState, trade: Trade, decider: int, rs: RescoreSettings, bargain: bool) -> TradeEvaluation:
    """The evaluation with ``decider`` waiting until its next turn in both branches."""
    return judge(state, trade, decider, _waiting(state, decider, rs), bargain=bargain)


def judge(
    state: GameState,
    trade: Trade,
    decider: int,
    judged: RescoreSettings,
    *,
    z: float | None = None,
    worth_tiebreak: bool = False,
    tiebreak_on_loss: bool = True,
    bargain: bool = False,
    base: RolloutResult | None = None,
) -> TradeEvaluation:
    """The core of :func:`evaluate_trade`, :func:`respond` and the agent's answer to an offer: the
    trade simulated on ``judged`` exactly (no seat made to wait here), every player's paired
    change, and each participant's verdict.

    :func:`evaluate_trade` and :func:`respond` call it with the deciding seat waiting until its
    next turn (:meth:`RescoreSettings.not_now`) and the Nash-zone test; the ``subgraph`` agent's
    ``accept_trade`` (:mod:`solver.decisions.answering`) with its own simulations (its rollouts,
    horizon, seed counter and ``hold``), its ``answer_z`` and the net-worth tie-break.

    Parameters
    ----------
    state : GameState
        The position.
    trade : Trade
        The trade (valid in ``state``).
    decider : int
        The deciding seat (the proposer when it takes part, else the first participant).
    judged : RescoreSettings
        The simulations, as they are.
    z : float or None
        The one-sided z of the verdicts; ``None``: ``judged.z``.
    worth_tiebreak : bool, default False
        Judge a change in win probability within the noise either way by the final net worth
        (beyond the noise: accept).
    tiebreak_on_loss : bool, default True
        With ``worth_tiebreak``, also a change whose estimate is a loss within the noise goes to
        the net worth; ``False``: such a change is refused (the agent's ``tiebreak="no_loss"``).
    bargain : bool, default False
        Also the Nash-bargained price of a bilateral trade.
    base : RolloutResult or None
        The no-trade simulation on ``judged`` (:func:`~solver.trades.rescore.baseline`), when the
        caller has it already (:func:`respond` pairs its counters with the same one); ``None``:
        simulated here.

    Returns
    -------
    TradeEvaluation

    Raises
    ------
    InvalidTradeError
        The trade cannot happen in ``state``.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> ev = judge(s, Trade.bilateral("Cy", "Dee", cash_a_to_b=300), 3, RescoreSettings(rollouts=100, horizon=10, seed=1))
    >>> ev.verdicts["Dee"].verdict, ev.verdicts["Cy"].verdict
    ('accept', 'refuse')
    """
    z = judged.z if z is None else z
    base = baseline(state, judged) if base is None else base
    parts = trade.participants()
    proposer = state.players[decider].name if state.players[decider].name in parts else parts[0]
    sc = score_trade(state, trade, state.player_index(proposer), base, judged)

    def worth(n: str) -> Callable[[], tuple[float, float]] | None:
        return (lambda: paired_worth_delta(base, sc.after, n)) if worth_tiebreak else None

    verdicts = {n: _verdict(n, sc.win_delta[n], sc.win_delta_se[n], z, worth(n), tiebreak_on_loss) for n in parts}
    price = None
    if bargain and len(parts) == 2:
        a, b = proposer, next(n for n in parts if n != proposer)
        now = trade.net_cash(b)
        price = nash_cash(state, trade, a, b, judged, base=base, amounts=[now + d for d in BARGAIN_STEPS])
    return TradeEvaluation(trade, proposer, sc, verdicts, price, judged)


def evaluate_trade(
    state: GameState | Mapping[str, Any] | str | os.PathLike[str],
    trade: Trade | Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    proposer: str | int | None = None,
    rollouts: int = 800,
    horizon: int = 30,
    seed: int = 0,
    threads: int | None = None,
    players: str = "trading",
) -> TradeEvaluation:
    """Every player's change in win probability from ``trade``, each participant's verdict and
    the Nash-bargained price of the same structure (module docstring).

    Parameters
    ----------
    state : GameState, mapping or path
        The position (a document, a path or a one-line position ``"MPN1 ..."`` is loaded and validated).
    trade : Trade or trade document
        The trade (``{"transfers": [...]}`` as the state format writes it, or the list).
    proposer : str, int or None
        Who proposes it (it waits until its next turn in both branches, as ``solve``'s deciding
        seat); default: the player to move when it takes part, else the first transfer's giver.
    rollouts, horizon, seed, threads
        The simulations, as ``solve``.
    players : {"trading", "cautious"}
        How every player plays in them (:data:`PLAYERS`, module docstring).

    Returns
    -------
    TradeEvaluation

    Raises
    ------
    OfferError
        No such player, a bankrupt participant, a proposer outside the trade, or a trade the
        state does not allow (the reason names what is wrong).
    InvalidStateError
        The state breaks the format or a rule.

    Examples
    --------
    >>> ev = evaluate_trade("instances/midgame-no-monopolies.json",
    ...                     Trade.bilateral("Cy", "Dee", ["Park Place"], ["Mediterranean Avenue"]), rollouts=200, seed=1)
    >>> ev.verdicts["Cy"].verdict, ev.verdicts["Cy"].reason
    ('refuse', 'Cy loses -0.069 (se 0.027), beyond the noise')
    """
    st = _state_of(state)
    tr = _trade_of(trade)
    rs = _settings(rollouts, horizon, seed, threads, players)
    _checked(st, tr)
    parts = tr.participants()
    if proposer is None:
        who = st.players[st.to_move].name if st.players[st.to_move].name in parts else tr.transfers[0].frm
    else:
        who = _name(st, proposer, "proposer")
        if who not in parts:
            raise OfferError(f"proposer: {who} takes no part in the trade")
    return replace(_judge(st, tr, st.player_index(who), rs, bargain=True), players=players)


@dataclass(frozen=True)
class Counter:
    """A counter-offer and what it is predicted to do.

    Attributes
    ----------
    trade : Trade
        The counter-offer.
    change : str
        The one change to the offer, in words.
    win_delta, win_delta_se : dict of str to float
        Every player's paired change from the counter (the offer's dice).
    acceptance : float
        The proposer's predicted acceptance (the opponent model).

    Examples
    --------
    Dee offers Mediterranean Avenue for Cy's Park Place; Cy refuses, and asks for $110 with it:

    >>> r = respond("instances/midgame-no-monopolies.json",
    ...             Trade.bilateral("Dee", "Cy", ["Mediterranean Avenue"], ["Park Place"]), rollouts=800, seed=1)
    >>> r.verdict, r.counter.change, round(r.counter.win_delta["Cy"], 3), round(r.counter.acceptance, 2)
    ('refuse', 'Dee pays $110 more (the Nash-bargained price of these lots)', 0.033, 0.54)
    """

    trade: Trade
    change: str
    win_delta: dict[str, float]
    win_delta_se: dict[str, float]
    acceptance: float


@dataclass(frozen=True)
class Response:
    """The answer to an offer: the verdict, its reason, the evaluation and a counter-offer.

    Attributes
    ----------
    responder, proposer : str
        Who answers and who offered.
    verdict : {"accept", "refuse"}
        The responder's answer to the offer as it stands.
    reason : str
        Why.
    evaluation : TradeEvaluation
        The offer judged with the responder waiting until its next turn.
    counter : Counter or None
        The best change the proposer is predicted to accept (module docstring), or ``None``.
    considered : int
        How many changes were simulated.

    Examples
    --------
    >>> r = respond("instances/midgame-no-monopolies.json",
    ...             Trade.bilateral("Dee", "Cy", ["Mediterranean Avenue"], ["Park Place"]), rollouts=200, seed=1)
    >>> r.responder, r.proposer, r.verdict, r.considered
    ('Cy', 'Dee', 'refuse', 14)
    """

    responder: str
    proposer: str
    verdict: str
    reason: str
    evaluation: TradeEvaluation
    counter: Counter | None
    considered: int

    def to_dict(self, state: GameState) -> dict[str, Any]:
        """The JSON object of ``respond --json`` (``docs/cli.md#respond``), stamped with its schema.

        Parameters
        ----------
        state : GameState
            The state the offer was answered in (for the rules' summary).

        Returns
        -------
        dict
            ``schema``, ``rules``, ``responder``, ``proposer``, ``offer``, ``verdict``, ``reason``,
            ``win_delta``, ``win_delta_se``, ``counter`` (a trade document or ``None``),
            ``counter_change``, ``counter_win_delta``, ``counter_win_delta_se``,
            ``counter_acceptance``, ``considered``, ``players``, ``rollouts``, ``horizon``, ``seed``.
        """
        ev = self.evaluation
        c = self.counter
        return stamp("respond", {
            "rules": state.rules.summary(),
            "responder": self.responder,
            "proposer": self.proposer,
            "offer": ev.trade.to_dict(),
            "verdict": self.verdict,
            "reason": self.reason,
            "win_delta": dict(ev.win_delta),
            "win_delta_se": dict(ev.win_delta_se),
            "counter": c.trade.to_dict() if c is not None else None,
            "counter_change": c.change if c is not None else None,
            "counter_win_delta": dict(c.win_delta) if c is not None else None,
            "counter_win_delta_se": dict(c.win_delta_se) if c is not None else None,
            "counter_acceptance": c.acceptance if c is not None else None,
            "considered": self.considered,
            "players": ev.players,
            "rollouts": ev.settings.rollouts,
            "horizon": ev.settings.horizon,
            "seed": ev.settings.seed,
        })


def _variants(state: GameState, offer: Trade, proposer: str, responder: str) -> list[tuple[str, Trade]]:
    """Every one-step change of the offer in the responder's favour (module docstring)."""
    out: list[tuple[str, Trade]] = []
    now = offer.net_cash(responder)  # what the responder receives in cash, net
    for step in CASH_STEPS:
        out.append((f"{proposer} pays ${step} more", trade_with_cash(offer, proposer, responder, now + step)))
    p = state.player_index(proposer)
    space = TradeSpace(state, p, TradeSettings())
    given = set(offer.properties_given(proposer))
    for sq in space.tradeable(p):
        lot = state.board.squares[sq].name
        if lot in given or lot in offer.properties_given(responder):
            continue
        out.append((f"{proposer} adds {lot}", _with_lot(offer, proposer, responder, lot)))
    gives = offer.properties_given(responder)
    if len(gives) > 1 or (gives and (offer.properties_given(proposer) or offer.net_cash(responder) > 0)):
        for lot in gives:
            out.append((f"{responder} keeps {lot}", _without_lot(offer, responder, lot)))
    return out


def _with_lot(trade: Trade, frm: str, to: str, lot: str) -> Trade:
    legs = list(trade.transfers)
    for k, t in enumerate(legs):
        if t.frm == frm and t.to == to:
            legs[k] = Transfer(t.frm, t.to, (*t.properties, lot), t.cash, t.jail_cards)
            return Trade(tuple(legs))
    return Trade((*legs, Transfer(frm, to, (lot,))))


def _without_lot(trade: Trade, frm: str, lot: str) -> Trade:
    legs = [Transfer(t.frm, t.to, tuple(x for x in t.properties if x != lot) if t.frm == frm else t.properties, t.cash, t.jail_cards) for t in trade.transfers]
    return Trade(tuple(t for t in legs if not t.is_empty()))


def _model(history: Sequence[tuple[Sequence[float], bool]]) -> AcceptanceModel:
    model = AcceptanceModel()
    for x, accepted in history:
        model.observe(np.asarray(x, dtype=float), bool(accepted))
    return model


def respond(
    state: GameState | Mapping[str, Any] | str | os.PathLike[str],
    offer: Trade | Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    proposer: str | int | None = None,
    responder: str | int | None = None,
    history: Sequence[tuple[Sequence[float], bool]] = (),
    rollouts: int = 800,
    horizon: int = 30,
    seed: int = 0,
    threads: int | None = None,
    players: str = "trading",
) -> Response:
    """Accept or refuse ``offer`` for the responder, with the reason and a counter-offer (module docstring).

    Parameters
    ----------
    state : GameState, mapping or path
        The position.
    offer : Trade or trade document
        The offer. A multi-way offer is answered too; its counters change only the cash
        between the proposer and the responder.
    proposer : str, int or None
        Who made it; default: the first transfer's giver.
    responder : str, int or None
        Who answers; default: the other participant of a two-player offer (a multi-way
        offer needs it).
    history : sequence of (features, accepted)
        The proposer's earlier answers, as the opponent model reads them
        (:func:`solver.agents.opponent_model.offer_features`); none: the model's prior.
    rollouts, horizon, seed, threads
        The simulations, as ``solve``.
    players : {"trading", "cautious"}
        How every player plays in them (:data:`PLAYERS`, module docstring).

    Returns
    -------
    Response

    Raises
    ------
    OfferError
        As :func:`evaluate_trade`; also a responder or proposer outside the offer, or a
        multi-way offer without a responder.

    Examples
    --------
    >>> r = respond("instances/midgame-no-monopolies.json",
    ...             Trade.bilateral("Dee", "Cy", ["Mediterranean Avenue"], ["Park Place"]), rollouts=200, seed=1)
    >>> r.responder, r.verdict, r.counter is None or r.counter.win_delta["Cy"] >= r.evaluation.win_delta["Cy"]
    ('Cy', 'refuse', True)
    """
    st = _state_of(state)
    tr = _trade_of(offer)
    rs = _settings(rollouts, horizon, seed, threads, players)
    _checked(st, tr)
    parts = tr.participants()
    who_p = tr.transfers[0].frm if proposer is None else _name(st, proposer, "proposer")
    if who_p not in parts:
        raise OfferError(f"proposer: {who_p} takes no part in the offer")
    if responder is None:
        others = [n for n in parts if n != who_p]
        if len(others) != 1:
            raise OfferError(f"responder: the offer has {len(others)} other participants; name the one who answers")
        who_r = others[0]
    else:
        who_r = _name(st, responder, "responder")
        if who_r not in parts or who_r == who_p:
            raise OfferError(f"responder: {who_r} does not receive the offer")
    try:
        model = _model(history)
    except (InvalidArgumentError, TypeError, ValueError) as err:
        raise OfferError(f"history: {err}") from None
    r_seat, p_seat = st.player_index(who_r), st.player_index(who_p)
    judged = _waiting(st, r_seat, rs)
    base = baseline(st, judged)  # once: the offer and every counter are paired with it
    ev = replace(judge(st, tr, r_seat, judged, bargain=False, base=base), players=players)
    v = ev.verdicts[who_r]
    best: Counter | None = None
    considered = 0
    variants = _variants(st, tr, who_p, who_r)
    if len(parts) == 2:  # the same lots at the price that splits the gain, when it pays the responder more
        now = tr.net_cash(who_r)
        deal = nash_cash(st, tr, who_p, who_r, judged, base=base, amounts=[now + d for d in PRICE_STEPS])
        if deal is not None and deal.cash > now:
            change = f"{who_p} pays ${deal.cash - now} more (the Nash-bargained price of these lots)"
            variants.append((change, trade_with_cash(tr, who_p, who_r, deal.cash)))
    for change, variant in variants:
        try:
            after = trade_after(st, variant)
        except InvalidTradeError:
            continue  # the payer cannot pay it, or a lot cannot move
        sc = score_trade(st, variant, r_seat, base, judged)
        considered += 1
        gain_r = sc.win_delta[who_r]
        if gain_r <= ev.win_delta[who_r]:
            continue  # never worse for the responder than the offer
        p = model.p_accept(offer_features(st, after, p_seat, sc.win_delta[who_p]))
        if p < 0.5 or not beyond_noise(gain_r, sc.win_delta_se[who_r], judged.z):
            continue  # the proposer is predicted to refuse it, or the responder would not take it either
        if best is None or gain_r > best.win_delta[who_r]:
            best = Counter(variant, change, dict(sc.win_delta), dict(sc.win_delta_se), p)
    return Response(who_r, who_p, v.verdict, v.reason, ev, best, considered)

