"""Trade generation as a CP-SAT model (OR-Tools), bilateral and 3-way.

The model is the trade space of :mod:`solver.trades.space` written as
constraints, one family per function (the CP-SAT primer's layout):

variables (``_Vars`` of :mod:`solver.trades.cpsat_model`)
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
solve (and a conflict count, past which the model is solved again presolved:
``_solver``) and at most K solves; a wall-clock limit is a safety cap only, and a
search it cuts is reported ``truncated``. Every solver status is handled:
OPTIMAL and FEASIBLE give a trade (FEASIBLE marked not proven optimal),
INFEASIBLE ends the list, UNKNOWN ends it as truncated, MODEL_INVALID raises.

Reference: L. Perron and F. Didier, *CP-SAT*, OR-Tools (Google), v9;
D. Krupke, "The CP-SAT Primer" (2024), for the layout.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.chains.markov import PositionChain, chain_for
from models.errors import ComputationError, InvalidArgumentError
from models.state import GameState
from solver._cp_model import cp_model_module
from solver.trades.candidates import run_funnel
from solver.trades.cpsat_model import TradeModel
from solver.trades.space import (
    Candidate,
    TradeSettings,
    TradeSpace,
)
from solver.trades.value_model import (
    TradeValues,
    trade_values,
)

if TYPE_CHECKING:
    from ortools.sat.python import cp_model
else:
    cp_model = cp_model_module()  # ortools.sat.python.cp_model; without pandas under the CLI (solver._cp_model)



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
    conflicts:
        Without presolve, a solve that reaches this many conflicts stops and the same model is
        solved again with presolve and linearization on (:func:`top_k`; a count of work, so the
        same on any machine).

    Examples
    --------
    >>> Limits().top_k, Limits().deterministic_time, Limits(top_k=3).wall_s, Limits().conflicts
    (20, 2.0, 30.0, 1000)
    """

    top_k: int = 20
    deterministic_time: float = 2.0
    wall_s: float = 30.0
    seed: int = 0
    presolve: bool = False
    conflicts: int = 1000


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
# search
# ---------------------------------------------------------------------------
def _solver(limits: Limits, wall_left: float, presolve: bool = False) -> cp_model.CpSolver:
    """One single-worker solver, seeded, under the deterministic limit.

    Unless ``limits.presolve``, CP-SAT's presolve and LP linearization are off
    (``cp_model_presolve``, ``linearization_level=0``): a trade model has tens of
    Booleans, and on 145 models met in play (games 1-3 of seed 0) they cost more
    than the search itself: 2.3 ms a solve against 4.7 ms with both on, the same
    optimum every time (only equal-objective candidates came out in another order,
    6 of 145). Either way each solve is exact: its status is OPTIMAL, FEASIBLE
    (the deterministic limit), INFEASIBLE or UNKNOWN, handled by :func:`top_k`.

    Without presolve the search has a heavy tail that CP-SAT's deterministic clock does not
    see: a relaxed model met by the ``adversary`` in play (a $813 proposer, 85 variables) took
    58,407 branches and 19,625 conflicts, 23 s, while the clock read 0.05 deterministic seconds,
    so ``deterministic_time`` never cut it; presolved, the same model is solved in 6 ms with no
    branch. Such a solve is therefore capped by ``limits.conflicts`` (a count) and
    :func:`top_k` solves the model again with ``presolve`` (both on). In 6,608 solves of 80
    ``subgraph`` games (seed 0, games 0-39 against three ``strategic`` and against three
    ``value``) the most conflicts were 27 (median about 5), so the cap changes nothing there."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if not (limits.presolve or presolve):
        solver.parameters.cp_model_presolve = False
        solver.parameters.linearization_level = 0
        solver.parameters.max_number_of_conflicts = limits.conflicts
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
        if not limits.presolve and status in (cp_model.FEASIBLE, cp_model.UNKNOWN) and solver.num_conflicts >= limits.conflicts:
            # the unpresolved search's heavy tail (``_solver``): the same model again, presolved
            left = limits.wall_s - (time.perf_counter() - start)
            if left <= 0:
                return out, True, solves
            solver = _solver(limits, left, presolve=True)
            status = solver.solve(model.model)
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
    bilateral: bool = True,
    values: TradeValues | None = None,
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
    bilateral:
        Off (with ``cycles``): only 3-cycles, so that bilateral trades do not
        take the top-K slots of a cycle search.
    values:
        The value (default: :func:`solver.trades.value_model.trade_values` of the space
        of ``state``, ``proposer``, ``settings`` and ``reserves``); a caller that searches
        one space twice (bilateral, then 3-cycles) computes it once and passes it.

    Returns
    -------
    TradeList

    Raises
    ------
    UnknownNameError
        An unknown ``settings.value`` or ``settings.objective``.
    InvalidArgumentError
        Neither ``bilateral`` nor ``cycles``.
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
    if not (cycles or bilateral):
        raise InvalidArgumentError("generate_trades: neither bilateral trades nor 3-cycles asked for")
    settings = settings or TradeSettings()
    limits = limits or Limits()
    chain = chain or chain_for(state.board, state.rules)
    if reserves is None:
        from solver.analysis.reserve import reserves as ruin_reserves

        reserves = ruin_reserves(state, None, epsilon=settings.reserve_epsilon, chain=chain)
    space = TradeSpace(state, proposer, settings, reserves)
    values = values or trade_values(space, chain)
    model = TradeModel(space, values, cycles=cycles, bilateral=bilateral, relaxed=relaxed)
    trades, truncated, solves = top_k(model, limits)
    out = TradeList(trades, None, relaxed and bool(trades), truncated, solves, unit=values.unit, scale=values.scale)
    if relaxed:
        return out
    if trades or truncated or not explain:
        return out
    funnel = run_funnel(space, values, cycles=cycles, bilateral=bilateral)
    rule = funnel.emptied_by()
    out.empty_reason = (
        "no candidate: no partial set of the proposer can be completed by trading"
        if rule is None
        else f"rule {_RULE_TEXT[rule]} left no candidate ({funnel.raw} generated)"
    )
    fallback = TradeModel(space, values, cycles=cycles, bilateral=bilateral, relaxed=True)
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
