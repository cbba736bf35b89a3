"""Auction policy: how much to bid for an unowned lot, and whether to buy it at list price.

The engine (:mod:`engine.rules.game`) runs every auction as a second-price auction
on sealed maxima: the highest maximum wins and pays the second-highest maximum
plus $1 (capped at its own maximum); a bid is capped at the bidder's cash. In a
second-price auction the price a bidder pays does not depend on its own
maximum, only whether it wins does; so the right maximum is the price at which
winning and losing are equally good for it. :func:`auction_bid` computes that
price by simulation and caps it by what the player can pay and by what it can
afford to pay without courting ruin.

Components
----------
Indifference price ``p*``
    For a price ``p`` let ``M(p)`` be the state right after the auction when
    the player wins the lot at ``p`` (it owns the lot, unmortgaged, and has
    paid ``p``) and ``R(p)`` the state when the *most dangerous rival* wins it
    at ``p`` (the rival owns it and has paid ``min(p, its cash)``: a rival can
    never pay more than its cash, since bids are capped there). Both are played
    by :func:`engine.sim.rollout.simulate` (``rollouts`` games of ``horizon``
    rounds, every seat on the fixed rollout policy) on the same seed, hence on
    the same dice and cards (common random numbers), and

        D(p) = W_me(M(p)) - W_me(R(p)),

    the difference in the player's simulated win probability (a game still
    running at the horizon is won on net worth, as the engine scores its round
    cap). ``D`` falls as ``p`` rises (the player's cash falls in ``M``, the
    rival's in ``R``). The *sign* used is that of ``D(p)``; where the win
    probabilities are exactly equal on every game pair (a game decided either
    way within the horizon), the sign of the paired difference in the
    player's final net worth decides instead (and a tie there too counts as
    "not better"). ``p*`` is found by bisection on whole dollars over
    ``[0, cash]``: if winning is not better even at ``p = 0``, ``p* = 0``; if
    it is still better at ``p = cash``, ``p* = cash`` and ``censored`` is set
    (the search range ends there: the simulated states cannot hold negative
    cash, and the engine caps bids at cash anyway); otherwise the bracket
    ``lo < hi`` with winning better at ``lo`` and not at ``hi`` is narrowed
    until ``hi - lo <= resolution`` and ``p* = lo``, the highest price probed at
    which winning is still the better outcome (probes already made, such as a
    buy decision's probe at list price, narrow the first bracket). Every probe
    is kept in ``trace``. An agent that needs only ``max_bid`` may stop the
    search at the smaller cap (``AuctionEvaluator.bid(search_to_caps=True)``):
    ``p*`` is then censored there, ``max_bid`` is the same, and fewer probes
    are run. Because every probe uses the same seed, ``D`` is a deterministic
    function of ``p``; its noise (standard error of the paired difference,
    also in ``trace``) is that of ``rollouts`` paired games.
Most dangerous rival
    the active opponent whose own simulated win probability rises most when it
    gets the lot at list price (paying ``min(list price, its cash)``), against
    the state as it is (lot unowned), on the same seed; ties go to the lower
    seat. With no active opponent the "rival" state is the state as it is.
Liquidity cap
    cash plus the mortgage value of every lot the player could mortgage now
    (:func:`engine.rules.legal.legal_mortgages`: its own unmortgaged lots in groups
    without buildings). Buildings sold back are *not* counted (selling them
    destroys rent), nor is the lot being auctioned. The engine caps a bid at
    cash, so this cap never binds there; it is reported for completeness.
Risk cap
    ``cash - reserve`` where ``reserve`` is :func:`solver.analysis.reserve.cash_reserve`
    (ruin within ``turns`` = 20 turns at most ``epsilon``) of the player in the
    state where it owns the lot (unmortgaged): the largest price after paying
    which its ruin probability within 20 turns stays at most ``epsilon`` (to the
    reserve's ``bucket``). Negative when the player is already over the risk.
Maximum bid
    ``max_bid = max(0, min(p*, liquidity cap, risk cap))``.
Buy at list price
    ``buy_at_list = list price <= p*``: buying at list price is then at least
    as good as letting the rival have the lot at that price (it ignores the
    risk cap: the simulation already counts bankruptcies).

The fast variant from Poorman costs of the colour-group contest is not
implemented.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.chains.markov import PositionChain
from engine.rules.legal import legal_mortgages
from engine.sim.rollout import RolloutResult, paired_delta, paired_worth_delta, simulate
from engine.sim.rollout_policy import RolloutPolicy
from models.errors import MonopolyError
from models.state import BANK, GameState
from solver.analysis.reserve import cash_reserve

__all__ = ["AuctionBid", "AuctionError", "AuctionEvaluator", "Probe", "auction_bid", "liquidity_cap", "resolve_lot"]


class AuctionError(MonopolyError, ValueError):
    """An auction question that makes no sense (not a property, already owned, bankrupt bidder)."""


@dataclass(frozen=True)
class Probe:
    """One price tried by the bisection.

    Attributes
    ----------
    price : int
        The price tried.
    win_if_mine, win_if_rival : float
        The player's simulated win probability when it, or the rival, wins the lot at ``price``.
    diff, diff_se : float
        ``win_if_mine - win_if_rival`` (the mean of the paired differences) and its standard error.
    worth_diff : float
        The paired difference in the player's final net worth (the tie-break).

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> ev = AuctionEvaluator(state, "Cy", "Boardwalk", rollouts=50, horizon=10, seed=1)  # few games: noise
    >>> p = ev.probe(400)
    >>> p.price, round(p.diff, 3), round(p.diff_se, 3), p.mine_better
    (400, -0.126, 0.054, False)
    """

    price: int
    win_if_mine: float
    """The player's simulated win probability when it wins the lot at ``price``."""
    win_if_rival: float
    """The player's simulated win probability when the rival wins the lot at ``price``."""
    diff: float
    """``win_if_mine - win_if_rival`` (mean of the paired differences)."""
    diff_se: float
    """Standard error of ``diff`` (paired games)."""
    worth_diff: float
    """Paired difference in the player's final net worth (the tie-break)."""

    @property
    def mine_better(self) -> bool:
        """Winning the lot at ``price`` beats the rival winning it (``diff``; on a tie, ``worth_diff``)."""
        if self.diff != 0:
            return self.diff > 0
        return self.worth_diff > 0

    def to_dict(self) -> dict[str, Any]:
        """The probe as ``auction --json`` writes it in ``trace``.

        Returns
        -------
        dict
            ``price``, ``win_if_mine``, ``win_if_rival``, ``diff``, ``diff_se``, ``worth_diff``.
        """
        return {
            "price": self.price,
            "win_if_mine": self.win_if_mine,
            "win_if_rival": self.win_if_rival,
            "diff": self.diff,
            "diff_se": self.diff_se,
            "worth_diff": self.worth_diff,
        }


