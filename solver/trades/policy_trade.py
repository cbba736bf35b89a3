"""The rollout policy's own proposal, as a candidate beside the generator's.

Every seat of the rollouts plays the trading rollout policy
(:mod:`engine.sim.rollout_policy`), and an action is judged "now, then play
on" against "not now, then play on" (:meth:`solver.trades.rescore.RescoreSettings.not_now`).
In the "not now" branch the deciding seat makes, from the next round on, the
trade the policy makes (its mutual completion swap, priced at half the
difference of the two groups' printed prices, or its cash purchase of a
completion). A generated trade with the same lots at a worse price is then
judged, rightly, as worse than waiting. The trade the policy would propose
now is therefore a candidate of its own: if it is the best, the advice is to
propose it now rather than wait for it.

``policy_candidate(state, proposer, policy=None) -> Candidate | None``
"""

from __future__ import annotations

import dataclasses

from engine.rules.view import GameView
from engine.sim.rollout_policy import PolicyLike, find_trade, seat_policies
from models.state import GameState
from solver.trades.space import Candidate, TradeKind, with_cash


def policy_candidate(state: GameState, proposer: int, policy: PolicyLike = None) -> Candidate | None:
    """The trade the rollout policy of ``proposer`` proposes in ``state`` (rules (a) and (b) of
    :mod:`engine.sim.rollout_policy`), as a bilateral :class:`~solver.trades.space.Candidate`;
    ``None`` when it proposes none.

    Parameters
    ----------
    state : GameState
        The position.
    proposer : int
        The proposer's seat.
    policy : RolloutPolicy, sequence of RolloutPolicy, or None
        Every seat's rollout policy (who trades, at what asking price; its ``accept``, a model
        of the answer in the rollouts, is not used here); ``None``: the default.

    Returns
    -------
    Candidate or None
        The swap or purchase, its cash by the policy's rule.

    Examples
    --------
    On the mid-game instance the policy's swap gives Cy Virginia Avenue for Atlantic Avenue
    and $180 from Dee: half the difference of the yellows' ($800) and the pinks' ($440)
    printed prices.

    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> c = policy_candidate(s, 2)
    >>> [(s.board.squares[sq].name, a, b) for sq, a, b in c.moves], c.net_cash(2)
    ([('Virginia Avenue', 3, 2), ('Atlantic Avenue', 2, 3)], 180)
    >>> policy_candidate(load_state("instances/opening.json"), 0) is None  # nothing to complete yet
    True
    """
    # In the real game whether a seat accepts is its own answer: every seat counts as accepting
    # here (``accept``, the rollouts' per-game draw, is a model of the answer, not a rule).
    policies = tuple(dataclasses.replace(p, accept=100) for p in seat_policies(policy, len(state.players)))
    if not policies[proposer].trade:
        return None
    trade = find_trade(GameView(state, proposer), proposer, policies)
    if trade is None:
        return None
    names = [p.name for p in state.players]
    (q,) = {names.index(n) for n in trade.participants()} - {proposer}
    moves = [
        (state.square_of(lot), names.index(t.frm), names.index(t.to)) for t in trade.transfers for lot in t.properties
    ]
    return with_cash(TradeKind.BILATERAL, (proposer, q), moves, [(q, -trade.net_cash(names[proposer]))])


__all__ = ["policy_candidate"]
