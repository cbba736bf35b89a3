"""What each player is seen to do, as the rollout policy it plays there (opponent-aware rollouts).

The rollouts (:mod:`engine.sim.rollout`) play every seat with a :class:`RolloutPolicy`. Two of
its parameters describe choices an observer of the game's events can see, and
:class:`ObservedPlay` fits them per seat from what the seat did in this game, starting from the
agent's own rollout policy as the prior:

``buy_reserve``
    The policy buys a lot when ``cash - price >= buy_reserve``. Each time a seat is offered a lot
    it can afford (a ``buy`` event; a ``declined`` event; an ``auction`` of the square the seat
    has just moved to, which means it declined), the cash it would keep, ``a = cash - price``, is
    one observation: bought (the threshold ``r <= a``) or declined (``r > a``). The fit is the
    threshold that contradicts the fewest observations, and among those the one nearest the
    prior (a seat seen to buy everything keeps the prior; one that declined at ``a`` = 120 and
    bought at 300 gets 121). A seat whose rule depends on more than its cash (``strategic``
    keeps $150 but only $50 for a lot that completes or blocks a group) is fitted by the
    threshold that explains most of its choices.
``build_reserve``
    The policy builds one level at a time while ``cash - house_cost >= build_reserve``, so a
    seat that stops building for want of cash keeps between its reserve and its reserve plus
    a house. Observation: the cash left after the last ``build`` of each run of builds (a run
    ends at the seat's next event of another kind). The fit is the median of those amounts
    and the prior's reserve (counted once, the lower middle of an even count: one run leaves
    the lower of the two); a run that ended for want of lots rather than cash (all hotels)
    leaves a large amount, which the median discounts.
``accept`` (with the agent's option ``fit_accept``)
    The policy's seat accepts a given proposer's trades in a given rollout with probability
    ``accept`` percent, drawn once per rollout (:func:`engine.sim.rollout_policy.accepts_from`).
    Observation: each answer the seat gave to any player's proposal (a ``trade`` event: an
    accepted trade was accepted by every counterparty; a refused one was refused by
    ``refused_by`` and accepted by the counterparties asked before it, in the trade's order of
    participants, :func:`engine.rules.trading.propose_trade`). The fit is the posterior mean
    with :data:`ACCEPT_PRIOR` answers at the prior rate ``p`` added (the agent's ``accept_prior``;
    at the default 100 a seat never asked accepts everything, as the policy without evidence):
    ``(ACCEPT_PRIOR p + 100 accepted) / (ACCEPT_PRIOR + answers)`` percent, rounded. The answers
    are to offers of every kind (the agent's searched trades
    most of all), the rollouts' offers are set-completing swaps and sales: the rate carries
    over as a measure of how readily the seat trades, not as a model of each offer.

Whether a seat trades (``trade``) is fitted apart, by its proposals
(:class:`solver.agents.opponent_model.TradeHabits`). What the policy cannot express is left at
the prior: auction bids (an auction reveals only the second-highest bid; the policy bids up to
``min(price, cash - buy_reserve)``, so the fitted buy reserve moves its bids too), the choice of
where to build, mortgages, the trades a seat accepts, and the jail choice: the policy either
always pays or always rolls, and the more frequent of the two, fitted per seat, predicted the
seats' real choices worse than the prior in ``bench/observed_play.py`` (``strategic`` pays
while it keeps its reserve and rolls after: 92.1% right against the prior's 94.5%, 5,724
choices), so it is not fitted.

Cash is known at every question the agent is asked (its view holds every player's cash); between
questions a ledger follows the ``cash`` events, one per change of a player's cash
(docs/agents.md#events), which the engine emits before the ``buy`` or ``build`` they pay for.
Observations before the first question, when no cash is known yet, are skipped.

Every list is bounded (:data:`MAX_OBSERVATIONS` per seat and kind, the oldest dropped), so the
memory stays small in a long game.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.rules.actions import Event
from engine.rules.view import GameView
from engine.sim.rollout_policy import RolloutPolicy
from models.errors import InvalidArgumentError

MAX_OBSERVATIONS = 200
"""The most observations kept per seat and kind (the oldest are dropped)."""

ACCEPT_PRIOR = 3
"""Accepted answers added to every seat's before the fit of ``accept`` (module docstring)."""


