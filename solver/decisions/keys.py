"""One key scheme for the agent's memory and caches: what part of a state a stored thing depends on.

Three signatures of a state, from the coarsest:

- :func:`holdings`: who owns what, built and mortgaged, and who is still in. What does not
  depend on cash or positions is keyed by it (the frontier of a build plan), and so are the
  things the agent fixes the first time it meets some holdings (the ruin reserves, a ruin
  curve: :mod:`solver.decisions.memory`);
- :func:`search_position`: the holdings and the agent's cash bucket, the key of a trade search
  (the ranking is kept while it does not change);
- :func:`state_sig`: everything a simulation from the state depends on that changes during a
  game (the search's baseline, a bid in this state, a play price).

:func:`digest` turns any of them (with a kind naming what is stored) into a short string, the
form the memory writes (JSON) and the caches use: equal signatures, equal digests.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from models.state import GameState

Key = str
"""A digest (:func:`digest`): 16 hexadecimal digits."""


def digest(kind: str, *parts: object) -> Key:
    """A short, stable string for ``parts`` (SHA-256 of their ``repr``), prefixed by nothing:
    equal parts give equal digests in any process.

    Parameters
    ----------
    kind : str
        What is keyed (part of the digest, so different kinds never share a key).
    *parts : object
        Tuples of ints, strings and booleans (their ``repr`` is stable).

    Returns
    -------
    Key
        16 hexadecimal digits.

    Examples
    --------
    >>> digest("holdings", (1, 2)) == digest("holdings", (1, 2)), digest("holdings", (1, 2)) == digest("state", (1, 2))
    (True, False)
    >>> len(digest("x"))
    16
    """
    return hashlib.sha256(repr((kind, parts)).encode()).hexdigest()[:16]


def _ints(xs: Iterable[int]) -> tuple[int, ...]:
    return tuple(int(x) for x in xs)  # plain ints: their repr (hence the digest) does not depend on where they came from


def _bools(xs: Iterable[bool]) -> tuple[bool, ...]:
    return tuple(bool(x) for x in xs)


def holdings(state: GameState) -> tuple[object, ...]:
    """Who owns what, built and mortgaged, and who is still in.

    Parameters
    ----------
    state : GameState
        The position.

    Returns
    -------
    tuple
        ``(owners, houses, mortgaged, bankrupt)``.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/two-player.json")
    >>> moved = s.copy(); moved.players[0].position = 5; moved.players[0].cash += 1
    >>> holdings(s) == holdings(moved), state_sig(s) == state_sig(moved)
    (True, False)
    """
    return (_ints(state.owner), _ints(state.houses), _bools(state.mortgaged), _bools(p.bankrupt for p in state.players))


def search_position(state: GameState, cash_bucket: int) -> tuple[object, ...]:
    """The key of a trade search: owners, buildings, mortgages and the searcher's cash bucket.

    Parameters
    ----------
    state : GameState
        The position.
    cash_bucket : int
        The searcher's cash bucket (:func:`solver.decisions.proposing.cash_bucket`).

    Returns
    -------
    tuple
        ``(owners, houses, mortgaged, cash_bucket)``.

    Examples
    --------
    >>> from models.io import load_state
    >>> search_position(load_state("instances/two-player.json"), 3)[3]
    3
    """
    return (_ints(state.owner), _ints(state.houses), _bools(state.mortgaged), int(cash_bucket))


def state_sig(state: GameState) -> tuple[object, ...]:
    """Everything a simulation from ``state`` depends on that changes during a game.

    Parameters
    ----------
    state : GameState
        The position.

    Returns
    -------
    tuple
        Owners, buildings, mortgages, every player's cash, square, jail state, cards and
        bankruptcy, the player to move, the round and the phase.

    Examples
    --------
    >>> from models.io import load_state
    >>> len(state_sig(load_state("instances/two-player.json")))
    7
    """
    return (
        _ints(state.owner),
        _ints(state.houses),
        _bools(state.mortgaged),
        tuple((int(p.cash), int(p.position), bool(p.in_jail), int(p.jail_turns), int(p.jail_cards), bool(p.bankrupt)) for p in state.players),
        int(state.to_move),
        int(state.round),
        str(state.phase),
    )


def holdings_key(state: GameState) -> Key:
    """:func:`digest` of :func:`holdings`.

    Parameters
    ----------
    state : GameState
        The position.

    Returns
    -------
    Key

    Examples
    --------
    >>> from models.io import load_state
    >>> len(holdings_key(load_state("instances/two-player.json")))
    16
    """
    return digest("holdings", *holdings(state))


def state_key(state: GameState) -> Key:
    """:func:`digest` of :func:`state_sig`.

    Parameters
    ----------
    state : GameState
        The position.

    Returns
    -------
    Key

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/two-player.json")
    >>> state_key(s) == state_key(s.copy())
    True
    """
    return digest("state", *state_sig(state))


__all__ = ["Key", "digest", "holdings", "holdings_key", "search_position", "state_key", "state_sig"]
