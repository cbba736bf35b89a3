"""Trades: a list of transfers ``(from, to, properties, cash, jail_cards)``.

One shape covers a bilateral swap (two transfers), a purchase for cash (one
property transfer one way, cash the other), and a 3-way cycle (A->B, B->C,
C->A). All transfers take effect at once, so a player may pay with cash it
receives in the same trade (only its net cash must stay >= 0).

Rules enforced by :meth:`Trade.validate`:

* only active players, never to oneself, at least one thing moves;
* a property moves at most once per trade, from its owner, and only if its
  colour group carries no buildings ("unimproved groups only");
* cash and Get Out of Jail Free cards are non-negative and held;
* each receiver of a mortgaged property can pay what it owes at once: the
  interest (10%) now, or, if it chooses to lift the mortgage at acceptance,
  the mortgage value plus the interest.

Examples
--------
>>> from models.io import load_state
>>> from models.trade import Trade
>>> state = load_state("instances/mortgaged.json")
>>> trade = Trade.bilateral("Bob", "Cy", ["Boardwalk"], cash_a_to_b=-100)
>>> trade.validate(state)
>>> trade.mortgage_charges(state)  # Boardwalk is mortgaged: Cy pays 10% of $200 at once
{'Cy': 20}
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from models.errors import InvalidTradeError
from models.state import GameState


@dataclass(frozen=True, slots=True)
class Transfer:
    """What one player gives another in a trade.

    Attributes
    ----------
    frm:
        The giver's name.
    to:
        The receiver's name.
    properties:
        The names of the properties given.
    cash:
        Dollars given (>= 0).
    jail_cards:
        Get Out of Jail Free cards given (>= 0).

    Examples
    --------
    >>> from models.trade import Transfer
    >>> Transfer("Ann", "Bob", ("Boardwalk",), 50).to_dict()
    {'from': 'Ann', 'to': 'Bob', 'properties': ['Boardwalk'], 'cash': 50, 'jail_cards': 0}
    """

    frm: str
    to: str
    properties: tuple[str, ...] = ()
    cash: int = 0
    jail_cards: int = 0

    def is_empty(self) -> bool:
        """Whether nothing moves: no property, no cash, no card.

        Returns
        -------
        bool
            The answer.

        Examples
        --------
        >>> from models.trade import Transfer
        >>> Transfer("Ann", "Bob").is_empty(), Transfer("Ann", "Bob", cash=1).is_empty()
        (True, False)
        """
        return not self.properties and self.cash == 0 and self.jail_cards == 0

    def to_dict(self) -> dict[str, Any]:
        """The transfer's JSON object: ``from``, ``to``, ``properties``, ``cash``, ``jail_cards``.

        Returns
        -------
        dict[str, Any]
            Every key, also at its default.
        """
        return {
            "from": self.frm,
            "to": self.to,
            "properties": list(self.properties),
            "cash": self.cash,
            "jail_cards": self.jail_cards,
        }


@dataclass(frozen=True, slots=True)
class Trade:
    """A trade: transfers that all take effect at once (module docstring: its rules).

    Attributes
    ----------
    transfers:
        The transfers, in order (a player may appear in several).

    Examples
    --------
    >>> from models.trade import Trade
    >>> trade = Trade.bilateral("Ann", "Bob", ["Baltic Avenue"], ["Reading Railroad"], cash_a_to_b=-40)
    >>> trade.participants(), trade.properties_received("Ann"), trade.net_cash("Ann")
    (['Ann', 'Bob'], ['Reading Railroad'], 40)
    """

    transfers: tuple[Transfer, ...]

    # -- constructors ----------------------------------------------------
    @classmethod
    def bilateral(
        cls,
        a: str,
        b: str,
        a_gives: Sequence[str] = (),
        b_gives: Sequence[str] = (),
        cash_a_to_b: int = 0,
        cards_a_to_b: int = 0,
        cards_b_to_a: int = 0,
    ) -> Trade:
        """A two-player trade; a negative ``cash_a_to_b`` is paid by ``b``.

        Parameters
        ----------
        a, b:
            The two players' names.
        a_gives, b_gives:
            The properties each gives the other.
        cash_a_to_b:
            Dollars from ``a`` to ``b`` (negative: from ``b`` to ``a``).
        cards_a_to_b, cards_b_to_a:
            Get Out of Jail Free cards each gives the other.

        Returns
        -------
        Trade
            One transfer per direction in which something moves (none when nothing does).

        Examples
        --------
        >>> from models.trade import Trade
        >>> [(t.frm, t.to, t.cash) for t in Trade.bilateral("Ann", "Bob", ["Boardwalk"], cash_a_to_b=-300).transfers]
        [('Ann', 'Bob', 0), ('Bob', 'Ann', 300)]
        """
        ab = Transfer(a, b, tuple(a_gives), max(cash_a_to_b, 0), cards_a_to_b)
        ba = Transfer(b, a, tuple(b_gives), max(-cash_a_to_b, 0), cards_b_to_a)
        return cls(tuple(t for t in (ab, ba) if not t.is_empty()))

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> Trade:
        """A trade from its JSON document: ``{"transfers": [...]}`` or the list of transfers itself.

        Each transfer needs ``from`` and ``to``; ``properties``, ``cash`` and
        ``jail_cards`` default to none. The values are converted (``str``, ``int``),
        not checked: :meth:`validate` checks the trade against a state.

        Parameters
        ----------
        doc:
            The document (as :meth:`to_dict` writes it), or its ``transfers`` list.

        Returns
        -------
        Trade
            The trade.

        Raises
        ------
        KeyError
            A mapping without ``transfers``, or a transfer without ``from`` or ``to`` (a plain
            lookup of the document).

        Examples
        --------
        >>> from models.trade import Trade
        >>> trade = Trade.from_dict([{"from": "Ann", "to": "Bob", "cash": 25}])
        >>> trade.net_cash("Bob"), Trade.from_dict(trade.to_dict()) == trade
        (25, True)
        """
        items: Sequence[Mapping[str, Any]] = doc["transfers"] if isinstance(doc, Mapping) else doc
        return cls(
            tuple(
                Transfer(
                    str(t["from"]),
                    str(t["to"]),
                    tuple(t.get("properties", ())),
                    int(t.get("cash", 0)),
                    int(t.get("jail_cards", 0)),
                )
                for t in items
            )
        )

    def to_dict(self) -> dict[str, Any]:
        """The trade's JSON document: ``{"transfers": [...]}`` (:meth:`Transfer.to_dict` each).

        Returns
        -------
        dict[str, Any]
            The document; :meth:`from_dict` reads it back to an equal trade.
        """
        return {"transfers": [t.to_dict() for t in self.transfers]}

    # -- queries ---------------------------------------------------------
    def participants(self) -> list[str]:
        """The players the trade involves, in order of first appearance (giver before receiver).

        Returns
        -------
        list[str]
            Their names, each once.

        Examples
        --------
        >>> from models.trade import Trade, Transfer
        >>> Trade((Transfer("Ann", "Bob", cash=1), Transfer("Bob", "Cy", cash=1), Transfer("Cy", "Ann", cash=1))).participants()
        ['Ann', 'Bob', 'Cy']
        """
        seen: list[str] = []
        for t in self.transfers:
            for name in (t.frm, t.to):
                if name not in seen:
                    seen.append(name)
        return seen

    def properties_received(self, name: str) -> list[str]:
        """The properties ``name`` receives, in transfer order.

        Parameters
        ----------
        name:
            A player's name.

        Returns
        -------
        list[str]
            The properties' names.
        """
        return [p for t in self.transfers if t.to == name for p in t.properties]

    def properties_given(self, name: str) -> list[str]:
        """The properties ``name`` gives, in transfer order.

        Parameters
        ----------
        name:
            A player's name.

        Returns
        -------
        list[str]
            The properties' names.

        Examples
        --------
        >>> from models.trade import Trade
        >>> Trade.bilateral("Ann", "Bob", ["Baltic Avenue", "Boardwalk"]).properties_given("Ann")
        ['Baltic Avenue', 'Boardwalk']
        """
        return [p for t in self.transfers if t.frm == name for p in t.properties]

    def net_cash(self, name: str) -> int:
        """The cash ``name`` receives less the cash it gives (mortgage charges not counted: :meth:`mortgage_charges`).

        Parameters
        ----------
        name:
            A player's name.

        Returns
        -------
        int
            Dollars (negative: it pays).

        Examples
        --------
        >>> from models.trade import Trade
        >>> trade = Trade.bilateral("Ann", "Bob", cash_a_to_b=120)
        >>> trade.net_cash("Ann"), trade.net_cash("Bob")
        (-120, 120)
        """
        return sum(t.cash for t in self.transfers if t.to == name) - sum(t.cash for t in self.transfers if t.frm == name)

    def net_jail_cards(self, name: str) -> int:
        """The Get Out of Jail Free cards ``name`` receives less those it gives.

        Parameters
        ----------
        name:
            A player's name.

        Returns
        -------
        int
            Cards (negative: it gives more than it gets).

        Examples
        --------
        >>> from models.trade import Trade
        >>> Trade.bilateral("Ann", "Bob", cash_a_to_b=10, cards_b_to_a=1).net_jail_cards("Ann")
        1
        """
        return sum(t.jail_cards for t in self.transfers if t.to == name) - sum(
            t.jail_cards for t in self.transfers if t.frm == name
        )

    def mortgage_charges(self, state: GameState, lift: Mapping[str, bool] | None = None) -> dict[str, int]:
        """Cash each receiver owes the bank for mortgaged properties it receives.

        The interest is due at once; a receiver that lifts the mortgage at
        acceptance (``lift[property]`` true) pays the mortgage value as well.

        Parameters
        ----------
        state:
            The state the trade is made in (which lots are mortgaged, their values, the interest rule).
        lift:
            Property -> whether its receiver lifts the mortgage at acceptance (``None``: none is lifted).

        Returns
        -------
        dict[str, int]
            Receiver's name -> dollars due to the bank (only receivers of a mortgaged lot).

        Examples
        --------
        >>> from models.io import load_state
        >>> from models.trade import Trade
        >>> state = load_state("instances/mortgaged.json")
        >>> trade = Trade.bilateral("Bob", "Cy", ["Boardwalk"], cash_a_to_b=-100)
        >>> trade.mortgage_charges(state), trade.mortgage_charges(state, {"Boardwalk": True})
        ({'Cy': 20}, {'Cy': 220})
        """
        lift = lift or {}
        due: dict[str, int] = {}
        for t in self.transfers:
            for prop in t.properties:
                sq = state.square_of(prop)
                if state.mortgaged[sq]:
                    value = state.mortgage_value(sq)
                    cost = state.rules.interest(value) + (value if lift.get(prop, False) else 0)
                    due[t.to] = due.get(t.to, 0) + cost
        return due

    # -- validation and application ------------------------------------------
    def validate(self, state: GameState, lift: Mapping[str, bool] | None = None) -> None:
        """Check that the trade can happen in ``state`` (the rules of the module docstring).

        Parameters
        ----------
        state:
            The state (not changed).
        lift:
            Property -> whether its receiver lifts the mortgage at acceptance, which
            it must then be able to pay (:meth:`mortgage_charges`).

        Raises
        ------
        InvalidTradeError
            The first rule broken: no transfer or nothing moves, an unknown or
            bankrupt player, a player trading with itself, a negative amount, an
            unknown property, one that moves twice, is not the giver's, or lies in
            a group with buildings, more jail cards given than held, or a player
            whose cash would fall below 0.

        Examples
        --------
        >>> from models.io import load_state
        >>> from models.trade import Trade
        >>> state = load_state("instances/mortgaged.json")
        >>> Trade.bilateral("Bob", "Cy", ["Boardwalk"], cash_a_to_b=-250).validate(state)
        Traceback (most recent call last):
        ...
        models.errors.InvalidTradeError: Cy cannot pay: its cash would be -120 after the trade
        """
        if not self.transfers:
            raise InvalidTradeError("a trade needs at least one transfer")
        names = {p.name: i for i, p in enumerate(state.players)}
        moved: set[str] = set()
        cards_out: dict[str, int] = {}
        anything = False
        for k, t in enumerate(self.transfers):
            where = f"transfers[{k}]"
            for role, name in (("from", t.frm), ("to", t.to)):
                if name not in names:
                    raise InvalidTradeError(f"{where}.{role}: unknown player {name!r}")
                if state.players[names[name]].bankrupt:
                    raise InvalidTradeError(f"{where}.{role}: {name} is bankrupt")
            if t.frm == t.to:
                raise InvalidTradeError(f"{where}: a player cannot trade with itself")
            if t.cash < 0 or t.jail_cards < 0:
                raise InvalidTradeError(f"{where}: cash and jail_cards must be >= 0")
            cards_out[t.frm] = cards_out.get(t.frm, 0) + t.jail_cards
            for prop in t.properties:
                if prop not in state.board.property_index:
                    raise InvalidTradeError(f"{where}.properties: unknown property {prop!r}")
                if prop in moved:
                    raise InvalidTradeError(f"{where}.properties: {prop} moves twice")
                moved.add(prop)
                sq = state.square_of(prop)
                if state.owner[sq] != names[t.frm]:
                    raise InvalidTradeError(f"{where}.properties: {t.frm} does not own {prop}")
                group = state.group_of(sq)
                if state.group_has_buildings(group):
                    raise InvalidTradeError(f"{where}.properties: {prop} is in the {group} group, which has buildings")
            anything = anything or not t.is_empty()
        if not anything:
            raise InvalidTradeError("the trade moves nothing")
        for name, n in cards_out.items():
            if n > state.players[names[name]].jail_cards:
                raise InvalidTradeError(f"{name} gives {n} Get Out of Jail Free cards but holds fewer")
        due = self.mortgage_charges(state, lift)
        for name in self.participants():
            after = state.players[names[name]].cash + self.net_cash(name) - due.get(name, 0)
            if after < 0:
                raise InvalidTradeError(f"{name} cannot pay: its cash would be {after} after the trade")

    def apply(self, state: GameState, lift: Mapping[str, bool] | None = None) -> dict[str, int]:
        """Carry the trade out on ``state``, validated first.

        The moves themselves are :func:`apply_moves`'s (the one implementation,
        shared with the trade search); this method checks the trade
        (:meth:`validate`) and translates names to indices.

        Parameters
        ----------
        state:
            The state, changed in place.
        lift:
            Per mortgaged property received, whether its receiver lifts the
            mortgage at acceptance (default: none is lifted). Lifted mortgages
            are cleared; others stay mortgaged (the receiver will pay the
            interest again when it lifts them later).

        Returns
        -------
        dict[str, int]
            The mortgage charges paid to the bank, per receiver name, in the
            order of :meth:`mortgage_charges` (a receiver of a mortgaged
            property is listed even when its charge is 0).

        Raises
        ------
        InvalidTradeError
            When the trade cannot happen in ``state``; ``state`` is then unchanged.

        Examples
        --------
        >>> from models.io import load_state
        >>> s = load_state("instances/midgame-no-monopolies.json")
        >>> sale = Trade.bilateral("Ann", "Bob", a_gives=["Reading Railroad"], cash_a_to_b=-50)
        >>> sale.apply(s)
        {}
        >>> s.owner[s.square_of("Reading Railroad")], s.players[0].cash, s.players[1].cash
        (1, 470, 335)
        >>> sale.apply(s)
        Traceback (most recent call last):
        ...
        models.errors.InvalidTradeError: transfers[0].properties: Ann does not own Reading Railroad
        """
        self.validate(state, lift)
        lift = lift or {}
        idx = {p.name: i for i, p in enumerate(state.players)}
        moves: list[tuple[int, int, int]] = []
        cash: list[tuple[int, int, int]] = []
        cards: list[tuple[int, int, int]] = []
        lifted: set[int] = set()
        for t in self.transfers:
            a, b = idx[t.frm], idx[t.to]
            cash.append((a, b, t.cash))
            cards.append((a, b, t.jail_cards))
            for prop in t.properties:
                sq = state.square_of(prop)
                moves.append((sq, a, b))
                if lift.get(prop, False):
                    lifted.add(sq)
        due = apply_moves(state, moves, cash, cards, lifted)
        return {state.players[i].name: amount for i, amount in due.items()}


def apply_moves(
    state: GameState,
    moves: Iterable[tuple[int, int, int]],
    cash: Iterable[tuple[int, int, int]] = (),
    jail_cards: Iterable[tuple[int, int, int]] = (),
    lift: Collection[int] = frozenset(),
) -> dict[int, int]:
    """Carry out a trade given by indices, in place and unchecked: the one place where a trade
    moves properties, cash and Get Out of Jail Free cards and charges for mortgaged properties.

    Each receiver of a mortgaged property pays the bank the interest
    (``rules.interest`` of its mortgage value) at once; for a property in
    ``lift`` it also pays the mortgage value and the mortgage is cleared,
    otherwise the property stays mortgaged. The bank's cash is not touched (the
    engine counts it, :mod:`engine.rules.game`).

    Nothing is checked: :meth:`Trade.apply` validates first and calls this. The
    trade search (:func:`solver.trades.space.after_state`) calls it directly on
    every candidate, for two reasons: the pruning funnel must see the state
    after every candidate, also those a payer cannot afford (rule 4 counts
    them, validation would refuse them), and validation with the translation
    of names is five times the cost of the moves (about 12 against 2
    microseconds a candidate) on a path that evaluates thousands of candidates
    built legal by the trade space itself.

    Parameters
    ----------
    state:
        The state, changed in place.
    moves:
        ``(square, giver, receiver)`` per property.
    cash:
        ``(payer, payee, amount)`` per payment (``amount >= 0``).
    jail_cards:
        ``(giver, receiver, count)`` per handover of jail cards.
    lift:
        Squares whose receiver lifts the mortgage now (ignored when not mortgaged).

    Returns
    -------
    dict[int, int]
        The charge paid per receiver of a mortgaged property (player index),
        in the order of first receipt; 0 stays listed (``mortgage_interest`` 0).

    Examples
    --------
    >>> from models.state import GameState
    >>> s = GameState.new_game(["Ann", "Bob"])
    >>> s.owner[1], s.mortgaged[1] = 0, True  # Mediterranean Avenue, mortgaged for $30
    >>> apply_moves(s, [(1, 0, 1)], [(1, 0, 100)])
    {1: 3}
    >>> s.owner[1], s.mortgaged[1], s.players[0].cash, s.players[1].cash
    (1, True, 1600, 1397)
    """
    due: dict[int, int] = {}
    owner, mortgaged, players = state.owner, state.mortgaged, state.players
    for sq, _giver, receiver in moves:
        owner[sq] = receiver
        if mortgaged[sq]:
            value = state.mortgage_value(sq)
            cost = state.rules.interest(value)
            if sq in lift:
                cost += value
                mortgaged[sq] = False
            due[receiver] = due.get(receiver, 0) + cost
            players[receiver].cash -= cost
    for payer, payee, amount in cash:
        players[payer].cash -= amount
        players[payee].cash += amount
    for giver, receiver, count in jail_cards:
        players[giver].jail_cards -= count
        players[receiver].jail_cards += count
    return due
