"""The answer to a pending question (:mod:`solver.decisions`): what to do, why, and how it was found."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

METHODS = ("simulation", "rule")
"""How an answer was reached: measured in win probability by simulation, or a documented rule."""


@dataclass(frozen=True)
class QuestionAnswer:
    """One answer to a pending question.

    Attributes
    ----------
    question : str
        The question (``offer``, ``debt``, ``auction``, ``building_auction``).
    action : str
        What ``solve`` advises, its decision's action: ``accept``, ``refuse``, ``raise_cash``,
        ``bankrupt``, ``bid``, ``building_bid`` or ``pass``.
    reason : str
        Why, in one line (the figures it read).
    method : str
        ``simulation`` or ``rule`` (:data:`METHODS`).
    details : dict
        The answer's figures, JSON-ready (each module documents its keys).

    Examples
    --------
    >>> a = QuestionAnswer("debt", "bankrupt", "liquidation value $170 < $1050 owed", "rule", {"owed": 1050})
    >>> a.to_dict()["method"], a.to_dict()["owed"]
    ('rule', 1050)
    """

    question: str
    action: str
    reason: str
    method: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """``question``, ``action``, ``reason``, ``method`` and the details' keys.

        Returns
        -------
        dict
            The JSON form (``solve --json``'s ``question``).
        """
        return {"question": self.question, "action": self.action, "reason": self.reason, "method": self.method, **self.details}
