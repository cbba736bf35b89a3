"""Boards: squares, colour groups, railroads, utilities and card decks, as data.

A board is loaded from a JSON document of the inline-board shape of the state
format (``../shared/spec/state-format.md``, "Inline board"); the built-in
``standard-us`` board ships as ``models/data/standard-us.json`` (US prices and
rents, the 2008+ Chance and Community Chest decks).

Card documents (the ``decks`` lists) have an ``action`` and its parameters:

========================  ====================================================
``advance_to``            ``square`` (index or name); Go salary when passing
``advance_nearest``       ``group`` (``railroad`` or ``utility``); optional
                          ``rent_multiplier`` (railroad: 2 = double rent) or
                          ``dice_multiplier`` (utility: 10 = ten times a fresh
                          roll)
``move``                  ``steps`` (negative = backwards, never pays salary)
``go_to_jail``            --
``jail_free``             -- (the card is kept until used or traded)
``repairs``               ``house``, ``hotel``: dollars per building owned
``cash``                  ``amount``: > 0 collect from the bank, < 0 pay it
``each_player``           ``amount``: > 0 collect from each other active
                          player, < 0 pay each of them
========================  ====================================================

Every card may carry a ``text``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from models.checks import (
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    key_path,
)
from models.errors import InvalidStateError
from models.limits import MAX_AMOUNT, MAX_CARDS, MAX_SQUARES

SQUARE_TYPES = (
    "go",
    "street",
    "railroad",
    "utility",
    "tax",
    "chance",
    "community_chest",
    "jail",
    "free_parking",
    "go_to_jail",
)
"""The kinds of square (a square's ``type`` in a board document)."""
PROPERTY_TYPES = ("street", "railroad", "utility")
"""The kinds of square that can be owned."""
CARD_ACTIONS = (
    "advance_to",
    "advance_nearest",
    "move",
    "go_to_jail",
    "jail_free",
    "repairs",
    "cash",
    "each_player",
)
"""The card actions (module docstring: their parameters)."""
BUILTIN_BOARDS = ("standard-us",)
"""The boards a state may name instead of giving one inline."""
HOTEL = 5
"""The building level of a hotel; 1..4 are houses."""


@dataclass(frozen=True, slots=True)
class Square:
    """One square of the board.

    ``group`` is the colour group of a street, ``"railroad"`` or
    ``"utility"`` for those, and ``None`` otherwise. ``rents`` holds six
    numbers for a street: unimproved, 1..4 houses, hotel.

    Attributes
    ----------
    index:
        The square's place on the board (0 = Go).
    kind:
        One of :data:`SQUARE_TYPES`.
    name:
        The square's name (unique among properties).
    group:
        The group (above).
    price:
        A property's price (0 for other squares).
    rents:
        A street's six rents (above; empty for other squares).
    house_cost:
        A street's cost per house (a hotel costs the same, on four houses).
    amount:
        A tax square's tax.

    Examples
    --------
    >>> from models.board import standard_board
    >>> baltic = standard_board().squares[3]
    >>> baltic.name, baltic.group, baltic.price, baltic.rents[5]
    ('Baltic Avenue', 'brown', 60, 450)
    """

    index: int
    kind: str
    name: str
    group: str | None = None
    price: int = 0
    rents: tuple[int, ...] = ()
    house_cost: int = 0
    amount: int = 0

    @property
    def is_property(self) -> bool:
        """Whether the square can be owned (a street, a railroad or a utility).

        Examples
        --------
        >>> from models.board import standard_board
        >>> board = standard_board()
        >>> board.squares[5].is_property, board.squares[7].is_property
        (True, False)
        """
        return self.kind in PROPERTY_TYPES

    @property
    def mortgage_value(self) -> int:
        """Half the price (rounded down), the standard rule.

        The engine uses :meth:`models.state.GameState.mortgage_value`, which follows
        ``Rules.mortgage_rate`` (the ``mortgage-rate`` novelty changes it).

        Examples
        --------
        >>> from models.board import standard_board
        >>> standard_board().squares[39].mortgage_value
        200
        """
        return self.price // 2


@dataclass(frozen=True, slots=True)
class Card:
    """One Chance or Community Chest card (see the module docstring).

    Attributes
    ----------
    action:
        One of :data:`CARD_ACTIONS`.
    text:
        What the card says (may be empty).
    square:
        ``advance_to``: the target square's index.
    group:
        ``advance_nearest``: ``railroad`` or ``utility``.
    rent_multiplier:
        ``advance_nearest`` to a railroad: the rent's multiplier (2 = double rent).
    dice_multiplier:
        ``advance_nearest`` to a utility: the multiplier of a fresh roll (0: the usual rent).
    steps:
        ``move``: squares to move (negative = backwards).
    house, hotel:
        ``repairs``: dollars per house and per hotel owned.
    amount:
        ``cash`` and ``each_player``: dollars (> 0 collected, < 0 paid).

    Examples
    --------
    >>> from models.board import standard_board
    >>> card = standard_board().chance[0]
    >>> card.action, card.square, card.text
    ('advance_to', 39, 'Advance to Boardwalk.')
    """

    action: str
    text: str = ""
    square: int | None = None
    group: str | None = None
    rent_multiplier: int = 1
    dice_multiplier: int = 0
    steps: int = 0
    house: int = 0
    hotel: int = 0
    amount: int = 0

    def to_dict(self, board: Board) -> dict[str, Any]:
        """The card's document in a board's ``decks`` list: its action and that action's parameters.

        Parameters
        ----------
        board:
            The board the card belongs to: an ``advance_to`` target is written by
            name when the name is unique on it, else by index.

        Returns
        -------
        dict[str, Any]
            The document (``text`` only when not empty).

        Examples
        --------
        >>> from models.board import standard_board
        >>> board = standard_board()
        >>> board.chance[0].to_dict(board)
        {'action': 'advance_to', 'square': 'Boardwalk', 'text': 'Advance to Boardwalk.'}
        """
        out: dict[str, Any] = {"action": self.action}
        if self.action == "advance_to":
            assert self.square is not None
            out["square"] = board.squares[self.square].name if board.is_unique_name(self.square) else self.square
        elif self.action == "advance_nearest":
            out["group"] = self.group
            if self.rent_multiplier != 1:
                out["rent_multiplier"] = self.rent_multiplier
            if self.dice_multiplier:
                out["dice_multiplier"] = self.dice_multiplier
        elif self.action == "move":
            out["steps"] = self.steps
        elif self.action == "repairs":
            out["house"] = self.house
            out["hotel"] = self.hotel
        elif self.action in ("cash", "each_player"):
            out["amount"] = self.amount
        if self.text:
            out["text"] = self.text
        return out


@dataclass(frozen=True)
class Board:
    """A board: squares in order, railroad rents, utility multipliers, decks.

    Derived lookups (``groups``, ``property_index``, ``jail`` ...) are built once
    at construction. Go is square 0 (passing it pays the salary).

    Attributes
    ----------
    name:
        The board's name (``standard-us`` for the built-in one).
    squares:
        The squares in order, ``squares[i].index == i``.
    railroad_rents:
        The rent of a railroad when its owner holds 1, 2, ... railroads.
    utility_multipliers:
        The multiplier of the roll for a utility when its owner holds 1, 2, ... utilities.
    chance, community_chest:
        The two decks, in their printed order.
    builtin:
        Whether this is a built-in board (saved by name, not inline).
    groups:
        Group -> its squares, in board order (streets by colour, ``railroad``, ``utility``).
    property_squares:
        The squares that can be owned, in board order.
    property_index:
        Property name -> square.
    jail:
        The jail square.
    go_to_jail:
        The Go to Jail square, or ``None`` when the board has none.
    railroads, utilities:
        Those squares, in board order.
    street_groups:
        The colour groups, in board order.
    other_squares:
        The squares that cannot be owned.
    jail_card_supply:
        The Get Out of Jail Free cards in the two decks together.

    Examples
    --------
    >>> from models.board import standard_board
    >>> board = standard_board()
    >>> board.size, board.jail, board.groups["dark_blue"], board.jail_card_supply
    (40, 10, (37, 39), 2)
    """

    name: str
    squares: tuple[Square, ...]
    railroad_rents: tuple[int, ...]
    utility_multipliers: tuple[int, ...]
    chance: tuple[Card, ...]
    community_chest: tuple[Card, ...]
    builtin: bool = False
    # derived
    groups: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    property_squares: tuple[int, ...] = field(init=False, repr=False, compare=False)
    property_index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    jail: int = field(init=False, repr=False, compare=False)
    go_to_jail: int | None = field(init=False, repr=False, compare=False)
    railroads: tuple[int, ...] = field(init=False, repr=False, compare=False)
    utilities: tuple[int, ...] = field(init=False, repr=False, compare=False)
    street_groups: tuple[str, ...] = field(init=False, repr=False, compare=False)
    other_squares: tuple[int, ...] = field(init=False, repr=False, compare=False)
    jail_card_supply: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Build the derived lookups (class docstring) from the squares and the decks."""
        groups: dict[str, list[int]] = {}
        index: dict[str, int] = {}
        for sq in self.squares:
            if sq.is_property:
                assert sq.group is not None
                groups.setdefault(sq.group, []).append(sq.index)
                index[sq.name] = sq.index
        set_ = object.__setattr__
        set_(self, "groups", {g: tuple(v) for g, v in groups.items()})
        set_(self, "property_squares", tuple(sq.index for sq in self.squares if sq.is_property))
        set_(self, "property_index", index)
        set_(self, "jail", next(sq.index for sq in self.squares if sq.kind == "jail"))
        set_(self, "go_to_jail", next((sq.index for sq in self.squares if sq.kind == "go_to_jail"), None))
        set_(self, "railroads", tuple(groups.get("railroad", ())))
        set_(self, "utilities", tuple(groups.get("utility", ())))
        set_(self, "street_groups", tuple(g for g in groups if g not in ("railroad", "utility")))
        set_(self, "other_squares", tuple(sq.index for sq in self.squares if not sq.is_property))
        set_(
            self,
            "jail_card_supply",
            sum(1 for c in (*self.chance, *self.community_chest) if c.action == "jail_free"),
        )

    @property
    def size(self) -> int:
        """The number of squares.

        Examples
        --------
        >>> from models.board import standard_board
        >>> standard_board().size
        40
        """
        return len(self.squares)

    def is_unique_name(self, index: int) -> bool:
        """Whether no other square has the name of square ``index`` (three squares are called Chance).

        Parameters
        ----------
        index:
            A square.

        Returns
        -------
        bool
            The answer.

        Examples
        --------
        >>> from models.board import standard_board
        >>> board = standard_board()
        >>> board.is_unique_name(39), board.is_unique_name(7)
        (True, False)
        """
        name = self.squares[index].name
        return sum(1 for sq in self.squares if sq.name == name) == 1

    def deck(self, kind: str) -> tuple[Card, ...]:
        """The deck drawn on a square of type ``kind`` (``chance`` or ``community_chest``).

        Parameters
        ----------
        kind:
            ``chance``; any other kind gives the Community Chest deck.

        Returns
        -------
        tuple[Card, ...]
            The deck, in its printed order.

        Examples
        --------
        >>> from models.board import standard_board
        >>> len(standard_board().deck("community_chest"))
        16
        """
        return self.chance if kind == "chance" else self.community_chest

    def to_dict(self) -> dict[str, Any]:
        """The inline-board document of this board (loads back to an equal board).

        Returns
        -------
        dict[str, Any]
            ``name``, ``squares``, ``railroad_rents``, ``utility_multipliers`` and ``decks``.

        Examples
        --------
        >>> from models.board import parse_board, standard_board
        >>> board = standard_board()
        >>> doc = board.to_dict()
        >>> again = parse_board(doc)
        >>> doc["squares"][1]["rents"], again.squares == board.squares, again.chance == board.chance
        ([2, 10, 30, 90, 160, 250], True, True)
        """
        squares: list[dict[str, Any]] = []
        for sq in self.squares:
            d: dict[str, Any] = {"type": sq.kind, "name": sq.name}
            if sq.kind == "street":
                d.update(group=sq.group, price=sq.price, rents=list(sq.rents), house_cost=sq.house_cost)
            elif sq.kind in ("railroad", "utility"):
                d["price"] = sq.price
            elif sq.kind == "tax":
                d["amount"] = sq.amount
            squares.append(d)
        return {
            "name": self.name,
            "squares": squares,
            "railroad_rents": list(self.railroad_rents),
            "utility_multipliers": list(self.utility_multipliers),
            "decks": {
                "chance": [c.to_dict(self) for c in self.chance],
                "community_chest": [c.to_dict(self) for c in self.community_chest],
            },
        }


def _parse_square(doc: Any, index: int, field_: str) -> Square:
    """One ``squares[i]`` object: its ``type`` and the keys that type allows and needs."""
    obj = expect_object(doc, field_, ("type", "name", "group", "price", "rents", "house_cost", "amount"), ("type",))
    kind = expect_str(obj["type"], key_path(field_, "type"), SQUARE_TYPES)
    allowed = {
        "street": {"type", "name", "group", "price", "rents", "house_cost"},
        "railroad": {"type", "name", "price"},
        "utility": {"type", "name", "price"},
        "tax": {"type", "name", "amount"},
    }.get(kind, {"type", "name"})
    required = {
        "street": ("name", "group", "price", "rents", "house_cost"),
        "railroad": ("name", "price"),
        "utility": ("name", "price"),
        "tax": ("name", "amount"),
    }.get(kind, ())
    expect_object(obj, field_, allowed, required)
    name = expect_str(obj.get("name", kind.replace("_", " ").title()), key_path(field_, "name"))
    if not name:
        raise InvalidStateError(key_path(field_, "name"), "must not be empty")
    if kind == "street":
        group = expect_str(obj["group"], key_path(field_, "group"))
        if group in ("railroad", "utility") or not group:
            raise InvalidStateError(key_path(field_, "group"), f"{group!r} is reserved for non-street squares")
        rents = expect_list(obj["rents"], key_path(field_, "rents"), 6, 6)
        return Square(
            index,
            kind,
            name,
            group=group,
            price=expect_int(obj["price"], key_path(field_, "price"), 0, MAX_AMOUNT),
            rents=tuple(expect_int(r, key_path(key_path(field_, "rents"), i), 0, MAX_AMOUNT) for i, r in enumerate(rents)),
            house_cost=expect_int(obj["house_cost"], key_path(field_, "house_cost"), 0, MAX_AMOUNT),
        )
    if kind in ("railroad", "utility"):
        return Square(index, kind, name, group=kind, price=expect_int(obj["price"], key_path(field_, "price"), 0, MAX_AMOUNT))
    if kind == "tax":
        return Square(index, kind, name, amount=expect_int(obj["amount"], key_path(field_, "amount"), 0, MAX_AMOUNT))
    return Square(index, kind, name)


def _parse_card(doc: Any, field_: str, squares: tuple[Square, ...]) -> Card:
    """One card of a deck: its ``action`` and that action's parameters, targets checked against ``squares``."""
    base = expect_object(
        doc,
        field_,
        ("action", "text", "square", "group", "rent_multiplier", "dice_multiplier", "steps", "house", "hotel", "amount"),
        ("action",),
    )
    action = expect_str(base["action"], key_path(field_, "action"), CARD_ACTIONS)
    params = {
        "advance_to": (("square",), ()),
        "advance_nearest": (("group",), ("rent_multiplier", "dice_multiplier")),
        "move": (("steps",), ()),
        "go_to_jail": ((), ()),
        "jail_free": ((), ()),
        "repairs": (("house", "hotel"), ()),
        "cash": (("amount",), ()),
        "each_player": (("amount",), ()),
    }[action]
    obj = expect_object(base, field_, ("action", "text", *params[0], *params[1]), ("action", *params[0]))
    text = expect_str(obj.get("text", ""), key_path(field_, "text"))
    if action == "advance_to":
        target = obj["square"]
        f = key_path(field_, "square")
        if isinstance(target, str):
            matches = [sq.index for sq in squares if sq.name == target]
            if len(matches) != 1:
                raise InvalidStateError(f, f"{target!r} does not name exactly one square")
            return Card(action, text, square=matches[0])
        return Card(action, text, square=expect_int(target, f, 0, len(squares) - 1))
    if action == "advance_nearest":
        group = expect_str(obj["group"], key_path(field_, "group"), ("railroad", "utility"))
        if not any(sq.kind == group for sq in squares):
            raise InvalidStateError(key_path(field_, "group"), f"the board has no {group}")
        return Card(
            action,
            text,
            group=group,
            rent_multiplier=expect_int(obj.get("rent_multiplier", 1), key_path(field_, "rent_multiplier"), 0, 100),
            dice_multiplier=expect_int(obj.get("dice_multiplier", 0), key_path(field_, "dice_multiplier"), 0, 1000),
        )
    if action == "move":
        steps = expect_int(obj["steps"], key_path(field_, "steps"), -len(squares), len(squares))
        return Card(action, text, steps=steps)
    if action == "repairs":
        return Card(
            action,
            text,
            house=expect_int(obj["house"], key_path(field_, "house"), 0, MAX_AMOUNT),
            hotel=expect_int(obj["hotel"], key_path(field_, "hotel"), 0, MAX_AMOUNT),
        )
    if action in ("cash", "each_player"):
        return Card(action, text, amount=expect_int(obj["amount"], key_path(field_, "amount"), -MAX_AMOUNT, MAX_AMOUNT))
    return Card(action, text)


def parse_board(doc: Any, field_: str = "board", *, builtin: bool = False) -> Board:
    """Build a :class:`Board` from an inline-board document, checking every field.

    Square 0 must be Go, there must be one jail and at most one Go to Jail
    square, property names must be unique, and there must be a rent per
    railroad and a multiplier per utility. A document without ``decks`` gets the
    standard decks, their ``advance_to`` targets found by name on the new board.

    Parameters
    ----------
    doc:
        The parsed inline-board document (docs/state-format.md#inline-board).
    field_:
        Where the document is, for messages.
    builtin:
        Whether this is a built-in board's document (it is then saved by name).

    Returns
    -------
    Board
        The board.

    Raises
    ------
    InvalidStateError
        Naming the field, e.g. ``board.squares[3].rents``.

    Examples
    --------
    >>> import json
    >>> from models.board import parse_board
    >>> with open("instances/mini-board.json", encoding="utf-8") as fh:
    ...     board = parse_board(json.load(fh)["board"])
    >>> board.name, board.size, board.street_groups
    ('mini-12', 12, ('grey', 'gold'))
    """
    obj = expect_object(
        doc, field_, ("name", "squares", "railroad_rents", "utility_multipliers", "decks"), ("squares",)
    )
    name = expect_str(obj.get("name", "inline"), key_path(field_, "name"))
    sq_field = key_path(field_, "squares")
    raw = expect_list(obj["squares"], sq_field, 2, MAX_SQUARES)
    squares = tuple(_parse_square(s, i, key_path(sq_field, i)) for i, s in enumerate(raw))
    if squares[0].kind != "go":
        raise InvalidStateError(key_path(sq_field, 0), "square 0 must be Go")
    for kind in ("go", "jail"):
        n = sum(1 for sq in squares if sq.kind == kind)
        if n != 1:
            raise InvalidStateError(sq_field, f"expected exactly one {kind} square, found {n}")
    if sum(1 for sq in squares if sq.kind == "go_to_jail") > 1:
        raise InvalidStateError(sq_field, "at most one go_to_jail square")
    seen: dict[str, int] = {}
    for sq in squares:
        if sq.is_property:
            if sq.name in seen:
                raise InvalidStateError(key_path(key_path(sq_field, sq.index), "name"), f"duplicate property name {sq.name!r}")
            seen[sq.name] = sq.index
    rr = expect_list(obj.get("railroad_rents", [25, 50, 100, 200]), key_path(field_, "railroad_rents"), 1, MAX_SQUARES)
    rr_t = tuple(expect_int(v, key_path(key_path(field_, "railroad_rents"), i), 0, MAX_AMOUNT) for i, v in enumerate(rr))
    n_rr = sum(1 for sq in squares if sq.kind == "railroad")
    if n_rr > len(rr_t):
        raise InvalidStateError(key_path(field_, "railroad_rents"), f"{len(rr_t)} rents for {n_rr} railroads")
    um = expect_list(obj.get("utility_multipliers", [4, 10]), key_path(field_, "utility_multipliers"), 1, MAX_SQUARES)
    um_t = tuple(expect_int(v, key_path(key_path(field_, "utility_multipliers"), i), 0, 1000) for i, v in enumerate(um))
    n_ut = sum(1 for sq in squares if sq.kind == "utility")
    if n_ut > len(um_t):
        raise InvalidStateError(key_path(field_, "utility_multipliers"), f"{len(um_t)} multipliers for {n_ut} utilities")
    decks_field = key_path(field_, "decks")
    if "decks" in obj:
        decks = expect_object(obj["decks"], decks_field, ("chance", "community_chest"), ("chance", "community_chest"))
        parsed = {}
        for kind in ("chance", "community_chest"):
            f = key_path(decks_field, kind)
            cards = expect_list(decks[kind], f, 0, MAX_CARDS)
            parsed[kind] = tuple(_parse_card(c, key_path(f, i), squares) for i, c in enumerate(cards))
        chance, chest = parsed["chance"], parsed["community_chest"]
    else:
        # The standard cards name standard squares: re-resolve them by name.
        std = standard_board()
        chance = _rebind_cards(std.chance, std, squares, decks_field)
        chest = _rebind_cards(std.community_chest, std, squares, decks_field)
    for kind, deck in (("chance", chance), ("community_chest", chest)):
        if any(sq.kind == kind for sq in squares) and not deck:
            raise InvalidStateError(key_path(decks_field, kind), f"the board has {kind} squares but the deck is empty")
    return Board(name, squares, rr_t, um_t, chance, chest, builtin=builtin)


def _rebind_cards(cards: tuple[Card, ...], std: Board, squares: tuple[Square, ...], field_: str) -> tuple[Card, ...]:
    """Re-target the standard cards' ``advance_to`` squares by name on another board."""
    out = []
    for card in cards:
        if card.action == "advance_to":
            assert card.square is not None
            name = std.squares[card.square].name
            matches = [sq.index for sq in squares if sq.name == name]
            if len(matches) != 1:
                raise InvalidStateError(
                    field_, f"the standard cards need exactly one square named {name!r}; give the board its own decks"
                )
            out.append(Card(card.action, card.text, square=matches[0]))
        elif card.action == "advance_nearest" and not any(sq.kind == card.group for sq in squares):
            raise InvalidStateError(field_, f"the standard cards need a {card.group}; give the board its own decks")
        else:
            out.append(card)
    return tuple(out)


@cache
def _builtin(name: str) -> Board:
    """A built-in board, parsed from its package data file ``models/data/NAME.json`` (once: cached)."""
    text = resources.files("models").joinpath("data", f"{name}.json").read_text(encoding="utf-8")
    return parse_board(json.loads(text), "board", builtin=True)


def standard_board() -> Board:
    """The standard US board with the 2008+ decks (cached; boards are immutable).

    Returns
    -------
    Board
        The same object on every call.

    Examples
    --------
    >>> from models.board import standard_board
    >>> board = standard_board()
    >>> board.name, board.squares[39].name, board.squares[39].price
    ('standard-us', 'Boardwalk', 400)
    """
    return _builtin("standard-us")


def load_board(name_or_doc: str | Mapping[str, Any], field_: str = "board") -> Board:
    """A built-in board by name, or an inline board document.

    Parameters
    ----------
    name_or_doc:
        A name of :data:`BUILTIN_BOARDS`, or an inline-board document (:func:`parse_board`).
    field_:
        Where the name or the document is, for messages.

    Returns
    -------
    Board
        The board.

    Raises
    ------
    InvalidStateError
        An unknown built-in name, or a document that :func:`parse_board` refuses.

    Examples
    --------
    >>> from models.board import load_board
    >>> load_board("standard-us").jail
    10
    >>> load_board("standard-uk")
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: board: unknown built-in board 'standard-uk' (known: standard-us)
    """
    if isinstance(name_or_doc, str):
        if name_or_doc not in BUILTIN_BOARDS:
            raise InvalidStateError(field_, f"unknown built-in board {name_or_doc!r} (known: {', '.join(BUILTIN_BOARDS)})")
        return _builtin(name_or_doc)
    return parse_board(name_or_doc, field_)


__all__ = [
    "BUILTIN_BOARDS",
    "CARD_ACTIONS",
    "HOTEL",
    "PROPERTY_TYPES",
    "SQUARE_TYPES",
    "Board",
    "Card",
    "Square",
    "load_board",
    "parse_board",
    "standard_board",
]
