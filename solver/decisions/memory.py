"""The agent's memory: everything its answers depend on besides the state and its settings.

:class:`AgentMemory` is explicit, JSON-serialisable data (:meth:`AgentMemory.to_dict`,
:meth:`AgentMemory.from_dict`, :func:`load_memory`), so that ``solve --agent SPEC --memory FILE``
(and ``solver.solve(..., agent=..., memory=...)``) answers a question exactly as the agent
would in play. The agent (:class:`solver.agents.subgraph_agent.SubgraphTradeAgent`) keeps one
and the events of the game update it (:func:`solver.decisions.events.remember`); each decision
module reads it and records in it what the agent must remember of its answer (a seed drawn, a
queue consumed, a plan started).

What it holds, and why each part changes an answer:

- **seeds**: the counter behind every simulation's seed (one more per trade search, play
  price, answer), the auction evaluations' own counter, and the last auction evaluated (a
  refused purchase's auction reuses its evaluation);
- **the round**, and the proposals made in the current phase (``offers`` a phase);
- **refused offers and haggle floors**: the round each of its structures was refused in
  (``recall``) and the best price refused for it (``haggle``);
- **opponent models** (the answers each opponent gave to its offers, and the offers waiting
  for an answer: :class:`solver.agents.opponent_model.OpponentModels`) and **trading habits**
  (:class:`solver.agents.opponent_model.TradeHabits`);
- **host refusals** by position (:class:`engine.rules.refusals.Refusals`);
- **the trade queue**: the key of the last search, the state it ran in, its simulation
  settings, the structures ranked and not yet offered, and the offer waiting for an answer;
- **the build plan in progress** (:class:`PlanInProgress`), and per set of holdings the state
  in which the agent first met them (:class:`Snapshot`): its ruin reserves and the ruin curve of
  its build plans are computed there and kept while the holdings last (they depend on the
  squares and cash of that moment, so they are memory, not cache);
- **counts**: searches run, offers made and accepted (reports).

Sizes are bounded as in play (reserves and plans: 64 sets of holdings, then cleared; host
refusals: 256 positions; answers per opponent: 200); :meth:`AgentMemory.from_dict` refuses a
file beyond the bounds or malformed, with one line.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.rules.refusals import Refusals
from engine.sim.rollout_policy import RolloutPolicy
from models.errors import MonopolyError
from models.state import GameState
from models.trade import Trade
from solver.agents.observed_play import ObservedPlay
from solver.agents.opponent_model import AcceptanceModel, OpponentModels, TradeHabits
from solver.decisions.keys import Key, digest

FORMAT = "monopoly-agent-memory/1"
"""The memory file's format name (its ``format`` key)."""

MAX_HOLDINGS = 64
"""Sets of holdings remembered at once (reserves, plans): past it, cleared before a new one (as in play)."""
MAX_ENTRIES = 100_000
"""The most entries a list or mapping of a memory file may have (a bound on what is read)."""
MAX_FILE_BYTES = 64 * 2**20
"""The largest memory file read."""

TradeKey = tuple[object, ...]
"""A trade's structure (:func:`solver.agents.strategic.trade_key`): who gives which lots to whom."""


class AgentMemoryError(MonopolyError, ValueError):
    """A memory file or object that cannot be read (malformed, too large, another format); one line."""


