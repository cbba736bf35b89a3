"""The fixed rollout policy, as a value and as an agent of the reference engine.

The batch kernel (:mod:`engine.sim.rollout`) plays every seat with a fixed,
deterministic policy (one :class:`RolloutPolicy` per seat). The same policy
is an ordinary :class:`engine.rules.protocol.Agent` here, so that the reference
engine can play the same games on the same dice and cards and the two engines
can be compared turn by turn (``tests/engine/test_rollout_differential.py``).

The policy (all amounts in dollars; "reserve" is the cash that must be left
after the payment; a *group* is a colour group, railroads or utilities; a
seat *holds a group completely* when it owns the group's set size of it,
:meth:`models.state.GameState.has_monopoly`):

``buy``
    Buy an unowned property when ``cash - price >= buy_reserve``.
``auction_max``
    ``min(price, cash - buy_reserve)`` (no bid when that is below 1): every
    player bids up to the list price while it keeps its reserve.
``jail_choice``
    Use a Get Out of Jail Free card when holding one; otherwise pay the fine
    when ``jail == "pay"`` and the cash covers it; otherwise roll for doubles.
``act``
    One action at a time, the first that applies:

    1. *Lift* a mortgage when ``cash - cost >= unmortgage_reserve``: lots of
       a group the seat holds completely first, then the lowest square index.
       With ``mortgage_to_build``, a lot of a group the seat does not hold
       completely is lifted only when the seat has no *build target* (below).
    2. *Build* one level on a build target when ``cash - house_cost >=
       build_reserve``: the lowest level first (even building), then the
       highest square index (the dearer groups pay more rent per dollar).
       A build target is a lot where a building would be legal if the seat
       had the cash (:func:`engine.rules.legal.why_not_build` but for the cash)
       and whose level is below ``max_level``.
    3. *Mortgage to build* (``mortgage_to_build``): when no build target is
       affordable, the *spare lots* are the seat's unmortgaged properties of
       groups it does not hold completely and that carry no buildings. If
       ``cash`` plus their mortgage values would pay for the cheapest build
       target and keep ``build_reserve``, mortgage the spare lot with the
       lowest printed price (then the lowest square index); step 2 builds
       once the cash suffices.
    4. *Trade* (``trade``; at most one proposal per act phase: the agent
       allows a new one after each ``turn`` or ``roll_end`` event, which
       precede every act phase), see below.
    5. Stop.
Trades
    A seat is *one short* of a street group ``g`` when it owns at least one
    lot of it, one lot fewer than the set size, and nobody has buildings in
    ``g``. A lot of ``g`` is *for sale* by seat ``q`` when ``q`` is active,
    plays with ``trade`` on, owns it unmortgaged and does not hold ``g``
    completely; ``q``'s lot of ``g`` is the first such lot in the group's
    order. Street groups are scanned in name order (the kernel's group ids),
    the other seats in seat order.

    (a) *Mutual completion swap*: the first ``(g, q, h)`` such that the
        proposer ``p`` is one short of ``g``, ``q`` has a lot of ``g`` for
        sale, ``q`` is one short of a street group ``h != g`` and ``p`` has a
        lot of ``h`` for sale. The two lots are swapped; the seat completing
        the dearer group (the sum of the printed prices of all its lots) pays
        the other ``(difference) // 2``, capped at its ``cash -
        build_reserve`` (0 if that is negative).
    (b) *Completion bought for cash* (only when no swap exists): the first
        ``(g, q)`` such that ``p`` is one short of ``g``, ``q`` has a lot of
        ``g`` for sale and ``p`` keeps its ``build_reserve`` after paying
        ``q``'s asking price, ``price * (100 + sell_premium_q) // 100``; ``p``
        offers exactly that.

    A seat with ``trade`` on accepts (a) a one-for-one swap of unmortgaged
    lots of two street groups where the lot it receives completes a group of
    its own and the lot it gives completes the proposer's (both one short),
    the lot it gives is not in a group it holds completely and the cash it pays is at
    most half the difference of the two completed groups' prices (when its
    group is the dearer one; it may receive cash); (b) the sale of one
    unmortgaged lot, not from a group it holds completely, for cash at least
    its asking price. Everything else (and everything, with ``trade`` off)
    is refused. A proposer only proposes what the other side accepts, so no
    refusal is ever needed: the agent must know every seat's policy
    (``policies``).

    A seat with ``accept`` below 100 trades with a given proposer in a given game or not at
    all: ``q`` accepts ``p``'s proposals in the game keyed ``K`` when ``u(K, 5, (p << 8) | q)
    x 100 < accept`` (:func:`accepts_from`; ``u`` the counter stream of
    :func:`engine.rules.streams.counter_uniform`, stream 5, which nothing else draws from, so
    the dice and cards are those of the same game with every seat at 100). Otherwise ``p``
    proposes nothing to ``q`` for the whole game. A draw per game, not per proposal: a seat
    that refuses an offer in real play refuses the same offer next turn, and a fresh draw at
    each act phase would make every trade happen within a few turns whatever the rate.
Value pricing
    A seat with ``pricing="value"`` prices as the baseline ``strategic`` does, by static
    values (:mod:`engine.sim.rollout_values`; ``n`` the seats still in less one): it asks a
    buyer ``p`` for a lot ``s`` that completes ``p``'s group :func:`value_price`, half of
    ``p``'s static gain (:func:`completion_gain`) plus its own loss (``s``'s value outside a
    set); in a swap (a) the cash is :func:`swap_cash`, half the difference of the two sides'
    gains, and a swap whose payer would not keep its ``build_reserve`` is passed over for the
    next one (never capped, as ``strategic`` does not propose what it cannot pay). It
    accepts a sale of a lot completing the buyer's group for at least :func:`value_price`
    and a swap (a) for at least its :func:`swap_cash`. The asked seat's ``pricing`` decides
    the price. A sale's price moves only with the buyer's own lots and the seats still in,
    so the kernel caches its cash threshold as any other (a bankruptcy re-opens every seat's
    phase); a swap's moves with the other side's cash and mortgages, so a phase that passes
    one over is never skipped (``VER``).
``raise_cash``
    Nothing: the engine's fixed liquidation order (:meth:`engine.rules.game.Game.liquidate`).
Shortage auctions, lifting a received mortgage
    Never: no premium bid for a scarce building, interest only on a
    mortgaged lot received.

Rule variants (:class:`models.rules.Rules`)
    The policy's decisions are legal under every variant, and the engine
    applies the variants around them: without ``auctions`` a lot its lander
    declines stays with the bank (``auction_max`` is never asked), under
    ``auction_only`` ``buy`` is never asked; in jail, paying and a card are
    always allowed, and "roll" under ``jail_doubles`` off means waiting out
    the turn (the engine throws only on a last turn that pays). Without
    ``even_building`` the policy still builds evenly: its build targets are
    the lots at the group's lowest level, legal under both rules (the
    engine's hotel break and liquidation follow the rules in force). The
    policy takes no account of the Free Parking pot, the bank's cash (under
    a finite bank a mortgage may bring less than its value; step 3 counts
    full mortgage values), the cash target or the round limit.

``RolloutPolicy(trade=False, mortgage_to_build=False)`` is the policy before
trading was added (buy, build from spare cash, lift, never trade).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.rules.actions import (
    Action,
    Build,
    Event,
    JailChoice,
    Mortgage,
    ProposeTrade,
    Unmortgage,
)
from engine.rules.agents import BaseAgent
from engine.rules.seeding import SeedLike
from engine.rules.streams import counter_uniform
from engine.rules.view import GameView
from engine.sim.rollout_values import LONE, MONO, half_up, lot_value, value_table
from models.board import HOTEL
from models.errors import InvalidArgumentError
from models.trade import Trade

NON_STREET_GROUPS = ("railroad", "utility")
PRICINGS = ("premium", "value")
"""The values of :attr:`RolloutPolicy.pricing`, in the order of their kernel codes."""


@dataclass(frozen=True, slots=True)
class RolloutPolicy:
    """Parameters of the fixed rollout policy (see the module docstring).

    ``sell_premium`` is a percentage: a seat asks ``price * (100 +
    sell_premium) // 100`` for a lot that completes another seat's group
    (100: twice the printed price).

    Attributes
    ----------
    buy_reserve : int, default 0
        Cash kept after buying a lot.
    build_reserve : int, default 150
        Cash kept after building.
    unmortgage_reserve : int, default 300
        Cash kept after lifting a mortgage.
    jail : {"roll", "pay"}, default "roll"
        Roll for doubles in jail, or pay at once.
    max_level : int, default 5
        The highest level built (5: a hotel).
    trade : bool, default True
        Whether the seat proposes and accepts trades.
    mortgage_to_build : bool, default True
        Whether it mortgages spare lots to pay for buildings.
    sell_premium : int, default 100
        The asking premium, a whole percentage.
    wait_turns : int, default 0
        The seat takes no action of its own in an act phase (no lift, build, mortgage to build
        or proposal) until it has begun this many turns of the game (counted from the state
        it starts from, a turn resumed in phase ``rolled`` included); it still buys, bids, pays
        and accepts trades. 0: it never waits. "Not now, then play on"
        (:meth:`solver.trades.rescore.RescoreSettings.not_now`) is 2 for the seat to move (it
        acts again at the start of its next turn) and 1 for any other seat.
    wait_declines : bool, default False
        Whether the seat also refuses every trade proposed to it while it waits (before it
        has begun ``wait_turns`` turns): no other seat's policy proposes to it then. The
        waiting seat of "not now" then neither makes nor accepts the exchange under
        evaluation in between (:meth:`solver.trades.rescore.RescoreSettings.not_now`).
    accept : int, default 100
        The chance, in percent, that the seat accepts a given proposer's trades in a game
        (drawn once per game and proposer, module docstring); 100: every trade its rule
        accepts.
    pricing : {"premium", "value"}, default "premium"
        How the seat prices a lot it sells or swaps to complete another seat's group:
        ``"premium"``, the asking premium on the printed price and half the difference of
        the groups' printed prices in a swap; ``"value"``, the split of the static surplus
        that the baseline ``strategic`` uses (module docstring, "Value pricing").

    Raises
    ------
    InvalidArgumentError
        A ``jail`` other than ``roll`` or ``pay``, ``max_level`` outside 0..5, a negative
        reserve or premium, a premium that is not whole, ``accept`` outside 0..100, or a
        ``pricing`` other than ``premium`` or ``value``.

    Examples
    --------
    >>> RolloutPolicy().as_array(), RolloutPolicy(trade=False, jail="pay", accept=40).as_array()
    ([0, 150, 300, 0, 5, 1, 1, 100, 0, 0, 100, 0], [0, 150, 300, 1, 5, 0, 1, 100, 0, 0, 40, 0])
    >>> RolloutPolicy(jail="wait")
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: jail must be 'roll' or 'pay', got 'wait'
    """

    buy_reserve: int = 0
    build_reserve: int = 150
    unmortgage_reserve: int = 300
    jail: str = "roll"
    max_level: int = HOTEL
    trade: bool = True
    mortgage_to_build: bool = True
    sell_premium: int = 100
    wait_turns: int = 0
    wait_declines: bool = False
    accept: int = 100
    pricing: str = "premium"

    def __post_init__(self) -> None:
        if self.jail not in ("roll", "pay"):
            raise InvalidArgumentError(f"jail must be 'roll' or 'pay', got {self.jail!r}")
        if not 0 <= self.max_level <= HOTEL:
            raise InvalidArgumentError(f"max_level must be in 0..{HOTEL}, got {self.max_level}")
        for name in (
            "buy_reserve",
            "build_reserve",
            "unmortgage_reserve",
            "sell_premium",
            "wait_turns",
        ):
            if getattr(self, name) < 0:
                raise InvalidArgumentError(f"{name} must be >= 0")
        if self.sell_premium != int(self.sell_premium):
            raise InvalidArgumentError("sell_premium is a whole percentage")
        if self.accept != int(self.accept) or not 0 <= self.accept <= 100:
            raise InvalidArgumentError(f"accept must be a whole percentage in 0..100, got {self.accept}")
        if self.pricing not in PRICINGS:
            raise InvalidArgumentError(f"pricing must be 'premium' or 'value', got {self.pricing!r}")

    def as_array(self) -> list[int]:
        """The kernel's encoding (one row of its ``POL`` table): ``[buy, build,
        unmortgage reserves, jail pays (0/1), max_level, trade (0/1),
        mortgage_to_build (0/1), sell_premium, wait_turns, wait_declines (0/1), accept,
        pricing (0: premium, 1: value)]``.

        Returns
        -------
        list of int
            Twelve integers.
        """
        return [
            self.buy_reserve,
            self.build_reserve,
            self.unmortgage_reserve,
            int(self.jail == "pay"),
            self.max_level,
            int(self.trade),
            int(self.mortgage_to_build),
            int(self.sell_premium),
            int(self.wait_turns),
            int(self.wait_declines),
            int(self.accept),
            PRICINGS.index(self.pricing),
        ]

    def asking_price(self, price: int) -> int:
        """What this seat asks for a lot of printed price ``price`` that completes another seat's group.

        Parameters
        ----------
        price : int
            The lot's printed price.

        Returns
        -------
        int
            ``price * (100 + sell_premium) // 100``.

        Examples
        --------
        >>> RolloutPolicy().asking_price(120), RolloutPolicy(sell_premium=50).asking_price(120)
        (240, 180)
        """
        return price * (100 + int(self.sell_premium)) // 100


PolicyLike = RolloutPolicy | Sequence[RolloutPolicy] | None


def seat_policies(policy: PolicyLike, n_players: int) -> tuple[RolloutPolicy, ...]:
    """One policy per seat: ``None`` (the default policy everywhere), one
    policy for every seat, or a sequence with one per seat.

    Parameters
    ----------
    policy : RolloutPolicy, sequence of RolloutPolicy, or None
        What was given.
    n_players : int
        The number of seats.

    Returns
    -------
    tuple of RolloutPolicy
        ``n_players`` policies.

    Raises
    ------
    InvalidArgumentError
        A sequence of the wrong length or holding something else.

    Examples
    --------
    >>> len(seat_policies(None, 4)), seat_policies([RolloutPolicy(trade=False), RolloutPolicy()], 2)[0].trade
    (4, False)
    >>> seat_policies([RolloutPolicy()], 3)
    Traceback (most recent call last):
    ...
    models.errors.InvalidArgumentError: need one RolloutPolicy per seat (3), got 1
    """
    if policy is None:
        return (RolloutPolicy(),) * n_players
    if isinstance(policy, RolloutPolicy):
        return (policy,) * n_players
    out = tuple(policy)
    if len(out) != n_players or not all(isinstance(p, RolloutPolicy) for p in out):
        raise InvalidArgumentError(
            f"need one RolloutPolicy per seat ({n_players}), got {len(out)}"
        )
    return out


# ---------------------------------------------------------------------------
# the rules, on the view of a seat
# ---------------------------------------------------------------------------
def _street_groups(view: GameView) -> list[str]:
    """Street groups in name order (the kernel's group ids are the sorted names)."""
    return [g for g in sorted(view.board.groups) if g not in NON_STREET_GROUPS]


def build_targets(view: GameView, p: int, policy: RolloutPolicy) -> list[int]:
    """Lots of ``p`` where a building would be legal if ``p`` had the cash, below ``max_level``.

    Parameters
    ----------
    view : GameView
        What the seat sees.
    p : int
        The builder's seat.
    policy : RolloutPolicy
        Its policy (``max_level``).

    Returns
    -------
    list of int
        Squares: for each street group in name order, its lots at the group's lowest level, in
        the group's board order (the policy builds on the lowest level first, then the highest
        square index, not in this order).

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> view = GameView(load_state("instances/two-player.json"), 0)
    >>> targets = build_targets(view, 0, RolloutPolicy())
    >>> targets, [view.level(sq) for sq in targets]
    ([1, 3, 16, 18, 19], [0, 0, 3, 3, 3])
    """
    s = view
    board = s.board
    out: list[int] = []
    houses = hotels = None
    for g in _street_groups(view):
        if not s.can_build_on_group(p, g):
            continue
        lots = [sq for sq in board.groups[g] if s.owner_of(sq) == p]
        low = min(s.level(sq) for sq in lots)
        if low >= HOTEL or low >= policy.max_level:
            continue
        if low == HOTEL - 1:
            if hotels is None:
                hotels = s.hotels_in_bank()
            if hotels < 1:
                continue
        else:
            if houses is None:
                houses = s.houses_in_bank()
            if houses < 1:
                continue
        out.extend(sq for sq in lots if s.level(sq) == low)
    return out


def _one_short(view: GameView, p: int, g: str) -> bool:
    n = view.count_in_group(p, g)
    return n >= 1 and n == view.set_size(g) - 1 and not view.group_has_buildings(g)


def _lot_for_sale(view: GameView, q: int, g: str) -> int | None:
    """``q``'s first unmortgaged lot of ``g`` when ``q`` does not hold ``g`` completely."""
    if view.has_monopoly(q, g):
        return None
    for sq in view.board.groups[g]:
        if view.owner_of(sq) == q and not view.is_mortgaged(sq):
            return sq
    return None


def _group_price(view: GameView, g: str) -> int:
    return sum(view.board.squares[sq].price for sq in view.board.groups[g])


def _spare(cash: int, reserve: int) -> int:
    return max(0, cash - reserve)


def _n_opp(view: GameView) -> int:
    """The seats still in the game less one, at least 1."""
    return max(1, sum(not view.player(i).bankrupt for i in range(view.n_players)) - 1)


def _value(view: GameView, vt: np.ndarray, sq: int, kind: int, n: int) -> int:
    """Lot ``sq``'s static value for its holder with stream kind ``kind`` of the table ``vt`` (:func:`lot_value`)."""
    mv = view.mortgage_value(sq)
    return lot_value(int(vt[sq, kind, n]), mv, view.rules.unmortgage_cost(mv), view.is_mortgaged(sq))


def completion_gain(view: GameView, p: int, s: int) -> int:
    """Seat ``p``'s static gain from receiving the unmortgaged lot ``s`` that completes its group
    (module docstring, "Value pricing").

    Parameters
    ----------
    view : GameView
        What a seat sees.
    p : int
        The receiving seat, one short of ``s``'s group.
    s : int
        The lot.

    Returns
    -------
    int
        ``s``'s value in the set plus, for each of ``p``'s other lots of the group, its value in
        the set less its value outside it (whole dollars).

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> completion_gain(GameView(state, 0), 0, 19)  # Ann receives New York Avenue
    6951
    """
    n = _n_opp(view)
    vt = value_table(view.board, view.rules, view.n_players)
    g = view.board.squares[s].group or ""
    gain = int(vt[s, MONO, n]) + view.mortgage_value(s)
    for t in view.board.groups[g]:
        if t != s and view.owner_of(t) == p:
            gain += _value(view, vt, t, MONO, n) - _value(view, vt, t, LONE, n)
    return gain


def value_price(view: GameView, p: int, s: int) -> int:
    """What a seat with ``pricing="value"`` asks seat ``p`` for lot ``s``, which completes ``p``'s group:
    half the sum of ``p``'s gain (:func:`completion_gain`) and the seller's loss (``s``'s value
    outside a set), rounded up, so that both sides gain the same static worth.

    Parameters
    ----------
    view : GameView
        What a seat sees.
    p : int
        The buyer, one short of ``s``'s group.
    s : int
        The lot, unmortgaged.

    Returns
    -------
    int
        The price in whole dollars.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> value_price(GameView(state, 0), 0, 19), RolloutPolicy().asking_price(200)
    (3549, 400)
    """
    return half_up(completion_gain(view, p, s) + _value(view, value_table(view.board, view.rules, view.n_players), s, LONE, _n_opp(view)))


def swap_cash(view: GameView, p: int, s: int, q: int, t: int) -> int:
    """The cash ``p`` pays ``q`` (negative: receives) when ``p`` receives ``s`` and gives ``t``, each
    lot completing the receiver's group, under ``pricing="value"``: half the difference of the
    two sides' static gains, so that both gain the same.

    Parameters
    ----------
    view : GameView
        What a seat sees.
    p, q : int
        The two seats.
    s, t : int
        The lot ``p`` receives (``q``'s) and the lot it gives, both unmortgaged.

    Returns
    -------
    int
        Whole dollars from ``p`` to ``q``; ``swap_cash(view, q, t, p, s)`` is its negative.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> swap_cash(GameView(state, 2), 2, 14, 3, 26)  # Cy gets Virginia, gives Atlantic
    -1235
    """
    n = _n_opp(view)
    vt = value_table(view.board, view.rules, view.n_players)
    gp = completion_gain(view, p, s) - _value(view, vt, t, LONE, n)
    gq = completion_gain(view, q, t) - _value(view, vt, s, LONE, n)
    return half_up(gp - gq)


def find_trade(
    view: GameView,
    p: int,
    policies: Sequence[RolloutPolicy],
    turns: Sequence[int] | None = None,
    key: int | None = None,
) -> Trade | None:
    """The trade seat ``p`` proposes now (module docstring, rules (a) and (b)), or ``None``.

    Parameters
    ----------
    view : GameView
        What the seat sees.
    p : int
        The proposer's seat.
    policies : sequence of RolloutPolicy
        Every seat's policy (whom to ask, at what price).
    turns : sequence of int, optional
        Every seat's turns begun in the game (:func:`waiting`); without it no seat is
        taken to be waiting.
    key : int or None
        The game's stream key, for the seats with ``accept`` below 100 (:func:`accepts_from`).

    Returns
    -------
    Trade or None
        The proposal.

    Raises
    ------
    InvalidArgumentError
        Some seat's ``accept`` is below 100 and no ``key`` was given.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> trade = find_trade(GameView(state, 2), 2, seat_policies(None, 4))
    >>> trade.properties_given("Cy"), trade.properties_received("Cy"), trade.net_cash("Cy")
    (['Atlantic Avenue'], ['Virginia Avenue'], 180)
    """
    pol = policies[p]
    if not pol.trade:
        return None
    groups = _street_groups(view)
    short = [g for g in groups if _one_short(view, p, g)]
    if not short:
        return None
    others = [
        q
        for q in range(view.n_players)
        if q != p
        and policies[q].trade
        and not view.player(q).bankrupt
        and not (turns is not None and waiting(policies[q], turns[q]))
        and accepts_from(key, p, q, policies[q])
    ]
    name = view.board.squares
    for g in short:
        for q in others:
            s = _lot_for_sale(view, q, g)
            if s is None:
                continue
            for h in groups:
                if h == g or not _one_short(view, q, h):
                    continue
                t = _lot_for_sale(view, p, h)
                if t is None:
                    continue
                if policies[q].pricing == "value":
                    cash = swap_cash(view, p, s, q, t)
                    if (cash > 0 and view.cash(p) - cash < pol.build_reserve) or (
                        cash < 0 and view.cash(q) + cash < policies[q].build_reserve
                    ):
                        continue  # the payer would not keep its reserve: the next swap
                else:
                    diff = _group_price(view, g) - _group_price(view, h)
                    if diff > 0:
                        cash = min(diff // 2, _spare(view.cash(p), pol.build_reserve))
                    else:
                        cash = -min(
                            -diff // 2, _spare(view.cash(q), policies[q].build_reserve)
                        )
                return Trade.bilateral(
                    view.name(p), view.name(q), (name[t].name,), (name[s].name,), cash
                )
    for g in short:
        for q in others:
            s = _lot_for_sale(view, q, g)
            if s is None:
                continue
            if policies[q].pricing == "value":
                offer = value_price(view, p, s)
            else:
                offer = policies[q].asking_price(name[s].price)
            if view.cash(p) - offer >= pol.build_reserve:
                return Trade.bilateral(
                    view.name(p), view.name(q), (), (name[s].name,), offer
                )
    return None


def accepts_from(key: int | None, p: int, q: int, policy: RolloutPolicy) -> bool:
    """Whether seat ``q`` (with ``policy``) accepts seat ``p``'s trades in the game keyed ``key``
    (module docstring: ``u(key, 5, (p << 8) | q) x 100 < accept``).

    Parameters
    ----------
    key : int or None
        The game's stream key (``None`` only when ``accept`` is 100).
    p, q : int
        The proposer's and the asked seat's indices.
    policy : RolloutPolicy
        ``q``'s policy.

    Returns
    -------
    bool

    Raises
    ------
    InvalidArgumentError
        ``accept`` below 100 without a key.

    Examples
    --------
    >>> [accepts_from(4, 0, q, RolloutPolicy(accept=50)) for q in (1, 2, 3)], accepts_from(None, 0, 1, RolloutPolicy())
    ([True, False, True], True)
    """
    if policy.accept >= 100:
        return True
    if key is None:
        raise InvalidArgumentError("a seat with accept below 100 needs the game's stream key")
    return counter_uniform(key, 5, (p << 8) | q) * 100.0 < policy.accept


def waiting(policy: RolloutPolicy, turns_begun: int) -> bool:
    """Whether a seat with ``policy`` that has begun ``turns_begun`` turns refuses every trade
    (``wait_declines``, before ``wait_turns`` turns).

    Parameters
    ----------
    policy : RolloutPolicy
        The seat's policy.
    turns_begun : int
        Its turns begun in the game (a turn resumed in phase ``rolled`` included).

    Returns
    -------
    bool
        It declines every offer now.

    Examples
    --------
    >>> waiting(RolloutPolicy(wait_turns=2, wait_declines=True), 1), waiting(RolloutPolicy(wait_turns=2), 1)
    (True, False)
    """
    return policy.wait_declines and turns_begun < policy.wait_turns


def accepts(view: GameView, me: int, policy: RolloutPolicy, trade: Trade) -> bool:
    """Whether seat ``me`` accepts ``trade`` (module docstring).

    Parameters
    ----------
    view : GameView
        What the seat sees.
    me : int
        The seat asked.
    policy : RolloutPolicy
        Its policy.
    trade : Trade
        The proposal.

    Returns
    -------
    bool
        Accept or not.

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.rules.view import GameView
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> trade = find_trade(GameView(state, 2), 2, seat_policies(None, 4))
    >>> accepts(GameView(state, 3), 3, RolloutPolicy(), trade), accepts(GameView(state, 3), 3, RolloutPolicy(trade=False), trade)
    (True, False)
    """
    if not policy.trade:
        return False
    my_name = view.name(me)
    parts = trade.participants()
    if (
        len(parts) != 2
        or my_name not in parts
        or any(t.jail_cards for t in trade.transfers)
    ):
        return False
    other_name = parts[0] if parts[1] == my_name else parts[1]
    other_i = next(i for i in range(view.n_players) if view.name(i) == other_name)
    board = view.board
    got = [board.property_index[x] for x in trade.properties_received(my_name)]
    gave = [board.property_index[x] for x in trade.properties_given(my_name)]
    if (
        len(gave) != 1
        or len(got) > 1
        or any(view.is_mortgaged(sq) for sq in got + gave)
    ):
        return False
    given_group = board.squares[gave[0]].group or ""
    if view.has_monopoly(me, given_group):
        return False
    net = trade.net_cash(my_name)
    if not got:
        if policy.pricing == "value":
            g = board.squares[gave[0]].group or ""
            if g in NON_STREET_GROUPS or not _one_short(view, other_i, g):
                return False  # it sells only a lot that completes the buyer's group
            return net >= value_price(view, other_i, gave[0])
        return net >= policy.asking_price(board.squares[gave[0]].price)
    got_group = board.squares[got[0]].group or ""
    if (
        got_group in NON_STREET_GROUPS
        or given_group in NON_STREET_GROUPS
        or got_group == given_group
    ):
        return False
    if not (_one_short(view, me, got_group) and _one_short(view, other_i, given_group)):
        return False
    if policy.pricing == "value":
        return net >= -swap_cash(view, me, got[0], other_i, gave[0])
    return -net <= max(
        0, (_group_price(view, got_group) - _group_price(view, given_group)) // 2
    )


class PolicyAgent(BaseAgent):
    """:class:`RolloutPolicy` as an agent of the reference engine.

    ``policies``: every seat's policy, in seat order (to know whom to propose
    trades to and at what price); default: every seat plays ``policy``.
    Without ``policy``, the seat's own policy is its entry in ``policies``.

    Parameters
    ----------
    seed : int, SeedSequence or None
        As :class:`engine.rules.agents.BaseAgent`.
    policy : RolloutPolicy or None
        This seat's policy.
    policies : sequence of RolloutPolicy or None
        Every seat's, in seat order.
    key : int or None
        The game's stream key (:func:`engine.rules.streams.counter_uniform`), needed when some
        seat's ``accept`` is below 100 (:func:`accepts_from`).

    Examples
    --------
    The reference engine playing the kernel's policy (the differential test's other side):

    >>> from models.io import load_state
    >>> from engine.rules.game import Game
    >>> from engine.rules.streams import CounterStream
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> agents = [PolicyAgent() for _ in state.players]
    >>> Game(state.copy(), agents, CounterStream(7), max_rounds=state.round + 5).play().reason
    'round_cap'
    """

    name = "rollout-policy"

    def __init__(
        self,
        seed: SeedLike = None,
        policy: RolloutPolicy | None = None,
        policies: Sequence[RolloutPolicy] | None = None,
        key: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.key = key
        self._given = policy
        self._given_all = tuple(policies) if policies is not None else None
        self.policy = policy or RolloutPolicy()
        self.policies: tuple[RolloutPolicy, ...] = ()
        self._proposed = False
        self._turns: list[int] = []  # every seat's turns begun in the game (wait_turns)

    def start_game(self, me: int, names: tuple[str, ...]) -> None:
        """Take the seat, and every seat's policy.

        Parameters
        ----------
        me : int
            This agent's seat.
        names : tuple of str
            Every seat's name.

        Raises
        ------
        InvalidArgumentError
            ``policies`` was given with a length other than the number of seats.
        """
        super().start_game(me, names)
        if self._given_all is not None:
            if len(self._given_all) != len(names):
                raise InvalidArgumentError(
                    f"{len(self._given_all)} seat policies for {len(names)} seats"
                )
            self.policies = self._given_all
            self.policy = self._given or self._given_all[me]
        else:
            self.policies = (self.policy,) * len(names)
        self._proposed = False
        self._turns = [0] * len(names)

    def notify(self, event: Event) -> None:
        """A ``turn`` or ``roll_end`` event opens a new act phase: one more proposal is allowed.
        ``turn`` events, and a ``game_start`` naming the seat whose turn resumes in phase
        ``rolled``, count every seat's turns begun (``wait_turns``).

        Parameters
        ----------
        event : Event
            What happened.
        """
        # Every act phase of a seat follows a "turn" or a "roll_end" event
        # after its previous one: a new phase, a new proposal allowed.
        if event.kind in ("turn", "roll_end"):
            self._proposed = False
        seat = event.player if event.kind == "turn" else None
        if event.kind == "game_start":
            seat = event.data.get("resumed")
        if seat is not None and 0 <= seat < len(self._turns):
            self._turns[seat] += 1

    def buy(self, view: GameView, square: int) -> bool:
        """Buy when the cash left after the list price is at least ``buy_reserve``.

        Parameters
        ----------
        view : GameView
            What this seat sees.
        square : int
            The lot offered.

        Returns
        -------
        bool
            Buy or not.
        """
        return (
            view.cash(self.me) - view.board.squares[square].price
            >= self.policy.buy_reserve
        )

    def auction_max(self, view: GameView, square: int) -> int:
        """Bid up to the list price, keeping ``buy_reserve`` (0 when it cannot).

        Parameters
        ----------
        view : GameView
            What this seat sees.
        square : int
            The lot auctioned.

        Returns
        -------
        int
            ``max(0, min(price, cash - buy_reserve))``.
        """
        return max(
            0,
            min(
                view.board.squares[square].price,
                view.cash(self.me) - self.policy.buy_reserve,
            ),
        )

    def jail_choice(self, view: GameView) -> JailChoice:
        """Use a held card; else pay with ``jail="pay"`` when the fine is affordable; else roll.

        Parameters
        ----------
        view : GameView
            What this seat sees.

        Returns
        -------
        JailChoice
            ``card``, ``pay`` or ``roll``.
        """
        me = view.player(self.me)
        if me.jail_cards:
            return "card"
        if self.policy.jail == "pay" and me.cash >= view.rules.jail_fine:
            return "pay"
        return "roll"

    def act(self, view: GameView) -> Action | None:
        """One action of the policy, in this order: lift a mortgage (keeping ``unmortgage_reserve``;
        a monopoly's lots first), build (keeping ``build_reserve``; the lowest level, then the
        highest square), mortgage a spare lot to pay for a building, propose a trade (once per
        act phase); else nothing. Nothing before the seat has begun ``wait_turns`` turns.

        Parameters
        ----------
        view : GameView
            What this seat sees.

        Returns
        -------
        Action or None
            The action, or none (the phase ends).
        """
        me = self.me
        pol = self.policy
        if self._turns[me] < pol.wait_turns:
            return None
        cash = view.cash(me)
        board = view.board
        targets = build_targets(view, me, pol)
        lifts = [
            sq
            for sq in view.legal_unmortgages()
            if cash - view.rules.unmortgage_cost(view.mortgage_value(sq))
            >= pol.unmortgage_reserve
            and (
                not pol.mortgage_to_build
                or not targets
                or view.has_monopoly(me, board.squares[sq].group or "")
            )
        ]
        if lifts:
            return Unmortgage(
                min(
                    lifts,
                    key=lambda q: (
                        not view.has_monopoly(me, board.squares[q].group or ""),
                        q,
                    ),
                )
            )
        builds = [
            sq
            for sq in targets
            if cash - board.squares[sq].house_cost >= pol.build_reserve
        ]
        if builds:
            return Build(min(builds, key=lambda q: (view.level(q), -q)))
        if pol.mortgage_to_build and targets:
            spare = [
                sq
                for sq in view.legal_mortgages()
                if not view.has_monopoly(me, board.squares[sq].group or "")
            ]
            cheapest = min(board.squares[sq].house_cost for sq in targets)
            if (
                spare
                and cash + sum(view.mortgage_value(sq) for sq in spare) - cheapest
                >= pol.build_reserve
            ):
                return Mortgage(min(spare, key=lambda q: (board.squares[q].price, q)))
        if pol.trade and not self._proposed:
            trade = find_trade(view, me, self.policies, self._turns, self.key)
            if trade is not None:
                self._proposed = True
                return ProposeTrade(trade)
        return None

    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        """:func:`accepts` with this seat's policy.

        Parameters
        ----------
        view : GameView
            What this seat sees.
        trade : Trade
            The offer.

        Returns
        -------
        bool
            Accept or not: never while the seat waits and declines (:func:`waiting`).
        """
        if waiting(self.policy, self._turns[self.me]):
            return False
        if not accepts(view, self.me, self.policy, trade):
            return False
        names = [view.name(i) for i in range(view.n_players)]
        others = [names.index(n) for n in trade.participants() if n != names[self.me]]
        return all(accepts_from(self.key, p, self.me, self.policy) for p in others)


__all__ = [
    "PolicyAgent",
    "PolicyLike",
    "RolloutPolicy",
    "accepts",
    "accepts_from",
    "build_targets",
    "completion_gain",
    "find_trade",
    "seat_policies",
    "swap_cash",
    "value_price",
    "waiting",
]
