"""The agent's caches, under one key scheme: derived things that cost time to compute and change no answer.

Every entry of :class:`DecisionCaches` is a pure function of its key (a kind and a key of
:mod:`solver.decisions.keys`, the lot, the seat, a seed): emptying the caches, or answering with
fresh ones as ``solve --agent`` does, gives the same answers, only slower. What the answers do
depend on beyond the state is the agent's memory (:mod:`solver.decisions.memory`); a thing fixed
the first time some holdings are met (a ruin reserve, a ruin curve) is there, not here.

=============  ==========================================  =================================
kind           key                                         value
=============  ==========================================  =================================
``chain``      the board and the rules                     the position chain
``valuation``  the board and the rules                     the baseline's static values
``worst``      the lots' owners, buildings, mortgages,     the dearest rent it may face
               the seat
``frontier``   the holdings, the seat, the budget          the build frontier
``curve``      the holdings, the state first met there,    the ruin curve of its plans
               the seat
``contest``    the lot, the state, the seat                the bidding game's bid
``auction``    the lot, the state, the seat, the seed      the auction evaluator
``baseline``   the state, the simulation settings          the simulation without a trade
``price``      the state, the structure, the traders,      a play price's simulations
               the simulation settings
=============  ==========================================  =================================
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

LIMITS = {"chain": 4, "valuation": 4, "worst": 1, "frontier": 64, "curve": 64, "contest": 1, "auction": 1, "baseline": 2, "price": 1}
"""The most entries kept per kind (past it, that kind is emptied: only time changes)."""

FRONTIER_BYTES = 64 * 2**20
"""The frontiers kept are emptied before they pass 64 MB (a late-game frontier with lifting costs
and a short bank is 10-20 MB)."""


class DecisionCaches:
    """The caches of one agent (module docstring); ``solve`` answers with fresh ones.

    Attributes
    ----------
    auction_seconds : float
        CPU seconds spent computing bids (reports; not an answer's input).

    Examples
    --------
    >>> caches = DecisionCaches()
    >>> calls = []
    >>> caches.get("worst", ("k",), lambda: calls.append(1) or 5), caches.get("worst", ("k",), lambda: 6), len(calls)
    (5, 5, 1)
    """

    def __init__(self) -> None:
        self._stores: dict[str, dict[Hashable, Any]] = {}
        self._frontier_bytes = 0
        self._last: dict[str, tuple[tuple[object, ...], Any]] = {}
        self.auction_seconds = 0.0

    def get(self, kind: str, key: Hashable, compute: Callable[[], T]) -> T:
        """The entry of ``kind`` under ``key``, computed by ``compute`` when it is not kept.

        Parameters
        ----------
        kind : str
            One of :data:`LIMITS`.
        key : hashable
            The key (module docstring).
        compute : callable
            Computes the value (a pure function of the key).

        Returns
        -------
        object
            The value.
        """
        store = self._stores.setdefault(kind, {})
        if key in store:
            hit: T = store[key]
            return hit
        value = compute()
        size = int(getattr(value, "nbytes", 0)) if kind == "frontier" else 0
        if len(store) >= LIMITS[kind] or (size and self._frontier_bytes + size > FRONTIER_BYTES):
            store.clear()
            if kind == "frontier":
                self._frontier_bytes = 0
        store[key] = value
        self._frontier_bytes += size
        return value

    def of_objects(self, kind: str, objects: tuple[object, ...], compute: Callable[[], T]) -> T:
        """:meth:`get` keyed by ``objects`` (the board and the rules), with the last objects asked
        for recognised by identity first.

        A board or a rules value hashes and compares field by field (about 0.1 ms each here), and
        the act phase asks for its static values at every step; the objects of one game are the
        same objects all game, so an identity check answers almost every call. The objects are
        kept with the value (their ids cannot be reused while they live); objects equal but not
        identical go through :meth:`get` as before, so the value is the same either way.

        Parameters
        ----------
        kind : str
            One of :data:`LIMITS`.
        objects : tuple
            The key: the objects themselves (hashable).
        compute : callable
            Computes the value (a pure function of the objects).

        Returns
        -------
        object
            The value.

        Examples
        --------
        >>> caches = DecisionCaches()
        >>> a, b = ("board",), ("rules",)
        >>> caches.of_objects("chain", (a, b), lambda: 1), caches.of_objects("chain", (a, b), lambda: 2)
        (1, 1)
        >>> caches.of_objects("chain", (("board",), ("rules",)), lambda: 3)  # equal, not identical: get's entry
        1
        """
        last = self._last.get(kind)
        if last is not None and len(last[0]) == len(objects) and all(x is y for x, y in zip(last[0], objects)):
            hit: T = last[1]
            return hit
        value = self.get(kind, objects, compute)
        self._last[kind] = (objects, value)
        return value

    def entries(self, kind: str) -> list[Any]:
        """The values kept of ``kind`` (for tests and reports).

        Parameters
        ----------
        kind : str
            One of :data:`LIMITS`.

        Returns
        -------
        list
            Oldest first.
        """
        return list(self._stores.get(kind, {}).values())

    def clear(self) -> None:
        """Empty every cache (answers do not change)."""
        self._stores.clear()
        self._last.clear()
        self._frontier_bytes = 0


__all__ = ["FRONTIER_BYTES", "LIMITS", "DecisionCaches"]