@dataclass(frozen=True)
class Snapshot:
    """What a state holds besides its holdings: every player's cash, square, jail state and
    cards, the player to move, the round, the phase, doubles rolled, the pot and the bank's cash.

    With the holdings (the key it is stored under) it gives back the state it was taken from
    (:meth:`on`): the state in which the agent first met those holdings.

    Attributes
    ----------
    players : tuple of tuple
        Per player ``(cash, position, in_jail, jail_turns, jail_cards)``.
    to_move, round, phase, doubles_rolled, pot, bank_cash
        As :class:`models.state.GameState`.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/two-player.json")
    >>> snap = Snapshot.of(s)
    >>> moved = s.copy(); moved.players[0].cash = 1
    >>> snap.on(moved) == s, Snapshot.from_list(snap.to_list()) == snap
    (True, True)
    """

    players: tuple[tuple[int, int, bool, int, int], ...]
    to_move: int
    round: int
    phase: str
    doubles_rolled: int
    pot: int
    bank_cash: int | None

    @classmethod
    def of(cls, state: GameState) -> Snapshot:
        """The snapshot of ``state``.

        Parameters
        ----------
        state : GameState
            The position.

        Returns
        -------
        Snapshot
        """
        return cls(
            tuple((int(p.cash), int(p.position), bool(p.in_jail), int(p.jail_turns), int(p.jail_cards)) for p in state.players),
            int(state.to_move), int(state.round), str(state.phase), int(state.doubles_rolled), int(state.pot),
            None if state.bank_cash is None else int(state.bank_cash),
        )

    def on(self, state: GameState) -> GameState:
        """A copy of ``state`` (same holdings) with this snapshot's players and turn.

        Parameters
        ----------
        state : GameState
            A state with the holdings the snapshot was taken with.

        Returns
        -------
        GameState
            The copy.
        """
        out = state.copy()
        for p, (cash, position, in_jail, jail_turns, jail_cards) in zip(out.players, self.players, strict=True):
            p.cash, p.position, p.in_jail, p.jail_turns, p.jail_cards = cash, position, in_jail, jail_turns, jail_cards
        out.to_move, out.round, out.doubles_rolled, out.pot, out.bank_cash = self.to_move, self.round, self.doubles_rolled, self.pot, self.bank_cash
        out.phase = type(state.phase)(self.phase)
        out.pending = None
        return out

    def key(self) -> Key:
        """Its digest (:func:`solver.decisions.keys.digest`).

        Returns
        -------
        Key
        """
        return digest("snapshot", self.to_list())

    def to_list(self) -> list[Any]:
        """The JSON form: ``[players, to_move, round, phase, doubles_rolled, pot, bank_cash]``.

        Returns
        -------
        list
        """
        return [[list(p) for p in self.players], self.to_move, self.round, self.phase, self.doubles_rolled, self.pot, self.bank_cash]

    @classmethod
    def from_list(cls, doc: Sequence[Any]) -> Snapshot:
        """The snapshot of :meth:`to_list`'s form.

        Parameters
        ----------
        doc : list
            The JSON form.

        Returns
        -------
        Snapshot
        """
        players, to_move, round_, phase, doubles, pot, bank = doc
        return cls(
            tuple((int(c), int(q), bool(j), int(t), int(k)) for c, q, j, t, k in players),
            int(to_move), int(round_), str(phase), int(doubles), int(pot), None if bank is None else int(bank),
        )