def fit_threshold(bought: list[int], declined: list[int], prior: int) -> int:
    """The buy threshold ``r`` (buy when ``a >= r``) that contradicts the fewest observations,
    nearest ``prior`` among those (module docstring).

    Parameters
    ----------
    bought : list of int
        The cash kept, ``a``, at each purchase (each says ``r <= a``).
    declined : list of int
        The cash that would have been kept at each refusal (each says ``r > a``).
    prior : int
        The threshold without evidence.

    Returns
    -------
    int
        The fitted threshold, at least 0.

    Examples
    --------
    >>> fit_threshold([300, 500], [], 0), fit_threshold([300], [120], 0), fit_threshold([], [40, 90], 0)
    (0, 121, 91)
    >>> fit_threshold([80, 400], [120, 140], 0)  # the purchase at 80 is the exception
    141
    """
    # errors(r) = #{bought a < r} + #{declined a >= r} falls at d + 1 (a refusal at d satisfied) and
    # rises just after a (a purchase at a contradicted), so each interval of least errors runs from
    # 0 or some d + 1 to some a (or has no end): its point nearest the prior is one of its ends or
    # the prior itself, and all of those are candidates (tests: a brute force over every r).
    # Counted by binary search in the sorted lists: O(n log n) per fit, not O(n^2) (issue 39 item 5).
    candidates = sorted({prior, 0, *bought, *(a + 1 for a in declined)})
    ups, downs = sorted(bought), sorted(declined)
    best: tuple[int, int, int] | None = None
    for r in candidates:
        if r < 0:
            continue
        errors = bisect.bisect_left(ups, r) + len(downs) - bisect.bisect_left(downs, r)
        key = (errors, abs(r - prior), r)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[2]


