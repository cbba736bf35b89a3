"""The agent's simulations: their settings, seeds and baselines.

Every simulation the agent runs (a trade search, a play price in a state not searched, an answer
to an offer) draws the next seed from its memory's counter (:attr:`AgentMemory.seeds`), so its
answers are a function of the state, its settings and its memory. The rollouts play the trading
rollout policy (``rollout_trades``, ``sell_premium``, ``rollout_mortgage``); with
``trade_model="observed"`` an opponent seen not to trade (its memory's
:class:`solver.agents.opponent_model.TradeHabits`) plays it with trading off; with
``trade_model="fitted"`` each opponent also buys and builds as it was seen to
(:class:`solver.agents.observed_play.ObservedPlay`); with ``fit_accept`` each accepts trades in
the rollouts at the rate it accepted offers in the game. With ``hold=True``
(the default) the agent holds in its own rollouts (:meth:`RescoreSettings.holding`); with
``hold=False`` an action is judged now against not now (:meth:`RescoreSettings.not_now`), as
``solve`` judges it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.sim.rollout import RolloutResult
from engine.sim.rollout_policy import PolicyLike, RolloutPolicy
from models.state import GameState
from solver.decisions.caches import DecisionCaches
from solver.decisions.keys import digest, state_key
from solver.decisions.memory import AgentMemory
from solver.decisions.settings import AgentSettings
from solver.trades.rescore import RescoreSettings, baseline


def rescore_settings(
    state: GameState, me: int, settings: AgentSettings, memory: AgentMemory, rollouts: int, hold: bool | None = None
) -> RescoreSettings:
    """The settings of one simulation in ``state``, with the next seed (module docstring).

    Parameters
    ----------
    state : GameState
        The position.
    me : int
        The agent's seat.
    settings : AgentSettings
        ``horizon``, ``scoring``, ``hold``, ``trade_model``, ``fit_accept`` and the rollout
        policy's options.
    memory : AgentMemory
        The seed counter (incremented) and the trading habits.
    rollouts : int
        Games simulated.
    hold : bool or None
        Overrides ``settings.hold`` (``answer_hold``: the answer to an offer).

    Returns
    -------
    RescoreSettings

    Examples
    --------
    >>> from models.io import load_state
    >>> memory = AgentMemory()
    >>> rs = rescore_settings(load_state("instances/two-player.json"), 0, AgentSettings(), memory, 40)
    >>> rs.seed, memory.seeds, [p.trade for p in rs.policy]  # the agent holds in its rollouts
    (1, 1, [False, True])
    """
    n_players = len(state.players)
    memory.seeds += 1
    own = settings.rollout_policy
    policy: PolicyLike = own
    if settings.trade_model != "all" or settings.fit_accept:  # the opponents as they were seen to play
        others = [q for q in range(n_players) if q != me]
        fitted = memory.play.policies(
            own, others, reserves=settings.trade_model == "fitted", accept=settings.fit_accept, accept_prior=settings.accept_prior
        )
        every = settings.trade_model == "all"
        policy = tuple(
            own if q == me else dataclasses.replace(fitted[q], trade=own.trade and (every or memory.habits.trades(q))) for q in range(n_players)
        )
    rs = RescoreSettings(rollouts=rollouts, horizon=settings.horizon, seed=memory.seeds, policy=policy, scoring=settings.scoring)
    if settings.hold if hold is None else hold:
        return rs.holding(me, n_players)
    return rs.not_now(me, n_players, state.to_move, declines=settings.wait_declines)


def settings_to_json(rs: RescoreSettings) -> dict[str, Any]:
    """A simulation's settings as JSON (the memory keeps the last search's).

    Parameters
    ----------
    rs : RescoreSettings
        The settings.

    Returns
    -------
    dict
        Every field; ``policy`` a list of policies (one per seat) or one policy.

    Examples
    --------
    >>> rs = RescoreSettings(rollouts=8).holding(0, 2)
    >>> settings_from_json(settings_to_json(rs)) == rs
    True
    """
    d = {f.name: getattr(rs, f.name) for f in dataclasses.fields(rs) if f.name != "policy"}
    policy = rs.policy
    if isinstance(policy, RolloutPolicy):
        d["policy"] = dataclasses.asdict(policy)
    else:
        d["policy"] = [dataclasses.asdict(p) for p in policy or ()]
    return d


def settings_from_json(doc: Mapping[str, Any]) -> RescoreSettings:
    """The settings :func:`settings_to_json` wrote.

    Parameters
    ----------
    doc : mapping
        The JSON form.

    Returns
    -------
    RescoreSettings

    Examples
    --------
    >>> settings_from_json(settings_to_json(RescoreSettings(rollouts=8, seed=3))).seed
    3
    """
    policy = doc["policy"]
    pol: PolicyLike = tuple(RolloutPolicy(**p) for p in policy) if isinstance(policy, list) else RolloutPolicy(**policy)
    return RescoreSettings(
        rollouts=int(doc["rollouts"]), horizon=int(doc["horizon"]), seed=int(doc["seed"]), z=float(doc["z"]),
        balance=float(doc["balance"]), acceptance_slope=float(doc["acceptance_slope"]), policy=pol,
        scoring=None if doc["scoring"] is None else str(doc["scoring"]), threads=int(doc["threads"]),
    )


def settings_key(rs: RescoreSettings) -> str:
    """The digest of a simulation's settings (a cache key).

    Parameters
    ----------
    rs : RescoreSettings
        The settings.

    Returns
    -------
    str

    Examples
    --------
    >>> settings_key(RescoreSettings(seed=1)) == settings_key(RescoreSettings(seed=1)) != settings_key(RescoreSettings(seed=2))
    True
    """
    return digest("rescore", rs)


def baseline_of(state: GameState, rs: RescoreSettings, caches: DecisionCaches) -> RolloutResult:
    """The simulation of ``state`` without any action on ``rs``'s dice, cached by the state and the
    settings (a search's baseline serves the play prices of its ranking in the same state).

    Parameters
    ----------
    state : GameState
        The position.
    rs : RescoreSettings
        The settings.
    caches : DecisionCaches
        The caches.

    Returns
    -------
    RolloutResult

    Examples
    --------
    >>> from models.io import load_state
    >>> s, caches, rs = load_state("instances/two-player.json"), DecisionCaches(), RescoreSettings(rollouts=8, horizon=5)
    >>> baseline_of(s, rs, caches) is baseline_of(s.copy(), rs, caches)
    True
    """
    return caches.get("baseline", (state_key(state), settings_key(rs)), lambda: baseline(state, rs))


__all__ = ["baseline_of", "rescore_settings", "settings_from_json", "settings_key", "settings_to_json"]
