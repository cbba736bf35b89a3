"""A player's "subgraph": complete, partial and isolated sets (seed 000, Phase 1).

Definitions used here (``k = set_size(group)``, normally the group's size):

complete set
    a colour group in which the player owns at least ``k`` lots
    (:meth:`GameState.has_monopoly`); buildable once its lots are unmortgaged.
partial set
    a colour group in which the player owns at least one lot but fewer than
    ``k``, and can be completed with pieces from at most **one** opponent
    (pieces still with the bank count as reachable without an opponent: they
    can be bought or won at auction). ``needed`` lists every lot of the group
    the player does not own, ``held_by`` who holds each (a player index, or
    ``BANK`` = -1), ``missing`` how many it still needs (``k`` minus owned).
isolated
    a lot of a colour group whose completion would need pieces from two or
    more opponents: with ``m`` missing lots, even the best choice of ``m``
    non-owned lots (bank lots first, then the opponent holding the most)
    touches two opponents.
count-based groups
    railroads and utilities are never buildable; their lots are listed with
    the number held (``count_groups``), not as partial or isolated.

Everything is computed from the state alone, in one pass over the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from models.state import BANK, GameState


@dataclass(frozen=True)
class PartialSet:
    """A colour group the player can complete by one trade (module docstring).

    Attributes
    ----------
    group : str
        The group's name.
    owned : tuple of int
        The player's lots of it.
    needed : tuple of int
        The lots it lacks.
    held_by : dict of int to int
        Each needed lot's holder (a seat, or ``BANK``).
    missing : int
        Lots still needed for a monopoly (``set_size`` honoured).

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> light_blue = analyze(state, "Cy").partial_sets[0]
    >>> light_blue.group, light_blue.owned, light_blue.needed, light_blue.held_by, light_blue.opponents()
    ('light_blue', (9,), (6, 8), {6: 0, 8: 0}, (0,))
    """

    group: str
    owned: tuple[int, ...]
    needed: tuple[int, ...]
    held_by: dict[int, int]
    missing: int

    def opponents(self) -> tuple[int, ...]:
        """Opponents that hold a needed lot.

        Returns
        -------
        tuple of int
            Their seats, sorted (the bank left out).
        """
        return tuple(sorted({h for h in self.held_by.values() if h != BANK}))


@dataclass(frozen=True)
class PlayerSubgraph:
    """One player's holdings as sets (module docstring): complete, partial, isolated.

    Attributes
    ----------
    player : int
        The seat.
    name : str
        The player's name.
    cash : int
        Its cash.
    properties : tuple of int
        Every lot it owns, in board order.
    complete_sets : tuple of str
        Groups it holds whole.
    partial_sets : tuple of PartialSet
        Groups one trade can complete.
    isolated : tuple of int
        Lots of groups no single trade completes.
    count_groups : dict of str to tuple of int
        Railroads and utilities held.
    buildings : dict of int to int
        Square -> level, where built.
    mortgaged : tuple of int
        Its mortgaged lots.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> cy = analyze(state, "Cy")
    >>> cy.complete_sets, [p.group for p in cy.partial_sets], cy.count_groups
    ((), ['light_blue', 'pink', 'yellow', 'dark_blue'], {'railroad': (35,)})
    """

    player: int
    name: str
    cash: int
    properties: tuple[int, ...]
    complete_sets: tuple[str, ...]
    partial_sets: tuple[PartialSet, ...]
    isolated: tuple[int, ...]
    count_groups: dict[str, tuple[int, ...]] = field(default_factory=dict)
    buildings: dict[int, int] = field(default_factory=dict)
    mortgaged: tuple[int, ...] = ()

    def to_dict(self, state: GameState) -> dict[str, Any]:
        """The subgraph as ``analyze --json`` writes it: lots and players by name.

        Parameters
        ----------
        state : GameState
            The state it was computed from (to name lots and players).

        Returns
        -------
        dict
            ``player``, ``cash``, ``properties``, ``complete_sets``, ``partial_sets``,
            ``isolated``, ``count_groups``, ``buildings``, ``mortgaged``.

        Examples
        --------
        >>> from models.io import load_state
        >>> state = load_state("instances/midgame-no-monopolies.json")
        >>> analyze(state, "Cy").to_dict(state)["partial_sets"][0]["held_by"]
        {'Oriental Avenue': 'Ann', 'Vermont Avenue': 'Ann'}
        """
        def name(sq: int) -> str:
            return state.board.squares[sq].name

        def holder(h: int) -> str:
            return "bank" if h == BANK else state.players[h].name

        return {
            "player": self.name,
            "cash": self.cash,
            "properties": [name(sq) for sq in self.properties],
            "complete_sets": list(self.complete_sets),
            "partial_sets": [
                {
                    "group": p.group,
                    "owned": [name(sq) for sq in p.owned],
                    "needed": [name(sq) for sq in p.needed],
                    "held_by": {name(sq): holder(h) for sq, h in p.held_by.items()},
                    "missing": p.missing,
                }
                for p in self.partial_sets
            ],
            "isolated": [name(sq) for sq in self.isolated],
            "count_groups": {g: [name(sq) for sq in lots] for g, lots in self.count_groups.items()},
            "buildings": {name(sq): lvl for sq, lvl in self.buildings.items()},
            "mortgaged": [name(sq) for sq in self.mortgaged],
        }


def _opponents_needed(held: list[int], missing: int) -> int:
    """Fewest distinct opponents whose lots (with the bank's) make up ``missing`` lots."""
    bank = held.count(BANK)
    if bank >= missing:
        return 0
    counts = sorted((held.count(h) for h in set(held) if h != BANK), reverse=True)
    need = missing - bank
    used = 0
    for c in counts:
        used += 1
        need -= c
        if need <= 0:
            return used
    return used + 1  # cannot be completed at all (more lots missing than exist)


def analyze(state: GameState, player: int | str) -> PlayerSubgraph:
    """The subgraph of ``player`` (index or name) in ``state`` (module docstring).

    Parameters
    ----------
    state : GameState
        The position.
    player : int or str
        A seat or a name.

    Returns
    -------
    PlayerSubgraph
        Its sets.

    Raises
    ------
    UnknownPlayerError
        ``player`` is a name not in the state (from :meth:`models.state.GameState.player_index`).

    Examples
    --------
    >>> from models.io import load_state
    >>> two = analyze(load_state("instances/two-player.json"), 0)
    >>> two.complete_sets, two.buildings
    (('brown', 'orange'), {16: 3, 18: 3, 19: 3})
    """
    if isinstance(player, str):
        player = state.player_index(player)
    board = state.board
    owner = state.owner
    complete: list[str] = []
    partial: list[PartialSet] = []
    isolated: list[int] = []
    for group in board.street_groups:
        lots = board.groups[group]
        mine = tuple(sq for sq in lots if owner[sq] == player)
        if not mine:
            continue
        k = state.set_size(group)
        if len(mine) >= k:
            complete.append(group)
            continue
        others = [sq for sq in lots if owner[sq] != player]
        missing = k - len(mine)
        if _opponents_needed([owner[sq] for sq in others], missing) <= 1:
            partial.append(PartialSet(group, mine, tuple(others), {sq: owner[sq] for sq in others}, missing))
        else:
            isolated.extend(mine)
    props = tuple(sq for sq in board.property_squares if owner[sq] == player)
    counted = {g: tuple(sq for sq in board.groups[g] if owner[sq] == player) for g in ("railroad", "utility") if g in board.groups}
    return PlayerSubgraph(
        player=player,
        name=state.players[player].name,
        cash=state.players[player].cash,
        properties=props,
        complete_sets=tuple(complete),
        partial_sets=tuple(partial),
        isolated=tuple(isolated),
        count_groups={g: lots for g, lots in counted.items() if lots},
        buildings={sq: state.houses[sq] for sq in props if state.houses[sq]},
        mortgaged=tuple(sq for sq in props if state.mortgaged[sq]),
    )
