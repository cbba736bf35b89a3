"""Game rules as a frozen value: salary, fines, supply, mortgage rate, dice, set sizes.

The defaults are the standard US rules. Fields that the state format can
override (``rules`` object of ``../shared/spec/state-format.md``) are
``go_salary, jail_fine, houses, hotels, mortgage_interest, dice, set_size``;
the rest are named here so that no rule is a magic number in the engine.

``free_parking_pot`` and ``auction_only`` are trial-only rule hooks of class
novelties, see engine/novelty_catalogue.py: they are not part of the state format
(neither :meth:`Rules.overrides` nor the loader knows them), they default to
the standard rules (``False``), and the batch kernel refuses them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """``count`` dice with ``sides`` faces; ``weights`` (one per face) loads them.

    Doubles means every die shows the same face; with one die there are no doubles.
    """

    count: int = 2
    sides: int = 6
    weights: tuple[float, ...] | None = None

    def face_probabilities(self) -> tuple[float, ...]:
        if self.weights is None:
            return tuple(1.0 / self.sides for _ in range(self.sides))
        total = float(sum(self.weights))
        return tuple(w / total for w in self.weights)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"count": self.count, "sides": self.sides}
        if self.weights is not None:
            out["weights"] = [w if not float(w).is_integer() else int(w) for w in self.weights]
        return out


@dataclass(frozen=True, slots=True)
class Rules:
    go_salary: int = 200
    jail_fine: int = 50
    houses: int = 32
    hotels: int = 12
    mortgage_interest: float = 0.10
    dice: DiceSpec = DiceSpec()
    set_size: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    # Rules the state format does not override (standard values, named here):
    mortgage_rate: float = 0.5  # mortgage value = price * rate (rounded down)
    building_sell_rate: float = 0.5  # buildings sell back at half their cost
    max_jail_rolls: int = 3  # after this many failed rolls, pay the fine and move
    doubles_to_jail: int = 3  # the third consecutive double sends to jail
    # Trial-only rule hooks of class novelties, see engine/novelty_catalogue.py (not in the state format):
    free_parking_pot: bool = False  # bank payments (taxes, fines, cards) feed a pot; Free Parking collects it
    auction_only: bool = False  # an unowned property is never offered to the lander: straight to auction

    def __post_init__(self) -> None:
        if not isinstance(self.set_size, MappingProxyType):
            object.__setattr__(self, "set_size", MappingProxyType(dict(self.set_size)))

    def __hash__(self) -> int:
        return hash(
            (
                self.go_salary,
                self.jail_fine,
                self.houses,
                self.hotels,
                self.mortgage_interest,
                self.dice,
                frozenset(self.set_size.items()),
                self.mortgage_rate,
                self.building_sell_rate,
                self.max_jail_rolls,
                self.doubles_to_jail,
                self.free_parking_pot,
                self.auction_only,
            )
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by fields (``set_size`` as a plain dict: a mapping proxy does not pickle)."""
        values = tuple(dict(getattr(self, f.name)) if f.name == "set_size" else getattr(self, f.name) for f in fields(self))
        return (Rules, values)

    def interest(self, mortgage_value: int) -> int:
        """The interest on a mortgage: ``ceil(value * mortgage_interest)`` dollars.

        Rounding up is this project's choice (the printed rules only meet
        multiples of $10 on the standard streets; Electric Company's $75
        mortgage costs $83 to lift).
        """
        return math.ceil(round(mortgage_value * self.mortgage_interest, 9))

    def unmortgage_cost(self, mortgage_value: int) -> int:
        """Lifting a mortgage costs the mortgage value plus the interest."""
        return mortgage_value + self.interest(mortgage_value)

    def sell_value(self, house_cost: int) -> int:
        """What the bank pays for one building (half its cost, rounded down)."""
        return int(house_cost * self.building_sell_rate)

    def overrides(self) -> dict[str, Any]:
        """The ``rules`` object of the state format: only fields that differ from the defaults."""
        default = Rules()
        out: dict[str, Any] = {}
        for key in ("go_salary", "jail_fine", "houses", "hotels", "mortgage_interest"):
            if getattr(self, key) != getattr(default, key):
                out[key] = getattr(self, key)
        if self.dice != default.dice:
            out["dice"] = self.dice.to_dict()
        if self.set_size:
            out["set_size"] = dict(self.set_size)
        return out
