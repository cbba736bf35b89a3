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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.rules import legal
from engine.rules.actions import (
    Action,
    Build,
    Event,
    Mortgage,
    ProposeTrade,
    SellBuilding,
    Unmortgage,
)
from engine.rules.agents import Agent
from engine.rules.streams import RandomStream
from engine.rules.view import GameView
from models.board import HOTEL, PROPERTY_TYPES, Card
from models.errors import IllegalActionError, InvalidTradeError
from models.rules import Rules
from models.state import BANK, GameState
from models.trade import Trade

Observer = Callable[[Event, "Game"], None]

MAX_ACTIONS_PER_PHASE = 64
"""An ``act`` or ``raise_cash`` phase closes after this many actions."""
MAX_TRADES_PER_PHASE = 2
"""An ``act`` phase closes at the third trade proposal (no trade spam)."""
POT_REASONS = frozenset({"jail fine", "jail fine (third failed roll)", "card", "repairs"})
"""``why`` of the bank payments (besides taxes, see ``Game._land``) that feed the Free
Parking pot under ``rules.free_parking="bank"``."""
ROUND_ENDS = frozenset({"round_cap", "round_limit", "cash_target"})
"""Reasons of a game ended short of a last player standing: won by net worth."""


@dataclass(frozen=True)
class GameResult:
    winner: str | None
    winner_index: int | None
    rounds: int
    turns: int
    reason: str
    net_worths: dict[str, int]
    bankrupt_order: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "rounds": self.rounds,
            "turns": self.turns,
            "reason": self.reason,
            "net_worths": dict(self.net_worths),
            "bankrupt_order": list(self.bankrupt_order),
        }


class Deck:
    """A shuffled deck: draw from the top; reshuffle every card not held when empty."""

    def __init__(self, name: str, cards: Sequence[Card], stream: RandomStream) -> None:
        self.name = name
        self.cards = cards
        self.stream = stream
        self.held: set[int] = set()
        self._pile: list[int] = []  # reversed: the next card is at the end

    def draw(self) -> int:
        if not self._pile:
            available = [i for i in range(len(self.cards)) if i not in self.held]
            order = self.stream.shuffle(self.name, len(available))
            self._pile = [available[k] for k in reversed(order)]
        return self._pile.pop()


