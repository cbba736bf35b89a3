"""What a decision module of the agent answers: the protocol's answer, the action in words, why, and how.

Every decision the agent makes (:mod:`solver.decisions`: buying, bidding, the jail choice, the act
phase, an offer, lifting on receipt, raising cash, a shortage bid, placing a building) returns an
:class:`AgentChoice`. The agent plays :attr:`AgentChoice.answer`; ``solve --agent`` prints the
rest (:meth:`AgentChoice.to_dict`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.rules.actions import ACTION_TYPES, ProposeTrade, action_to_dict
from models.state import GameState

METHODS = ("rule", "simulation", "model")
"""How a choice was reached: a documented rule of thumb, a simulation (win probability on common
dice), or a model's optimum (the funded build plan: rent against the cost of ruin)."""


@dataclass(frozen=True)
class AgentChoice:
    """One answer of the agent.

    Attributes
    ----------
    question : str
        The protocol's question: ``buy``, ``auction``, ``jail``, ``act``, ``offer``,
        ``lift_on_receipt``, ``debt``, ``building_auction`` or ``place_building``.
    answer : object
        What the agent answers the host: a ``bool`` (buy, accept, lift), an ``int`` (a bid,
        a square), ``None`` or a premium (a shortage bid), ``"roll"``, ``"pay"`` or ``"card"``,
        an :data:`engine.rules.actions.Action` or ``None`` (act, raise cash).
    action : str
        The answer in one word, as ``solve`` prints it (``buy``, ``decline``, ``bid``, ``pass``,
        ``roll``, ``pay``, ``card``, ``build``, ``mortgage``, ``unmortgage``, ``sell_building``,
        ``propose_trade``, ``hold``, ``accept``, ``refuse``, ``lift``, ``keep_mortgaged``,
        ``stop``, ``building_bid``, ``place_building``).
    reason : str
        Why, in one line.
    method : str
        One of :data:`METHODS`.
    details : dict
        Figures, JSON-ready (each module documents its own).

    Examples
    --------
    >>> from engine.rules.actions import Build
    >>> from models.io import load_state
    >>> c = AgentChoice("act", Build(39), "build", "the plan's next building", "model")
    >>> c.to_dict(load_state("instances/two-player.json"))["answer"]
    {'action': 'build', 'square': 39, 'property': 'Boardwalk'}
    """

    question: str
    answer: Any
    action: str
    reason: str
    method: str
    details: dict[str, Any] = field(default_factory=dict)

    def answer_json(self, state: GameState) -> Any:
        """:attr:`answer` as JSON: an action as :func:`engine.rules.actions.action_to_dict` writes it
        (with the lot's name), anything else as it is.

        Parameters
        ----------
        state : GameState
            The state (to name the lot).

        Returns
        -------
        object
        """
        a = self.answer
        if isinstance(a, ACTION_TYPES):
            out = action_to_dict(a)
            if not isinstance(a, ProposeTrade):
                out["property"] = state.board.squares[a.square].name
            return out
        return a

    def to_dict(self, state: GameState) -> dict[str, Any]:
        """``question``, ``action``, ``answer``, ``reason``, ``method`` and the details.

        Parameters
        ----------
        state : GameState
            The state it answers in.

        Returns
        -------
        dict
        """
        return {
            "question": self.question, "action": self.action, "answer": self.answer_json(state), "reason": self.reason,
            "method": self.method, **self.details,
        }


__all__ = ["METHODS", "AgentChoice"]
