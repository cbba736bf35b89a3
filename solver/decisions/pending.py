"""Which answer a state's pending question (:attr:`models.state.GameState.pending`) asks of a player.

The player asked (the offer's responder, the debtor, a bidder) gets the answer of the
question's module (:mod:`solver.decisions`); another player gets ``wait``: the game waits on
someone else's answer, and nothing else can happen until it comes.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.chains.markov import PositionChain
from models.pending import PendingAuction, PendingDebt, PendingOffer
from models.state import GameState
from solver.decisions.answer import QuestionAnswer


def answer_pending(
    state: GameState,
    player: int,
    *,
    rollouts: int = 800,
    horizon: int = 30,
    seed: int = 0,
    threads: int | None = None,
    chain: PositionChain | None = None,
    history: Sequence[tuple[Sequence[float], bool]] = (),
) -> QuestionAnswer | None:
    """The answer to ``state.pending`` for ``player`` (module docstring); ``None`` without a question.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat asking.
    rollouts, horizon, seed, threads
        The simulations (an offer, an auction), as ``solve``.
    chain : PositionChain or None
        The position chain (an auction's caps).
    history : sequence of (features, accepted)
        An offer's proposer's earlier answers (:func:`solver.evaluate.respond`).

    Returns
    -------
    QuestionAnswer or None

    Examples
    --------
    >>> from models.io import load_state
    >>> from models.pending import PendingDebt
    >>> s = load_state("instances/near-ruin.json")
    >>> s.pending = PendingDebt(3, 600, 0)
    >>> answer_pending(s, 3).action, answer_pending(s, 0).action
    ('bankrupt', 'wait')
    """
    q = state.pending
    if q is None:
        return None
    names = [p.name for p in state.players]
    if player not in q.who_answers():
        who = " and ".join(names[s] for s in q.who_answers())
        return QuestionAnswer(str(q.question), "wait", f"the game waits on {who}'s answer to the pending {q.question}", "rule", {})
    if isinstance(q, PendingOffer):
        from solver.decisions.offer import answer_offer

        return answer_offer(state, q, history=history, rollouts=rollouts, horizon=horizon, seed=seed, threads=threads)
    if isinstance(q, PendingDebt):
        from solver.decisions.debt import raise_cash_plan

        return raise_cash_plan(state, q.debtor, q.owed, q.creditor)
    if isinstance(q, PendingAuction):
        from solver.decisions.auction import auction_answer

        return auction_answer(state, player, q.square, chain=chain, seed=seed, threads=threads or 1)
    from solver.decisions.shortage import shortage_answer

    return shortage_answer(state, player, q.building)
