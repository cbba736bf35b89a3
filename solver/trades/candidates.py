"""The explicit trade generator and the pruning funnel (seed 000, Phase 2; Test 3).

Every candidate of the trade space (:mod:`solver.trades.space`) is listed,
then the five rules (:mod:`solver.trades.rules`) are applied in order as
named filters, and the survivors after each rule are counted. This is the reference that the CP-SAT model
(:mod:`solver.trades.cpsat`) is checked against, and the source of the
pruning-validation report (``monopoly-trade prune-report``).

Bilateral candidates, per partial set ``g`` of the proposer and per opponent
``Q`` holding needed pieces of it: every non-empty subset of those pieces x
every offer of the proposer (at most ``max_offer`` of its tradeable
properties outside ``g``) x every amount of ``cash_grid``. 3-cycles, per
ordered pair ``(B, C)`` of opponents: every choice of 1..``max_arc`` pieces on
each arc (each a needed piece of the receiver's partial sets) x every pair
of amounts of ``cycle_cash_grid`` (the proposer pays ``B`` and ``C``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

from solver.trades.rules import RULES, Evaluation, evaluate, undominated
from solver.trades.space import Candidate, TradeKind, TradeSpace, with_cash
from solver.trades.values import ValueFn


def _subsets(items: tuple[int, ...], lo: int, hi: int) -> Iterator[tuple[int, ...]]:
    for k in range(lo, min(hi, len(items)) + 1):
        yield from itertools.combinations(items, k)


def bilateral_candidates(space: TradeSpace) -> Iterator[Candidate]:
    """Every bilateral candidate of ``space`` (module docstring), in a fixed order."""
    p = space.proposer
    grid = space.settings.cash_grid
    for group, holders in sorted(space.needed[p].items()):
        for q, pieces in sorted(holders.items()):
            for take in _subsets(pieces, 1, len(pieces)):
                for give in space.offers(group):
                    moves = [(sq, q, p) for sq in take] + [(sq, p, q) for sq in give]
                    for cash in grid:
                        yield with_cash(TradeKind.BILATERAL, (p, q), moves, [(q, cash)])


def cycle_candidates(space: TradeSpace) -> Iterator[Candidate]:
    """Every 3-cycle candidate of ``space`` (module docstring), in a fixed order."""
    hi = space.settings.max_arc
    grid = space.settings.cycle_cash_grid
    for a, b, c in space.cycles():
        ab = space.needed_from(b, a)
        bc = space.needed_from(c, b)
        ca = space.needed_from(a, c)
        if not (ab and bc and ca):
            continue
        for x, y, z in itertools.product(_subsets(ab, 1, hi), _subsets(bc, 1, hi), _subsets(ca, 1, hi)):
            moves = [(sq, a, b) for sq in x] + [(sq, b, c) for sq in y] + [(sq, c, a) for sq in z]
            for pay_b, pay_c in itertools.product(grid, grid):
                yield with_cash(TradeKind.CYCLE3, (a, b, c), moves, [(b, pay_b), (c, pay_c)])


@dataclass
class Funnel:
    """What :func:`run_funnel` counted and kept.

    Parameters
    ----------
    raw:
        Candidates generated.
    after:
        Survivors after each rule of :data:`~solver.trades.rules.RULES`.
    per_opponent_raw:
        Candidates generated per opponent involved.
    survivors:
        The evaluations after rule 5.
    passed_rules_1_4:
        The evaluations after rule 4.
    """

    raw: int = 0
    after: dict[str, int] = field(default_factory=lambda: {r: 0 for r in RULES})
    per_opponent_raw: dict[int, int] = field(default_factory=dict)
    survivors: list[Evaluation] = field(default_factory=list)
    passed_rules_1_4: list[Evaluation] = field(default_factory=list)

    def stages(self) -> dict[str, int]:
        """``raw`` and the survivors after each rule, in order."""
        return {"raw": self.raw, **self.after}

    def emptied_by(self) -> str | None:
        """The rule after which nothing survived (``None`` when something did or nothing was raw)."""
        if self.raw == 0:
            return None
        for r in RULES:
            if self.after[r] == 0:
                return r
        return None


def run_funnel(space: TradeSpace, values: ValueFn, *, cycles: bool = False, bilateral: bool = True) -> Funnel:
    """Generate, apply rules 1-4 in order (counting survivors), then rule 5.

    Parameters
    ----------
    space:
        The trade space.
    values:
        The value and its floors (:class:`~solver.trades.values.ValueFn`).
    cycles:
        Also 3-cycles.
    bilateral:
        Off: 3-cycles only.

    Returns
    -------
    Funnel

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.values import linear_values
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> space = TradeSpace(s, 0)
    >>> run_funnel(space, linear_values(space)).stages()
    {'raw': 224, 'completion': 104, 'proposer': 28, 'counterparty': 8, 'cash': 8, 'domination': 6}
    """
    f = Funnel()
    s = space.state
    base = {i: values(s, i) for i in space.participants}
    gens = ([bilateral_candidates(space)] if bilateral else []) + ([cycle_candidates(space)] if cycles else [])
    order = RULES[:4]
    memo: dict[tuple[int, frozenset[str]], float] = {}
    for cand in itertools.chain(*gens):
        f.raw += 1
        for q in cand.players[1:]:
            f.per_opponent_raw[q] = f.per_opponent_raw.get(q, 0) + 1
        ev = evaluate(space, cand, values, base, memo)
        stop = order.index(ev.failed) if ev.failed is not None else len(order)
        for r in order[:stop]:
            f.after[r] += 1
        if ev.failed is None:
            f.passed_rules_1_4.append(ev)
    f.survivors = undominated(f.passed_rules_1_4)
    f.after["domination"] = len(f.survivors)
    return f


__all__ = ["Funnel", "bilateral_candidates", "cycle_candidates", "run_funnel"]
