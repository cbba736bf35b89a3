"""The space of trades a proposer may generate: its settings, its candidates and their after-states.

One definition shared by the explicit enumerator (:mod:`solver.trades.candidates`)
and the CP-SAT model (:mod:`solver.trades.cpsat`), so that the two can be checked
against each other exactly. The values of a candidate are in
:mod:`solver.trades.values`, the rules that prune candidates in
:mod:`solver.trades.rules`.

Structures (proposer ``P``; seed 000, Phases 2 and 3)
    *bilateral* with an opponent ``Q``: ``Q`` gives a non-empty subset of the
    pieces of **one** of ``P``'s partial sets that ``Q`` holds
    (:func:`solver.analysis.subgraph.analyze`); ``P`` gives at most ``max_offer`` of
    its tradeable properties outside that group (possibly none: a purchase
    for cash); ``P`` pays ``Q`` an amount from ``cash_grid`` (negative: ``Q``
    pays ``P``).
    *3-cycle* ``P -> B -> C -> P`` for an ordered pair of distinct
    opponents: along each arc ``X -> Y``, ``X`` gives 1 to ``max_arc`` of its
    tradeable properties that are needed pieces of ``Y``'s partial sets; ``P``
    pays ``B`` and ``C`` amounts from ``cycle_cash_grid``.
Tradeable
    A property whose colour group carries no buildings and is not a complete
    set of its owner (railroads and utilities are tradeable; a set its owner
    holds completely is never offered).
After-state
    :func:`after_state`: owners changed, cash moved, and each receiver of a
    mortgaged lot pays its interest at once and keeps the mortgage (the
    trade's moves are :func:`models.trade.apply_moves`, the one
    implementation that :meth:`models.trade.Trade.apply` uses too).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from models.names import Name
from models.state import BANK, GameState
from models.trade import Trade, Transfer, apply_moves
from solver.analysis.subgraph import analyze

COUNT_GROUPS = ("railroad", "utility")
"""The groups whose rent counts the lots held: never a colour set, always tradeable."""


@dataclass(frozen=True)
class TradeSettings:
    """Knobs of the trade space and the rules (defaults are the product's).

    Parameters
    ----------
    cash_grid:
        The amounts the proposer pays the partner of a bilateral trade (negative: the partner pays).
    cycle_cash_grid:
        The amounts the proposer pays each partner of a 3-cycle.
    max_offer:
        The most properties the proposer gives in a bilateral trade.
    max_arc:
        The most properties along each arc of a 3-cycle.
    min_gain:
        Rule 3's least gain of a counterparty under a dollar value
        (:class:`~solver.trades.values.LinearValues`, :class:`~solver.trades.values.FrontierValues`).
    horizon:
        Rounds of expected rent in the dollar values.
    reserve_epsilon:
        The ruin probability of the cash reserves of rule 4 (:func:`solver.analysis.reserve.reserves`).
    value_reserve:
        The cash ``frontier_value`` keeps back when planning development.
    value:
        The generator's value: ``"fitted"`` (:mod:`solver.trades.value_model`) or ``"linear"``.
    min_win_gain, min_own_win_gain:
        Rules 3 and 2 under the fitted value: the least predicted gain of each
        counterparty and of the proposer, in win probability. 0.04 each, with the
        balanced objective, was chosen on states of seed 14
        (``bench/generation_quality.py``) as the least margin of 0.02 / 0.03 / 0.04
        whose proposals reach 60% precision (Nash zone after re-scoring): 55%, 60%
        (59.7), 71%.
    objective:
        CP-SAT's ranking: ``"balanced"`` (2 x least gain + proposer's) or
        ``"proposer"`` (its gain).

    Examples
    --------
    >>> TradeSettings().cash_grid
    (-100, 0, 50, 100, 150, 200, 300, 400)
    """

    cash_grid: tuple[int, ...] = (-100, 0, 50, 100, 150, 200, 300, 400)
    cycle_cash_grid: tuple[int, ...] = (-100, 0, 100, 200)
    max_offer: int = 1
    max_arc: int = 2
    min_gain: int = 10
    horizon: int = 20
    reserve_epsilon: float = 0.05
    value_reserve: int = 150
    value: str = "fitted"
    min_win_gain: float = 0.04
    min_own_win_gain: float = 0.04
    objective: str = "balanced"


class TradeKind(Name):
    """The shapes of a trade the search builds (:attr:`Candidate.kind`, the ``kind`` of the
    JSON outputs).

    Examples
    --------
    >>> TradeKind.BILATERAL == "bilateral", [str(k) for k in TradeKind]
    (True, ['bilateral', 'cycle3'])
    """

    BILATERAL = "bilateral"
    """Two players swap lots, with cash either way."""
    CYCLE3 = "cycle3"
    """Three players, each giving the next a lot: ``P -> B -> C -> P``, with cash."""


@dataclass(frozen=True, order=True)
class Candidate:
    """One trade of the space, by player and square indices (ordered: the search's tie-break).

    Parameters
    ----------
    kind:
        ``"bilateral"`` or ``"cycle3"``.
    players:
        ``(P, Q)`` or the cycle ``(P, B, C)``; the proposer first.
    moves:
        Sorted ``(square, from, to)``.
    cash:
        Sorted ``(payer, payee, amount)`` with ``amount > 0``.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> c = with_cash("bilateral", (0, 1), [(s.square_of("Reading Railroad"), 0, 1)], [(1, -50)])
    >>> c.net_cash(0), c.structure
    (50, ('bilateral', (0, 1)))
    >>> [t.to_dict() for t in c.to_trade(s).transfers]  # doctest: +NORMALIZE_WHITESPACE
    [{'from': 'Ann', 'to': 'Bob', 'properties': ['Reading Railroad'], 'cash': 0, 'jail_cards': 0},
     {'from': 'Bob', 'to': 'Ann', 'properties': [], 'cash': 50, 'jail_cards': 0}]
    """

    kind: TradeKind
    players: tuple[int, ...]
    moves: tuple[tuple[int, int, int], ...]
    cash: tuple[tuple[int, int, int], ...] = ()

    @property
    def structure(self) -> tuple[TradeKind, tuple[int, ...]]:
        """``(kind, players)``: what rule 5 compares within."""
        return (self.kind, self.players)

    def move_set(self) -> frozenset[tuple[int, int, int]]:
        """The moves as a set."""
        return frozenset(self.moves)

    def net_cash(self, player: int) -> int:
        """Cash ``player`` receives less cash it pays."""
        return sum(a for _, b, a in self.cash if b == player) - sum(a for p, _, a in self.cash if p == player)

    def to_trade(self, state: GameState) -> Trade:
        """The same trade by names: one transfer per (giver, receiver), in that order."""
        names = [p.name for p in state.players]
        legs: dict[tuple[int, int], tuple[list[str], int]] = {}
        for sq, a, b in self.moves:
            legs.setdefault((a, b), ([], 0))[0].append(state.board.squares[sq].name)
        for a, b, amount in self.cash:
            props, cash = legs.get((a, b), ([], 0))
            legs[(a, b)] = (props, cash + amount)
        return Trade(tuple(Transfer(names[a], names[b], tuple(p), c) for (a, b), (p, c) in sorted(legs.items())))


def with_cash(kind: TradeKind, players: tuple[int, ...], moves: Sequence[tuple[int, int, int]], pays: Sequence[tuple[int, int]]) -> Candidate:
    """A candidate where the proposer ``players[0]`` pays ``amount`` to each ``(partner, amount)``.

    Parameters
    ----------
    kind, players:
        As :class:`Candidate`'s.
    moves:
        ``(square, from, to)`` in any order.
    pays:
        ``(partner, amount)``: a negative amount is paid by the partner, 0 is no payment.

    Returns
    -------
    Candidate
        With moves and payments sorted.

    Examples
    --------
    >>> with_cash("bilateral", (0, 2), [(5, 2, 0)], [(2, -100)]).cash
    ((2, 0, 100),)
    """
    p = players[0]
    cash = []
    for q, amount in pays:
        if amount > 0:
            cash.append((p, q, amount))
        elif amount < 0:
            cash.append((q, p, -amount))
    return Candidate(kind, players, tuple(sorted(moves)), tuple(sorted(cash)))


def after_state(state: GameState, cand: Candidate) -> GameState:
    """The state after ``cand``, unchecked (a copy; ``state`` is left alone).

    Owners change and cash moves; each receiver of a mortgaged lot pays its
    interest at once and keeps the mortgage. The moves are
    :func:`models.trade.apply_moves`'s, without :meth:`models.trade.Trade.validate`:
    the pruning funnel needs the after-state of every candidate, those a payer
    cannot afford included (rule 4 counts them), and checking would cost five
    times the moves on the funnel's hot path (:func:`models.trade.apply_moves`).

    Parameters
    ----------
    state:
        The state before the trade.
    cand:
        The trade.

    Returns
    -------
    GameState
        The state after it.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> rr = s.square_of("Reading Railroad")
    >>> after = after_state(s, with_cash("bilateral", (0, 1), [(rr, 0, 1)], [(1, -50)]))
    >>> after.owner[rr], after.players[0].cash, s.players[0].cash
    (1, 470, 420)
    """
    s = state.copy()
    apply_moves(s, cand.moves, cand.cash)
    return s


@dataclass
class TradeSpace:
    """What ``proposer`` may trade in ``state`` (module docstring).

    Parameters
    ----------
    state:
        The position.
    proposer:
        The proposer's player index.
    settings:
        The space's knobs and the rules' floors.
    reserves:
        Each player's cash reserve for rule 4 (a missing player: 0).

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> space = TradeSpace(s, 0)
    >>> space.opponents
    (1, 2, 3)
    >>> [s.board.squares[sq].name for sq in space.needed_from(0, 1)]
    ['New York Avenue', 'Indiana Avenue', 'Illinois Avenue']
    """

    state: GameState
    proposer: int
    settings: TradeSettings = field(default_factory=TradeSettings)
    reserves: dict[int, int] = field(default_factory=dict)

    @cached_property
    def opponents(self) -> tuple[int, ...]:
        """The other active players."""
        return tuple(i for i in self.state.active_players() if i != self.proposer)

    @cached_property
    def participants(self) -> tuple[int, ...]:
        """The proposer, then its opponents."""
        return (self.proposer, *self.opponents)

    def tradeable(self, player: int) -> tuple[int, ...]:
        """``player``'s tradeable properties (module docstring), by square."""
        s = self.state
        out = []
        for sq in s.properties_of(player):
            g = s.group_of(sq)
            if s.group_has_buildings(g):
                continue
            if g not in COUNT_GROUPS and s.has_monopoly(player, g):
                continue
            out.append(sq)
        return tuple(out)

    @cached_property
    def needed(self) -> dict[int, dict[str, dict[int, tuple[int, ...]]]]:
        """``needed[i][group][holder]``: pieces of ``i``'s partial set ``group`` held by
        opponent ``holder`` (tradeable by it)."""
        out: dict[int, dict[str, dict[int, tuple[int, ...]]]] = {}
        for i in self.participants:
            groups: dict[str, dict[int, tuple[int, ...]]] = {}
            for ps in analyze(self.state, i).partial_sets:
                by: dict[int, list[int]] = {}
                for sq, h in sorted(ps.held_by.items()):
                    if h != BANK and h != i and sq in self.tradeable(h):
                        by.setdefault(h, []).append(sq)
                if by:
                    groups[ps.group] = {h: tuple(v) for h, v in by.items()}
            out[i] = groups
        return out

    def needed_from(self, receiver: int, giver: int) -> tuple[int, ...]:
        """Every piece ``giver`` holds that completes part of a partial set of ``receiver``."""
        return tuple(sorted(sq for g in self.needed[receiver].values() for sq in g.get(giver, ())))

    def offers(self, group: str) -> Iterator[tuple[int, ...]]:
        """The proposer's offers in a bilateral trade for pieces of ``group``."""
        pool = [sq for sq in self.tradeable(self.proposer) if self.state.group_of(sq) != group]
        for k in range(self.settings.max_offer + 1):
            yield from itertools.combinations(pool, k)

    def cycles(self) -> list[tuple[int, int, int]]:
        """Every 3-cycle ``(P, B, C)``: the ordered pairs of distinct opponents."""
        return [(self.proposer, b, c) for b, c in itertools.permutations(self.opponents, 2)]


__all__ = [
    "COUNT_GROUPS",
    "Candidate",
    "TradeSettings",
    "TradeSpace",
    "after_state",
    "with_cash",
]
