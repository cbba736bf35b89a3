"""The reference rules engine: readable, complete, checked against the rules list.

A :class:`Game` moves a :class:`models.state.GameState` through turns, asking
its agents at every decision point and telling everyone what happened through
:class:`engine.rules.actions.Event` objects. Dice and cards come from an explicit
:class:`engine.rules.streams.RandomStream`. The rules are the standard US rules
(2008+ cards) and the variants of :class:`models.rules.Rules` (named below
where they change a step); where the printed rules leave a choice, this
module names it:

Turn
    Between turns every active player, starting with the one about to move,
    may act (build, sell, mortgage, lift, propose trades). A player in jail
    then chooses to pay $50, use a card (both then roll normally) or roll for
    doubles (doubles: out, move by that roll, no extra roll; a third failure:
    pay $50 and move by that roll). Otherwise the player rolls; doubles roll
    again; the third consecutive double goes to jail without moving. After
    each roll and its consequences the player may act again. Variants:
    ``doubles_again`` off (a double is an ordinary roll; the counter stays 0,
    and only ``doubles_to_jail`` 1 jails, on any double), ``doubles_to_jail``
    (0: never), ``max_jail_rolls`` (jail turns before the forced exit),
    ``jail_doubles`` off (a double does not free; the jailed player then rolls
    only on a last turn that pays and moves), ``jail_release="free"`` (the
    last jail turn ends in jail's release, without a fine and without moving).
Money
    Go pays the salary when passed or landed on, also by a card (never when
    moving backwards or going to jail); twice when a move ends on Go under
    ``go_landing_bonus``. Taxes are paid to the bank; Free Parking does
    nothing unless ``rules.free_parking`` keeps a pot (``GameState.pot``):
    ``taxes`` feeds it with the tax squares, ``bank`` with every payment to
    the bank for taxes, jail fines, cards and repairs; a player landing there
    collects it, and the bank puts ``free_parking_seed`` back in. With a
    finite bank (``rules.bank_cash``, ``GameState.bank_cash``) every payment
    from the bank (salary, cards, mortgages, sales, the pot's seed) is capped
    at what it holds, and every payment to it adds to it (pot payments go to
    the pot instead). Every payment goes through :meth:`Game._pay`: a
    player short of cash is asked to raise it (sell, mortgage, trade); if it
    stops while its liquidation value would cover the debt, the engine
    liquidates in a fixed order (:meth:`Game.liquidate`); if even that cannot
    cover the debt the player is bankrupt. Cash never goes negative.
Buying and auctions
    A player landing on an unowned property with the cash for it may buy it
    (never under ``rules.auction_only``); otherwise (declined, or short of
    cash) it is auctioned among all active players, the lander included
    (without ``rules.auctions`` it stays with the bank: a ``declined`` event;
    a bankrupt's lots returned to the bank are then not auctioned either). The open ascending auction is run as its
    equivalent: each bidder names a maximum (capped at its cash); the highest
    wins and pays the second-highest maximum plus $1, capped at its own
    maximum (a lone bidder pays $1); ties go to the bidder nearest the lander
    in turn order. No bid: the bank keeps it.
Rent
    Mortgaged property charges none. Unimproved lots of a monopoly pay double
    (also when another lot of the group is mortgaged). Railroads and
    utilities count every one the owner holds, mortgaged or not. The
    nearest-railroad card doubles the rent; the nearest-utility card charges
    ten times a fresh roll.
Building
    See :mod:`engine.rules.legal`. Under a ``set_size`` novelty a player can acquire
    a bare lot in a group where it has buildings; its buildings there are
    then sold back until the group is even again (:meth:`Game._acquired`). When the bank's houses (or hotels) are fewer
    than the players able to build one right now, a request to build one is
    contested: each such player names the most it would pay above the list
    price (``Agent.building_bid``); the building goes by the same
    second-price rule (ties to the requester, then turn order), and the
    winner places it (``Agent.place_building``).
Bankruptcy
    To a single player creditor: buildings are sold to the bank at half
    price, then cash, properties and Get Out of Jail Free cards pass to the
    creditor, who pays the interest on each mortgaged property at once and
    may lift it then. To the bank, or to several players at once (a "pay
    each player" card): buildings are sold, the cash is shared in proportion
    to the debts (the bank's share to the bank), the properties return to
    the bank unmortgaged and are auctioned, and the cards return to their
    decks.
End
    The game ends when one player is left (``bankruptcy``), after
    ``max_rounds`` complete rounds (``round_cap``, the host's cap) or
    ``rules.round_limit`` rounds (``round_limit``), or at the end of a turn
    after which a player holds ``rules.cash_target`` in cash
    (``cash_target``). A game ended other than by bankruptcy is won by the
    highest net worth (:meth:`GameState.net_worth`), ties to the earlier seat.

Novelty trials hide rule changes: with ``announced_rules`` the agents'
views show those rules (:class:`engine.rules.view.GameView`); a jail payment that
the announced fine allowed but the true one does not is refused (a
``refused`` event) and the player rolls instead.

Movement-only mode (``movement_only=True``) plays dice, doubles, jail and the
cards' movement only: nothing is bought, no money moves, and cards are drawn
with replacement (``RandomStream.draw``), the setting of the exact position
chain of :mod:`engine.chains.markov`. Cards are drawn that way in every game under
``rules.card_draw="replacement"``: uniformly over the deck's cards that no
player holds.

The rules by job
    :class:`Game` holds the turn loop and the end of the game (this module);
    each other job is a module of functions of the game:
    :mod:`engine.rules.movement` (dice, moves, Go, jail),
    :mod:`engine.rules.squares` (what a square does, rent, the pot),
    :mod:`engine.rules.cards` (the decks, the cards, held jail cards),
    :mod:`engine.rules.auctions` (buying, auctions, the second-price rule),
    :mod:`engine.rules.money` (payments, raising cash, liquidation,
    bankruptcy, mortgaged lots received), :mod:`engine.rules.building`
    (building, the shortage auction, selling back, evening out),
    :mod:`engine.rules.trading` (trades) and :mod:`engine.rules.phases` (the
    agents' action phases and their budget). ``Game`` binds each function as
    a method (``Game._pay`` is :func:`engine.rules.money.pay`,
    :meth:`Game.liquidate` is :func:`engine.rules.money.liquidate`), so every
    step is still a method of the game, and the parts call one another
    through the game (``game._pay(...)``), as before. :class:`Deck`,
    :data:`POT_REASONS`, :data:`MAX_ACTIONS_PER_PHASE` and
    :data:`MAX_TRADES_PER_PHASE` are imported here from the modules that use
    them, so their paths here keep working. Functions rather
    than mixin classes: the parts call one another (a payment may sell
    buildings, a bankruptcy auctions lots), and a mixin's methods could only
    be typed against ``Game`` through a protocol repeating every method they
    call, while a function's first parameter is simply ``game: Game``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.rules import (
    auctions,
    building,
    cards,
    money,
    movement,
    phases,
    squares,
    trading,
)
from engine.rules.actions import Action, EndReason, Event, EventKind
from engine.rules.cards import Deck
from engine.rules.money import POT_REASONS
from engine.rules.phases import MAX_ACTIONS_PER_PHASE, MAX_TRADES_PER_PHASE
from engine.rules.protocol import Agent
from engine.rules.streams import RandomStream
from engine.rules.view import GameView
from models.errors import InvalidArgumentError
from models.rules import Rules
from models.state import GameState, Phase

Observer = Callable[[Event, "Game"], None]
"""An observer of a game: called as ``f(event, game)`` on every event, after the agents."""

ROUND_ENDS = frozenset({EndReason.ROUND_CAP, EndReason.ROUND_LIMIT, EndReason.CASH_TARGET})
"""Reasons of a game ended short of a last player standing: won by net worth."""


@dataclass(frozen=True)
class GameResult:
    """How a game ended.

    Parameters
    ----------
    winner:
        The winner's name; ``None`` when no player is active (a starting state with every player bankrupt).
    winner_index:
        The winner's seat.
    rounds:
        Complete rounds played; a game ended by bankruptcy counts the round in progress.
    turns:
        Turns played (calls of :meth:`Game.play_turn`).
    reason:
        An :class:`engine.rules.actions.EndReason`: ``bankruptcy`` (one player left),
        ``round_cap`` (the host's ``max_rounds``), ``round_limit`` (``rules.round_limit``)
        or ``cash_target`` (``rules.cash_target``).
    net_worths:
        Every player's net worth at the end (:meth:`models.state.GameState.net_worth`).
    bankrupt_order:
        The bankrupts' names, in the order they went out (those bankrupt in the
        starting state first).

    Examples
    --------
    >>> result = GameResult("A", 0, 12, 30, EndReason.BANKRUPTCY, {"A": 3100, "B": 0}, ("B",))
    >>> result.to_dict()["bankrupt_order"]
    ['B']
    """

    winner: str | None
    winner_index: int | None
    rounds: int
    turns: int
    reason: EndReason
    net_worths: dict[str, int]
    bankrupt_order: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON data (the winner by name; ``winner_index`` left out).

        Returns
        -------
        dict
            ``winner``, ``rounds``, ``turns``, ``reason``, ``net_worths``, ``bankrupt_order``.
        """
        return {
            "winner": self.winner,
            "rounds": self.rounds,
            "turns": self.turns,
            "reason": self.reason,
            "net_worths": dict(self.net_worths),
            "bankrupt_order": list(self.bankrupt_order),
        }


