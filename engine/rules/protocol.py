"""The agent protocol: what the engine asks a seat (:class:`Agent`) and tells it (:data:`EVENT_KINDS`).

An agent is asked at each decision point and told what happens through
``notify``. It sees a :class:`engine.rules.view.GameView` (read-only), never the
engine. Decision points:

==================  ==========================================================
``buy``             landing on an unowned property with cash for it
``auction_max``     the most it would pay in an auction (0 = no bid)
``jail_choice``     before rolling in jail: ``roll``, ``pay`` or ``card``
``act``             between turns and after each of its own rolls: one
                    :data:`engine.rules.actions.Action` at a time, ``None`` to stop
``accept_trade``    another player proposes a trade that involves it
``lift_on_receipt`` it receives a mortgaged property: lift now (``True``) or
                    pay the interest only
``raise_cash``      it owes ``owed`` and lacks the cash: one action at a time
                    (sell, mortgage, propose a trade), ``None`` to stop
``building_bid``    a shortage auction for the bank's last houses/hotels: the
                    most it pays above the list price, ``None`` = not wanted
``place_building``  it won a shortage auction: where to put the building
==================  ==========================================================

During ``act`` and ``raise_cash`` the view says how much of the phase is
left (``view.actions_left``, ``view.trades_left``; ``None`` at the other
questions). A host may refuse an answer of those phases although the rules
allow it (``Game.refusal``): the player is told by a ``refused`` event naming
the move, and the phase goes on; an agent does not ask for it again in the
same position (:mod:`engine.rules.refusals`). Every event kind and its data fields are in :data:`EVENT_KINDS`;
a ``turn`` event starts each turn (agents reset their once-per-turn state
on it). docs/agents.md#the-protocol says what the host does with each
answer, illegal ones included. Two agents answer it in
:mod:`engine.rules.agents`: the passive :class:`engine.rules.agents.BaseAgent`
and the random :class:`engine.rules.agents.RandomAgent`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Protocol, runtime_checkable

from engine.rules.actions import Action, Event, JailChoice
from engine.rules.view import GameView
from models.trade import Trade

EVENT_KINDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "game_start": ("round", "resumed"),
        "turn": ("round",),
        "roll": ("dice", "doubles", "why"),
        "move": ("frm", "to", "passed_go", "why"),
        "cash": ("frm", "to", "amount", "why"),
        "card": ("deck", "card", "text"),
        "jail": ("why",),
        "leave_jail": ("how",),
        "roll_end": ("position", "in_jail"),
        "refused": ("action", "why"),
        "buy": ("square", "price"),
        "declined": ("square",),
        "auction": ("square", "winner", "price"),
        "build": ("square", "level", "premium"),
        "building_auction": ("building", "premium", "requester"),
        "sell_building": ("square", "levels"),
        "mortgage": ("square",),
        "unmortgage": ("square",),
        "even_out": ("levels",),
        "trade": ("trade", "accepted", "refused_by", "lifted"),
        "bankrupt": ("creditor", "properties"),
        "game_end": ("reason",),
    }
)
"""Every kind of :class:`engine.rules.actions.Event` the reference engine emits -> the keys of its
``data`` (``trade``: ``refused_by`` when refused, ``lifted`` when accepted; every other kind
carries exactly its keys). docs/agents.md#events says when each is emitted and what
``player`` is."""


@runtime_checkable
class Agent(Protocol):
    """What the engine asks a seat, and tells it (the table in this module's docstring).

    Every question comes with the asker's :class:`engine.rules.view.GameView`;
    an answer the rules do not allow raises
    :class:`models.errors.IllegalActionError` out of
    :meth:`engine.rules.game.Game.play` (docs/agents.md#questions says what the
    host does with each answer).

    Attributes
    ----------
    name:
        The agent's registry name (``random``, ``strategic``, ...).

    Examples
    --------
    The protocol is structural: any object with these methods is an agent, and the engine
    plays it.

    >>> from engine.rules.agents import RandomAgent
    >>> from engine.rules.game import new_game
    >>> from engine.rules.streams import SeededStream
    >>> isinstance(RandomAgent(seed=1), Agent)
    True
    >>> game = new_game(["Ann", "Bob"], [RandomAgent(seed=1), RandomAgent(seed=2)], SeededStream(7), max_rounds=30)
    >>> result = game.play()
    >>> result.winner, result.reason, result.rounds
    ('Bob', 'round_cap', 30)
    """

    name: str

    def start_game(self, me: int, names: tuple[str, ...]) -> None:
        """Once, when the game is built.

        Parameters
        ----------
        me:
            The agent's seat.
        names:
            Every player's name, in seat order.
        """

    def notify(self, event: Event) -> None:
        """Every event of the game, before the observers.

        Parameters
        ----------
        event:
            What happened (:data:`EVENT_KINDS` lists the kinds).
        """

    def buy(self, view: GameView, square: int) -> bool:
        """It landed on the bank's ``square`` with the cash for it: buy at list price?

        Parameters
        ----------
        view:
            The game as this seat sees it.
        square:
            The lot's square index.

        Returns
        -------
        bool
            ``True`` buys; anything falsy declines (the lot is auctioned, or stays with the bank).
        """

    def auction_max(self, view: GameView, square: int) -> int:
        """``square`` is auctioned: the most it would pay.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        square:
            The lot's square index.

        Returns
        -------
        int
            Its maximum (0: no bid), clamped to 0..its cash by the engine.
        """

    def jail_choice(self, view: GameView) -> JailChoice:
        """Its turn in jail: how to get out.

        Parameters
        ----------
        view:
            The game as this seat sees it.

        Returns
        -------
        JailChoice
            ``roll`` (for doubles), ``pay`` (the fine) or ``card`` (a Get Out of Jail Free card).
        """

    def act(self, view: GameView) -> Action | None:
        """Its ``act`` phase (between turns, and after each of its rolls): one action at a time.

        Parameters
        ----------
        view:
            The game as this seat sees it, with the phase's budget
            (``view.actions_left``, ``view.trades_left``).

        Returns
        -------
        Action or None
            One legal action, or ``None`` to end the phase.
        """

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        """Another player proposes ``trade``, in which it takes part: accept?

        Parameters
        ----------
        view:
            The game as this seat sees it.
        trade:
            The proposal.

        Returns
        -------
        bool
            ``True`` accepts; anything falsy refuses (the trade is off).
        """

    def lift_on_receipt(self, view: GameView, square: int) -> bool:
        """It receives the mortgaged ``square`` (a trade, or a bankrupt's estate): lift the mortgage now?

        Parameters
        ----------
        view:
            The game as this seat sees it.
        square:
            The lot's square index.

        Returns
        -------
        bool
            ``True`` lifts it (when affordable); otherwise it pays the interest only.
        """

    def raise_cash(self, view: GameView, owed: int) -> Action | None:
        """It must pay ``owed`` and lacks the cash: one action at a time.

        Parameters
        ----------
        view:
            The game as this seat sees it, with the phase's budget.
        owed:
            The whole payment (not the shortfall).

        Returns
        -------
        Action or None
            A :class:`engine.rules.actions.SellBuilding`, :class:`engine.rules.actions.Mortgage` or
            :class:`engine.rules.actions.ProposeTrade`; ``None`` stops (the engine then
            liquidates in its fixed order, or the player is bankrupt).
        """

    def building_bid(self, view: GameView, kind: str) -> int | None:
        """A build request meets a shortage of the bank's ``kind``: the most it pays above the list price.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        kind:
            ``house`` or ``hotel``.

        Returns
        -------
        int or None
            The premium (clamped to what it can afford), or ``None``: not wanted.
        """

    def place_building(self, view: GameView, kind: str) -> int:
        """It won a shortage auction it did not request: where to put the ``kind``.

        Parameters
        ----------
        view:
            The game as this seat sees it.
        kind:
            ``house`` or ``hotel``.

        Returns
        -------
        int
            A lot where it may build one building of that kind.
        """
