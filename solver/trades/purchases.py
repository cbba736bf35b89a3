"""Single-lot purchases the generator does not propose: denial and consolidation.

Denial
------

The generator (:mod:`solver.trades.space`, :mod:`solver.trades.cpsat`) proposes
trades that complete or advance the proposer's own partial sets. It never
proposes buying a lot of a group the proposer holds none of, although that is
often the strongest move left to a player without a set: when an opponent
``R`` is one lot short of a group whose last lot another opponent ``Q``
holds, ``R`` and ``Q`` will swap or sell as soon as either finds a price, and
the proposer faces one more monopoly. Buying ``Q``'s lot (or one of ``R``'s)
first leaves ``R`` needing a lot that the proposer holds, so any later
completion goes through the proposer, at its price.

A denial purchase is a bilateral candidate (``kind="bilateral"``, players
``(proposer, holder)``): one lot from the holder for cash at the lot's
printed price. It is only a candidate: the caller re-scores it by
simulation on common dice like every other candidate (the value of denial
is the opponents' trades it prevents, which the linear generator's value
cannot see and the trading rollout policy plays), prices it by bargaining,
and keeps it only when the proposer gains beyond the noise.

Which lots (all conditions together)
    * a colour group (railroads and utilities have no monopoly) without
      buildings, every lot owned by a player (a lot still in the bank is the
      auction's question: :mod:`solver.bidding.contest`);
    * the proposer holds none of it (holding one already blocks; buying a
      piece of its own partial set is the generator's job);
    * some opponent holds exactly one lot fewer than the set size
      (:meth:`models.state.GameState.set_size`) and none holds the set;
    * every lot of the group held by an active opponent is a candidate: the
      missing lot from its holder first, then the one-short opponent's own
      lots (either purchase leaves that opponent one lot further away);
    * the proposer keeps its cash reserve after paying (rule 4 of
      :mod:`solver.trades.rules`).

Candidates are ordered by the group's printed value (the sum of its lots'
prices: dearer sets collect more rent), then as above, and cut at ``limit``.

Denial before the bank's lot is sold
------------------------------------
Where the last lot of a group is still in the bank, an opponent one lot short
completes the group by landing on it and buying it, with no trade to go through
(against three ``strategic``, the first set of nearly a quarter of ``subgraph``'s
games was bought so, two-lot groups most often: docs/benchmarks.md, "Where the
games are lost"). A *bank denial* buys one of that opponent's own lots of the
group first, so that the bank's lot no longer completes anything for it
(``subgraph``'s ``deny_bank``). Which lots: a colour group without buildings
whose lots are held by players except exactly one still in the bank, the
proposer holding none of it, an active opponent holding all the others; each
of that opponent's lots of the group, for cash at its printed price, within the
proposer's reserve. Ordered and judged like denial purchases
(:func:`bank_denial_candidates`).

Consolidation
-------------
A player holding one lot of each of several three-lot groups, the other
lots spread over two opponents, has no partial set in the generator's sense
(:func:`solver.analysis.subgraph.analyze`: the missing pieces must come
from one opponent) and so nothing to trade for: it can complete nothing in
one trade, and nobody needs a swap with it. Buying one more lot of such a
group makes it one lot short, with a single opponent holding the last lot:
a partial set the generator can then complete, and a piece that opponent
needs. A consolidation purchase is one lot, bought for cash at its printed
price, of a colour group without buildings and without lots in the bank,
where the proposer holds at least one lot, fewer than the set size minus
one, and no opponent holds enough to make the group a partial set of the
proposer's (its missing lots are held by two or more opponents). Ordered
like denial purchases (dearer groups first, then square). Its value is the
trades it makes possible later, so re-scoring sees it only when the
proposer trades in the rollouts (``RescoreSettings.holding`` off).
"""

from __future__ import annotations

from collections import Counter

from models.state import BANK, GameState
from models.trade import Trade
from solver.trades.space import Candidate, TradeKind, with_cash

DENY = 3
"""Denial purchases the agent (``subgraph``'s ``deny``) and ``solve --mode best`` consider per search."""


def _open_groups(state: GameState) -> list[tuple[int, tuple[int, ...], list[int]]]:
    """Each colour group without buildings and without a lot in the bank: its set size, its lots
    and their owners."""
    out = []
    for group in state.board.street_groups:
        lots = state.board.groups[group]
        held = [state.owner[sq] for sq in lots]
        if BANK not in held and not state.group_has_buildings(group):
            out.append((state.set_size(group), lots, held))
    return out


def _purchase(state: GameState, proposer: int, square: int, reserve: int) -> Candidate | None:
    """``square`` bought from its holder at its printed price, or ``None`` when the holder is out
    or the price would take the proposer below ``reserve``."""
    q = state.owner[square]
    price = state.board.squares[square].price
    if state.players[q].bankrupt or state.players[proposer].cash - price < reserve:
        return None
    return with_cash(TradeKind.BILATERAL, (proposer, q), [(square, q, proposer)], [(q, price)])


