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

The agent's own decisions are modules here too, so that the ``subgraph`` agent is ``solve`` in a
loop (:mod:`solver.decisions.agent`: the one dispatch, its table of questions and modules): each a
function of the view (the state and the seat), the agent's settings
(:mod:`solver.decisions.settings`), its memory (:mod:`solver.decisions.memory`, explicit and
JSON-serialisable; :mod:`solver.decisions.events` updates it) and its caches
(:mod:`solver.decisions.caches`, keyed by :mod:`solver.decisions.keys`), returning an
:class:`solver.decisions.choice.AgentChoice`:

- :mod:`solver.decisions.buying`: buying at list price and the most to bid in an auction;
- :mod:`solver.decisions.jail`: the jail choice (``jail_advice`` for ``solve`` too);
- :mod:`solver.decisions.act`: the act phase's next action, from the funded build plan's step
  (:mod:`solver.decisions.building`), the baseline's steps (:mod:`solver.decisions.phase`) and
  proposing (:mod:`solver.decisions.proposing`: the search :mod:`solver.decisions.trade_search`,
  the queue, pricing and haggling :mod:`solver.decisions.pricing`);
- :mod:`solver.decisions.answering`: answering an offer (:func:`solver.evaluate.judge` with the
  agent's parameters);
- :mod:`solver.decisions.receipt`: lifting a mortgage on receipt;
- :mod:`solver.decisions.raising`: raising cash, one step at a time;
- :mod:`solver.decisions.shortage`: a shortage bid and where a building won goes;
- what they share: :mod:`solver.decisions.baseline` (the baseline's rules' parameters and
  reserves), :mod:`solver.decisions.reserves` (the ruin reserves kept in the memory),
  :mod:`solver.decisions.simulation` (seeds and settings of the agent's simulations);
- :mod:`solver.decisions.profile` (settings from a registry spec) and
  :mod:`solver.decisions.recording` (decision points saved from games, replayed through ``solve``).
"""

from __future__ import annotations

from solver.decisions.answer import QuestionAnswer
from solver.decisions.pending import answer_pending

__all__ = ["QuestionAnswer", "answer_pending"]
