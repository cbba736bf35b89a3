"""The agent protocol, a do-little base class, and the random agent.

An agent is asked at each decision point and told what happens through
``notify``. It sees a :class:`engine.rules.view.GameView` (read-only), never the
engine. Decision points:

==================  ==========================================================
``buy``             landing on an unowned property with cash for it
``auction_max``     the most it would pay in an auction (0 = no bid)
``jail_choice``     before rolling in jail: ``roll``, ``pay`` or ``card``
``act``             between turns and after each of its own rolls: one
                    :data:`engine.rules.actions.Action` at a time, ``None`` to stop
``accept_trade``    another player proposes a trade that involves it
``lift_on_receipt`` it receives a mortgaged property: lift now (``True``) or
                    pay the interest only
``raise_cash``      it owes ``owed`` and lacks the cash: one action at a time
                    (sell, mortgage, propose a trade), ``None`` to stop
``building_bid``    a shortage auction for the bank's last houses/hotels: the
                    most it pays above the list price, ``None`` = not wanted
``place_building``  it won a shortage auction: where to put the building
==================  ==========================================================

During ``act`` and ``raise_cash`` the view says how much of the phase is
left (``view.actions_left``, ``view.trades_left``; ``None`` at the other
questions). Every event kind and its data fields are in :data:`EVENT_KINDS`;
a ``turn`` event starts each turn (agents reset their once-per-turn state
on it). docs/agents.md#the-protocol says what the host does with each
answer, illegal ones included.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

import numpy as np

from engine.rules.actions import (
    Action,
    Build,
    Event,
    JailChoice,
    Mortgage,
    ProposeTrade,
    SellBuilding,
    Unmortgage,
)
from engine.rules.seeding import SeedLike, make_rng
from engine.rules.view import GameView
from models.board import HOTEL
from models.errors import InvalidArgumentError, MonopolyError
from models.trade import Trade, Transfer

EVENT_KINDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "game_start": ("round",),
        "turn": ("round",),
        "roll": ("dice", "doubles", "why"),
        "move": ("frm", "to", "passed_go", "why"),
        "cash": ("frm", "to", "amount", "why"),
        "card": ("deck", "card", "text"),
        "jail": ("why",),
        "leave_jail": ("how",),
        "roll_end": ("position", "in_jail"),
        "refused": ("action", "why"),
        "buy": ("square", "price"),
        "declined": ("square",),
        "auction": ("square", "winner", "price"),
        "build": ("square", "level", "premium"),
        "building_auction": ("building", "premium", "requester"),
        "sell_building": ("square", "levels"),
        "mortgage": ("square",),
        "unmortgage": ("square",),
        "even_out": ("levels",),
        "trade": ("trade", "accepted", "refused_by", "lifted"),
        "bankrupt": ("creditor", "properties"),
        "game_end": ("reason",),
    }
)
"""Every kind of :class:`engine.rules.actions.Event` the reference engine emits -> the keys of its
``data`` (``trade``: ``refused_by`` when refused, ``lifted`` when accepted; every other kind
carries exactly its keys). docs/agents.md#events says when each is emitted and what
``player`` is."""


class NoLegalLotError(MonopolyError, RuntimeError):
    """``place_building`` was asked where no lot can take a building of that kind: a misuse by the host.

    The reference engine never asks so (it asks only the winner of a shortage
    auction, who could build one when it bid, and nothing changes in between);
    a host that asks on another view can (the novelty monitor asks its inner
    agent on the view under its model of the rules, and catches it). A
    :class:`RuntimeError` as before, so such hosts keep catching it.
    """


@runtime_checkable
class Agent(Protocol):
    name: str

    def start_game(self, me: int, names: tuple[str, ...]) -> None: ...
    def notify(self, event: Event) -> None: ...
    def buy(self, view: GameView, square: int) -> bool: ...
    def auction_max(self, view: GameView, square: int) -> int: ...
    def jail_choice(self, view: GameView) -> JailChoice: ...
    def act(self, view: GameView) -> Action | None: ...
    def accept_trade(self, view: GameView, trade: Trade) -> bool: ...
    def lift_on_receipt(self, view: GameView, square: int) -> bool: ...
    def raise_cash(self, view: GameView, owed: int) -> Action | None: ...
    def building_bid(self, view: GameView, kind: str) -> int | None: ...
    def place_building(self, view: GameView, kind: str) -> int: ...


class BaseAgent:
    """Sensible, passive defaults: buy nothing, bid nothing, never trade.

    ``raise_cash`` returns ``None``, which lets the engine liquidate in its
    fixed order (:meth:`engine.rules.game.Game.liquidate`).
    """

    name = "base"

    def __init__(self, seed: SeedLike = None) -> None:
        self.rng: np.random.Generator = make_rng(seed)
        self.me = -1
        self.names: tuple[str, ...] = ()

    def start_game(self, me: int, names: tuple[str, ...]) -> None:
        self.me = me
        self.names = names

    def notify(self, event: Event) -> None:
        return None

    def buy(self, view: GameView, square: int) -> bool:
        return False

    def auction_max(self, view: GameView, square: int) -> int:
        return 0

    def jail_choice(self, view: GameView) -> JailChoice:
        return "roll"

    def act(self, view: GameView) -> Action | None:
        return None

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        return False

    def lift_on_receipt(self, view: GameView, square: int) -> bool:
        return False

    def raise_cash(self, view: GameView, owed: int) -> Action | None:
        return None

    def building_bid(self, view: GameView, kind: str) -> int | None:
        return None

    def place_building(self, view: GameView, kind: str) -> int:
        for sq in view.legal_builds():
            if (view.level(sq) == HOTEL - 1) == (kind == "hotel"):
                return sq
        raise NoLegalLotError("no legal lot for the building")


OptionLimits = Mapping[str, "tuple[float, float] | tuple[str, ...]"]
"""An agent class's ``OPTION_LIMITS``: ``(lowest, highest)`` for a number option, the choices for a string one."""


