"""Answering an offer: accept or refuse a trade another player proposes (a simulation).

The agent's answer is :func:`solver.evaluate.judge`, the core of ``monopoly-trade respond``
(:func:`solver.evaluate.respond`), with the agent's parameters: the trade and the position without
it simulated on common dice (``accept_rollouts`` games of ``horizon`` rounds, the next seed of its
memory, the agent holding in its rollouts with ``hold=True``: :mod:`solver.decisions.simulation`),
and the verdict of its seat: accept when its change in win probability is a gain beyond the noise
(one-sided, ``answer_z``), refuse when it is a loss beyond it; otherwise (the win probability
does not move, as when the game is decided either way within the horizon) accept when its final
net worth rises beyond the noise (the tie-break ``respond`` does not use; ``tiebreak="no_loss"``:
only when the change's estimate is not a loss, ``"off"``: never). ``answer_z=0`` is the
risk-neutral rule. An offer the rules do not allow is refused (the seed is drawn all the same).
``respond`` also proposes a counter-offer; the agent does not counter in play.

``answer_sets`` refuses some offers by their shape before any simulation (the seed drawn all the
same): ``"own"`` every offer that takes a lot from the agent and completes no street group for it
(a gift, or a lot bought for cash, is still simulated), ``"no_gift"`` one that completes a group
for another participant and none for the agent (:func:`refused_shape`).

With ``answer_check="trading"``, an offer the holding evaluation accepts is judged a second time
with the agent's seat trading in the rollouts (the "not now" evaluation, the seat refusing offers
while it waits, on the next seed): a loss there beyond the noise (``check_z``) refuses it, or,
with ``check_margin`` above 0, a change short of that gain beyond the noise.
Holding values the lots given away as if nothing could later complete or sell them, and the
trading evaluation as if every later trade at the policy's prices were there to be had; an
offer both must pass is accepted only when neither way of valuing the lots shows it losing
(the harmful offers the ``adversary`` found, docs/benchmarks.md).

Both evaluations run with the other seats asking and paying ``answer_premium`` (a percentage
over the printed price; ``-1``, the default: ``sell_premium``) for a lot that completes a group. At the
rollout policy's 100 (twice the price), a seat one short of a group buys the missing lot for cash
within a few turns in most rollouts, so the "not now" branch already holds the completion the
offer would give, and the trading evaluation is nearly uncorrelated with games played to the end
by ``strategic`` agents on the adversary's judged offers (r = 0.07 over 83 offers; 0.66 at 400,
0.76 at 1,000; docs/benchmarks.md, issue 39's exploitability, session 26). A higher premium
is not the default: an adversary searching against ``answer_premium=400`` found the other side
of the error (the agent paying too much to complete its own sets).

``answer_pricing`` (``"rollout"``, the default: ``rollout_pricing``) sets how the other seats of
the answer's two simulations price such lots: ``"value"`` prices them as ``strategic`` does, by
the split of the static surplus (:mod:`engine.sim.rollout_values`), where both evaluations agree
best with games played to the end (r = 0.73 and 0.80 on the 83 offers; session 27). It is not the
default: the adversary, searching against it, wins 16.7% of 1,000 games (11.6% against the
default; paired +0.051 [+0.025, +0.077]). ``check_pricing`` sets the pricing of the second
evaluation alone (``"value"``, the default since session 33; ``"answer"``: as the first), and
``check_mortgage="off"`` (the default since session 33) has its seats build from cash alone, as
``strategic`` does, rather than mortgage lots outside their sets to build (``rollout_mortgage``):
a cash-poor set built at once on mortgages is the rollouts' way of making an offer that takes
most of the seat's cash look good; ``check_horizon`` sets the rounds of its games (100 by default
since session 33; ``0``: ``horizon``), since such a set's cost shows only later, and ``check_z=0,
check_margin=0.03`` (the defaults since session 33) ask its estimate for a gain of 0.03
(docs/benchmarks.md, sessions 32 and 33). A gift (the agent gives nothing and receives no
mortgaged lot, :func:`costs_nothing`) is not checked: it cannot lower the agent's chances, and
the margin would refuse a small one.
"""

from __future__ import annotations

import dataclasses

from engine.rules.view import GameView
from models.errors import InvalidTradeError
from models.state import GameState
from models.trade import Trade
from solver.decisions.caches import DecisionCaches
from solver.decisions.choice import AgentChoice
from solver.decisions.memory import AgentMemory
from solver.decisions.settings import ANSWER_SETS, AgentSettings
from solver.decisions.simulation import rescore_settings
from solver.evaluate import judge
from solver.trades.rescore import beyond_noise, trade_after
from solver.trades.rules import new_completions


