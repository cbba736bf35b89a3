"""The game state: players, holdings, whose turn, and pure queries on them.

``GameState`` is mutable (the engine moves it); every query here is pure.
Ownership is held per square index: ``owner[i]`` is a player index or
``BANK`` (-1), ``houses[i]`` is 0..4 houses or 5 = a hotel, ``mortgaged[i]``
a flag. Non-property squares are always ``BANK``, 0, ``False``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from models.board import HOTEL, Board
from models.errors import UnknownKeyError
from models.names import Name
from models.rules import Rules

if TYPE_CHECKING:  # models.pending imports models.trade, which imports this module
    from models.pending import Pending

Seat = int
"""A player's index in :attr:`GameState.players` (0-based). Inside the packages a player is a
seat; names are converted at the boundaries (the command line, :func:`solver.solve`, the MCP
tools, the files)."""

BANK: Seat = -1
"""The owner index of a property that no player owns."""


class Phase(Name):
    """Where a turn is (:attr:`GameState.phase`); the values are the state format's strings.

    Examples
    --------
    >>> Phase.START == "start", Phase("rolled") is Phase.ROLLED, f"{Phase.START}"
    (True, True, 'start')
    """

    START = "start"
    """Before the player to move rolls (every action phase, the purchase not yet possible)."""
    ROLLED = "rolled"
    """After the roll: the player stands on the square it rolled to."""


PHASES = tuple(p.value for p in Phase)
"""The phases of a turn, as the state format writes them: ``("start", "rolled")``."""


class UnknownPlayerError(UnknownKeyError):
    """A player name that names no player of the state (:meth:`GameState.player_index`).

    Also a :class:`KeyError` (callers that look a name up catch that); its text is the
    plain message.

    Examples
    --------
    >>> from models.io import load_state
    >>> from models.state import UnknownPlayerError
    >>> try:
    ...     load_state("instances/two-player.json").player_index("Zed")
    ... except KeyError as err:
    ...     print(type(err).__name__, err)
    UnknownPlayerError no player named 'Zed' (players: Ann, Bob)
    """


@dataclass(slots=True)
class PlayerState:
    """One player: cash, position, jail, cards and bankruptcy (the ``players[i]`` object of the state format).

    Attributes
    ----------
    name:
        The player's name, unique in its state.
    cash:
        Dollars held (>= 0 in a valid state).
    position:
        The square the token stands on (0 = Go).
    in_jail:
        Whether the player is in jail (then on the jail square).
    jail_turns:
        Failed rolls in jail so far (0 when not in jail; at most ``rules.max_jail_rolls - 1``).
    jail_cards:
        Get Out of Jail Free cards held.
    bankrupt:
        Whether the player is out of the game (it then owns nothing).

    Examples
    --------
    >>> from models.io import load_state
    >>> bob = load_state("instances/two-player.json").players[1]
    >>> bob.name, bob.cash, bob.in_jail, bob.jail_turns
    ('Bob', 340, True, 1)
    """

    name: str
    cash: int
    position: int = 0
    in_jail: bool = False
    jail_turns: int = 0
    jail_cards: int = 0
    bankrupt: bool = False


@dataclass
class GameState:
    """A game in progress: board, rules, players, holdings and whose turn it is.

    Holdings are lists indexed by square (module docstring); empty lists given
    to the constructor are filled with the bank's holdings (no owner, no
    buildings, no mortgage).

    Attributes
    ----------
    board:
        The board (immutable, shared by copies).
    rules:
        The rules (immutable, shared by copies).
    players:
        The players in seat (turn) order.
    owner:
        Per square: the owning player's index, or :data:`BANK`.
    houses:
        Per square: 0..4 houses, or 5 (:data:`models.board.HOTEL`) for a hotel.
    mortgaged:
        Per square: whether the property is mortgaged.
    to_move:
        The index of the player whose turn it is.
    round:
        Complete rounds played.
    phase:
        Where the turn is: one of :data:`PHASES`.
    doubles_rolled:
        Consecutive doubles rolled in this turn.
    pot:
        The Free Parking pot (``rules.free_parking`` not ``"off"``; always 0 otherwise).
    bank_cash:
        The bank's cash when ``rules.bank_cash`` limits it (``None``: the bank never runs out).
    pending:
        The question the game waits on (:mod:`models.pending`), or ``None``.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/two-player.json")
    >>> state.players[state.to_move].name, state.houses_on_board(), state.complete_groups(0)
    ('Ann', 15, ['brown', 'orange'])
    """

    board: Board
    rules: Rules
    players: list[PlayerState]
    owner: list[int] = field(default_factory=list)
    houses: list[int] = field(default_factory=list)
    mortgaged: list[bool] = field(default_factory=list)
    to_move: int = 0
    round: int = 0
    phase: Phase = Phase.START
    doubles_rolled: int = 0
    pot: int = 0
    """The Free Parking pot (``rules.free_parking`` not ``"off"``; always 0 otherwise)."""
    bank_cash: int | None = None
    """The bank's cash when ``rules.bank_cash`` limits it (``None``: the bank never runs out)."""
    pending: Pending | None = None
    """The question the game waits on, if any (:mod:`models.pending`: an offer, a debt, an
    auction, a building shortage auction); ``None`` between questions."""

    def __post_init__(self) -> None:
        """Fill empty holdings lists with the bank's holdings, one entry per square; a phase
        given as its string becomes the :class:`Phase` (another string is left for
        :func:`models.io.validate_state` to refuse with its field named)."""
        if self.phase in PHASES:
            self.phase = Phase(self.phase)
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
        """A fresh game: everyone on Go with ``cash`` dollars, the bank owns everything.

        The Free Parking pot holds ``rules.free_parking_seed`` and the bank ``rules.bank_cash``.

        Parameters
        ----------
        names:
            The players' names, in seat order.
        board:
            The board (``None``: :func:`models.board.standard_board`).
        rules:
            The rules (``None``: the standard rules).
        cash:
            Each player's starting cash.

        Returns
        -------
        GameState
            The new state, player 0 to move in round 0.

        Examples
        --------
        >>> from models.rules import PRESETS
        >>> from models.state import GameState
        >>> state = GameState.new_game(["Ann", "Bob"], rules=PRESETS["no-doubles"])
        >>> state.players[1].cash, state.bank_cash, state.owner.count(-1)
        (1500, 14580, 40)
        """
        from models.board import standard_board

        b = board or standard_board()
        r = rules or Rules()
        return cls(b, r, [PlayerState(n, cash) for n in names], pot=r.free_parking_seed, bank_cash=r.bank_cash)

    def copy(self) -> GameState:
        """A deep copy of the mutable parts (board and rules are immutable and shared).

        Returns
        -------
        GameState
            A state equal to this one that shares no list and no player with it.

        Examples
        --------
        >>> from models.io import load_state
        >>> state = load_state("instances/two-player.json")
        >>> other = state.copy()
        >>> other.players[0].cash = 0
        >>> other == state, state.players[0].cash
        (False, 560)
        """
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
            self.pending,
        )

    # -- lookups ------------------------------------------------------
    def player_index(self, name: str) -> int:
        """The seat of the player called ``name``.

        Parameters
        ----------
        name:
            A player's name.

        Returns
        -------
        int
            Its index in :attr:`players`.

        Raises
        ------
        UnknownPlayerError
            No player has that name (also a :class:`KeyError`).

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/midgame-no-monopolies.json").player_index("Cy")
        2
        """
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise UnknownPlayerError(f"no player named {name!r} (players: {', '.join(p.name for p in self.players)})")

    def square_of(self, property_name: str) -> int:
        """The square index of a property, by name.

        Parameters
        ----------
        property_name:
            The name of a property of the board.

        Returns
        -------
        int
            Its square index.

        Raises
        ------
        KeyError
            No property of the board has that name (a plain dictionary lookup:
            callers check names against ``board.property_index`` first).

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/two-player.json").square_of("Boardwalk")
        39
        """
        return self.board.property_index[property_name]

    def active_players(self) -> list[int]:
        """The seats of the players not bankrupt, in seat order.

        Returns
        -------
        list[int]
            Their indices.

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/near-ruin.json").active_players()
        [0, 1, 3]
        """
        return [i for i, p in enumerate(self.players) if not p.bankrupt]

    def properties_of(self, player: int) -> list[int]:
        """The squares ``player`` owns, in board order.

        Parameters
        ----------
        player:
            A seat.

        Returns
        -------
        list[int]
            Their square indices.

        Examples
        --------
        >>> from models.io import load_state
        >>> state = load_state("instances/mortgaged.json")
        >>> [state.board.squares[sq].name for sq in state.properties_of(0)][:3]
        ['Reading Railroad', 'Oriental Avenue', 'Vermont Avenue']
        """
        return [sq for sq in self.board.property_squares if self.owner[sq] == player]

    def group_of(self, square: int) -> str:
        """The group of a property square: a colour, ``railroad`` or ``utility``.

        Parameters
        ----------
        square:
            The index of a property square (a square that is not one has no group:
            an assertion fails).

        Returns
        -------
        str
            The group's name.

        Examples
        --------
        >>> from models.io import load_state
        >>> state = load_state("instances/two-player.json")
        >>> state.group_of(39), state.group_of(5)
        ('dark_blue', 'railroad')
        """
        group = self.board.squares[square].group
        assert group is not None
        return group

    def set_size(self, group: str) -> int:
        """How many lots of ``group`` one player must own for monopoly rent and building.

        ``rules.set_size`` when it names the group, else the group's size.

        Parameters
        ----------
        group:
            A group of the board.

        Returns
        -------
        int
            The lots needed.

        Examples
        --------
        >>> from models.io import load_state
        >>> state = load_state("instances/novelty-rules.json")
        >>> state.set_size("orange"), state.set_size("red")
        (2, 3)
        """
        return self.rules.set_size.get(group, len(self.board.groups[group]))

    def count_in_group(self, player: int, group: str) -> int:
        """How many lots of ``group`` ``player`` owns.

        Parameters
        ----------
        player:
            A seat (or :data:`BANK`: the lots nobody owns).
        group:
            A group of the board.

        Returns
        -------
        int
            The count.

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/mortgaged.json").count_in_group(1, "dark_blue")
        1
        """
        owner = self.owner
        return [owner[sq] for sq in self.board.groups[group]].count(player)

    def has_monopoly(self, player: int, group: str) -> bool:
        """Whether ``player`` owns at least ``set_size(group)`` lots of the group.

        Parameters
        ----------
        player:
            A seat (:data:`BANK` never has a monopoly).
        group:
            A group of the board.

        Returns
        -------
        bool
            The answer (mortgages do not matter here; see :meth:`can_build_on_group`).

        Examples
        --------
        >>> from models.io import load_state
        >>> state = load_state("instances/two-player.json")
        >>> state.has_monopoly(0, "orange"), state.has_monopoly(1, "orange")
        (True, False)
        """
        if player == BANK:
            return False
        owner = self.owner
        lots = self.board.groups[group]
        need = self.rules.set_size.get(group, len(lots)) if self.rules.set_size else len(lots)
        return [owner[sq] for sq in lots].count(player) >= need

    def can_build_on_group(self, player: int, group: str) -> bool:
        """Whether ``player`` may build on ``group``: a street monopoly whose lots in its hand are all unmortgaged.

        Parameters
        ----------
        player:
            A seat.
        group:
            A group of the board (``railroad`` and ``utility`` carry no buildings).

        Returns
        -------
        bool
            The answer (the supply and the cash are not considered).

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/mortgaged.json").can_build_on_group(0, "light_blue")
        True
        """
        if group in ("railroad", "utility") or not self.has_monopoly(player, group):
            return False
        return not any(self.mortgaged[sq] for sq in self.board.groups[group] if self.owner[sq] == player)

    def complete_groups(self, player: int) -> list[str]:
        """The street groups ``player`` has a monopoly of, in board order.

        Parameters
        ----------
        player:
            A seat.

        Returns
        -------
        list[str]
            The groups' names (railroads and utilities are not street groups).

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/near-ruin.json").complete_groups(1)
        ['red', 'yellow']
        """
        return [g for g in self.board.street_groups if self.has_monopoly(player, g)]

    def newly_complete(self, after: GameState, player: int, groups: Iterable[str] | None = None) -> list[str]:
        """The street groups ``player`` holds complete in ``after`` and not in this state, in board order.

        What a trade (or any change from this state to ``after``) completes for a seat: the one
        predicate behind the trade rules' completion test, the agents' answers by shape and the
        opponent model's features.

        Parameters
        ----------
        after:
            The state after the change (the same board).
        player:
            A seat.
        groups:
            Look only among these groups (those a trade touches, the only ones it can complete);
            ``None``: every street group. Railroads and utilities never count.

        Returns
        -------
        list[str]
            The groups' names.

        Examples
        --------
        Cy gives Connecticut Avenue to Ann, who holds the other two light blues:

        >>> from models.io import load_state
        >>> from models.trade import Trade
        >>> before = load_state("instances/midgame-no-monopolies.json")
        >>> after = before.copy()
        >>> _ = Trade.bilateral("Ann", "Cy", [], ["Connecticut Avenue"], 0).apply(after)
        >>> before.newly_complete(after, 0), before.newly_complete(after, 2), before.newly_complete(after, 0, ["orange"])
        (['light_blue'], [], [])
        >>> before.newly_complete(after, 0, iter(["orange", "light_blue"]))
        ['light_blue']
        """
        street: Iterable[str] = self.board.street_groups
        if groups is not None:
            wanted = set(groups)  # once: ``groups`` may be an iterator
            street = [g for g in street if g in wanted]
        return [g for g in street if after.has_monopoly(player, g) and not self.has_monopoly(player, g)]

    def group_has_buildings(self, group: str) -> bool:
        """Whether any lot of ``group`` carries a house or a hotel (a group's lots then cannot be traded).

        Parameters
        ----------
        group:
            A group of the board.

        Returns
        -------
        bool
            The answer.

        Examples
        --------
        >>> from models.io import load_state
        >>> state = load_state("instances/mortgaged.json")
        >>> state.group_has_buildings("light_blue"), state.group_has_buildings("green")
        (True, False)
        """
        houses = self.houses
        return any([houses[sq] for sq in self.board.groups[group]])

    def mortgage_value(self, square: int) -> int:
        """What the bank lends on a property: its price times ``rules.mortgage_rate``, rounded down.

        Parameters
        ----------
        square:
            A property's square index.

        Returns
        -------
        int
            Dollars.

        Examples
        --------
        >>> from models.io import load_state
        >>> state = load_state("instances/mortgaged.json")
        >>> state.mortgage_value(state.square_of("Electric Company"))
        75
        """
        return int(self.board.squares[square].price * self.rules.mortgage_rate)

    # -- buildings ----------------------------------------------------
    def houses_on_board(self) -> int:
        """The houses standing on the board: levels 1..4 summed (a hotel's four houses went back to the bank).

        Returns
        -------
        int
            The count.

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/late-game-house-shortage.json").houses_on_board()
        31
        """
        return sum(h for h in self.houses if h < HOTEL)

    def hotels_on_board(self) -> int:
        """The hotels standing on the board.

        Returns
        -------
        int
            The count.

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/late-game-house-shortage.json").hotels_on_board()
        2
        """
        return sum(1 for h in self.houses if h == HOTEL)

    def houses_in_bank(self) -> int:
        """The houses left in the bank's supply (``rules.houses`` less those on the board).

        Returns
        -------
        int
            The count.

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/late-game-house-shortage.json").houses_in_bank()
        1
        """
        return self.rules.houses - self.houses_on_board()

    def hotels_in_bank(self) -> int:
        """The hotels left in the bank's supply (``rules.hotels`` less those on the board).

        Returns
        -------
        int
            The count.

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/late-game-house-shortage.json").hotels_in_bank()
        10
        """
        return self.rules.hotels - self.hotels_on_board()

    def building_counts(self, player: int) -> tuple[int, int]:
        """The houses and hotels that ``player`` owns (what the repairs cards charge for).

        Parameters
        ----------
        player:
            A seat.

        Returns
        -------
        tuple[int, int]
            ``(houses, hotels)``.

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/late-game-house-shortage.json").building_counts(3)
        (0, 2)
        """
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

        Parameters
        ----------
        player:
            A seat.

        Returns
        -------
        int
            Dollars.

        Examples
        --------
        >>> from models.io import load_state
        >>> state = load_state("instances/midgame-no-monopolies.json")
        >>> [state.net_worth(i) for i in range(len(state.players))]
        [1400, 1755, 1720, 1725]
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

        Parameters
        ----------
        player:
            A seat.

        Returns
        -------
        int
            Dollars.

        Examples
        --------
        >>> from models.io import load_state
        >>> state = load_state("instances/mortgaged.json")
        >>> state.players[0].cash, state.liquidation_value(0)
        (60, 720)
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

    def iter_owned(self) -> Iterator[tuple[int, int]]:
        """Every owned property, in board order.

        Yields
        ------
        tuple[int, int]
            ``(square, owner)``.

        Examples
        --------
        >>> from models.io import load_state
        >>> state = load_state("instances/two-player.json")
        >>> next(state.iter_owned())
        (1, 0)
        """
        for sq in self.board.property_squares:
            if self.owner[sq] != BANK:
                yield sq, self.owner[sq]


__all__ = ["BANK", "PHASES", "GameState", "Phase", "PlayerState", "Seat", "UnknownPlayerError"]
