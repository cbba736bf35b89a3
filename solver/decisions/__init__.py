"""The answers to the questions a game can put to a player, one module per kind of question.

Each module holds a pure function of the state, the player and the settings that returns the
choice, its reasons and how it was reached (``method``: ``"simulation"``, measured in win
probability; ``"rule"``, a documented rule of thumb, the one the agents play):

- :mod:`solver.decisions.answer`: the common answer type (:class:`QuestionAnswer`);
- :mod:`solver.decisions.offer`: a pending trade offer: accept or refuse, and a counter-offer
  (:func:`solver.evaluate.respond`, a simulation), with the lift-on-receipt choice for every
  mortgaged lot it brings (rule);
- :mod:`solver.decisions.debt`: a debt larger than the cash: the order of mortgages and sales
  that raises it, or that bankruptcy cannot be avoided (rule);
- :mod:`solver.decisions.auction`: an auction in progress: the most to bid (the simulated
  indifference price, :func:`solver.bidding.auction.auction_bid`);
- :mod:`solver.decisions.shortage`: a building shortage auction: the premium to bid and where
  the building would go (rule);
- :mod:`solver.decisions.pending`: which of these a state's pending question
  (:attr:`models.state.GameState.pending`) asks of a player (:func:`answer_pending`).

``solve`` (:func:`solver.decide.decide`) answers the question the state poses with these.
"""

from __future__ import annotations

from solver.decisions.answer import QuestionAnswer
from solver.decisions.pending import answer_pending

__all__ = ["QuestionAnswer", "answer_pending"]