class Game:
    """One game between agents.

    Parameters
    ----------
    state:
        The starting state; the game moves it in place (pass a copy to keep it).
    agents:
        One agent per seat, in the state's player order.
    stream:
        Dice and cards.
    max_rounds:
        Round cap (complete rounds); the result says when it ended the game.
    movement_only:
        Dice, jail and card movement only (see the module docstring).
    observers:
        Callables ``f(event, game)`` called on every event after the agents.
    announced_rules:
        The rules the agents' views show (a novelty trial hides a rule change
        this way, :class:`engine.rules.view.GameView`); ``None``: the true rules.

    Attributes
    ----------
    state:
        The live state.
    decks:
        The two :class:`engine.rules.cards.Deck` objects, by name.
    held_cards:
        Per seat, the ``(deck, card index)`` of each Get Out of Jail Free card held.
    over, result:
        Whether the game has ended, and its :class:`GameResult` (``None`` before).

    Raises
    ------
    InvalidArgumentError
        Not one agent per player, ``max_rounds`` below 1, or a state that waits on a pending
        question (``state.pending``: the engine starts between questions).
    InvalidStateError
        The state's players hold more Get Out of Jail Free cards than the decks contain.

    Examples
    --------
    >>> from engine.rules.agents import RandomAgent
    >>> from engine.rules.seeding import game_seeds
    >>> from engine.rules.streams import SeededStream
    >>> stream_seed, seat_seeds = game_seeds(7, 3)
    >>> game = Game(GameState.new_game(["A", "B", "C"]), [RandomAgent(s) for s in seat_seeds], SeededStream(stream_seed), max_rounds=20)
    >>> result = game.play()
    >>> result.reason, result.rounds
    ('round_cap', 20)
    """

    def __init__(
        self,
        state: GameState,
        agents: Sequence[Agent],
        stream: RandomStream,
        *,
        max_rounds: int = 1000,
        movement_only: bool = False,
        observers: Iterable[Observer] = (),
        announced_rules: Rules | None = None,
    ) -> None:
        if len(agents) != len(state.players):
            raise InvalidArgumentError(f"{len(agents)} agents for {len(state.players)} players")
        if max_rounds < 1:
            raise InvalidArgumentError("max_rounds must be >= 1")
        if state.pending is not None:
            who = ", ".join(state.players[s].name for s in state.pending.who_answers())
            raise InvalidArgumentError(
                f"the state waits on {who}'s answer to a pending {state.pending.question} (pending): "
                "the engine starts between questions; answer it with solve, or remove pending"
            )
        self.state = state
        self.agents = list(agents)
        self.stream = stream
        self.max_rounds = max_rounds
        self.movement_only = movement_only
        self.observers = list(observers)
        self.announced_rules = announced_rules
        self.views = [GameView(state, i, announced_rules) for i in range(len(agents))]
        board = state.board
        self.decks = {"chance": Deck("chance", board.chance, stream), "community_chest": Deck("community_chest", board.community_chest, stream)}
        self.held_cards: list[list[tuple[str, int]]] = [[] for _ in state.players]
        self._assign_held_cards()
        self.turns = 0
        self.over = False
        self.result: GameResult | None = None
        self.bankrupt_order: list[str] = [p.name for p in state.players if p.bankrupt]
        names = tuple(p.name for p in state.players)
        for i, agent in enumerate(self.agents):
            agent.start_game(i, names)
        resumed = state.to_move if state.phase == Phase.ROLLED else None
        self._emit(EventKind.GAME_START, None, round=state.round, resumed=resumed)
        if len(state.active_players()) <= 1:
            self._end(EndReason.BANKRUPTCY)
        elif state.phase == Phase.START:
            self._check_end()

    # ------------------------------------------------------------------
    # the rules by job (module docstring): functions of the game, bound as its methods
    # ------------------------------------------------------------------
    _roll = movement.roll
    _roll_and_move = movement.roll_and_move
    _after_roll = movement.after_roll
    _jail_turn = movement.jail_turn
    _stay_in_jail = movement.stay_in_jail
    _leave_jail = movement.leave_jail
    _send_to_jail = movement.send_to_jail
    _move = movement.move

    _land = squares.land
    _collect_pot = squares.collect_pot
    rent = squares.rent

    _draw_card = cards.draw_card
    _assign_held_cards = cards.assign_held_cards

    _offer = auctions.offer
    auction = auctions.auction

    _cash = money.cash
    _pay = money.pay
    _pay_each = money.pay_each
    _raise_cash = money.raise_cash
    liquidate = money.liquidate
    _bankrupt = money.bankrupt
    _settle_forced_lifts = money.settle_forced_lifts
    _receive_mortgaged = money.receive_mortgaged

    _build = building.build
    _can_build_kind = building.can_build_kind
    _place = building.place
    _building_auction = building.building_auction
    _sell_one = building.sell_one
    _acquired = building.acquired

    propose_trade = trading.propose_trade

    _act = phases.act
    _apply = phases.apply

    def refusal(self, p: int, action: Action) -> str | None:
        """Why this host refuses ``p``'s ``action`` although the rules allow it, or ``None``.

        The reference engine refuses nothing. A host with rules of its own (stricter
        building, a trade it will not run) overrides this: a refused move is reported to
        ``p`` by a ``refused`` event (``action``, ``why``) and the phase goes on
        (:func:`engine.rules.phases.carry_out`). Asked before the rules' own check, for every
        answer of ``act`` and ``raise_cash``.

        Parameters
        ----------
        p:
            The player who acts.
        action:
            Its answer.

        Returns
        -------
        str or None
            The reason, one line; ``None`` lets the move go ahead.
        """
        return None

    # ------------------------------------------------------------------
    # running
    # ------------------------------------------------------------------
    def play(self) -> GameResult:
        """Play to the end and return the result.

        Returns
        -------
        GameResult
            How the game ended (also :attr:`result`).

        Raises
        ------
        IllegalActionError
            An agent answered with an action the rules do not allow (the game stops there).
        """
        while not self.over:
            self.play_turn()
        assert self.result is not None
        return self.result

    def play_turn(self) -> None:
        """Play the turn of ``state.to_move``, from wherever its phase stands; nothing once the game is over.

        At the start of a turn every active player, from the mover on, has an
        ``act`` phase; then the mover plays its jail turn or rolls, again after
        each double. A turn resumed in phase ``rolled`` (a loaded state) starts
        with the mover's ``act`` phase and rolls again only for a pending double.

        Raises
        ------
        IllegalActionError
            An agent answered with an action the rules do not allow.

        Examples
        --------
        >>> from engine.rules.agents import BaseAgent
        >>> from engine.rules.streams import ScriptedStream
        >>> game = Game(GameState.new_game(["A", "B"]), [BaseAgent(), BaseAgent()], ScriptedStream([(3, 4)]))
        >>> game.play_turn()  # 7: A lands on Chance and draws the printed deck's first card
        >>> game.state.players[0].position, game.state.to_move
        (39, 1)
        """
        if self.over:
            return
        s = self.state
        p = s.to_move
        self.turns += 1
        self.stream.begin_turn(p)
        if s.phase == Phase.START:
            self._emit(EventKind.TURN, p, round=s.round)
            for q in self._turn_order(p):
                self._act(q)
                if self.over:
                    return
            s.doubles_rolled = 0
            again = self._jail_turn(p) if s.players[p].in_jail else self._roll_and_move(p)
        else:
            self._act(p)
            again = s.doubles_rolled > 0 and not s.players[p].in_jail
        while again and not self.over and not s.players[p].bankrupt:
            again = self._roll_and_move(p)
        if not self.over:
            self._next_turn(p)

    def _turn_order(self, start: int) -> list[int]:
        """The active players in seat order from ``start`` (``start`` first, if active)."""
        n = len(self.state.players)
        return [(start + k) % n for k in range(n) if not self.state.players[(start + k) % n].bankrupt]

    def _next_turn(self, p: int) -> None:
        """Hand the move to the next active player after ``p`` (a new round past the last seat)."""
        s = self.state
        s.phase = Phase.START
        s.doubles_rolled = 0
        n = len(s.players)
        nxt = next((p + k) % n for k in range(1, n + 1) if not s.players[(p + k) % n].bankrupt)
        if nxt <= p:
            s.round += 1
        s.to_move = nxt
        self._check_end()

    def _check_end(self) -> None:
        """End the game between turns by the cash target, the rules' round limit or the host's cap."""
        s = self.state
        target = s.rules.cash_target
        if target is not None and any(s.players[q].cash >= target for q in s.active_players()):
            self._end(EndReason.CASH_TARGET)
        elif s.rules.round_limit is not None and s.round >= s.rules.round_limit:
            self._end(EndReason.ROUND_LIMIT)
        elif s.round >= self.max_rounds:
            self._end(EndReason.ROUND_CAP)

    @property
    def pot(self) -> int:
        """The Free Parking pot (``GameState.pot``)."""
        return self.state.pot

    def _end(self, reason: EndReason) -> None:
        """End the game for ``reason`` (a :class:`GameResult` reason): the result, then ``game_end``."""
        s = self.state
        active = s.active_players()
        if active and s.players[s.to_move].bankrupt:
            # The final state stays a valid state: the next active player in seat order is to move
            # (the winner, when one is left), at the start of a turn.
            n = len(s.players)
            s.to_move = next((s.to_move + k) % n for k in range(1, n + 1) if not s.players[(s.to_move + k) % n].bankrupt)
            s.phase = Phase.START
            s.doubles_rolled = 0
        worths = {s.players[i].name: s.net_worth(i) for i in range(len(s.players))}
        if reason in ROUND_ENDS:
            winner = max(active, key=lambda i: (s.net_worth(i), -i)) if active else None
            rounds = s.round
        else:
            winner = active[0] if len(active) == 1 else None
            rounds = s.round + 1 if self.turns else s.round  # the round in progress counts
        self.over = True
        self.result = GameResult(
            winner=s.players[winner].name if winner is not None else None,
            winner_index=winner,
            rounds=rounds,
            turns=self.turns,
            reason=reason,
            net_worths=worths,
            bankrupt_order=tuple(self.bankrupt_order),
        )
        self._emit(EventKind.GAME_END, winner, reason=reason)

    def _emit(self, kind: EventKind, player: int | None = None, **data: Any) -> None:
        """Tell every agent, then every observer, what happened (an :class:`engine.rules.actions.Event`)."""
        event = Event(kind, player, data)
        for agent in self.agents:
            agent.notify(event)
        for obs in self.observers:
            obs(event, self)


