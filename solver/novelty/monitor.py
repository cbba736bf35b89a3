"""Novelty detection and adaptation: an agent's model of the board and rules, kept true to play.

In a novelty trial (:mod:`solver.novelty.catalogue`, seed 002) the board and rules may
change between games without notice. The board is on the table: a player
sees a changed board in the state. A hidden rule (the dice, the Go salary,
the jail fine, the mortgage rate, the set sizes, a new rule) is not printed
anywhere: the views show the *announced* rules
(:class:`engine.rules.view.GameView`), and only play reveals the truth.

:class:`NoveltyMonitor` keeps the agent's *belief*, a ``(Board, Rules)``
pair, and checks every observation against it:

=================  =========================================================
observation        test (tag of the detection)
=================  =========================================================
the board          any difference from the believed board, named per kind
                   (``board.order``, ``board.groups``, ``board.rents``,
                   ``board.price``, ``board.house_cost``, ``board.tax``,
                   ``board.squares``, ``board.cards``); exact
a roll             the number of dice (``dice.count``) and a face above the
                   believed sides (``dice.sides``): exact; fewer sides: the
                   top face unseen in ``n`` faces, ``(1 - q_top)^n < alpha``;
                   the face frequencies (``dice.weights``): a Bayes factor
                   (below)
Go salary,         the amount paid against the believed ``go_salary``,
jail fine          ``jail_fine`` (``go_salary``, ``jail_fine``); exact
mortgage           the cash against ``price * mortgage_rate``
                   (``mortgage_rate``); exact
street rent        the rent charged against the believed rent with the
                   believed set sizes (``set_size`` when it is double rent
                   with fewer lots, or the reverse; ``rent`` otherwise); exact
a building         on a group its builder holds fewer lots of than the
                   believed set size (``set_size``); exact
a payment          a cash event whose reason the standard rules never give
                   (``rule.cash``)
its own landing    on an unowned lot it could afford, the auction starts
                   without the agent being asked to buy (``rule.auction_only``)
=================  =========================================================

Dice frequencies (the seed's Dirichlet model). Under the belief, the faces
of a game are i.i.d. with probabilities ``q``. The alternative puts a
uniform Dirichlet(1, ..., 1) prior on the face probabilities; the Bayes
factor of the ``N`` faces seen in the current game, with counts ``n_f``, is

    BF = Gamma(m) / Gamma(N + m) * prod_f Gamma(n_f + 1) / prod_f q_f^n_f

Under the belief ``BF`` is a non-negative martingale with mean 1, so by
Ville's inequality ``P(sup_N BF >= 1/alpha) <= alpha``: the test may be
checked after every roll and still has false-alarm probability at most
``alpha`` per game (Ville 1939; Shafer & Vovk, *Game-Theoretic Foundations
for Probability and Finance*, 2019, ch. 9). ``alpha = 1e-6`` by default.

Adaptation. Every detection updates the belief at once (so that one change
is named once): the observed board; the amount seen for a salary or fine;
``mortgage_rate = cash / price``; the dice count and the top face seen; the
face probabilities by the MAP estimate of the Dirichlet posterior with prior
``Dirichlet(a, ..., a)`` (``a = 2``), ``w_f = (n_f + a - 1) / (N + m(a - 1))``,
from the faces seen since the dice last changed (the seed: "we model the
distribution of rolling any number as a Dirichlet distribution and use MAP
estimates"), refreshed at every game start; a set size seen in one colour
group is assumed for every colour group of the same size (a rule change is
usually uniform; a later observation corrects it). The class novelties'
rules (``free_parking="bank"``, ``auction_only``) are named on detection, not
put into the model: the model's rules keep the standard values there (every
engine, the kernel included, could play them now; modelling them is left
open). With ``adapt=False`` the monitor still detects, but
:meth:`NoveltyMonitor.model` keeps returning the first board and rules it
saw: the agent plays on the standard tables.

:class:`AdaptiveAgent` puts any agent on its monitor's model: it hands the
agent a view of the live state re-expressed on the model board (properties
matched by name) under the model rules, translates squares both ways, and
passes on only the actions that the true rules allow (an action the referee
would refuse ends the agent's phase instead, as ``None``).

Reference: seed 002 (``../shared/seeds/002_74ae27bec847b488.txt``), section
on novelty detection and adaptation.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.rules.actions import (
    ACTION_TYPES,
    Action,
    Build,
    Event,
    JailChoice,
    Mortgage,
    ProposeTrade,
    SellBuilding,
    Unmortgage,
)
from engine.rules.agents import NoLegalLotError
from engine.rules.refusals import Refusals
from engine.rules.protocol import Agent
from engine.rules.view import GameView
from models.board import HOTEL, Board
from models.errors import NotReadyError
from models.rules import DiceSpec, Rules
from models.state import BANK
from models.trade import Trade
from solver.novelty.belief import (
    Detection,
    board_changes,
    dirichlet_log_bayes_factor,
    map_weights,
    reexpress,
)

ALPHA = 1e-6
"""False-alarm level of each statistical test, per game."""

STANDARD_CASH_REASONS = frozenset(
    {
        "Go salary",
        "card",
        "repairs",
        "jail fine",
        "jail fine (third failed roll)",
        "purchase",
        "auction",
        "bankruptcy sale",
        "bankruptcy",
        "mortgage",
        "mortgage lifted",
        "interest on a mortgaged property received",
        "building sold",
        "building",
        "trade",
        "mortgaged property received",
    }
)
"""Every reason the standard rules give for a cash event, besides rents and taxes."""


class NoveltyMonitor:
    """An agent's belief about the board and rules, checked against what it observes.

    Parameters
    ----------
    adapt:
        Whether :meth:`model` follows the belief (``True``) or stays on the
        first board and rules seen (``False``: detection only).
    alpha:
        False-alarm level per game of the statistical dice tests.

    The monitor persists across the games of a trial; call
    :meth:`start_game` at each game, :meth:`observe` on every event and
    :meth:`attach` with the player's (true) view whenever it has one. Its
    memory between games is written and read back as JSON by
    :mod:`solver.novelty.checkpoint` (a trial's checkpoint).

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> mon = NoveltyMonitor()
    >>> mon.model()
    Traceback (most recent call last):
    ...
    models.errors.NotReadyError: the monitor has not seen a view yet
    >>> mon.start_game(0, ("Ann", "Bob", "Cy", "Dee"))
    >>> mon.attach(GameView(state, 0))
    >>> mon.model()[1].dice.count, mon.detected()
    (2, [])
    """

    def __init__(self, *, adapt: bool = True, alpha: float = ALPHA) -> None:
        self.adapt = adapt
        self.alpha = alpha
        self.initial: tuple[Board, Rules] | None = None
        self.board: Board | None = None
        self.rules: Rules | None = None
        self.detections: list[Detection] = []
        self.game = -1
        self.me = -1
        self._view: GameView | None = None
        self._seen_board: int | None = None
        self.window = [0] * 6  # faces seen this game (for the test)
        self.posterior: list[int] | None = None  # faces seen since the dice last changed (for the MAP estimate)
        self._last_cash: dict[int, Mapping[str, Any]] = {}
        self._pending_offer: int | None = None
        self._asked: set[int] = set()

    # -- plumbing ---------------------------------------------------------------
    def start_game(self, me: int, names: tuple[str, ...]) -> None:
        """Begin the next game of the trial (the belief carries over; the per-game counts restart).

        Parameters
        ----------
        me : int
            The player's seat in this game.
        names : tuple of str
            Every seat's name.
        """
        self.game += 1
        self.me = me
        self._view = None
        self._seen_board = None
        self._last_cash = {}
        self._pending_offer = None
        self._asked = set()
        if self.rules is not None:
            self._refresh_weights()
            self.window = [0] * self.rules.dice.sides

    def attach(self, view: GameView) -> None:
        """Take the player's view (live): check the board once per game and board.

        Parameters
        ----------
        view : GameView
            The player's true view.
        """
        self._view = view
        if self.initial is None:
            self.initial = (view.board, view.rules)
            self.board, self.rules = view.board, view.rules
            self.window = [0] * view.rules.dice.sides
        if self._seen_board != id(view.board):
            self._seen_board = id(view.board)
            assert self.board is not None
            if view.board is not self.board:
                changes = board_changes(self.board, view.board)
                for tag, detail in changes:
                    self._detect(tag, detail)
                self.board = view.board

    def model(self) -> tuple[Board, Rules]:
        """The board and rules the agent should plan with.

        Returns
        -------
        tuple of (Board, Rules)
            The belief (``adapt``), or the first board and rules seen.

        Raises
        ------
        NotReadyError
            No view was attached yet.
        """
        if self.initial is None or self.board is None or self.rules is None:
            raise NotReadyError("the monitor has not seen a view yet")
        return (self.board, self.rules) if self.adapt else self.initial

    def detected(self, tags: tuple[str, ...] | None = None, since_game: int = 0) -> list[Detection]:
        """Detections from game ``since_game`` on, optionally only those whose tag starts with one of ``tags``.

        Parameters
        ----------
        tags : tuple of str or None
            Tag prefixes; ``None``: every tag.
        since_game : int, default 0
            The first game counted.

        Returns
        -------
        list of Detection
            In the order noticed.
        """
        return [d for d in self.detections if d.game >= since_game and (tags is None or d.tag.startswith(tags))]

    def note_buy_asked(self, square: int) -> None:
        """Record that the player was offered ``square`` (an auction without an offer reveals ``auction_only``).

        Parameters
        ----------
        square : int
            The lot offered.
        """
        self._asked.add(square)

    def _detect(self, tag: str, detail: str) -> None:
        rnd = self._view.round if self._view is not None else -1
        self.detections.append(Detection(self.game, rnd, tag, detail))

    def _set_rules(self, **changes: Any) -> None:
        assert self.rules is not None
        self.rules = dataclasses.replace(self.rules, **changes)

    # -- events -------------------------------------------------------------------
    def observe(self, event: Event) -> None:
        """Check one event against the belief (dice faces, rents, taxes, salaries, fines, building and mortgage prices, moves; module docstring); a mismatch is a detection.

        Parameters
        ----------
        event : Event
            What happened.
        """
        if self.rules is None:
            return  # nothing believed yet: the first view sets the belief
        kind = event.kind
        if kind == "roll":
            self._observe_roll(tuple(event.data["dice"]))
        elif kind == "cash":
            self._observe_cash(event)
        elif kind == "mortgage":
            self._observe_mortgage(event)
        elif kind == "move":
            self._observe_move(event)
        elif kind == "auction":
            sq = event.data.get("square")
            if sq is not None and sq == self._pending_offer and sq not in self._asked:
                self._detect("rule.auction_only", f"landed on unowned {self._square_name(sq)} with the cash for it; it went to auction without an offer")
            self._pending_offer = None
        elif kind == "buy":
            self._pending_offer = None
        elif kind == "build":
            self._observe_build(event)

    def _square_name(self, sq: int) -> str:
        return self.board.squares[sq].name if self.board is not None and sq < self.board.size else str(sq)

    def _observe_roll(self, faces: tuple[int, ...]) -> None:
        assert self.rules is not None
        dice = self.rules.dice
        if len(faces) != dice.count:
            self._detect("dice.count", f"a roll of {len(faces)} dice {faces}, {dice.count} believed")
            self._new_dice(len(faces), max(dice.sides, *faces))
            dice = self.rules.dice
        top = max(faces)
        if top > dice.sides:
            self._detect("dice.sides", f"a face {top} on dice believed to have {dice.sides} sides")
            self._new_dice(dice.count, top)
            dice = self.rules.dice
        for f in faces:
            self.window[f - 1] += 1
            if self.posterior is not None:
                self.posterior[f - 1] += 1
        q = dice.face_probabilities()
        n = sum(self.window)
        bf_alarm = dirichlet_log_bayes_factor(self.window, q) > -math.log(self.alpha)
        if self.window[-1] == 0 and (bf_alarm or n * -math.log1p(-q[-1]) > -math.log(self.alpha)):
            # the top face never came: fewer sides (named as such even when the frequency test fired first)
            seen = max(i + 1 for i, c in enumerate(self.window) if c)
            self._detect("dice.sides", f"no {dice.sides} in {n} faces (P = {(1 - q[-1]) ** n:.1e}); top face seen {seen}")
            self._new_dice(dice.count, seen)
            return
        if bf_alarm:
            counts = list(self.window)
            if self.posterior is None:
                self.posterior = list(counts)
            self._detect("dice.weights", f"face counts {counts} against {tuple(round(x, 3) for x in q)}: Bayes factor > {1 / self.alpha:.0e}")
            self._refresh_weights()
            self.window = [0] * self.rules.dice.sides

    def _new_dice(self, count: int, sides: int) -> None:
        self._set_rules(dice=DiceSpec(count, sides))
        self.window = [0] * sides
        self.posterior = None

    def _refresh_weights(self) -> None:
        """Believe the MAP face probabilities once the dice are known to be loaded."""
        if self.posterior is None or self.rules is None:
            return
        w = map_weights(self.posterior)
        d = self.rules.dice
        self._set_rules(dice=DiceSpec(d.count, d.sides, tuple(round(x, 6) for x in w)))

    def _observe_cash(self, event: Event) -> None:
        assert self.rules is not None
        data = event.data
        why = str(data.get("why", ""))
        amount = int(data.get("amount", 0))
        frm, to = data.get("frm"), data.get("to")
        if frm is not None:
            self._last_cash[frm] = data
        if to is not None:
            self._last_cash[to] = data
        if why == "Go salary":
            if amount != self.rules.go_salary:
                self._detect("go_salary", f"Go paid ${amount}, ${self.rules.go_salary} believed")
                self._set_rules(go_salary=amount)
        elif why.startswith("jail fine"):
            if amount != self.rules.jail_fine:
                self._detect("jail_fine", f"a jail fine of ${amount}, ${self.rules.jail_fine} believed")
                self._set_rules(jail_fine=amount)
        elif why.startswith("rent on "):
            self._check_rent(why[len("rent on ") :], frm, to, amount)
        elif why not in STANDARD_CASH_REASONS and not self._is_tax(why):
            self._detect("rule.cash", f"${amount} {'to' if to is not None else 'from'} player {to if to is not None else frm}: '{why}', which no standard rule pays")

    def _is_tax(self, why: str) -> bool:
        board = self._view.board if self._view is not None else self.board
        return board is not None and any(sq.kind == "tax" and sq.name == why for sq in board.squares)

    def _check_rent(self, name: str, payer: int | None, owner: int | None, amount: int) -> None:
        view = self._view
        if view is None or owner is None or self.rules is None:
            return
        board = view.board
        sq_i = board.property_index.get(name)
        if sq_i is None:
            return
        sq = board.squares[sq_i]
        if sq.kind != "street" or sq.group is None:
            return  # railroads and utilities: card multipliers and fresh rolls make the amount ambiguous
        level = view.level(sq_i)
        lots = board.groups[sq.group]
        held = sum(1 for q in lots if view.owner_of(q) == owner)
        need = self.rules.set_size.get(sq.group, len(lots))
        expected = sq.rents[level] if level else sq.rents[0] * (2 if held >= need else 1)
        if amount == expected:
            return
        if level == 0 and amount == 2 * sq.rents[0] and held < need:
            self._smaller_sets(board, sq.group, held, f"double rent on {name} with {held} of {len(lots)} {sq.group} lots ({need} believed needed)")
        elif level == 0 and amount == sq.rents[0] and held >= need:
            self._detect("set_size", f"single rent on {name} with {held} of {len(lots)} {sq.group} lots ({need} believed enough)")
            sizes = dict(self.rules.set_size)
            sizes[sq.group] = held + 1
            self._set_rules(set_size=sizes)
        else:
            self._detect("rent", f"rent ${amount} on {name} at level {level}, ${expected} expected")

    def _smaller_sets(self, board: Board, group: str, held: int, detail: str) -> None:
        """``held`` lots make a monopoly of ``group``: believe it of every group of that size."""
        assert self.rules is not None
        self._detect("set_size", detail)
        size = len(board.groups[group])
        sizes = dict(self.rules.set_size)
        for g, members in board.groups.items():
            if g in board.street_groups and len(members) == size:
                sizes[g] = min(held, sizes.get(g, len(members)))
        self._set_rules(set_size=sizes)

    def _observe_build(self, event: Event) -> None:
        """A building on a group its builder does not hold as a monopoly under the belief."""
        view = self._view
        p = event.player
        if view is None or p is None or self.rules is None:
            return
        sq = view.board.squares[int(event.data["square"])]
        if sq.group is None:
            return
        lots = view.board.groups[sq.group]
        held = sum(1 for q in lots if view.owner_of(q) == p)
        need = self.rules.set_size.get(sq.group, len(lots))
        if held < need:
            self._smaller_sets(view.board, sq.group, held, f"a building on {sq.name} with {held} of {len(lots)} {sq.group} lots ({need} believed needed)")

    def _observe_mortgage(self, event: Event) -> None:
        view = self._view
        p = event.player
        if view is None or p is None or self.rules is None:
            return
        cash = self._last_cash.get(p)
        if cash is None or cash.get("why") != "mortgage":
            return
        sq = int(event.data["square"])
        price = view.board.squares[sq].price
        amount = int(cash["amount"])
        if price and amount != int(price * self.rules.mortgage_rate):
            rate = round(amount / price, 3)
            self._detect("mortgage_rate", f"mortgaging {view.board.squares[sq].name} (price ${price}) paid ${amount}: rate {rate}, {self.rules.mortgage_rate} believed")
            self._set_rules(mortgage_rate=rate)

    def _observe_move(self, event: Event) -> None:
        view = self._view
        if view is None or event.player != self.me:
            return
        to = int(event.data["to"])
        sq = view.board.squares[to]
        self._pending_offer = None
        if sq.is_property and view.owner_of(to) == BANK and view.cash(self.me) >= sq.price:
            self._pending_offer = to
            self._asked.discard(to)


# ----------------------------------------------------------------------------------
# The agent on its model
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Frame:
    """One decision's model state and the square maps between the true board and the model board."""

    view: GameView
    to_model: Mapping[int, int] | None  # None: identity
    to_true: Mapping[int, int] | None


class AdaptiveAgent:
    """Any agent, playing on its :class:`NoveltyMonitor`'s model of the board and rules.

    Parameters
    ----------
    inner:
        The agent that decides (it sees only the model view).
    monitor:
        The persistent monitor (detection, and the model when ``monitor.adapt``).

    Every answer of the inner agent is mapped back to true squares and checked against the
    true view's legality; an answer the true rules refuse becomes "no action".

    Examples
    --------
    A game secretly played with three dice: the monitor names the change and the agent plans
    with three dice from then on.

    >>> from engine.rules.agents import RandomAgent
    >>> from engine.rules.game import Game
    >>> from engine.rules.streams import SeededStream
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> from models.state import GameState
    >>> from solver.novelty import catalogue
    >>> board, rules = catalogue.get("three-dice").apply(standard_board(), Rules())
    >>> monitor = NoveltyMonitor()
    >>> players = [AdaptiveAgent(RandomAgent(seed=1), monitor), RandomAgent(seed=2)]
    >>> game = Game(GameState.new_game(["A", "B"], board, rules), players, SeededStream(5), max_rounds=10, announced_rules=Rules())
    >>> game.play().reason
    'round_cap'
    >>> [d.tag for d in monitor.detections], monitor.model()[1].dice.count
    (['dice.count'], 3)
    """

    def __init__(self, inner: Agent, monitor: NoveltyMonitor) -> None:
        self.inner = inner
        self.monitor = monitor
        self.name = inner.name
        self.me = -1
        self._key: tuple[int, int, int] | None = None
        self._maps: tuple[dict[int, int], dict[int, int]] | None = None
        self.refusals = Refusals()
        """Moves the host refused to this seat, in true squares (:mod:`engine.rules.refusals`)."""

    # -- the model view --------------------------------------------------------
    def _frame(self, view: GameView) -> _Frame:
        mon = self.monitor
        mon.attach(view)
        board, rules = mon.model()
        if board is view.board:
            state = view.copy()
            state.rules = rules
            return _Frame(GameView(state, self.me, actions_left=view.actions_left, trades_left=view.trades_left), None, None)
        state, to_model, to_true = reexpress(view.copy(), board, rules)
        return _Frame(GameView(state, self.me, actions_left=view.actions_left, trades_left=view.trades_left), to_model, to_true)

    @staticmethod
    def _to_model(f: _Frame, sq: int) -> int | None:
        return sq if f.to_model is None else f.to_model.get(sq)

    @staticmethod
    def _to_true(f: _Frame, sq: int) -> int | None:
        return sq if f.to_true is None else f.to_true.get(sq)

    def _checked(self, f: _Frame, view: GameView, action: Action | None, *, debt: bool = False) -> Action | None:
        """The action in true squares if the true rules allow it, else ``None``."""
        if action is None:
            return None
        if isinstance(action, ProposeTrade):
            return action if view.why_not_trade(action.trade) is None and not self.refusals.refused(view, action) else None
        sq = self._to_true(f, action.square)
        if sq is None:
            return None
        legal = self.refusals.listed(view, type(action))  # the host's list, less what it refused here
        if sq not in legal or (debt and isinstance(action, (Build, Unmortgage))):
            return None
        return type(action)(sq)

    # -- the protocol ------------------------------------------------------------
    def start_game(self, me: int, names: tuple[str, ...]) -> None:
        """Start the monitor and the inner agent.

        Parameters
        ----------
        me : int
            This seat.
        names : tuple of str
            Every seat's name.
        """
        self.me = me
        self.monitor.start_game(me, names)
        self.inner.start_game(me, names)

    def notify(self, event: Event) -> None:
        """Show the event to the monitor, then to the inner agent.

        Parameters
        ----------
        event : Event
            What happened.
        """
        self.monitor.observe(event)
        if event.kind == "refused" and event.player == self.me and isinstance(event.data.get("action"), ACTION_TYPES):
            self.refusals.record(event.data["action"])  # in true squares, as the host named it
        self.inner.notify(event)

    def buy(self, view: GameView, square: int) -> bool:
        """The inner agent's answer on the model (a lot the model lacks: no).

        Parameters
        ----------
        view : GameView
            The true view (the monitor checks it; the inner agent sees the model).
        square : int
            The lot offered (true square).

        Returns
        -------
        bool
            Buy at the list price.
        """
        self.monitor.note_buy_asked(square)
        f = self._frame(view)
        m = self._to_model(f, square)
        return m is not None and bool(self.inner.buy(f.view, m))

    def auction_max(self, view: GameView, square: int) -> int:
        """The inner agent's top bid on the model (0 for a lot the model lacks).

        Parameters
        ----------
        view : GameView
            The true view (the monitor checks it; the inner agent sees the model).
        square : int
            The lot auctioned (true square).

        Returns
        -------
        int
            Dollars.
        """
        f = self._frame(view)
        m = self._to_model(f, square)
        return 0 if m is None else int(self.inner.auction_max(f.view, m))

    def jail_choice(self, view: GameView) -> JailChoice:
        """The inner agent's jail choice (a card it does not hold: roll).

        Parameters
        ----------
        view : GameView
            The true view (the monitor checks it; the inner agent sees the model).

        Returns
        -------
        JailChoice
            ``pay``, ``card`` or ``roll``.
        """
        f = self._frame(view)
        choice = self.inner.jail_choice(f.view)
        if choice == "card" and view.player(self.me).jail_cards == 0:
            return "roll"
        return choice

    def act(self, view: GameView) -> Action | None:
        """The inner agent's action, in true squares, if the true rules allow it.

        Parameters
        ----------
        view : GameView
            The true view (the monitor checks it; the inner agent sees the model).

        Returns
        -------
        Action or None
            The action, or none.
        """
        f = self._frame(view)
        return self._checked(f, view, self.inner.act(f.view))

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        """The inner agent's answer to ``trade`` on the model view.

        Parameters
        ----------
        view : GameView
            The true view (the monitor checks it; the inner agent sees the model).
        trade : Trade
            The offer.

        Returns
        -------
        bool
            Accept or not.
        """
        f = self._frame(view)
        return bool(self.inner.accept_trade(f.view, trade))

    def lift_on_receipt(self, view: GameView, square: int) -> bool:
        """The inner agent's choice for a mortgaged lot received (a lot the model lacks: no).

        Parameters
        ----------
        view : GameView
            The true view (the monitor checks it; the inner agent sees the model).
        square : int
            The lot (true square).

        Returns
        -------
        bool
            Lift the mortgage now.
        """
        f = self._frame(view)
        m = self._to_model(f, square)
        return m is not None and bool(self.inner.lift_on_receipt(f.view, m))

    def raise_cash(self, view: GameView, owed: int) -> Action | None:
        """The inner agent's sale, mortgage or trade to pay ``owed``, if the true rules allow it.

        Parameters
        ----------
        view : GameView
            The true view (the monitor checks it; the inner agent sees the model).
        owed : int
            The debt.

        Returns
        -------
        Action or None
            The action, or none (the engine liquidates).
        """
        f = self._frame(view)
        return self._checked(f, view, self.inner.raise_cash(f.view, owed), debt=True)

    def building_bid(self, view: GameView, kind: str) -> int | None:
        """The inner agent's bid in a shortage auction, on the model view.

        Parameters
        ----------
        view : GameView
            The true view (the monitor checks it; the inner agent sees the model).
        kind : str
            ``house`` or ``hotel``.

        Returns
        -------
        int or None
            Dollars, or no bid.
        """
        f = self._frame(view)
        return self.inner.building_bid(f.view, kind)

    def place_building(self, view: GameView, kind: str) -> int:
        """Where to put a building won in a shortage auction: the inner agent's lot if the true rules take it there, else the first legal lot.

        Parameters
        ----------
        view : GameView
            The true view.
        kind : str
            ``house`` or ``hotel``.

        Returns
        -------
        int
            A legal lot (true square).

        Raises
        ------
        NoLegalLotError
            No lot can take a building of that kind (a misuse by the host).
        """
        f = self._frame(view)
        legal = [sq for sq in view.legal_builds() if (view.level(sq) == HOTEL - 1) == (kind == "hotel")]
        try:
            sq = self._to_true(f, self.inner.place_building(f.view, kind))
        except RuntimeError:  # the inner agent found no lot it could name (NoLegalLotError, say)
            sq = None
        if sq in legal:
            return sq
        if not legal:
            raise NoLegalLotError("no legal lot for the building")
        return legal[0]


__all__ = [
    "ALPHA",
    "AdaptiveAgent",
    "Detection",
    "NoveltyMonitor",
    "board_changes",
    "dirichlet_log_bayes_factor",
    "map_weights",
    "reexpress",
]
