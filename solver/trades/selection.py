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
from models.names import Name
from solver.trades.rescore import Rescored, beyond_noise


class Mode(Name):
    """How ``solve`` and the agent choose among re-scored trades (:func:`qualifies`).

    Examples
    --------
    >>> Mode("best") is Mode.BEST, Mode.FAIR == "fair"
    (True, True)
    """

    FAIR = "fair"
    """Advice both sides should accept: the Nash zone and the third-party (balance) check."""
    BEST = "best"
    """What the agent plays: the proposer gains beyond the noise and no one becomes a leader."""


MODES = tuple(m.value for m in Mode)


def gains_beyond_noise(base: RolloutResult, after: RolloutResult, name: str, z: float) -> bool:
    """``name`` gains beyond the noise in win probability; or, when that moves neither way
    beyond the noise, in final net worth (one-sided z-tests).

    Parameters
    ----------
    base, after:
        The simulations without and with the trade, on the same dice.
    name:
        The player.
    z:
        The one-sided z (``RescoreSettings.z``).

    Returns
    -------
    bool
        Whether the gain is beyond the noise.

    Examples
    --------
    $500 more for Cy, on the same dice: Cy gains beyond the noise, Ann does not.

    >>> from models.io import load_state
    >>> from engine.sim.rollout import simulate
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> richer = state.copy(); richer.players[2].cash += 500
    >>> base, after = simulate(state, 200, 20, seed=1), simulate(richer, 200, 20, seed=1)
    >>> gains_beyond_noise(base, after, "Cy", 1.64), gains_beyond_noise(base, after, "Ann", 1.64)
    (True, False)
    """
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
    """Whether ``r`` passes the filters of ``mode`` (module docstring).

    Parameters
    ----------
    r:
        The re-scored trade.
    base:
        The simulation without the trade (the one ``r`` was paired with).
    proposer:
        The proposer's name.
    mode:
        ``"fair"`` or ``"best"`` (:data:`MODES`).
    z:
        The one-sided z.
    traders:
        The participants who must gain in ``best`` mode (default: the proposer
        only; the agent names every participant with ``exploit`` off).
    balance_self:
        In ``best`` mode, also refuse a trade that makes the proposer the leader.

    Returns
    -------
    bool

    Raises
    ------
    UnknownNameError
        When ``mode`` is not one of :data:`MODES`.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.cpsat import generate_trades
    >>> from solver.trades.rescore import RescoreSettings, baseline, rescore_one
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> st = RescoreSettings(rollouts=8, horizon=10)  # a few rollouts: noise, for the example
    >>> base = baseline(s, st)
    >>> r = rescore_one(s, generate_trades(s, 0).trades[0].candidate, base, st)
    >>> qualifies(r, base, "Ann", "fair", st.z), qualifies(r, base, "Ann", "best", st.z)
    (False, False)
    >>> [round(x, 4) for x in rank_key(r, base, "Ann")]
    [-0.1437, -821.375]
    """
    if mode == Mode.FAIR:
        return r.nash_zone and r.balanced
    if mode != Mode.BEST:
        raise UnknownNameError(f"mode must be one of {MODES}, got {mode!r}")
    if r.after is None:
        return False
    if not all(gains_beyond_noise(base, r.after, n, z) for n in (traders or [proposer])):
        return False
    return r.balanced or (not balance_self and r.leader == proposer)


def qualified_by(r: Rescored, base: RolloutResult, proposer: str, mode: str, z: float) -> str | None:
    """The rule by which ``r`` passes :func:`qualifies` (with the default ``traders`` and
    ``balance_self``), named for the output; ``None`` when it does not pass.

    ``"nash zone, balanced"`` in mode ``fair``; in mode ``best``: ``"win probability"`` (the
    proposer gains beyond the noise in win probability) or ``"net worth"`` (its win probability
    moved neither way beyond the noise, and its final net worth rose beyond the noise: the
    fallback of :func:`gains_beyond_noise`), followed by ``", leader itself"`` when the trade
    passes the balance check only because the leader it makes is the proposer.

    Parameters
    ----------
    r, base, proposer, mode, z:
        As for :func:`qualifies`.

    Returns
    -------
    str or None
        The rule's name.

    Examples
    --------
    >>> from models.io import load_state
    >>> from solver.trades.cpsat import generate_trades
    >>> from solver.trades.rescore import RescoreSettings, baseline, rescore_one
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> st = RescoreSettings(rollouts=8, horizon=10)
    >>> base = baseline(s, st)
    >>> r = rescore_one(s, generate_trades(s, 0).trades[0].candidate, base, st)
    >>> qualified_by(r, base, "Ann", "best", st.z) is None
    True
    """
    if not qualifies(r, base, proposer, mode, z):
        return None
    if mode == Mode.FAIR:
        return "nash zone, balanced"
    # The proposer's paired change was computed when the trade was re-scored (rescore_one):
    # read it there rather than pairing the two simulations again.
    rule = "win probability" if beyond_noise(r.win_delta[proposer], r.win_delta_se[proposer], z) else "net worth"
    return rule if r.balanced else rule + ", leader itself"


def rank_key(r: Rescored, base: RolloutResult, proposer: str) -> tuple[float, float]:
    """The ranking key, best first when sorted descending: the proposer's risk-adjusted gain,
    then its paired net-worth gain (0 without the simulation after); example in :func:`qualifies`.

    Parameters
    ----------
    r, base, proposer:
        As for :func:`qualifies`.

    Returns
    -------
    tuple[float, float]
        The proposer's risk-adjusted gain and its mean change in net worth.

    Examples
    --------
    The trade of :func:`qualifies`'s example:

    >>> from models.io import load_state
    >>> from solver.trades.cpsat import generate_trades
    >>> from solver.trades.rescore import RescoreSettings, baseline, rescore_one
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> st = RescoreSettings(rollouts=8, horizon=10)
    >>> base = baseline(s, st)
    >>> r = rescore_one(s, generate_trades(s, 0).trades[0].candidate, base, st)
    >>> [round(x, 4) for x in rank_key(r, base, "Ann")]
    [-0.1437, -821.375]
    """
    worth = paired_worth_delta(base, r.after, proposer)[0] if r.after is not None else 0.0
    return (r.risk_adjusted_ev, worth)


__all__ = ["MODES", "Mode", "gains_beyond_noise", "qualified_by", "qualifies", "rank_key"]