def check_options(limits: OptionLimits, values: Mapping[str, Any]) -> None:
    """Refuse any of ``values`` outside its entry of ``limits`` (a finite number in range, or one of the
    choices), with a one-line :class:`ValueError` naming the option. The single place an agent's option
    ranges are enforced: each constructor calls it, and the agent registry builds the agent to check a spec."""
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
    """

    name = "random"
    OPTION_LIMITS: dict[str, tuple[float, float] | tuple[str, ...]] = {"p_stop": (0.0, 1.0), "p_trade": (0.0, 1.0)}

    def __init__(self, seed: SeedLike = None, p_stop: float = 0.6, p_trade: float = 0.15) -> None:
        check_options(RandomAgent.OPTION_LIMITS, {"p_stop": p_stop, "p_trade": p_trade})
        super().__init__(seed)
        self.p_stop = p_stop
        self.p_trade = p_trade

    def buy(self, view: GameView, square: int) -> bool:
        return bool(self.rng.random() < 0.7)

    def auction_max(self, view: GameView, square: int) -> int:
        cash = view.cash(self.me)
        if cash <= 0 or self.rng.random() < 0.3:
            return 0
        return int(self.rng.integers(0, min(cash, 2 * view.board.squares[square].price) + 1))

    def jail_choice(self, view: GameView) -> JailChoice:
        me = view.player(self.me)
        options: list[JailChoice] = ["roll"]
        if me.cash >= view.rules.jail_fine:
            options.append("pay")
        if me.jail_cards:
            options.append("card")
        return options[int(self.rng.integers(len(options)))]

    def act(self, view: GameView) -> Action | None:
        if self.rng.random() < self.p_stop:
            return None
        if self.rng.random() < self.p_trade:
            trade = self.random_trade(view)
            if trade is not None:
                return ProposeTrade(trade)
        # Pick a kind of action at random, then a legal one of that kind (the
        # kinds are tried in a random order until one has a legal action).
        kinds = (
            (Build, view.legal_builds),
            (SellBuilding, view.legal_building_sales),
            (Mortgage, view.legal_mortgages),
            (Unmortgage, view.legal_unmortgages),
        )
        for k in self.rng.permutation(len(kinds)):
            make, options = kinds[int(k)]
            squares = options()
            if squares:
                return make(squares[int(self.rng.integers(len(squares)))])  # type: ignore[abstract]
        return None

    def random_trade(self, view: GameView) -> Trade | None:
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
        return trade if trade.transfers and view.why_not_trade(trade) is None else None

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        return bool(self.rng.random() < 0.5)

    def lift_on_receipt(self, view: GameView, square: int) -> bool:
        return bool(self.rng.random() < 0.5)

    def raise_cash(self, view: GameView, owed: int) -> Action | None:
        if self.rng.random() < 0.2:
            return None  # leave the rest to the engine's fixed liquidation order
        choices: list[Action] = [SellBuilding(sq) for sq in view.legal_building_sales()]
        choices += [Mortgage(sq) for sq in view.legal_mortgages()]
        if not choices:
            return None
        return choices[int(self.rng.integers(len(choices)))]

    def building_bid(self, view: GameView, kind: str) -> int | None:
        if self.rng.random() < 0.5:
            return None
        return int(self.rng.integers(0, 100))

    def place_building(self, view: GameView, kind: str) -> int:
        legal = [sq for sq in view.legal_builds() if (view.level(sq) == HOTEL - 1) == (kind == "hotel")]
        return legal[int(self.rng.integers(len(legal)))]
