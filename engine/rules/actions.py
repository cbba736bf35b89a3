"""What agents ask for (actions) and what they are told (events).

Actions name squares by index (``board.property_index`` maps names to
indices); trades name players and properties by name, as in the state file.
An agent answers ``act`` with one action, or ``None`` to end its phase; the
engine carries it out or raises :class:`models.errors.IllegalActionError`
(:func:`engine.rules.phases.apply`).

Examples
--------
>>> from models.board import standard_board
>>> board = standard_board()
>>> Build(board.property_index["Boardwalk"])
Build(square=39)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from models.errors import InvalidArgumentError
from models.names import Name
from models.trade import Trade


class EventKind(Name):
    """The kinds of :class:`Event` the reference engine emits; the values are the strings
    :data:`engine.rules.protocol.EVENT_KINDS` keys (an agent may compare ``event.kind`` with
    either). Each kind's data keys and when it is emitted: docs/agents.md#events.

    Examples
    --------
    >>> EventKind.CASH == "cash", EventKind("game_end") is EventKind.GAME_END
    (True, True)
    """

    GAME_START = "game_start"
    TURN = "turn"
    ROLL = "roll"
    MOVE = "move"
    CASH = "cash"
    CARD = "card"
    JAIL = "jail"
    LEAVE_JAIL = "leave_jail"
    ROLL_END = "roll_end"
    REFUSED = "refused"
    BUY = "buy"
    DECLINED = "declined"
    AUCTION = "auction"
    BUILD = "build"
    BUILDING_AUCTION = "building_auction"
    SELL_BUILDING = "sell_building"
    MORTGAGE = "mortgage"
    UNMORTGAGE = "unmortgage"
    EVEN_OUT = "even_out"
    TRADE = "trade"
    BANKRUPT = "bankrupt"
    GAME_END = "game_end"


class EndReason(Name):
    """Why a game ended (:attr:`engine.rules.game.GameResult.reason`, the ``game_end`` event).

    Examples
    --------
    >>> [str(r) for r in EndReason]
    ['bankruptcy', 'round_cap', 'round_limit', 'cash_target']
    """

    BANKRUPTCY = "bankruptcy"
    """One player is left."""
    ROUND_CAP = "round_cap"
    """The host's ``max_rounds`` complete rounds were played; the highest net worth wins."""
    ROUND_LIMIT = "round_limit"
    """``rules.round_limit`` rounds were played; the highest net worth wins."""
    CASH_TARGET = "cash_target"
    """A player holds ``rules.cash_target`` in cash at the end of a turn; the highest net worth wins."""


JailChoice = Literal["roll", "pay", "card"]
"""An answer to ``jail_choice``: roll for doubles, pay the fine, or use a Get Out of Jail Free card."""


@dataclass(frozen=True, slots=True)
class Build:
    """Buy one building (a house, or the hotel after four houses) for ``square``.

    Parameters
    ----------
    square:
        The street's square index; the rules of :func:`engine.rules.legal.why_not_build` apply.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> view = GameView(load_state("instances/late-game-house-shortage.json"), 0)
    >>> [Build(square) for square in view.legal_builds()]
    [Build(square=16), Build(square=18), Build(square=19)]
    """

    square: int


@dataclass(frozen=True, slots=True)
class SellBuilding:
    """Sell one building level of ``square`` back to the bank at half price.

    Selling a hotel when the bank holds fewer than four houses sells the group
    further down, evenly (see :func:`engine.rules.legal.hotel_break_levels`).

    Parameters
    ----------
    square:
        The street's square index; the rules of :func:`engine.rules.legal.why_not_sell_building` apply.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> view = GameView(load_state("instances/late-game-house-shortage.json"), 2)
    >>> [SellBuilding(square) for square in view.legal_building_sales()]
    [SellBuilding(square=6)]
    """

    square: int


@dataclass(frozen=True, slots=True)
class Mortgage:
    """Mortgage ``square``: the bank pays its mortgage value.

    Parameters
    ----------
    square:
        The property's square index; the rules of :func:`engine.rules.legal.why_not_mortgage` apply.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> view = GameView(load_state("instances/late-game-house-shortage.json"), 2)
    >>> [Mortgage(square) for square in view.legal_mortgages()]
    [Mortgage(square=1), Mortgage(square=29)]
    """

    square: int


@dataclass(frozen=True, slots=True)
class Unmortgage:
    """Lift the mortgage on ``square``: pay the mortgage value plus interest.

    Parameters
    ----------
    square:
        The property's square index; the rules of :func:`engine.rules.legal.why_not_unmortgage` apply.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> view = GameView(load_state("instances/mortgaged.json"), 2)
    >>> [Unmortgage(square) for square in view.legal_unmortgages()]
    [Unmortgage(square=11), Unmortgage(square=25)]
    """

    square: int


