"""The open-world novelty catalogue: named rule changes injected into a trial of games.

A *novelty* is a named, pure transformation ``(Board, Rules) -> (Board, Rules)``
of the game's rules, which are data here (:class:`models.board.Board` and
:class:`models.rules.Rules` are frozen values). In a trial (the seed-002
setting) the agents play games whose rules were changed in a way they were
not told about in advance, and must notice and adapt; a detector that names
the change is scored against the novelty's :attr:`Novelty.tags`.

Classes
    ``attribute``: a number changes (a rent, a price, the salary, the dice);
    ``representation``: the same things are arranged differently (squares
    swap places, a lot changes group, fewer lots make a set);
    ``class``: a new kind of thing or rule appears (a new kind of property, a
    pot on Free Parking, auctions only).
Difficulty
    ``easy``, ``medium`` or ``hard``: how hard the change is to notice and to
    exploit, by our judgement (a one-number change seen at the first payment
    is easy; a loaded die or a changed set size is hard).
Hidden
    ``hidden`` means *not printed on the board*: the change is a rule (a
    :class:`Rules` field), so in a trial the agents' views show the announced
    (pre-novelty) rules (:class:`engine.rules.view.GameView`, ``announced_rules``)
    and the agents must infer the change from play. A visible novelty changes
    the board itself, which every player sees.
Dice
    With more than two dice, "doubles" means all dice show the same face
    (:mod:`engine.chains.dice`); with one die there are no doubles at all, so a
    jailed player never rolls out and pays after the last failed roll.

Attribute and representation novelties are data only: a new board or new
rules that every engine plays (the reference engine, the exact chain of
:mod:`engine.chains.markov`, the batch kernel). The class novelties ``free-parking``
and ``auction-only`` switch ordinary rules of :class:`models.rules.Rules`
(``free_parking="bank"``, ``auction_only``), which every engine plays.
``toll-squares`` is a class novelty made of data (a new kind of property on
the board).

Examples
--------
>>> from models.board import standard_board
>>> from models.rules import Rules
>>> board, rules = get("hotel-rent").apply(standard_board(), Rules())
>>> board.squares[39].rents[5]
3000
>>> names()[:3]
['hotel-rent', 'rent-cut', 'house-cost']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from models.board import Board, Card, Square
from models.errors import InvalidStateError, MonopolyError, UnknownNameError
from models.io import validate_state
from models.rules import DiceSpec, Rules
from models.state import BANK, GameState, PlayerState

KLASSES = ("attribute", "representation", "class")
DIFFICULTIES = ("easy", "medium", "hard")

Transform = Callable[[Board, Rules], tuple[Board, Rules]]


class UnknownNoveltyError(UnknownNameError):
    """A novelty name that is not in the catalogue (the message lists the valid ones)."""


class NoveltyError(MonopolyError, ValueError):
    """A novelty that cannot apply to this board or state (a square or group it changes is
    missing, or an injection that would need a fresh game); the message says which."""


@dataclass(frozen=True)
class Novelty:
    """One entry of the catalogue.

    Attributes
    ----------
    name:
        Kebab-case, unique in :data:`CATALOGUE`.
    klass:
        ``attribute``, ``representation`` or ``class`` (module docstring).
    difficulty:
        ``easy``, ``medium`` or ``hard``.
    summary:
        One line: what changes, with the numbers.
    hidden:
        ``True`` when the change is a rule not printed on the board.
    tags:
        What a detector must name to count as a correct detection, e.g.
        ``board.rents`` or ``dice.count``.
    transform:
        The pure function behind :meth:`apply` (not compared, not shown).

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> n = get("three-dice")
    >>> n.klass, n.difficulty, n.hidden, n.tags
    ('attribute', 'easy', True, ('dice.count',))
    >>> board, rules = n.apply(standard_board(), Rules())
    >>> rules.dice.count, board is standard_board()  # the board untouched: the very object
    (3, True)
    """

    name: str
    klass: str
    difficulty: str
    summary: str
    hidden: bool
    tags: tuple[str, ...]
    transform: Transform = field(repr=False, compare=False)

    def apply(self, board: Board, rules: Rules) -> tuple[Board, Rules]:
        """The board and rules with the novelty: new values, the arguments untouched.

        A changed board is renamed ``<name>+<novelty>`` and is no longer a
        built-in board (so a saved state writes it inline). An unchanged part
        is returned as the very same object.

        Parameters
        ----------
        board : Board
            The board before.
        rules : Rules
            The rules before.

        Returns
        -------
        tuple of (Board, Rules)
            The board and rules with the novelty.

        Raises
        ------
        NoveltyError
            The board lacks what the novelty changes (e.g. no dark-blue group).
        """
        new_board, new_rules = self.transform(board, rules)
        if new_board is not board:
            new_board = Board(
                f"{board.name}+{self.name}",
                new_board.squares,
                new_board.railroad_rents,
                new_board.utility_multipliers,
                new_board.chance,
                new_board.community_chest,
                builtin=False,
            )
        return new_board, new_rules


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def _round10(num: int, den: int) -> int:
    """``num / den`` rounded to the nearest multiple of 10, halves up (exact integers)."""
    return (num + 5 * den) // (10 * den) * 10


def _with_squares(board: Board, squares: list[Square], moved: Mapping[int, int] | None = None) -> Board:
    """A new board with ``squares`` (indices must equal positions); ``advance_to``
    cards follow their square when ``moved`` (old index -> new index) moves it."""
    for i, sq in enumerate(squares):
        if sq.index != i:
            raise InvalidStateError("board", f"square {sq.name!r} at position {i} has index {sq.index}")
    moved = moved or {}

    def rebind(cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(
            replace(c, square=moved.get(c.square, c.square)) if c.action == "advance_to" and c.square is not None else c
            for c in cards
        )

    return Board(
        board.name,
        tuple(squares),
        board.railroad_rents,
        board.utility_multipliers,
        rebind(board.chance),
        rebind(board.community_chest),
        builtin=False,
    )


def _map_squares(board: Board, kinds: tuple[str, ...], f: Callable[[Square], Square]) -> Board:
    return _with_squares(board, [f(sq) if sq.kind in kinds else sq for sq in board.squares])


def _named(board: Board, name: str) -> Square:
    matches = [sq for sq in board.squares if sq.name == name]
    if len(matches) != 1:
        raise NoveltyError(f"the board {board.name!r} has no single square named {name!r}")
    return matches[0]


def _group(board: Board, group: str) -> tuple[int, ...]:
    if group not in board.groups:
        raise NoveltyError(f"the board {board.name!r} has no {group!r} group")
    return board.groups[group]


# ---------------------------------------------------------------------------
# the transformations
# ---------------------------------------------------------------------------
def _hotel_rent(board: Board, rules: Rules) -> tuple[Board, Rules]:
    def f(sq: Square) -> Square:
        return replace(sq, rents=(*sq.rents[:5], _round10(3 * sq.rents[5], 2)))

    return _map_squares(board, ("street",), f), rules


def _rent_cut(board: Board, rules: Rules) -> tuple[Board, Rules]:
    return _map_squares(board, ("street",), lambda sq: replace(sq, rents=tuple(max(1, r // 2) for r in sq.rents))), rules


def _house_cost(board: Board, rules: Rules) -> tuple[Board, Rules]:
    return _map_squares(board, ("street",), lambda sq: replace(sq, house_cost=2 * sq.house_cost)), rules


def _price_hike(board: Board, rules: Rules) -> tuple[Board, Rules]:
    kinds = ("street", "railroad", "utility")
    return _map_squares(board, kinds, lambda sq: replace(sq, price=_round10(3 * sq.price, 2))), rules


def _tax_hike(board: Board, rules: Rules) -> tuple[Board, Rules]:
    return _map_squares(board, ("tax",), lambda sq: replace(sq, amount=2 * sq.amount)), rules


def _rules_change(**changes: Any) -> Transform:
    """A transform that sets the named fields of the rules (``Rules``'s own field names)."""

    def t(board: Board, rules: Rules) -> tuple[Board, Rules]:
        return board, replace(rules, **changes)

    return t


def _board_order(board: Board, rules: Rules) -> tuple[Board, Rules]:
    """Brown lot ``k`` and dark-blue lot ``k`` trade places (each keeps all its data)."""
    brown, dark = _group(board, "brown"), _group(board, "dark_blue")
    if len(brown) != len(dark):
        raise NoveltyError("board-order needs as many brown lots as dark-blue lots")
    moved = {**dict(zip(brown, dark)), **dict(zip(dark, brown))}
    squares = list(board.squares)
    for old, new in moved.items():
        squares[new] = replace(board.squares[old], index=new)
    return _with_squares(board, squares, moved), rules


def _regroup(board: Board, rules: Rules) -> tuple[Board, Rules]:
    vermont = _named(board, "Vermont Avenue")
    _group(board, "orange")
    if vermont.kind != "street":
        raise NoveltyError("Vermont Avenue is not a street")
    squares = list(board.squares)
    squares[vermont.index] = replace(vermont, group="orange")
    return _with_squares(board, squares), rules


def _smaller_sets(board: Board, rules: Rules) -> tuple[Board, Rules]:
    sizes = dict(rules.set_size)
    sizes.update({g: 2 for g in board.street_groups if len(board.groups[g]) == 3})
    return board, replace(rules, set_size=sizes)


TOLL_GROUP = "toll"
TOLL_PRICE = 200
TOLL_RENTS = (16, 80, 220, 600, 800, 1000)
TOLL_HOUSE_COST = 100


def _toll_name(name: str) -> str:
    return name.replace("Tax", "Toll") if "Tax" in name else f"{name} Toll"


def _toll_squares(board: Board, rules: Rules) -> tuple[Board, Rules]:
    taxes = [sq for sq in board.squares if sq.kind == "tax"]
    if not taxes:
        raise NoveltyError(f"the board {board.name!r} has no tax square")
    if TOLL_GROUP in board.groups:
        raise NoveltyError(f"the board {board.name!r} already has a {TOLL_GROUP!r} group")
    taken = {sq.name for sq in board.squares if sq.is_property}
    squares = list(board.squares)
    for sq in taxes:
        name = _toll_name(sq.name)
        if name in taken:
            raise NoveltyError(f"the board {board.name!r} already has a property named {name!r}")
        taken.add(name)
        squares[sq.index] = Square(
            sq.index, "street", name, group=TOLL_GROUP, price=TOLL_PRICE, rents=TOLL_RENTS, house_cost=TOLL_HOUSE_COST
        )
    # A one-lot set: one toll is a complete group (double rent, building).
    sizes = {**rules.set_size, TOLL_GROUP: 1}
    return _with_squares(board, squares), replace(rules, set_size=sizes)


# ---------------------------------------------------------------------------
# the catalogue
# ---------------------------------------------------------------------------
CATALOGUE: tuple[Novelty, ...] = (
    Novelty(
        "hotel-rent", "attribute", "easy",
        "every street's hotel rent x1.5, rounded to the nearest $10 (halves up): Boardwalk $2,000 -> $3,000",
        False, ("board.rents",), _hotel_rent,
    ),
    Novelty(
        "rent-cut", "attribute", "easy",
        "all six rents of every street halved (rounded down, at least $1): Boardwalk $50 -> $25, hotel $2,000 -> $1,000",
        False, ("board.rents",), _rent_cut,
    ),
    Novelty(
        "house-cost", "attribute", "easy",
        "every street's house (and hotel) cost doubled: Park Place $200 -> $400, Mediterranean $50 -> $100",
        False, ("board.house_cost",), _house_cost,
    ),
    Novelty(
        "price-hike", "attribute", "medium",
        "every property's price x1.5, rounded to the nearest $10 (halves up; mortgage values follow): "
        "Boardwalk $400 -> $600, railroads $200 -> $300, utilities $150 -> $230",
        False, ("board.price",), _price_hike,
    ),
    Novelty(
        "tax-hike", "attribute", "easy",
        "every tax square's amount doubled: Income Tax $200 -> $400, Luxury Tax $100 -> $200",
        False, ("board.tax",), _tax_hike,
    ),
    Novelty(
        "go-salary", "attribute", "easy",
        "the Go salary is $100 instead of $200",
        True, ("go_salary",), _rules_change(go_salary=100),
    ),
    Novelty(
        "jail-fine", "attribute", "easy",
        "the jail fine is $150 instead of $50",
        True, ("jail_fine",), _rules_change(jail_fine=150),
    ),
    Novelty(
        "mortgage-rate", "attribute", "medium",
        "a mortgage raises 30% of the price (rounded down) instead of 50%: Boardwalk $200 -> $120",
        True, ("mortgage_rate",), _rules_change(mortgage_rate=0.3),
    ),
    Novelty(
        "three-dice", "attribute", "easy",
        "three six-sided dice (totals 3..18, mean 10.5); doubles = all three equal (1 in 36)",
        True, ("dice.count",), _rules_change(dice=DiceSpec(count=3, sides=6)),
    ),
    Novelty(
        "one-die", "attribute", "medium",
        "one twelve-sided die (1..12, mean 6.5); no doubles, so a jailed player pays after the third failed roll",
        True, ("dice.count", "dice.sides"), _rules_change(dice=DiceSpec(count=1, sides=12)),
    ),
    Novelty(
        "eight-sided", "attribute", "medium",
        "two eight-sided dice (totals 2..16, mean 9); doubles 1 in 8",
        True, ("dice.sides",), _rules_change(dice=DiceSpec(count=2, sides=8)),
    ),
    Novelty(
        "loaded-die", "attribute", "hard",
        "both dice loaded: a six has weight 3, the other faces 1 (P(6) = 3/8, P(double) = 14/64)",
        True, ("dice.weights",), _rules_change(dice=DiceSpec(count=2, sides=6, weights=(1, 1, 1, 1, 1, 3))),
    ),
    Novelty(
        "board-order", "representation", "medium",
        "the dark-blue and brown streets swap places: Park Place at 1, Boardwalk at 3, Mediterranean at 37, "
        "Baltic at 39 (each keeps its own data; 'Advance to Boardwalk' goes to square 3)",
        False, ("board.order",), _board_order,
    ),
    Novelty(
        "regroup", "representation", "medium",
        "Vermont Avenue joins the orange group (light blue keeps 2 lots, orange has 4)",
        False, ("board.groups",), _regroup,
    ),
    Novelty(
        "smaller-sets", "representation", "hard",
        "every colour group of 3 lots is complete with 2 of them (rules.set_size = 2: monopoly rent and building)",
        True, ("set_size",), _smaller_sets,
    ),
    Novelty(
        "toll-squares", "class", "hard",
        "Income Tax and Luxury Tax become the streets Income Toll and Luxury Toll of a new colour group 'toll' "
        "(price $200, rents 16/80/220/600/800/1000, house $100); one toll is a complete set (set_size 1)",
        False, ("board.squares",), _toll_squares,
    ),
    Novelty(
        "free-parking", "class", "hard",
        "taxes, jail fines and cards that take money go into a pot; landing on Free Parking collects the pot",
        True, ("rule.cash",), _rules_change(free_parking="bank"),
    ),
    Novelty(
        "auction-only", "class", "hard",
        "an unowned property is never offered to the lander: it goes straight to auction",
        True, ("rule.auction_only",), _rules_change(auction_only=True),
    ),
)  # fmt: skip

_BY_NAME = {n.name: n for n in CATALOGUE}
assert len(_BY_NAME) == len(CATALOGUE), "novelty names must be unique"


def names() -> list[str]:
    """The catalogue's names, in catalogue order.

    Returns
    -------
    list of str
        18 names.

    Examples
    --------
    >>> len(names()), names()[:3]
    (18, ['hotel-rent', 'rent-cut', 'house-cost'])
    """
    return [n.name for n in CATALOGUE]


def get(name: str) -> Novelty:
    """The novelty called ``name``.

    Parameters
    ----------
    name : str
        A name of :func:`names`.

    Returns
    -------
    Novelty
        Its entry.

    Raises
    ------
    UnknownNoveltyError
        Naming ``name`` and listing the valid names.

    Examples
    --------
    >>> get("one-die").klass, get("one-die").tags
    ('attribute', ('dice.count', 'dice.sides'))
    >>> get("four-dice")
    Traceback (most recent call last):
    ...
    solver.novelty.catalogue.UnknownNoveltyError: unknown novelty 'four-dice' (known: ...)
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise UnknownNoveltyError(f"unknown novelty {name!r} (known: {', '.join(names())})") from None


def inject(state: GameState, novelty: Novelty) -> GameState:
    """A copy of ``state`` on the novelty's board and rules (meant for fresh games).

    Holdings follow the properties by name (``board-order`` moves Boardwalk's
    owner, buildings and mortgage to square 3); a token stands on the same
    square as before, followed by name when the square's name is unique on both
    boards, else by index. The input state is not changed.

    Parameters
    ----------
    state : GameState
        The position (not changed).
    novelty : Novelty
        The change.

    Returns
    -------
    GameState
        The copy on the new board and rules.

    Raises
    ------
    NoveltyError
        The novelty changes the board's size (a fresh game is needed), or the change would
        orphan holdings: an owned (or built, or mortgaged)
        property whose name disappears or changes kind, or a new state that
        breaks a rule of the state format (e.g. buildings left on a group that
        is no longer complete, :func:`models.io.validate_state`).

    Examples
    --------
    ``board-order`` swaps Boardwalk and Baltic Avenue: the owner follows the lot.

    >>> from models.io import load_state
    >>> late = load_state("instances/late-game-house-shortage.json")
    >>> inject(late, get("board-order")).owner[3] == late.owner[39]
    True
    >>> inject(late, get("three-dice")).rules.dice.count, late.rules.dice.count
    (3, 2)
    """
    old = state.board
    board, rules = novelty.apply(old, state.rules)
    if board.size != old.size:
        raise NoveltyError(f"novelty {novelty.name!r} changes the board's size; inject needs a fresh game on it")
    owner, houses, mortgaged = [BANK] * board.size, [0] * board.size, [False] * board.size
    for sq in old.property_squares:
        if state.owner[sq] == BANK and not state.houses[sq] and not state.mortgaged[sq]:
            continue
        was = old.squares[sq]
        new = board.property_index.get(was.name)
        if new is None or board.squares[new].kind != was.kind:
            holder = state.players[state.owner[sq]].name if state.owner[sq] != BANK else "the bank"
            raise NoveltyError(
                f"novelty {novelty.name!r} would orphan {was.name!r} (held by {holder}): "
                "the property disappears or changes kind"
            )
        owner[new], houses[new], mortgaged[new] = state.owner[sq], state.houses[sq], state.mortgaged[sq]

    def unique(b: Board, name: str) -> bool:
        return sum(1 for s in b.squares if s.name == name) == 1

    def where(pos: int) -> int:
        name = old.squares[pos].name
        if unique(old, name) and unique(board, name):
            return next(s.index for s in board.squares if s.name == name)
        return pos

    players = [
        PlayerState(p.name, p.cash, where(p.position), p.in_jail, p.jail_turns, p.jail_cards, p.bankrupt)
        for p in state.players
    ]
    out = GameState(
        board, rules, players, owner, houses, mortgaged, state.to_move, state.round, state.phase, state.doubles_rolled,
        state.pot, state.bank_cash,
    )
    try:
        validate_state(out)
    except ValueError as e:
        raise NoveltyError(f"novelty {novelty.name!r} cannot be injected into this state: {e}") from e
    return out


__all__ = ["CATALOGUE", "DIFFICULTIES", "KLASSES", "Novelty", "UnknownNoveltyError", "get", "inject", "names"]