@dataclass(frozen=True)
class Queued:
    """A trade structure ranked by a search and not offered yet: the trade at its generated cash,
    its kind and traders, and the simulated change in win probability of every player.

    Attributes
    ----------
    trade : Trade
        The trade as the search priced it.
    kind : str
        ``bilateral``, ``cycle3`` (:class:`solver.trades.space.TradeKind`).
    players : tuple of int
        The traders' seats, in the candidate's order (the proposer first).
    win_delta : dict of str to float
        Every player's change (the search's simulation).

    Examples
    --------
    >>> q = Queued(Trade.bilateral("Ann", "Bob", [], ["Boardwalk"], 300), "bilateral", (0, 1), {"Ann": 0.1, "Bob": -0.1})
    >>> Queued.from_dict(q.to_dict()) == q
    True
    """

    trade: Trade
    kind: str
    players: tuple[int, ...]
    win_delta: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form.

        Returns
        -------
        dict
            ``trade``, ``kind``, ``players``, ``win_delta``.
        """
        return {"trade": self.trade.to_dict(), "kind": self.kind, "players": list(self.players), "win_delta": dict(self.win_delta)}

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> Queued:
        """The entry of :meth:`to_dict`'s form.

        Parameters
        ----------
        doc : dict
            The JSON form.

        Returns
        -------
        Queued
        """
        return cls(Trade.from_dict(doc["trade"]), str(doc["kind"]), tuple(int(p) for p in doc["players"]), {str(k): float(v) for k, v in doc["win_delta"].items()})


@dataclass
class PlanInProgress:
    """The funded build plan being carried out (one plan per building spree), and the position it
    started from: it is kept while the state is that position with part of the plan carried out
    (:func:`solver.decisions.building.on_path`).

    Attributes
    ----------
    owner, houses, mortgaged, bankrupt : list
        The start's holdings.
    cash : int
        The agent's cash at the start.
    levels : dict of int to int
        Square -> level after the plan (empty: hold).
    mortgages : tuple of int
        The spare lots the plan mortgages to fund it, in order.
    build_cost : int
        What the plan's buildings and lifts cost.
    cash_after : int
        The agent's cash after the plan.

    Examples
    --------
    >>> p = PlanInProgress([0], [0], [False], [False], 500, {1: 3}, (), 150, 350)
    >>> PlanInProgress.from_dict(p.to_dict()) == p, p.empty
    (True, False)
    """

    owner: list[int]
    houses: list[int]
    mortgaged: list[bool]
    bankrupt: list[bool]
    cash: int
    levels: dict[int, int]
    mortgages: tuple[int, ...]
    build_cost: int
    cash_after: int

    @property
    def empty(self) -> bool:
        """Whether the plan is to hold (nothing built)."""
        return not self.levels

    def to_dict(self) -> dict[str, Any]:
        """The JSON form.

        Returns
        -------
        dict
            Every attribute (``levels`` with string keys).
        """
        d = dataclasses.asdict(self)
        d["levels"] = {str(k): v for k, v in self.levels.items()}
        d["mortgages"] = list(self.mortgages)
        return d

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> PlanInProgress:
        """The plan of :meth:`to_dict`'s form.

        Parameters
        ----------
        doc : dict
            The JSON form.

        Returns
        -------
        PlanInProgress
        """
        return cls(
            [int(x) for x in doc["owner"]], [int(x) for x in doc["houses"]], [bool(x) for x in doc["mortgaged"]],
            [bool(x) for x in doc["bankrupt"]], int(doc["cash"]), {int(k): int(v) for k, v in doc["levels"].items()},
            tuple(int(x) for x in doc["mortgages"]), int(doc["build_cost"]), int(doc["cash_after"]),
        )


@dataclass
class PlanEntry:
    """What the agent fixed when it first planned to build with some holdings: the state then
    (its ruin curve is computed there), and the frontier's budget and size (the frontier is
    rebuilt to a larger budget when the cash outgrows it; the entries are cleared when their
    frontiers pass :data:`solver.decisions.building.PLAN_CACHE_BYTES`).

    Attributes
    ----------
    anchor : Snapshot
        The state in which the holdings were first met.
    budget : int
        The budget the frontier is built to.
    nbytes : int
        The frontier's size in bytes.

    Examples
    --------
    >>> PlanEntry(Snapshot(((1500, 0, False, 0, 0),), 0, 0, "start", 0, 0, None), 400, 1024).budget
    400
    """

    anchor: Snapshot
    budget: int
    nbytes: int


@dataclass
class ReserveEntry:
    """The ruin reserves of some holdings known so far, computed in the state in which the agent
    first met them (a bid asks for its own reserve only; the others are computed there later).

    Attributes
    ----------
    anchor : Snapshot
        The state in which the holdings were first met.
    known : dict of int to int
        Seat -> reserve, those computed so far.

    Examples
    --------
    >>> ReserveEntry(Snapshot(((1500, 0, False, 0, 0),), 0, 0, "start", 0, 0, None), {0: 200}).known
    {0: 200}
    """

    anchor: Snapshot
    known: dict[int, int] = field(default_factory=dict)


def _key_to_json(key: TradeKey) -> list[Any]:
    legs: Any = key  # ``(from, to, lots)`` legs (:func:`solver.agents.strategic.trade_key`)
    return [[frm, to, list(lots)] for frm, to, lots in legs]


def _key_from_json(doc: Sequence[Any]) -> TradeKey:
    return tuple((str(frm), str(to), tuple(str(x) for x in lots)) for frm, to, lots in doc)


def _checked_settings(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A search's simulation settings as :func:`solver.decisions.simulation.settings_to_json` writes
    them, checked (the rollout policies are built to check them)."""
    out = {k: doc[k] for k in ("rollouts", "horizon", "seed", "z", "balance", "acceptance_slope", "scoring", "threads")}
    for k in ("rollouts", "horizon", "seed", "threads"):
        if isinstance(out[k], bool) or not isinstance(out[k], int):
            raise AgentMemoryError(f"{k} must be an integer, got {out[k]!r}")
    policy = doc["policy"]
    for p in policy if isinstance(policy, list) else [policy]:
        RolloutPolicy(**p)
    out["policy"] = policy
    return out


