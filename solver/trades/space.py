"""The space of trades a proposer may generate, its values, and the four rules.

One definition shared by the explicit enumerator (:mod:`solver.trades.candidates`)
and the CP-SAT model (:mod:`solver.trades.cpsat`), so that the two can be checked
against each other exactly.

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
Values
    ``value_i = f_i(holdings) + cash_i``: the one scalar of the position
    analysis, :func:`solver.analysis.position.frontier_value` (expected rent over
    ``horizon`` rounds of the best affordable development), plus cash at face
    value (without it no sale for cash could please a seller). Receiving a
    mortgaged lot costs its interest at once (the receiver keeps the mortgage).
    :class:`LinearValues` is the linear estimate of it that the CP-SAT model
    can write: per player and group, a value for each count of lots held (see
    there). The generator's default value is not this one but the fitted
    prediction of each participant's change in win probability
    (:mod:`solver.trades.value_model`, ``TradeSettings.value``); both are
    :class:`GainTerms` per player, and rules 2 and 3 use the value's own
    floors (``min_gain`` in dollars; ``min_own_win_gain`` and
    ``min_win_gain`` in win probability).
Rules (applied in this order; :func:`rule_results`)
    1. ``completion``: when the trade completes a colour group for some
       participant, every participant must complete one (railroads and
       utilities never count);
    2. ``proposer``: the proposer's value does not fall;
    3. ``counterparty``: every other participant's value rises by at least
       ``min_gain`` (strictly more than before when ``min_gain`` is 0);
    4. ``cash``: every participant's cash after the trade stays at or above
       its reserve (:func:`solver.analysis.reserve.cash_reserve`; the planned
       development spends only cash above the reserve, so the reserve holds
       after it too), or, for a participant already below its reserve, does
       not fall: it may still swap lots or receive cash. (Before, such a
       participant had to *receive* the shortfall, so a player under pressure,
       whose reserve had risen above its cash, could make no trade at all.)
    5. ``domination`` (on survivors, per structure): drop a candidate when
       another with the same participants is at least as good for every
       participant and better for one.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from engine.chains.ept import railroad_ept, street_ept, utility_ept
from engine.chains.markov import PositionChain
from models.state import BANK, GameState
from models.trade import Trade, Transfer
from solver.analysis.frontier import Frontier, build_frontier, group_options
from solver.analysis.position import frontier_value
from solver.analysis.subgraph import analyze

RULES = ("completion", "proposer", "counterparty", "cash", "domination")
COUNT_GROUPS = ("railroad", "utility")


@dataclass(frozen=True)
class TradeSettings:
    """Knobs of the trade space and the rules (defaults are the product's)."""

    cash_grid: tuple[int, ...] = (-100, 0, 50, 100, 150, 200, 300, 400)
    cycle_cash_grid: tuple[int, ...] = (-100, 0, 100, 200)
    max_offer: int = 1
    max_arc: int = 2
    min_gain: int = 10
    horizon: int = 20
    reserve_epsilon: float = 0.05
    value_reserve: int = 150  # the cash ``frontier_value`` keeps back when planning development
    value: str = "fitted"  # the generator's value: "fitted" (solver.trades.value_model) or "linear"
    # rules 2 and 3 under the fitted value: the least predicted gain of the proposer and of each
    # counterparty, in win probability. 0.04 each, with the balanced objective, was chosen on
    # states of seed 14 (bench/generation_quality.py) as the least margin of 0.02 / 0.03 / 0.04
    # whose proposals reach 60% precision (Nash zone after re-scoring): 55%, 60% (59.7), 71%.
    min_win_gain: float = 0.04
    min_own_win_gain: float = 0.04
    objective: str = "balanced"  # CP-SAT's ranking: "balanced" (2 x least gain + proposer's) or "proposer" (its gain)


@dataclass(frozen=True, order=True)
class Candidate:
    """One trade. ``moves``: sorted ``(square, from, to)``; ``cash``: sorted
    ``(payer, payee, amount)`` with ``amount > 0``; ``players``: ``(P, Q)`` or
    the cycle ``(P, B, C)``."""

    kind: str
    players: tuple[int, ...]
    moves: tuple[tuple[int, int, int], ...]
    cash: tuple[tuple[int, int, int], ...] = ()

    @property
    def structure(self) -> tuple[str, tuple[int, ...]]:
        return (self.kind, self.players)

    def move_set(self) -> frozenset[tuple[int, int, int]]:
        return frozenset(self.moves)

    def net_cash(self, player: int) -> int:
        return sum(a for _, b, a in self.cash if b == player) - sum(a for p, _, a in self.cash if p == player)

    def to_trade(self, state: GameState) -> Trade:
        names = [p.name for p in state.players]
        legs: dict[tuple[int, int], tuple[list[str], int]] = {}
        for sq, a, b in self.moves:
            legs.setdefault((a, b), ([], 0))[0].append(state.board.squares[sq].name)
        for a, b, amount in self.cash:
            props, cash = legs.get((a, b), ([], 0))
            legs[(a, b)] = (props, cash + amount)
        return Trade(tuple(Transfer(names[a], names[b], tuple(p), c) for (a, b), (p, c) in sorted(legs.items())))


def with_cash(kind: str, players: tuple[int, ...], moves: Sequence[tuple[int, int, int]], pays: Sequence[tuple[int, int]]) -> Candidate:
    """A candidate where the proposer ``players[0]`` pays ``amount`` to each ``(partner, amount)``
    (a negative amount is paid by the partner)."""
    p = players[0]
    cash = []
    for q, amount in pays:
        if amount > 0:
            cash.append((p, q, amount))
        elif amount < 0:
            cash.append((q, p, -amount))
    return Candidate(kind, players, tuple(sorted(moves)), tuple(sorted(cash)))


# ---------------------------------------------------------------------------
# the space
# ---------------------------------------------------------------------------
@dataclass
class TradeSpace:
    """What ``proposer`` may trade in ``state`` (module docstring)."""

    state: GameState
    proposer: int
    settings: TradeSettings = field(default_factory=TradeSettings)
    reserves: dict[int, int] = field(default_factory=dict)

    @cached_property
    def opponents(self) -> tuple[int, ...]:
        return tuple(i for i in self.state.active_players() if i != self.proposer)

    @cached_property
    def participants(self) -> tuple[int, ...]:
        return (self.proposer, *self.opponents)

    def tradeable(self, player: int) -> tuple[int, ...]:
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
        return [(self.proposer, b, c) for b, c in itertools.permutations(self.opponents, 2)]


# ---------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------
def after_state(state: GameState, cand: Candidate) -> GameState:
    """The state after the trade: owners changed, cash moved, interest on received
    mortgaged lots paid (the receiver keeps the mortgage)."""
    s = state.copy()
    for sq, _a, b in cand.moves:
        s.owner[sq] = b
        if s.mortgaged[sq]:
            s.players[b].cash -= s.rules.interest(s.mortgage_value(sq))
    for a, b, amount in cand.cash:
        s.players[a].cash -= amount
        s.players[b].cash += amount
    return s


ValueFn = Callable[[GameState, int], float]


class FrontierValues:
    """``frontier_value + cash``, for the after-states of one state (trades move owners
    and cash only: buildings, mortgages and the bank's supply stay).

    Cached by (player, holdings, cash). The exact frontier, the costly part,
    does not depend on the cash and reads only the player's lots of its
    complete groups, so it is kept per (player, those lots) and shared by every
    amount of the cash grid.
    """

    def __init__(self, state: GameState, settings: TradeSettings, chain: PositionChain | None = None) -> None:
        self.chain = chain or PositionChain(state.board, state.rules, "long")
        self.settings = settings
        self._cache: dict[tuple[int, tuple[int, ...], int], float] = {}
        self._frontiers: dict[tuple[int, tuple[int, ...]], Frontier] = {}

    def __call__(self, state: GameState, player: int) -> float:
        holdings = tuple(sq for sq in state.board.property_squares if state.owner[sq] == player)
        key = (player, holdings, state.players[player].cash)
        hit = self._cache.get(key)
        if hit is None:
            complete = set(state.complete_groups(player))
            core = (player, tuple(sq for sq in holdings if state.board.squares[sq].group in complete))
            fr = self._frontiers.get(core)
            if fr is None:
                fr = self._frontiers[core] = build_frontier(state, player, self.chain)
            st = self.settings
            hit = frontier_value(state, player, horizon=st.horizon, reserve=st.value_reserve, chain=self.chain, frontier=fr)
            hit += state.players[player].cash
            self._cache[key] = hit
        return hit


@dataclass(frozen=True)
class GainTerms:
    """Player ``i``'s value as a linear function of the after-state, in the value's units:
    ``sum_(j,g) group[(j, g)][k_jg] + sum_j cash[j] cash_j + sum_j kink[j] min(cash_j, cap[j])``
    ``+ sum_(j,g) near[(j, g)][status_jg] + sum_j set_cash[j] S_j`` (``S_j``: ``min(max(0,
    cash_j - reserve[j]), SET_CASH_CAP)`` when ``j`` holds a complete colour group, else 0;
    ``k_jg``: lots of ``g`` held by ``j``;
    ``status_jg``: :func:`solver.trades.value_model.near_status`, no term when ``j`` is
    not one short of ``g``). What the CP-SAT model writes as constraints."""

    group: dict[tuple[int, str], tuple[int, ...]]
    cash: dict[int, int]
    kink: dict[int, int] = field(default_factory=dict)
    cap: dict[int, int] = field(default_factory=dict)
    near: dict[tuple[int, str], tuple[int, int, int]] = field(default_factory=dict)
    set_cash: dict[int, int] = field(default_factory=dict)
    reserve: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class LinearValues:
    """The linear estimate: ``value_i = sum_g table[i][g][count of g held by i] + cash_i``,
    integers (dollars over the horizon).

    For a colour group with ``c`` lots held: below the set size, ``horizon x
    opponents x c x`` the mean long-run EPT of one unimproved lot of the
    group; at the set size, ``horizon x`` (the group's monopoly rent at level
    0 plus the best development of that group alone affordable with the
    player's present cash above ``value_reserve``, from
    :func:`solver.analysis.frontier.group_options`). Railroads: ``horizon x opponents
    x c x`` the mean EPT of one railroad at the rent for ``c`` held;
    utilities likewise. Groups with buildings cannot be traded and are left
    out. The estimate ignores interactions between groups (one budget shared
    by two new sets, for instance).
    """

    table: dict[int, dict[str, tuple[int, ...]]]
    min_gain: int = 10
    unit: str = "dollars"
    scale: float = 1.0

    def terms(self, i: int) -> GainTerms:
        return GainTerms({(i, g): t for g, t in self.table[i].items()}, {i: 1})

    def counts(self, state: GameState, player: int) -> dict[str, int]:
        return {g: sum(1 for sq in state.board.groups[g] if state.owner[sq] == player) for g in self.table[player]}

    def __call__(self, state: GameState, player: int) -> float:
        t = self.table[player]
        return float(sum(t[g][c] for g, c in self.counts(state, player).items()) + state.players[player].cash)


def linear_values(space: TradeSpace, chain: PositionChain | None = None) -> LinearValues:
    s = space.state
    st = space.settings
    chain = chain or PositionChain(s.board, s.rules, "long")
    n_opp = len(s.active_players()) - 1
    table: dict[int, dict[str, tuple[int, ...]]] = {}
    for i in space.participants:
        spare = max(0, s.players[i].cash - st.value_reserve)
        per: dict[str, tuple[int, ...]] = {}
        for g, lots in s.board.groups.items():
            if s.group_has_buildings(g):
                continue
            n = len(lots)
            if g == "railroad":
                vals = [0.0] + [
                    c * sum(float(railroad_ept(chain, sq, s.board.railroad_rents[c - 1])) for sq in lots) / n * n_opp
                    for c in range(1, n + 1)
                ]
            elif g == "utility":
                vals = [0.0] + [
                    c * sum(float(utility_ept(chain, sq, s.board.utility_multipliers[c - 1])) for sq in lots) / n * n_opp
                    for c in range(1, n + 1)
                ]
            else:
                need = s.set_size(g)
                lot = sum(float(street_ept(chain, sq, s.board.squares[sq].rents[0])) for sq in lots) / n * n_opp
                full = _completed_value(s, chain, i, g, spare)
                vals = [c * lot if c < need else full for c in range(n + 1)]
            per[g] = tuple(round(st.horizon * v) for v in vals)
        table[i] = per
    return LinearValues(table, st.min_gain)


def _completed_value(state: GameState, chain: PositionChain, player: int, group: str, spare: int) -> float:
    """Rent per round of ``group`` complete in ``player``'s hand: level-0 monopoly rent
    plus the best development of the group alone within ``spare``."""
    base, options = _group_development(chain, len(state.active_players()), group)
    return base + max((gain for cost, gain in options if cost <= spare), default=0.0)


@lru_cache(maxsize=512)
def _group_development(chain: PositionChain, n_active: int, group: str) -> tuple[float, tuple[tuple[int, float], ...]]:
    """(level-0 monopoly rent per round, (cost, rent gain) of every development option) of
    ``group`` held complete and unbuilt by one of ``n_active`` players (the same for
    every player, so computed once per chain (board and rules) and player count; the
    chain is hashed by identity)."""
    board = chain.board
    s = GameState.new_game([f"p{k}" for k in range(n_active)], board, chain.rules)
    for sq in board.groups[group]:
        s.owner[sq] = 0
    base = sum(float(street_ept(chain, sq, 2 * board.squares[sq].rents[0])) for sq in board.groups[group]) * (n_active - 1)
    return base, tuple((o.cost, o.gain) for o in group_options(s, chain, 0, group) if not o.lift)


# ---------------------------------------------------------------------------
# rules
# ---------------------------------------------------------------------------
def participants_of(cand: Candidate) -> tuple[int, ...]:
    return cand.players


def new_completions(state: GameState, after: GameState, player: int) -> bool:
    """Whether ``player`` holds a colour group complete after that it did not before."""
    return any(after.has_monopoly(player, g) and not state.has_monopoly(player, g) for g in state.board.street_groups)


@dataclass(frozen=True)
class Evaluation:
    """A candidate's values and the first rule it fails (``None``: passes rules 1-4)."""

    candidate: Candidate
    gains: dict[int, float]
    failed: str | None


def evaluate(
    space: TradeSpace,
    cand: Candidate,
    values: ValueFn,
    base: dict[int, float],
) -> Evaluation:
    """Rules 1-4 in order on one candidate."""
    s = space.state
    after = after_state(s, cand)
    parts = participants_of(cand)
    completes = {i: new_completions(s, after, i) for i in parts}
    if any(completes.values()) and not all(completes.values()):
        return Evaluation(cand, {}, "completion")
    gains = {i: values(after, i) - base[i] for i in parts}
    if gains[space.proposer] < getattr(values, "proposer_min", 0):
        return Evaluation(cand, gains, "proposer")
    need = getattr(values, "min_gain", space.settings.min_gain)
    for i in parts:
        if i != space.proposer and (gains[i] < need if need > 0 else gains[i] <= 0):
            return Evaluation(cand, gains, "counterparty")
    for i in parts:
        if after.players[i].cash < min(space.reserves.get(i, 0), s.players[i].cash):
            return Evaluation(cand, gains, "cash")
    return Evaluation(cand, gains, None)


def undominated(evals: Sequence[Evaluation]) -> list[Evaluation]:
    """Rule 5 within each structure (same kind and participants)."""
    out = []
    by: dict[tuple[str, tuple[int, ...]], list[Evaluation]] = {}
    for e in evals:
        by.setdefault(e.candidate.structure, []).append(e)
    for e in evals:
        mine = e.gains
        dominated = False
        for o in by[e.candidate.structure]:
            if o is e:
                continue
            ge = all(o.gains[i] >= mine[i] for i in mine)
            gt = any(o.gains[i] > mine[i] for i in mine)
            if ge and gt:
                dominated = True
                break
        if not dominated:
            out.append(e)
    return out


def _preference(e: Evaluation) -> tuple[float, int, Candidate]:
    """Smaller is better: the proposer's gain, then the least cash, then the candidate's order."""
    return (-e.gains[e.candidate.players[0]], sum(a for *_, a in e.candidate.cash), e.candidate)


def minimal(evals: Sequence[Evaluation]) -> list[Evaluation]:
    """Drop a candidate whose moves strictly contain another survivor's moves, and
    keep one candidate per move set (the proposer's best, then the least cash)."""
    best: dict[frozenset[tuple[int, int, int]], Evaluation] = {}
    for e in evals:
        key = e.candidate.move_set()
        cur = best.get(key)
        if cur is None or _preference(e) < _preference(cur):
            best[key] = e
    sets = list(best)
    return [best[k] for k in sets if not any(o < k for o in sets)]


__all__ = [
    "COUNT_GROUPS",
    "RULES",
    "Candidate",
    "Evaluation",
    "FrontierValues",
    "GainTerms",
    "LinearValues",
    "TradeSettings",
    "TradeSpace",
    "after_state",
    "evaluate",
    "linear_values",
    "minimal",
    "new_completions",
    "undominated",
    "with_cash",
]
