"""Two agents that answer the protocol, and the check of an agent's options.

:class:`BaseAgent` answers every question of the protocol
(:class:`engine.rules.protocol.Agent`) passively, the base of every agent;
:class:`RandomAgent` answers at random among the legal answers, with the
probabilities its methods state, from its own seeded generator (the
conformance test and the soak, bench/soak.py, play it against the engine's
invariants). :func:`check_options` is the one place an agent's option ranges
are enforced.

``Agent`` and ``EVENT_KINDS`` are imported here from
:mod:`engine.rules.protocol`, where the protocol is, so that the path of 0.1
(``engine.agents``, an alias of this module until 0.3) and the code that
imports them from here keep working.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from engine.rules.actions import (
    ACTION_TYPES,
    Action,
    Build,
    Event,
    JailChoice,
    Mortgage,
    ProposeTrade,
    SellBuilding,
    Unmortgage,
)
from engine.rules.protocol import EVENT_KINDS, Agent
from engine.rules.refusals import Refusals
from engine.rules.seeding import SeedLike, make_rng
from engine.rules.view import GameView
from models.board import HOTEL
from models.errors import InvalidArgumentError, MonopolyError
from models.trade import Trade, Transfer


class NoLegalLotError(MonopolyError, RuntimeError):
    """``place_building`` was asked where no lot can take a building of that kind: a misuse by the host.

    The reference engine never asks so (it asks only the winner of a shortage
    auction, who could build one when it bid, and nothing changes in between);
    a host that asks on another view can (the novelty monitor asks its inner
    agent on the view under its model of the rules, and catches it). A
    :class:`RuntimeError` as before, so such hosts keep catching it.
    """


class BaseAgent:
    """Sensible, passive defaults: buy nothing, bid nothing, never trade.

    ``raise_cash`` returns ``None``, which lets the engine liquidate in its
    fixed order (:meth:`engine.rules.game.Game.liquidate`). Subclasses
    override the questions they answer otherwise; :class:`Agent` documents
    each question's parameters and answer.

    Parameters
    ----------
    seed:
        Seed of the agent's own generator, :attr:`rng` (:func:`engine.rules.seeding.make_rng`).

    Examples
    --------
    >>> from engine.rules.game import new_game
    >>> from engine.rules.streams import SeededStream
    >>> new_game(["A", "B"], [BaseAgent(), BaseAgent()], SeededStream(3), max_rounds=10).play().net_worths
    {'A': 1600, 'B': 1350}
    """

    name = "base"

    def __init__(self, seed: SeedLike = None) -> None:
        self.rng: np.random.Generator = make_rng(seed)
        self.me = -1
        self.names: tuple[str, ...] = ()
        self.refusals = Refusals()
        """The moves the host refused to this seat in the current position
        (:mod:`engine.rules.refusals`): draw moves from ``self.refusals.listed(view, kind)``."""

    def start_game(self, me: int, names: tuple[str, ...]) -> None:
        """Keep its seat (:attr:`me`) and the players' names (:attr:`names`).

        Parameters
        ----------
        me:
            The agent's seat.
        names:
            Every player's name, in seat order.
        """
        self.me = me
        self.names = names

    def notify(self, event: Event) -> None:
        """Remember a move the host refused to this seat (a ``refused`` event naming an
        action: :attr:`refusals`); ignore every other event. Subclasses that keep more call
        this too.

        Parameters
        ----------
        event:
            What happened.
        """
        if event.kind == "refused" and event.player == self.me and isinstance(event.data.get("action"), ACTION_TYPES):
            self.refusals.record(event.data["action"])

    def buy(self, view: GameView, square: int) -> bool:
        """Never buy.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        square:
            The lot.

        Returns
        -------
        bool
            ``False``.
        """
        return False

    def auction_max(self, view: GameView, square: int) -> int:
        """Never bid.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        square:
            The lot.

        Returns
        -------
        int
            0.
        """
        return 0

    def jail_choice(self, view: GameView) -> JailChoice:
        """Always roll for doubles.

        Parameters
        ----------
        view:
            The game as this seat sees it.

        Returns
        -------
        JailChoice
            ``roll``.
        """
        return "roll"

    def act(self, view: GameView) -> Action | None:
        """Never act.

        Parameters
        ----------
        view:
            The game as this seat sees it.

        Returns
        -------
        None
            The phase ends.
        """
        return None

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        """Refuse every trade.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        trade:
            The proposal.

        Returns
        -------
        bool
            ``False``.
        """
        return False

    def lift_on_receipt(self, view: GameView, square: int) -> bool:
        """Never lift on receipt (interest only).

        Parameters
        ----------
        view:
            The game as this seat sees it.
        square:
            The lot received.

        Returns
        -------
        bool
            ``False``.
        """
        return False

    def raise_cash(self, view: GameView, owed: int) -> Action | None:
        """Leave the debt to the engine's fixed liquidation order.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        owed:
            The whole payment.

        Returns
        -------
        None
            Stop.
        """
        return None

    def building_bid(self, view: GameView, kind: str) -> int | None:
        """Want no building in a shortage (as the requester: a $0 premium).

        Parameters
        ----------
        view:
            The game as this seat sees it.
        kind:
            ``house`` or ``hotel``.

        Returns
        -------
        None
            Not wanted.
        """
        return None

    def place_building(self, view: GameView, kind: str) -> int:
        """The first legal lot for a ``kind``, in board order.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        kind:
            ``house`` or ``hotel``.

        Returns
        -------
        int
            The lot's square index.

        Raises
        ------
        NoLegalLotError
            No lot can take a building of that kind (the reference engine never asks then).
        """
        for sq in view.legal_builds():
            if (view.level(sq) == HOTEL - 1) == (kind == "hotel"):
                return sq
        raise NoLegalLotError("no legal lot for the building")


OptionLimits = Mapping[str, "tuple[float, float] | tuple[str, ...]"]
"""An agent class's ``OPTION_LIMITS``: ``(lowest, highest)`` for a number option, the choices for a string one."""