def costs_nothing(state: GameState, me: int, trade: Trade) -> bool:
    """Whether the offer takes nothing from ``me`` and gives it no mortgaged lot: a gift.

    Cash, a card or an unmortgaged lot received cannot lower a seat's chances (a lot it has no
    use for it can hold or mortgage), so the trading check, whose margin asks an offer that gives
    something away for a clear gain, does not judge a gift. A mortgaged lot costs its receiver the
    bank's interest at once (``Rules.mortgage_interest``, :mod:`engine.rules.trading`), so it is
    not a gift.

    Parameters
    ----------
    state : GameState
        The position before the offer.
    me : int
        The seat answering.
    trade : Trade
        The offer.

    Returns
    -------
    bool

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> costs_nothing(s, 2, Trade.bilateral("Ann", "Cy", [], [], 300))  # $300 from Ann to Cy
    True
    >>> costs_nothing(s, 2, Trade.bilateral("Ann", "Cy", [], ["Connecticut Avenue"], 400))
    False
    """
    name = state.players[me].name
    for t in trade.transfers:
        if t.frm == name and (t.properties or t.cash > 0 or t.jail_cards > 0):
            return False
        if t.to == name and any(state.mortgaged[state.square_of(p)] for p in t.properties):
            return False
    return True


def refused_shape(before: GameState, after: GameState, me: int, trade: Trade, rule: str) -> str | None:
    """The reason ``answer_sets`` refuses the offer by the groups it completes, or ``None``.

    ``"any"`` refuses nothing; ``"own"`` every offer that takes a lot from ``me`` and completes
    no street group for ``me`` (a gift, or a lot bought for cash, is still weighed by the
    simulation); ``"no_gift"`` one completing a group for another participant and none for
    ``me`` (the shape of ``strategic``'s caution, without its static-worth exception).

    Parameters
    ----------
    before, after : GameState
        The position before and after the offer (:func:`solver.trades.rescore.trade_after`).
    me : int
        The seat answering.
    trade : Trade
        The offer.
    rule : str
        ``AgentSettings.answer_sets``.

    Returns
    -------
    str or None
        The refusal's reason; ``None`` when the rule lets the simulation weigh the offer.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.rescore import trade_after
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> sale = Trade.bilateral("Ann", "Cy", [], ["Connecticut Avenue"], 400)  # Ann's light blue
    >>> for r in ANSWER_SETS:
    ...     print(r, refused_shape(s, trade_after(s, sale), 2, sale, r))
    any None
    no_gift the offer completes light_blue for Ann and no street group for Cy (answer_sets=no_gift): refuse
    own the offer takes a lot from Cy and completes no street group for Cy (answer_sets=own): refuse
    >>> gift = Trade.bilateral("Ann", "Cy", [], [], 300)  # $300 from Ann to Cy
    >>> refused_shape(s, trade_after(s, gift), 2, gift, "own") is None
    True
    """
    if rule == "any" or new_completions(before, after, me):
        return None
    name = before.players[me].name
    if rule == "own":
        if trade.properties_given(name):
            return f"the offer takes a lot from {name} and completes no street group for {name} (answer_sets=own): refuse"
        return None
    idx = {p.name: i for i, p in enumerate(before.players)}
    for who in trade.participants():
        q = idx[who]
        groups = [] if q == me else before.newly_complete(after, q)
        if groups:
            return f"the offer completes {', '.join(groups)} for {who} and no street group for {name} (answer_sets=no_gift): refuse"
    return None


