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
            s.pot, s.bank_cash,
        )

    # -- plain data -------------------------------------------------------
    @property
    def board(self) -> Board:
        return self._s.board

    @property
    def rules(self) -> Rules:
        return self._s.rules if self._announced is None else self._announced

    @property
    def round(self) -> int:
        return self._s.round

    @property
    def to_move(self) -> int:
        return self._s.to_move

    @property
    def phase(self) -> str:
        return self._s.phase

    @property
    def n_players(self) -> int:
        return len(self._s.players)

    @property
    def owner(self) -> tuple[int, ...]:
        return tuple(self._s.owner)

    @property
    def houses(self) -> tuple[int, ...]:
        return tuple(self._s.houses)

    @property
    def mortgaged(self) -> tuple[bool, ...]:
        return tuple(self._s.mortgaged)

    def player(self, i: int) -> PlayerInfo:
        p = self._s.players[i]
        return PlayerInfo(p.name, p.cash, p.position, p.in_jail, p.jail_turns, p.jail_cards, p.bankrupt)

    def name(self, i: int) -> str:
        return self._s.players[i].name

    def cash(self, i: int) -> int:
        return self._s.players[i].cash

    def copy(self) -> GameState:
        """A private deep copy of the state (under the announced rules, if any), free to mutate."""
        return self._pub().copy()

    # -- the phase budget ---------------------------------------------------
    @property
    def actions_left(self) -> int | None:
        """During an ``act`` or ``raise_cash`` question: the actions the phase still accepts, this
        answer included (at least 1; at 1 this answer is the phase's last). ``None`` at any other
        question. The reference engine allows :data:`engine.rules.game.MAX_ACTIONS_PER_PHASE` (64)."""
        return self._actions_left

    @property
    def trades_left(self) -> int | None:
        """During an ``act`` or ``raise_cash`` question: the trade proposals the phase still makes
        (0: a proposal now closes the phase without being made). ``None`` at any other question.
        The reference engine allows :data:`engine.rules.game.MAX_TRADES_PER_PHASE` (2)."""
        return self._trades_left

    def set_budget(self, actions_left: int | None, trades_left: int | None) -> None:
        """The host's side: set the budget the agent reads (``None``, ``None`` between phases)."""
        self._actions_left = actions_left
        self._trades_left = trades_left

    # -- pure queries (delegated) ------------------------------------------
    def owner_of(self, square: int) -> int:
        return self._s.owner[square]

    def level(self, square: int) -> int:
        return self._s.houses[square]

    def is_mortgaged(self, square: int) -> bool:
        return self._s.mortgaged[square]

    def active_players(self) -> list[int]:
        return self._s.active_players()

    def properties_of(self, player: int) -> list[int]:
        return self._s.properties_of(player)

    def has_monopoly(self, player: int, group: str) -> bool:
        return self._pub().has_monopoly(player, group)

    def can_build_on_group(self, player: int, group: str) -> bool:
        return self._pub().can_build_on_group(player, group)

    def complete_groups(self, player: int) -> list[str]:
        return self._pub().complete_groups(player)

    def count_in_group(self, player: int, group: str) -> int:
        return self._s.count_in_group(player, group)

    def set_size(self, group: str) -> int:
        return self._pub().set_size(group)

    def group_has_buildings(self, group: str) -> bool:
        return self._s.group_has_buildings(group)

    def mortgage_value(self, square: int) -> int:
        return self._pub().mortgage_value(square)

    def net_worth(self, player: int) -> int:
        return self._pub().net_worth(player)

    def liquidation_value(self, player: int) -> int:
        return self._pub().liquidation_value(player)

    def houses_in_bank(self) -> int:
        return self._pub().houses_in_bank()

    def hotels_in_bank(self) -> int:
        return self._pub().hotels_in_bank()

    # -- legality (delegated to engine.rules.legal) -------------------------------
    def legal_builds(self) -> list[int]:
        return legal.legal_builds(self._s, self.me)

    def legal_building_sales(self) -> list[int]:
        return legal.legal_building_sales(self._s, self.me)

    def legal_mortgages(self) -> list[int]:
        return legal.legal_mortgages(self._s, self.me)

    def legal_unmortgages(self) -> list[int]:
        return legal.legal_unmortgages(self._s, self.me)

    def tradable_properties(self, player: int) -> list[int]:
        return legal.tradable_properties(self._s, player)

    def why_not_trade(self, trade: Trade) -> str | None:
        """``None`` if this player may propose ``trade`` now, else the reason."""
        return legal.why_not_propose(self._s, self.me, trade)
