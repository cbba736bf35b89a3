"""Trade generation as a CP-SAT model (OR-Tools), bilateral and 3-way.

The model is the trade space of :mod:`solver.trades.space` written as
constraints, one family per function (the CP-SAT primer's layout):

variables (:class:`_Vars`)
    one boolean per structure (each bilateral partner, each directed 3-cycle
    ``P -> B -> C -> P``), one boolean per possible property move of each
    structure, one boolean per partial set the proposer targets in a
    bilateral trade, one integer cash variable per structure and partner
    (domain: the cash grid), one-hot count indicators per player and group.
``_structure``
    exactly one structure; moves and cash only in the chosen one; a bilateral
    partner gives a non-empty subset of the pieces of one targeted partial
    set, the proposer at most ``max_offer`` properties outside it (possibly
    none: a purchase for cash); each arc of a 3-cycle carries 1..``max_arc``
    properties.
``_counts``
    lots held per player and group after the trade, as one-hot indicators.
``_rule_completion`` (rule 1)
    a participant completes a colour group only if every participant does
    (relaxed: or receives at least ``compensation`` dollars in cash).
``_rule_gains`` (rules 2 and 3)
    on the generator's value (:func:`solver.trades.value_model.trade_values`,
    chosen by ``TradeSettings.value``): by default the fitted prediction of
    each participant's change in win probability
    (:mod:`solver.trades.value_model`: own and rivals' holdings and cash, in
    micro-probabilities), or the older horizon-rent estimate in dollars
    (:class:`solver.trades.values.LinearValues`, ``value="linear"``). Either is
    a :class:`~solver.trades.values.GainTerms` per player: a table per (holder,
    group) of counts, linear cash terms and ``min(cash, cap)`` terms
    (``add_min_equality``), so the model stays linear. The proposer does not
    lose; every other participant gains at least the value's ``min_gain``.
``_rule_cash`` (rule 4)
    every participant's cash after the trade stays at or above its reserve,
    or, for one already below it, does not fall.
objective
    ``(proposer's gain) x W - (number of moves)``, ``W`` larger than any
    move count (one unit of gain, a dollar or a micro-probability, outweighs
    every move), so that among trades of equal gain the one with fewest moves
    comes first and value-neutral sweeteners do not flood the list.

Top-K: successive solves of the same model, each adding a no-good cut
``sum(moves of the trade found) <= |moves| - 1``, which forbids that trade
and every trade containing all its moves: no listed trade contains the moves
of one listed before it (a later one may be a subset of an earlier one, the
same lots paid in cash instead of a sweetener lot).
Deterministic: one worker, a fixed seed, a deterministic time limit per
solve and at most K solves; a wall-clock limit is a safety cap only, and a
search it cuts is reported ``truncated``. Every solver status is handled:
OPTIMAL and FEASIBLE give a trade (FEASIBLE marked not proven optimal),
INFEASIBLE ends the list, UNKNOWN ends it as truncated, MODEL_INVALID raises.

Reference: L. Perron and F. Didier, *CP-SAT*, OR-Tools (Google), v9;
D. Krupke, "The CP-SAT Primer" (2024), for the layout.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.chains.markov import PositionChain, chain_for
from models.errors import ComputationError, UnknownNameError
from models.state import BANK, GameState
from solver._cp_model import cp_model_module
from solver.trades.candidates import run_funnel
from solver.trades.space import (
    Candidate,
    TradeKind,
    TradeSettings,
    TradeSpace,
    with_cash,
)
from solver.trades.value_model import (
    SET_CASH_CAP,
    TradeValues,
    near_status,
    trade_values,
)

if TYPE_CHECKING:
    from ortools.sat.python import cp_model
else:
    cp_model = cp_model_module()  # ortools.sat.python.cp_model; without pandas under the CLI (solver._cp_model)

MOVE_WEIGHT = 1000
"""``W`` of the objective: one dollar of estimated gain outweighs any number of moves below it."""


@dataclass(frozen=True)
class Limits:
    """Work limits: the same limits give the same answer on any machine.

    Parameters
    ----------
    top_k:
        The most trades listed (one solve each).
    deterministic_time:
        Per solve, in CP-SAT's deterministic seconds (a solve it cuts is FEASIBLE, not proven optimal).
    wall_s:
        A wall-clock safety cap for the whole search; a search it cuts is ``truncated``.
    seed:
        CP-SAT's random seed.
    presolve:
        CP-SAT's presolve and LP linearization (off by default: ``_solver`` says why).

    Examples
    --------
    >>> Limits().top_k, Limits().deterministic_time, Limits(top_k=3).wall_s
    (20, 2.0, 30.0)
    """

    top_k: int = 20
    deterministic_time: float = 2.0
    wall_s: float = 30.0
    seed: int = 0
    presolve: bool = False


@dataclass(frozen=True)
class GeneratedTrade:
    """One trade of the list.

    Parameters
    ----------
    candidate:
        The trade (:meth:`~solver.trades.space.Candidate.to_trade` gives it by names).
    gains:
        Each participant's estimated gain, an integer in the value's units (:meth:`TradeList.gain`).
    optimal:
        Whether CP-SAT proved it the best of what was left (FEASIBLE: the deterministic limit cut the solve).

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.space import TradeSpace
    >>> from solver.trades.values import linear_values
    >>> s = load_state("instances/cycle-brown-pair.json")
    >>> space = TradeSpace(s, 0)  # Ann proposes
    >>> best = top_k(TradeModel(space, linear_values(space)), Limits(top_k=1))[0][0]
    >>> best.candidate.to_trade(s).properties_received("Ann"), best.gains, best.optimal
    (['States Avenue'], {0: 74, 2: 18}, True)
    """

    candidate: Candidate
    gains: dict[int, int]
    optimal: bool


@dataclass
class TradeList:
    """What :func:`generate_trades` found.

    Parameters
    ----------
    trades:
        Best first by the objective.
    empty_reason:
        When the strict rules left nothing: which rule emptied the set (``None`` otherwise).
    relaxed:
        The trades come from the relaxed rule 1 (:func:`generate_trades`).
    truncated:
        The wall-clock cap or an UNKNOWN status cut the search.
    solves:
        CP-SAT solves run.
    stats:
        Free-form counters for the caller.
    unit, scale:
        What ``gains`` count: ``"dollars"`` (linear) or ``"win probability"``
        (fitted), each integer gain being ``scale`` of a unit.

    Examples
    --------
    >>> from models.io import load_state
    >>> found = generate_trades(load_state("instances/cycle-brown-pair.json"), 0)
    >>> found.unit, found.relaxed, found.empty_reason is not None  # the strict rules left nothing
    ('win probability', True, True)
    """

    trades: list[GeneratedTrade]
    empty_reason: str | None = None
    relaxed: bool = False
    truncated: bool = False
    solves: int = 0
    stats: dict[str, Any] = field(default_factory=dict)
    unit: str = "dollars"
    scale: float = 1.0

    def gain(self, trade: GeneratedTrade, player: int) -> float:
        """``player``'s estimated gain from ``trade`` in :attr:`unit` (the integer gain x ``scale``).

        Parameters
        ----------
        trade : GeneratedTrade
            One of :attr:`trades`.
        player : int
            A participant's seat.

        Returns
        -------
        float
            The gain in :attr:`unit`.
        """
        return trade.gains[player] * self.scale


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


# ---------------------------------------------------------------------------
# search
# ---------------------------------------------------------------------------
def _solver(limits: Limits, wall_left: float) -> cp_model.CpSolver:
    """One single-worker solver, seeded, under the deterministic limit.

    Unless ``limits.presolve``, CP-SAT's presolve and LP linearization are off
    (``cp_model_presolve``, ``linearization_level=0``): a trade model has tens of
    Booleans, and on 145 models met in play (games 1-3 of seed 0) they cost more
    than the search itself: 2.3 ms a solve against 4.7 ms with both on, the same
    optimum every time (only equal-objective candidates came out in another order,
    6 of 145). Either way each solve is exact: its status is OPTIMAL, FEASIBLE
    (the deterministic limit), INFEASIBLE or UNKNOWN, handled by :func:`top_k`."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if not limits.presolve:
        solver.parameters.cp_model_presolve = False
        solver.parameters.linearization_level = 0
    solver.parameters.random_seed = limits.seed
    solver.parameters.max_deterministic_time = limits.deterministic_time
    solver.parameters.max_time_in_seconds = max(0.01, wall_left)
    return solver