@dataclass(frozen=True, slots=True)
class ProposeTrade:
    """Propose ``trade`` to its other participants (:meth:`engine.rules.game.Game.propose_trade`).

    Parameters
    ----------
    trade:
        The trade; the proposer takes part in it (:func:`engine.rules.legal.why_not_propose`).

    Examples
    --------
    >>> from models.trade import Trade
    >>> action = ProposeTrade(Trade.bilateral("Ann", "Bob", ["Boardwalk"], cash_a_to_b=-300))
    >>> action.trade.net_cash("Ann"), action.trade.properties_received("Bob")
    (300, ['Boardwalk'])
    """

    trade: Trade


Action = Build | SellBuilding | Mortgage | Unmortgage | ProposeTrade
"""An answer to ``act`` or ``raise_cash`` (``raise_cash`` takes only sales, mortgages and trades)."""
ACTION_TYPES = (Build, SellBuilding, Mortgage, Unmortgage, ProposeTrade)
"""The classes of :data:`Action`, for ``isinstance``."""

ACTION_NAMES: Mapping[type, str] = {
    Build: "build", SellBuilding: "sell_building", Mortgage: "mortgage", Unmortgage: "unmortgage", ProposeTrade: "propose_trade"
}
"""Each kind of :data:`Action` -> its name in JSON (:func:`action_to_dict`)."""


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON object of an action: ``{"action": NAME, "square": INDEX}``, or for a trade
    ``{"action": "propose_trade", "trade": {...}}`` (:meth:`models.trade.Trade.to_dict`).

    Parameters
    ----------
    action:
        The action.

    Returns
    -------
    dict
        The object; :func:`action_from_dict` reads it back to an equal action.

    Examples
    --------
    >>> action_to_dict(Build(39))
    {'action': 'build', 'square': 39}
    >>> action_from_dict(action_to_dict(Mortgage(5))) == Mortgage(5)
    True
    """
    name = ACTION_NAMES[type(action)]
    if isinstance(action, ProposeTrade):
        return {"action": name, "trade": action.trade.to_dict()}
    return {"action": name, "square": action.square}


def action_from_dict(doc: Mapping[str, Any]) -> Action:
    """The action of a JSON object written by :func:`action_to_dict`.

    Parameters
    ----------
    doc:
        ``{"action": NAME, "square": INDEX}`` or ``{"action": "propose_trade", "trade": {...}}``.

    Returns
    -------
    Action

    Raises
    ------
    InvalidArgumentError
        Not such an object (one line naming what is wrong).

    Examples
    --------
    >>> action_from_dict({"action": "unmortgage", "square": 11})
    Unmortgage(square=11)
    >>> action_from_dict({"action": "sell"})
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: action: 'sell' is not one of build, sell_building, mortgage, unmortgage, propose_trade
    """
    kinds = {name: kind for kind, name in ACTION_NAMES.items()}
    name = doc.get("action") if isinstance(doc, Mapping) else None
    if name not in kinds:
        raise InvalidArgumentError(f"action: {name!r} is not one of {', '.join(kinds)}")
    if name == "propose_trade":
        try:
            return ProposeTrade(Trade.from_dict(doc["trade"]))
        except (KeyError, TypeError, ValueError) as err:
            raise InvalidArgumentError(f"action: not a trade ({err.__class__.__name__}: {err})") from None
    square = doc.get("square")
    if isinstance(square, bool) or not isinstance(square, int):
        raise InvalidArgumentError(f"action: square must be an integer, got {square!r}")
    result: Action = kinds[name](square)
    return result


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in play.

    ``kind`` is one of the keys of :data:`engine.rules.protocol.EVENT_KINDS`, which lists
    each kind's data keys (``turn`` starts a turn; ``cash`` moves money, the bank
    or the Free Parking pot being ``None``; ``declined`` is a lot left with the
    bank when auctions are off); docs/agents.md#the-protocol says when each is
    emitted.

    Every change of a player's cash is reported by exactly one ``cash``
    event, so an observer can account for every dollar.

    Parameters
    ----------
    kind:
        What happened.
    player:
        Whom it concerns most (the mover, the payer, the winner; the table in
        docs/agents.md#events), or ``None``.
    data:
        The kind's details, exactly the keys :data:`engine.rules.protocol.EVENT_KINDS` lists.

    Examples
    --------
    >>> event = Event("cash", 0, {"frm": 0, "to": None, "amount": 200, "why": "Income Tax"})
    >>> event.kind, event.data["amount"]
    ('cash', 200)
    """

    kind: str
    player: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
