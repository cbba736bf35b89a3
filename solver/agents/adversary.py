"""``AdversaryAgent``: a white-box trader that looks for offers its target accepts although they hurt it.

Issue 39 item 3 asks whether an opponent can exploit the solver's agent by offering trades it
wrongly accepts. This agent is that opponent. It plays every routine decision as
:class:`solver.agents.strategic.StrategicTradeAgent` (buying, bids, building, jail, raising
cash, answering offers); only its proposals differ:

1. **Mirrors.** At the start of a game it builds, for every other seat, a copy of the target
   agent (``target``, a registry spec) in that seat, and forwards every event of the game to
   each copy, so each copy's memory (observed play, refused offers, opponent models) is the
   one the real seat builds. This is the white box: the adversary may call the target's own
   acceptance code. It cannot see the target's seed counter, so a prediction is the target's
   verdict on other dice (every probe of one search uses the same draw: common random numbers
   along the price ladder).
2. **Structures.** When the position has changed since its last search (:func:`search_key`:
   owners, buildings, mortgages, or its own cash bucket): the top ``structures`` bilateral trades of
   the CP-SAT generator for the adversary (:func:`solver.trades.cpsat.generate_trades`, relaxed
   rule 1, so a completion may be handed over for cash, and no cash reserve: the price search
   below bounds the cash), and every single-lot sale that would
   complete an unbuilt street group for the buyer or for the adversary (the trades a simulated
   answer is most likely to misprice: a completion's worth depends on the long game).
3. **The price the target accepts.** For each structure, the cash ``c`` the adversary pays the
   counterparty (negative: the counterparty pays) is searched against the mirror's answer on a
   window of ``span`` dollars either side of the generated cash, clipped to what each side
   holds: the window's favourable end is probed first, then the least favourable, then
   ``probes - 2`` bisection steps toward the favourable end (acceptance grows with ``c``, noisy
   as it is). The structure's price is the most favourable accepted ``c``; a structure the
   mirror refuses at the least favourable end is dropped.
4. **The larger evaluation.** Each priced trade is simulated with ``rollouts`` games of
   ``horizon`` rounds (every seat playing the trading rollout policy, the adversary judging now
   against not now, :meth:`solver.trades.rescore.RescoreSettings.not_now`: the evaluation
   ``solve`` uses, with a larger budget than the target's ``accept_rollouts`` x ``horizon``).
   A trade qualifies when the adversary's change is beyond ``gain_z`` standard errors above 0
   and, with ``harm`` (the default), the counterparty's change is below 0: it hurts the target
   by the adversary's larger measure. The qualifying trade with the largest gain for the
   adversary is proposed. Nothing else is searched until the position changes.

Whether an accepted offer really hurt the target is not this agent's judgement: the bench
``bench/exploit.py`` plays each accepted offer's state to the end with and without it
(strategic agents in every seat, paired) and counts the harmful ones.

With ``record`` the agent keeps every offer it made (the state, the trade, its estimates, how
many of the mirror's answers its price took, and the real answer) in
:attr:`AdversaryAgent.offers`, for that bench. Every offer is one the mirror accepted, so the
real answer is the test of the mirror's prediction.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.rules.actions import Event, ProposeTrade
from engine.rules.agents import check_options
from engine.rules.protocol import Agent
from engine.rules.seeding import SeedLike
from engine.rules.view import GameView
from engine.sim.rollout import paired_delta, simulate
from models.errors import InvalidArgumentError, InvalidTradeError, UnknownNameError
from models.io import state_to_dict
from models.state import GameState
from models.trade import Trade
from solver.agents.strategic import StrategicTradeAgent, trade_key
from solver.decisions.keys import holdings
from solver.decisions.proposing import cash_bucket
from solver.decisions.settings import AgentSettings
from solver.trades.bargaining import trade_with_cash
from solver.trades.cpsat import Limits, generate_trades
from solver.trades.rescore import RescoreSettings, trade_after


@dataclass
class Probe:
    """One priced structure of a search.

    Attributes
    ----------
    trade : Trade
        The trade at its price (``counterparty`` is the other side).
    counterparty : int
        The target's seat.
    cash : int
        What the adversary pays the counterparty (negative: it receives).
    answers : int
        The mirror's answers this price took (at most the agent's ``probes``).
    gain, gain_se : float
        The adversary's change in win probability by its larger evaluation, and its standard error.
    harm, harm_se : float
        The counterparty's change, and its standard error.

    Examples
    --------
    >>> p = Probe(Trade.bilateral("Ann", "Bob", [], ["Boardwalk"], 300), 1, 300, 5)
    >>> p.qualifies(1.0, True)  # not yet evaluated
    False
    """

    trade: Trade
    counterparty: int
    cash: int
    answers: int
    gain: float = float("nan")
    gain_se: float = float("nan")
    harm: float = float("nan")
    harm_se: float = float("nan")

    def qualifies(self, gain_z: float, harm: bool) -> bool:
        """Whether the adversary would propose it: its gain beyond ``gain_z`` standard errors and,
        with ``harm``, the counterparty's change below 0.

        Parameters
        ----------
        gain_z : float
            The one-sided z of the adversary's gain.
        harm : bool
            Whether the counterparty must lose.

        Returns
        -------
        bool
        """
        if not np.isfinite(self.gain):
            return False
        return self.gain > gain_z * self.gain_se and (not harm or self.harm < 0.0)


class AdversaryAgent(StrategicTradeAgent):
    """The white-box adversary of issue 39 item 3, registered as ``adversary`` (the module docstring).

    Parameters
    ----------
    seed : int, SeedSequence or None
        As :class:`engine.rules.agents.BaseAgent`; the mirrors' seeds are drawn from it.
    target : str, default "subgraph"
        The registry spec of the agent whose acceptance code it calls, for every other seat.
        Options are separated by ``/`` (a comma would end the spec in ``--agents``):
        ``subgraph:hold=false/fit_accept=true``.
    structures : int, default 6
        The CP-SAT generator's trades considered per search (the completion sales come on top).
    probes : int, default 6
        The mirror's answers per structure (the price search).
    span : int, default 600
        The price window either side of the generated cash, in dollars.
    rollouts : int, default 800
        Games per simulation of its larger evaluation.
    horizon : int, default 40
        Rounds per game of that evaluation.
    gain_z : float, default 1.0
        The adversary's gain must exceed this many standard errors.
    harm : bool, default True
        Only trades its evaluation says hurt the counterparty.
    record : bool, default False
        Keep every offer in :attr:`offers` (for ``bench/exploit.py``).

    Raises
    ------
    InvalidArgumentError
        An option outside :attr:`OPTION_LIMITS`, an unknown ``target`` or the adversary as its own target.

    Examples
    --------
    >>> import solver.agents.registry  # the registry resolves the target's spec (:func:`use_resolver`)
    >>> AdversaryAgent(target="strategic").target
    'strategic'
    >>> AdversaryAgent(target="adversary")
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: option 'target': the adversary cannot target itself
    """

    name = "adversary"
    OPTION_LIMITS: dict[str, tuple[float, float] | tuple[str, ...]] = {
        "structures": (0, 50),
        "probes": (2, 20),
        "span": (0, 10_000),
        "rollouts": (1, 100_000),
        "horizon": (1, 1000),
        "gain_z": (0.0, 5.0),
    }
    """The range of each numeric option."""
    SPEC_OPTIONS = ("target",)
    """Options whose value is an agent spec (checked by the registry, not by a range)."""

    def __init__(
        self,
        seed: SeedLike = None,
        *,
        target: str = "subgraph",
        structures: int = 6,
        probes: int = 6,
        span: int = 600,
        rollouts: int = 800,
        horizon: int = 40,
        gain_z: float = 1.0,
        harm: bool = True,
        record: bool = False,
    ) -> None:
        check_options(AdversaryAgent.OPTION_LIMITS, locals())
        self.target = target
        self._make = _target_factory(target)
        super().__init__(seed)
        self.structures = structures
        self.probes = probes
        self.span = span
        self.rollouts = rollouts
        self.horizon = horizon
        self.gain_z = gain_z
        self.harm = harm
        self.record = record
        self.mirrors: dict[int, Agent] = {}
        """Seat -> the copy of the target in that seat (fed every event)."""
        self.offers: list[dict[str, Any]] = []
        """With ``record``: every offer made (state, trade, estimates, the mirror answers its price took, the real answer)."""
        self._searched: tuple[object, ...] | None = None
        self.searches = 0
        """Searches run (position keys met)."""

    # -- the mirrors --------------------------------------------------------
    def start_game(self, me: int, names: tuple[str, ...]) -> None:
        """Keep its seat and build one copy of the target in every other seat.

        Parameters
        ----------
        me : int
            The agent's seat.
        names : tuple of str
            Every player's name, in seat order.
        """
        super().start_game(me, names)
        seeds = np.random.SeedSequence(int(self.rng.integers(2**63))).spawn(len(names))
        self.mirrors = {}
        for q in range(len(names)):
            if q != me:
                mirror = self._make(seeds[q])
                mirror.start_game(q, names)
                self.mirrors[q] = mirror
        self.offers = []
        self._searched = None

    def notify(self, event: Event) -> None:
        """Its own bookkeeping, every mirror's, and the real answer to a recorded offer.

        Parameters
        ----------
        event : Event
            What happened.
        """
        super().notify(event)
        for mirror in self.mirrors.values():
            mirror.notify(event)
        if event.kind == "trade" and event.player == self.me and self.offers and self.offers[-1]["accepted"] is None:
            if trade_key(event.data["trade"]) == self.offers[-1]["key"]:
                self.offers[-1]["accepted"] = bool(event.data.get("accepted"))

    def predict(self, state: GameState, q: int, trade: Trade, draw: int) -> bool:
        """Seat ``q``'s answer to ``trade`` by the target's own code, on the mirror of that seat.

        The mirror's memory is copied for the question (a probe is not an offer the seat saw),
        its seed counter set to ``draw``.

        Parameters
        ----------
        state : GameState
            The position.
        q : int
            The counterparty's seat.
        trade : Trade
            The offer.
        draw : int
            The seed counter the probe uses (one per search: common random numbers).

        Returns
        -------
        bool
            Whether the mirror accepts.
        """
        mirror = self.mirrors[q]
        memory = getattr(mirror, "memory", None)
        if memory is None:  # a target without a memory (strategic, value): its answer as it is
            return bool(mirror.accept_trade(GameView(state, q), trade))
        probe = copy.deepcopy(memory)
        probe.seeds = draw
        mirror.memory = probe  # type: ignore[attr-defined]
        try:
            return bool(mirror.accept_trade(GameView(state, q), trade))
        finally:
            mirror.memory = memory  # type: ignore[attr-defined]

    # -- proposing ----------------------------------------------------------
    def find_trade(self, view: GameView) -> Trade | None:
        """The qualifying trade with the largest gain of a new search (module docstring), or ``None``
        when the position is that of its last search.

        Parameters
        ----------
        view : GameView
            What this agent sees.

        Returns
        -------
        Trade or None
            The proposal.
        """
        self._prepare(view)
        state = view.copy()
        key = search_key(state, self.me)
        if key == self._searched:
            return None
        self._searched = key
        self.searches += 1
        ranked = self.search(state, view)
        if not ranked:
            return None
        best = ranked[0]
        if self.record:
            self.offers.append(
                {
                    "round": state.round,
                    "state": state_to_dict(state),
                    "trade": best.trade.to_dict(),
                    "key": trade_key(best.trade),
                    "counterparty": best.counterparty,
                    "cash": best.cash,
                    "gain": best.gain,
                    "gain_se": best.gain_se,
                    "harm": best.harm,
                    "harm_se": best.harm_se,
                    "answers": best.answers,
                    "accepted": None,
                }
            )
        return best.trade

    def structures_of(self, state: GameState) -> list[tuple[Trade, int]]:
        """The structures a search prices: (trade at its generated cash, counterparty), no two alike.

        Parameters
        ----------
        state : GameState
            The position.

        Returns
        -------
        list of (Trade, int)
        """
        me, names = self.me, [p.name for p in state.players]
        out: list[tuple[Trade, int]] = []
        seen: set[tuple[object, ...]] = set()

        def add(trade: Trade, q: int) -> None:
            k = (q, tuple(sorted(trade.properties_given(names[me]))), tuple(sorted(trade.properties_received(names[me]))))
            if k not in seen and q in self.mirrors and not state.players[q].bankrupt:
                seen.add(k)
                out.append((trade, q))

        if self.structures:
            zero = {q: 0 for q in range(len(names))}  # no cash reserve rule: the price search bounds the cash
            found = generate_trades(state, me, limits=Limits(top_k=self.structures), relaxed=True, explain=False, reserves=zero)
            for g in found.trades:
                if len(g.candidate.players) == 2:
                    add(g.candidate.to_trade(state), g.candidate.players[1])
        board = state.board
        for q in sorted(self.mirrors):
            for sq in self._one_short(state, q).get(me, []):  # a lot of mine completes q's group
                add(Trade.bilateral(names[me], names[q], [board.squares[sq].name], []), q)
        for q, lots in sorted(self._one_short(state, me).items()):  # q's lot completes mine
            for sq in lots:
                add(Trade.bilateral(names[me], names[q], [], [board.squares[sq].name]), q)
        return out

    def price(self, state: GameState, view: GameView, trade: Trade, q: int, draw: int) -> Probe | None:
        """The most favourable cash in the window that seat ``q``'s mirror accepts (module docstring, 3).

        Parameters
        ----------
        state : GameState
            The position.
        view : GameView
            The adversary's view (the host's legality check).
        trade : Trade
            The structure at its generated cash.
        q : int
            The counterparty.
        draw : int
            The probes' seed counter.

        Returns
        -------
        Probe or None
            ``None``: refused at the window's least favourable end, or no legal price.
        """
        names = [p.name for p in state.players]
        a, b = names[self.me], names[q]
        c0 = -trade.net_cash(a)  # what the adversary pays now
        lo = max(-state.players[q].cash, c0 - self.span)
        hi = min(state.players[self.me].cash, c0 + self.span)
        if lo > hi:
            return None
        asked = 0

        def accepts(c: int) -> bool:
            nonlocal asked
            t = trade_with_cash(trade, a, b, c)
            if not t.transfers or view.why_not_trade(t) is not None or self.refusals.refused(view, ProposeTrade(t)):
                return False
            try:
                trade_after(state, t)
            except InvalidTradeError:
                return False
            asked += 1
            return self.predict(state, q, t, draw)

        if accepts(lo):
            return Probe(trade_with_cash(trade, a, b, lo), q, lo, asked)
        if not accepts(hi):
            return None
        bad, good = lo, hi  # refused at bad, accepted at good
        for _ in range(self.probes - 2):
            if good - bad <= 10:
                break
            mid = (bad + good) // 2
            if accepts(mid):
                good = mid
            else:
                bad = mid
        return Probe(trade_with_cash(trade, a, b, good), q, good, asked)

    def search(self, state: GameState, view: GameView) -> list[Probe]:
        """Every qualifying priced structure, the largest gain first (module docstring).

        Parameters
        ----------
        state : GameState
            The position.
        view : GameView
            The adversary's view.

        Returns
        -------
        list of Probe
        """
        draw = int(self.rng.integers(1, 2**31))
        priced = [p for trade, q in self.structures_of(state) if (p := self.price(state, view, trade, q, draw)) is not None]
        if not priced:
            return []
        n = len(state.players)
        rs = RescoreSettings(rollouts=self.rollouts, horizon=self.horizon, seed=draw).not_now(self.me, n, state.to_move)
        base = simulate(state, rs.rollouts, rs.horizon, rs.seed, policy=rs.policy, scoring=rs.scoring)
        me = state.players[self.me].name
        for p in priced:
            after = simulate(trade_after(state, p.trade), rs.rollouts, rs.horizon, rs.seed, policy=rs.policy, scoring=rs.scoring)
            p.gain, p.gain_se = paired_delta(base, after, me)
            p.harm, p.harm_se = paired_delta(base, after, state.players[p.counterparty].name)
        return sorted((p for p in priced if p.qualifies(self.gain_z, self.harm)), key=lambda p: -p.gain)


def search_key(state: GameState, me: int) -> tuple[object, ...]:
    """The position as the adversary's searches see it: the holdings (owners, buildings, mortgages,
    who is still in) and its own cash bucket, the key of the ``subgraph`` agent's searches
    (:func:`solver.decisions.keys.holdings`, :func:`solver.decisions.proposing.cash_bucket` at the
    default settings: $150 steps, then one bucket per doubling).

    Parameters
    ----------
    state : GameState
        The position.
    me : int
        The adversary's seat.

    Returns
    -------
    tuple
        Equal for two positions a search would treat alike.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> t = s.copy(); t.players[0].cash += 10; t.players[1].cash += 500
    >>> search_key(s, 0) == search_key(t, 0), search_key(s, 1) == search_key(t, 1)
    (True, False)
    """
    return (holdings(state), cash_bucket(state.players[me].cash, _DEFAULTS))


_DEFAULTS = AgentSettings()


TargetResolver = Callable[[str], Callable[[SeedLike], Agent]]
"""How a ``target`` spec becomes a factory of agents (the registry's ``factory``)."""

_RESOLVER: list[TargetResolver] = []


def use_resolver(resolve: TargetResolver) -> None:
    """Set how ``target`` specs are resolved. The agent registry calls it with its ``factory``
    when it registers the adversary: the adversary cannot import the registry, which imports it.

    Parameters
    ----------
    resolve : callable
        ``spec -> factory``, raising :class:`models.errors.UnknownNameError` for a bad spec.

    Examples
    --------
    >>> import solver.agents.registry  # registers the adversary, and its resolver
    >>> AdversaryAgent(target="strategic").target
    'strategic'
    """
    _RESOLVER[:] = [resolve]


def _target_factory(target: str) -> Callable[[SeedLike], Agent]:
    """The factory of ``target`` (``/`` separates its options), refused in one line when unknown."""
    if not _RESOLVER:
        raise InvalidArgumentError("option 'target': no agent registry to resolve it (import solver.agents.registry)")
    spec = target.replace("/", ",")
    if spec.partition(":")[0].strip() == AdversaryAgent.name:
        raise InvalidArgumentError("option 'target': the adversary cannot target itself")
    try:
        return _RESOLVER[0](spec)
    except UnknownNameError as err:
        raise InvalidArgumentError(f"option 'target': {err}") from None


__all__ = ["AdversaryAgent", "Probe", "TargetResolver", "search_key", "use_resolver"]
