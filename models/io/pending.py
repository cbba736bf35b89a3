"""The ``pending`` object of the state format (version 3): parsing, writing and its rule checks.

A document of version ``monopoly-state/3`` may hold one pending question
(:mod:`models.pending`; docs/state-format.md#pending-questions):

``{"question": "offer", "from": NAME, "to": NAME, "trade": {"transfers": [...]}}``
    a trade ``from`` proposed, waiting on ``to`` (another participant);
``{"question": "debt", "debtor": NAME, "owed": N, "to": NAME | null}``
    ``debtor`` owes ``N`` (the whole payment, more than its cash) to ``to`` (``null`` or
    absent: the bank);
``{"question": "auction", "property": NAME, "bidders": [NAME, ...]}``
    the bank's lot auctioned among ``bidders`` (absent: every active player, from the
    player to move);
``{"question": "building_auction", "building": "house" | "hotel", "requester": NAME, "bidders": [NAME, ...]}``
    the bank's last buildings of a kind contested among ``bidders`` (the requester among them).

:func:`parse_pending` checks types, names and ranges; :func:`check_pending` the rules (run by
:func:`models.io.validate.validate_state`): the players named are active, the offer is a trade
its participants can make now (:meth:`models.trade.Trade.validate`), the debt is more than the
debtor's cash, the lot is the bank's, the bank holds a building of the kind and fewer than the
bidders.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from models.checks import expect_int, expect_list, expect_object, expect_str, key_path
from models.errors import InvalidStateError, InvalidTradeError
from models.limits import MAX_CASH
from models.pending import (
    BUILDINGS,
    Pending,
    PendingAuction,
    PendingBuildingAuction,
    PendingDebt,
    PendingOffer,
    Question,
)
from models.state import BANK, GameState
from models.trade import Trade

FIELD = "pending"
_KEYS = {
    Question.OFFER: (("question", "from", "to", "trade"), ("question", "from", "to", "trade")),
    Question.DEBT: (("question", "debtor", "owed", "to"), ("question", "debtor", "owed")),
    Question.AUCTION: (("question", "property", "bidders"), ("question", "property")),
    Question.BUILDING_AUCTION: (("question", "building", "requester", "bidders"), ("question", "building", "requester", "bidders")),
}
_TRANSFER_KEYS = ("from", "to", "properties", "cash", "jail_cards")
MAX_TRANSFERS = 64
"""Most transfers in a pending offer (as in a trade file)."""


def _player(value: Any, field: str, names: Mapping[str, int]) -> int:
    name = expect_str(value, field)
    if name not in names:
        raise InvalidStateError(field, f"{name!r} is not a player")
    return names[name]


def _players(value: Any, field: str, names: Mapping[str, int]) -> tuple[int, ...]:
    raw = expect_list(value, field, 1, len(names))
    seats = tuple(_player(v, key_path(field, i), names) for i, v in enumerate(raw))
    if len(set(seats)) != len(seats):
        raise InvalidStateError(field, "a player is named twice")
    return seats


def _trade(value: Any, field: str, names: Mapping[str, int], state: GameState) -> Trade:
    obj = expect_object(value, field, ("transfers",), ("transfers",))
    items = expect_list(obj["transfers"], key_path(field, "transfers"), 1, MAX_TRANSFERS)
    out = []
    for k, item in enumerate(items):
        where = key_path(key_path(field, "transfers"), k)
        t = expect_object(item, where, _TRANSFER_KEYS, ("from", "to"))
        props = expect_list(t.get("properties", []), key_path(where, "properties"), 0, len(state.board.property_squares))
        for i, p in enumerate(props):
            name = expect_str(p, key_path(key_path(where, "properties"), i))
            if name not in state.board.property_index:
                raise InvalidStateError(key_path(key_path(where, "properties"), i), f"{name!r} is not a property of the board")
        out.append(
            {
                "from": state.players[_player(t["from"], key_path(where, "from"), names)].name,
                "to": state.players[_player(t["to"], key_path(where, "to"), names)].name,
                "properties": list(props),
                "cash": expect_int(t.get("cash", 0), key_path(where, "cash"), 0, MAX_CASH),
                "jail_cards": expect_int(t.get("jail_cards", 0), key_path(where, "jail_cards"), 0, 2),
            }
        )
    return Trade.from_dict(out)


def parse_pending(doc: Any, state: GameState) -> Pending:
    """The ``pending`` object of a document: types, names and ranges (not the rules: :func:`check_pending`).

    Parameters
    ----------
    doc:
        The parsed object.
    state:
        The state parsed so far (its players and board name things).

    Returns
    -------
    Pending
        The question.

    Raises
    ------
    InvalidStateError
        An unknown question, key or name, a wrong type or a value out of range; ``field``
        names the place (``pending.owed``).

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> parse_pending({"question": "debt", "debtor": "Dee", "owed": 900, "to": "Ann"}, s)
    PendingDebt(debtor=3, owed=900, creditor=0)
    >>> parse_pending({"question": "auction", "property": "Water Works"}, s).bidders  # every active player, from Cy
    (2, 3, 0, 1)
    """
    kinds = tuple(str(q) for q in Question)
    if not isinstance(doc, Mapping):
        expect_object(doc, FIELD, ())
    question = Question(expect_str(doc.get("question"), key_path(FIELD, "question"), kinds))
    allowed, required = _KEYS[question]
    obj = expect_object(doc, FIELD, allowed, required)
    names = {p.name: i for i, p in enumerate(state.players)}

    def f(key: str) -> str:
        """The path of a field of the question, for error messages."""
        return key_path(FIELD, key)

    if question == Question.OFFER:
        return PendingOffer(_trade(obj["trade"], f("trade"), names, state), _player(obj["from"], f("from"), names), _player(obj["to"], f("to"), names))
    if question == Question.DEBT:
        creditor = None if obj.get("to") is None else _player(obj["to"], f("to"), names)
        return PendingDebt(_player(obj["debtor"], f("debtor"), names), expect_int(obj["owed"], f("owed"), 1, MAX_CASH), creditor)
    if question == Question.AUCTION:
        lot = expect_str(obj["property"], f("property"))
        if lot not in state.board.property_index:
            raise InvalidStateError(f("property"), f"{lot!r} is not a property of the board")
        if "bidders" in obj:
            bidders = _players(obj["bidders"], f("bidders"), names)
        else:
            n = len(state.players)
            bidders = tuple(i % n for i in range(state.to_move, state.to_move + n) if not state.players[i % n].bankrupt)
        return PendingAuction(state.board.property_index[lot], bidders)
    return PendingBuildingAuction(
        expect_str(obj["building"], f("building"), BUILDINGS),
        _player(obj["requester"], f("requester"), names),
        _players(obj["bidders"], f("bidders"), names),
    )


def pending_to_dict(state: GameState) -> dict[str, Any] | None:
    """The ``pending`` object of a state (``None`` without a question).

    Parameters
    ----------
    state:
        The state.

    Returns
    -------
    dict or None
        The object, as :func:`parse_pending` reads it back (bidders always written).
    """
    q = state.pending
    if q is None:
        return None

    def name(seat: int) -> str:
        """A seat's player name."""
        return state.players[seat].name

    if isinstance(q, PendingOffer):
        return {"question": "offer", "from": name(q.proposer), "to": name(q.responder), "trade": q.trade.to_dict()}
    if isinstance(q, PendingDebt):
        return {"question": "debt", "debtor": name(q.debtor), "owed": q.owed, "to": None if q.creditor is None else name(q.creditor)}
    if isinstance(q, PendingAuction):
        return {"question": "auction", "property": state.board.squares[q.square].name, "bidders": [name(b) for b in q.bidders]}
    return {"question": "building_auction", "building": q.building, "requester": name(q.requester), "bidders": [name(b) for b in q.bidders]}


