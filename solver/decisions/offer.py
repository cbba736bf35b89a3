"""A pending trade offer: accept or refuse it, a counter-offer, and what to do with the mortgaged
lots it brings.

The verdict and the counter-offer are :func:`solver.evaluate.respond`'s (a simulation: the
offer judged as ``evaluate`` judges, the responder waiting until its next turn in both
branches; the counter is the one change the proposer is predicted to accept that the
responder gains most from). For each mortgaged lot the responder would receive, the choice the
engine asks on receipt (lift now, or pay only the 10% interest) is the agents' rule
(:meth:`solver.agents.strategic.StrategicTradeAgent.lift_on_receipt`: lift when the cash after
the offer and the lifting cost stays at or above the building reserve).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.rules.view import GameView
from models.pending import PendingOffer
from models.state import GameState
from solver.decisions.answer import QuestionAnswer


def answer_offer(
    state: GameState,
    offer: PendingOffer,
    *,
    history: Sequence[tuple[Sequence[float], bool]] = (),
    rollouts: int = 800,
    horizon: int = 30,
    seed: int = 0,
    threads: int | None = None,
) -> QuestionAnswer:
    """The responder's answer to ``offer`` (module docstring).

    Parameters
    ----------
    state : GameState
        The position (its pending question is ignored).
    offer : PendingOffer
        The offer and who answers it.
    history, rollouts, horizon, seed, threads
        As :func:`solver.evaluate.respond`.

    Returns
    -------
    QuestionAnswer
        ``action`` ``accept`` or ``refuse``, ``method`` ``simulation``; details: ``proposer``,
        ``responder``, ``offer``, ``win_delta``, ``win_delta_se``, ``counter`` (a trade
        document or ``None``), ``counter_change``, ``counter_win_delta``,
        ``counter_acceptance``, ``lift_on_receipt`` (lot -> ``true`` to lift now).
    """
    from solver.agents.strategic import StrategicTradeAgent
    from solver.evaluate import respond

    work = state.copy()
    work.pending = None
    names = [p.name for p in state.players]
    r = respond(
        work, offer.trade, proposer=names[offer.proposer], responder=names[offer.responder],
        history=history, rollouts=rollouts, horizon=horizon, seed=seed, threads=threads,
    )
    lifts: dict[str, bool] = {}
    received = [state.board.property_index[n] for n in offer.trade.properties_received(names[offer.responder])]
    mortgaged = [sq for sq in received if state.mortgaged[sq]]
    if mortgaged and r.verdict == "accept":
        after = work.copy()
        offer.trade.apply(after)
        agent = StrategicTradeAgent(0)
        agent.start_game(offer.responder, tuple(names))
        view = GameView(after, offer.responder)
        for sq in mortgaged:
            lifts[state.board.squares[sq].name] = bool(agent.lift_on_receipt(view, sq))
    c = r.counter
    details: dict[str, Any] = {
        "proposer": r.proposer,
        "responder": r.responder,
        "offer": offer.trade.to_dict(),
        "win_delta": dict(r.evaluation.win_delta),
        "win_delta_se": dict(r.evaluation.win_delta_se),
        "counter": c.trade.to_dict() if c is not None else None,
        "counter_change": c.change if c is not None else None,
        "counter_win_delta": dict(c.win_delta) if c is not None else None,
        "counter_acceptance": c.acceptance if c is not None else None,
        "lift_on_receipt": lifts,
    }
    return QuestionAnswer("offer", r.verdict, r.reason, "simulation", details)
