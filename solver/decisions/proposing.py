"""Proposing a trade: the search, the queue of its ranking, pricing and haggling.

The agent searches (:mod:`solver.decisions.trade_search`) when the position changed since its last
search (the search key, :func:`solver.decisions.keys.search_position`: owners, buildings,
mortgages and its cash bucket, :func:`cash_bucket`) and it has a partial set that trading could
complete or a purchase to consider (denial and consolidation purchases, ``deny``,
``consolidate``): first the bilateral search (on the relaxed model with ``relax``), then, when
no bilateral trade qualifies and ``cycles`` is on, strict 3-cycles. No search is repeated on an
unchanged position.

A search keeps every qualifying trade, best first, one per set of counterparties with
``offers=2`` (the memory's queue, :attr:`AgentMemory.queue`); while the key does not change, the
next one not refused (:func:`closed`) and still allowed by the host (``view.why_not_trade``) is
offered without searching again, priced for play (:mod:`solver.decisions.pricing`). An opponent
that has refused ``deaf_after`` offers and accepted none is offered nothing more, and while every
opponent is such no search runs (:func:`deaf_seats`). A refused
structure comes back at a better price with ``haggle`` (2: at once, next in the queue; 1: when a
later search ranks it); ``recall`` forgets a refusal after that many rounds. A trade the host
refused in this position is not offered again there.
"""

from __future__ import annotations

from engine.rules.actions import ProposeTrade
from engine.rules.view import GameView
from models.state import GameState
from models.trade import Trade
from solver.agents.strategic import trade_key
from solver.decisions.caches import DecisionCaches
from solver.decisions.choice import AgentChoice
from solver.decisions.keys import digest, search_position
from solver.decisions.memory import AgentMemory, Queued
from solver.decisions.pricing import offer_for
from solver.decisions.reserves import reserve_of
from solver.decisions.settings import AgentSettings
from solver.decisions.trade_search import may_haggle, search
from solver.trades.purchases import bank_denial_candidates, consolidation_candidates, denial_candidates
from solver.trades.space import Candidate, TradeSpace


def cash_bucket(cash: int, settings: AgentSettings) -> int:
    """The cash part of the search key: ``cash // cash_step`` (``cash_key="linear"``), or with
    ``"geometric"`` the same below ``2 cash_step`` and then one bucket per doubling (a rich
    player's cash moves between searches without changing much what it can afford).

    Parameters
    ----------
    cash : int
        The agent's cash.
    settings : AgentSettings
        ``cash_step``, ``cash_key``.

    Returns
    -------
    int

    Examples
    --------
    >>> [cash_bucket(c, AgentSettings()) for c in (0, 149, 150, 299, 300, 599, 600, 1200)]
    [0, 0, 1, 1, 2, 2, 3, 4]
    """
    k = max(cash, 0) // settings.cash_step
    if settings.cash_key == "linear" or k < 2:
        return k
    return 1 + int(k).bit_length() - 1


def closed(queued: Queued, settings: AgentSettings, memory: AgentMemory) -> bool:
    """Whether a structure may not be offered again: it stands refused, and it cannot come back at
    a better price (``haggle`` off, not a bilateral trade priced for play, or refused at a price
    never recorded).

    Parameters
    ----------
    queued : Queued
        The structure.
    settings : AgentSettings
        ``haggle``, ``price``, ``recall``.
    memory : AgentMemory
        The refusals and price floors.

    Returns
    -------
    bool

    Examples
    --------
    >>> q = Queued(Trade.bilateral("Ann", "Bob", [], ["Boardwalk"], 300), "bilateral", (0, 1), {})
    >>> m = AgentMemory(); m.refused[trade_key(q.trade)] = 0
    >>> closed(q, AgentSettings(), m), (m.refused_at.update({trade_key(q.trade): 300}), closed(q, AgentSettings(), m))[1]
    (True, False)
    """
    key = trade_key(queued.trade)
    if not memory.refused_now(key, settings.recall):
        return False
    return not (may_haggle(queued.kind, settings) and key in memory.refused_at)


