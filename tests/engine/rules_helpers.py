"""Shared helpers of the rule tests (``tests/engine/test_rules_*.py``).

* :class:`ScriptedAgent`: an agent whose every answer is set by the test;
* :func:`make_state`: a standard-board state with holdings set by square index;
* :func:`make_game`: a :class:`engine.rules.game.Game` on a :class:`ScriptedStream`
  with an :class:`InvariantChecker` and an :class:`EventLog` attached.

Square indices of the standard board used throughout the tests (see
``models/data/standard-us.json``)::

    0 Go  1 Mediterranean  2 CC  3 Baltic  4 Income Tax  5 Reading RR
    6 Oriental  7 Chance  8 Vermont  9 Connecticut  10 Jail  11 St. Charles
    12 Electric Co  13 States  14 Virginia  15 Pennsylvania RR  16 St. James
    17 CC  18 Tennessee  19 New York  20 Free Parking  21 Kentucky  22 Chance
    23 Indiana  24 Illinois  25 B&O RR  26 Atlantic  27 Ventnor  28 Water Works
    29 Marvin Gardens  30 Go To Jail  31 Pacific  32 North Carolina  33 CC
    34 Pennsylvania Ave  35 Short Line  36 Chance  37 Park Place  38 Luxury Tax
    39 Boardwalk

Chance (printed order): 0 Boardwalk, 1 Go, 2 Illinois, 3 St. Charles,
4/5 nearest railroad (x2 rent), 6 nearest utility (10x dice), 7 +$50,
8 Get Out of Jail Free, 9 back 3, 10 go to jail, 11 repairs $25/$100,
12 -$15, 13 Reading RR, 14 pay each player $50, 15 +$150.

Community Chest: 0 Go, 1 +$200, 2 -$50, 3 +$50, 4 Get Out of Jail Free,
5 go to jail, 6 +$100, 7 +$20, 8 birthday $10 from each, 9 +$100,
10 -$100, 11 -$50, 12 +$25, 13 repairs $40/$115, 14 +$10, 15 +$100.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.rules.actions import Action, Event, JailChoice
from engine.rules.agents import BaseAgent
from engine.rules.game import Game
from engine.rules.invariants import InvariantChecker
from engine.rules.streams import ScriptedStream
from engine.rules.view import GameView
from models.board import standard_board
from models.io import validate_state
from models.rules import Rules
from models.state import GameState, PlayerState
from models.trade import Trade

# -- named squares ---------------------------------------------------------
GO, MEDITERRANEAN, CC1, BALTIC, INCOME_TAX, READING = 0, 1, 2, 3, 4, 5
ORIENTAL, CHANCE1, VERMONT, CONNECTICUT, JAIL = 6, 7, 8, 9, 10
ST_CHARLES, ELECTRIC, STATES, VIRGINIA, PENNSYLVANIA_RR = 11, 12, 13, 14, 15
ST_JAMES, CC2, TENNESSEE, NEW_YORK, FREE_PARKING = 16, 17, 18, 19, 20
KENTUCKY, CHANCE2, INDIANA, ILLINOIS, B_AND_O = 21, 22, 23, 24, 25
ATLANTIC, VENTNOR, WATER_WORKS, MARVIN, GO_TO_JAIL = 26, 27, 28, 29, 30
PACIFIC, NORTH_CAROLINA, CC3, PENNSYLVANIA_AVE, SHORT_LINE = 31, 32, 33, 34, 35
CHANCE3, PARK_PLACE, LUXURY_TAX, BOARDWALK = 36, 37, 38, 39

# -- card indices ----------------------------------------------------------
CH_BOARDWALK, CH_GO, CH_ILLINOIS, CH_ST_CHARLES = 0, 1, 2, 3
CH_RAILROAD, CH_RAILROAD2, CH_UTILITY, CH_DIVIDEND = 4, 5, 6, 7
CH_JAIL_FREE, CH_BACK3, CH_GO_TO_JAIL, CH_REPAIRS = 8, 9, 10, 11
CH_SPEEDING, CH_READING, CH_CHAIRMAN, CH_LOAN = 12, 13, 14, 15

CC_GO, CC_BANK_ERROR, CC_DOCTOR, CC_STOCK = 0, 1, 2, 3
CC_JAIL_FREE, CC_GO_TO_JAIL, CC_HOLIDAY, CC_TAX_REFUND = 4, 5, 6, 7
CC_BIRTHDAY, CC_LIFE_INSURANCE, CC_HOSPITAL, CC_SCHOOL = 8, 9, 10, 11
CC_CONSULTANCY, CC_REPAIRS, CC_BEAUTY, CC_INHERIT = 12, 13, 14, 15

DECK_SIZE = 16


def deck_order(*first: int, n: int = DECK_SIZE) -> list[int]:
    """A permutation of ``range(n)`` starting with ``first`` (the rest in order)."""
    rest = [i for i in range(n) if i not in first]
    return [*first, *rest]


# -- agents ----------------------------------------------------------------
def _pick(value: Any, key: Any, default: Any) -> Any:
    """``value`` itself, or ``value[key]`` for a mapping (``default`` if absent), or ``value(key)``."""
    if callable(value):
        return value(key)
    if isinstance(value, Mapping):
        return value.get(key, default)
    if isinstance(value, (set, frozenset)):
        return key in value
    return value


class ScriptedAgent(BaseAgent):
    """An agent whose answers are fixed by the test.

    Parameters
    ----------
    buy:
        ``True``/``False``, a set of squares to buy, or a callable ``square -> bool``.
    auction:
        Auction maximum: an int, a mapping ``square -> int`` or a callable.
    jail:
        Jail choice: one choice for every turn, or a list used in order
        (the last one repeats).
    acts:
        Queue answered by ``act`` one item per call; ``None`` items end the
        current phase (use them to reach a later phase). Empty queue: ``None``.
    raise_actions:
        Queue answered by ``raise_cash`` (``None`` items stop); empty: ``None``.
    accept:
        Answer to trade proposals (bool or callable ``trade -> bool``).
    lift:
        ``lift_on_receipt``: bool, set of squares, or callable ``square -> bool``.
    building_bid:
        Premium over list price in a shortage auction (``None``: not wanted).
    place:
        Queue of squares answered by ``place_building``.
    """

    name = "scripted"

    def __init__(
        self,
        *,
        buy: bool | Iterable[int] | Callable[[int], bool] = False,
        auction: int | Mapping[int, int] | Callable[[int], int] = 0,
        jail: JailChoice | Sequence[JailChoice] = "roll",
        acts: Iterable[Action | None] = (),
        raise_actions: Iterable[Action | None] = (),
        accept: bool | Callable[[Trade], bool] = False,
        lift: bool | Iterable[int] | Callable[[int], bool] = False,
        building_bid: int | None = None,
        place: Iterable[int] = (),
    ) -> None:
        super().__init__(0)
        self._buy = set(buy) if not isinstance(buy, bool) and not callable(buy) else buy
        self._auction = auction
        self._jail = [jail] if isinstance(jail, str) else list(jail)
        self.acts: list[Action | None] = list(acts)
        self.raise_actions: list[Action | None] = list(raise_actions)
        self._accept = accept
        self._lift = set(lift) if not isinstance(lift, bool) and not callable(lift) else lift
        self._building_bid = building_bid
        self.place: list[int] = list(place)
        self.calls: list[tuple[str, Any]] = []
        self.events: list[Event] = []

    def notify(self, event: Event) -> None:
        self.events.append(event)

    def buy(self, view: GameView, square: int) -> bool:
        self.calls.append(("buy", square))
        return bool(_pick(self._buy, square, False))

    def auction_max(self, view: GameView, square: int) -> int:
        self.calls.append(("auction_max", square))
        return int(_pick(self._auction, square, 0))

    def jail_choice(self, view: GameView) -> JailChoice:
        choice = self._jail.pop(0) if len(self._jail) > 1 else self._jail[0]
        self.calls.append(("jail_choice", choice))
        return choice

    def act(self, view: GameView) -> Action | None:
        self.calls.append(("act", None))
        return self.acts.pop(0) if self.acts else None

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        self.calls.append(("accept_trade", trade))
        return bool(self._accept(trade) if callable(self._accept) else self._accept)

    def lift_on_receipt(self, view: GameView, square: int) -> bool:
        self.calls.append(("lift_on_receipt", square))
        return bool(_pick(self._lift, square, False))

    def raise_cash(self, view: GameView, owed: int) -> Action | None:
        self.calls.append(("raise_cash", owed))
        return self.raise_actions.pop(0) if self.raise_actions else None

    def building_bid(self, view: GameView, kind: str) -> int | None:
        self.calls.append(("building_bid", kind))
        return self._building_bid

    def place_building(self, view: GameView, kind: str) -> int:
        self.calls.append(("place_building", kind))
        if self.place:
            return self.place.pop(0)
        return super().place_building(view, kind)

    def asked(self, method: str) -> list[Any]:
        """Arguments of every call of ``method``, in order."""
        return [arg for m, arg in self.calls if m == method]


# -- states ----------------------------------------------------------------
def make_state(
    n: int = 2,
    *,
    cash: int | Sequence[int] = 1500,
    positions: Sequence[int] | None = None,
    owner: Mapping[int, int] | None = None,
    houses: Mapping[int, int] | None = None,
    mortgaged: Iterable[int] = (),
    in_jail: Mapping[int, int] | None = None,
    jail_cards: Mapping[int, int] | None = None,
    rules: Rules | None = None,
    to_move: int = 0,
) -> GameState:
    """A standard-board state of ``n`` players named A, B, C ...

    ``owner`` maps squares to player indices, ``houses`` squares to levels
    (5 = hotel), ``in_jail`` players to their failed jail rolls so far,
    ``jail_cards`` players to the Get Out of Jail Free cards they hold. The
    state is checked by :func:`models.io.validate_state`.
    """
    names = [chr(ord("A") + i) for i in range(n)]
    cash_list = [cash] * n if isinstance(cash, int) else list(cash)
    pos = list(positions) if positions is not None else [0] * n
    players = [PlayerState(name, cash_list[i], pos[i]) for i, name in enumerate(names)]
    rules = rules or Rules()
    state = GameState(standard_board(), rules, players, to_move=to_move, pot=rules.free_parking_seed, bank_cash=rules.bank_cash)
    for sq, p in (owner or {}).items():
        state.owner[sq] = p
    for sq, level in (houses or {}).items():
        state.houses[sq] = level
    for sq in mortgaged:
        state.mortgaged[sq] = True
    for p, turns in (in_jail or {}).items():
        players[p].in_jail = True
        players[p].position = state.board.jail
        players[p].jail_turns = turns
    for p, k in (jail_cards or {}).items():
        players[p].jail_cards = k
    validate_state(state)
    return state


# -- games -----------------------------------------------------------------
@dataclass
class EventLog:
    """Observer that records every event."""

    events: list[Event] = field(default_factory=list)

    def __call__(self, event: Event, game: Game) -> None:
        self.events.append(event)

    def of(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    def cash(self, why: str | None = None) -> list[Event]:
        return [e for e in self.of("cash") if why is None or e.data["why"] == why]

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


@dataclass
class Harness:
    game: Game
    stream: ScriptedStream
    checker: InvariantChecker
    log: EventLog
    agents: list[ScriptedAgent]

    @property
    def state(self) -> GameState:
        return self.game.state

    def cash(self) -> list[int]:
        return [p.cash for p in self.game.state.players]

    def turn(self, k: int = 1) -> None:
        for _ in range(k):
            self.game.play_turn()


def make_game(
    state: GameState,
    agents: Sequence[ScriptedAgent] | None = None,
    *,
    dice: Iterable[Sequence[int]] = (),
    decks: Mapping[str, Any] | None = None,
    draws: Mapping[str, Sequence[int]] | None = None,
    max_rounds: int = 1000,
    movement_only: bool = False,
) -> Harness:
    """A game on ``state`` with scripted dice/decks, an invariant checker and an event log."""
    agents = list(agents) if agents is not None else [ScriptedAgent() for _ in state.players]
    stream = ScriptedStream(dice, decks, draws)
    checker = InvariantChecker()
    log = EventLog()
    game = Game(
        state,
        agents,
        stream,
        max_rounds=max_rounds,
        movement_only=movement_only,
        observers=[checker, log],
    )
    return Harness(game, stream, checker, log, agents)
