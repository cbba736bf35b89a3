"""Game rules as a frozen value: the standard US rules and the common variants.

The defaults are the standard US rules. Every field is named here so that no
rule is a magic number in the engine; the state format's ``rules`` object
(docs/state-format.md#rules) overrides any of them, and a few named presets
(:data:`PRESETS`) bundle the common house rules and the rules of simplified
simulators. Fields and their standard values:

Money and supply
    ``go_salary`` 200, ``jail_fine`` 50, ``houses`` 32, ``hotels`` 12,
    ``mortgage_interest`` 0.10, ``mortgage_rate`` 0.5, ``building_sell_rate`` 0.5.
Dice
    ``dice`` (2 six-sided), ``doubles_again`` (a double rolls again: True),
    ``doubles_to_jail`` (the n-th consecutive double of a turn goes to jail:
    3; 0 = never).
Jail
    ``max_jail_rolls`` (turns a jailed player spends before the forced exit:
    3), ``jail_doubles`` (a double rolled in jail frees: True),
    ``jail_release`` (what the last jail turn does: ``"pay"``, the fine is
    paid and the player moves by that turn's roll; ``"free"``, the player
    leaves without paying and without moving, and the next turn is an
    ordinary one: "sits out" ``max_jail_rolls`` turns).
Cards
    ``card_draw``: ``"shuffled"`` (standard: each deck is shuffled and drawn
    in order, reshuffled when empty) or ``"replacement"`` (every draw is
    uniform over the deck's cards, a held Get Out of Jail Free card aside).
Free Parking and Go
    ``free_parking``: ``"off"`` (standard), ``"taxes"`` (tax squares feed a
    pot that a player landing on Free Parking collects) or ``"bank"``
    (every payment to the bank for taxes, jail fines, cards and repairs feeds
    it); ``free_parking_seed`` (the bank puts this much in the pot at the
    start and after every collection: 0); ``go_landing_bonus`` (landing
    exactly on Go by a roll or a card pays the salary twice: False).
Buying and building
    ``auctions`` (a lot its lander declines is auctioned: True; False: it
    stays with the bank), ``auction_only`` (a lot is never offered to its
    lander, always auctioned: False), ``even_building`` (True).
The bank and the end
    ``bank_cash`` (None: the bank never runs out; a number: the bank's cash
    at the start, it pays what it holds and no more), ``cash_target`` (None;
    a number: the game ends at the end of the turn in which a player holds
    that much cash), ``round_limit`` (None; a number: the game ends after
    that many complete rounds). A game ended by a target or a limit is won by
    the highest net worth, ties to the earlier seat.

Every variant has its standard value as default, so a state file without
them is the standard game (docs/state-format.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from models.errors import InvalidArgumentError, UnknownKeyError

CARD_DRAWS = ("shuffled", "replacement")
"""The values of ``card_draw``."""
FREE_PARKING = ("off", "taxes", "bank")
"""The values of ``free_parking``."""
JAIL_RELEASES = ("pay", "free")
"""The values of ``jail_release``."""


class InvalidRulesError(InvalidArgumentError):
    """Rules constructed with a field out of its range or choices, or with two rules that contradict each other.

    Also a :class:`ValueError`; the state format's parser turns it into an
    :class:`~models.errors.InvalidStateError` on the ``rules`` field.

    Examples
    --------
    >>> from models.rules import InvalidRulesError, Rules
    >>> try:
    ...     Rules(auctions=False, auction_only=True)
    ... except InvalidRulesError as err:
    ...     print(err)
    auction_only needs auctions (a lot that is never offered and never auctioned could not be bought)
    """


class UnknownPresetError(UnknownKeyError):
    """A rules preset's name that names no preset (:func:`preset`); also a :class:`KeyError`.

    Examples
    --------
    >>> from models.rules import UnknownPresetError, preset
    >>> try:
    ...     preset("monopoly-junior")
    ... except KeyError as err:
    ...     print(type(err).__name__, err)
    UnknownPresetError unknown rules preset 'monopoly-junior' (presets: standard-us, house-jackpot, no-doubles, short-game)
    """


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """``count`` dice with ``sides`` faces; ``weights`` (one per face) loads them.

    Doubles means every die shows the same face; with one die there are no doubles.

    Attributes
    ----------
    count:
        How many dice are rolled (>= 1).
    sides:
        Faces per die, numbered 1..``sides`` (>= 2).
    weights:
        Relative weights of the faces, one per face, the same for every die (``None``: fair dice).

    Examples
    --------
    >>> from models.rules import DiceSpec
    >>> loaded = DiceSpec(2, 6, (1, 1, 1, 1, 1, 3))
    >>> round(loaded.face_probabilities()[5], 4)
    0.375
    """

    count: int = 2
    sides: int = 6
    weights: tuple[float, ...] | None = None

    def face_probabilities(self) -> tuple[float, ...]:
        """The probability of each face of one die, faces 1..``sides`` in order.

        Returns
        -------
        tuple[float, ...]
            ``1 / sides`` each for fair dice, else the weights normalised to sum 1.

        Examples
        --------
        >>> from models.rules import DiceSpec
        >>> [round(p, 4) for p in DiceSpec(1, 4).face_probabilities()]
        [0.25, 0.25, 0.25, 0.25]
        """
        if self.weights is None:
            return tuple(1.0 / self.sides for _ in range(self.sides))
        total = float(sum(self.weights))
        return tuple(w / total for w in self.weights)

    def to_dict(self) -> dict[str, Any]:
        """The ``rules.dice`` object of the state format (whole-number weights written as integers).

        Returns
        -------
        dict[str, Any]
            ``count``, ``sides`` and, for loaded dice, ``weights``.

        Examples
        --------
        >>> from models.rules import DiceSpec
        >>> DiceSpec(2, 6, (1, 1, 1, 1, 1, 3.0)).to_dict()
        {'count': 2, 'sides': 6, 'weights': [1, 1, 1, 1, 1, 3]}
        """
        out: dict[str, Any] = {"count": self.count, "sides": self.sides}
        if self.weights is not None:
            out["weights"] = [w if not float(w).is_integer() else int(w) for w in self.weights]
        return out


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules of one game (module docstring: every field, its standard value and meaning).

    Attributes
    ----------
    go_salary, jail_fine, houses, hotels, mortgage_interest, mortgage_rate, building_sell_rate:
        Money and supply (module docstring, "Money and supply").
    dice, doubles_again, doubles_to_jail:
        The dice (:class:`DiceSpec`) and what doubles do.
    set_size:
        Group -> lots one player needs for a monopoly there (a group not named:
        all its lots); read-only.
    max_jail_rolls, jail_doubles, jail_release:
        Jail.
    card_draw:
        How the decks are drawn.
    free_parking, free_parking_seed, go_landing_bonus:
        Free Parking and Go.
    auctions, auction_only, even_building:
        Buying and building.
    bank_cash, cash_target, round_limit:
        The bank and the end of the game.

    Raises
    ------
    InvalidRulesError
        On construction, a field out of its range or choices, or two rules that contradict
        each other (``auction_only`` without ``auctions``).

    Examples
    --------
    >>> from models.rules import PRESETS, Rules
    >>> rules = PRESETS["house-jackpot"]
    >>> rules.pot_enabled, rules.go_landing_bonus, rules == Rules()
    (True, True, False)
    """

    go_salary: int = 200
    jail_fine: int = 50
    houses: int = 32
    hotels: int = 12
    mortgage_interest: float = 0.10
    dice: DiceSpec = DiceSpec()
    set_size: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    mortgage_rate: float = 0.5  # mortgage value = price * rate (rounded down)
    building_sell_rate: float = 0.5  # buildings sell back at half their cost
    doubles_again: bool = True  # a double rolls again
    doubles_to_jail: int = 3  # the third consecutive double sends to jail (0: never)
    max_jail_rolls: int = 3  # turns in jail before the forced exit
    jail_doubles: bool = True  # a double rolled in jail frees the player
    jail_release: str = "pay"  # the forced exit: "pay" the fine and move, or "free" without moving
    card_draw: str = "shuffled"  # or "replacement"
    free_parking: str = "off"  # "off", "taxes" or "bank": what feeds the Free Parking pot
    free_parking_seed: int = 0  # the bank's stake in the pot, at the start and after each collection
    go_landing_bonus: bool = False  # landing exactly on Go pays the salary twice
    auctions: bool = True  # a declined lot is auctioned (False: it stays with the bank)
    auction_only: bool = False  # a lot is never offered to its lander: straight to auction
    even_building: bool = True  # the standard even-building rule
    bank_cash: int | None = None  # None: the bank never runs out
    cash_target: int | None = None  # the game ends when a player holds this much cash
    round_limit: int | None = None  # the game ends after this many complete rounds

    def __post_init__(self) -> None:
        """Freeze ``set_size`` (a read-only copy) and refuse rules out of range or contradictory."""
        if not isinstance(self.set_size, MappingProxyType):
            object.__setattr__(self, "set_size", MappingProxyType(dict(self.set_size)))
        problem = _problem(self)
        if problem is not None:
            raise InvalidRulesError(problem)

    def __hash__(self) -> int:
        """A hash over every field (``set_size`` by its items)."""
        return hash(tuple(frozenset(v.items()) if isinstance(v, Mapping) else v for v in _values(self)))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by fields (``set_size`` as a plain dict: a mapping proxy does not pickle)."""
        return (Rules, tuple(dict(v) if isinstance(v, Mapping) else v for v in _values(self)))

    @property
    def pot_enabled(self) -> bool:
        """Whether a Free Parking pot is played (``free_parking`` is not ``"off"``).

        Examples
        --------
        >>> from models.rules import PRESETS
        >>> PRESETS["standard-us"].pot_enabled, PRESETS["house-jackpot"].pot_enabled
        (False, True)
        """
        return self.free_parking != "off"

    def interest(self, mortgage_value: int) -> int:
        """The interest on a mortgage: ``ceil(value * mortgage_interest)`` dollars.

        Rounding up is this project's choice (the printed rules only meet
        multiples of $10 on the standard streets; Electric Company's $75
        mortgage costs $83 to lift).

        Parameters
        ----------
        mortgage_value:
            The mortgage's value in dollars.

        Returns
        -------
        int
            Dollars.

        Examples
        --------
        >>> from models.rules import Rules
        >>> Rules().interest(75), Rules().interest(100)
        (8, 10)
        """
        return math.ceil(round(mortgage_value * self.mortgage_interest, 9))

    def unmortgage_cost(self, mortgage_value: int) -> int:
        """What lifting a mortgage costs: the mortgage value plus the interest (:meth:`interest`).

        Parameters
        ----------
        mortgage_value:
            The mortgage's value in dollars.

        Returns
        -------
        int
            Dollars.

        Examples
        --------
        >>> from models.rules import Rules
        >>> Rules().unmortgage_cost(75)
        83
        """
        return mortgage_value + self.interest(mortgage_value)

    def sell_value(self, house_cost: int) -> int:
        """What the bank pays for one building: its cost times ``building_sell_rate`` (half), rounded down.

        Parameters
        ----------
        house_cost:
            The building's cost in dollars.

        Returns
        -------
        int
            Dollars.

        Examples
        --------
        >>> from models.rules import Rules
        >>> Rules().sell_value(150)
        75
        """
        return int(house_cost * self.building_sell_rate)

    def overrides(self) -> dict[str, Any]:
        """The ``rules`` object of the state format: only fields that differ from the defaults.

        ``mortgage_rate`` and ``building_sell_rate`` are left out (the state format
        does not override them).

        Returns
        -------
        dict[str, Any]
            Field -> value, JSON-ready (``dice`` and ``set_size`` as objects).

        Examples
        --------
        >>> from models.rules import PRESETS
        >>> PRESETS["house-jackpot"].overrides()
        {'free_parking': 'bank', 'go_landing_bonus': True, 'auctions': False}
        """
        default = Rules()
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _FIXED or value == getattr(default, f.name):
                continue
            if f.name == "dice":
                out["dice"] = value.to_dict()
            elif f.name == "set_size":
                out["set_size"] = dict(value)
            else:
                out[f.name] = value
        return out

    def variant_overrides(self) -> dict[str, Any]:
        """The overrides among the variant rules (those that need format ``monopoly-state/2``).

        Returns
        -------
        dict[str, Any]
            The items of :meth:`overrides` whose field is in :data:`VARIANT_FIELDS`.

        Examples
        --------
        >>> from models.rules import Rules
        >>> Rules(go_salary=400, round_limit=60).variant_overrides()
        {'round_limit': 60}
        """
        return {k: v for k, v in self.overrides().items() if k in VARIANT_FIELDS}

    def preset(self) -> str | None:
        """The name of the preset these rules are exactly, or ``None``.

        Returns
        -------
        str or None
            A key of :data:`PRESETS`.

        Examples
        --------
        >>> from models.rules import Rules
        >>> Rules(round_limit=60).preset(), Rules(round_limit=61).preset()
        ('short-game', None)
        """
        return next((name for name, rules in PRESETS.items() if rules == self), None)

    def summary(self) -> dict[str, Any]:
        """What the commands report as the rules they used.

        Returns
        -------
        dict[str, Any]
            ``name`` (:meth:`describe`), ``preset`` (or ``None``) and ``overrides``
            (the fields that differ from the standard rules).

        Examples
        --------
        >>> from models.rules import Rules
        >>> Rules(go_salary=400).summary()
        {'name': 'standard-us with go_salary=400', 'preset': None, 'overrides': {'go_salary': 400}}
        """
        return {"name": self.describe(), "preset": self.preset(), "overrides": self.overrides()}

    def describe(self) -> str:
        """One line naming the rules: the preset, or the standard rules and what differs.

        Returns
        -------
        str
            E.g. ``short-game`` or ``standard-us with go_salary=400``.

        Examples
        --------
        >>> from models.io import load_state
        >>> load_state("instances/novelty-rules.json").rules.describe()[:60]
        'standard-us with go_salary=400, houses=24, hotels=8, mortgag'
        """
        name = self.preset()
        if name is not None:
            return name
        diff = self.overrides()
        return "standard-us with " + ", ".join(f"{k}={_show(v)}" for k, v in diff.items())


def _values(rules: Rules) -> tuple[Any, ...]:
    """Every field's value, in field order."""
    return tuple(getattr(rules, f.name) for f in fields(rules))