def top_k(model: TradeModel, limits: Limits) -> tuple[list[GeneratedTrade], bool, int]:
    """Successive solves with no-good cuts (module docstring); ``model`` keeps the cuts.

    Parameters
    ----------
    model:
        A model with its objective.
    limits:
        ``top_k``, the per-solve and wall-clock limits, the seed.

    Returns
    -------
    tuple[list[GeneratedTrade], bool, int]
        The trades found, best first; whether the search was cut (wall clock
        or UNKNOWN); the solves run.

    Raises
    ------
    ComputationError
        When CP-SAT finds the model invalid (MODEL_INVALID) or answers a status that does not exist.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.space import TradeSpace
    >>> from solver.trades.values import linear_values
    >>> s = load_state("instances/cycle-brown-pair.json")
    >>> space = TradeSpace(s, 0)  # Ann proposes
    >>> found, cut, solves = top_k(TradeModel(space, linear_values(space)), Limits(top_k=3))
    >>> len(found), cut, solves  # the third solve proves nothing is left
    (2, False, 3)
    """
    out: list[GeneratedTrade] = []
    start = time.perf_counter()
    solves = 0
    if not model.v.structure:
        return out, False, 0
    while len(out) < limits.top_k:
        left = limits.wall_s - (time.perf_counter() - start)
        if left <= 0:
            return out, True, solves
        solver = _solver(limits, left)
        status = solver.solve(model.model)
        solves += 1
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            cand = model.candidate(solver.value)
            gains = {i: int(solver.value(g)) for i, g in model.v.gain.items() if i in cand.players}
            out.append(GeneratedTrade(cand, gains, status == cp_model.OPTIMAL))
            model.cut(cand)
        elif status == cp_model.INFEASIBLE:
            return out, False, solves
        elif status == cp_model.UNKNOWN:
            return out, True, solves
        elif status == cp_model.MODEL_INVALID:
            raise ComputationError(f"invalid trade model: {model.model.validate()}")
        else:  # pragma: no cover - no other status exists
            raise ComputationError(f"unexpected CP-SAT status {solver.status_name(status)}")
    return out, False, solves


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, model: TradeModel) -> None:
        super().__init__()
        self.trade_model = model
        self.found: list[Candidate] = []

    def on_solution_callback(self) -> None:
        self.found.append(self.trade_model.candidate(self.value))


