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
    group: str
    owned: tuple[int, ...]
    needed: tuple[int, ...]
    held_by: dict[int, int]
    missing: int

    def opponents(self) -> tuple[int, ...]:
        """Opponents that hold a needed lot."""
        return tuple(sorted({h for h in self.held_by.values() if h != BANK}))


@dataclass(frozen=True)
class PlayerSubgraph:
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
        name = lambda sq: state.board.squares[sq].name  # noqa: E731
        holder = lambda h: "bank" if h == BANK else state.players[h].name  # noqa: E731
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
    """The subgraph of ``player`` (index or name) in ``state`` (module docstring)."""
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
