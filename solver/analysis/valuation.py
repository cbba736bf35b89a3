"""Bellman purchase value of a property, with a ruin-risk penalty (seed 004, section 3).

For ``player`` buying ``square`` at ``price``::

    V     = sum_{t=1..T} gamma^t * E[rent(t)] - price
    Score = V - lambda * dP_ruin

``E[rent(t)]`` is the *extra* rent the player expects in round ``t`` because
it owns the square: the sum over opponents ``q`` of the player's EPT with the
square minus without it, evaluated on ``q``'s landings during its ``t``-th
turn from where it stands now (:meth:`engine.chains.markov.PositionChain.
expected_landings` blocks, not a stationary average). The difference
includes the jump when the purchase completes a group: the player's other
lots of that group start paying double (or more railroads/utilities raise
each other's rent). ``dP_ruin`` is the change in the probability of ruin
within ``ruin_turns`` turns (:func:`engine.chains.state_risk.state_ruin_pmf`) caused
by paying the price and holding the square; ``lambda`` is in dollars per
unit of probability (the default $2,000 prices a 1 % rise in ruin at $20).

References: seed 004 (Bellman purchase value, sections 3.1-3.2); R. Bellman,
*Dynamic Programming*, 1957 (the discounted expected-value recursion).

Also re-exported here: ``frontier_value`` and ``property_value`` (position-aware
values, :mod:`solver.analysis.position`), and seed 002's ``state_value`` and
``move_is_safe`` (:mod:`solver.analysis.state_value`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from engine.chains.ept import player_landing_blocks, state_ept
from engine.chains.markov import JailPolicy, PositionChain, chain_for
from engine.chains.state_risk import state_ruin_pmf
from models.errors import InvalidArgumentError
from models.state import BANK, GameState


@dataclass(frozen=True)
class PurchaseValue:
    """What :func:`purchase_value` found (module docstring).

    Attributes
    ----------
    square : int
        The lot.
    name : str
        Its name.
    price : int
        The price paid.
    rent_pv : float
        The discounted extra rent over the horizon.
    value : float
        ``rent_pv - price``.
    ruin_before, ruin_after : float
        The probability of ruin within ``ruin_turns``, without and with the purchase
        (``ruin_after`` is 1 when the player cannot pay the price from its cash).
    lam : float
        Dollars per unit of ruin probability.
    score : float
        ``value - lam * (ruin_after - ruin_before)``.
    per_round : tuple of float
        The extra rent expected in each round.

    Examples
    --------
    >>> from models.io import load_state
    >>> pv = purchase_value(load_state("instances/opening.json"), "Ann", "Illinois Avenue", horizon=10)
    >>> pv.price, round(pv.rent_pv, 1), round(pv.value, 1), len(pv.per_round)
    (240, 15.9, -224.1, 10)
    """

    square: int
    name: str
    price: int
    rent_pv: float
    value: float
    ruin_before: float
    ruin_after: float
    lam: float
    score: float
    per_round: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dict (JSON-ready).

        Returns
        -------
        dict
            One key per field.
        """
        return asdict(self)


def rent_stream(
    state: GameState, player: int, chain: PositionChain, rounds: int, *, without: GameState | None = None
) -> np.ndarray:
    """Expected rent ``player`` collects in each of the next ``rounds`` rounds,
    minus what it would collect in ``without`` (if given).

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The owner's seat.
    chain : PositionChain
        The state's position chain.
    rounds : int
        How many rounds ahead.
    without : GameState or None
        The alternative position, whose rent is subtracted.

    Returns
    -------
    numpy.ndarray
        Dollars per round, from each opponent's landings from where it stands.

    Examples
    --------
    Bob's hotels: Ann stands seven squares before Illinois Avenue, so the first round pays most.

    >>> from models.io import load_state
    >>> late = load_state("instances/late-game-house-shortage.json")
    >>> from engine.chains.markov import chain_for
    >>> [round(float(x), 1) for x in rent_stream(late, 1, chain_for(late.board, late.rules), 3)]
    [427.3, 302.4, 362.8]
    """
    mine = [sq for sq in state.board.property_squares if state.owner[sq] == player]
    out = np.zeros(rounds)
    for q in state.active_players():
        if q == player:
            continue
        blocks = player_landing_blocks(chain, state, q, rounds)
        with_ = state_ept(chain, state, blocks)
        out += with_[:, mine].sum(axis=1)
        if without is not None:
            theirs = [sq for sq in without.board.property_squares if without.owner[sq] == player]
            out -= state_ept(chain, without, blocks)[:, theirs].sum(axis=1)
    return out


