"""The baseline's rules of thumb, shared by its decisions: their parameters, the building reserve,
whether a lot completes or blocks a group, and the static values.

The baseline (:class:`solver.agents.strategic.StrategicTradeAgent`, ``strategic``) and ``subgraph``
play these rules for the routine decisions (:mod:`solver.decisions`: buying and bidding with
``auction="price"``, the jail choice, lifting, raising cash, the shortage bids); each decision's
module holds its rule, this one what they share:

- :class:`BaselineRules`, the rules' parameters;
- the **building reserve**, ``reserve`` + ``danger`` x the dearest rent the player may face (an
  opponent's unmortgaged street at its current rent): :func:`worst_rent`,
  :func:`building_reserve`;
- :func:`completes` and :func:`blocks`: a lot that completes a street group for a player, or
  would complete one for an opponent;
- the **static values** (:class:`solver.analysis.static_value.StaticValuation`) on the exact
  chain's long-run landings per turn for the game's board and rules
  (:func:`exact_landings_per_turn`, :func:`static_valuation`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.chains.markov import exact_landings_per_turn  # kept importable from here (its home is the engine)
from engine.rules.view import GameView
from models.board import Board
from models.rules import Rules
from models.state import BANK
from solver.analysis.static_value import StaticValuation
from solver.decisions.caches import DecisionCaches

STATIC_HORIZON = 30.0
"""``H``, the rounds of rent the baseline's static values count."""


@dataclass(frozen=True)
class BaselineRules:
    """The parameters of the baseline's rules of thumb (:mod:`solver.agents.strategic`).

    Attributes
    ----------
    reserve : int, default 150
        The cash a purchase must leave, and the base of the building reserve
        (``reserve`` + ``danger`` x the worst rent it may face); also the cash a bid on an
        ordinary lot and paying the jail fine must leave.
    critical_reserve : int, default 50
        The cash a purchase or a bid must leave for a lot that completes a group for the player
        or blocks an opponent's completion.
    premium : float, default 0.5
        The auction bid's mark-up on such a lot, a fraction of the price.
    danger : float, default 0.25
        The share of the worst rent it may face added to ``reserve`` in the building reserve.
    leave_jail_unowned : int, default 8
        Leave jail early (card, else fine) while at least this many properties are unowned.

    Examples
    --------
    >>> BaselineRules().reserve, BaselineRules(reserve=200).premium
    (150, 0.5)
    """

    reserve: int = 150
    critical_reserve: int = 50
    premium: float = 0.5
    danger: float = 0.25
    leave_jail_unowned: int = 8



def completes(view: GameView, player: int, square: int) -> bool:
    """Would ``player`` hold a street group's monopoly after getting ``square``?

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    player : int
        A seat.
    square : int
        A lot.

    Returns
    -------
    bool
        ``False`` for railroads and utilities.

    Examples
    --------
    >>> from models.io import load_state
    >>> view = GameView(load_state("instances/midgame-no-monopolies.json"), 2)
    >>> completes(view, 2, 39), blocks(view, 0, 39)  # Boardwalk: Cy holds Park Place
    (True, True)
    """
    group = view.board.squares[square].group
    assert group is not None
    if group in ("railroad", "utility"):
        return False
    return view.count_in_group(player, group) + 1 >= view.set_size(group)


def blocks(view: GameView, me: int, square: int) -> bool:
    """Would ``square`` complete a street group for an active opponent of ``me``?

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The seat.
    square : int
        A lot.

    Returns
    -------
    bool

    Examples
    --------
    >>> from models.io import load_state
    >>> blocks(GameView(load_state("instances/midgame-no-monopolies.json"), 0), 0, 39)  # Cy holds Park Place
    True
    """
    return any(completes(view, q, square) for q in view.active_players() if q != me)


def worst_rent(view: GameView, me: int) -> int:
    """The dearest rent ``me`` may face now: an opponent's unmortgaged street at its current rent
    (doubled on an unbuilt monopoly).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The seat.

    Returns
    -------
    int
        Dollars (0 when no opponent holds a street).

    Examples
    --------
    >>> from models.io import load_state
    >>> worst_rent(GameView(load_state("instances/late-game-house-shortage.json"), 2), 2)
    2000
    """
    worst = 0
    board = view.board
    for sq in board.property_squares:
        o = view.owner_of(sq)
        if o not in (BANK, me) and not view.is_mortgaged(sq):
            s = board.squares[sq]
            if s.kind == "street":
                level = view.level(sq)
                assert s.group is not None
                rent = s.rents[level] if level else s.rents[0] * (2 if view.has_monopoly(o, s.group) else 1)
                worst = max(worst, rent)
    return worst


def building_reserve(rules: BaselineRules, worst: int) -> float:
    """The cash the baseline keeps when building and lifting: ``reserve`` + ``danger`` x ``worst``.

    Parameters
    ----------
    rules : BaselineRules
        The parameters.
    worst : int
        The dearest rent it may face (:func:`worst_rent`).

    Returns
    -------
    float
        Dollars.

    Examples
    --------
    >>> building_reserve(BaselineRules(), 2000)
    650.0
    """
    return rules.reserve + rules.danger * worst


def static_valuation(board: Board, rules: Rules, horizon: float = STATIC_HORIZON) -> StaticValuation:
    """The baseline's static values for a game's board and rules (:func:`exact_landings_per_turn`).

    Parameters
    ----------
    board : Board
        The board.
    rules : Rules
        The rules (as the player knows them).
    horizon : float, default 30.0
        The rounds of rent counted.

    Returns
    -------
    StaticValuation

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> static_valuation(standard_board(), Rules()).horizon
    30.0
    """
    return StaticValuation(exact_landings_per_turn(board, rules), horizon)


def keep_of(view: GameView, me: int, rules: BaselineRules, caches: DecisionCaches) -> float:
    """The building reserve (:func:`building_reserve`), the worst rent cached by the position.

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The seat.
    rules : BaselineRules
        ``reserve``, ``danger``.
    caches : DecisionCaches
        The caches.

    Returns
    -------
    float
        Dollars.

    Examples
    --------
    >>> from models.io import load_state
    >>> keep_of(GameView(load_state("instances/late-game-house-shortage.json"), 2), 2, BaselineRules(), DecisionCaches())
    650.0
    """
    worst = caches.get("worst", (view.owner, view.houses, view.mortgaged, me), lambda: worst_rent(view, me))
    return building_reserve(rules, worst)


def valuation_of(view: GameView, caches: DecisionCaches) -> StaticValuation:
    """The static values for the view's board and rules (:func:`static_valuation`), cached.

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    caches : DecisionCaches
        The caches.

    Returns
    -------
    StaticValuation

    Examples
    --------
    >>> from models.io import load_state
    >>> caches, view = DecisionCaches(), GameView(load_state("instances/two-player.json"), 0)
    >>> valuation_of(view, caches) is valuation_of(view, caches)
    True
    """
    return caches.of_objects("valuation", (view.board, view.rules), lambda: static_valuation(view.board, view.rules))


__all__ = [
    "STATIC_HORIZON",
    "BaselineRules",
    "blocks",
    "building_reserve",
    "completes",
    "exact_landings_per_turn",
    "keep_of",
    "static_valuation",
    "valuation_of",
    "worst_rent",
]