def enumerate_all(model: TradeModel, limits: Limits | None = None) -> list[Candidate]:
    """Every feasible trade of a model built without an objective (for the cross-check).

    Parameters
    ----------
    model:
        A model built with ``objective=False``.
    limits:
        The seed and the wall-clock cap (no deterministic limit: the enumeration runs to the end).

    Returns
    -------
    list[Candidate]
        Sorted, each once.

    Raises
    ------
    ComputationError
        When the enumeration stops before the end (the wall-clock cap) or the model is invalid.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.space import TradeSpace
    >>> from solver.trades.values import linear_values
    >>> s = load_state("instances/cycle-brown-pair.json")
    >>> space = TradeSpace(s, 0)  # Ann proposes
    >>> [c.to_trade(s).properties_received("Ann") for c in enumerate_all(TradeModel(space, linear_values(space), objective=False))]
    [['St. Charles Place'], ['States Avenue']]
    """
    limits = limits or Limits()
    solver = _solver(limits, limits.wall_s)
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.max_deterministic_time = 1e9
    cb = _Collector(model)
    status = solver.solve(model.model, cb)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
        raise ComputationError(f"enumeration stopped: {solver.status_name(status)}")
    return sorted(set(cb.found))


def generate_trades(
    state: GameState,
    proposer: int,
    *,
    settings: TradeSettings | None = None,
    limits: Limits | None = None,
    cycles: bool = False,
    chain: PositionChain | None = None,
    reserves: dict[int, int] | None = None,
    explain: bool = True,
    relaxed: bool = False,
) -> TradeList:
    """The proposer's top-K trades by estimated gain (module docstring).

    Bilateral trades always; 3-cycles with ``cycles``. When the strict rules
    leave nothing, ``empty_reason`` names the rule that emptied the set
    (from the explicit funnel, :func:`solver.trades.candidates.run_funnel`,
    on the same value) and a relaxed search runs: rule 1 is replaced by "a
    participant may hand over a completion without getting one if it
    receives at least $100"; its trades are flagged ``relaxed``.

    Parameters
    ----------
    state:
        The position.
    proposer:
        The proposer's player index.
    settings:
        The space, the value and the rules' floors (default :class:`~solver.trades.space.TradeSettings`).
    limits:
        The search's limits (default :class:`Limits`).
    cycles:
        Also 3-cycles.
    chain:
        The long-run position chain (default: built from ``state``).
    reserves:
        Rule 4's cash reserve per player (default: the ruin-chain reserves,
        :func:`solver.analysis.reserve.reserves` at ``settings.reserve_epsilon``).
    explain:
        Off: no funnel and no relaxed search when nothing is found (an agent
        in play only wants strict trades).
    relaxed:
        Run the relaxed model alone (its trades include the strict ones) and flag them.

    Returns
    -------
    TradeList

    Raises
    ------
    UnknownNameError
        An unknown ``settings.value`` or ``settings.objective``.
    ComputationError
        CP-SAT finds the model invalid (a bug, never expected).

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> found = generate_trades(s, 0)
    >>> best = found.trades[0]
    >>> for t in best.candidate.to_trade(s).transfers:
    ...     print(t.frm, "->", t.to, list(t.properties), t.cash)
    Ann -> Bob ['Kentucky Avenue'] 300
    Bob -> Ann ['New York Avenue'] 0
    >>> found.unit, round(found.gain(best, 0), 4), found.relaxed
    ('win probability', 0.2836, False)
    """
    settings = settings or TradeSettings()
    limits = limits or Limits()
    chain = chain or chain_for(state.board, state.rules)
    if reserves is None:
        from solver.analysis.reserve import reserves as ruin_reserves

        reserves = ruin_reserves(state, None, epsilon=settings.reserve_epsilon, chain=chain)
    space = TradeSpace(state, proposer, settings, reserves)
    values = trade_values(space, chain)
    model = TradeModel(space, values, cycles=cycles, relaxed=relaxed)
    trades, truncated, solves = top_k(model, limits)
    out = TradeList(trades, None, relaxed and bool(trades), truncated, solves, unit=values.unit, scale=values.scale)
    if relaxed:
        return out
    if trades or truncated or not explain:
        return out
    funnel = run_funnel(space, values, cycles=cycles)
    rule = funnel.emptied_by()
    out.empty_reason = (
        "no candidate: no partial set of the proposer can be completed by trading"
        if rule is None
        else f"rule {_RULE_TEXT[rule]} left no candidate ({funnel.raw} generated)"
    )
    fallback = TradeModel(space, values, cycles=cycles, relaxed=True)
    r_trades, r_trunc, r_solves = top_k(fallback, limits)
    out.trades, out.relaxed, out.truncated, out.solves = r_trades, bool(r_trades), r_trunc, solves + r_solves
    return out


_RULE_TEXT = {
    "completion": "1 (never give an opponent a monopoly completion without getting one)",
    "proposer": "2 (the proposer's value must not fall)",
    "counterparty": "3 (every counterparty must gain at least the minimum)",
    "cash": "4 (every participant keeps its cash reserve)",
    "domination": "5 (domination)",
}


__all__ = ["GeneratedTrade", "Limits", "TradeList", "TradeModel", "enumerate_all", "generate_trades", "top_k"]