def denial_candidates(state: GameState, proposer: int, limit: int, reserve: int = 0) -> list[Candidate]:
    """The denial purchases open to ``proposer`` in ``state`` (module docstring), best first.

    Parameters
    ----------
    state:
        The position.
    proposer:
        The buyer's player index.
    limit:
        At most this many candidates (0: none).
    reserve:
        Cash the proposer keeps after paying; a lot whose price would take it
        below is left out.
    """
    if limit <= 0:
        return []
    ranked: list[tuple[int, int, Candidate]] = []
    for size, lots, held in _open_groups(state):
        if proposer in held:
            continue
        counts = Counter(held)
        if any(k >= size for k in counts.values()):
            continue
        threats = {r for r, k in counts.items() if k == size - 1}
        if not threats:
            continue
        value = sum(state.board.squares[sq].price for sq in lots)
        for sq in lots:
            cand = _purchase(state, proposer, sq, reserve)
            if cand is not None:
                ranked.append((-value, 1 if state.owner[sq] in threats else 0, cand))  # the missing lot first
    ranked.sort(key=lambda t: (t[0], t[1], t[2].moves))
    return [c for _, _, c in ranked[:limit]]


def bank_denial_candidates(state: GameState, proposer: int, limit: int, reserve: int = 0) -> list[Candidate]:
    """The bank denial purchases open to ``proposer`` in ``state`` (module docstring), best first.

    Parameters
    ----------
    state:
        The position.
    proposer:
        The buyer's player index.
    limit:
        At most this many candidates (0: none).
    reserve:
        Cash the proposer keeps after paying; a lot whose price would take it below is left out.

    Returns
    -------
    list of Candidate
        One lot each, from the opponent one lot short, at its printed price.

    Examples
    --------
    Cy holds Park Place and Boardwalk is still in the bank: Ann may buy Park Place.

    >>> from models.io import load_state
    >>> s = load_state("instances/opening.json")
    >>> s.owner[37] = 2
    >>> [c.to_trade(s).properties_received("Ann") for c in bank_denial_candidates(s, 0, 3)]
    [['Park Place']]
    >>> s.owner[39] = 1  # Boardwalk sold to Bob: no longer the bank's question
    >>> bank_denial_candidates(s, 0, 3)
    []
    """
    if limit <= 0:
        return []
    ranked: list[tuple[int, int, Candidate]] = []
    for group in state.board.street_groups:
        lots = state.board.groups[group]
        held = [state.owner[sq] for sq in lots]
        if held.count(BANK) != 1 or proposer in held or state.group_has_buildings(group):
            continue
        holders = {h for h in held if h != BANK}
        if len(holders) != 1:
            continue
        value = sum(state.board.squares[sq].price for sq in lots)
        for sq in lots:
            cand = _purchase(state, proposer, sq, reserve) if state.owner[sq] != BANK else None
            if cand is not None:
                ranked.append((-value, sq, cand))
    ranked.sort(key=lambda t: (t[0], t[1]))
    return [c for _, _, c in ranked[:limit]]


def outside_purchase_price(state: GameState, proposer: int, trade: Trade) -> int | None:
    """The printed price of the lot ``trade`` buys for ``proposer`` when it is a *purchase outside
    the proposer's holdings*, else ``None``.

    Such a purchase (what ``subgraph``'s ``purchase_cap`` bounds) is a trade between two players
    in which the proposer receives exactly one lot and gives none, and holds no lot of that lot's
    group (any group: colour, railroads, utilities). Denial and bank denial purchases are of this
    kind; consolidation purchases (the proposer holds a lot of the group) and the generator's
    trades (they complete or advance the proposer's own sets) are not.

    Parameters
    ----------
    state : GameState
        The position before the trade.
    proposer : int
        The buyer's player index.
    trade : Trade
        The trade to classify.

    Returns
    -------
    int or None
        The lot's printed price, or ``None`` when the trade is not such a purchase.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/opening.json")
    >>> s.owner[37] = 2
    >>> outside_purchase_price(s, 0, Trade.bilateral("Ann", "Cy", [], ["Park Place"], 400))
    350
    >>> s.owner[39] = 0  # Ann holds Boardwalk: buying Park Place completes her own group
    >>> outside_purchase_price(s, 0, Trade.bilateral("Ann", "Cy", [], ["Park Place"], 400)) is None
    True
    """
    me = state.players[proposer].name
    got = trade.properties_received(me)
    if len(trade.participants()) != 2 or len(got) != 1 or trade.properties_given(me):
        return None
    square = state.square_of(got[0])
    if any(state.owner[sq] == proposer for sq in state.board.groups[state.group_of(square)]):
        return None
    return state.board.squares[square].price


def consolidation_candidates(state: GameState, proposer: int, limit: int, reserve: int = 0) -> list[Candidate]:
    """The consolidation purchases open to ``proposer`` in ``state`` (module docstring), best
    first; ``limit`` and ``reserve`` as for :func:`denial_candidates`."""
    if limit <= 0:
        return []
    ranked: list[tuple[int, int, Candidate]] = []
    for size, lots, held in _open_groups(state):
        mine = held.count(proposer)
        if not 1 <= mine < size - 1 or len({h for h in held if h != proposer}) < 2:
            continue
        value = sum(state.board.squares[sq].price for sq in lots)
        for sq in lots:
            cand = _purchase(state, proposer, sq, reserve) if state.owner[sq] != proposer else None
            if cand is not None:
                ranked.append((-value, sq, cand))
    ranked.sort(key=lambda t: (t[0], t[1]))
    return [c for _, _, c in ranked[:limit]]


__all__ = ["DENY", "bank_denial_candidates", "consolidation_candidates", "denial_candidates", "outside_purchase_price"]