def _opponents_to_json(models: OpponentModels) -> dict[str, Any]:
    return {
        "models": {
            str(q): {"xs": [[float(v) for v in x] for x in m.xs], "ys": list(m.ys), "offers_seen": m.offers_seen, "max_history": m.max_history}
            for q, m in models.models.items()
        },
        "pending": [[_key_to_json(k), [[q, [float(v) for v in x]] for q, x in rows]] for k, rows in models.pending.items()],
    }


def _opponents_from_json(doc: Mapping[str, Any]) -> OpponentModels:
    out = OpponentModels()
    for q, m in doc["models"].items():
        model = AcceptanceModel(max_history=int(m["max_history"]))
        model.xs = [np.array([float(v) for v in x]) for x in _bounded(m["xs"], "answers")]
        model.ys = [int(y) for y in m["ys"]]
        model.offers_seen = int(m["offers_seen"])
        if len(model.xs) != len(model.ys) or any(x.shape != model.prior_mean.shape or not np.all(np.isfinite(x)) for x in model.xs):
            raise AgentMemoryError(f"opponent {q}: answers must be pairs of {len(model.prior_mean)} finite features and 0/1")
        if model.xs:
            model._fit()  # the posterior is a function of the answers (each answer refits from the prior)
        out.models[int(q)] = model
    for k, rows in doc["pending"]:
        out.pending[_key_from_json(k)] = [(int(q), np.array([float(v) for v in x])) for q, x in rows]
    return out


def _bounded(xs: Any, what: str) -> Any:
    if len(xs) > MAX_ENTRIES:
        raise AgentMemoryError(f"{len(xs)} {what} (at most {MAX_ENTRIES})")
    return xs