def new_game(
    names: Sequence[str],
    agents: Sequence[Agent],
    stream: RandomStream,
    **kwargs: Any,
) -> Game:
    """A game from the standard opening position (everyone on Go with $1,500).

    Parameters
    ----------
    names:
        The players' names, in seat order.
    agents:
        One agent per name.
    stream:
        Dice and cards.
    **kwargs:
        :class:`Game`'s keyword arguments (``max_rounds``, ``movement_only``,
        ``observers``, ``announced_rules``).

    Returns
    -------
    Game
        The game, ready to play.

    Raises
    ------
    InvalidArgumentError
        Not one agent per name, or ``max_rounds`` below 1.

    Examples
    --------
    >>> from engine.rules.agents import BaseAgent
    >>> from engine.rules.streams import SeededStream
    >>> game = new_game(["A", "B"], [BaseAgent(), BaseAgent()], SeededStream(1), max_rounds=5)
    >>> game.play().reason
    'round_cap'
    """
    return Game(GameState.new_game(list(names)), agents, stream, **kwargs)


__all__ = [
    "MAX_ACTIONS_PER_PHASE",
    "MAX_TRADES_PER_PHASE",
    "POT_REASONS",
    "ROUND_ENDS",
    "Deck",
    "Game",
    "GameResult",
    "Observer",
    "new_game",
]
