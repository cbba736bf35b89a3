"""A pending trade offer: accept or refuse it, a counter-offer, and what to do with the mortgaged
lots it brings.

The verdict and the counter-offer are :func:`solver.evaluate.respond`'s (a simulation: the
offer judged as ``evaluate`` judges, the responder waiting until its next turn in both
branches; the counter is the one change the proposer is predicted to accept that the
responder gains most from). For each mortgaged lot the responder would receive, the choice the
engine asks on receipt (lift now, or pay only the 10% interest) is the agents' rule
(:func:`solver.decisions.receipt.lift_rule`, as
:meth:`solver.agents.strategic.StrategicTradeAgent.lift_on_receipt` plays it: lift when the cash
after the lifting cost stays at or above the building reserve), asked as the engine asks it
(:func:`engine.rules.trading.propose_trade`): on the state before the lots move, one lot at a
time, and a lift the trade then cannot pay for is dropped (interest only), so the answer is the
choice an agent of the registry makes in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.rules.view import GameView
from models.errors import InvalidTradeError
from models.pending import PendingOffer
from models.state import GameState
from models.trade import Trade
from solver.decisions.answer import QuestionAnswer


def receipt_lifts(state: GameState, trade: Trade, responder: int) -> dict[str, bool]:
    """For each mortgaged lot ``responder`` receives by ``trade``: lift it now (``True``) or pay
    the interest only, as the engine asks an agent of the registry (module docstring).

    Parameters
    ----------
    state : GameState
        The state before the trade (not changed).
    trade : Trade
        The trade, accepted.
    responder : int
        The receiver asked.

    Returns
    -------
    dict of str to bool
        Lot name -> lift now; empty when no mortgaged lot comes to ``responder``.

    Examples
    --------
    >>> from models.io import load_state
    >>> from models.trade import Trade, Transfer
    >>> s = load_state("instances/mortgaged.json")  # Bob has $280; St. Charles Place is Cy's, mortgaged
    >>> receipt_lifts(s, Trade((Transfer("Cy", "Bob", ("St. Charles Place",)), Transfer("Bob", "Cy", (), 100))), 1)
    {'St. Charles Place': True}
    """
    from solver.agents.strategic import StrategicTradeAgent

    names = [p.name for p in state.players]
    received = [state.board.property_index[n] for n in trade.properties_received(names[responder])]
    mortgaged = [sq for sq in received if state.mortgaged[sq]]
    if not mortgaged:
        return {}
    agent = StrategicTradeAgent(0)
    agent.start_game(responder, tuple(names))
    view = GameView(state, responder)  # the engine asks before the lots move
    lifts: dict[str, bool] = {}
    chosen: dict[str, bool] = {}
    for sq in mortgaged:
        lot = state.board.squares[sq].name
        lift = bool(agent.lift_on_receipt(view, sq))
        if lift:
            chosen[lot] = True
            try:
                trade.validate(state, chosen)
            except InvalidTradeError:
                del chosen[lot]  # the trade cannot also pay for the lift: interest only, as the engine does
                lift = False
        lifts[lot] = lift
    return lifts


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
    from solver.evaluate import respond

    work = state.copy()
    work.pending = None
    names = [p.name for p in state.players]
    r = respond(
        work, offer.trade, proposer=names[offer.proposer], responder=names[offer.responder],
        history=history, rollouts=rollouts, horizon=horizon, seed=seed, threads=threads,
    )
    lifts = receipt_lifts(work, offer.trade, offer.responder) if r.verdict == "accept" else {}
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
