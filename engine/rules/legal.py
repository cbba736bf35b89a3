"""Legality of building, selling, mortgaging and lifting mortgages (pure functions).

Each ``why_not_*`` function returns ``None`` when the action is legal, else a
short reason; the engine raises :class:`models.errors.IllegalActionError`
with it. The rules (standard US):

* build only on streets of a group where the player holds a monopoly
  (``GameState.has_monopoly``, which honours ``set_size``) and none of its
  lots in that group is mortgaged; evenly: a lot may gain a level only if it
  is at the group's lowest level (over the player's lots of the group); a
  hotel needs four houses on every such lot; houses and hotels come from the
  bank's limited supply; the player pays cash it has;
* sell evenly: only from a lot at the group's highest level; a hotel is
  broken into four houses when the bank holds four, otherwise the group is
  sold further down (:func:`hotel_break_levels`);
* without the even-building rule (``rules.even_building`` false) a lot may
  gain or lose a level whatever the others hold, a hotel needs four houses on
  its own lot only, and a hotel sold under a house shortage leaves its lot
  with the houses the bank can give (the other lots keep theirs);
* mortgage only a property whose group carries no buildings;
* lift a mortgage by paying the mortgage value plus interest.
"""

from __future__ import annotations

from models.board import HOTEL
from models.errors import IllegalActionError, InvalidTradeError
from models.state import GameState
from models.trade import Trade


def require_legal(reason: str | None) -> None:
    """Refuse an action with the reason a ``why_not_*`` function gave (``None``: legal, nothing happens).

    Parameters
    ----------
    reason:
        What a ``why_not_*`` function returned.

    Raises
    ------
    IllegalActionError
        ``reason`` is not ``None``; its message is the reason.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> require_legal(why_not_build(state, 1, 21))
    >>> require_legal(why_not_build(state, 3, 21))
    Traceback (most recent call last):
    ...
    models.errors.IllegalActionError: Kentucky Avenue is not yours
    """
    if reason is not None:
        raise IllegalActionError(reason)


def _player_lots(state: GameState, player: int, group: str) -> list[int]:
    return [sq for sq in state.board.groups[group] if state.owner[sq] == player]


def why_not_build(state: GameState, player: int, square: int, *, ignore_cash: bool = False) -> str | None:
    """Why ``player`` may not build one level on ``square`` now (the rules in the module docstring).

    Parameters
    ----------
    state:
        The game state.
    player:
        The player's seat.
    square:
        The lot.
    ignore_cash:
        Check every rule but the cash (a building the player could place if it had the money).

    Returns
    -------
    str or None
        ``None`` if it may, else the reason.

    Examples
    --------
    >>> from models.state import GameState
    >>> state = GameState.new_game(["A", "B"])
    >>> state.owner[1] = state.owner[3] = 0  # the brown group to A
    >>> why_not_build(state, 0, 1) is None, why_not_build(state, 1, 1)
    (True, 'Mediterranean Avenue is not yours')
    >>> state.houses[1] = 1
    >>> why_not_build(state, 0, 1)
    "uneven building: Mediterranean Avenue is above the group's lowest level"
    """
    sq = state.board.squares[square]
    if sq.kind != "street":
        return f"{sq.name} is not a street"
    if state.owner[square] != player:
        return f"{sq.name} is not yours"
    group = sq.group
    assert group is not None
    if not state.can_build_on_group(player, group):
        return f"the {group} group is not a complete, unmortgaged set in your hand"
    level = state.houses[square]
    if level >= HOTEL:
        return f"{sq.name} already has a hotel"
    lots = _player_lots(state, player, group)
    if state.rules.even_building and level > min(state.houses[s] for s in lots):
        return f"uneven building: {sq.name} is above the group's lowest level"
    if level == HOTEL - 1:
        if state.hotels_in_bank() < 1:
            return "the bank has no hotel left"
    elif state.houses_in_bank() < 1:
        return "the bank has no house left"
    if not ignore_cash and state.players[player].cash < sq.house_cost:
        return f"not enough cash for a building on {sq.name} (${sq.house_cost})"
    return None


