"""The game state: players, holdings, whose turn, and pure queries on them.

``GameState`` is mutable (the engine moves it); every query here is pure.
Ownership is held per square index: ``owner[i]`` is a player index or
``BANK`` (-1), ``houses[i]`` is 0..4 houses or 5 = a hotel, ``mortgaged[i]``
a flag. Non-property squares are always ``BANK``, 0, ``False``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from models.board import HOTEL, Board
from models.rules import Rules

BANK = -1
PHASES = ("start", "rolled")


@dataclass(slots=True)
class PlayerState:
    name: str
    cash: int
    position: int = 0
    in_jail: bool = False
    jail_turns: int = 0
    jail_cards: int = 0
    bankrupt: bool = False


@dataclass
class GameState:
    board: Board
    rules: Rules
    players: list[PlayerState]
    owner: list[int] = field(default_factory=list)
    houses: list[int] = field(default_factory=list)
    mortgaged: list[bool] = field(default_factory=list)
    to_move: int = 0
    round: int = 0
    phase: str = "start"
    doubles_rolled: int = 0
    pot: int = 0
    """The Free Parking pot (``rules.free_parking`` not ``"off"``; always 0 otherwise)."""
    bank_cash: int | None = None
    """The bank's cash when ``rules.bank_cash`` limits it (``None``: the bank never runs out)."""

    def __post_init__(self) -> None:
        n = self.board.size
        if not self.owner:
            self.owner = [BANK] * n
        if not self.houses:
            self.houses = [0] * n
        if not self.mortgaged:
            self.mortgaged = [False] * n

    # -- construction -------------------------------------------------
    @classmethod
    def new_game(
        cls,
        names: list[str],
        board: Board | None = None,
        rules: Rules | None = None,
        cash: int = 1500,
    ) -> GameState:
        """A fresh game: everyone on Go with ``cash`` dollars, the bank owns everything; the
        Free Parking pot holds ``rules.free_parking_seed`` and the bank ``rules.bank_cash``."""
        from models.board import standard_board

        b = board or standard_board()
        r = rules or Rules()
        return cls(b, r, [PlayerState(n, cash) for n in names], pot=r.free_parking_seed, bank_cash=r.bank_cash)

    def copy(self) -> GameState:
        """A deep copy of the mutable parts (board and rules are immutable and shared)."""
        return GameState(
            self.board,
            self.rules,
            [
                PlayerState(p.name, p.cash, p.position, p.in_jail, p.jail_turns, p.jail_cards, p.bankrupt)
                for p in self.players
            ],
            list(self.owner),
            list(self.houses),
            list(self.mortgaged),
            self.to_move,
            self.round,
            self.phase,
            self.doubles_rolled,
            self.pot,
            self.bank_cash,
        )

    # -- lookups ------------------------------------------------------
    def player_index(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise KeyError(name)

    def square_of(self, property_name: str) -> int:
        return self.board.property_index[property_name]

    def active_players(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if not p.bankrupt]

    def properties_of(self, player: int) -> list[int]:
        return [sq for sq in self.board.property_squares if self.owner[sq] == player]

    def group_of(self, square: int) -> str:
        group = self.board.squares[square].group
        assert group is not None
        return group

    def set_size(self, group: str) -> int:
        """How many lots of ``group`` one player must own for monopoly rent and building."""
        return self.rules.set_size.get(group, len(self.board.groups[group]))

    def count_in_group(self, player: int, group: str) -> int:
        owner = self.owner
        return [owner[sq] for sq in self.board.groups[group]].count(player)

    def has_monopoly(self, player: int, group: str) -> bool:
        """``player`` owns at least ``set_size(group)`` lots of the colour group."""
        if player == BANK:
            return False
        owner = self.owner
        lots = self.board.groups[group]
        need = self.rules.set_size.get(group, len(lots)) if self.rules.set_size else len(lots)
        return [owner[sq] for sq in lots].count(player) >= need

    def can_build_on_group(self, player: int, group: str) -> bool:
        """A monopoly whose lots in ``player``'s hand are all unmortgaged (streets only)."""
        if group in ("railroad", "utility") or not self.has_monopoly(player, group):
            return False
        return not any(self.mortgaged[sq] for sq in self.board.groups[group] if self.owner[sq] == player)

    def complete_groups(self, player: int) -> list[str]:
        return [g for g in self.board.street_groups if self.has_monopoly(player, g)]

    def group_has_buildings(self, group: str) -> bool:
        houses = self.houses
        return any([houses[sq] for sq in self.board.groups[group]])

    def mortgage_value(self, square: int) -> int:
        return int(self.board.squares[square].price * self.rules.mortgage_rate)

    # -- buildings ----------------------------------------------------
    def houses_on_board(self) -> int:
        return sum(h for h in self.houses if h < HOTEL)

    def hotels_on_board(self) -> int:
        return sum(1 for h in self.houses if h == HOTEL)

    def houses_in_bank(self) -> int:
        return self.rules.houses - self.houses_on_board()

    def hotels_in_bank(self) -> int:
        return self.rules.hotels - self.hotels_on_board()

    def building_counts(self, player: int) -> tuple[int, int]:
        """(houses, hotels) that ``player`` owns."""
        houses = hotels = 0
        for sq in self.board.property_squares:
            if self.owner[sq] == player:
                h = self.houses[sq]
                if h == HOTEL:
                    hotels += 1
                else:
                    houses += h
        return houses, hotels

    # -- money --------------------------------------------------------
    def net_worth(self, player: int) -> int:
        """Cash + printed price of unmortgaged property + mortgage value of mortgaged
        property + buildings at cost (a hotel counts as five buildings).

        This is the valuation of the official short-game rule, used to rank
        players at a round cap.
        """
        p = self.players[player]
        total = p.cash
        for sq in self.board.property_squares:
            if self.owner[sq] != player:
                continue
            s = self.board.squares[sq]
            total += self.mortgage_value(sq) if self.mortgaged[sq] else s.price
            total += self.houses[sq] * s.house_cost
        return total

    def liquidation_value(self, player: int) -> int:
        """Cash the player could raise from the bank alone: cash, every building
        sold back, every unmortgaged property mortgaged.

        A hotel sells for five half-prices (the hotel and the four houses it
        stands for), also under a house shortage.
        """
        p = self.players[player]
        total = p.cash
        for sq in self.board.property_squares:
            if self.owner[sq] != player:
                continue
            total += self.houses[sq] * self.rules.sell_value(self.board.squares[sq].house_cost)
            if not self.mortgaged[sq]:
                total += self.mortgage_value(sq)
        return total

    def total_cash(self) -> int:
        return sum(p.cash for p in self.players)

    def iter_owned(self) -> Iterator[tuple[int, int]]:
        """(square, owner) for every owned property."""
        for sq in self.board.property_squares:
            if self.owner[sq] != BANK:
                yield sq, self.owner[sq]