def purchase_value(
    state: GameState,
    player: int | str,
    square: int | str,
    price: int | None = None,
    *,
    horizon: int = 20,
    gamma: float = 0.95,
    lam: float = 2000.0,
    ruin_turns: int = 20,
    jail: JailPolicy = "long",
    chain: PositionChain | None = None,
) -> PurchaseValue:
    """The Bellman value and risk-adjusted score of ``player`` buying ``square``.

    ``square`` must belong to the bank; ``price`` defaults to the printed price
    (pass an auction price to value a bid).

    Parameters
    ----------
    state : GameState
        The position.
    player : int or str
        A seat or a name.
    square : int or str
        The lot, by square or name.
    price : int or None
        What is paid; ``None``: the printed price.
    horizon : int, default 20
        Rounds of rent.
    gamma : float, default 0.95
        The discount per round.
    lam : float, default 2000.0
        Dollars per unit of ruin probability.
    ruin_turns : int, default 20
        The ruin horizon.
    jail : {"long", "short"}, default "long"
        The jail policy of the chains.
    chain : PositionChain or None
        The state's position chain.

    Returns
    -------
    PurchaseValue
        The value, the ruin figures and the score.

    Raises
    ------
    InvalidArgumentError
        ``square`` is not a property of the board, or not the bank's.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/opening.json")
    >>> pv = purchase_value(s, "Ann", "Illinois Avenue", horizon=10)
    >>> pv.price, pv.value < 0  # ten rounds of single-lot rent do not repay $240
    (240, True)
    >>> purchase_value(s, "Ann", "Go")
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: 'Go' is not a property of the board
    """
    if isinstance(player, str):
        player = state.player_index(player)
    if isinstance(square, str):
        if square not in state.board.property_index:
            raise InvalidArgumentError(f"{square!r} is not a property of the board")
        square = state.square_of(square)
    sq = state.board.squares[square]
    if not sq.is_property:
        raise InvalidArgumentError(f"{sq.name} is not a property")
    if state.owner[square] != BANK:
        raise InvalidArgumentError(f"{sq.name} is not the bank's")
    price = sq.price if price is None else int(price)
    chain = chain or chain_for(state.board, state.rules, jail)
    after = state.copy()
    after.owner[square] = player
    after.players[player].cash -= price
    stream = rent_stream(after, player, chain, horizon, without=state)
    disc = gamma ** np.arange(1, horizon + 1)
    rent_pv = float(np.dot(disc, stream))
    value = rent_pv - price
    before_ruin = float(state_ruin_pmf(state, player, ruin_turns, jail=jail).sum())
    if after.players[player].cash < 0:
        after_ruin = 1.0  # cannot pay: buying is not possible without raising cash first
    else:
        after_ruin = float(state_ruin_pmf(after, player, ruin_turns, jail=jail).sum())
    score = value - lam * (after_ruin - before_ruin)
    return PurchaseValue(
        square, sq.name, price, rent_pv, value, before_ruin, after_ruin, lam, score, tuple(float(x) for x in stream)
    )


# The position-aware values of the analysis live in their own modules; they are
# re-exported here, the valuation entry point.
from solver.analysis.position import frontier_value, property_value  # noqa: E402
from solver.analysis.state_value import move_is_safe, state_value  # noqa: E402

__all__ = [
    "PurchaseValue",
    "frontier_value",
    "move_is_safe",
    "property_value",
    "purchase_value",
    "rent_stream",
    "state_value",
]