def why_not_sell_building(state: GameState, player: int, square: int) -> str | None:
    """Why ``player`` may not sell a building level of ``square`` now: it must own the lot, the lot
    must have a building and, under even building, stand at the group's highest level.

    Parameters
    ----------
    state:
        The game state.
    player:
        The player's seat.
    square:
        The lot.

    Returns
    -------
    str or None
        ``None`` if it may, else the reason.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> why_not_sell_building(state, 2, 6), why_not_sell_building(state, 2, 8)
    (None, "uneven selling: Vermont Avenue is below the group's highest level")
    """
    sq = state.board.squares[square]
    if state.owner[square] != player:
        return f"{sq.name} is not yours"
    level = state.houses[square]
    if level == 0:
        return f"{sq.name} has no building"
    group = sq.group
    assert group is not None
    if state.rules.even_building and level < max(state.houses[s] for s in _player_lots(state, player, group)):
        return f"uneven selling: {sq.name} is below the group's highest level"
    return None


def why_not_mortgage(state: GameState, player: int, square: int) -> str | None:
    """Why ``player`` may not mortgage ``square`` now: it must own the property, unmortgaged, in a
    group without buildings.

    Parameters
    ----------
    state:
        The game state.
    player:
        The player's seat.
    square:
        The property.

    Returns
    -------
    str or None
        ``None`` if it may, else the reason.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> why_not_mortgage(state, 2, 1), why_not_mortgage(state, 2, 6)
    (None, 'the light_blue group has buildings: sell them first')
    """
    sq = state.board.squares[square]
    if not sq.is_property:
        return f"{sq.name} is not a property"
    if state.owner[square] != player:
        return f"{sq.name} is not yours"
    if state.mortgaged[square]:
        return f"{sq.name} is already mortgaged"
    if state.group_has_buildings(state.group_of(square)):
        return f"the {sq.group} group has buildings: sell them first"
    return None


def why_not_unmortgage(state: GameState, player: int, square: int) -> str | None:
    """Why ``player`` may not lift the mortgage on ``square`` now: it must own it, mortgaged, and
    have the mortgage value plus interest (``rules.unmortgage_cost``) in cash.

    Parameters
    ----------
    state:
        The game state.
    player:
        The player's seat.
    square:
        The property.

    Returns
    -------
    str or None
        ``None`` if it may, else the reason.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> why_not_unmortgage(state, 2, 11), why_not_unmortgage(state, 2, 1)
    (None, 'Mediterranean Avenue is not mortgaged')
    """
    sq = state.board.squares[square]
    if not sq.is_property or state.owner[square] != player:
        return f"{sq.name} is not yours"
    if not state.mortgaged[square]:
        return f"{sq.name} is not mortgaged"
    cost = state.rules.unmortgage_cost(state.mortgage_value(square))
    if state.players[player].cash < cost:
        return f"not enough cash to lift the mortgage on {sq.name} (${cost})"
    return None


def hotel_break_levels(state: GameState, player: int, square: int) -> dict[int, int]:
    """New building levels when the hotel on ``square`` is sold.

    With four houses in the bank the hotel becomes four houses. Under a
    shortage the owner sells further down, evenly: the largest ``L`` in 4..0
    is taken such that ``square`` drops to ``L`` and every other lot of the
    player's group is left at ``L`` or ``L + 1`` (never above its present
    level), with the houses the new levels need coming out of the bank's
    stock (plus the houses the group gives back). A hotel left standing needs
    no house. Among the feasible choices for that ``L``, the other lots are
    kept at ``L + 1`` greedily, in board order, while the houses last. With
    no feasible ``L`` the whole group is sold to bare land.

    Without the even-building rule only ``square`` changes: to four houses, or as many as
    the bank holds.

    Parameters
    ----------
    state:
        The game state.
    player:
        The hotel's owner.
    square:
        The lot whose hotel is sold.

    Returns
    -------
    dict
        ``{square: new_level}`` for every lot whose level changes.

    Examples
    --------
    >>> from models.rules import Rules
    >>> from models.state import GameState
    >>> state = GameState.new_game(["A", "B"], rules=Rules(houses=2))  # a bank of two houses
    >>> for sq in (37, 39):  # hotels on Park Place and Boardwalk
    ...     state.owner[sq], state.houses[sq] = 0, 5
    >>> hotel_break_levels(state, 0, 39)  # one house each: the two the bank has
    {37: 1, 39: 1}
    """
    if not state.rules.even_building:
        return {square: min(HOTEL - 1, state.houses_in_bank())}
    lots = _player_lots(state, player, state.group_of(square))
    old = {s: state.houses[s] for s in lots}
    bank = state.houses_in_bank() + sum(v for v in old.values() if v < HOTEL)

    def houses(levels: dict[int, int]) -> int:
        return sum(v for v in levels.values() if v < HOTEL)

    for target in range(HOTEL - 1, -1, -1):
        choices = {s: sorted({min(v, target), min(v, target + 1)}) for s, v in old.items() if s != square}
        # Fewest houses first: a standing hotel needs none, else the lower level.
        new = {s: min(opts, key=lambda lv: (lv if lv < HOTEL else 0, lv)) for s, opts in choices.items()}
        new[square] = target
        if houses(new) > bank:
            continue
        for s, opts in choices.items():
            if new[s] < opts[-1]:
                trial = {**new, s: opts[-1]}
                if houses(trial) <= bank:
                    new = trial
        return {s: v for s, v in new.items() if v != old[s]}
    return {s: 0 for s, v in old.items() if v}


