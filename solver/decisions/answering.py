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
"""

from __future__ import annotations

from engine.rules.view import GameView
from models.errors import InvalidTradeError
from models.trade import Trade
from solver.decisions.caches import DecisionCaches
from solver.decisions.choice import AgentChoice
from solver.decisions.memory import AgentMemory
from solver.decisions.settings import AgentSettings
from solver.decisions.simulation import rescore_settings
from solver.evaluate import judge
from solver.trades.rescore import trade_after


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
        ``accept_rollouts``, ``horizon``, ``answer_z``, ``tiebreak``, ``hold`` and the rollout policy's options.
    memory : AgentMemory
        The seed counter (one drawn) and the trading habits.
    caches : DecisionCaches
        The caches (unused: every answer simulates on a fresh seed).

    Returns
    -------
    AgentChoice
        ``question`` ``offer``; ``answer`` a ``bool``; ``action`` ``accept`` or ``refuse``;
        ``method`` ``simulation``; details ``win_delta`` and ``win_delta_se`` (every player's).

    Examples
    --------
    Cy's answers to Connecticut Avenue for $0 and for $400 (16 games, for the example):

    >>> from models.io import load_state
    >>> view = GameView(load_state("instances/midgame-no-monopolies.json"), 2)
    >>> s, m = AgentSettings(accept_rollouts=16), AgentMemory()
    >>> [offer_choice(view, 2, Trade.bilateral("Ann", "Cy", [], ["Connecticut Avenue"], c), s, m, DecisionCaches()).action for c in (0, 400)]
    ['refuse', 'accept']
    """
    state = view.copy()
    rs = rescore_settings(state, me, settings, memory, settings.accept_rollouts, hold=settings.hold or settings.answer_hold)
    name = state.players[me].name
    try:
        trade_after(state, trade)
    except InvalidTradeError as err:  # an offer the engine would refuse anyway
        return AgentChoice("offer", False, "refuse", f"the offer is not valid here ({err}): refuse", "rule")
    ev = judge(state, trade, me, rs, z=settings.answer_z, worth_tiebreak=settings.tiebreak != "off", tiebreak_on_loss=settings.tiebreak == "worth")
    v = ev.verdicts[name]
    details = {"win_delta": dict(ev.win_delta), "win_delta_se": dict(ev.win_delta_se), "rollouts": rs.rollouts, "seed": rs.seed}
    return AgentChoice("offer", v.verdict == "accept", v.verdict, v.reason, "simulation", details)


__all__ = ["offer_choice"]
