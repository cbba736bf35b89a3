"""The CP-SAT model of one proposer's trade space: variables, one constraint family per
function, the objective, and reading a solution (the layout of the CP-SAT primer).

:mod:`solver.trades.cpsat` states the model family by family and runs the searches on it
(:func:`solver.trades.cpsat.top_k`, :func:`solver.trades.cpsat.enumerate_all`,
:func:`solver.trades.cpsat.generate_trades`); :class:`TradeModel` is also imported from
there, where 0.1 had it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from models.errors import UnknownNameError
from models.state import BANK
from solver._cp_model import cp_model_module
from solver.trades.space import Candidate, TradeKind, TradeSpace, with_cash
from solver.trades.value_model import SET_CASH_CAP, TradeValues, near_status

if TYPE_CHECKING:
    from ortools.sat.python import cp_model
else:
    cp_model = cp_model_module()  # ortools.sat.python.cp_model; without pandas under the CLI (solver._cp_model)

MOVE_WEIGHT = 1000
"""``W`` of the objective: one dollar of estimated gain outweighs any number of moves below it."""


# ---------------------------------------------------------------------------
# model
# ---------------------------------------------------------------------------
@dataclass
class _Vars:
    structure: dict[tuple[TradeKind, tuple[int, ...]], Any] = field(default_factory=dict)
    moves: dict[tuple[tuple[TradeKind, tuple[int, ...]], int, int, int], Any] = field(default_factory=dict)
    targets: dict[tuple[int, str], Any] = field(default_factory=dict)
    cash: dict[tuple[tuple[TradeKind, tuple[int, ...]], int], Any] = field(default_factory=dict)
    part: dict[int, Any] = field(default_factory=dict)
    onehot: dict[tuple[int, str], dict[int, Any]] = field(default_factory=dict)
    completes: dict[int, Any] = field(default_factory=dict)
    gain: dict[int, Any] = field(default_factory=dict)


class TradeModel:
    """The CP-SAT model of one proposer's trade space (module docstring).

    Parameters
    ----------
    space:
        The trade space (state, proposer, settings, reserves).
    values:
        The value and its floors, as :class:`~solver.trades.values.GainTerms` per player.
    cycles, bilateral:
        Which structures the model holds (3-cycles, bilateral trades).
    relaxed:
        Rule 1 relaxed: a participant may hand over a completion without one
        of its own when it receives at least ``compensation`` dollars.
    compensation:
        The relaxed rule's cash.
    objective:
        Whether to set the objective (off: a feasibility model, for :func:`enumerate_all`).

    Raises
    ------
    UnknownNameError
        When ``space.settings.objective`` is neither ``"balanced"`` nor ``"proposer"``.

    Examples
    --------
    The feasible trades (no objective) and the top-K (with one) agree:

    >>> from models.io import load_state
    >>> from solver.trades.space import TradeSpace
    >>> from solver.trades.values import linear_values
    >>> s = load_state("instances/cycle-brown-pair.json")
    >>> space = TradeSpace(s, 0)  # Ann proposes
    >>> from solver.trades.cpsat import Limits, enumerate_all, top_k
    >>> feasible = enumerate_all(TradeModel(space, linear_values(space), objective=False))
    >>> found, cut, solves = top_k(TradeModel(space, linear_values(space)), Limits(top_k=3))
    >>> len(feasible), len(found), sorted(t.candidate for t in found) == feasible
    (2, 2, True)
    """

    def __init__(
        self,
        space: TradeSpace,
        values: TradeValues,
        *,
        cycles: bool = False,
        bilateral: bool = True,
        relaxed: bool = False,
        compensation: int = 100,
        objective: bool = True,
    ) -> None:
        self.space = space
        self.values = values
        self.model = _CpModel()
        self.v = _Vars()
        self._kinks: dict[tuple[int, int], Any] = {}
        self._nears: dict[tuple[int, str], tuple[tuple[Any, Any, Any], tuple[int, int, int]] | None] = {}
        self._set_cashes: dict[tuple[int, int], tuple[Any, int]] = {}
        self.relaxed = relaxed
        self.compensation = compensation
        self._structure(cycles, bilateral)
        self._counts()
        self._rule_completion()
        self._rule_gains()
        self._rule_cash()
        if objective:
            self._objective()

    # -- structures and moves ------------------------------------------------
    def _move(self, key: tuple[TradeKind, tuple[int, ...]], sq: int, a: int, b: int) -> Any:
        lit = self.model.new_bool_var(f"m_{key[0]}_{'_'.join(map(str, key[1]))}_{sq}_{a}_{b}")
        self.v.moves[(key, sq, a, b)] = lit
        self.model.add_implication(lit, self.v.structure[key])
        return lit

    def _cash_var(self, key: tuple[TradeKind, tuple[int, ...]], partner: int, grid: Sequence[int]) -> None:
        var = self.model.new_int_var_from_domain(cp_model.Domain.from_values(sorted(set(grid) | {0})), f"c_{key[1]}_{partner}")
        self.model.add(var == 0).only_enforce_if(self.v.structure[key].Not())
        self.v.cash[(key, partner)] = var

    def _structure(self, cycles: bool, bilateral: bool) -> None:
        sp, st, m = self.space, self.space.settings, self.model
        p = sp.proposer
        if bilateral:
            for q in sp.opponents:
                groups = {g: h[q] for g, h in sp.needed[p].items() if q in h}
                if not groups:
                    continue
                key: tuple[TradeKind, tuple[int, ...]] = (TradeKind.BILATERAL, (p, q))
                s = self.v.structure[key] = m.new_bool_var(f"s_bilateral_{q}")
                zs = []
                for g, pieces in sorted(groups.items()):
                    z = self.v.targets[(q, g)] = m.new_bool_var(f"z_{q}_{g}")
                    zs.append(z)
                    takes = [self._move(key, sq, q, p) for sq in pieces]
                    for t in takes:
                        m.add_implication(t, z)
                    m.add(sum(takes) >= 1).only_enforce_if(z)
                m.add(sum(zs) == s)
                gives = []
                for sq in sp.tradeable(p):
                    o = self._move(key, sq, p, q)
                    gives.append(o)
                    g = sp.state.group_of(sq)
                    if (q, g) in self.v.targets:
                        m.add_implication(o, self.v.targets[(q, g)].Not())
                m.add(sum(gives) <= st.max_offer)
                self._cash_var(key, q, st.cash_grid)
        if cycles:
            for a, b, c in sp.cycles():
                arcs = [(a, b, sp.needed_from(b, a)), (b, c, sp.needed_from(c, b)), (c, a, sp.needed_from(a, c))]
                if not all(pieces for *_, pieces in arcs):
                    continue
                key = (TradeKind.CYCLE3, (a, b, c))
                s = self.v.structure[key] = m.new_bool_var(f"s_cycle_{b}_{c}")
                for x, y, pieces in arcs:
                    lits = [self._move(key, sq, x, y) for sq in pieces]
                    m.add(sum(lits) >= 1).only_enforce_if(s)
                    m.add(sum(lits) <= st.max_arc)
                self._cash_var(key, b, st.cycle_cash_grid)
                self._cash_var(key, c, st.cycle_cash_grid)
        m.add(sum(self.v.structure.values()) == 1)
        for i in sp.participants:
            if i == p:
                self.v.part[i] = 1
                continue
            ss = [lit for key, lit in self.v.structure.items() if i in key[1]]
            part = m.new_bool_var(f"part_{i}")
            m.add(sum(ss) == part)
            self.v.part[i] = part

    # -- counts, values ------------------------------------------------------
    def _counts(self) -> None:
        sp, m = self.space, self.model
        s = sp.state
        delta: dict[tuple[int, str], list[tuple[int, Any]]] = {}
        for (_key, sq, a, b), lit in self.v.moves.items():
            g = s.group_of(sq)
            delta.setdefault((a, g), []).append((-1, lit))
            delta.setdefault((b, g), []).append((1, lit))
        for (i, g), terms in sorted(delta.items()):
            base = s.count_in_group(i, g)
            n = len(s.board.groups[g])
            hot = {k: m.new_bool_var(f"n_{i}_{g}_{k}") for k in range(n + 1)}
            m.add_exactly_one(hot.values())
            m.add(sum(k * h for k, h in hot.items()) == base + sum(c * lit for c, lit in terms))
            self.v.onehot[(i, g)] = hot

    def _kink(self, j: int, cap: int) -> Any:
        """``min(cash_j after, cap)`` as an integer variable (``add_min_equality``)."""
        key = (j, cap)
        y = self._kinks.get(key)
        if y is None:
            cash = self.space.state.players[j].cash
            y = self.model.new_int_var(-(10**9), cap, f"kink_{j}_{cap}")
            self.model.add_min_equality(y, [cash + self._cash_change(j), cap])
            self._kinks[key] = y
        return y

    def _and(self, a: Any, b: Any, name: str) -> Any:
        """``a AND b`` for two 0/1 expressions (either may be a constant 0 or 1)."""
        if isinstance(a, int):
            return b if a else 0
        if isinstance(b, int):
            return a if b else 0
        u = self.model.new_bool_var(name)
        self.model.add(u <= a)
        self.model.add(u <= b)
        self.model.add(u >= a + b - 1)
        return u

    def _near(self, j: int, g: str) -> tuple[tuple[Any, Any, Any], tuple[int, int, int]] | None:
        """``j``'s one-short status in ``g`` after the trade as three 0/1 expressions
        (blocked, open, bank; :func:`solver.trades.value_model.near_status`) and their
        values before; ``None`` when the trade cannot change it.

        With ``n`` lots, set size ``need`` and ``b`` unowned lots (trades never move
        them), ``j`` is one short when it holds ``need - 1``; then some other lot is
        held by a third player (open) exactly when the proposer holds at most
        ``n - need - b`` (for the proposer itself: when ``n - need + 1 - b >= 1``);
        otherwise the rest is unowned (bank, ``b >= 1``) or the proposer's (blocked)."""
        key = (j, g)
        if key in self._nears:
            return self._nears[key]
        s, p = self.space.state, self.space.proposer
        lots = s.board.groups[g]
        n, need = len(lots), s.set_size(g)
        b = sum(1 for sq in lots if s.owner[sq] == BANK)
        hot_j, hot_p = self.v.onehot.get((j, g)), self.v.onehot.get((p, g))
        out: tuple[tuple[Any, Any, Any], tuple[int, int, int]] | None = None
        if hot_j is not None or (j != p and hot_p is not None):
            short: Any = hot_j[need - 1] if hot_j is not None else int(s.count_in_group(j, g) == need - 1)
            if j == p:
                ind: tuple[Any, Any, Any] = (0, short, 0) if n - need + 1 - b >= 1 else (0, 0, short)
            else:
                thr = n - need - b
                cond: Any = (
                    int(s.count_in_group(p, g) <= thr) if hot_p is None else sum(h for k, h in hot_p.items() if k <= thr)
                )
                u = self._and(short, cond, f"near_open_{j}_{g}")
                ind = (short - u, u, 0) if b == 0 else (0, u, short - u)
            st = near_status(s, j, g, p)
            before = (int(st == 0), int(st == 1), int(st == 2))
            out = (ind, before)
        self._nears[key] = out
        return out

    def _set_cash(self, j: int, reserve: int) -> tuple[Any, int]:
        """``S_j`` after the trade (:class:`~solver.trades.values.GainTerms`) as an integer
        variable, and its value before. ``m = min(max(0, cash_j after - reserve), cap)``
        by ``add_max_equality`` and ``add_min_equality``; a player without a complete
        colour group gets one only by completing one in the trade (complete sets are never
        traded away), so ``S_j = completes_j x m``, linearised exactly for ``m`` in
        ``[0, cap]``: ``S <= cap completes``, ``S <= m``, ``S >= m - cap (1 - completes)``."""
        key = (j, reserve)
        hit = self._set_cashes.get(key)
        if hit is not None:
            return hit
        cap = SET_CASH_CAP
        s, m = self.space.state, self.model
        cash = s.players[j].cash
        had = any(s.has_monopoly(j, g) for g in s.board.street_groups)
        before = min(max(0, cash - reserve), cap) if had else 0
        free = m.new_int_var(-(10**9), 10**9, f"spare_{j}")
        m.add(free == cash - reserve + self._cash_change(j))
        pos = m.new_int_var(0, 10**9, f"spare_pos_{j}")
        m.add_max_equality(pos, [free, 0])
        spare = m.new_int_var(0, cap, f"spare_cap_{j}")
        m.add_min_equality(spare, [pos, cap])
        if had:
            out: tuple[Any, int] = (spare, before)
        else:
            comp = self.v.completes.get(j)
            if comp is None:
                out = (0, 0)
            else:
                prod = m.new_int_var(0, cap, f"set_cash_{j}")
                m.add(prod <= cap * comp)
                m.add(prod <= spare)
                m.add(prod >= spare - cap * (1 - comp))
                out = (prod, 0)
        self._set_cashes[key] = out
        return out

    def _gain_expr(self, i: int) -> Any:
        """``i``'s value change (:class:`~solver.trades.values.GainTerms` of the values):
        group terms through the one-hot counts, cash terms through the net cash."""
        s = self.space.state
        t = self.values.terms(i)
        expr: Any = 0
        for (j, g), hot in self.v.onehot.items():
            coef = t.group.get((j, g))
            if coef is None:
                continue
            base = s.count_in_group(j, g)
            expr += sum((coef[k] - coef[base]) * h for k, h in hot.items() if coef[k] != coef[base])
        for j, c in t.cash.items():
            expr += c * self._cash_change(j)
        for j, c in t.kink.items():
            cap = t.cap[j]
            expr += c * (self._kink(j, cap) - min(s.players[j].cash, cap))
        for j, c in t.set_cash.items():
            var, spare_before = self._set_cash(j, t.reserve[j])
            expr += c * (var - spare_before)
        for (j, g), weights in t.near.items():
            near = self._near(j, g)
            if near is not None:
                ind, status_before = near
                expr += sum(w * (x - x0) for w, x, x0 in zip(weights, ind, status_before, strict=True) if w)
        return expr

    def _cash_change(self, i: int) -> Any:
        """Net cash to ``i``, less the interest on mortgaged lots it receives."""
        s = self.space.state
        p = self.space.proposer
        expr: Any = 0
        for (key, partner), var in self.v.cash.items():
            if i == p:
                expr -= var
            elif partner == i:
                expr += var
        for (_key, sq, _a, b), lit in self.v.moves.items():
            if b == i and s.mortgaged[sq]:
                expr -= s.rules.interest(s.mortgage_value(sq)) * lit
        return expr

    # -- rules -------------------------------------------------------------
    def _rule_completion(self) -> None:
        sp, m = self.space, self.model
        s = sp.state
        for i in sp.participants:
            news: list[Any] = []
            for g in s.board.street_groups:
                hot = self.v.onehot.get((i, g))
                need = s.set_size(g)
                if hot is None or s.has_monopoly(i, g):
                    continue
                news.extend(h for k, h in hot.items() if k >= need)
            c = m.new_bool_var(f"completes_{i}")
            if news:
                m.add_max_equality(c, news)
            else:
                m.add(c == 0)
            self.v.completes[i] = c
        for x in sp.participants:
            net = self._cash_change(x)
            enforce = [self.v.part[x]] if x != sp.proposer else []
            for y in sp.participants:
                if x == y:
                    continue
                if self.relaxed:
                    # x hands over a completion without one of its own only for cash
                    m.add(net >= self.compensation).only_enforce_if([self.v.completes[y], *enforce, self.v.completes[x].Not()])
                else:
                    ct = m.add_bool_or([self.v.completes[x], self.v.completes[y].Not()])
                    if enforce:
                        ct.only_enforce_if(enforce)

    def _rule_gains(self) -> None:
        sp, m = self.space, self.model
        need, own = self.values.min_gain, self.values.proposer_min
        for i in sp.participants:
            gain = m.new_int_var(-(10**9), 10**9, f"gain_{i}")
            m.add(gain == self._gain_expr(i))
            self.v.gain[i] = gain
            if i == sp.proposer:
                m.add(gain >= own)
            else:
                m.add(gain >= max(need, 1)).only_enforce_if(self.v.part[i])

    def _rule_cash(self) -> None:
        sp, m = self.space, self.model
        s = sp.state
        for i in sp.participants:
            floor = min(0, sp.reserves.get(i, 0) - s.players[i].cash)  # below its reserve: pays no cash
            ct = m.add(self._cash_change(i) >= floor)
            if i != sp.proposer:
                ct.only_enforce_if(self.v.part[i])

    def _objective(self) -> None:
        moves = sum(self.v.moves.values())
        sp, m = self.space, self.model
        mine = self.v.gain[sp.proposer]
        if sp.settings.objective == "proposer":
            m.maximize(mine * MOVE_WEIGHT - moves)
            return
        if sp.settings.objective != "balanced":
            raise UnknownNameError(f"unknown trade objective {sp.settings.objective!r} (expected 'balanced' or 'proposer')")
        # the least gain of the participants of the chosen structure (the proposer always)
        least = m.new_int_var(-(10**9), 10**9, "least_gain")
        m.add(least <= mine)
        for i in sp.participants:
            if i != sp.proposer:
                m.add(least <= self.v.gain[i]).only_enforce_if(self.v.part[i])
        m.maximize((2 * least + mine) * MOVE_WEIGHT - moves)

    # -- reading solutions -----------------------------------------------------
    def candidate(self, value: Any) -> Candidate:
        """The trade of the current solution (``value`` is ``solver.value`` or a callback's).

        Parameters
        ----------
        value : callable
            A literal or variable -> its value in the solution.

        Returns
        -------
        Candidate
            The solution's structure, moves and cash.
        """
        key = next(k for k, lit in self.v.structure.items() if value(lit))
        moves = [(sq, a, b) for (k, sq, a, b), lit in self.v.moves.items() if k == key and value(lit)]
        pays = [(partner, int(value(var))) for (k, partner), var in self.v.cash.items() if k == key]
        return with_cash(key[0], key[1], moves, pays)

    def cut(self, cand: Candidate) -> None:
        """No-good (superset) cut: never again all of ``cand``'s moves together.

        Parameters
        ----------
        cand : Candidate
            A trade of this model.
        """
        key = cand.structure
        lits = [self.v.moves[(key, sq, a, b)] for sq, a, b in cand.moves]
        self.model.add(sum(lits) <= len(lits) - 1)


class _CpModel(cp_model.CpModel):
    """``cp_model.CpModel`` without the camelCase aliases that OR-Tools 9.x attaches to every
    new model (``_add_pre_pep8_methods``: about 60 bound wrappers, 0.7 ms a model, a sixth of
    a bilateral search here); this module calls only the snake_case methods. On a version
    without that hook the override is simply never called."""

    def _add_pre_pep8_methods(self) -> None:
        return None


__all__ = ["MOVE_WEIGHT", "TradeModel"]