def offer_choice(view: GameView, me: int, trade: Trade, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> AgentChoice:
    """The agent's answer to ``trade`` (module docstring).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The seat answering.
    trade : Trade
        The offer.
    settings : AgentSettings
        ``accept_rollouts``, ``horizon``, ``answer_z``, ``tiebreak``, ``answer_check``, ``hold`` and the rollout policy's options.
    memory : AgentMemory
        The seed counter (one drawn) and the trading habits.
    caches : DecisionCaches
        The caches (unused: every answer simulates on a fresh seed).

    Returns
    -------
    AgentChoice
        ``question`` ``offer``; ``answer`` a ``bool``; ``action`` ``accept`` or ``refuse``;
        ``method`` ``simulation`` (``rule`` for an invalid offer or one ``answer_sets`` refuses); details ``win_delta`` and ``win_delta_se`` (every player's), and ``check`` (the second
        evaluation's change and se for the seat) when ``answer_check`` ran.

    Examples
    --------
    Cy's answers to Connecticut Avenue for $0 and for $400, weighed on simulated games
    (``answer_sets="any"``; 64 games, for the example):

    >>> from models.io import load_state
    >>> view = GameView(load_state("instances/midgame-no-monopolies.json"), 2)
    >>> s, m = AgentSettings(accept_rollouts=64, answer_sets="any"), AgentMemory()
    >>> [offer_choice(view, 2, Trade.bilateral("Ann", "Cy", [], ["Connecticut Avenue"], c), s, m, DecisionCaches()).action for c in (0, 400)]
    ['refuse', 'accept']

    The default (``answer_sets="own"``) refuses the sale before any simulation: it completes no
    group for Cy.

    >>> c = offer_choice(view, 2, Trade.bilateral("Ann", "Cy", [], ["Connecticut Avenue"], 400), AgentSettings(), m, DecisionCaches())
    >>> c.action, c.method, c.reason
    ('refuse', 'rule', 'the offer takes a lot from Cy and completes no street group for Cy (answer_sets=own): refuse')
    """
    state = view.copy()
    if settings.answer_premium >= 0 and settings.answer_premium != settings.sell_premium:
        settings = dataclasses.replace(settings, sell_premium=settings.answer_premium)
    if settings.answer_pricing != "rollout" and settings.answer_pricing != settings.rollout_pricing:
        settings = dataclasses.replace(settings, rollout_pricing=settings.answer_pricing)
    holding = settings.hold or settings.answer_hold
    rs = rescore_settings(state, me, settings, memory, settings.accept_rollouts, hold=holding)
    name = state.players[me].name
    try:
        after = trade_after(state, trade)
    except InvalidTradeError as err:  # an offer the engine would refuse anyway
        return AgentChoice("offer", False, "refuse", f"the offer is not valid here ({err}): refuse", "rule")
    shape = refused_shape(state, after, me, trade, settings.answer_sets)
    if shape is not None:  # the seed above is drawn all the same, so later simulations keep their seeds
        return AgentChoice("offer", False, "refuse", shape, "rule")
    ev = judge(state, trade, me, rs, z=settings.answer_z, worth_tiebreak=settings.tiebreak != "off", tiebreak_on_loss=settings.tiebreak == "worth")
    v = ev.verdicts[name]
    details: dict[str, object] = {"win_delta": dict(ev.win_delta), "win_delta_se": dict(ev.win_delta_se), "rollouts": rs.rollouts, "seed": rs.seed}
    reason = v.reason
    checked = v.verdict == "accept" and settings.answer_check == "trading" and holding
    if checked and costs_nothing(state, me, trade):
        memory.seeds += 1  # the check's seed (rescore_settings draws it so), so later simulations keep their seeds
        reason = f"{v.reason}; it costs {name} nothing, so no second evaluation"
    elif checked:
        changes: dict[str, object] = {"wait_declines": True}
        if settings.check_pricing != "answer":
            changes["rollout_pricing"] = settings.check_pricing
        if settings.check_mortgage == "off":
            changes["rollout_mortgage"] = False
        if settings.check_horizon:
            changes["horizon"] = settings.check_horizon
        second_settings = dataclasses.replace(settings, **changes)  # type: ignore[arg-type]
        check = rescore_settings(state, me, second_settings, memory, settings.accept_rollouts, hold=False)
        second = judge(state, trade, me, check, z=settings.check_z)
        d, se = second.win_delta[name], second.win_delta_se[name]
        details["check"] = {"win_delta": d, "win_delta_se": se, "seed": check.seed}
        if beyond_noise(settings.check_margin - d, se, settings.check_z):
            if settings.check_margin > 0:
                reason = f"{v.reason}; but with {name} trading in the rollouts {d:+.3f} (se {se:.3f}), short of the margin {settings.check_margin:+.3f} beyond the noise: refuse"
            else:
                reason = f"{v.reason}; but with {name} trading in the rollouts it loses {d:+.3f} (se {se:.3f}), beyond the noise: refuse"
            return AgentChoice("offer", False, "refuse", reason, "simulation", details)
        reason = f"{v.reason}; with {name} trading in the rollouts {d:+.3f} (se {se:.3f}), not {'short of the margin' if settings.check_margin > 0 else 'a loss'} beyond the noise"
    return AgentChoice("offer", v.verdict == "accept", v.verdict, reason, "simulation", details)


__all__ = ["costs_nothing", "offer_choice", "refused_shape"]
