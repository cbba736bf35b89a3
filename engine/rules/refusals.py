"""What a host refused to one seat, so that the seat does not ask again in the same position.

A host may refuse a move its own rules do not allow although ours do (stricter building, a
trade it will not run): it says so with a ``refused`` event (``action``, ``why``;
:meth:`engine.rules.game.Game.refusal`). :class:`Refusals` keeps the refused moves by
*position*, the owners, buildings and mortgages of every lot: the same move is not asked
again in that position, and may be once one of them changes (a purchase, a build, a
mortgage, a trade, anywhere on the board), because a host's rule is most likely a rule
about the holdings.
Cash, squares and the round are left out of the key on purpose: a build refused at the
start of one turn would be refused at the next, which is how an agent that remembered by
turn asked one host for the same lot 36 times in a game. A position met again later (a lot
mortgaged and lifted since) finds its refusals still there; the memory keeps the last
:data:`POSITIONS` positions that had a refusal (the oldest is forgotten first), so it stays
bounded over a game of any length.

Every agent of the registry keeps one (``BaseAgent.refusals``) and draws its moves from
:meth:`Refusals.listed` (the view's legal list less what was refused here) and checks a
trade with :meth:`Refusals.refused` before proposing it.

Examples
--------
>>> from models.io import load_state
>>> from engine.rules.actions import Build
>>> from engine.rules.view import GameView
>>> view = GameView(load_state("instances/late-game-house-shortage.json"), 0)
>>> memory = Refusals()
>>> memory.listed(view, Build)
[16, 18, 19]
>>> memory.record(Build(16))  # the refused event, after the move was drawn from listed()
>>> memory.listed(view, Build), memory.refused(view, Build(16))
([18, 19], True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from engine.rules.actions import Action, Build, Mortgage, SellBuilding, Unmortgage, action_from_dict, action_to_dict
from engine.rules.view import GameView
from models.errors import InvalidArgumentError

POSITIONS = 256
"""Positions with refusals remembered at once (the oldest is forgotten first)."""

_NONE: frozenset[Action] = frozenset()

SquareAction = type[Build] | type[SellBuilding] | type[Mortgage] | type[Unmortgage]
"""A kind of move on one square."""

_LISTS = {Build: "legal_builds", SellBuilding: "legal_building_sales", Mortgage: "legal_mortgages", Unmortgage: "legal_unmortgages"}


def position_key(view: GameView) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]:
    """The position a refusal is remembered in: every lot's owner, buildings and mortgage.

    Parameters
    ----------
    view:
        The game as the seat sees it.

    Returns
    -------
    tuple
        ``(owners, houses, mortgaged)``, one entry per square.
    """
    return (view.owner, view.houses, view.mortgaged)


class Refusals:
    """The moves a host refused to this seat in the current position (module docstring)."""

    def __init__(self) -> None:
        self._key: object = None
        self._by_position: dict[object, set[Action]] = {}
        self.count = 0
        """Refusals received in the whole game (for reports)."""

    def _here(self, view: GameView) -> set[Action] | frozenset[Action]:
        self._key = position_key(view)
        return self._by_position.get(self._key, _NONE)

    def record(self, action: Action) -> None:
        """Remember that the host refused ``action`` in the position last consulted (the move
        was drawn from :meth:`listed` or checked with :meth:`refused` on the view of the phase
        it was refused in, and a refused move changes nothing).

        Parameters
        ----------
        action:
            The refused move.
        """
        here = self._by_position.pop(self._key, set())  # re-inserted last: the newest position
        here.add(action)
        self._by_position[self._key] = here
        while len(self._by_position) > POSITIONS:
            del self._by_position[next(iter(self._by_position))]
        self.count += 1

    def to_dict(self) -> dict[str, Any]:
        """The memory as JSON: every position with its refused moves (oldest first), the position
        last consulted and the count.

        Returns
        -------
        dict
            ``positions`` (each ``{"owner", "houses", "mortgaged", "refused"}``, the moves as
            :func:`engine.rules.actions.action_to_dict` writes them), ``last`` (a position or
            ``None``) and ``count``; :meth:`from_dict` reads it back.

        Examples
        --------
        >>> from models.io import load_state
        >>> from engine.rules.actions import Build
        >>> from engine.rules.view import GameView
        >>> view = GameView(load_state("instances/late-game-house-shortage.json"), 0)
        >>> memory = Refusals(); _ = memory.listed(view, Build); memory.record(Build(16))
        >>> again = Refusals.from_dict(memory.to_dict())
        >>> again.listed(view, Build), again.count
        ([18, 19], 1)
        """
        def position(key: object) -> dict[str, Any]:
            owner, houses, mortgaged = cast(tuple[Any, Any, Any], key)
            return {"owner": list(owner), "houses": list(houses), "mortgaged": list(mortgaged)}

        return {
            "positions": [
                {**position(key), "refused": sorted((action_to_dict(a) for a in moves), key=repr)}
                for key, moves in self._by_position.items()
            ],
            "last": position(self._key) if self._key is not None else None,
            "count": self.count,
        }

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> Refusals:
        """The memory written by :meth:`to_dict`.

        Parameters
        ----------
        doc:
            The JSON object.

        Returns
        -------
        Refusals

        Raises
        ------
        InvalidArgumentError
            Not such an object, or more than :data:`POSITIONS` positions (one line).
        """
        def position(p: Mapping[str, Any]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]:
            return (tuple(int(x) for x in p["owner"]), tuple(int(x) for x in p["houses"]), tuple(bool(x) for x in p["mortgaged"]))

        out = cls()
        try:
            positions = list(doc["positions"])
            if len(positions) > POSITIONS:
                raise InvalidArgumentError(f"{len(positions)} positions (at most {POSITIONS})")
            for p in positions:
                out._by_position[position(p)] = {action_from_dict(a) for a in p["refused"]}
            out._key = position(doc["last"]) if doc["last"] is not None else None
            out.count = int(doc["count"])
        except (KeyError, TypeError, ValueError) as err:
            raise InvalidArgumentError(f"refusals: {err.__class__.__name__}: {err}") from None
        return out

    def refused(self, view: GameView, action: Action) -> bool:
        """Whether the host refused ``action`` in ``view``'s position.

        Parameters
        ----------
        view:
            The game as the seat sees it.
        action:
            A move.

        Returns
        -------
        bool
        """
        return action in self._here(view)

    def listed(self, view: GameView, kind: SquareAction) -> list[int]:
        """The squares of ``view``'s legal list for ``kind`` (``legal_builds``,
        ``legal_building_sales``, ``legal_mortgages``, ``legal_unmortgages``), less those
        refused in this position.

        Parameters
        ----------
        view:
            The game as the seat sees it (the host's lists).
        kind:
            ``Build``, ``SellBuilding``, ``Mortgage`` or ``Unmortgage``.

        Returns
        -------
        list of int
            Square indices, in the view's order.
        """
        squares: list[int] = getattr(view, _LISTS[kind])()
        here = self._here(view)
        return [sq for sq in squares if kind(sq) not in here] if here else squares