def deaf_seats(state: GameState, me: int, settings: AgentSettings, memory: AgentMemory) -> set[str]:
    """The opponents offered nothing more (``deaf_after``: each has answered at least that many of
    the agent's offers and accepted none, :meth:`~solver.agents.opponent_model.OpponentModels.deaf`).

    Parameters
    ----------
    state : GameState
        The position.
    me : int
        The agent's seat.
    settings : AgentSettings
        ``deaf_after``.
    memory : AgentMemory
        The opponents' answers.

    Returns
    -------
    set of str
        Their names.

    Examples
    --------
    >>> import numpy as np
    >>> from models.io import load_state
    >>> s, m = load_state("instances/midgame-no-monopolies.json"), AgentMemory()
    >>> for _ in range(3):
    ...     m.opponents.model(1).observe(np.array([1.0, 0.05, 1.0, 0.0, 0.0, 0.0]), False)
    >>> deaf_seats(s, 0, AgentSettings(deaf_after=3), m), deaf_seats(s, 0, AgentSettings(), m)
    ({'Bob'}, set())
    """
    return {p.name for q, p in enumerate(state.players) if q != me and memory.opponents.deaf(q, settings.deaf_after)}


def nobody_listens(state: GameState, me: int, deaf: set[str]) -> bool:
    """Whether every opponent still in the game is deaf (then no search runs).

    Parameters
    ----------
    state : GameState
        The position.
    me : int
        The agent's seat.
    deaf : set of str
        The deaf opponents' names (:func:`deaf_seats`).

    Returns
    -------
    bool

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> nobody_listens(s, 0, {"Bob", "Cy"}), nobody_listens(s, 0, {"Bob", "Cy", "Dee"}), nobody_listens(s, 0, set())
    (False, True, False)
    """
    return bool(deaf) and all(p.bankrupt or p.name in deaf for q, p in enumerate(state.players) if q != me)


