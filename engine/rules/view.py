"""A read-only window on the live game state, handed to agents.

Agents never hold the engine's ``GameState``: they get a :class:`GameView`,
which answers the pure queries of ``GameState`` and the legality helpers of
:mod:`engine.rules.legal`, returns tuples instead of lists, and gives a private
deep copy on request (``view.copy()``) for look-ahead.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.rules import legal
from models.board import Board
from models.rules import Rules
from models.state import GameState
from models.trade import Trade


class PlayerInfo(NamedTuple):
    """One player's public data, as :meth:`GameView.player` gives it (the fields of
    :class:`models.state.PlayerState`).

    Attributes
    ----------
    name, cash, position, in_jail, jail_turns, jail_cards, bankrupt
        As in :class:`models.state.PlayerState`.

    Examples
    --------
    >>> from models.io import load_state
    >>> view = GameView(load_state("instances/late-game-house-shortage.json"), 0)
    >>> info = view.player(0)
    >>> info.name, info.cash, info.position, info.in_jail
    ('Ann', 230, 17, False)
    """

    name: str
    cash: int
    position: int
    in_jail: bool
    jail_turns: int
    jail_cards: int
    bankrupt: bool


class GameView:
    """What one player sees of the live game.

    Parameters
    ----------
    state:
        The live state (never mutated through the view).
    me:
        The player's index.
    announced_rules:
        In a novelty trial (:mod:`solver.novelty.catalogue`), the rules as announced
        before the novelty. A hidden rule change (dice, salary, fines,
        mortgage rate, set sizes, rule hooks) is not printed anywhere, so the
        view shows these rules: ``rules``, ``copy()`` and the pure queries
        that depend on the rules (set sizes, monopolies, mortgage values,
        worths, bank supply) answer with them. The legality helpers keep
        the true rules: they are the referee's answer to "may I?", as a
        refused action would be. ``None`` (the default): the true rules.
    actions_left, trades_left:
        The phase budget the view starts with (:attr:`actions_left`,
        :attr:`trades_left`); a host with its own limits passes them here or
        sets them with :meth:`set_budget` before each question. ``None``
        (the default): no phase is open.

    Examples
    --------
    >>> from models.state import GameState
    >>> state = GameState.new_game(["A", "B"])
    >>> state.owner[1] = state.owner[3] = 0  # the brown group to A
    >>> view = GameView(state, 0)
    >>> view.has_monopoly(0, "brown"), view.legal_builds(), view.legal_mortgages()
    (True, [1, 3], [1, 3])
    >>> view.copy().players[0].cash = 0  # a private copy: the live state keeps its cash
    >>> view.cash(0)
    1500
    """

    __slots__ = ("_actions_left", "_announced", "_s", "_trades_left", "me")

    def __init__(
        self,
        state: GameState,
        me: int,
        announced_rules: Rules | None = None,
        *,
        actions_left: int | None = None,
        trades_left: int | None = None,
    ) -> None:
        self._s = state
        self.me = me
        self._announced = announced_rules
        self._actions_left = actions_left
        self._trades_left = trades_left

    def _pub(self) -> GameState:
        """The state as this player knows it: the live lists under the announced rules."""
        s = self._s
        if self._announced is None or self._announced is s.rules:
            return s
        return GameState(
            s.board, self._announced, s.players, s.owner, s.houses, s.mortgaged, s.to_move, s.round, s.phase, s.doubles_rolled,
            s.pot, s.bank_cash, s.pending,
        )

    # -- plain data -------------------------------------------------------
    @property
    def board(self) -> Board:
        """The board."""
        return self._s.board

    @property
    def rules(self) -> Rules:
        """The rules as this player knows them: the announced ones in a novelty trial, else the true ones."""
        return self._s.rules if self._announced is None else self._announced

    @property
    def round(self) -> int:
        """Complete rounds played so far."""
        return self._s.round

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self._s.to_move

    @property
    def phase(self) -> str:
        """The turn's phase: ``start`` or ``rolled``."""
        return self._s.phase

    @property
    def n_players(self) -> int:
        """The number of seats, bankrupt ones included."""
        return len(self._s.players)

    @property
    def owner(self) -> tuple[int, ...]:
        """Per square, its owner's seat (``models.state.BANK``, -1: the bank's)."""
        return tuple(self._s.owner)

    @property
    def houses(self) -> tuple[int, ...]:
        """Per square, its building level (5 = hotel)."""
        return tuple(self._s.houses)

    @property
    def mortgaged(self) -> tuple[bool, ...]:
        """Per square, whether it is mortgaged."""
        return tuple(self._s.mortgaged)

    def player(self, i: int) -> PlayerInfo:
        """One player's public data.

        Parameters
        ----------
        i:
            A seat.

        Returns
        -------
        PlayerInfo
            Name, cash, position, jail status, cards held, bankruptcy.
        """
        p = self._s.players[i]
        return PlayerInfo(p.name, p.cash, p.position, p.in_jail, p.jail_turns, p.jail_cards, p.bankrupt)

    def name(self, i: int) -> str:
        """A player's name.

        Parameters
        ----------
        i:
            A seat.

        Returns
        -------
        str
            The name.
        """
        return self._s.players[i].name

    def cash(self, i: int) -> int:
        """A player's cash.

        Parameters
        ----------
        i:
            A seat.

        Returns
        -------
        int
            Dollars.
        """
        return self._s.players[i].cash

    def copy(self) -> GameState:
        """A private deep copy of the state (under the announced rules, if any), free to mutate.

        Returns
        -------
        GameState
            The copy, for look-ahead.
        """
        return self._pub().copy()

    # -- the phase budget ---------------------------------------------------
    @property
    def actions_left(self) -> int | None:
        """During an ``act`` or ``raise_cash`` question: the actions the phase still accepts, this
        answer included (at least 1; at 1 this answer is the phase's last). ``None`` at any other
        question. The reference engine allows :data:`engine.rules.phases.MAX_ACTIONS_PER_PHASE` (64)."""
        return self._actions_left

    @property
    def trades_left(self) -> int | None:
        """During an ``act`` or ``raise_cash`` question: the trade proposals the phase still makes
        (0: a proposal now closes the phase without being made). ``None`` at any other question.
        The reference engine allows :data:`engine.rules.phases.MAX_TRADES_PER_PHASE` (2)."""
        return self._trades_left

    def set_budget(self, actions_left: int | None, trades_left: int | None) -> None:
        """The host's side: set the budget the agent reads (``None``, ``None`` between phases).

        Parameters
        ----------
        actions_left:
            The actions the phase still accepts, this answer included.
        trades_left:
            The trade proposals it still makes.
        """
        self._actions_left = actions_left
        self._trades_left = trades_left

    # -- pure queries (delegated) ------------------------------------------
    def owner_of(self, square: int) -> int:
        """Who owns ``square``.

        Parameters
        ----------
        square:
            A square index.

        Returns
        -------
        int
            The owner's seat, or ``models.state.BANK`` (-1).
        """
        return self._s.owner[square]

    def level(self, square: int) -> int:
        """The building level of ``square``.

        Parameters
        ----------
        square:
            A square index.

        Returns
        -------
        int
            0 to 4 houses, 5 = hotel.
        """
        return self._s.houses[square]

    def is_mortgaged(self, square: int) -> bool:
        """Whether ``square`` is mortgaged.

        Parameters
        ----------
        square:
            A square index.

        Returns
        -------
        bool
            Whether it is.
        """
        return self._s.mortgaged[square]

    def active_players(self) -> list[int]:
        """The players not bankrupt.

        Returns
        -------
        list of int
            Their seats, in seat order.
        """
        return self._s.active_players()

    def properties_of(self, player: int) -> list[int]:
        """The properties ``player`` owns.

        Parameters
        ----------
        player:
            A seat.

        Returns
        -------
        list of int
            Their squares, in board order.
        """
        return self._s.properties_of(player)

    def has_monopoly(self, player: int, group: str) -> bool:
        """Whether ``player`` holds a monopoly of ``group`` (``set_size`` honoured; announced rules).

        Parameters
        ----------
        player:
            A seat.
        group:
            A group name (``brown`` ... ``dark_blue``, ``railroad``, ``utility``).

        Returns
        -------
        bool
            Whether it does.
        """
        return self._pub().has_monopoly(player, group)

    def can_build_on_group(self, player: int, group: str) -> bool:
        """Whether ``player`` may build on ``group``: a monopoly with none of its lots mortgaged (announced rules).

        Parameters
        ----------
        player:
            A seat.
        group:
            A group name (``brown`` ... ``dark_blue``, ``railroad``, ``utility``).

        Returns
        -------
        bool
            Whether it may.
        """
        return self._pub().can_build_on_group(player, group)

    def complete_groups(self, player: int) -> list[str]:
        """The street groups ``player`` may build on (announced rules).

        Parameters
        ----------
        player:
            A seat.

        Returns
        -------
        list of str
            Group names.
        """
        return self._pub().complete_groups(player)

    def count_in_group(self, player: int, group: str) -> int:
        """How many lots of ``group`` ``player`` owns, mortgaged or not.

        Parameters
        ----------
        player:
            A seat.
        group:
            A group name (``brown`` ... ``dark_blue``, ``railroad``, ``utility``).

        Returns
        -------
        int
            The count.
        """
        return self._s.count_in_group(player, group)

    def set_size(self, group: str) -> int:
        """How many lots of ``group`` make a monopoly (announced rules).

        Parameters
        ----------
        group:
            A group name (``brown`` ... ``dark_blue``, ``railroad``, ``utility``).

        Returns
        -------
        int
            The set size.
        """
        return self._pub().set_size(group)

    def group_has_buildings(self, group: str) -> bool:
        """Whether any lot of ``group`` carries a building.

        Parameters
        ----------
        group:
            A group name (``brown`` ... ``dark_blue``, ``railroad``, ``utility``).

        Returns
        -------
        bool
            Whether one does.
        """
        return self._s.group_has_buildings(group)

    def mortgage_value(self, square: int) -> int:
        """What the bank pays for mortgaging ``square`` (announced rules).

        Parameters
        ----------
        square:
            A square index.

        Returns
        -------
        int
            Dollars.
        """
        return self._pub().mortgage_value(square)

    def net_worth(self, player: int) -> int:
        """``player``'s net worth, :meth:`models.state.GameState.net_worth` (announced rules).

        Parameters
        ----------
        player:
            A seat.

        Returns
        -------
        int
            Dollars.
        """
        return self._pub().net_worth(player)

    def liquidation_value(self, player: int) -> int:
        """The cash ``player`` could raise from the bank, :meth:`models.state.GameState.liquidation_value` (announced rules).

        Parameters
        ----------
        player:
            A seat.

        Returns
        -------
        int
            Dollars.
        """
        return self._pub().liquidation_value(player)

    def houses_in_bank(self) -> int:
        """Houses left in the bank (announced rules' supply).

        Returns
        -------
        int
            The count.
        """
        return self._pub().houses_in_bank()

    def hotels_in_bank(self) -> int:
        """Hotels left in the bank (announced rules' supply).

        Returns
        -------
        int
            The count.
        """
        return self._pub().hotels_in_bank()

    # -- legality (delegated to engine.rules.legal) -------------------------------
    def legal_builds(self) -> list[int]:
        """Where this player may build now, :func:`engine.rules.legal.legal_builds` (true rules).

        Returns
        -------
        list of int
            Squares.
        """
        return legal.legal_builds(self._s, self.me)

    def legal_building_sales(self) -> list[int]:
        """Where this player may sell a building now, :func:`engine.rules.legal.legal_building_sales`.

        Returns
        -------
        list of int
            Squares.
        """
        return legal.legal_building_sales(self._s, self.me)

    def legal_mortgages(self) -> list[int]:
        """What this player may mortgage now, :func:`engine.rules.legal.legal_mortgages`.

        Returns
        -------
        list of int
            Squares.
        """
        return legal.legal_mortgages(self._s, self.me)

    def legal_unmortgages(self) -> list[int]:
        """Which mortgages this player may lift now (cash included), :func:`engine.rules.legal.legal_unmortgages`.

        Returns
        -------
        list of int
            Squares.
        """
        return legal.legal_unmortgages(self._s, self.me)

    def tradable_properties(self, player: int) -> list[int]:
        """The properties ``player`` may trade away: those whose group has no buildings.

        Parameters
        ----------
        player:
            A seat.

        Returns
        -------
        list of int
            Squares.
        """
        return legal.tradable_properties(self._s, player)

    def why_not_trade(self, trade: Trade) -> str | None:
        """Whether this player may propose ``trade`` now, :func:`engine.rules.legal.why_not_propose`.

        Parameters
        ----------
        trade:
            The trade.

        Returns
        -------
        str or None
            ``None`` if it may, else the reason.
        """
        return legal.why_not_propose(self._s, self.me, trade)
