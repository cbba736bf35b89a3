"""The agent's ruin reserves: computed in the state in which it first met some holdings, and kept.

The reserve of a player is the cash keeping its ruin within ``reserve_turns`` turns at 5% or
less (:func:`solver.analysis.reserve.cash_reserve`, $200 buckets, grid up to $2,000). It depends
on the holdings (owners, buildings, mortgages) and on the players' squares and jail state, not on
their cash: the agent computes it in the first state in which it meets some holdings and keeps it
while they last (its memory: :attr:`solver.decisions.memory.AgentMemory.reserves`). A bid asks
for the agent's own reserve only (:func:`reserve_of`); the other players' are computed later in
the same first state (:func:`reserves_for`), so the result is the same whichever question came
first. Past :data:`solver.decisions.memory.MAX_HOLDINGS` sets of holdings the memory is cleared
before a new one.
"""

from __future__ import annotations

from typing import Any

from engine.chains.markov import PositionChain, chain_for
from models.state import GameState
from solver.analysis.reserve import cash_reserve, reserves
from solver.decisions.caches import DecisionCaches
from solver.decisions.keys import holdings_key
from solver.decisions.memory import MAX_HOLDINGS, AgentMemory, ReserveEntry, Snapshot
from solver.decisions.settings import AgentSettings
from solver.trades.space import TradeSettings


def chain_of(state: GameState, caches: DecisionCaches) -> PositionChain:
    """The position chain of the state's board and rules (long jail policy), cached.

    Parameters
    ----------
    state : GameState
        The position.
    caches : DecisionCaches
        The caches.

    Returns
    -------
    PositionChain

    Examples
    --------
    >>> from models.io import load_state
    >>> s, caches = load_state("instances/two-player.json"), DecisionCaches()
    >>> chain_of(s, caches) is chain_of(s.copy(), caches)
    True
    """
    return caches.of_objects("chain", (state.board, state.rules), lambda: chain_for(state.board, state.rules))


def reserve_kw(state: GameState, settings: AgentSettings, caches: DecisionCaches) -> dict[str, Any]:
    """The reserves' settings: 5% ruin within ``reserve_turns`` turns, $200 buckets, grid to $2,000.

    Parameters
    ----------
    state : GameState
        The position (its chain).
    settings : AgentSettings
        ``reserve_turns``.
    caches : DecisionCaches
        The caches.

    Returns
    -------
    dict
        Keyword arguments of :func:`solver.analysis.reserve.reserves`.

    Examples
    --------
    >>> from models.io import load_state
    >>> kw = reserve_kw(load_state("instances/two-player.json"), AgentSettings(), DecisionCaches())
    >>> kw["turns"], kw["bucket"], kw["max_cash"]
    (20, 200, 2000)
    """
    return {
        "epsilon": TradeSettings().reserve_epsilon,
        "turns": settings.reserve_turns,
        "bucket": 200,
        "max_cash": 2000,
        "chain": chain_of(state, caches),
    }


def _bound(memory: AgentMemory) -> None:
    """Before new holdings: clear both reserve memories once they hold more than the bound."""
    if len(memory.reserves) + len(memory.partial) > MAX_HOLDINGS:
        memory.reserves.clear()
        memory.partial.clear()


def reserves_for(state: GameState, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> dict[int, int]:
    """Every active player's reserve (module docstring).

    Parameters
    ----------
    state : GameState
        The position.
    settings : AgentSettings
        ``reserve_turns`` (0: no reserve).
    memory : AgentMemory
        The reserves kept (read, and written the first time these holdings are met).
    caches : DecisionCaches
        The caches.

    Returns
    -------
    dict of int to int
        Seat -> dollars.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/late-game-house-shortage.json")
    >>> memory = AgentMemory()
    >>> reserves_for(s, AgentSettings(), memory, DecisionCaches()) == memory.reserves[holdings_key(s)]
    True
    """
    key = holdings_key(state)
    hit = memory.reserves.get(key)
    if hit is not None:
        return hit
    if settings.reserve_turns == 0:
        return {p: 0 for p in state.active_players()}
    part = memory.partial.pop(key, None)
    if part is None:
        _bound(memory)
        hit = reserves(state, None, **reserve_kw(state, settings, caches))
    else:
        first = part.anchor.on(state)
        rest = [p for p in first.active_players() if p not in part.known]
        hit = {**part.known, **reserves(first, rest, **reserve_kw(first, settings, caches))}
        hit = {p: hit[p] for p in first.active_players()}
    memory.reserves[key] = hit
    return hit


def reserve_of(state: GameState, player: int, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> int:
    """``player``'s reserve alone (a bid's risk cap needs no other): from the reserves kept when
    they have the holdings, else computed in the first state met with them and kept as a partial
    entry.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.
    settings : AgentSettings
        ``reserve_turns``.
    memory : AgentMemory
        The reserves kept.
    caches : DecisionCaches
        The caches.

    Returns
    -------
    int
        Dollars.

    Examples
    --------
    >>> from models.io import load_state
    >>> s, memory = load_state("instances/late-game-house-shortage.json"), AgentMemory()
    >>> reserve_of(s, 0, AgentSettings(), memory, DecisionCaches()) == memory.partial[holdings_key(s)].known[0]
    True
    """
    key = holdings_key(state)
    hit = memory.reserves.get(key)
    if hit is not None:
        return hit.get(player, 0)
    if settings.reserve_turns == 0 or state.players[player].bankrupt:
        return 0
    part = memory.partial.get(key)
    if part is None:
        _bound(memory)
        part = memory.partial[key] = ReserveEntry(Snapshot.of(state))
    if player not in part.known:
        first = part.anchor.on(state)
        part.known[player] = cash_reserve(first, player, **reserve_kw(first, settings, caches))
    return part.known[player]


__all__ = ["chain_of", "reserve_kw", "reserve_of", "reserves_for"]