@dataclass
class _Phase:
    actions: int = 0
    trades: int = 0


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
            raise ValueError(f"{len(agents)} agents for {len(state.players)} players")
        if max_rounds < 1:
            raise ValueError("max_rounds must be >= 1")
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
        self._emit("game_start", None, round=state.round)
        if len(state.active_players()) <= 1:
            self._end("bankruptcy")
        elif state.phase == "start":
            self._check_end()

    # ------------------------------------------------------------------
    # running
    # ------------------------------------------------------------------
    def play(self) -> GameResult:
        """Play to the end and return the result."""
        while not self.over:
            self.play_turn()
        assert self.result is not None
        return self.result

    def play_turn(self) -> None:
        """Play the turn of ``state.to_move`` (from wherever its phase stands)."""
        if self.over:
            return
        s = self.state
        p = s.to_move
        self.turns += 1
        self.stream.begin_turn(p)
        if s.phase == "start":
            self._emit("turn", p, round=s.round)
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
        n = len(self.state.players)
        return [(start + k) % n for k in range(n) if not self.state.players[(start + k) % n].bankrupt]

    def _next_turn(self, p: int) -> None:
        s = self.state
        s.phase = "start"
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
            self._end("cash_target")
        elif s.rules.round_limit is not None and s.round >= s.rules.round_limit:
            self._end("round_limit")
        elif s.round >= self.max_rounds:
            self._end("round_cap")

    @property
    def pot(self) -> int:
        """The Free Parking pot (``GameState.pot``)."""
        return self.state.pot

    def _end(self, reason: str) -> None:
        s = self.state
        active = s.active_players()
        if active and s.players[s.to_move].bankrupt:
            # The final state stays a valid state: the next active player in seat order is to move
            # (the winner, when one is left), at the start of a turn.
            n = len(s.players)
            s.to_move = next((s.to_move + k) % n for k in range(1, n + 1) if not s.players[(s.to_move + k) % n].bankrupt)
            s.phase = "start"
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
        self._emit("game_end", winner, reason=reason)

    # ------------------------------------------------------------------
    # events
    # ------------------------------------------------------------------
    def _emit(self, kind: str, player: int | None = None, **data: Any) -> None:
        event = Event(kind, player, data)
        for agent in self.agents:
            agent.notify(event)
        for obs in self.observers:
            obs(event, self)

    # ------------------------------------------------------------------
    # dice, movement, squares
    # ------------------------------------------------------------------
    def _roll(self, p: int, why: str = "move") -> tuple[tuple[int, ...], bool]:
        dice = self.stream.roll(self.state.rules.dice)
        doubles = len(dice) >= 2 and all(d == dice[0] for d in dice)
        self._emit("roll", p, dice=dice, doubles=doubles, why=why)
        return dice, doubles

    def _roll_and_move(self, p: int) -> bool:
        """One ordinary roll; returns whether the player rolls again."""
        s = self.state
        dice, doubles = self._roll(p)
        s.phase = "rolled"
        rules = s.rules
        if doubles:
            run = 1
            if rules.doubles_again:
                s.doubles_rolled += 1
                run = s.doubles_rolled
            if rules.doubles_to_jail and run >= rules.doubles_to_jail:
                self._send_to_jail(p, "third double" if rules.doubles_to_jail == 3 else f"double number {run}")
                self._emit("roll_end", p, position=s.players[p].position, in_jail=True)
                self._act(p)
                return False
        else:
            s.doubles_rolled = 0
        total = sum(dice)
        self._move(p, total, "dice")
        self._land(p, total)
        return self._after_roll(p)

    def _after_roll(self, p: int) -> bool:
        s = self.state
        pl = s.players[p]
        if pl.bankrupt or self.over:
            return False
        if pl.in_jail:
            s.doubles_rolled = 0
        self._emit("roll_end", p, position=pl.position, in_jail=pl.in_jail)
        self._act(p)
        return s.doubles_rolled > 0 and not pl.in_jail and not pl.bankrupt

    def _jail_turn(self, p: int) -> bool:
        s = self.state
        pl = s.players[p]
        choice = self.agents[p].jail_choice(self.views[p])
        fine = s.rules.jail_fine
        if choice == "card":
            if not self.held_cards[p]:
                raise IllegalActionError(f"{pl.name} has no Get Out of Jail Free card")
            deck, idx = self.held_cards[p].pop()
            self.decks[deck].held.discard(idx)
            pl.jail_cards -= 1
            self._leave_jail(p, "card")
            return self._roll_and_move(p)
        if choice == "pay" and self.announced_rules is not None and not self.movement_only and pl.cash < fine:
            # The announced rules hid the fine (a novelty trial): the referee refuses, the player rolls.
            self._emit("refused", p, action="pay", why=f"cannot pay the ${fine} fine")
            choice = "roll"
        if choice == "pay":
            if not self.movement_only and pl.cash < fine:
                raise IllegalActionError(f"{pl.name} cannot pay the ${fine} fine")
            self._pay(p, fine, None, "jail fine")
            self._leave_jail(p, "pay")
            return self._roll_and_move(p)
        if choice != "roll":
            raise IllegalActionError(f"unknown jail choice {choice!r}")
        rules = s.rules
        last = pl.jail_turns + 1 >= rules.max_jail_rolls
        s.phase = "rolled"
        s.doubles_rolled = 0
        if not rules.jail_doubles and not (last and rules.jail_release == "pay"):
            # Nothing to roll for: the player sits this turn out (and leaves free after the last).
            return self._stay_in_jail(p, last)
        dice, doubles = self._roll(p, "jail")
        if doubles and rules.jail_doubles:
            self._leave_jail(p, "doubles")
        else:
            if not last or rules.jail_release == "free":
                return self._stay_in_jail(p, last)
            if not self._pay(p, fine, None, "jail fine (third failed roll)"):
                return False
            self._leave_jail(p, "third roll")
        total = sum(dice)
        self._move(p, total, "dice")
        self._land(p, total)
        self._after_roll(p)
        return False

    def _stay_in_jail(self, p: int, last: bool) -> bool:
        """A jail turn without a move: one more turn counted, or after the last one
        (``jail_release="free"``) the player leaves, free, without moving. Returns ``False``."""
        pl = self.state.players[p]
        if last:
            self._leave_jail(p, "served")
        else:
            pl.jail_turns += 1
        self._emit("roll_end", p, position=pl.position, in_jail=pl.in_jail)
        self._act(p)
        return False

    def _leave_jail(self, p: int, how: str) -> None:
        pl = self.state.players[p]
        pl.in_jail = False
        pl.jail_turns = 0
        self._emit("leave_jail", p, how=how)

    def _send_to_jail(self, p: int, why: str) -> None:
        s = self.state
        pl = s.players[p]
        pl.position = s.board.jail
        pl.in_jail = True
        pl.jail_turns = 0
        s.doubles_rolled = 0
        self._emit("jail", p, why=why)

    def _move(self, p: int, steps: int, why: str) -> None:
        """Move ``steps`` squares (negative: backwards); forward past Go pays the salary."""
        s = self.state
        pl = s.players[p]
        n = s.board.size
        start = pl.position
        pl.position = (start + steps) % n
        passed = steps > 0 and start + steps >= n
        self._emit("move", p, frm=start, to=pl.position, passed_go=passed, why=why)
        if passed:
            self._cash(None, p, s.rules.go_salary, "Go salary")
            if pl.position == 0 and s.rules.go_landing_bonus:
                self._cash(None, p, s.rules.go_salary, "Go landing bonus")

    def _land(self, p: int, dice_total: int, card: Card | None = None) -> None:
        s = self.state
        pl = s.players[p]
        sq = s.board.squares[pl.position]
        kind = sq.kind
        if kind in PROPERTY_TYPES:
            if self.movement_only:
                return
            owner = s.owner[sq.index]
            if owner == BANK:
                self._offer(p, sq.index)
            elif owner != p:
                rent = self.rent(sq.index, dice_total, card, p)
                if rent:
                    self._pay(p, rent, owner, f"rent on {sq.name}")
        elif kind == "tax":
            self._pay(p, sq.amount, None, sq.name, pot=s.rules.pot_enabled)
        elif kind in ("chance", "community_chest"):
            self._draw_card(p, kind, dice_total)
        elif kind == "go_to_jail":
            self._send_to_jail(p, "Go To Jail square")
        elif kind == "free_parking" and s.rules.pot_enabled and not self.movement_only:
            self._collect_pot(p)

    def _collect_pot(self, p: int) -> None:
        """``p`` collects the Free Parking pot; the bank puts ``free_parking_seed`` back in (what it has)."""
        s = self.state
        if s.pot:
            amount, s.pot = s.pot, 0
            s.players[p].cash += amount
            self._emit("cash", p, frm=None, to=p, amount=amount, why="Free Parking pot")
        seed = s.rules.free_parking_seed
        if s.bank_cash is not None:
            seed = min(seed, s.bank_cash)
            s.bank_cash -= seed
        s.pot += seed

    def rent(self, square: int, dice_total: int, card: Card | None = None, payer: int | None = None) -> int:
        """Rent due on ``square`` (see the module docstring). A utility card rolls fresh dice."""
        s = self.state
        if s.mortgaged[square]:
            return 0
        owner = s.owner[square]
        sq = s.board.squares[square]
        if sq.kind == "street":
            level = s.houses[square]
            if level:
                return sq.rents[level]
            assert sq.group is not None
            return sq.rents[0] * (2 if s.has_monopoly(owner, sq.group) else 1)
        count = s.count_in_group(owner, sq.kind)
        if sq.kind == "railroad":
            mult = card.rent_multiplier if card is not None and card.action == "advance_nearest" else 1
            return s.board.railroad_rents[count - 1] * mult
        if card is not None and card.action == "advance_nearest" and card.dice_multiplier:
            dice, _ = self._roll(payer if payer is not None else owner, "utility card")
            return card.dice_multiplier * sum(dice)
        return s.board.utility_multipliers[count - 1] * dice_total

    # ------------------------------------------------------------------
    # cards
    # ------------------------------------------------------------------
    def _draw_card(self, p: int, deck_name: str, dice_total: int) -> None:
        s = self.state
        cards = s.board.deck(deck_name)
        deck = self.decks[deck_name]
        if self.movement_only or s.rules.card_draw == "replacement":
            free = [i for i in range(len(cards)) if i not in deck.held]
            idx = free[self.stream.draw(deck_name, len(free))]
        else:
            idx = deck.draw()
        card = cards[idx]
        self._emit("card", p, deck=deck_name, card=idx, text=card.text)
        pl = s.players[p]
        n = s.board.size
        action = card.action
        if action == "advance_to":
            assert card.square is not None
            self._move(p, (card.square - pl.position) % n or n, "card")
            self._land(p, dice_total, card)
        elif action == "advance_nearest":
            steps = next(k for k in range(1, n + 1) if s.board.squares[(pl.position + k) % n].kind == card.group)
            self._move(p, steps, "card")
            self._land(p, dice_total, card)
        elif action == "move":
            self._move(p, card.steps, "card")
            self._land(p, dice_total, card)
        elif action == "go_to_jail":
            self._send_to_jail(p, "card")
        elif action == "jail_free":
            if not self.movement_only:
                deck.held.add(idx)
                self.held_cards[p].append((deck_name, idx))
                pl.jail_cards += 1
        elif action == "repairs":
            houses, hotels = s.building_counts(p)
            self._pay(p, houses * card.house + hotels * card.hotel, None, "repairs")
        elif action == "cash":
            if card.amount >= 0:
                self._cash(None, p, card.amount, "card")
            else:
                self._pay(p, -card.amount, None, "card")
        elif action == "each_player":
            others = [q for q in s.active_players() if q != p]
            if card.amount < 0:
                self._pay_each(p, others, -card.amount, "card")
            else:
                for q in others:
                    if self.over or s.players[p].bankrupt:
                        break
                    if not s.players[q].bankrupt:
                        self._pay(q, card.amount, p, "card")

    # ------------------------------------------------------------------
    # buying and auctions
    # ------------------------------------------------------------------
    def _offer(self, p: int, square: int) -> None:
        s = self.state
        price = s.board.squares[square].price
        # rules.auction_only never offers the lot to the lander.
        if not s.rules.auction_only and s.players[p].cash >= price and self.agents[p].buy(self.views[p], square):
            self._cash(p, None, price, "purchase")
            s.owner[square] = p
            self._acquired(p, [square])
            self._emit("buy", p, square=square, price=price)
        elif s.rules.auctions:
            self.auction(square, p)
        else:
            self._emit("declined", p, square=square)

    def _second_price(self, bids: list[tuple[int, int]]) -> tuple[int, int] | None:
        """Winner and price of a second-price auction on ``(player, maximum)`` pairs
        listed in tie-break order; ``None`` when nobody bids at least $1.

        A lone bidder pays $1 (the opening bid); otherwise the winner pays the
        second-highest maximum plus $1, capped at its own maximum.
        """
        live = [(m, k, q) for k, (q, m) in enumerate(bids) if m >= 1]
        if not live:
            return None
        live.sort(key=lambda t: (-t[0], t[1]))
        top, _, winner = live[0]
        second = live[1][0] if len(live) > 1 else 0
        return winner, min(top, second + 1)

    def auction(self, square: int, lander: int) -> int | None:
        """Auction ``square`` among the active players (turn order from ``lander``)."""
        s = self.state
        bids = []
        for q in self._turn_order(lander):
            m = int(self.agents[q].auction_max(self.views[q], square))
            bids.append((q, max(0, min(m, s.players[q].cash))))
        outcome = self._second_price(bids)
        if outcome is None:
            self._emit("auction", None, square=square, winner=None, price=0)
            return None
        winner, price = outcome
        self._cash(winner, None, price, "auction")
        s.owner[square] = winner
        self._acquired(winner, [square])
        self._emit("auction", winner, square=square, winner=winner, price=price)
        return winner

    # ------------------------------------------------------------------
    # money
    # ------------------------------------------------------------------
    def _cash(self, frm: int | None, to: int | None, amount: int, why: str, *, pot: bool = False) -> None:
        """Move cash (``None`` is the bank) and report it. A finite bank pays what it holds;
        ``pot``: a payment to the bank goes to the Free Parking pot instead."""
        if amount == 0 or self.movement_only:
            return
        s = self.state
        players = s.players
        if frm is None and s.bank_cash is not None:
            amount = min(amount, s.bank_cash)
            if amount == 0:
                return
            s.bank_cash -= amount
        if frm is not None:
            players[frm].cash -= amount
        if to is not None:
            players[to].cash += amount
        elif pot:
            s.pot += amount
        elif s.bank_cash is not None:
            s.bank_cash += amount
        self._emit("cash", frm if frm is not None else to, frm=frm, to=to, amount=amount, why=why)

    def _pay(self, p: int, amount: int, creditor: int | None, why: str, *, pot: bool = False) -> bool:
        """``p`` pays ``amount`` to ``creditor`` (``None``: the bank; with ``pot``, or for one of
        :data:`POT_REASONS` under ``free_parking="bank"``, the Free Parking pot), raising cash or
        going bankrupt if it must. Returns whether it paid."""
        if amount <= 0 or self.movement_only:
            return True
        pl = self.state.players[p]
        if pl.cash < amount:
            self._raise_cash(p, amount)
        if pl.cash >= amount:
            to_pot = creditor is None and (pot or (why in POT_REASONS and self.state.rules.free_parking == "bank"))
            self._cash(p, creditor, amount, why, pot=to_pot)
            return True
        self._bankrupt(p, [(creditor, amount)])
        return False

    def _pay_each(self, p: int, creditors: list[int], each: int, why: str) -> bool:
        if not creditors or each <= 0 or self.movement_only:
            return True
        total = each * len(creditors)
        pl = self.state.players[p]
        if pl.cash < total:
            self._raise_cash(p, total)
        if pl.cash >= total:
            for c in creditors:
                self._cash(p, c, each, why)
            return True
        self._bankrupt(p, [(c, each) for c in creditors])
        return False

    def _raise_cash(self, p: int, owed: int) -> None:
        s = self.state
        pl = s.players[p]
        phase = _Phase()
        while pl.cash < owed and phase.actions < MAX_ACTIONS_PER_PHASE:
            self.views[p].set_budget(MAX_ACTIONS_PER_PHASE - phase.actions, MAX_TRADES_PER_PHASE - phase.trades)
            action = self.agents[p].raise_cash(self.views[p], owed)
            self.views[p].set_budget(None, None)
            if action is None:
                break
            if isinstance(action, (Build, Unmortgage)):
                raise IllegalActionError("a player in debt may only sell, mortgage or trade")
            phase.actions += 1
            if isinstance(action, ProposeTrade):
                phase.trades += 1
                if phase.trades > MAX_TRADES_PER_PHASE:
                    break
            self._apply(p, action)
        if pl.cash < owed <= s.liquidation_value(p):
            self.liquidate(p, owed)

    def liquidate(self, p: int, owed: int) -> None:
        """Raise cash in a fixed order until ``owed`` is covered or nothing is left.

        First mortgage, cheapest mortgage value first, properties outside a
        monopoly, then monopoly lots without buildings; then sell buildings
        one at a time, from the cheapest building type, evenly.
        """
        s = self.state
        while s.players[p].cash < owed:
            mortgages = legal.legal_mortgages(s, p)
            if mortgages:
                sq = min(mortgages, key=lambda q: (s.has_monopoly(p, s.group_of(q)), s.mortgage_value(q), q))
                self._apply(p, Mortgage(sq))
                continue
            sales = legal.legal_building_sales(s, p)
            if not sales:
                return
            sq = min(sales, key=lambda q: (s.board.squares[q].house_cost, -s.houses[q], q))
            self._apply(p, SellBuilding(sq))

    def _bankrupt(self, p: int, debts: list[tuple[int | None, int]]) -> None:
        s = self.state
        pl = s.players[p]
        # Buildings go back to the bank at half price first.
        for sq in s.properties_of(p):
            level = s.houses[sq]
            if level:
                s.houses[sq] = 0
                self._cash(None, p, level * s.rules.sell_value(s.board.squares[sq].house_cost), "bankruptcy sale")
        props = s.properties_of(p)
        single = len(debts) == 1 and debts[0][0] is not None
        if single:
            c = debts[0][0]
            assert c is not None
            self._cash(p, c, pl.cash, "bankruptcy")
            for sq in props:
                s.owner[sq] = c
            self._acquired(c, props)
            self.held_cards[c].extend(self.held_cards[p])
            s.players[c].jail_cards += pl.jail_cards
        else:
            total = sum(a for _, a in debts)
            cash = pl.cash
            shares = [(c, cash * a // total) for c, a in debts]
            shares[0] = (shares[0][0], shares[0][1] + cash - sum(v for _, v in shares))
            for c, v in shares:
                self._cash(p, c, v, "bankruptcy")
            for sq in props:
                s.owner[sq] = BANK
                s.mortgaged[sq] = False
            for deck, idx in self.held_cards[p]:
                self.decks[deck].held.discard(idx)
        self.held_cards[p] = []
        pl.jail_cards = 0
        pl.bankrupt = True
        pl.in_jail = False
        pl.jail_turns = 0
        self.bankrupt_order.append(pl.name)
        creditor = debts[0][0] if single else None
        self._emit("bankrupt", p, creditor=creditor, properties=tuple(props))
        if len(s.active_players()) <= 1:
            if single:
                assert creditor is not None
                self._settle_forced_lifts(creditor, props)
            self._end("bankruptcy")
            return
        if single:
            assert creditor is not None
            for sq in props:
                if s.mortgaged[sq] and not self._receive_mortgaged(creditor, sq):
                    return
        elif s.rules.auctions:
            nxt = self._turn_order((p + 1) % len(s.players))
            for sq in props:
                if self.over:
                    return
                self.auction(sq, nxt[0])

    def _settle_forced_lifts(self, c: int, props: list[int]) -> None:
        """The bankruptcy that ends the game: ``c``, the winner, still lifts every mortgaged lot it
        received in a group where it has buildings (no interest: the game is over), when its
        liquidation value covers it, so that the final state is a valid state."""
        s = self.state
        for sq in props:
            if not s.mortgaged[sq] or s.owner[sq] != c:
                continue
            if not any(s.owner[o] == c and s.houses[o] for o in s.board.groups[s.group_of(sq)]):
                continue
            value = s.mortgage_value(sq)
            if s.liquidation_value(c) >= value and self._pay(c, value, None, "mortgage lifted (buildings in the group)"):
                s.mortgaged[sq] = False
                self._emit("unmortgage", c, square=sq)

    def _receive_mortgaged(self, c: int, sq: int) -> bool:
        """``c`` received mortgaged ``sq``: pay the interest now, lift if it wishes.

        If ``c`` has buildings in ``sq``'s group (possible only when
        ``rules.set_size`` lets it build on part of a group), it must lift the
        mortgage at once, raising the money like any debt (selling those
        buildings if need be): a group with buildings never holds a mortgaged
        lot of the same owner, so every state stays valid.

        Returns ``False`` if ``c`` went bankrupt paying."""
        s = self.state
        value = s.mortgage_value(sq)
        lift = self.agents[c].lift_on_receipt(self.views[c], sq)
        if not self._pay(c, s.rules.interest(value), None, "interest on a mortgaged property received"):
            return False
        group = s.group_of(sq)
        forced = any(s.owner[o] == c and s.houses[o] for o in s.board.groups[group])
        if forced and s.owner[sq] == c and s.mortgaged[sq]:
            if not self._pay(c, value, None, "mortgage lifted (buildings in the group)"):
                return False
            s.mortgaged[sq] = False
            self._emit("unmortgage", c, square=sq)
        elif lift and s.players[c].cash >= value and s.owner[sq] == c:
            self._cash(c, None, value, "mortgage lifted")
            s.mortgaged[sq] = False
            self._emit("unmortgage", c, square=sq)
        return True

    # ------------------------------------------------------------------
    # actions
    # ------------------------------------------------------------------
    def _act(self, p: int) -> None:
        if self.over or self.state.players[p].bankrupt or self.movement_only:
            return
        phase = _Phase()
        while phase.actions < MAX_ACTIONS_PER_PHASE and not self.over:
            self.views[p].set_budget(MAX_ACTIONS_PER_PHASE - phase.actions, MAX_TRADES_PER_PHASE - phase.trades)
            action = self.agents[p].act(self.views[p])
            self.views[p].set_budget(None, None)
            if action is None:
                return
            phase.actions += 1
            if isinstance(action, ProposeTrade):
                phase.trades += 1
                if phase.trades > MAX_TRADES_PER_PHASE:
                    return
            self._apply(p, action)

    def _apply(self, p: int, action: Action) -> None:
        s = self.state
        if isinstance(action, Build):
            self._build(p, action.square)
        elif isinstance(action, SellBuilding):
            self._check(legal.why_not_sell_building(s, p, action.square))
            changes = self._sell_one(p, action.square)
            self._emit("sell_building", p, square=action.square, levels=changes)
        elif isinstance(action, Mortgage):
            self._check(legal.why_not_mortgage(s, p, action.square))
            s.mortgaged[action.square] = True
            self._cash(None, p, s.mortgage_value(action.square), "mortgage")
            self._emit("mortgage", p, square=action.square)
        elif isinstance(action, Unmortgage):
            self._check(legal.why_not_unmortgage(s, p, action.square))
            self._cash(p, None, s.rules.unmortgage_cost(s.mortgage_value(action.square)), "mortgage lifted")
            s.mortgaged[action.square] = False
            self._emit("unmortgage", p, square=action.square)
        elif isinstance(action, ProposeTrade):
            self.propose_trade(p, action.trade)
        else:
            raise IllegalActionError(f"unknown action {action!r}")

    def _sell_one(self, p: int, sq: int) -> dict[int, int]:
        """Sell one building level of ``sq`` (a hotel breaks as ``legal.hotel_break_levels``
        says); pays the owner and returns the new levels of the lots that changed."""
        s = self.state
        changes = legal.hotel_break_levels(s, p, sq) if s.houses[sq] == HOTEL else {sq: s.houses[sq] - 1}
        value = 0
        for lot, new in changes.items():
            value += (s.houses[lot] - new) * s.rules.sell_value(s.board.squares[lot].house_cost)
            s.houses[lot] = new
        self._cash(None, p, value, "building sold")
        return changes

    def _acquired(self, p: int, squares: Iterable[int]) -> None:
        """Keep building even after ``p`` acquires lots.

        Only a ``set_size`` novelty lets a player acquire a bare lot in a group
        where it already has buildings (trades need unimproved groups, and a
        bankrupt's buildings are sold first). Its buildings in that group are
        then sold back at half price, highest lot first, until the levels
        differ by at most one again, so that every state stays a valid state
        file. Only ``cash`` events are emitted until the group is even; then
        one ``even_out`` event.
        """
        s = self.state
        changed: dict[int, int] = {}
        for group in sorted({s.group_of(sq) for sq in squares}):
            lots = [sq for sq in s.board.groups[group] if s.owner[sq] == p]
            while lots and max(s.houses[q] for q in lots) - min(s.houses[q] for q in lots) > 1:
                top = max(lots, key=lambda q: (s.houses[q], q))
                changed.update(self._sell_one(p, top))
        if changed:
            self._emit("even_out", p, levels=changed)

    @staticmethod
    def _check(reason: str | None) -> None:
        if reason is not None:
            raise IllegalActionError(reason)

    def _can_build_kind(self, q: int, kind: str) -> bool:
        s = self.state
        return any((s.houses[sq] == HOTEL - 1) == (kind == "hotel") for sq in legal.legal_builds(s, q))

    def _build(self, p: int, square: int) -> None:
        s = self.state
        self._check(legal.why_not_build(s, p, square))
        kind = "hotel" if s.houses[square] == HOTEL - 1 else "house"
        supply = s.hotels_in_bank() if kind == "hotel" else s.houses_in_bank()
        rivals = [q for q in self._turn_order(p) if q != p and self._can_build_kind(q, kind)]
        if rivals and supply < 1 + len(rivals):
            self._building_auction(p, square, kind, rivals)
            return
        self._place(p, square, 0)

    def _place(self, p: int, square: int, premium: int) -> None:
        s = self.state
        cost = s.board.squares[square].house_cost
        self._cash(p, None, cost + premium, "building")
        s.houses[square] += 1
        self._emit("build", p, square=square, level=s.houses[square], premium=premium)

    def _building_auction(self, p: int, square: int, kind: str, rivals: list[int]) -> None:
        """The bank's scarce building goes to the highest premium over list price."""
        s = self.state

        def cap(q: int) -> int:
            # Capped by the dearest lot the rival could place it on, so that any
            # placement it chooses stays affordable.
            costs = [
                s.board.squares[sq].house_cost
                for sq in legal.legal_builds(s, q)
                if (s.houses[sq] == HOTEL - 1) == (kind == "hotel")
            ]
            return s.players[q].cash - max(costs)

        own = self.agents[p].building_bid(self.views[p], kind)
        bids = [(p, max(0, min(own or 0, s.players[p].cash - s.board.squares[square].house_cost)))]
        for q in rivals:
            b = self.agents[q].building_bid(self.views[q], kind)
            if b is not None:
                bids.append((q, max(0, min(int(b), cap(q)))))
        if len(bids) == 1:
            self._place(p, square, 0)
            return
        # Premiums may be 0: shift by one so that a zero premium still counts as a bid.
        outcome = self._second_price([(q, m + 1) for q, m in bids])
        assert outcome is not None
        winner, price = outcome
        premium = price - 1
        self._emit("building_auction", winner, building=kind, premium=premium, requester=p)
        if winner == p:
            self._place(p, square, premium)
            return
        lot = self.agents[winner].place_building(self.views[winner], kind)
        if legal.why_not_build(s, winner, lot) is not None or (s.houses[lot] == HOTEL - 1) != (kind == "hotel"):
            raise IllegalActionError(f"{s.players[winner].name} cannot place a {kind} on square {lot}")
        self._place(winner, lot, premium)

    def propose_trade(self, p: int, trade: Trade) -> bool:
        """``p`` proposes ``trade``; every other participant must accept. Returns whether it happened."""
        s = self.state
        self._check(legal.why_not_propose(s, p, trade))
        idx = {pl.name: i for i, pl in enumerate(s.players)}
        for other in trade.participants():
            q = idx[other]
            if q != p and not self.agents[q].accept_trade(self.views[q], trade):
                self._emit("trade", p, trade=trade, accepted=False, refused_by=q)
                return False
        lift: dict[str, bool] = {}
        for t in trade.transfers:
            for prop in t.properties:
                sq = s.square_of(prop)
                if s.mortgaged[sq] and self.agents[idx[t.to]].lift_on_receipt(self.views[idx[t.to]], sq):
                    lift[prop] = True
                    try:
                        trade.validate(s, lift)
                    except InvalidTradeError:
                        del lift[prop]  # cannot afford to lift it now: interest only
        due = trade.apply(s, lift)
        for t in trade.transfers:
            if t.jail_cards:
                giver, taker = idx[t.frm], idx[t.to]
                for _ in range(t.jail_cards):
                    self.held_cards[taker].append(self.held_cards[giver].pop())
            if t.cash:
                self._emit("cash", idx[t.frm], frm=idx[t.frm], to=idx[t.to], amount=t.cash, why="trade")
        for who, amount in due.items():
            if amount and s.bank_cash is not None:
                s.bank_cash += amount
            if amount:  # a $0 charge (mortgage_interest 0, nothing lifted) is no payment and no event
                self._emit("cash", idx[who], frm=idx[who], to=None, amount=amount, why="mortgaged property received")
        self._emit("trade", p, trade=trade, accepted=True, lifted=tuple(lift))
        return True

    # ------------------------------------------------------------------
    # Get Out of Jail Free cards
    # ------------------------------------------------------------------
    def _assign_held_cards(self) -> None:
        """Cards held in a loaded state come from the decks in order: Chance's
        jail card(s) first, then Community Chest's."""
        pool = [
            (name, i)
            for name in ("chance", "community_chest")
            for i, card in enumerate(self.state.board.deck(name))
            if card.action == "jail_free"
        ]
        for p, pl in enumerate(self.state.players):
            for _ in range(pl.jail_cards):
                if not pool:
                    raise ValueError("more Get Out of Jail Free cards held than the decks contain")
                deck, idx = pool.pop(0)
                self.decks[deck].held.add(idx)
                self.held_cards[p].append((deck, idx))


def new_game(
    names: Sequence[str],
    agents: Sequence[Agent],
    stream: RandomStream,
    **kwargs: Any,
) -> Game:
    """A game from the standard opening position (everyone on Go with $1,500)."""
    return Game(GameState.new_game(list(names)), agents, stream, **kwargs)


__all__ = ["Deck", "Game", "GameResult", "MAX_ACTIONS_PER_PHASE", "MAX_TRADES_PER_PHASE", "new_game"]
