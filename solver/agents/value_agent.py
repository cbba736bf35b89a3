"""``ValueAgent``: seed 002's agent as written, registered as ``value``.

At every decision point it lists the candidate moves ``m``, simulates each
one deterministically on a private copy of the state (the move only, no
dice: ``s'_m``), drops the moves that fail the seed's bankruptcy-avoidance
conditions and picks ``argmax_m V(s'_m)``, ``V`` being the seed's state
value for the agent itself. Both the value and the conditions are
:mod:`solver.analysis.state_value`'s (its docstring says how the ambiguous parts of
the seed are read); this module only enumerates, simulates and chooses.

Reading of ``M_assets``
    "the value of all the agent's assets that are not mortgaged": cash is an
    asset, so by default (``cash_in_assets=True``) the agent's ``V`` adds its
    cash to :func:`solver.analysis.state_value.state_value` (which counts property
    only). Without it, cash enters ``V`` only through ``F`` in
    ``M_monopoly``, and the agent spends whatever the safety conditions
    allow: it bought and bid up to the safety limit and won 6 of 40 games
    against three ``strategic`` agents, against 10 of 40 with cash counted
    (seed 0, 40 games; not a significant difference, but the literal
    reading's behaviour, paying $601 for a lot, is not what the seed's 76%
    winner did). ``value:cash_in_assets=false`` plays the literal reading.

Reading of the seed's choice rule
    * the conditions are evaluated at the current state ``s`` with the
      move's cost ``C(m)`` = the cash it spends (:func:`solver.analysis.state_value.
      move_is_safe`, both conditions, ``cash_min`` $150 by default);
    * doing nothing (cost 0) is always a candidate and is never pruned;
      neither is any other move of cost 0 (the conditions are evaluated at
      ``s``, so a move that spends nothing meets them exactly as doing
      nothing does);
    * a move is taken only if its ``V`` beats doing nothing by more than
      ``eps`` (default $1), so that rounding noise does not trigger actions;
      among moves, the larger ``V`` wins (first listed on an exact tie).

Decision points
    ``buy``
        buy (cost = price) or decline.
    ``auction_max``
        the largest bid ``b`` (exact to the dollar, capped at cash) such that
        winning at ``b`` is safe (cost ``b``) and ``V(s' won at b) >= V(s)``
        (declining leaves the lot with the bank); 0 if no ``b >= $1``
        qualifies. ``V(s' won at b)`` depends on ``b`` only through the
        cash in ``F`` of ``M_monopoly`` (non-increasing in ``b``), and the
        conditions are monotone in the cost, so both limits are found by
        integer bisection (11 steps for $1,500): the other terms are
        computed once.
    ``act``
        every legal single build (cost: the house cost) and unmortgage
        (cost: mortgage value plus interest), or nothing; one action per
        call. Only cash-spending actions are candidates, so the engine's
        repeated calls terminate (cash falls at each action). The safe
        candidates are found first, cheapest cost upward (the conditions are
        monotone in the cost), so a state where nothing is affordable costs
        one safety check and no value.
    ``raise_cash``
        among legal building sales (hotels break as the engine breaks them,
        :func:`engine.rules.legal.hotel_break_levels`) and mortgages, the one with
        the largest ``V`` afterwards (the least loss); ``None`` only when
        nothing is legal. No safety filter: these moves bring cash in.
    ``accept_trade``
        accepted iff ``V(after) > V(before) + eps`` and the trade is safe
        with ``C`` = the net cash it costs the agent (cash paid minus cash
        received, plus the interest on mortgaged lots it receives, floored
        at 0). ``after`` is :meth:`models.trade.Trade.apply` on a copy,
        without lifting (the engine asks ``lift_on_receipt`` separately); an
        invalid trade is refused.
    proposing trades
        the seed does not describe trade proposals: the agent never proposes.
    ``jail_choice``
        roll (stay in jail, cost 0), pay (cost = the rules' fine, out of
        jail with the fine paid; only with the cash for it) and card (out of
        jail, cost 0; only when held), scored by ``V`` like any move. ``V``
        barely depends on jail (through ``R_s``'s landings and the fine in
        ``F``): when the best options are within ``eps`` of each other,
        the agent leaves jail (card before paying) while more than half of
        the board's properties are unowned, else it rolls.
    ``lift_on_receipt``
        lift (cost = the mortgage value) or keep the mortgage, by ``V`` of the
        agent holding the lot (the interest, due either way, is charged in
        both states).
    ``building_bid``
        the building goes to the agent's legal lot of that kind with the
        largest ``V``; the bid is the largest premium ``x`` such that the
        building at list price plus ``x`` is safe and ``V`` with it is at
        least ``V`` without it (bisection, as in auctions); ``None`` when
        even a zero premium fails.
    ``place_building``
        the legal lot of that kind with the largest ``V`` after the building.

Everything comes from the view: board and rules from ``view.board`` and
``view.rules``, the state from ``view.copy()``. The position chain is
cached per (board, rules), checked by identity then equality at each
decision, so that a view of another model of the rules rebuilds it; values
and safety checks are memoised per exact state (cleared with the chain).

Reference: seed 002 (an open-world Monopoly agent, "state evaluation" and
"bankruptcy avoidance").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from engine.chains.markov import PositionChain, chain_for
from engine.rules import legal
from engine.rules.actions import (
    Action,
    Build,
    JailChoice,
    Mortgage,
    SellBuilding,
    Unmortgage,
)
from engine.rules.agents import BaseAgent, check_options
from engine.rules.seeding import SeedLike
from engine.rules.view import GameView
from models.board import HOTEL, Board
from models.errors import InvalidTradeError
from models.rules import Rules
from models.state import BANK, GameState
from models.trade import Trade
from solver.analysis.state_value import m_monopoly, move_is_safe, state_value

_MEMO_LIMIT = 512




def _signature(state: GameState) -> tuple[object, ...]:
    """Everything :func:`solver.analysis.state_value.state_value` and ``move_is_safe`` read from a state."""
    return (
        tuple(state.owner),
        tuple(state.houses),
        tuple(state.mortgaged),
        tuple((p.cash, p.position, p.in_jail, p.jail_turns, p.bankrupt) for p in state.players),
    )


def largest(pred: Callable[[int], bool], lo: int, hi: int) -> int | None:
    """The largest ``x`` in ``[lo, hi]`` with ``pred(x)``, for ``pred`` true up to a
    point and false after it; ``None`` if ``pred(lo)`` is false or ``hi < lo``.

    Bisection: ``O(log(hi - lo))`` calls of ``pred``.

    Parameters
    ----------
    pred : callable
        A predicate on integers, monotone (true, then false).
    lo, hi : int
        The range searched, both ends included.

    Returns
    -------
    int or None
        The largest ``x`` with ``pred(x)``.

    Examples
    --------
    >>> largest(lambda x: x * x <= 50, 0, 100), largest(lambda x: x < 0, 0, 10)
    (7, None)
    """
    if hi < lo or not pred(lo):
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if pred(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


M = TypeVar("M")
"""A move of :meth:`ValueAgent._best` (an action, or ``True`` for a yes-or-no question)."""


class ValueAgent(BaseAgent):
    """Seed 002's agent: ``argmax V(s'_m)`` over the safe moves (module docstring).

    Parameters
    ----------
    seed : int, SeedSequence or None
        As :class:`engine.rules.agents.BaseAgent`.
    k : int, default 5
        The horizon of the state value, in turns (1..100).
    cash_min : int, default 150
        The cash a move must leave (the first bankruptcy condition).
    eps : float, default 1.0
        The least gain in value that makes a move worth making.
    cash_in_assets : bool, default True
        Count cash in the state value.

    Raises
    ------
    InvalidArgumentError
        An option outside :attr:`OPTION_LIMITS`.

    Examples
    --------
    >>> from engine.rules.agents import RandomAgent
    >>> from engine.rules.game import Game
    >>> from engine.rules.streams import SeededStream
    >>> from models.state import GameState
    >>> players = [ValueAgent(seed=1), RandomAgent(seed=2)]
    >>> result = Game(GameState.new_game(["Val", "Rnd"]), players, SeededStream(3), max_rounds=40).play()
    >>> result.winner, result.reason
    ('Val', 'bankruptcy')
    >>> ValueAgent(k=0)
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: option 'k': 0 is outside 1..100
    """

    name = "value"
    OPTION_LIMITS: dict[str, tuple[float, float] | tuple[str, ...]] = {
        "k": (1, 100),
        "cash_min": (0, 10**6),
        "eps": (0.0, 10.0**6),
    }
    """The range of each numeric option (the agent registry refuses others with one line)."""

    def __init__(self, seed: SeedLike = None, *, k: int = 5, cash_min: int = 150, eps: float = 1.0, cash_in_assets: bool = True) -> None:
        check_options(ValueAgent.OPTION_LIMITS, {"k": k, "cash_min": cash_min, "eps": eps})
        super().__init__(seed)
        self.cash_in_assets = cash_in_assets
        self.k = k
        self.cash_min = cash_min
        self.eps = eps
        self._board: Board | None = None
        self._rules: Rules | None = None
        self._chain: PositionChain | None = None
        self._values: dict[tuple[object, ...], float] = {}
        self._safe: dict[tuple[object, ...], bool] = {}

    def start_game(self, me: int, names: tuple[str, ...]) -> None:
        """Keep its seat and the players' names (as :meth:`engine.rules.agents.BaseAgent.start_game`)
        and clear the memoised values and safety checks.

        Parameters
        ----------
        me : int
            The agent's seat.
        names : tuple of str
            Every player's name, in seat order.
        """
        super().start_game(me, names)
        self._values.clear()
        self._safe.clear()

    # -- the seed's value and conditions, cached ----------------------------------
    def _prepare(self, view: GameView) -> GameState:
        """The state copy for this decision; the chain follows the view's board and rules."""
        board, rules = view.board, view.rules
        if board is not self._board or rules is not self._rules:
            if self._chain is None or board != self._board or rules != self._rules:
                self._chain = chain_for(board, rules)
                self._values.clear()
                self._safe.clear()
            self._board, self._rules = board, rules
        return view.copy()

    @property
    def chain(self) -> PositionChain:
        """The position chain of the game's board and rules (set by the first decision)."""
        assert self._chain is not None, "no decision prepared yet"
        return self._chain

    def value(self, state: GameState) -> float:
        """``V(state)`` for this agent (memoised per exact state), after its first decision.

        Parameters
        ----------
        state : GameState
            The position.

        Returns
        -------
        float
            Seed 002's state value (:func:`solver.analysis.state_value.state_value`), plus the
            agent's cash with ``cash_in_assets``.

        Examples
        --------
        >>> from models.io import load_state
        >>> from engine.rules.view import GameView
        >>> state = load_state("instances/late-game-house-shortage.json")
        >>> agent = ValueAgent(seed=0)
        >>> agent.start_game(2, tuple(p.name for p in state.players))
        >>> agent.act(GameView(state, 2))  # a decision: nothing worth doing for Cy
        >>> round(agent.value(state), 1), agent.safe(state, 0), agent.safe(state, 200)
        (-5163.1, True, False)
        """
        key = _signature(state)
        v = self._values.get(key)
        if v is None:
            if len(self._values) >= _MEMO_LIMIT:
                self._values.clear()
            v = state_value(state, self.me, self.k, self.chain).total
            if self.cash_in_assets:
                v += state.players[self.me].cash
            self._values[key] = v
        return v

    def safe(self, state: GameState, cost: float) -> bool:
        """Both bankruptcy-avoidance conditions at ``state`` for a move costing ``cost``;
        a move that spends nothing passes (module docstring).

        Parameters
        ----------
        state : GameState
            The position before the move.
        cost : float
            What the move spends.

        Returns
        -------
        bool
            Whether both conditions hold (example in :meth:`value`).
        """
        if cost <= 0:
            return True
        key = (_signature(state), cost)
        ok = self._safe.get(key)
        if ok is None:
            if len(self._safe) >= _MEMO_LIMIT:
                self._safe.clear()
            ok = all(move_is_safe(state, self.me, cost, cash_min=self.cash_min, chain=self.chain))
            self._safe[key] = ok
        return ok

    def _safe_costs(self, state: GameState, costs: list[float]) -> set[float]:
        """The costs among ``costs`` that pass, checked cheapest first (the conditions
        are monotone in the cost: the first failure ends the search)."""
        ok: set[float] = set()
        for c in sorted(set(costs)):
            if not self.safe(state, c):
                break
            ok.add(c)
        return ok

    def _best(self, state: GameState, moves: list[tuple[M, float, GameState]]) -> M | None:
        """The seed's choice among ``(move, cost, s'_m)``: the safe move with the largest
        ``V`` if it beats doing nothing by more than ``eps``, else ``None``."""
        if not moves:
            return None
        ok = self._safe_costs(state, [c for _, c, _ in moves])
        best: tuple[float, M] | None = None
        for move, cost, after in moves:
            if cost > 0 and cost not in ok:
                continue
            v = self.value(after)
            if best is None or v > best[0]:
                best = (v, move)
        if best is None or best[0] <= self.value(state) + self.eps:
            return None
        return best[1]

    def _max_spend(self, state: GameState, after: GameState, fixed: int, cap: int) -> int | None:
        """The largest extra spend ``x`` in ``[0, cap]`` such that the move ``s -> after``
        costing ``fixed + x`` is safe and ``V(after, cash - x) >= V(s)``; ``None`` if
        none. Only ``M_monopoly`` depends on ``x`` (through ``F``): the other terms are
        computed once; both limits are bisected."""
        if cap < 0:
            return None
        target = self.value(state)
        sv = state_value(after, self.me, self.k, self.chain)
        rest = sv.m_assets + sv.r_s + sv.r_l
        trial = after.copy()
        cash0 = after.players[self.me].cash

        def worth_it(x: int) -> bool:
            trial.players[self.me].cash = cash0 - x
            own = cash0 - x if self.cash_in_assets else 0
            return rest + own + m_monopoly(trial, self.me, sv.r_l, self.k) >= target

        safe_cap = largest(lambda x: self.safe(state, fixed + x), 0, cap)
        if safe_cap is None:
            return None
        return largest(worth_it, 0, safe_cap)

    # -- simulated moves -------------------------------------------------------------
    def _bought(self, state: GameState, square: int, price: int) -> GameState:
        s = state.copy()
        s.owner[square] = self.me
        s.players[self.me].cash -= price
        return s

    def _built(self, state: GameState, square: int, extra: int = 0) -> GameState:
        s = state.copy()
        s.houses[square] += 1
        s.players[self.me].cash -= s.board.squares[square].house_cost + extra
        return s

    def _lifted(self, state: GameState, square: int) -> GameState:
        s = state.copy()
        s.mortgaged[square] = False
        s.players[self.me].cash -= s.rules.unmortgage_cost(s.mortgage_value(square))
        return s

    def _mortgaged(self, state: GameState, square: int) -> GameState:
        s = state.copy()
        s.mortgaged[square] = True
        s.players[self.me].cash += s.mortgage_value(square)
        return s

    def _sold(self, state: GameState, square: int) -> GameState:
        s = state.copy()
        level = s.houses[square]
        changes = legal.hotel_break_levels(s, self.me, square) if level == HOTEL else {square: level - 1}
        for lot, new in changes.items():
            s.players[self.me].cash += (s.houses[lot] - new) * s.rules.sell_value(s.board.squares[lot].house_cost)
            s.houses[lot] = new
        return s

    # -- decisions ---------------------------------------------------------------------
    def buy(self, view: GameView, square: int) -> bool:
        """Buy when buying is safe (cost: the price) and ``V`` after it beats ``V`` now by more
        than ``eps``.

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
        state = self._prepare(view)
        price = view.board.squares[square].price
        return self._best(state, [(True, price, self._bought(state, square, price))]) is True

    def auction_max(self, view: GameView, square: int) -> int:
        """The largest bid ``b``, exact to the dollar and at most its cash, such that winning at ``b``
        is safe (cost ``b``) and ``V`` after winning at ``b`` is at least ``V`` now (bisection, module
        docstring).

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.
        square : int
            The lot.

        Returns
        -------
        int
            The highest bid; 0 when no bid of $1 or more qualifies (or its cash is below $1).
        """
        state = self._prepare(view)
        cash = view.cash(self.me)
        if cash < 1:
            return 0
        after = self._bought(state, square, 1)  # won at $1; the search adds the rest
        x = self._max_spend(state, after, 1, cash - 1)
        return 0 if x is None else 1 + x

    def act(self, view: GameView) -> Action | None:
        """One legal build or unmortgage: the safe one (cost: the house cost, or the mortgage value
        plus interest) with the largest ``V`` after it, when that beats doing nothing by more than ``eps``.

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.

        Returns
        -------
        Action or None
            A ``Build`` or ``Unmortgage``; ``None`` ends the phase.
        """
        builds = self.refusals.listed(view, Build)  # the host's lists, less what it refused here
        lifts = self.refusals.listed(view, Unmortgage)
        if not builds and not lifts:
            return None
        state = self._prepare(view)
        moves: list[tuple[Action, float, GameState]] = []
        for sq in builds:
            moves.append((Build(sq), view.board.squares[sq].house_cost, self._built(state, sq)))
        for sq in lifts:
            moves.append((Unmortgage(sq), view.rules.unmortgage_cost(view.mortgage_value(sq)), self._lifted(state, sq)))
        return self._best(state, moves)

    def raise_cash(self, view: GameView, owed: int) -> Action | None:
        """Among the legal building sales (hotels broken as the engine breaks them) and mortgages,
        the one with the largest ``V`` afterwards; no safety filter (these moves bring cash in).

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.
        owed : int
            The whole payment (the rule does not read it).

        Returns
        -------
        Action or None
            A ``SellBuilding`` or ``Mortgage``; ``None`` only when nothing is legal.
        """
        state = self._prepare(view)
        options: list[tuple[Action, GameState]] = [(SellBuilding(sq), self._sold(state, sq)) for sq in self.refusals.listed(view, SellBuilding)]
        options += [(Mortgage(sq), self._mortgaged(state, sq)) for sq in self.refusals.listed(view, Mortgage)]
        if not options:
            return None
        return max(options, key=lambda o: self.value(o[1]))[0]

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        """Accept when ``V`` after the trade (applied on a copy, without lifting) beats ``V`` now by
        more than ``eps`` and the trade is safe, its cost the net cash it takes from the agent plus the
        interest due on the mortgaged lots it receives (at least 0). An invalid trade is refused.

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
        state = self._prepare(view)
        after = state.copy()
        try:
            due = trade.apply(after)
        except InvalidTradeError:
            return False
        me = view.name(self.me)
        cost = max(0, -trade.net_cash(me) + due.get(me, 0))
        return self._best(state, [(True, cost, after)]) is True

    def jail_choice(self, view: GameView) -> JailChoice:
        """The choice with the largest ``V``: roll (cost 0), card (only when held) or pay the fine
        (only with the cash for it, and safe). When several are within ``eps`` of the best, it rolls if
        rolling is among them and at most half of the board's properties are unowned; otherwise it takes
        the first of card, pay, roll among them.

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.

        Returns
        -------
        JailChoice
            ``card``, ``pay`` or ``roll``.
        """
        state = self._prepare(view)
        me = view.player(self.me)
        fine = view.rules.jail_fine

        def out(cost: int, cards: int) -> GameState:
            s = state.copy()
            p = s.players[self.me]
            p.in_jail, p.jail_turns = False, 0
            p.cash -= cost
            p.jail_cards -= cards
            return s

        values: dict[JailChoice, float] = {"roll": self.value(state)}
        if me.jail_cards:
            values["card"] = self.value(out(0, 1))
        if me.cash >= fine and self.safe(state, fine):
            values["pay"] = self.value(out(fine, 0))
        top = max(values.values())
        tied = [c for c in ("card", "pay", "roll") if c in values and values[c] >= top - self.eps]
        if len(tied) == 1:
            return tied[0]
        unowned = sum(1 for sq in view.board.property_squares if view.owner_of(sq) == BANK)
        if "roll" in tied and 2 * unowned <= len(view.board.property_squares):
            return "roll"
        return tied[0]  # card before pay before roll

    def lift_on_receipt(self, view: GameView, square: int) -> bool:
        """Lift a mortgaged lot received when, the interest paid, its cash covers the mortgage value,
        lifting is safe (cost: the mortgage value) and ``V`` with the lot lifted beats ``V`` with it
        mortgaged by more than ``eps``.

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
        state = self._prepare(view)
        value = view.mortgage_value(square)
        held = state.copy()
        held.owner[square] = self.me
        held.mortgaged[square] = True
        held.players[self.me].cash -= view.rules.interest(value)
        lifted = held.copy()
        lifted.mortgaged[square] = False
        lifted.players[self.me].cash -= value
        if held.players[self.me].cash < value:
            return False
        return self._best(held, [(True, value, lifted)]) is True

    def _lots_for(self, view: GameView, kind: str) -> list[int]:
        return [sq for sq in view.legal_builds() if (view.level(sq) == HOTEL - 1) == (kind == "hotel")]

    def place_building(self, view: GameView, kind: str) -> int:
        """The legal lot for a ``kind`` with the largest ``V`` after the building; with no legal lot,
        :meth:`engine.rules.agents.BaseAgent.place_building` (which raises ``NoLegalLotError``).

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
        """
        lots = self._lots_for(view, kind)
        if not lots:
            return super().place_building(view, kind)
        state = self._prepare(view)
        return max(lots, key=lambda sq: self.value(self._built(state, sq)))

    def building_bid(self, view: GameView, kind: str) -> int | None:
        """In a building shortage, the premium it offers for the building on its legal lot of that
        kind with the largest ``V``: the largest ``x`` such that the building at its house cost plus
        ``x`` is safe and ``V`` with it is at least ``V`` now (bisection, as in auctions).

        Parameters
        ----------
        view : GameView
            The game as this seat sees it.
        kind : str
            ``house`` or ``hotel``.

        Returns
        -------
        int or None
            The premium in dollars; ``None`` when it has no legal lot of that kind or even a zero
            premium fails.
        """
        lots = self._lots_for(view, kind)
        if not lots:
            return None
        state = self._prepare(view)
        sq = max(lots, key=lambda q: self.value(self._built(state, q)))
        cost = view.board.squares[sq].house_cost
        return self._max_spend(state, self._built(state, sq), cost, view.cash(self.me) - cost)


__all__ = ["ValueAgent", "largest"]