def legal_builds(state: GameState, player: int) -> list[int]:
    """Where ``player`` may build one level now (:func:`why_not_build`).

    Parameters
    ----------
    state:
        The game state.
    player:
        The player's seat.

    Returns
    -------
    list of int
        The lots, group by group.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> legal_builds(state, 0), legal_builds(state, 3)
    ([16, 18, 19], [])
    """
    out = []
    for group in state.complete_groups(player):
        for sq in state.board.groups[group]:
            if state.owner[sq] == player and why_not_build(state, player, sq) is None:
                out.append(sq)
    return out


def legal_building_sales(state: GameState, player: int) -> list[int]:
    """Where ``player`` may sell a building level now (:func:`why_not_sell_building`).

    Parameters
    ----------
    state:
        The game state.
    player:
        The player's seat.

    Returns
    -------
    list of int
        The lots, in board order.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> legal_building_sales(state, 2)
    [6]
    """
    return [
        sq
        for sq in state.board.property_squares
        if state.owner[sq] == player and state.houses[sq] and why_not_sell_building(state, player, sq) is None
    ]


def legal_mortgages(state: GameState, player: int) -> list[int]:
    """What ``player`` may mortgage now (:func:`why_not_mortgage`).

    Parameters
    ----------
    state:
        The game state.
    player:
        The player's seat.

    Returns
    -------
    list of int
        The properties, in board order.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> legal_mortgages(state, 2)
    [1, 29]
    """
    return [
        sq
        for sq in state.board.property_squares
        if state.owner[sq] == player and why_not_mortgage(state, player, sq) is None
    ]


def legal_unmortgages(state: GameState, player: int) -> list[int]:
    """Which mortgages ``player`` may lift now, cash included (:func:`why_not_unmortgage`).

    Parameters
    ----------
    state:
        The game state.
    player:
        The player's seat.

    Returns
    -------
    list of int
        The properties, in board order.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> legal_unmortgages(state, 2)
    [11, 31]
    """
    return [
        sq
        for sq in state.board.property_squares
        if state.owner[sq] == player and state.mortgaged[sq] and why_not_unmortgage(state, player, sq) is None
    ]


def tradable_properties(state: GameState, player: int) -> list[int]:
    """Properties ``player`` may trade away: those whose group has no buildings.

    Parameters
    ----------
    state:
        The game state.
    player:
        The player's seat.

    Returns
    -------
    list of int
        The properties, in board order.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> tradable_properties(state, 2)
    [1, 11, 29, 31]
    """
    return [
        sq
        for sq in state.board.property_squares
        if state.owner[sq] == player and not state.group_has_buildings(state.group_of(sq))
    ]


def why_not_propose(state: GameState, player: int, trade: Trade) -> str | None:
    """Why ``player`` may not propose ``trade`` now: a proposer must take part in its trade, and the
    trade must be valid now (:meth:`models.trade.Trade.validate`).

    Parameters
    ----------
    state:
        The game state.
    player:
        The proposer's seat.
    trade:
        The trade.

    Returns
    -------
    str or None
        ``None`` if it may, else the reason.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> from models.trade import Trade
    >>> why_not_propose(state, 0, Trade.bilateral("Bob", "Cy", ["Reading Railroad"]))
    'Ann proposes a trade it takes no part in'
    >>> why_not_propose(state, 1, Trade.bilateral("Bob", "Cy", cash_a_to_b=50)) is None
    True
    """
    if state.players[player].name not in trade.participants():
        return f"{state.players[player].name} proposes a trade it takes no part in"
    try:
        trade.validate(state)
    except InvalidTradeError as err:
        return f"invalid trade: {err}"
    return None
