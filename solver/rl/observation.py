"""The observation encoding of :class:`solver.rl.aec_env.MonopolyAECEnv`: the ``float32`` vector and its layout.

``observe(agent)`` is a ``Dict`` with ``"observation"`` (this vector, built by
:class:`ObservationEncoder` from the observing seat's point of view: players
are listed from that seat on and owners are relative seats) and
``"action_mask"`` (:mod:`solver.rl.actions`). :class:`ObservationLayout` says
where each block lies and gives the ``Box`` bounds; money is divided by
:data:`MONEY_SCALE`, the starting cash, so that it is of order 1.

This module needs neither PettingZoo nor Gymnasium.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.rules.game import Game
from models.board import HOTEL
from models.state import BANK, Phase
from solver.rl.engine_thread import DECISION_KINDS, Request

__all__ = ["MONEY_SCALE", "ObservationEncoder", "ObservationLayout"]

MONEY_SCALE = 1500.0
"""Dollars are divided by this (the starting cash) in the observation."""
_BIG = 1e6
"""Bound of the observation's unbounded entries (money, counts)."""


@dataclass(frozen=True)
class ObservationLayout:
    """Where each part of the ``"observation"`` vector lies (``n`` players, board of ``S`` squares, ``P`` properties).

    Blocks, in order (money is divided by :data:`MONEY_SCALE`):

    players
        ``n`` rows of ``7 + S`` from the observing seat on (row ``r`` is seat
        ``(me + r) % n``): cash, net worth, in jail, failed jail rolls, jail
        cards held, bankrupt, to move, then the position one-hot.
    properties
        ``P`` rows of ``n + 2``: owner one-hot by relative seat (all zero: the
        bank), building level / 5 (a hotel is 1), mortgaged.
    globals
        6 entries: phase is ``rolled``, doubles rolled this turn, round /
        ``max_rounds``, engine turns / ``max_turns`` (0 without a cap),
        houses and hotels left in the bank as fractions of the supply.
    decision
        ``10 + 2P + 4`` entries: the pending decision's kind one-hot
        (:data:`solver.rl.engine_thread.DECISION_KINDS`), the square it is
        about (a lot offered, auctioned or received mortgaged) one-hot over the
        properties, the amount owed (``raise_cash``), a hotel flag (building
        auctions), then the trade being proposed (``accept_trade``): per
        property +1 if this seat receives it, -1 if it gives it, the seat's net
        cash and net jail cards.

    Parameters
    ----------
    n:
        Players.
    board_size:
        Squares of the board (``S``).
    n_properties:
        Property squares of the board (``P``).

    Examples
    --------
    >>> lay = ObservationLayout(4, 40, 28)
    >>> lay.size, lay.properties, lay.decision.start
    (432, slice(188, 356, None), 362)
    """

    n: int
    board_size: int
    n_properties: int

    @property
    def player_width(self) -> int:
        """Entries of one player's row (``7 + S``)."""
        return 7 + self.board_size

    @property
    def players(self) -> slice:
        """The players block."""
        return slice(0, self.n * self.player_width)

    @property
    def properties(self) -> slice:
        """The properties block."""
        start = self.players.stop
        return slice(start, start + self.n_properties * (self.n + 2))

    @property
    def globals(self) -> slice:
        """The globals block."""
        start = self.properties.stop
        return slice(start, start + 6)

    @property
    def decision(self) -> slice:
        """The decision block."""
        start = self.globals.stop
        return slice(start, start + len(DECISION_KINDS) + 2 * self.n_properties + 4)

    @property
    def size(self) -> int:
        """Entries of the whole vector."""
        return self.decision.stop

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` of every entry (0..1 for flags and fractions, finite wide bounds for money and counts)."""
        low = np.zeros(self.size, dtype=np.float32)
        high = np.ones(self.size, dtype=np.float32)
        w = self.player_width
        for r in range(self.n):
            high[r * w : r * w + 2] = _BIG  # cash, net worth
            high[r * w + 3 : r * w + 5] = _BIG  # failed jail rolls, jail cards
        g = self.globals.start
        high[g + 1] = _BIG  # doubles rolled
        d = self.decision.start + len(DECISION_KINDS) + self.n_properties
        high[d] = _BIG  # amount owed
        t = d + 2
        low[t : t + self.n_properties] = -1.0
        low[t + self.n_properties : t + self.n_properties + 2] = -_BIG
        high[t + self.n_properties : t + self.n_properties + 2] = _BIG
        return low, high


class ObservationEncoder:
    """Builds the ``"observation"`` vector of :class:`ObservationLayout` for one environment.

    Parameters
    ----------
    layout:
        The vector's layout.
    property_squares:
        The board's property squares in board order (the properties block's rows; as
        :attr:`solver.rl.actions.ActionLayout.squares`).
    max_rounds:
        The engine's round cap (the round entry is ``round / max_rounds``, at most 1).
    max_turns:
        The environment's turn cap (the turns entry is ``turns / max_turns``, at most 1); ``None``: that entry is 0.
    """

    def __init__(self, layout: ObservationLayout, property_squares: tuple[int, ...], max_rounds: int, max_turns: int | None) -> None:
        self.layout = layout
        self.max_rounds = max_rounds
        self.max_turns = max_turns
        self._slot = {sq: k for k, sq in enumerate(property_squares)}
        self._props = np.array(property_squares, dtype=np.intp)

    def encode(self, game: Game, me: int, request: Request | None) -> np.ndarray:
        """The observation of seat ``me`` while the engine waits on ``request``.

        Parameters
        ----------
        game:
            The live game (read while its engine thread is blocked).
        me:
            The observing seat.
        request:
            The pending question (``None``, or another seat's: the decision block says ``none``).

        Returns
        -------
        numpy.ndarray
            ``float32`` of length ``layout.size``.
        """
        s = game.state
        lay = self.layout
        n, nprop = lay.n, lay.n_properties
        obs = np.zeros(lay.size, dtype=np.float32)
        w = lay.player_width
        for r in range(n):
            i = (me + r) % n
            pl = s.players[i]
            row = r * w
            obs[row : row + 7] = (
                pl.cash / MONEY_SCALE,
                s.net_worth(i) / MONEY_SCALE,
                pl.in_jail,
                pl.jail_turns,
                pl.jail_cards,
                pl.bankrupt,
                s.to_move == i,
            )
            obs[row + 7 + pl.position] = 1.0
        owner = np.asarray(s.owner, dtype=np.intp)[self._props]
        rows = obs[lay.properties].reshape(nprop, n + 2)
        owned = owner != BANK
        rows[np.flatnonzero(owned), (owner[owned] - me) % n] = 1.0
        rows[:, n] = np.asarray(s.houses, dtype=np.float32)[self._props] / HOTEL
        rows[:, n + 1] = np.asarray(s.mortgaged, dtype=np.float32)[self._props]
        g = lay.globals.start
        obs[g : g + 6] = (
            s.phase == Phase.ROLLED,
            s.doubles_rolled,
            min(1.0, s.round / self.max_rounds),
            min(1.0, game.turns / self.max_turns) if self.max_turns else 0.0,
            s.houses_in_bank() / s.rules.houses if s.rules.houses else 0.0,
            s.hotels_in_bank() / s.rules.hotels if s.rules.hotels else 0.0,
        )
        d = lay.decision.start
        if request is None or request.seat != me:
            obs[d] = 1.0  # kind "none"
            return obs
        obs[d + DECISION_KINDS.index(request.kind)] = 1.0
        d += len(DECISION_KINDS)
        if request.square is not None:
            obs[d + self._slot[request.square]] = 1.0
        d += nprop
        obs[d] = request.owed / MONEY_SCALE
        obs[d + 1] = request.building == "hotel"
        d += 2
        if request.trade is not None:
            name = s.players[me].name
            for prop in request.trade.properties_received(name):
                obs[d + self._slot[s.square_of(prop)]] = 1.0
            for prop in request.trade.properties_given(name):
                obs[d + self._slot[s.square_of(prop)]] = -1.0
            obs[d + nprop] = request.trade.net_cash(name) / MONEY_SCALE
            obs[d + nprop + 1] = request.trade.net_jail_cards(name)
        return obs