def _show(value: Any) -> str:
    """A field's value as :meth:`Rules.describe` writes it (JSON's ``true``/``false``; ``none``;
    a table as ``name:value`` pairs, a list joined by ``/``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, dict):  # a table of values (dice, set sizes): names and values, no Python syntax
        return " ".join(f"{k}:{_show(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "/".join(_show(v) for v in value)
    return str(value)


_FIXED = ("mortgage_rate", "building_sell_rate")
"""Fields the state format does not override (the standard values, named here)."""

VARIANT_FIELDS = (
    "doubles_again",
    "doubles_to_jail",
    "max_jail_rolls",
    "jail_doubles",
    "jail_release",
    "card_draw",
    "free_parking",
    "free_parking_seed",
    "go_landing_bonus",
    "auctions",
    "auction_only",
    "even_building",
    "bank_cash",
    "cash_target",
    "round_limit",
)
"""The rules added by format ``monopoly-state/2`` (docs/state-format.md#rules)."""

MAX_RULE_AMOUNT = 10**6
"""Bound on the money-valued variant rules (seed, bank, target)."""
MAX_RULE_ROUNDS = 10**6
"""Bound on ``round_limit``."""


def _problem(r: Rules) -> str | None:
    """What is wrong with ``r`` (one line), or ``None``."""
    for name in ("doubles_again", "jail_doubles", "go_landing_bonus", "auctions", "auction_only", "even_building"):
        if not isinstance(getattr(r, name), bool):
            return f"{name} must be true or false"
    for name, choices in (("card_draw", CARD_DRAWS), ("free_parking", FREE_PARKING), ("jail_release", JAIL_RELEASES)):
        if getattr(r, name) not in choices:
            return f"{name} must be one of {', '.join(choices)}, not {getattr(r, name)!r}"
    checks: tuple[tuple[str, int, int], ...] = (
        ("doubles_to_jail", 0, 5),
        ("max_jail_rolls", 1, 3),
        ("free_parking_seed", 0, MAX_RULE_AMOUNT),
    )
    for name, lo, hi in checks:
        v = getattr(r, name)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            return f"{name} must be an integer in {lo}..{hi}, not {v!r}"
    for name, lo, hi in (("bank_cash", 0, MAX_RULE_AMOUNT * 100), ("cash_target", 1, MAX_RULE_AMOUNT * 100), ("round_limit", 1, MAX_RULE_ROUNDS)):
        v = getattr(r, name)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi):
            return f"{name} must be null or an integer in {lo}..{hi}, not {v!r}"
    if r.auction_only and not r.auctions:
        return "auction_only needs auctions (a lot that is never offered and never auctioned could not be bought)"
    if r.doubles_again and not r.doubles_to_jail and r.dice.count >= 2 and max(r.dice.face_probabilities()) == 1.0:
        return "with doubles_again and doubles_to_jail 0, dice that always roll doubles would make a turn endless"
    if r.free_parking_seed and not r.pot_enabled:
        return "free_parking_seed needs a Free Parking pot (free_parking taxes or bank)"
    return None