def check_options(limits: OptionLimits, values: Mapping[str, Any]) -> None:
    """Refuse any of ``values`` outside its entry of ``limits`` (a finite number in range, or one of the
    choices). The single place an agent's option ranges are enforced: each constructor calls it, and the
    agent registry builds the agent to check a spec.

    Parameters
    ----------
    limits:
        The agent class's ``OPTION_LIMITS``.
    values:
        Option values by name; names without limits are not checked, limits without a value are skipped.

    Raises
    ------
    InvalidArgumentError
        A value out of its range or not one of its choices; the one-line message names the option.

    Examples
    --------
    >>> check_options({"p_stop": (0.0, 1.0), "mode": ("fast", "exact")}, {"p_stop": 0.5, "mode": "fast"})
    >>> check_options({"p_stop": (0.0, 1.0)}, {"p_stop": 1.5})
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: option 'p_stop': 1.5 is outside 0.0..1.0
    """
    for key, lim in limits.items():
        if key not in values:
            continue
        value = values[key]
        if isinstance(lim[0], str):
            if value not in lim:
                raise InvalidArgumentError(f"option {key!r}: {value!r} is not one of {', '.join(str(x) for x in lim)}")
            continue
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not number or not math.isfinite(value) or not lim[0] <= value <= lim[1]:
            raise InvalidArgumentError(f"option {key!r}: {value!r} is outside {lim[0]}..{lim[1]}")