@dataclass
class AgentMemory:
    """What the agent remembers (module docstring): its answers depend on this, the state and
    its settings only.

    Attributes
    ----------
    seat : int
        The agent's seat (-1: not seated yet).
    round : int
        The round, from the last ``turn`` event.
    proposed_this_phase : int
        Trade searches asked in the current phase.
    seeds : int
        The counter of the simulations' seeds.
    auction_seeds : int
        The counter of the auction evaluations' seeds (``auction="simulate"``).
    auction : tuple of (Key, int, tuple of int) or None
        The last auction evaluation: its key (the lot and the state), its seed, and the prices it
        probed (a bid's bisection starts from them, so they change the bid).
    refused : dict of TradeKey to int
        The round each of its structures was last refused in.
    refused_at : dict of TradeKey to int
        The best price refused per bilateral structure (the counterparty's net cash).
    refusals : Refusals
        The moves the host refused, by position.
    opponents : OpponentModels
        The opponents' acceptance models and the offers waiting for an answer.
    habits : TradeHabits
        Which opponents trade.
    play : ObservedPlay
        What every seat was seen to do (buying, building, answering offers), and the cash ledger.
    reserves : dict of Key to dict
        Holdings -> every active player's ruin reserve.
    partial : dict of Key to ReserveEntry
        Holdings -> the reserves known so far (a bid's own).
    plans : dict of Key to PlanEntry
        Holdings -> what the build plans fixed there.
    plan : PlanInProgress or None
        The build plan being carried out.
    search_key : Key or None
        The key of the last trade search (:func:`solver.decisions.keys.search_position`).
    searched : Key or None
        The state the last search simulated (:func:`solver.decisions.keys.state_key`).
    search_settings : dict or None
        That search's simulation settings, as JSON (:func:`solver.decisions.simulation.settings_to_json`;
        the queue's play prices reuse them in that state).
    queue : list of Queued
        The ranked structures not offered yet, best first.
    pending : Queued or None
        The offer waiting for an answer.
    searches, offers_made, offers_accepted : int
        Counts for reports.

    Examples
    --------
    >>> m = AgentMemory(seat=2)
    >>> m.refused[(("Ann", "Bob", ("Boardwalk",)),)] = 7
    >>> AgentMemory.from_dict(m.to_dict()).to_dict() == m.to_dict()
    True
    >>> AgentMemory.from_dict({"format": "other"})
    Traceback (most recent call last):
    ...
    solver.decisions.memory.AgentMemoryError: memory: format 'other' is not monopoly-agent-memory/1
    """

    seat: int = -1
    round: int = 0
    proposed_this_phase: int = 0
    seeds: int = 0
    auction_seeds: int = 0
    auction: tuple[Key, int, tuple[int, ...]] | None = None
    refused: dict[TradeKey, int] = field(default_factory=dict)
    refused_at: dict[TradeKey, int] = field(default_factory=dict)
    refusals: Refusals = field(default_factory=Refusals)
    opponents: OpponentModels = field(default_factory=OpponentModels)
    habits: TradeHabits = field(default_factory=TradeHabits)
    play: ObservedPlay = field(default_factory=ObservedPlay)
    reserves: dict[Key, dict[int, int]] = field(default_factory=dict)
    partial: dict[Key, ReserveEntry] = field(default_factory=dict)
    plans: dict[Key, PlanEntry] = field(default_factory=dict)
    plan: PlanInProgress | None = None
    search_key: Key | None = None
    searched: Key | None = None
    search_settings: dict[str, Any] | None = None
    queue: list[Queued] = field(default_factory=list)
    pending: Queued | None = None
    searches: int = 0
    offers_made: int = 0
    offers_accepted: int = 0

    def refused_now(self, key: TradeKey, recall: int) -> bool:
        """Whether the structure ``key`` stands refused: it was refused, and (``recall`` > 0) fewer
        than ``recall`` rounds ago (an older refusal is forgotten, price floor included).

        Parameters
        ----------
        key : TradeKey
            The structure.
        recall : int
            The agent's ``recall`` (0: never forgotten).

        Returns
        -------
        bool

        Examples
        --------
        >>> m = AgentMemory(round=10); k = (("Ann", "Bob", ("Boardwalk",)),); m.refused[k] = 4
        >>> m.refused_now(k, 0), m.refused_now(k, 5), m.refused_now(k, 7)
        (True, False, True)
        """
        at = self.refused.get(key)
        if at is None:
            return False
        return recall == 0 or self.round - at < recall

    def copy(self) -> AgentMemory:
        """A deep copy (what ``solve`` answers with, leaving the caller's memory as it was).

        Returns
        -------
        AgentMemory
        """
        return copy.deepcopy(self)

    def to_dict(self) -> dict[str, Any]:
        """The memory as a JSON object (``format`` first); :meth:`from_dict` reads it back.

        Returns
        -------
        dict
            Every attribute; trade structures as lists of ``[from, to, lots]``, states as
            :class:`Snapshot` lists.
        """
        h = self.habits
        return {
            "format": FORMAT,
            "seat": self.seat,
            "round": self.round,
            "proposed_this_phase": self.proposed_this_phase,
            "seeds": self.seeds,
            "auction_seeds": self.auction_seeds,
            "auction": [self.auction[0], self.auction[1], list(self.auction[2])] if self.auction is not None else None,
            "refused": [[_key_to_json(k), v] for k, v in self.refused.items()],
            "refused_at": [[_key_to_json(k), v] for k, v in self.refused_at.items()],
            "refusals": self.refusals.to_dict(),
            "opponents": _opponents_to_json(self.opponents),
            "habits": {
                "chances": {str(q): n for q, n in h.chances.items()},
                "proposals": {str(q): n for q, n in h.proposals.items()},
                "seen_round": {str(q): n for q, n in h._seen_round.items()},
            },
            "play": self.play.to_dict(),
            "reserves": {k: {str(q): r for q, r in v.items()} for k, v in self.reserves.items()},
            "partial": {k: {"anchor": e.anchor.to_list(), "known": {str(q): r for q, r in e.known.items()}} for k, e in self.partial.items()},
            "plans": {k: {"anchor": e.anchor.to_list(), "budget": e.budget, "nbytes": e.nbytes} for k, e in self.plans.items()},
            "plan": self.plan.to_dict() if self.plan is not None else None,
            "search_key": self.search_key,
            "searched": self.searched,
            "search_settings": copy.deepcopy(self.search_settings),
            "queue": [q.to_dict() for q in self.queue],
            "pending": self.pending.to_dict() if self.pending is not None else None,
            "searches": self.searches,
            "offers_made": self.offers_made,
            "offers_accepted": self.offers_accepted,
        }

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> AgentMemory:
        """The memory of a JSON object written by :meth:`to_dict`.

        Parameters
        ----------
        doc : mapping
            The object.

        Returns
        -------
        AgentMemory

        Raises
        ------
        AgentMemoryError
            Another format, a missing or malformed part, or more entries than the bounds
            (one line naming the part).
        """
        if not isinstance(doc, Mapping):
            raise AgentMemoryError(f"memory: expected a JSON object, got {type(doc).__name__}")
        if doc.get("format") != FORMAT:
            raise AgentMemoryError(f"memory: format {doc.get('format')!r} is not {FORMAT}")
        part = "format"
        try:
            m = cls()
            for part in ("seat", "round", "proposed_this_phase", "seeds", "auction_seeds", "searches", "offers_made", "offers_accepted"):
                value = doc[part]
                if isinstance(value, bool) or not isinstance(value, int):
                    raise AgentMemoryError(f"expected an integer, got {value!r}")
                setattr(m, part, value)
            part = "auction"
            a = doc["auction"]
            m.auction = None if a is None else (str(a[0]), int(a[1]), tuple(int(p) for p in _bounded(a[2], "prices")))
            part = "refused"
            m.refused = {_key_from_json(k): int(v) for k, v in _bounded(doc["refused"], "entries")}
            part = "refused_at"
            m.refused_at = {_key_from_json(k): int(v) for k, v in _bounded(doc["refused_at"], "entries")}
            part = "refusals"
            m.refusals = Refusals.from_dict(doc["refusals"])
            part = "opponents"
            m.opponents = _opponents_from_json(doc["opponents"])
            part = "habits"
            h = doc["habits"]
            m.habits = TradeHabits(
                {int(q): int(n) for q, n in h["chances"].items()}, {int(q): int(n) for q, n in h["proposals"].items()},
                {int(q): int(n) for q, n in h["seen_round"].items()},
            )
            part = "play"  # optional: memories written before session 19 have none
            if doc.get("play") is not None:
                m.play = ObservedPlay.from_dict(doc["play"])
            part = "reserves"
            m.reserves = {str(k): {int(q): int(r) for q, r in v.items()} for k, v in _bounded(doc["reserves"], "entries").items()}
            part = "partial"
            m.partial = {
                str(k): ReserveEntry(Snapshot.from_list(e["anchor"]), {int(q): int(r) for q, r in e["known"].items()})
                for k, e in _bounded(doc["partial"], "entries").items()
            }
            part = "plans"
            m.plans = {
                str(k): PlanEntry(Snapshot.from_list(e["anchor"]), int(e["budget"]), int(e["nbytes"])) for k, e in _bounded(doc["plans"], "entries").items()
            }
            if len(m.reserves) + len(m.partial) > MAX_HOLDINGS + 1 or len(m.plans) > MAX_HOLDINGS + 1:
                raise AgentMemoryError(f"more than {MAX_HOLDINGS + 1} sets of holdings")
            part = "plan"
            m.plan = PlanInProgress.from_dict(doc["plan"]) if doc["plan"] is not None else None
            part = "search"
            m.search_key = None if doc["search_key"] is None else str(doc["search_key"])
            m.searched = None if doc["searched"] is None else str(doc["searched"])
            m.search_settings = _checked_settings(doc["search_settings"]) if doc["search_settings"] is not None else None
            part = "queue"
            m.queue = [Queued.from_dict(q) for q in _bounded(doc["queue"], "entries")]
            part = "pending"
            m.pending = Queued.from_dict(doc["pending"]) if doc["pending"] is not None else None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            what = f"missing key {err}" if isinstance(err, KeyError) else str(err).splitlines()[0] if str(err) else err.__class__.__name__
            raise AgentMemoryError(f"memory: {part}: {what}") from None
        return m