def fresh_queue(state: GameState, me: int, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> list[Queued]:
    """The ranking of a new search (module docstring); empty without a partial set or a purchase.

    Parameters
    ----------
    state : GameState
        The position.
    me : int
        The agent's seat.
    settings : AgentSettings
        The search's options.
    memory : AgentMemory
        The agent's memory (the search count is incremented when a search runs).
    caches : DecisionCaches
        The caches.

    Returns
    -------
    list of Queued
        Best first; with ``offers=2``, one per set of counterparties.

    Examples
    --------
    >>> from models.io import load_state
    >>> m = AgentMemory()
    >>> queue = fresh_queue(load_state("instances/opening.json"), 0, AgentSettings(), m, DecisionCaches())
    >>> queue, m.searches  # nothing to complete, nothing to buy: no search
    ([], 0)
    """
    names = [p.name for p in state.players]
    deaf = deaf_seats(state, me, settings, memory)
    if nobody_listens(state, me, deaf):
        return []
    space = TradeSpace(state, me)
    partial = bool(space.needed[me])  # bilateral and cyclic trades both need a partial set of the proposer
    extra: list[Candidate] = []
    if settings.deny or settings.consolidate or settings.deny_bank:
        keep = reserve_of(state, me, settings, memory, caches)
        extra = denial_candidates(state, me, settings.deny, keep) + consolidation_candidates(state, me, settings.consolidate, keep)
        extra += bank_denial_candidates(state, me, settings.deny_bank, keep)
        extra = [c for c in extra if not any(names[q] in deaf for q in c.players)]
    if not partial and not extra:
        return []
    memory.searches += 1

    def heard(queue: list[Queued]) -> list[Queued]:  # what a deaf opponent would have to accept is not offered (nor priced)
        return [q for q in queue if not deaf.intersection(q.trade.participants())] if deaf else queue

    found = heard(search(state, me, settings, memory, caches, cycles=False, relaxed=settings.relax, extra=extra, generate=partial))
    if not found and settings.cycles and partial:
        found = heard(search(state, me, settings, memory, caches, cycles=True))
    if settings.offers > 1:  # one trade per counterparty set, best first
        seen: set[tuple[str, ...]] = set()
        spread = []
        for q in found:
            who = tuple(sorted(n for n in q.trade.participants() if n != state.players[me].name))
            if who not in seen:
                seen.add(who)
                spread.append(q)
        return spread
    return found[:1]


def describe(trade: Trade) -> str:
    """A trade in words: each transfer's lots and cash.

    Parameters
    ----------
    trade : Trade
        The trade.

    Returns
    -------
    str

    Examples
    --------
    >>> describe(Trade.bilateral("Ann", "Bob", ["Baltic Avenue"], ["Boardwalk"], 50))
    'Ann gives Baltic Avenue + $50 to Bob; Bob gives Boardwalk to Ann'
    """
    legs = []
    for t in trade.transfers:
        items = [*t.properties, *([f"${t.cash}"] if t.cash else []), *([f"{t.jail_cards} jail card(s)"] if t.jail_cards else [])]
        legs.append(f"{t.frm} gives {' + '.join(items)} to {t.to}")
    return "; ".join(legs)


def propose_choice(view: GameView, me: int, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> AgentChoice:
    """The trade to propose now, or none (module docstring).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The agent's seat.
    settings : AgentSettings
        The agent's options.
    memory : AgentMemory
        Its memory: the queue (consumed), the search key, the offer waiting for an answer, the
        trading habits (one look per round with ``trade_model="observed"``).
    caches : DecisionCaches
        The caches.

    Returns
    -------
    AgentChoice
        ``question`` ``act``; ``answer`` a ``Trade`` or ``None``; ``method`` ``simulation``;
        details ``win_delta`` (the search's, for the structure offered).

    Examples
    --------
    Connecticut Avenue completes Ann's light blues; Cy holds it (16 games, for the example):

    >>> from models.io import load_state
    >>> m = AgentMemory()
    >>> c = propose_choice(GameView(load_state("instances/midgame-no-monopolies.json"), 0), 0, AgentSettings(rollouts=16), m, DecisionCaches())
    >>> c.answer.properties_received("Ann"), m.searches, m.offers_made
    (['Connecticut Avenue'], 1, 1)
    """
    state = view.copy()
    if settings.trade_model == "observed":
        memory.habits.look(state, me, memory.round)
    key = digest("search", *search_position(state, cash_bucket(state.players[me].cash, settings)))
    searched_now = key != memory.search_key
    searches = memory.searches
    if searched_now:
        memory.search_key = key
        memory.queue = fresh_queue(state, me, settings, memory, caches)
    ranked = len(memory.queue)
    # the kept ranking: nothing relevant changed since the search, so its next trade not refused
    # yet is offered (with ``offers`` > 1, to another opponent in the same phase)
    deaf = deaf_seats(state, me, settings, memory)
    while memory.queue:
        q = memory.queue.pop(0)
        if closed(q, settings, memory) or deaf.intersection(q.trade.participants()):
            continue
        if view.why_not_trade(q.trade) is not None:  # the host's check: a trade ranked earlier may no longer be payable
            continue
        offer = offer_for(state, me, q, settings, memory, caches)
        if offer is not None and not memory.refusals.refused(view, ProposeTrade(offer)):
            memory.pending = q
            gain = q.win_delta.get(state.players[me].name, 0.0)
            why = f"propose {describe(offer)}: the search's simulated gain in win probability {gain:+.3f}, priced for play"
            return AgentChoice("act", offer, "propose_trade", why, "simulation", {"win_delta": dict(q.win_delta)})
    if searched_now and memory.searches == searches and nobody_listens(state, me, deaf):
        why = f"every opponent has refused the last {settings.deaf_after} or more of its offers and accepted none (deaf_after): no trade search"
    elif searched_now and memory.searches == searches:
        why = "no partial set that trading could complete and no purchase to consider: no trade search"
    elif searched_now:
        why = f"the trade search found {ranked} trade(s) it gains from and none can be offered" if ranked else "the trade search found no trade it gains from beyond the noise"
    else:
        why = "the position is unchanged since the last trade search, whose ranking is spent"
    return AgentChoice("act", None, "hold", why, "simulation")


__all__ = ["cash_bucket", "closed", "deaf_seats", "describe", "fresh_queue", "nobody_listens", "propose_choice"]