PRESETS: dict[str, Rules] = {
    "standard-us": Rules(),
    "house-jackpot": Rules(free_parking="bank", free_parking_seed=0, go_landing_bonus=True, auctions=False),
    "no-doubles": Rules(
        doubles_again=False,
        doubles_to_jail=0,
        max_jail_rolls=1,
        jail_doubles=False,
        jail_release="free",
        card_draw="replacement",
        bank_cash=20_580 - 4 * 1_500,
        cash_target=10_000,
    ),
    "short-game": Rules(round_limit=60),
}
"""Named rule sets, selectable in a state file (``"rules": {"preset": NAME, ...}``) and on the
command line (``--rules NAME``).

``standard-us``
    The standard US rules.
``house-jackpot``
    The most common family house rules: taxes, fines and card payments go to a Free
    Parking pot that whoever lands there collects; landing exactly on Go pays $400;
    a lot its lander declines is not auctioned (it stays with the bank).
``no-doubles``
    The rules of simplified bot simulators: doubles are ordinary rolls (no extra roll,
    never to jail, no escape from jail), a jailed player sits out one turn and then
    leaves free, cards are drawn with replacement, the bank holds $14,580 (the
    standard $20,580 less four players' $1,500; a state for more players should set
    ``bank_cash``), and the game ends when a player holds $10,000 in cash.
``short-game``
    The standard rules with a 60-round limit, won by net worth: a timed game.
"""


def preset(name: str) -> Rules:
    """The preset called ``name``.

    Parameters
    ----------
    name:
        A key of :data:`PRESETS`.

    Returns
    -------
    Rules
        The preset's rules.

    Raises
    ------
    UnknownPresetError
        No such preset (also a :class:`KeyError`); the message lists the presets.

    Examples
    --------
    >>> from models.rules import preset
    >>> preset("short-game").round_limit
    60
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPresetError(f"unknown rules preset {name!r} (presets: {', '.join(PRESETS)})") from None


__all__ = [
    "CARD_DRAWS",
    "FREE_PARKING",
    "JAIL_RELEASES",
    "MAX_RULE_AMOUNT",
    "MAX_RULE_ROUNDS",
    "PRESETS",
    "VARIANT_FIELDS",
    "DiceSpec",
    "InvalidRulesError",
    "Rules",
    "UnknownPresetError",
    "preset",
]