def load_memory(source: str | os.PathLike[str] | Mapping[str, Any]) -> AgentMemory:
    """A memory from a file written by :meth:`AgentMemory.to_dict` (JSON), or from the object itself.

    Parameters
    ----------
    source : path or mapping
        The file, or its parsed object.

    Returns
    -------
    AgentMemory

    Raises
    ------
    AgentMemoryError
        The file cannot be read, is larger than :data:`MAX_FILE_BYTES`, is not JSON, or is not
        a memory (one line).

    Examples
    --------
    >>> load_memory(AgentMemory(seat=1).to_dict()).seat
    1
    >>> load_memory("no-such-file.json")
    Traceback (most recent call last):
    ...
    solver.decisions.memory.AgentMemoryError: memory: cannot read 'no-such-file.json': No such file or directory
    """
    if isinstance(source, Mapping):
        return AgentMemory.from_dict(source)
    name = os.fspath(source)
    try:
        if os.path.getsize(name) > MAX_FILE_BYTES:
            raise AgentMemoryError(f"memory: {name!r} is larger than {MAX_FILE_BYTES} bytes")
        with open(name, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as err:
        raise AgentMemoryError(f"memory: cannot read {name!r}: {err.strerror or err}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise AgentMemoryError(f"memory: {name!r} is not JSON ({str(err).splitlines()[0]})") from None
    return AgentMemory.from_dict(doc)


def save_memory(memory: AgentMemory, path: str | os.PathLike[str]) -> None:
    """Write ``memory`` as JSON to ``path`` (:meth:`AgentMemory.to_dict`).

    Parameters
    ----------
    memory : AgentMemory
        The memory.
    path : path
        The file (replaced).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "memory.json")
    >>> save_memory(AgentMemory(seat=3), path); load_memory(path).seat
    3
    """
    with open(path, "w", encoding="utf-8") as f:
        json.dump(memory.to_dict(), f, allow_nan=True)
        f.write("\n")


__all__ = [
    "FORMAT",
    "MAX_HOLDINGS",
    "AgentMemory",
    "AgentMemoryError",
    "PlanEntry",
    "PlanInProgress",
    "Queued",
    "ReserveEntry",
    "Snapshot",
    "TradeKey",
    "load_memory",
    "save_memory",
]