def median_with_prior(values: list[int], prior: int) -> int:
    """The median of ``values`` and ``prior`` (counted once), the lower middle of an even count.

    Parameters
    ----------
    values : list of int
        The observations.
    prior : int
        The value without evidence.

    Returns
    -------
    int

    Examples
    --------
    >>> median_with_prior([], 150), median_with_prior([400], 150), median_with_prior([400, 500], 150)
    (150, 150, 400)
    """
    pool = sorted([prior, *values])
    return pool[(len(pool) - 1) // 2]


def _push(xs: list[int], x: int) -> None:
    xs.append(int(x))
    if len(xs) > MAX_OBSERVATIONS:
        del xs[0]


@dataclass
class SeatPlay:
    """One seat's observations (module docstring).

    Attributes
    ----------
    bought, declined : list of int
        The cash kept (or that would have been) at each offer of a lot it could afford.
    build_left : list of int
        The cash left after the last build of each run of builds.
    answers, accepted : int
        Proposals it answered, and accepted.
    """

    bought: list[int] = field(default_factory=list)
    declined: list[int] = field(default_factory=list)
    build_left: list[int] = field(default_factory=list)
    answers: int = 0
    accepted: int = 0

    def accept_percent(self, prior: int = 100) -> int:
        """The fitted ``accept`` (module docstring), from ``prior`` percent.

        Parameters
        ----------
        prior : int, default 100
            The rate without evidence, in percent, counted as :data:`ACCEPT_PRIOR` answers
            (100: a seat never asked accepts everything, as the policy without evidence).

        Returns
        -------
        int
            0..100: ``(ACCEPT_PRIOR prior + 100 accepted) / (ACCEPT_PRIOR + answers)``, rounded.

        Examples
        --------
        >>> SeatPlay().accept_percent(), SeatPlay(answers=10, accepted=4).accept_percent()
        (100, 54)
        >>> SeatPlay().accept_percent(35), SeatPlay(answers=10, accepted=4).accept_percent(35)
        (35, 39)
        """
        return round((ACCEPT_PRIOR * prior + 100 * self.accepted) / (ACCEPT_PRIOR + self.answers))

    def policy(self, prior: RolloutPolicy) -> RolloutPolicy:
        """``prior`` with the parameters this seat was seen to play (module docstring).

        Parameters
        ----------
        prior : RolloutPolicy
            The policy without evidence.

        Returns
        -------
        RolloutPolicy

        Examples
        --------
        >>> p = SeatPlay(bought=[300], declined=[120], build_left=[400, 500]).policy(RolloutPolicy())
        >>> p.buy_reserve, p.build_reserve
        (121, 400)
        """
        return dataclasses.replace(
            prior,
            buy_reserve=fit_threshold(self.bought, self.declined, prior.buy_reserve),
            build_reserve=median_with_prior(self.build_left, prior.build_reserve),
        )

    def observations(self) -> int:
        """How many choices were seen."""
        return len(self.bought) + len(self.declined) + len(self.build_left)


@dataclass
class ObservedPlay:
    """Every seat's observed play, fed by the game's events (module docstring).

    Attributes
    ----------
    seats : dict of int to SeatPlay
        The observations by seat.
    cash : dict of int to int
        The cash ledger (empty until the first :meth:`sync`).
    prices : list of int
        Each square's printed price (0: not a property), from the first :meth:`sync`.
    last_move : tuple of (int, int) or None
        The last ``move`` event's player and square.
    building : tuple of (int, int) or None
        The seat in a run of builds and its cash after the last one.
    names : list of str
        The players' names, from the first :meth:`sync` (a trade names its participants).

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> play = ObservedPlay()
    >>> play.sync(GameView(load_state("instances/opening.json"), 0))
    >>> play.observe(Event("move", 1, {"frm": 0, "to": 39, "passed_go": False, "why": "dice"}))
    >>> play.observe(Event("auction", 2, {"square": 39, "winner": 2, "price": 10}))  # Bob declined Boardwalk
    >>> play.seats[1].declined, play.cash[1] - 400
    ([1100], 1100)
    """

    seats: dict[int, SeatPlay] = field(default_factory=dict)
    cash: dict[int, int] = field(default_factory=dict)
    prices: list[int] = field(default_factory=list)
    last_move: tuple[int, int] | None = None
    building: tuple[int, int] | None = None
    names: list[str] = field(default_factory=list)

    def seat(self, q: int) -> SeatPlay:
        """Seat ``q``'s observations (created empty)."""
        return self.seats.setdefault(q, SeatPlay())

    def sync(self, view: GameView) -> None:
        """Set the ledger to the cash the view shows (at every question the agent is asked).

        Parameters
        ----------
        view : GameView
            The game as the agent sees it.
        """
        self.cash = {q: view.cash(q) for q in range(view.n_players)}
        if not self.prices:
            self.prices = [sq.price for sq in view.board.squares]
            self.names = [view.name(q) for q in range(view.n_players)]

    def _end_run(self) -> None:
        if self.building is not None:
            q, left = self.building
            _push(self.seat(q).build_left, left)
            self.building = None

    def observe(self, event: Event) -> None:
        """Update the ledger and the observations with ``event`` (module docstring).

        Parameters
        ----------
        event : Event
            What happened.
        """
        kind, q, d = event.kind, event.player, event.data
        if kind == "cash":
            amount = int(d.get("amount", 0))
            for who, sign in ((d.get("frm"), -1), (d.get("to"), 1)):
                if isinstance(who, int) and who in self.cash:
                    self.cash[who] += sign * amount
            return
        if self.building is not None and (kind != "build" or q != self.building[0]):
            self._end_run()
        if kind == "trade":
            self._answers(q, d)
            return
        if not self.cash or q is None or q not in self.cash:
            if kind == "auction":
                self._auction(d)
            return
        if kind == "move":
            self.last_move = (q, int(d["to"]))
        elif kind == "buy":
            _push(self.seat(q).bought, self.cash[q])  # the purchase's cash event came first
        elif kind == "declined":
            self._declined(q, int(d["square"]))
        elif kind == "auction":
            self._auction(d)
        elif kind == "build":
            self.building = (q, self.cash[q])

    def _answers(self, p: int | None, d: Mapping[str, Any]) -> None:
        trade = d.get("trade")
        if trade is None or not self.names:
            return
        refuser = d.get("refused_by")
        for name in trade.participants():
            if name not in self.names or self.names.index(name) == p:
                continue
            q = self.names.index(name)
            seat = self.seat(q)
            seat.answers += 1
            if q == refuser:
                return
            seat.accepted += 1

    def _declined(self, q: int, square: int) -> None:
        if not self.prices or q not in self.cash:
            return
        kept = self.cash[q] - self.prices[square]
        if kept >= 0:  # a lot it could not afford was never offered
            _push(self.seat(q).declined, kept)

    def _auction(self, d: Mapping[str, Any]) -> None:
        square = int(d["square"])
        if self.last_move is not None and self.last_move[1] == square:
            self._declined(self.last_move[0], square)
        self.last_move = None

    def policies(
        self, prior: RolloutPolicy, seats: list[int], reserves: bool = True, accept: bool = False, accept_prior: int = 100
    ) -> dict[int, RolloutPolicy]:
        """The fitted policy of each of ``seats``.

        Parameters
        ----------
        prior : RolloutPolicy
            The policy without evidence.
        seats : list of int
            The seats to fit.
        reserves : bool, default True
            Fit the buy and build reserves (:meth:`SeatPlay.policy`).
        accept : bool, default False
            Fit ``accept`` (:meth:`SeatPlay.accept_percent`).
        accept_prior : int, default 100
            The acceptance rate without evidence, in percent (:meth:`SeatPlay.accept_percent`).

        Returns
        -------
        dict of int to RolloutPolicy

        Examples
        --------
        >>> play = ObservedPlay(seats={1: SeatPlay(declined=[99], answers=7)})
        >>> [(p.buy_reserve, p.accept) for p in play.policies(RolloutPolicy(), [1, 2], accept=True).values()]
        [(100, 30), (0, 100)]
        """
        out = {}
        for q in seats:
            seen = self.seats.get(q) or SeatPlay()  # read only: a seat never observed is not added
            pol = seen.policy(prior) if reserves else prior
            out[q] = dataclasses.replace(pol, accept=seen.accept_percent(accept_prior)) if accept else pol
        return out

    def to_dict(self) -> dict[str, Any]:
        """As JSON (:meth:`from_dict` reads it back).

        Returns
        -------
        dict
        """
        return {
            "seats": {str(q): dataclasses.asdict(s) for q, s in self.seats.items()},
            "cash": {str(q): c for q, c in self.cash.items()},
            "prices": list(self.prices),
            "last_move": list(self.last_move) if self.last_move is not None else None,
            "building": list(self.building) if self.building is not None else None,
            "names": list(self.names),
        }

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> ObservedPlay:
        """The observations of a JSON object written by :meth:`to_dict`.

        Parameters
        ----------
        doc : dict
            The object.

        Returns
        -------
        ObservedPlay

        Raises
        ------
        InvalidArgumentError
            A list longer than :data:`MAX_OBSERVATIONS`, more than 8 seats or 64 squares.

        Examples
        --------
        >>> p = ObservedPlay(seats={1: SeatPlay(bought=[5])}, cash={1: 700}, prices=[0, 60])
        >>> ObservedPlay.from_dict(p.to_dict()) == p
        True
        """
        seats = doc["seats"]
        if len(seats) > 8 or len(doc["cash"]) > 8 or len(doc["prices"]) > 64:
            raise InvalidArgumentError("more than 8 seats or 64 squares")
        out = cls()
        for q, s in seats.items():
            lists = {k: [int(x) for x in s[k]] for k in ("bought", "declined", "build_left")}
            if any(len(v) > MAX_OBSERVATIONS for v in lists.values()):
                raise InvalidArgumentError(f"more than {MAX_OBSERVATIONS} observations")
            out.seats[int(q)] = SeatPlay(**lists, answers=int(s.get("answers", 0)), accepted=int(s.get("accepted", 0)))
        out.cash = {int(q): int(c) for q, c in doc["cash"].items()}
        out.prices = [int(p) for p in doc["prices"]]
        out.last_move = None if doc["last_move"] is None else (int(doc["last_move"][0]), int(doc["last_move"][1]))
        out.building = None if doc["building"] is None else (int(doc["building"][0]), int(doc["building"][1]))
        out.names = [str(n) for n in doc.get("names", [])][:8]
        return out


__all__ = ["MAX_OBSERVATIONS", "ObservedPlay", "SeatPlay", "fit_threshold", "median_with_prior"]
