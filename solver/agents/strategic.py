"""``StrategicTradeAgent``: the heuristic baseline that the solver has to beat.

Its rules, each a named parameter:

* **buy** when cash after the price stays at or above ``reserve``; when the
  property completes or blocks a group, down to ``critical_reserve``;
* **bid** in auctions up to a static value: the price, plus ``premium`` x
  price when the lot completes a group for it or blocks an opponent's
  completion; never below the reserve it would keep when buying;
* **build** evenly on its monopolies, toward three houses on every lot before
  the fourth and the hotel (three houses is where street rent jumps most per
  dollar), the lot with the best EPT gain per dollar first, keeping
  ``reserve`` plus ``danger`` x the worst rent it may face in cash; lifts
  mortgages in its monopolies first;
* **raise cash** by mortgaging lone properties (lowest rent lost first)
  before monopoly lots, and breaking buildings last (cheapest rent lost per
  dollar first);
* **trade**: proposes 1-for-1 swaps where each side's lot completes a group
  for the other, with cash for the difference in static value so that both
  gain equally; failing that, offers to buy a single missing lot of a group
  for cash, again splitting the static surplus; a refused offer is not
  repeated for ``cooldown`` rounds;
* **accept** a trade when its static worth (:mod:`solver.analysis.static_value`)
  rises by more than ``accept_margin``, and, if the trade completes a group
  for another player while completing none for itself, only if it gains at
  least as much static worth as that player does;
* its **static values** (:mod:`solver.analysis.static_value`) come from the long-run
  landings per turn of the exact position chain (:mod:`engine.chains.markov`) for
  the game's own board and rules, unless a ``landings`` table is given;
* **jail**: leave early (card, else pay) while ``leave_jail_unowned`` or more
  properties are unowned; later stay and roll.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.rules.actions import Action, Event, JailChoice, ProposeTrade
from engine.rules.agents import BaseAgent, check_options
from engine.rules.seeding import SeedLike
from engine.rules.view import GameView
from models.board import Board
from models.errors import InvalidTradeError
from models.rules import Rules
from models.state import BANK, GameState
from models.trade import Trade
from solver.analysis.static_value import StaticValuation
from solver.decisions.baseline import (
    BaselineRules,
    building_reserve,
    exact_landings_per_turn,  # it lives in solver.decisions.baseline; kept importable from here
    worst_rent,
)
from solver.decisions.buying import bid_rule, buy_rule
from solver.decisions.choice import AgentChoice
from solver.decisions.jail import jail_rule
from solver.decisions.phase import phase_choice
from solver.decisions.raising import raise_cash_rule
from solver.decisions.receipt import lift_rule
from solver.decisions.shortage import building_bid_rule, place_building_rule


class StrategicTradeAgent(BaseAgent):
    """The heuristic baseline the solver has to beat, registered as ``strategic``: reserves, static values
    and set-completing swaps (each rule and the option it reads: the module docstring).

    Parameters
    ----------
    seed : int, SeedSequence or None
        As :class:`engine.rules.agents.BaseAgent`.
    reserve : int, default 150
        The cash a purchase must leave, and the base of the cash kept when building and lifting
        mortgages (``reserve`` + ``danger`` x the worst rent it may face); also the cash a bid on an
        ordinary lot and paying the jail fine must leave, and the cash the paying side of its own
        offers must keep.
    critical_reserve : int, default 50
        The cash a purchase or a bid must leave for a lot that completes a group for it or blocks
        an opponent's completion.
    premium : float, default 0.5
        The auction bid's mark-up on such a lot, a fraction of the price.
    danger : float, default 0.25
        The share of the worst rent it may face (an opponent's unmortgaged street, at its current
        rent) added to ``reserve`` when building or lifting mortgages.
    accept_margin : float, default 10.0
        The static worth a trade must add for it to accept it, or for its own offer to be made.
    horizon : float, default 30.0
        ``H``, the rounds of rent the static values count
        (:class:`solver.analysis.static_value.StaticValuation`).
    cooldown : int, default 8
        The rounds during which an offer refused is not made again.
    leave_jail_unowned : int, default 8
        It leaves jail early (card, else fine) while at least this many properties are unowned.
    trade : bool, default True
        Trade: propose trades and answer offers by the rule above. ``False``: it neither proposes
        nor accepts a trade (every offer is refused), so a table of such agents plays a game
        without trades (issue 39's no-trade measurement; until session 18 ``False`` only stopped
        its proposals).
    landings : tuple of float or None, default None
        The landings per turn per square the static values use; ``None``: the exact position chain's
        for the game's board and rules (:func:`exact_landings_per_turn`).

    Raises
    ------
    InvalidArgumentError
        A numeric option outside :attr:`OPTION_LIMITS`.

    Examples
    --------
    >>> from engine.rules.agents import RandomAgent
    >>> from engine.rules.game import Game
    >>> from engine.rules.streams import SeededStream
    >>> from models.state import GameState
    >>> players = [StrategicTradeAgent(seed=1), RandomAgent(seed=2)]
    >>> result = Game(GameState.new_game(["Sam", "Rnd"]), players, SeededStream(3), max_rounds=40).play()
    >>> result.winner, result.reason
    ('Sam', 'bankruptcy')

    Its buying and bidding rules by hand. Cy ($510) holds Park Place; Boardwalk ($400) and Pennsylvania
    Avenue ($320) are the bank's:

    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> ann, cy = StrategicTradeAgent(seed=0), StrategicTradeAgent(seed=0)
    >>> ann.start_game(0, tuple(p.name for p in state.players)); cy.start_game(2, ann.names)
    >>> cy.buy(GameView(state, 2), 39)  # completes dark blue: $110 left is above critical_reserve
    True
    >>> ann.buy(GameView(state, 0), 34)  # $100 left is below reserve
    False
    >>> cy.auction_max(GameView(state, 2), 39)  # min(400 + 0.5 x 400, 510 - 50)
    460
    >>> ann.auction_max(GameView(state, 0), 34)  # min(320, 420 - 150)
    270
    >>> StrategicTradeAgent(premium=11)
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: option 'premium': 11 is outside 0.0..10.0
    """

    name = "strategic"
    OPTION_LIMITS: dict[str, tuple[float, float] | tuple[str, ...]] = {
        "reserve": (0, 10**6),
        "critical_reserve": (0, 10**6),
        "premium": (0.0, 10.0),
        "danger": (0.0, 10.0),
        "accept_margin": (-(10**6), 10**6),
        "horizon": (0.0, 1000.0),
        "cooldown": (0, 10**4),
        "leave_jail_unowned": (0, 1000),
    }
    """The range of each numeric option (the agent registry refuses others with one line)."""

    def __init__(
        self,
        seed: SeedLike = None,
        *,
        reserve: int = 150,
        critical_reserve: int = 50,
        premium: float = 0.5,
        danger: float = 0.25,
        accept_margin: float = 10.0,
        horizon: float = 30.0,
        cooldown: int = 8,
        leave_jail_unowned: int = 8,
        trade: bool = True,
        landings: tuple[float, ...] | None = None,
    ) -> None:
        check_options(StrategicTradeAgent.OPTION_LIMITS, locals())
        super().__init__(seed)
        self.reserve = reserve
        self.critical_reserve = critical_reserve
        self.premium = premium
        self.danger = danger
        self.accept_margin = accept_margin
        self.cooldown = cooldown
        self.leave_jail_unowned = leave_jail_unowned
        self.trading = trade
        self.rules = BaselineRules(reserve, critical_reserve, premium, danger, leave_jail_unowned)
        """The parameters of its rules of thumb (:mod:`solver.decisions.baseline`)."""
        self._landings = landings
        self._horizon = horizon
        self._table_for: tuple[object, object] | None = None
        self.valuation = StaticValuation(landings or (), horizon)
        self._refused: dict[tuple[object, ...], int] = {}
        self._round = 0
        self._proposed_this_phase = 0
        self.offers_per_phase = 1  # proposals per act phase (a subclass may allow more)
        self._worst_cache: tuple[object, int] | None = None
        self._gain_sig: tuple[object, ...] | None = None
        self._gain_memo: dict[tuple[object, ...], tuple[float | None, float | None]] = {}
        self._short_key: tuple[object, ...] | None = None
        self._short_memo: dict[int, dict[int, list[int]]] = {}

    # -- events ------------------------------------------------------------
    def notify(self, event: Event) -> None:
        """Keep the round (a ``turn`` event, which also starts a new count of the phase's proposals)
        and the round each of its own offers was refused in (for ``cooldown``).

        Parameters
        ----------
        event : Event
            What happened.
        """
        super().notify(event)  # a move the host refused (self.refusals)
        if event.kind == "turn":
            self._round = int(event.data.get("round", self._round))
            self._proposed_this_phase = 0
        elif event.kind == "trade" and event.player == self.me and not event.data.get("accepted"):
            self._refused[trade_key(event.data["trade"])] = self._round

    # -- helpers -------------------------------------------------------------
    def _prepare(self, view: GameView) -> None:
        """Use the exact chain's long-run landings per turn for this game's board
        and rules (computed once per board and rules), unless a table was given."""
        if self._landings is not None or self._table_for == (view.board, view.rules):
            return
        self.valuation = StaticValuation(exact_landings_per_turn(view.board, view.rules), self._horizon)
        self._table_for = (view.board, view.rules)

    def _worst_rent(self, view: GameView) -> int:
        key = (view.owner, view.houses, view.mortgaged)
        if self._worst_cache is not None and self._worst_cache[0] == key:
            return self._worst_cache[1]
        worst = worst_rent(view, self.me)
        self._worst_cache = (key, worst)
        return worst

    def _keep(self, view: GameView) -> float:
        return building_reserve(self.rules, self._worst_rent(view))

    # -- decisions ------------------------------------------------------------
    def buy(self, view: GameView, square: int) -> bool:
        """Buy when the cash after the price stays at or above ``reserve``; a lot that completes a
        street group for it or blocks an opponent's completion, at or above ``critical_reserve``.

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.
        square : int
            The lot.

        Returns
        -------
        bool
            Whether to buy it at its price.
        """
        return buy_rule(view, self.me, square, self.rules)

    def auction_max(self, view: GameView, square: int) -> int:
        """The static bid: the price, plus ``premium`` x the price for a lot that completes or blocks
        a street group, capped to leave ``critical_reserve`` (such a lot) or ``reserve`` in cash.

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.
        square : int
            The lot.

        Returns
        -------
        int
            The highest bid, in dollars (0 or more).
        """
        return bid_rule(view, self.me, square, self.rules)

    def jail_choice(self, view: GameView) -> JailChoice:
        """Leave early while ``leave_jail_unowned`` or more properties are unowned: with a card when it
        holds one, else by paying the fine when the cash after it stays at or above ``reserve``;
        otherwise roll.

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.

        Returns
        -------
        JailChoice
            ``card``, ``pay`` or ``roll``.
        """
        return jail_rule(view, self.me, self.rules)

    def _may_build(self, view: GameView) -> bool:
        """Whether step 2 of :meth:`act` (the baseline's build rule) runs; a subclass with
        its own build policy turns it off."""
        return True

    def lift_on_receipt(self, view: GameView, square: int) -> bool:
        """Lift a mortgaged lot received when the cash after the lifting cost stays at or above the
        building reserve, ``reserve`` + ``danger`` x the worst rent it may face.

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.
        square : int
            The lot received.

        Returns
        -------
        bool
            Whether to lift the mortgage now.
        """
        return lift_rule(view, self.me, square, self._keep(view))

    def act(self, view: GameView) -> Action | None:
        """One action of its phase, the first that applies: lift a mortgage in one of its monopolies;
        build (a lot below three houses first, then the best EPT gain per dollar); propose the trade
        of :meth:`find_trade` (with ``trade`` and its cash not negative, at most ``offers_per_phase``
        searches a phase); lift any other mortgage when the cash after it is at least twice the
        building reserve plus $200. Lifting and building keep the building reserve, ``reserve`` +
        ``danger`` x the worst rent it may face.

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.

        Returns
        -------
        Action or None
            An ``Unmortgage``, ``Build`` or ``ProposeTrade``; ``None`` ends the phase.
        """
        self._prepare(view)

        def propose() -> AgentChoice:
            self._proposed_this_phase += 1
            trade = self.find_trade(view)
            return AgentChoice("act", trade, "propose_trade" if trade else "hold", "the baseline's swap or purchase", "rule")

        may_propose = self.trading and self._proposed_this_phase < self.offers_per_phase and view.player(self.me).cash >= 0
        choice = phase_choice(
            view, self.me, self._keep(view), self.refusals, self.valuation, build=self._may_build(view), may_propose=may_propose, propose=propose
        )
        action: Action | None = choice.answer
        return action

    def raise_cash(self, view: GameView, owed: int) -> Action | None:
        """Mortgage the lot losing least, lots outside its monopolies first and the lowest EPT first;
        with nothing left to mortgage, sell the building losing the least EPT per dollar of house cost.

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.
        owed : int
            The whole payment (the rule does not read it).

        Returns
        -------
        Action or None
            A ``Mortgage`` or ``SellBuilding``; ``None`` when neither is legal.
        """
        self._prepare(view)
        return raise_cash_rule(view, self.me, self.refusals, self.valuation)

    def building_bid(self, view: GameView, kind: str) -> int | None:
        """In a building shortage, the premium it offers: its cash above the building reserve
        (``reserve`` + ``danger`` x the worst rent), at most $100, for either kind.

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.
        kind : str
            ``house`` or ``hotel``.

        Returns
        -------
        int or None
            The premium in dollars; ``None`` (not wanted) when the cash is at or below the reserve.
        """
        return building_bid_rule(view, self.me, self._keep(view))

    def place_building(self, view: GameView, kind: str) -> int:
        """The legal lot for a ``kind`` whose EPT gains most from one more building.

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.
        kind : str
            ``house`` or ``hotel``.

        Returns
        -------
        int
            The lot's square index.

        Raises
        ------
        NoLegalLotError
            No lot can take a building of that kind (the host asked where none can go).
        """
        self._prepare(view)
        return place_building_rule(view, self.me, kind, self.valuation)

    # -- trading ---------------------------------------------------------------
    def _gain(self, state: GameState, trade: Trade, player: int) -> float | None:
        """Static worth change of ``player`` if ``trade`` happens (``None``: invalid)."""
        after = state.copy()
        try:
            trade.apply(after)
        except InvalidTradeError:
            return None
        groups = {state.group_of(state.square_of(p)) for t in trade.transfers for p in t.properties}
        return self.valuation.worth_change(state, after, player, groups)

    def _gains_board(self, view: GameView) -> None:
        """Forget the memoised swap gains when the board changed (owners, buildings, mortgages,
        players still in): :meth:`_base_gains` is valid while it stays the same. Once per search."""
        sig = (view.owner, view.houses, view.mortgaged, tuple(i for i in range(view.n_players) if not view.player(i).bankrupt))
        if sig != self._gain_sig:
            self._gain_sig = sig
            self._gain_memo.clear()

    def _base_gains(
        self, view: GameView, key: tuple[object, ...], base: Callable[[], Trade], me: int, q: int
    ) -> tuple[float | None, float | None]:
        """Gains of a cash-free swap for both sides, memoised by its structure (``key``) while the
        board is unchanged (they do not depend on cash, which moves every turn; the caller checks
        the board first, :meth:`_gains_board`); ``base`` makes the swap when it must be valued."""
        memo_key = (key, me, q)
        if memo_key not in self._gain_memo:
            swap, state = base(), view.copy()
            self._gain_memo[memo_key] = (self._gain(state, swap, me), self._gain(state, swap, q))
        return self._gain_memo[memo_key]

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        """Accept when the trade adds more than ``accept_margin`` to its static worth and, unless it
        completes a street group for this agent, every other participant it completes a group for gains
        at most $1 more static worth than this agent does. An invalid trade is refused, and with
        ``trade=False`` every trade.

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.
        trade : Trade
            The proposal.

        Returns
        -------
        bool
            Whether to accept.
        """
        if not self.trading:
            return False
        self._prepare(view)
        state = view.copy()
        mine = self._gain(state, trade, self.me)
        if mine is None or mine <= self.accept_margin:
            return False
        after = state.copy()
        trade.apply(after)
        if state.newly_complete(after, self.me):
            return True
        idx = {p.name: i for i, p in enumerate(state.players)}
        for name in trade.participants():
            q = idx[name]
            if q == self.me:
                continue
            if state.newly_complete(after, q):
                theirs = self._gain(state, trade, q)
                if theirs is not None and mine + 1.0 < theirs:
                    return False
        return True

    @staticmethod
    def _one_short(state: GameState, player: int) -> dict[int, list[int]]:
        """Lots that alone would complete an unbuilt group for ``player``, by holder."""
        return one_short(state.board, state.rules, state.owner, state.houses, player)

    def _short(self, view: GameView, player: int) -> dict[int, list[int]]:
        """:meth:`_one_short` from the view, memoised while no lot changes owner or buildings
        (a search runs at every act, and in a long game the board stays the same for hundreds of
        turns: the memo is exact, a pure function of the owners, buildings, board and rules)."""
        owner, houses = view.owner, view.houses
        key = self._short_key
        if key is None or key[0] != owner or key[1] != houses or key[2] is not view.rules or key[3] is not view.board:
            self._short_key = (owner, houses, view.rules, view.board)
            self._short_memo = {}
        if player not in self._short_memo:
            self._short_memo[player] = one_short(view.board, view.rules, owner, houses, player)
        return self._short_memo[player]

    def find_trade(self, view: GameView) -> Trade | None:
        """The best swap or purchase for this agent, or ``None`` (see the module docstring).

        Parameters
        ----------
        view : GameView
            What this agent sees.

        Returns
        -------
        Trade or None
            The proposal.

        Examples
        --------
        >>> from models.io import load_state
        >>> from engine.rules.view import GameView
        >>> state = load_state("instances/midgame-no-monopolies.json")
        >>> agent = StrategicTradeAgent(seed=0)
        >>> agent.start_game(0, tuple(p.name for p in state.players))
        >>> trade = agent.find_trade(GameView(state, 0))  # Ann's swap with Bob, $12 on top
        >>> trade.properties_given("Ann"), trade.properties_received("Ann"), trade.net_cash("Ann")
        (['Kentucky Avenue'], ['New York Avenue'], -12)
        """
        self._prepare(view)  # the valuation's table, as act does first (a caller may ask directly)
        me = self.me
        wanted = self._short(view, me)
        if not wanted:  # no lot of another's completes a group of mine: nothing to offer for
            return None
        names = [view.player(i).name for i in range(view.n_players)]
        board = view.board
        self._gains_board(view)
        best: tuple[float, Trade] | None = None
        for q in sorted(wanted):
            want = wanted[q]
            give = self._short(view, q).get(me, [])
            # (lot given or None, lot received), the received lot completing a group of mine; a
            # structure refused within ``cooldown`` rounds is skipped before anything is built
            # (its key, :func:`trade_key`, is the structure's whatever the cash)
            pairs = [(a, b) for b in want for a in give] if give else [(None, b) for b in want]
            for a, b in pairs:
                got = board.squares[b].name
                legs = [(names[q], names[me], (got,))]
                if a is not None:
                    legs.append((names[me], names[q], (board.squares[a].name,)))
                key = tuple(sorted(legs))
                if key in self._refused and self._round - self._refused[key] < self.cooldown:
                    continue
                gave = [] if a is None else [board.squares[a].name]
                g_me, g_q = self._base_gains(
                    view, key, lambda gave=gave, got=got: Trade.bilateral(names[me], names[q], gave, [got]), me, q  # type: ignore[misc]
                )
                if g_me is None or g_q is None:
                    continue
                cash = int(round((g_me - g_q) / 2))  # me -> q; equalises the two gains
                spare = view.player(me).cash - self.reserve if cash > 0 else view.player(q).cash - self.reserve
                if abs(cash) > max(0, spare):
                    continue
                trade = Trade.bilateral(names[me], names[q], gave, [got], cash)
                surplus = g_me - cash
                if surplus <= self.accept_margin:
                    continue
                if view.why_not_trade(trade) is not None or self.refusals.refused(view, ProposeTrade(trade)):  # the host's check, not a copy's
                    continue
                if best is None or surplus > best[0]:
                    best = (surplus, trade)
        return best[1] if best is not None else None


def one_short(board: Board, rules: Rules, owner: Sequence[int], houses: Sequence[int], player: int) -> dict[int, list[int]]:
    """Lots that alone would complete an unbuilt street group for ``player``, by holder.

    Parameters
    ----------
    board : Board
        The board.
    rules : Rules
        The rules (``set_size``: the lots a monopoly needs).
    owner, houses : sequence of int
        Per square, its owner's seat (``BANK`` for none) and building level.
    player : int
        The seat.

    Returns
    -------
    dict
        Holder's seat -> the squares it holds that complete one of ``player``'s groups, for
        each group with no building in which ``player`` holds all the lots but one.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> one_short(state.board, state.rules, state.owner, state.houses, 0)
    {2: [9], 1: [19]}
    """
    out: dict[int, list[int]] = {}
    for group in board.street_groups:
        lots = board.groups[group]
        owners = [owner[sq] for sq in lots]
        mine = owners.count(player)
        if mine + 1 != rules.set_size.get(group, len(lots)) or any(houses[sq] for sq in lots):
            continue
        for sq, o in zip(lots, owners, strict=True):
            if o != player and o != BANK:
                out.setdefault(o, []).append(sq)
    return out


def trade_key(trade: Trade) -> tuple[object, ...]:
    """The property structure of ``trade`` (who gives which lots to whom), cash ignored (a leg
    of cash alone does not appear, so a structure keeps its key at any price, $0 included).

    Two offers with the same key differ at most in cash; agents use it to remember
    refused structures and not offer them again at another price.

    Parameters
    ----------
    trade : Trade
        The offer.

    Returns
    -------
    tuple
        Sorted ``(from, to, lots)`` of the legs that move lots.

    Examples
    --------
    >>> from models.trade import Trade
    >>> low = Trade.bilateral("Ann", "Bob", ["Boardwalk"], cash_a_to_b=-300)
    >>> high = Trade.bilateral("Ann", "Bob", ["Boardwalk"], cash_a_to_b=-500)
    >>> trade_key(low), trade_key(low) == trade_key(high)
    ((('Ann', 'Bob', ('Boardwalk',)),), True)
    """
    return tuple(sorted((t.frm, t.to, tuple(sorted(t.properties))) for t in trade.transfers if t.properties))
