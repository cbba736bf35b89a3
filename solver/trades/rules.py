"""The five rules that prune the trade space, and the reduction to minimal trades.

Rules (applied in this order; :func:`evaluate` for 1-4, :func:`undominated` for 5)
    1. ``completion``: when the trade completes a colour group for some
       participant, every participant must complete one (railroads and
       utilities never count);
    2. ``proposer``: the proposer's value does not fall (below the value's
       ``proposer_min``);
    3. ``counterparty``: every other participant's value rises by at least
       the value's ``min_gain`` (strictly more than before when ``min_gain`` is 0);
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

The values and their floors (the units of rules 2 and 3: dollars for the
dollar values, win probability for the fitted one) are in
:mod:`solver.trades.values`; the space and its after-states in
:mod:`solver.trades.space`. :func:`minimal` is not a rule: it keeps one
candidate per move set and drops those whose moves contain another's (what
the CP-SAT model's no-good cuts do), for the cross-check of the two generators.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import cast

from models.state import GameState
from solver.trades.space import Candidate, TradeSpace, after_state
from solver.trades.values import GroupwiseValueFn, ValueFn

RULES = ("completion", "proposer", "counterparty", "cash", "domination")
"""The rules' names, in order (what the funnel counts survivors after)."""


def new_completions(state: GameState, after: GameState, player: int, groups: Iterable[str] | None = None) -> bool:
    """Whether ``player`` holds a colour group complete in ``after`` that it did not in ``state``
    (among ``groups`` when given: the groups a trade touches, the only ones it can complete;
    :meth:`models.state.GameState.newly_complete` lists them)."""
    return bool(state.newly_complete(after, player, groups))


@cache
def _groupwise(kind: type) -> bool:
    """Whether values of this class are :class:`~solver.trades.values.GroupwiseValueFn` (they have
    ``partial``; asked once per class: a runtime protocol check costs more than the value itself)."""
    return callable(getattr(kind, "partial", None))


@dataclass(frozen=True)
class Evaluation:
    """A candidate's value changes and the first rule it fails.

    Parameters
    ----------
    candidate:
        The trade.
    gains:
        Each participant's value after less before (empty when rule 1 fails: not computed).
    failed:
        The name of the first rule of :data:`RULES` it fails; ``None``: it passes rules 1-4.
    """

    candidate: Candidate
    gains: dict[int, float]
    failed: str | None


def evaluate(
    space: TradeSpace,
    cand: Candidate,
    values: ValueFn,
    base: dict[int, float],
    memo: dict[tuple[int, frozenset[str]], float] | None = None,
) -> Evaluation:
    """Rules 1-4 in order on one candidate (module docstring).

    Parameters
    ----------
    space:
        The trade space (its state, proposer and reserves).
    cand:
        The candidate.
    values:
        The value and its floors.
    base:
        Each participant's value before the trade (``values(space.state, i)``).
    memo:
        A groupwise value's terms before the trade, by (participant, groups touched), kept
        between the candidates of one space (:func:`solver.trades.candidates.run_funnel` passes
        one); ``None``: computed each time.

    Returns
    -------
    Evaluation

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.space import with_cash
    >>> from solver.trades.values import linear_values
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> space = TradeSpace(s, 0)
    >>> values = linear_values(space)
    >>> base = {i: values(s, i) for i in space.participants}
    >>> gift = with_cash("bilateral", (0, 1), [(s.square_of("Reading Railroad"), 0, 1)], [])
    >>> e = evaluate(space, gift, values, base)
    >>> e.failed, {i: round(g, 4) for i, g in e.gains.items()}
    ('proposer', {0: -50.0, 1: 151.0})
    """
    s = space.state
    after = after_state(s, cand)
    parts = cand.players
    # Only the groups whose lots move change owners: a completion, and a groupwise value's
    # change, are read on those (the same answers as on every group, for less work).
    touched = {g for sq, _, _ in cand.moves if (g := s.board.squares[sq].group) is not None}
    completes = {i: new_completions(s, after, i, touched) for i in parts}
    if any(completes.values()) and not all(completes.values()):
        return Evaluation(cand, {}, "completion")
    if _groupwise(type(values)):
        groupwise = cast(GroupwiseValueFn, values)
        memo = {} if memo is None else memo
        key = frozenset(touched)
        gains = {}
        for i in parts:
            before = memo.get((i, key))
            if before is None:
                before = memo[(i, key)] = groupwise.partial(s, i, touched)
            gains[i] = groupwise.partial(after, i, touched) - before
    else:
        gains = {i: values(after, i) - base[i] for i in parts}
    if gains[space.proposer] < values.proposer_min:
        return Evaluation(cand, gains, "proposer")
    need = values.min_gain
    for i in parts:
        if i != space.proposer and (gains[i] < need if need > 0 else gains[i] <= 0):
            return Evaluation(cand, gains, "counterparty")
    for i in parts:
        if after.players[i].cash < min(space.reserves.get(i, 0), s.players[i].cash):
            return Evaluation(cand, gains, "cash")
    return Evaluation(cand, gains, None)


def undominated(evals: Sequence[Evaluation]) -> list[Evaluation]:
    """Rule 5 within each structure (same kind and participants), in the input's order."""
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


__all__ = ["RULES", "Evaluation", "evaluate", "minimal", "new_completions", "undominated"]