class RandomAgent(BaseAgent):
    """Random legal choices, to shake the engine.

    ``OPTION_LIMITS``: the range of each option, checked by the agent registry.

    Parameters
    ----------
    seed:
        Seed of its own generator.
    p_stop:
        Probability of ending an ``act`` phase at each call (keeps phases short).
    p_trade:
        Probability that an action is a trade proposal (random properties,
        cash and cards between random players, sometimes a 3-way cycle).

    Raises
    ------
    InvalidArgumentError
        ``p_stop`` or ``p_trade`` outside 0..1.

    Examples
    --------
    >>> from engine.rules.game import new_game
    >>> from engine.rules.streams import SeededStream
    >>> new_game(["A", "B"], [RandomAgent(1), RandomAgent(2)], SeededStream(3), max_rounds=20).play().reason
    'round_cap'
    """

    name = "random"
    OPTION_LIMITS: dict[str, tuple[float, float] | tuple[str, ...]] = {"p_stop": (0.0, 1.0), "p_trade": (0.0, 1.0)}

    def __init__(self, seed: SeedLike = None, p_stop: float = 0.6, p_trade: float = 0.15) -> None:
        check_options(RandomAgent.OPTION_LIMITS, {"p_stop": p_stop, "p_trade": p_trade})
        super().__init__(seed)
        self.p_stop = p_stop
        self.p_trade = p_trade

    def buy(self, view: GameView, square: int) -> bool:
        """Buy with probability 0.7.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        square:
            The lot.

        Returns
        -------
        bool
            Whether to buy.
        """
        return bool(self.rng.random() < 0.7)

    def auction_max(self, view: GameView, square: int) -> int:
        """No bid with probability 0.3 (or without cash), else uniform in 0..min(cash, twice the price).

        Parameters
        ----------
        view:
            The game as this seat sees it.
        square:
            The lot.

        Returns
        -------
        int
            The maximum.
        """
        cash = view.cash(self.me)
        if cash <= 0 or self.rng.random() < 0.3:
            return 0
        return int(self.rng.integers(0, min(cash, 2 * view.board.squares[square].price) + 1))

    def jail_choice(self, view: GameView) -> JailChoice:
        """Uniform over the choices open to it: ``roll``, ``pay`` if it has the fine, ``card`` if it holds one.

        Parameters
        ----------
        view:
            The game as this seat sees it.

        Returns
        -------
        JailChoice
            The choice.
        """
        me = view.player(self.me)
        options: list[JailChoice] = ["roll"]
        if me.cash >= view.rules.jail_fine:
            options.append("pay")
        if me.jail_cards:
            options.append("card")
        return options[int(self.rng.integers(len(options)))]

    def act(self, view: GameView) -> Action | None:
        """Stop with probability ``p_stop``; else a random trade with probability ``p_trade``
        (:meth:`random_trade`), else a random legal action of a random kind.

        Parameters
        ----------
        view:
            The game as this seat sees it.

        Returns
        -------
        Action or None
            The action, or ``None`` (stop, or nothing legal).
        """
        if self.rng.random() < self.p_stop:
            return None
        if self.rng.random() < self.p_trade:
            trade = self.random_trade(view)
            if trade is not None:
                return ProposeTrade(trade)
        # Pick a kind of action at random, then a legal one of that kind (the
        # kinds are tried in a random order until one has a legal action).
        kinds = (Build, SellBuilding, Mortgage, Unmortgage)
        for k in self.rng.permutation(len(kinds)):
            make = kinds[int(k)]
            squares = self.refusals.listed(view, make)
            if squares:
                return make(squares[int(self.rng.integers(len(squares)))])
        return None

    def random_trade(self, view: GameView) -> Trade | None:
        """A random trade with one other active player, or (probability 0.2, with two or more
        others) a 3-way cycle: each transfer up to three of the giver's tradable lots (probability
        0.7), up to half its cash (0.5) and a held jail card (0.3).

        Parameters
        ----------
        view:
            The game as this seat sees it.

        Returns
        -------
        Trade or None
            The trade, or ``None`` when it is empty or not a legal proposal now.
        """
        others = [i for i in view.active_players() if i != self.me]
        if not others:
            return None
        cycle = len(others) >= 2 and self.rng.random() < 0.2
        k = 2 if cycle else 1
        partners = [int(x) for x in self.rng.choice(others, size=k, replace=False)]
        ring = [self.me, *partners]
        transfers = []
        for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
            props = view.tradable_properties(a)
            chosen: tuple[str, ...] = ()
            if props and self.rng.random() < 0.7:
                n = int(self.rng.integers(1, min(3, len(props)) + 1))
                picks = self.rng.choice(props, size=n, replace=False)
                chosen = tuple(view.board.squares[int(s)].name for s in picks)
            cash = view.cash(a)
            pay = int(self.rng.integers(0, cash // 2 + 1)) if cash > 0 and self.rng.random() < 0.5 else 0
            cards = 1 if view.player(a).jail_cards and self.rng.random() < 0.3 else 0
            transfers.append(Transfer(view.name(a), view.name(b), chosen, pay, cards))
        trade = Trade(tuple(t for t in transfers if not t.is_empty()))
        if not trade.transfers or view.why_not_trade(trade) is not None or self.refusals.refused(view, ProposeTrade(trade)):
            return None
        return trade

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        """Accept with probability 0.5.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        trade:
            The proposal.

        Returns
        -------
        bool
            Whether to accept.
        """
        return bool(self.rng.random() < 0.5)

    def lift_on_receipt(self, view: GameView, square: int) -> bool:
        """Lift with probability 0.5.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        square:
            The lot received.

        Returns
        -------
        bool
            Whether to lift.
        """
        return bool(self.rng.random() < 0.5)

    def raise_cash(self, view: GameView, owed: int) -> Action | None:
        """Stop with probability 0.2; else a random legal building sale or mortgage.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        owed:
            The whole payment.

        Returns
        -------
        Action or None
            The sale or mortgage, or ``None`` (stop, or nothing left to sell or mortgage).
        """
        if self.rng.random() < 0.2:
            return None  # leave the rest to the engine's fixed liquidation order
        choices: list[Action] = [SellBuilding(sq) for sq in self.refusals.listed(view, SellBuilding)]
        choices += [Mortgage(sq) for sq in self.refusals.listed(view, Mortgage)]
        if not choices:
            return None
        return choices[int(self.rng.integers(len(choices)))]

    def building_bid(self, view: GameView, kind: str) -> int | None:
        """Not wanted with probability 0.5, else a premium uniform in 0..99.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        kind:
            ``house`` or ``hotel``.

        Returns
        -------
        int or None
            The premium, or ``None``.
        """
        if self.rng.random() < 0.5:
            return None
        return int(self.rng.integers(0, 100))

    def place_building(self, view: GameView, kind: str) -> int:
        """A legal lot for a ``kind``, uniformly.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        kind:
            ``house`` or ``hotel``.

        Returns
        -------
        int
            The lot's square index.
        """
        legal = [sq for sq in view.legal_builds() if (view.level(sq) == HOTEL - 1) == (kind == "hotel")]
        return legal[int(self.rng.integers(len(legal)))]


__all__ = ["EVENT_KINDS", "Agent", "BaseAgent", "NoLegalLotError", "OptionLimits", "RandomAgent", "check_options"]
