"""The agent's trade search: the candidates, re-scored by simulation, filtered and ranked.

One search (:func:`search`): the CP-SAT candidates (:func:`solver.trades.cpsat.generate_trades`,
top ``candidates``, on the generator's value ``value``/``objective``/``margin``; bilateral on the
relaxed rule-1 model with ``relax``, or strict 3-cycles), and the denial and consolidation
purchases (:mod:`solver.trades.purchases`) and, with ``hold=False`` and ``policy_offer``, the
rollout policy's own proposal (:func:`solver.trades.policy_trade.policy_candidate`), re-scored
on common dice (``rollouts`` games of ``horizon`` rounds, the next seed of the memory,
:mod:`solver.decisions.simulation`). A candidate qualifies by :mod:`solver.trades.selection`'s
``best`` mode (the rule ``solve --mode best`` uses): the agent gains beyond the noise (with
``exploit=False`` every trader must: the Nash zone) and nobody else (with ``balance_self`` not the
agent either) becomes the leader at 55% or more. A structure refused before is left out unless it
may come back at a better price (``haggle``, :func:`may_haggle`). With ``learn`` the acceptance
is the opponents' learned models (:class:`solver.agents.opponent_model.OpponentModels`). The
qualifying trades are ranked by risk-adjusted gain, best first.
"""

from __future__ import annotations

from models.state import GameState
from solver.agents.strategic import trade_key
from solver.decisions.caches import DecisionCaches
from solver.decisions.keys import state_key
from solver.decisions.memory import AgentMemory, Queued
from solver.decisions.reserves import chain_of, reserves_for
from solver.decisions.settings import AgentSettings
from solver.decisions.simulation import baseline_of, rescore_settings, settings_to_json
from solver.trades.cpsat import Limits, generate_trades
from solver.trades.policy_trade import policy_candidate
from solver.trades.rescore import rescore_one, trade_after
from solver.trades.selection import qualifies, rank_key
from solver.trades.space import Candidate, TradeKind


def may_haggle(kind: str, settings: AgentSettings) -> bool:
    """Whether a refused structure of this kind may come back at a better price: ``haggle`` on, and
    a bilateral trade priced for play (the price :mod:`solver.decisions.pricing` can raise).

    Parameters
    ----------
    kind : str
        The trade's kind (:class:`solver.trades.space.TradeKind`).
    settings : AgentSettings
        ``haggle``, ``price``.

    Returns
    -------
    bool

    Examples
    --------
    >>> may_haggle("bilateral", AgentSettings()), may_haggle("bilateral", AgentSettings(haggle=0)), may_haggle("cycle3", AgentSettings())
    (True, False, False)
    """
    return bool(settings.haggle) and settings.price == "play" and kind == TradeKind.BILATERAL


def search(
    state: GameState,
    me: int,
    settings: AgentSettings,
    memory: AgentMemory,
    caches: DecisionCaches,
    *,
    cycles: bool,
    relaxed: bool = False,
    extra: list[Candidate] | None = None,
    generate: bool = True,
) -> list[Queued]:
    """The qualifying trades of one search, best first (module docstring): the generator's
    candidates (unless ``generate`` is false), then ``extra`` ones (purchases), judged alike.

    The search's state and simulation settings become the memory's (:attr:`AgentMemory.searched`,
    :attr:`AgentMemory.search_settings`): the play prices of its ranking reuse them in that state.
    A search with no candidate simulates nothing and gives its seed back.

    Parameters
    ----------
    state : GameState
        The position.
    me : int
        The agent's seat.
    settings : AgentSettings
        The search's options.
    memory : AgentMemory
        Seeds, reserves, refused structures, opponent models (read and written).
    caches : DecisionCaches
        The caches.
    cycles : bool
        Search 3-cycles (strict) instead of bilateral trades.
    relaxed : bool, default False
        The bilateral search on the relaxed rule-1 model.
    extra : list of Candidate or None
        Purchases outside the generator.
    generate : bool, default True
        Run the generator (the agent has a partial set).

    Returns
    -------
    list of Queued

    Examples
    --------
    >>> from models.io import load_state
    >>> s, m = load_state("instances/midgame-no-monopolies.json"), AgentMemory()
    >>> found = search(s, 0, AgentSettings(rollouts=16), m, DecisionCaches(), cycles=False, relaxed=True)
    >>> found[0].kind, m.seeds, m.searched is not None
    ('bilateral', 1, True)
    """
    cands: list[Candidate] = []
    if generate:
        res = generate_trades(
            state, me, settings=settings.trade_settings, cycles=cycles, limits=Limits(top_k=settings.candidates), chain=chain_of(state, caches),
            reserves=reserves_for(state, settings, memory, caches), explain=False, relaxed=relaxed, bilateral=not cycles,
        )
        cands = [g.candidate for g in res.trades if res.relaxed == relaxed]
    cands += [c for c in extra or () if c not in cands]
    rs = rescore_settings(state, me, settings, memory, settings.rollouts)
    if not cycles and not settings.hold and settings.policy_offer:  # the trade its own rollouts make in the "not now" branch
        own = policy_candidate(state, me, rs.policy)
        if own is not None and own not in cands:
            cands.append(own)
    if not cands:
        memory.seeds -= 1  # no simulation ran: the seeds of later searches do not depend on this one
        return []
    base = baseline_of(state, rs, caches)
    me_name = state.players[me].name
    memory.searched = state_key(state)
    memory.search_settings = settings_to_json(rs)
    found = []
    for c in cands:
        trade = c.to_trade(state)
        if memory.refused_now(trade_key(trade), settings.recall) and not may_haggle(c.kind, settings):
            continue
        r = rescore_one(state, c, base, rs)
        if r is None:
            continue
        traders = () if settings.exploit else [state.players[i].name for i in c.players]
        if not qualifies(r, base, me_name, "best", rs.z, traders=traders, balance_self=settings.balance_self):
            continue
        if settings.learn:
            r.acceptance = memory.opponents.p_accept(state, trade_after(state, r.trade), r.trade, me, r.win_delta)
            r.risk_adjusted_ev = r.win_delta[me_name] * r.acceptance
        found.append(r)
    found.sort(key=lambda r: rank_key(r, base, me_name), reverse=True)
    return [Queued(r.trade, str(r.candidate.kind), tuple(r.candidate.players), dict(r.win_delta)) for r in found]


__all__ = ["may_haggle", "search"]