@dataclass(frozen=True)
class AuctionBid:
    """The simulated auction bid (module docstring): the price and its caps.

    Attributes
    ----------
    player, property : str
        The bidder and the lot, by name.
    square : int
        The lot.
    list_price : int
        Its printed price.
    max_bid : int
        ``min(p*, liquidity cap, risk cap)``, at least 0.
    indifference_price : int
        ``p*``: the highest price at which winning still beats the rival winning.
    censored : bool
        See below.
    liquidity_cap : int
        Cash plus what mortgages raise.
    risk_cap : int
        Cash above the reserve after the purchase.
    reserve : int
        That reserve (:func:`solver.analysis.reserve.cash_reserve`).
    rival : str or None
        The most dangerous rival.
    rival_gain : float
        See below.
    buy_at_list : bool
        Whether ``p*`` reaches the list price.
    bracket : tuple of (int, int)
        The bisection's last interval.
    trace : tuple of Probe
        Every price tried.
    rollouts, horizon, seed : int
        The simulations' settings.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> bid = auction_bid(state, "Cy", "Boardwalk", rollouts=50, horizon=10, seed=1, resolution=50)
    >>> bid.max_bid, bid.liquidity_cap, bid.risk_cap, bid.rival, bid.buy_at_list
    (286, 1115, 510, 'Ann', False)
    """

    player: str
    property: str
    square: int
    list_price: int
    max_bid: int
    indifference_price: int
    censored: bool
    """``p*`` hit the top of the search range (cash; the smaller cap with ``search_to_caps``): winning was still better there."""
    liquidity_cap: int
    risk_cap: int
    reserve: int
    rival: str | None
    rival_gain: float
    """The rival's rise in win probability when it gets the lot at list price."""
    buy_at_list: bool
    bracket: tuple[int, int]
    trace: tuple[Probe, ...] = field(repr=False)
    rollouts: int = 0
    horizon: int = 0
    seed: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The bid as ``auction --json --method simulate`` writes it.

        Returns
        -------
        dict
            The fields by name (``square`` left out), ``trace`` as a list of probes.
        """
        return {
            "player": self.player,
            "property": self.property,
            "list_price": self.list_price,
            "max_bid": self.max_bid,
            "indifference_price": self.indifference_price,
            "censored": self.censored,
            "liquidity_cap": self.liquidity_cap,
            "risk_cap": self.risk_cap,
            "reserve": self.reserve,
            "rival": self.rival,
            "rival_gain": self.rival_gain,
            "buy_at_list": self.buy_at_list,
            "bracket": list(self.bracket),
            "rollouts": self.rollouts,
            "horizon": self.horizon,
            "seed": self.seed,
            "trace": [p.to_dict() for p in self.trace],
        }


def resolve_lot(state: GameState, player: int | str, square: int | str) -> tuple[int, int]:
    """``(player index, square index)`` of an auction question, checked.

    Parameters
    ----------
    state : GameState
        The position.
    player : int or str
        A seat or a name.
    square : int or str
        The lot, by square or name.

    Returns
    -------
    tuple of (int, int)
        The seat and the square.

    Raises
    ------
    AuctionError
        Unknown player or property, a square that is not a property, a lot already owned, a bankrupt player.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> resolve_lot(state, "Cy", "Boardwalk")
    (2, 39)
    >>> resolve_lot(state, "Cy", "Atlantic Avenue")
    Traceback (most recent call last):
    ...
    solver.bidding.auction.AuctionError: Atlantic Avenue is already owned by Cy
    """
    if isinstance(player, str):
        try:
            player = state.player_index(player)
        except KeyError:
            raise AuctionError(f"no player named {player!r} in the state") from None
    if isinstance(square, str):
        if square not in state.board.property_index:
            raise AuctionError(f"no property named {square!r} on the board")
        square = state.square_of(square)
    if not 0 <= player < len(state.players):
        raise AuctionError(f"no player with index {player}")
    if not 0 <= square < state.board.size or not state.board.squares[square].is_property:
        raise AuctionError(f"square {square} is not a property")
    if state.owner[square] != BANK:
        raise AuctionError(f"{state.board.squares[square].name} is already owned by {state.players[state.owner[square]].name}")
    if state.players[player].bankrupt:
        raise AuctionError(f"{state.players[player].name} is bankrupt")
    return player, square


def liquidity_cap(state: GameState, player: int) -> int:
    """Cash plus the mortgage value of every lot ``player`` may mortgage now (no building sales).

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.

    Returns
    -------
    int
        Dollars.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> liquidity_cap(state, 2), state.players[2].cash
    (1115, 510)
    """
    return state.players[player].cash + sum(state.mortgage_value(sq) for sq in legal_mortgages(state, player))


class AuctionEvaluator:
    """The simulations behind :func:`auction_bid` for one state, lot and player, memoised.

    ``rival()`` and ``probe(p)`` run (and remember) the simulations;
    ``bid()`` assembles the :class:`AuctionBid`. A caller that needs only
    ``probe(list price)`` (a buy decision) pays for that alone, and the
    probes are reused if the full bid is asked for later.

    Parameters
    ----------
    state : GameState
        The position.
    player : int or str
        The bidder.
    square : int or str
        The lot.
    rollouts : int, default 300
        Games per simulated state.
    horizon : int, default 20
        Rounds per game.
    seed : int, default 0
        The dice of every simulation (common random numbers).
    policy : RolloutPolicy or None
        The rollout policy.
    threads : int, default 1
        Threads per simulation.

    Raises
    ------
    AuctionError
        As :func:`resolve_lot`.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> ev = AuctionEvaluator(state, "Cy", "Boardwalk", rollouts=50, horizon=10, seed=1)  # few games: noise
    >>> rival, gain = ev.rival()
    >>> state.players[rival].name, round(gain, 3)
    ('Ann', 0.201)
    >>> ev.indifference_price(resolution=50)
    (286, False, (286, 318))
    """

    def __init__(
        self,
        state: GameState,
        player: int | str,
        square: int | str,
        *,
        rollouts: int = 300,
        horizon: int = 20,
        seed: int = 0,
        policy: RolloutPolicy | None = None,
        threads: int = 1,
    ) -> None:
        player, square = resolve_lot(state, player, square)
        sq = state.board.squares[square]
        self.state = state
        self.me = player
        self.square = square
        self.list_price = sq.price
        self.rollouts = rollouts
        self.horizon = horizon
        self.seed = seed
        self.policy = policy or RolloutPolicy()
        self.threads = threads
        self._rival: tuple[int | None, float] | None = None
        self._probes: dict[int, Probe] = {}

    def _sim(self, state: GameState) -> RolloutResult:
        return simulate(state, self.rollouts, self.horizon, self.seed, policy=self.policy, threads=self.threads)

    def _with_owner(self, owner: int, price: int) -> GameState:
        s = self.state.copy()
        s.owner[self.square] = owner
        s.mortgaged[self.square] = False
        s.players[owner].cash -= min(price, s.players[owner].cash)
        return s

    def rival(self) -> tuple[int | None, float]:
        """The most dangerous rival and its win-probability gain from the lot at list price.

        Returns
        -------
        tuple of (int or None, float)
            The rival's seat (``None`` without opponents) and its gain.
        """
        if self._rival is None:
            opponents = [q for q in self.state.active_players() if q != self.me]
            if not opponents:
                self._rival = (None, 0.0)
            else:
                base = self._sim(self.state)
                best: tuple[int | None, float] = (None, float("-inf"))
                for q in opponents:
                    after = self._sim(self._with_owner(q, self.list_price))
                    name = self.state.players[q].name
                    gain = after.win_prob[name] - base.win_prob[name]
                    if gain > best[1]:
                        best = (q, gain)
                self._rival = best
        return self._rival

    def probe(self, price: int) -> Probe:
        """``D(price)``: the player's win probability when it wins at ``price`` against when the rival does.

        Parameters
        ----------
        price : int
            Dollars, within the player's cash.

        Returns
        -------
        Probe
            The paired difference (memoised per price).

        Raises
        ------
        AuctionError
            ``price`` outside ``[0, cash]``.
        """
        price = int(price)
        hit = self._probes.get(price)
        if hit is not None:
            return hit
        if not 0 <= price <= self.state.players[self.me].cash:
            raise AuctionError(f"price {price} outside [0, cash]")
        rival, _ = self.rival()
        mine = self._sim(self._with_owner(self.me, price))
        theirs = self._sim(self._with_owner(rival, price)) if rival is not None else self._sim(self.state)
        name = self.state.players[self.me].name
        d, se = paired_delta(theirs, mine, name)
        w, _ = paired_worth_delta(theirs, mine, name)
        probe = Probe(price, mine.win_prob[name], theirs.win_prob[name], d, se, w)
        self._probes[price] = probe
        return probe

    def probed(self) -> list[int]:
        """The prices probed so far, in order (a bid's bisection starts from them: :meth:`indifference_price`).

        Returns
        -------
        list of int
            Dollars.
        """
        return list(self._probes)

    def prefers_winning_at(self, price: int) -> bool:
        """Winning at ``price`` beats the rival winning at ``price`` (False above cash).

        Parameters
        ----------
        price : int
            Dollars.

        Returns
        -------
        bool
            :attr:`Probe.mine_better` of :meth:`probe`.
        """
        if price > self.state.players[self.me].cash:
            return False
        return self.probe(price).mine_better

    def indifference_price(self, resolution: int = 5, top: int | None = None) -> tuple[int, bool, tuple[int, int]]:
        """``(p*, censored, bracket)`` by bisection over ``[0, top]`` (default and at most: cash; module docstring).

        Parameters
        ----------
        resolution : int, default 5
            The bisection's stopping width in dollars.
        top : int or None
            The top of the search (at most the cash).

        Returns
        -------
        tuple of (int, bool, tuple of (int, int))
            ``p*``, whether winning was still better at ``top``, and the last interval.
        """
        cash = self.state.players[self.me].cash
        top = cash if top is None else max(0, min(top, cash))
        if not self.probe(0).mine_better:
            return 0, False, (0, 0)
        if self.probe(top).mine_better:
            return top, True, (top, top)
        lo, hi = 0, top
        known = [p for p in self._probes if 0 < p < top]  # start from probes already made (a buy decision's)
        for p in known:
            if self._probes[p].mine_better:
                lo = max(lo, p)
        for p in known:
            if p > lo and not self._probes[p].mine_better:
                hi = min(hi, p)
        while hi - lo > max(1, resolution):
            mid = (lo + hi) // 2
            if self.probe(mid).mine_better:
                lo = mid
            else:
                hi = mid
        return lo, False, (lo, hi)

    def bid(
        self,
        *,
        epsilon: float = 0.05,
        turns: int = 20,
        bucket: int = 50,
        max_cash: int | None = None,
        chain: PositionChain | None = None,
        resolution: int = 5,
        reserve_fn: Callable[[GameState], int] | None = None,
        search_to_caps: bool = False,
    ) -> AuctionBid:
        """All components; ``reserve_fn`` (post-purchase state -> reserve) replaces the reserve call (caching).

        With ``search_to_caps`` the bisection stops at the smaller cap instead
        of cash (``p*`` is then censored at the cap, ``max_bid`` unchanged);
        with both caps at or below 0 no simulation is run at all.

        Parameters
        ----------
        epsilon, turns, bucket, max_cash, chain
            Passed to :func:`solver.analysis.reserve.cash_reserve`.
        resolution : int, default 5
            The bisection's stopping width.
        reserve_fn : callable or None
            Post-purchase state -> reserve, in place of the reserve call.
        search_to_caps : bool, default False
            Stop the bisection at the smaller cap.

        Returns
        -------
        AuctionBid
            The bid with its caps and probes.
        """
        owned = self._with_owner(self.me, 0)
        if reserve_fn is not None:
            reserve = reserve_fn(owned)
        else:
            reserve = cash_reserve(owned, self.me, epsilon=epsilon, turns=turns, bucket=bucket, max_cash=max_cash, chain=chain)
        cash = self.state.players[self.me].cash
        liq = liquidity_cap(self.state, self.me)
        risk = cash - reserve
        if search_to_caps and min(liq, risk) <= 0:
            p_star, censored, bracket = 0, True, (0, 0)
            rival, gain = None, 0.0
        else:
            p_star, censored, bracket = self.indifference_price(resolution, min(liq, risk) if search_to_caps else None)
            rival, gain = self.rival()
        return AuctionBid(
            player=self.state.players[self.me].name,
            property=self.state.board.squares[self.square].name,
            square=self.square,
            list_price=self.list_price,
            max_bid=max(0, min(p_star, liq, risk)),
            indifference_price=p_star,
            censored=censored,
            liquidity_cap=liq,
            risk_cap=risk,
            reserve=reserve,
            rival=self.state.players[rival].name if rival is not None else None,
            rival_gain=gain,
            buy_at_list=self.list_price <= p_star,
            bracket=bracket,
            trace=tuple(self._probes[p] for p in sorted(self._probes)),
            rollouts=self.rollouts,
            horizon=self.horizon,
            seed=self.seed,
        )


def auction_bid(
    state: GameState,
    player: int | str,
    square: int | str,
    *,
    rollouts: int = 300,
    horizon: int = 20,
    seed: int = 0,
    epsilon: float = 0.05,
    chain: PositionChain | None = None,
    turns: int = 20,
    bucket: int = 50,
    max_cash: int | None = None,
    resolution: int = 5,
    policy: RolloutPolicy | None = None,
    threads: int = 1,
) -> AuctionBid:
    """How much ``player`` should bid for the unowned lot ``square`` (index or name).

    See the module docstring for the components. ``rollouts`` games of
    ``horizon`` rounds per simulated state, all on ``seed``; ``epsilon``,
    ``turns``, ``bucket``, ``max_cash`` and ``chain`` go to
    :func:`solver.analysis.reserve.cash_reserve`; ``resolution`` is the bisection's
    stopping width in dollars; ``threads`` play each simulation (the same result for any
    number, :func:`engine.sim.rollout.simulate`). About ``4 + 2 (2 + log2(cash / resolution))``
    simulations (fewer when ``p*`` is 0 or censored).

    Parameters
    ----------
    state : GameState
        The position.
    player : int or str
        The bidder.
    square : int or str
        The lot.
    rollouts, horizon, seed, policy, threads
        As :class:`AuctionEvaluator`.
    epsilon, chain, turns, bucket, max_cash
        Passed to :func:`solver.analysis.reserve.cash_reserve`.
    resolution : int, default 5
        The bisection's stopping width in dollars.

    Returns
    -------
    AuctionBid
        The bid.

    Raises
    ------
    AuctionError
        Unknown player or property, a lot already owned, a bankrupt player.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> bid = auction_bid(state, "Cy", "Boardwalk", rollouts=50, horizon=10, seed=1, resolution=50)
    >>> bid.max_bid, bid.indifference_price, [p.price for p in bid.trace][:3]
    (286, 286, [0, 255, 286])
    """
    ev = AuctionEvaluator(state, player, square, rollouts=rollouts, horizon=horizon, seed=seed, policy=policy, threads=threads)
    return ev.bid(epsilon=epsilon, turns=turns, bucket=bucket, max_cash=max_cash, chain=chain, resolution=resolution)
