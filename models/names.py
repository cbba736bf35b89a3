"""Typed names: the base of every choice the packages name (phases, modes, verdicts, kinds).

A :class:`Name` is a :class:`enum.StrEnum`: each member *is* the string the
formats, the command line and the JSON outputs use (``Phase.START == "start"``,
``json.dumps(Phase.START) == '"start"'``, ``f"{Phase.START}"`` is ``start``),
so files, outputs and callers that pass plain strings are unchanged, while
code inside the packages compares and assigns members that a type checker
knows. Its ``repr`` is the string's, so printed data reads as before; ``Phase("start")``
turns a string into the member at a boundary. The enums themselves live with
their users: :class:`models.state.Phase`, :class:`engine.rules.actions.EventKind`,
:class:`engine.rules.actions.EndReason`, :class:`solver.trades.space.TradeKind`,
:class:`solver.trades.selection.Mode`, :class:`solver.analysis.position.Verdict`,
:class:`solver.decide.ActionKind`.

Examples
--------
>>> class Colour(Name):
...     RED = "red"
>>> Colour.RED == "red", repr(Colour.RED), Colour("red") is Colour.RED
(True, "'red'", True)
"""

from __future__ import annotations

from enum import StrEnum


class Name(StrEnum):
    """A typed name whose value is its string in the formats (module docstring).

    Examples
    --------
    >>> from models.state import Phase
    >>> [Phase.START, Phase.ROLLED], sorted(Phase) == ["rolled", "start"]
    (['start', 'rolled'], True)
    """

    def __repr__(self) -> str:
        return repr(self.value)


__all__ = ["Name"]