def check_pending(state: GameState) -> None:
    """The rule checks of ``state.pending`` (module docstring); nothing without a question.

    Parameters
    ----------
    state:
        The state.

    Raises
    ------
    InvalidStateError
        The first rule broken, with its field (``pending.to`` ...).

    Examples
    --------
    >>> from models.io import load_state
    >>> from models.pending import PendingDebt
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> s.pending = PendingDebt(3, 100, 0)
    >>> check_pending(s)
    Traceback (most recent call last):
    ...
    models.errors.InvalidStateError: pending.owed: $100 is not more than Dee's cash ($465): there is nothing to raise
    """
    q = state.pending
    if q is None:
        return
    players = state.players

    def active(seat: int, field: str) -> None:
        if not 0 <= seat < len(players):
            raise InvalidStateError(field, f"player index {seat} does not exist")
        if players[seat].bankrupt:
            raise InvalidStateError(field, f"{players[seat].name!r} is bankrupt")

    if isinstance(q, PendingOffer):
        active(q.proposer, "pending.from")
        active(q.responder, "pending.to")
        who = q.trade.participants()
        if players[q.proposer].name not in who or players[q.responder].name not in who:
            raise InvalidStateError("pending.to", "the proposer and the player asked must both take part in the trade")
        if q.proposer == q.responder:
            raise InvalidStateError("pending.to", "the player asked is the proposer")
        try:
            q.trade.validate(state)
        except InvalidTradeError as err:
            raise InvalidStateError("pending.trade", str(err)) from None
    elif isinstance(q, PendingDebt):
        active(q.debtor, "pending.debtor")
        if q.creditor is not None:
            active(q.creditor, "pending.to")
            if q.creditor == q.debtor:
                raise InvalidStateError("pending.to", "the debtor cannot owe itself")
        cash = players[q.debtor].cash
        if q.owed <= cash:
            raise InvalidStateError("pending.owed", f"${q.owed} is not more than {players[q.debtor].name}'s cash (${cash}): there is nothing to raise")
    elif isinstance(q, PendingAuction):
        name = state.board.squares[q.square].name if 0 <= q.square < state.board.size else str(q.square)
        if q.square not in state.board.property_squares or state.owner[q.square] != BANK:
            raise InvalidStateError("pending.property", f"{name!r} is not a lot of the bank's: only the bank's lots are auctioned")
        if not q.bidders:
            raise InvalidStateError("pending.bidders", "an auction needs a bidder")
        for i, b in enumerate(q.bidders):
            active(b, key_path("pending.bidders", i))
    else:
        for i, b in enumerate(q.bidders):
            active(b, key_path("pending.bidders", i))
        if q.requester not in q.bidders:
            raise InvalidStateError("pending.requester", "the requester must be a bidder")
        if q.building not in BUILDINGS:
            raise InvalidStateError("pending.building", f"{q.building!r} is not a building (house or hotel)")
        supply = state.rules.houses if q.building == "house" else state.rules.hotels
        on_board = state.houses_on_board() if q.building == "house" else state.hotels_on_board()
        left = supply - on_board
        if not 1 <= left < len(q.bidders):
            raise InvalidStateError(
                "pending.bidders",
                f"the bank holds {left} {q.building}{'s' if left != 1 else ''} for {len(q.bidders)} bidders: "
                "a shortage auction needs at least one and fewer than the bidders",
            )


__all__ = ["check_pending", "parse_pending", "pending_to_dict"]
