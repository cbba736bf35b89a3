"""What agents ask for (actions) and what they are told (events).

Actions name squares by index (``board.property_index`` maps names to
indices); trades name players and properties by name, as in the state file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from models.trade import Trade

JailChoice = Literal["roll", "pay", "card"]


@dataclass(frozen=True, slots=True)
class Build:
    """Buy one building (a house, or the hotel after four houses) for ``square``."""

    square: int


@dataclass(frozen=True, slots=True)
class SellBuilding:
    """Sell one building level of ``square`` back to the bank at half price.

    Selling a hotel when the bank holds fewer than four houses sells the group
    further down, evenly (see :func:`engine.rules.legal.hotel_break_levels`).
    """

    square: int


@dataclass(frozen=True, slots=True)
class Mortgage:
    square: int


@dataclass(frozen=True, slots=True)
class Unmortgage:
    square: int


@dataclass(frozen=True, slots=True)
class ProposeTrade:
    trade: Trade


Action = Build | SellBuilding | Mortgage | Unmortgage | ProposeTrade


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in play.

    ``kind`` is one of the keys of :data:`engine.rules.agents.EVENT_KINDS`, which lists
    each kind's data keys (``turn`` starts a turn; ``cash`` moves money, the bank
    or the Free Parking pot being ``None``; ``declined`` is a lot left with the
    bank when auctions are off); docs/agents.md#the-protocol says when each is
    emitted.

    Every change of a player's cash is reported by exactly one ``cash``
    event, so an observer can account for every dollar.
    """

    kind: str
    player: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
