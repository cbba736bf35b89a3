"""Which re-scored trades qualify, and in what order: the one rule ``solve``, ``decide`` and the agent share.

Two modes (``solve --mode``):

``fair``
    the seed's filters: every trader gains beyond the noise (the Nash zone,
    :attr:`~solver.trades.rescore.Rescored.nash_zone`) and no player becomes the
    leader at 55% or more (``balanced``). Advice both sides should accept.
``best``
    what the agent plays: the proposer gains beyond the noise, in win
    probability or, where that does not move either way (a game decided within
    the horizon), in final net worth (:func:`gains_beyond_noise`); the
    counterparties decide for themselves, so their side enters only through the
    acceptance probability; and the trade does not make *another* player the
    leader at 55% (making itself the leader is allowed: the opponents measured
    do not gang up on a leader; ``balance_self=True`` forbids it too).

The ranking is the same in both modes (:func:`rank_key`): the proposer's
risk-adjusted gain (win delta x acceptance), then its net-worth delta.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.sim.rollout import RolloutResult, paired_delta, paired_worth_delta
from models.errors import UnknownNameError
from solver.trades.rescore import Rescored, beyond_noise

MODES = ("fair", "best")


def gains_beyond_noise(base: RolloutResult, after: RolloutResult, name: str, z: float) -> bool:
    """``name`` gains beyond the noise in win probability; or, when that moves neither way
    beyond the noise, in final net worth (one-sided z-tests)."""
    d, se = paired_delta(base, after, name)
    if beyond_noise(d, se, z):
        return True
    if beyond_noise(-d, se, z):
        return False
    w, w_se = paired_worth_delta(base, after, name)
    return beyond_noise(w, w_se, z)


def qualifies(
    r: Rescored, base: RolloutResult, proposer: str, mode: str, z: float, *, traders: Sequence[str] = (), balance_self: bool = False
) -> bool:
    """Whether ``r`` passes the filters of ``mode`` (module docstring). ``traders`` (default:
    the proposer only) are the participants who must gain in ``best`` mode with
    ``exploit`` off."""
    if mode == "fair":
        return r.nash_zone and r.balanced
    if mode != "best":
        raise UnknownNameError(f"mode must be one of {MODES}, got {mode!r}")
    if r.after is None:
        return False
    if not all(gains_beyond_noise(base, r.after, n, z) for n in (traders or [proposer])):
        return False
    return r.balanced or (not balance_self and r.leader == proposer)


def rank_key(r: Rescored, base: RolloutResult, proposer: str) -> tuple[float, float]:
    """Best first when sorted descending: risk-adjusted gain, then net-worth gain."""
    worth = paired_worth_delta(base, r.after, proposer)[0] if r.after is not None else 0.0
    return (r.risk_adjusted_ev, worth)


__all__ = ["MODES", "gains_beyond_noise", "qualifies", "rank_key"]
