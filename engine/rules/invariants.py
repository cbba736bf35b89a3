"""Invariants of a game in progress, checked from the outside by an observer.

:class:`InvariantChecker` is passed to :class:`engine.rules.game.Game` as an
observer. It keeps its own ledger of every player's cash, built only from the
``cash`` events (so that the engine's arithmetic is checked against a second
account), and after every other event checks:

* every dollar accounted for: each player's cash equals its starting cash
  plus the flows reported, and the bank's net flow balances the players'
  (the Free Parking pot counted with the bank); with a finite bank
  (``rules.bank_cash``) the bank's cash, the pot and the players' cash add up
  to what they held at the start, and the bank never goes below zero;
* each property has at most one owner, who is an active player; other
  squares are never owned;
* buildings within the bank's supply, only on streets, only on groups that are
  complete in one hand (``set_size`` honoured) with none of the owner's lots
  of the group mortgaged, and even within the group (levels differ by at most
  one) under ``rules.even_building``;
* no cash below zero (the engine settles debts before paying, so cash never
  goes negative, not even while a debt is being settled);
* bankrupt players own nothing, hold no cash and no cards;
* a jailed player is on the jail square with fewer failed turns than
  ``rules.max_jail_rolls``; no pot without a pot rule;
* Get Out of Jail Free cards held never exceed the decks' supply, and match
  the engine's record of which deck each came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.rules.actions import Event
from models.board import HOTEL
from models.errors import MonopolyError
from models.state import BANK, GameState

if TYPE_CHECKING:
    from engine.rules.game import Game


class InvariantViolation(MonopolyError, AssertionError):
    """An invariant of the rules does not hold: a bug of the engine, never of a caller (an
    :class:`AssertionError`, as a failed check of a test)."""


def check_state(state: GameState) -> list[str]:
    """Every invariant that can be read off the state alone; returns the violations.

    Written for speed (it runs after every event of the soak test): the common
    case is a handful of list scans; details are worked out only on failure.

    Parameters
    ----------
    state:
        The state to check.

    Returns
    -------
    list of str
        One line per violation; empty when every invariant holds.

    Examples
    --------
    >>> from models.state import GameState
    >>> state = GameState.new_game(["A", "B"])
    >>> check_state(state)
    []
    >>> state.owner[1], state.mortgaged[1] = 0, True  # Mediterranean Avenue to A, mortgaged
    >>> state.players[1].cash = -5
    >>> check_state(state)
    ['B has negative cash -5']
    >>> state.houses[3] = 1  # a house on Baltic Avenue, which the bank owns
    >>> check_state(state)[0]
    'Baltic Avenue belongs to the bank but is mortgaged or built'
    """
    out: list[str] = []
    board = state.board
    owner, houses, mortgaged = state.owner, state.houses, state.mortgaged
    players = state.players
    n_players = len(players)
    for i in board.other_squares:
        if owner[i] != BANK or houses[i] or mortgaged[i]:
            out.append(f"non-property square {board.squares[i].name} is owned, built or mortgaged")
    for i in board.property_squares:
        o = owner[i]
        if o == BANK:
            if mortgaged[i] or houses[i]:
                out.append(f"{board.squares[i].name} belongs to the bank but is mortgaged or built")
            continue
        if not 0 <= o < n_players:
            out.append(f"{board.squares[i].name} has an unknown owner {o}")
        elif players[o].bankrupt:
            out.append(f"{board.squares[i].name} belongs to bankrupt {players[o].name}")
    for group in board.street_groups:
        lots = board.groups[group]
        levels = [houses[sq] for sq in lots]
        if not any(levels):
            continue
        for sq in lots:
            o = owner[sq]
            if not houses[sq]:
                continue
            name = board.squares[sq].name
            if not 0 < houses[sq] <= HOTEL:
                out.append(f"{name} has building level {houses[sq]}")
            if mortgaged[sq]:
                out.append(f"{name} is mortgaged with buildings")
            if not state.can_build_on_group(o, group):
                out.append(f"{name} has buildings on an incomplete or mortgaged group")
            own = [houses[s] for s in lots if owner[s] == o]
            if state.rules.even_building and max(own) - min(own) > 1:
                out.append(f"uneven building in {group} for {players[o].name}: {own}")
    for sq in board.railroads + board.utilities:
        if houses[sq]:
            out.append(f"{board.squares[sq].name} has buildings but is not a street")
    on_board = [h for h in houses if h]
    n_hotels = on_board.count(HOTEL)
    n_houses = sum(on_board) - HOTEL * n_hotels
    if n_houses > state.rules.houses:
        out.append(f"{n_houses} houses on the board, supply {state.rules.houses}")
    if n_hotels > state.rules.hotels:
        out.append(f"{n_hotels} hotels on the board, supply {state.rules.hotels}")
    held = 0
    for p, pl in enumerate(players):
        held += pl.jail_cards
        if pl.cash < 0:
            out.append(f"{pl.name} has negative cash {pl.cash}")
        if pl.bankrupt and (pl.cash or pl.jail_cards or p in owner):
            out.append(f"bankrupt {pl.name} still owns property, cash or cards")
        if pl.in_jail and pl.position != board.jail:
            out.append(f"{pl.name} is in jail off the jail square")
        if not 0 <= pl.jail_turns < state.rules.max_jail_rolls or (pl.jail_turns and not pl.in_jail):
            out.append(f"{pl.name} has jail_turns {pl.jail_turns}")
        if not 0 <= pl.position < board.size:
            out.append(f"{pl.name} is off the board at {pl.position}")
    if state.pot < 0 or (state.pot and not state.rules.pot_enabled):
        out.append(f"Free Parking pot {state.pot} under free_parking={state.rules.free_parking!r}")
    if (state.bank_cash is None) != (state.rules.bank_cash is None) or (state.bank_cash or 0) < 0:
        out.append(f"bank cash {state.bank_cash} under rules.bank_cash={state.rules.bank_cash}")
    if held > board.jail_card_supply:
        out.append(f"{held} Get Out of Jail Free cards held, the decks have {board.jail_card_supply}")
    return out


@dataclass
class InvariantChecker:
    """Observer that checks :func:`check_state` and the cash ledger after every event.

    Parameters
    ----------
    strict:
        Raise at the first violation; otherwise record every one in ``violations``.
    violations:
        The violations recorded (``strict`` off).

    Attributes
    ----------
    events, checks:
        Events seen, and checks made (every event but ``cash``).

    Raises
    ------
    InvariantViolation
        At the first violation, with ``strict``.

    Examples
    --------
    >>> from engine.rules.game import Game
    >>> from engine.rules.agents import RandomAgent
    >>> from engine.rules.streams import SeededStream
    >>> from models.state import GameState
    >>> checker = InvariantChecker()
    >>> game = Game(GameState.new_game(["A", "B"]), [RandomAgent(1), RandomAgent(2)], SeededStream(3), max_rounds=10, observers=[checker])
    >>> _ = game.play()
    >>> checker.violations, checker.checks > 0
    ([], True)
    """

    strict: bool = True
    violations: list[str] = field(default_factory=list)
    events: int = 0
    checks: int = 0
    _ledger: list[int] | None = None
    _bank_net: int = 0
    _start_total: int = 0
    _start_money: int | None = None

    def __call__(self, event: Event, game: Game) -> None:
        """Take in one event of ``game``: book a ``cash`` event in the ledger, check after any other.

        Parameters
        ----------
        event:
            The event.
        game:
            The game that emitted it.

        Raises
        ------
        InvariantViolation
            An invariant fails, with ``strict``.
        """
        state = game.state
        if self._ledger is None:
            self._ledger = [p.cash for p in state.players]
            self._start_total = sum(self._ledger)
            if state.bank_cash is not None:
                self._start_money = self._start_total + state.bank_cash + state.pot
        self.events += 1
        if event.kind == "cash":
            d = event.data
            amount = d["amount"]
            if amount <= 0:
                self._fail(f"cash event with non-positive amount {amount}")
            if d["frm"] is None:
                self._bank_net -= amount
            else:
                self._ledger[d["frm"]] -= amount
            if d["to"] is None:
                self._bank_net += amount
            else:
                self._ledger[d["to"]] += amount
            return
        self.checks += 1
        problems = check_state(state)
        actual = [p.cash for p in state.players]
        if actual != self._ledger:
            problems.append(f"cash {actual} differs from the ledger of cash events {self._ledger}")
        if sum(actual) + self._bank_net != self._start_total:
            problems.append("players' cash and the bank's net flow do not add up")
        if self._start_money is not None and state.bank_cash is not None and sum(actual) + state.bank_cash + state.pot != self._start_money:
            problems.append(f"players' cash, the bank's ${state.bank_cash} and the pot's ${state.pot} differ from the money at the start")
        for p, cards in enumerate(game.held_cards):
            if len(cards) != state.players[p].jail_cards:
                problems.append(f"player {p} holds {state.players[p].jail_cards} cards, the engine records {len(cards)}")
        for problem in problems:
            self._fail(f"after {event.kind} (round {state.round}): {problem}")

    def _fail(self, message: str) -> None:
        if self.strict:
            raise InvariantViolation(message)
        self.violations.append(message)
