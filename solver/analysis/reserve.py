"""Cash reserves: how much cash a player should keep against ruin.

The reserve is the cash at which the ruin probability within 20 turns stays
below epsilon (default 5%): the smallest cash ``c >= 0``, a multiple of
``bucket``, such that the player's probability of ruin within ``turns``
turns (:func:`engine.chains.state_risk.state_ruin_pmf`, long jail policy, with the
rent it expects to collect) is at most ``epsilon`` when its cash is ``c``
and everything else is as in the state.

Model (that of :mod:`engine.chains.state_risk`):

* Ruin is tested on the liquidation value (cash + buildings sold back +
  every unmortgaged property mortgaged), so with cash ``c`` the player's
  wealth is ``c + (liquidation value - cash)``: what it can raise by
  selling and mortgaging counts as cover. A player whose buildings and
  properties alone cover 20 turns of rent needs no cash (reserve 0).
* Frozen holdings: the opponents' properties and buildings (hence the rents
  the player may owe) and the player's own (hence its repairs and expected
  income) stay as in the state, and the player buys nothing; it starts from
  its square and jail state in the state, its turn next. Only its cash varies.
* Bucket rule: wealth is carried on a grid ``bucket`` dollars apart, aligned
  on the wealth at cash 0, so every cash value ``0, bucket, 2 bucket, ...``
  is a grid point and its ruin probability is exactly the one
  ``state_ruin_pmf`` computes from that cash (same ``bucket``, cap = wealth
  at cash ``max_cash``). The reserve is therefore a multiple of ``bucket``
  (no interpolation): with cash ``reserve - bucket`` the ruin probability is
  above ``epsilon``.
* Cap: the grid's top is at cash ``max_cash``; wealth above it is held
  there, so ruin probabilities are overstated for cash within about $1,000
  of it (late-game instance, Ann: 0.304 at $1,000 below the cap, 0.275 at
  $2,000 below, 0.273 far below). If even cash ``max_cash`` leaves the ruin
  probability above ``epsilon``, the reserve returned is ``max_cash`` itself.

All cash values come from one backward pass over the grid
(:func:`engine.chains.state_risk.ruin_within_by_wealth`), which costs about one
forward run. With an explicit ``max_cash`` that is the whole computation.
By default the top is first :func:`default_max_cash` (the larger of $2,000
and the player's cash + $1,000, rounded up to a multiple of ``bucket``: the
cap ``state_ruin_pmf`` uses at the current cash); when the reserve found is
within ``WIDEN_MARGIN`` ($1,000) of it, or not reached, one more pass with
twice that top gives the answer. So the default costs a second pass only for
players at real risk.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from engine.chains.markov import PositionChain, chain_for
from engine.chains.state_risk import ruin_within_by_wealth
from models.errors import BankruptPlayerError, InvalidArgumentError
from models.state import GameState

WIDEN_MARGIN = 1000
"""With the default ``max_cash``, a reserve above ``top - WIDEN_MARGIN`` is
recomputed on a grid twice as high."""


def default_max_cash(state: GameState, player: int, bucket: int = 50) -> int:
    """The first top of the default grid: ``max(2000, cash + 1000)`` rounded
    up to a multiple of ``bucket`` (the second, if needed, is twice this).

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.
    bucket : int, default 50
        The grid's step.

    Returns
    -------
    int
        Dollars.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> default_max_cash(state, 1)
    2000
    """
    top = max(2000, state.players[player].cash + 1000)
    return -(-top // bucket) * bucket


def cash_reserve(
    state: GameState,
    player: int | str,
    *,
    epsilon: float = 0.05,
    turns: int = 20,
    bucket: int = 50,
    max_cash: int | None = None,
    chain: PositionChain | None = None,
) -> int:
    """The smallest cash (a multiple of ``bucket``) at which ``player``'s
    probability of ruin within ``turns`` turns is at most ``epsilon``.

    See the module docstring for the model. ``max_cash`` is the top of the
    grid, returned when even that much cash does not bring the ruin
    probability down to ``epsilon``; by default it is chosen as the module
    docstring says (one pass, or two for a reserve close to the first top).
    ``chain`` (long jail policy, the state's board and rules) saves building
    one.

    Parameters
    ----------
    state : GameState
        The position.
    player : int or str
        A seat or a name.
    epsilon : float, default 0.05
        The ruin probability allowed.
    turns : int, default 20
        The ruin horizon.
    bucket : int, default 50
        The cash grid's step.
    max_cash : int or None
        The grid's top; ``None``: the default (module docstring).
    chain : PositionChain or None
        The state's position chain (long jail policy).

    Returns
    -------
    int
        Dollars, a multiple of ``bucket`` (the top when no cash is enough).

    Raises
    ------
    BankruptPlayerError
        If the player is bankrupt.
    InvalidArgumentError
        If ``epsilon`` is outside [0, 1], ``bucket`` is not positive or ``max_cash`` is not
        a non-negative multiple of it.

    Examples
    --------
    Bob, with the hotels, needs $1,050 to keep a 20-turn ruin within 5%; Cy, facing them
    with little, cannot get there (the widened grid's top, $4,000):

    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> cash_reserve(state, "Bob"), cash_reserve(state, "Cy")
    (1050, 4000)
    >>> cash_reserve(state, "Ann", epsilon=2)
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: epsilon must be in [0, 1]
    """
    if isinstance(player, str):
        player = state.player_index(player)
    if state.players[player].bankrupt:
        raise BankruptPlayerError(f"player {state.players[player].name} is bankrupt")
    if not 0.0 <= epsilon <= 1.0:
        raise InvalidArgumentError("epsilon must be in [0, 1]")
    if bucket <= 0:
        raise InvalidArgumentError("bucket must be positive")
    if max_cash is not None:
        if max_cash < 0 or max_cash % bucket:
            raise InvalidArgumentError("max_cash must be a non-negative multiple of bucket")
        return _reserve(state, player, epsilon, turns, bucket, max_cash, chain)
    top = default_max_cash(state, player, bucket)
    found = _reserve(state, player, epsilon, turns, bucket, top, chain)
    if found <= top - WIDEN_MARGIN:
        return found
    return _reserve(state, player, epsilon, turns, bucket, 2 * top, chain)


def _ruin_by_cash(
    state: GameState, player: int, turns: int, bucket: int, top: int, chain: PositionChain | None
) -> tuple[np.ndarray, np.ndarray]:
    """``(cash, ruin)`` over the grid: the player's ruin within ``turns`` turns from each cash,
    everything else as in ``state``, by one backward pass. Cash 0 aligns the grid on the
    wealth at cash 0, so cash ``k * bucket`` is a grid point, up to ``top``."""
    at_zero = state.copy()
    at_zero.players[player].cash = 0
    assets = at_zero.liquidation_value(player)
    wealth, ruin = ruin_within_by_wealth(at_zero, player, turns, bucket, cap=assets + top, chain=chain)
    return wealth - assets, ruin


def _reserve(
    state: GameState, player: int, epsilon: float, turns: int, bucket: int, top: int, chain: PositionChain | None
) -> int:
    """One backward pass on the grid from cash 0 to cash ``top``."""
    cash, ruin = _ruin_by_cash(state, player, turns, bucket, top, chain)
    ok = np.nonzero((cash >= 0) & (ruin <= epsilon))[0]
    return round(float(cash[ok[0]])) if len(ok) else top


def ruin_at_cash(
    state: GameState,
    player: int,
    *,
    turns: int = 20,
    bucket: int = 50,
    max_cash: int = 2000,
    chain: PositionChain | None = None,
) -> float:
    """``player``'s probability of ruin within ``turns`` turns at its cash in ``state``, on the
    grid :func:`cash_reserve` uses (cash 0 aligned, ``bucket`` apart, top ``max_cash``): the
    cash is rounded down to the grid, so the figure errs toward ruin.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.
    turns : int, default 20
        The ruin horizon.
    bucket : int, default 50
        The cash grid's step.
    max_cash : int, default 2000
        The grid's top.
    chain : PositionChain or None
        The state's position chain (long jail policy).

    Returns
    -------
    float
        The probability of ruin within ``turns``.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> round(ruin_at_cash(state, 0), 4), round(ruin_at_cash(state, 2), 4)
    (0.2879, 0.9885)
    """
    cash, ruin = _ruin_by_cash(state, player, turns, bucket, max_cash, chain)
    below = np.nonzero(cash <= min(state.players[player].cash, max_cash) + 1e-9)[0]
    return float(ruin[below[-1]]) if len(below) else 1.0


def relative_reserve(
    won: GameState,
    lost: GameState,
    player: int,
    *,
    epsilon: float = 0.05,
    turns: int = 20,
    bucket: int = 50,
    max_cash: int = 2000,
    chain: PositionChain | None = None,
) -> int:
    """The reserve behind a bid when losing the lot is itself a risk: the smallest cash (a
    multiple of ``bucket``) at which ``player``'s ruin probability in ``won`` (the lot bought)
    is at most ``max(epsilon, p_lost)``, ``p_lost`` its ruin probability in ``lost`` (the lot
    gone to the rival) at its cash there (:func:`ruin_at_cash`).

    The plain reserve keeps ruin within ``epsilon`` whatever the alternative is; but when the
    rival's purchase (a set completed, say) leaves the player at ``p_lost > epsilon`` with its
    cash intact, keeping that cash buys no safety. Spending down to the same ruin probability
    in the won state is then no riskier than not bidding. With ``p_lost <= epsilon`` this is
    :func:`cash_reserve` on ``won`` with the same ``max_cash`` (a fixed top: no widened second
    pass, unlike :func:`cash_reserve`'s default).

    Parameters
    ----------
    won, lost : GameState
        The states after the lot is bought and after it goes to the rival.
    player : int
        The seat.
    epsilon : float, default 0.05
        The ruin probability allowed at least.
    turns : int, default 20
        The ruin horizon.
    bucket : int, default 50
        The cash grid's step.
    max_cash : int, default 2000
        The grid's top.
    chain : PositionChain or None
        The states' position chain (long jail policy).

    Returns
    -------
    int
        Dollars, a multiple of ``bucket``.

    Examples
    --------
    When nothing changes hands Ann's ruin at her own $230 (on the grid: $200, 0.2879) is the
    bar, so the reserve is the $200 she has, not the $1,950 of the plain reserve:

    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> relative_reserve(state, state, 0), cash_reserve(state, 0)
    (200, 1950)
    """
    p_lost = ruin_at_cash(lost, player, turns=turns, bucket=bucket, max_cash=max_cash, chain=chain)
    return cash_reserve(won, player, epsilon=max(epsilon, p_lost), turns=turns, bucket=bucket, max_cash=max_cash, chain=chain)


def reserves(state: GameState, players: Iterable[int | str] | None = None, *, threads: int = 1, **kw: Any) -> dict[int, int]:
    """:func:`cash_reserve` of several players (default: every active one),
    by player index, sharing one :class:`~engine.chains.markov.PositionChain`.
    Keyword arguments go to :func:`cash_reserve`. With ``threads`` above 1 the players'
    backward passes run side by side (:func:`engine.sim.rollout.side_by_side`: the compiled
    pass releases the GIL; about 0.7 times the time on two threads); the reserves are the same.

    Parameters
    ----------
    state : GameState
        The position.
    players : iterable of int or str, or None
        Seats or names; ``None``: every active player.
    threads : int, default 1
        Players computed side by side.
    **kw
        :func:`cash_reserve`'s keyword arguments.

    Returns
    -------
    dict of int to int
        Seat -> reserve.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> reserves(state)
    {0: 1950, 1: 1050, 2: 4000, 3: 0}
    >>> reserves(state, threads=2)
    {0: 1950, 1: 1050, 2: 4000, 3: 0}
    """
    if kw.get("chain") is None:
        kw["chain"] = chain_for(state.board, state.rules, "long")
    chosen = state.active_players() if players is None else players
    seats = [state.player_index(p) if isinstance(p, str) else p for p in chosen]
    if threads <= 1 or len(seats) <= 1:
        return {i: cash_reserve(state, i, **kw) for i in seats}
    from engine.sim.rollout import side_by_side  # the simulation threads; not imported by one-thread callers (risk, analyze)

    return dict(zip(seats, side_by_side(lambda i: cash_reserve(state, i, **kw), seats, threads)))
