"""Buying a lot at its list price, and the most to bid when it is auctioned.

The baseline's rules (:func:`buy_rule`, :func:`bid_rule`, :class:`solver.decisions.baseline.BaselineRules`):
buy when the cash after the price stays at or above ``reserve``; a lot that completes a street
group for the player or blocks an opponent's completion, at or above ``critical_reserve``. Bid
the price, plus ``premium`` x the price for such a lot, capped to leave ``critical_reserve``
(such a lot) or ``reserve`` in cash.

The agent's (:func:`buy_choice`, :func:`bid_choice`; ``subgraph``'s ``auction`` option):

``auction="game"`` (the default)
    the bidding game of the race for the lot's group (:func:`solver.bidding.contest.contest_bid`,
    its risk cap from the agent's ruin reserves, :mod:`solver.decisions.reserves`): the maximum
    bid is the game's ``max_bid``; the lot is bought at list price when ``cash - price >=
    auction_sure_buy`` ($700) or else when the game says ``buy_at_list``. The bid is cached by
    the state and the lot, so the auction that follows a refusal reuses it.
``auction="simulate"``
    :class:`solver.bidding.auction.AuctionEvaluator` with a small budget (``auction_rollouts``
    games of ``auction_horizon`` rounds, its seed from the memory's own counter, one evaluation
    per state and lot): buy as above with one probe at the list price; the maximum bid is the
    indifference price against the most dangerous rival, to $10, within the caps.
``auction="price"``
    the baseline's rules.

Without auctions (``rules.auctions`` false) the baseline's buy rule decides whatever ``auction``
says (``no_auction_buy="rule"``, the default since session 18): a lot declined stays with the
bank, so the auction that the bidding game and the simulation price never happens. Against three
``strategic:trade=false`` under the standard rules without auctions the rule measured +0.007
[-0.011, +0.024] against the bidding game (435 paired games, not significant; ``docs/benchmarks.md``,
"a table where no trade can happen"); in a foreign engine without trades or auctions, where
purchases are most of what sets the agent apart from ``strategic``, the agent had lost -5.0 pp to
``strategic`` in the same seat (issue 39). ``no_auction_buy="auction"`` keeps the ``auction``
option's method there too.

A state the solver refuses (an :class:`solver.bidding.auction.AuctionError` or ``ValueError``)
falls back to the baseline's rule.
"""

from __future__ import annotations

import time

from engine.rules.view import GameView
from solver.bidding.auction import AuctionError, AuctionEvaluator
from solver.bidding.contest import ContestBid, contest_bid
from solver.decisions.baseline import BaselineRules, blocks, completes
from solver.decisions.caches import DecisionCaches
from solver.decisions.choice import AgentChoice
from solver.decisions.keys import digest, state_sig
from solver.decisions.memory import AgentMemory
from solver.decisions.reserves import reserve_kw, reserve_of
from solver.decisions.settings import AgentSettings

AUCTION_SEED_BASE = 1 << 20
"""The auction evaluations' seeds start here (their own counter: the trade searches' seeds do not
depend on the auction option)."""


def _important(view: GameView, me: int, square: int) -> bool:
    return completes(view, me, square) or blocks(view, me, square)


def buy_rule(view: GameView, me: int, square: int, rules: BaselineRules) -> bool:
    """The baseline's purchase rule (module docstring).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The buyer.
    square : int
        The lot.
    rules : BaselineRules
        ``reserve``, ``critical_reserve``.

    Returns
    -------
    bool
        Whether to buy it at its price.

    Examples
    --------
    Cy ($510) holds Park Place; Boardwalk ($400) and Pennsylvania Avenue ($320) are the bank's:

    >>> from models.io import load_state
    >>> view = load_state("instances/midgame-no-monopolies.json")
    >>> buy_rule(GameView(view, 2), 2, 39, BaselineRules()), buy_rule(GameView(view, 0), 0, 34, BaselineRules())
    (True, False)
    """
    price = view.board.squares[square].price
    cash = view.cash(me)
    if cash - price >= rules.reserve:
        return True
    return _important(view, me, square) and cash - price >= rules.critical_reserve


def bid_rule(view: GameView, me: int, square: int, rules: BaselineRules) -> int:
    """The baseline's static bid (module docstring).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The bidder.
    square : int
        The lot.
    rules : BaselineRules
        ``premium``, ``reserve``, ``critical_reserve``.

    Returns
    -------
    int
        The highest bid, in dollars (0 or more).

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/midgame-no-monopolies.json")
    >>> bid_rule(GameView(s, 2), 2, 39, BaselineRules()), bid_rule(GameView(s, 0), 0, 34, BaselineRules())  # min(600, 510 - 50); min(320, 420 - 150)
    (460, 270)
    """
    price = view.board.squares[square].price
    important = _important(view, me, square)
    value = price * (1 + rules.premium) if important else price
    keep = rules.critical_reserve if important else rules.reserve
    return max(0, int(min(value, view.cash(me) - keep)))


def contest(view: GameView, me: int, square: int, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> ContestBid:
    """The bidding-game bid for ``square`` in this state (cached by the state and the lot).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The bidder.
    square : int
        The lot.
    settings : AgentSettings
        ``bid_risk``, ``reserve_turns``.
    memory : AgentMemory
        The ruin reserves kept.
    caches : DecisionCaches
        The caches (and the CPU time spent, ``auction_seconds``).

    Returns
    -------
    ContestBid

    Examples
    --------
    >>> from models.io import load_state
    >>> caches = DecisionCaches()
    >>> c = contest(GameView(load_state("instances/midgame-no-monopolies.json"), 2), 2, 39, AgentSettings(), AgentMemory(), caches)
    >>> c.max_bid, caches.entries("contest") == [c]
    (447, True)
    """
    state = view.copy()

    def compute() -> ContestBid:
        t0 = time.process_time()
        kw = reserve_kw(state, settings, caches)
        bid = contest_bid(
            state, me, square, chain=kw["chain"], reserve_fn=lambda s, q: reserve_of(s, q, settings, memory, caches),
            relative_risk=settings.bid_risk == "relative" and settings.reserve_turns > 0, epsilon=kw["epsilon"],
            bucket=kw["bucket"], turns=kw["turns"], max_cash=kw["max_cash"],
        )
        caches.auction_seconds += time.process_time() - t0
        return bid

    return caches.get("contest", (square, me, digest("state", *state_sig(state))), compute)


def evaluator(view: GameView, me: int, square: int, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> AuctionEvaluator:
    """The simulated auction evaluation of ``square`` in this state (``auction="simulate"``): one
    per state and lot, seeded from the memory's own counter (a new state and lot draws the next
    seed; the same ones reuse it). The prices it probed are memory (a bid's bisection starts from
    a purchase decision's probe): an evaluation built afresh probes them again first
    (:func:`remember_probes` records them after each answer).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The bidder.
    square : int
        The lot.
    settings : AgentSettings
        ``auction_rollouts``, ``auction_horizon``.
    memory : AgentMemory
        The seeds (:attr:`AgentMemory.auction_seeds`, :attr:`AgentMemory.auction`).
    caches : DecisionCaches
        The caches.

    Returns
    -------
    AuctionEvaluator

    Examples
    --------
    >>> from models.io import load_state
    >>> view, memory = GameView(load_state("instances/midgame-no-monopolies.json"), 2), AgentMemory()
    >>> ev = evaluator(view, 2, 39, AgentSettings(auction_rollouts=20), memory, DecisionCaches())
    >>> ev.seed, memory.auction_seeds, ev is evaluator(view, 2, 39, AgentSettings(auction_rollouts=20), memory, DecisionCaches())
    (1048577, 1, False)
    """
    state = view.copy()
    key = digest("auction", square, *state_sig(state))
    if memory.auction is None or memory.auction[0] != key:
        memory.auction_seeds += 1
        memory.auction = (key, AUCTION_SEED_BASE + memory.auction_seeds, ())
    _, seed, probed = memory.auction
    ev = caches.get(
        "auction", (key, me, seed),
        lambda: AuctionEvaluator(state, me, square, rollouts=settings.auction_rollouts, horizon=settings.auction_horizon, seed=seed),
    )
    for price in probed:  # an evaluation built afresh: the probes the agent's had made
        ev.probe(price)
    return ev


def remember_probes(ev: AuctionEvaluator, memory: AgentMemory) -> None:
    """Record the prices ``ev`` probed in the memory's last auction evaluation.

    Parameters
    ----------
    ev : AuctionEvaluator
        The evaluation just used.
    memory : AgentMemory
        The memory (its :attr:`AgentMemory.auction` is ``ev``'s).

    Examples
    --------
    >>> from models.io import load_state
    >>> view, memory = GameView(load_state("instances/midgame-no-monopolies.json"), 2), AgentMemory()
    >>> ev = evaluator(view, 2, 39, AgentSettings(auction_rollouts=20, auction_horizon=5), memory, DecisionCaches())
    >>> _ = ev.probe(300); remember_probes(ev, memory); memory.auction[2]
    (300,)
    """
    assert memory.auction is not None
    memory.auction = (memory.auction[0], memory.auction[1], tuple(ev.probed()))


def buy_choice(view: GameView, me: int, square: int, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> AgentChoice:
    """The agent's purchase decision (module docstring), with its reason.

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The buyer.
    square : int
        The lot it stands on.
    settings : AgentSettings
        ``auction``, ``auction_sure_buy`` and the bid's settings.
    memory : AgentMemory
        Its memory (reserves, auction seeds).
    caches : DecisionCaches
        The caches.

    Returns
    -------
    AgentChoice
        ``question`` ``buy``; ``answer`` a ``bool``; ``action`` ``buy`` or ``decline``.

    Examples
    --------
    Boardwalk completes Cy's dark blues:

    >>> from models.io import load_state
    >>> c = buy_choice(GameView(load_state("instances/midgame-no-monopolies.json"), 2), 2, 39, AgentSettings(), AgentMemory(), DecisionCaches())
    >>> c.answer, c.reason
    (True, 'the bidding game bids up to $447 for Boardwalk, at or above its $400 list price: buy')
    """
    lot = view.board.squares[square].name
    price = view.board.squares[square].price

    def rule(why: str) -> AgentChoice:
        yes = buy_rule(view, me, square, settings.baseline)
        words = "buy" if yes else "decline"
        return AgentChoice("buy", yes, words, f"rule of thumb{why}: {words} {lot} (cash after the ${price} price against the reserves)", "rule")

    if settings.auction == "price":
        return rule("")
    if not view.rules.auctions and settings.no_auction_buy == "rule":
        return rule(" (no auctions: a lot declined stays with the bank)")
    cash = view.cash(me)
    if cash - price >= settings.auction_sure_buy:
        why = f"${cash - price} stays after the ${price} price (>= ${settings.auction_sure_buy}): buy {lot}"
        return AgentChoice("buy", True, "buy", why, "rule")
    try:
        if settings.auction == "game":
            bid = contest(view, me, square, settings, memory, caches)
            yes = bid.buy_at_list
            rel = "at or above" if yes else "below"
            why = f"the bidding game bids up to ${bid.max_bid} for {lot}, {rel} its ${price} list price: {'buy' if yes else 'decline'}"
            return AgentChoice("buy", yes, "buy" if yes else "decline", why, "model", {"max_bid": bid.max_bid})
        ev = evaluator(view, me, square, settings, memory, caches)
        try:
            yes = ev.prefers_winning_at(price)
        finally:
            remember_probes(ev, memory)
        why = f"winning {lot} at ${price} {'beats' if yes else 'does not beat'} the strongest rival winning it at that price (simulated): {'buy' if yes else 'decline'}"
        return AgentChoice("buy", yes, "buy" if yes else "decline", why, "simulation")
    except (AuctionError, ValueError):  # a state the solver refuses: the baseline's rule
        return rule(" (the solver refuses this state)")


def bid_choice(view: GameView, me: int, square: int, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> AgentChoice:
    """The agent's maximum bid in an auction (module docstring), with its reason.

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The bidder.
    square : int
        The lot auctioned.
    settings : AgentSettings
        ``auction`` and the bid's settings.
    memory : AgentMemory
        Its memory.
    caches : DecisionCaches
        The caches.

    Returns
    -------
    AgentChoice
        ``question`` ``auction``; ``answer`` the bid in dollars; ``action`` ``bid`` or ``pass``.

    Examples
    --------
    >>> from models.io import load_state
    >>> bid_choice(GameView(load_state("instances/midgame-no-monopolies.json"), 2), 2, 39, AgentSettings(), AgentMemory(), DecisionCaches()).answer
    447
    """
    lot = view.board.squares[square].name

    def made(bid: int, why: str, method: str) -> AgentChoice:
        return AgentChoice("auction", bid, "bid" if bid > 0 else "pass", why, method)

    def rule(why: str) -> AgentChoice:
        bid = bid_rule(view, me, square, settings.baseline)
        return made(bid, f"rule of thumb{why}: bid up to ${bid} for {lot} (its price, more for a lot that completes or blocks a group, within the reserves)", "rule")

    if settings.auction == "price":
        return rule("")
    try:
        if settings.auction == "game":
            c = contest(view, me, square, settings, memory, caches)
            why = (
                f"the bidding game of the race for {c.group}: bid up to ${c.max_bid} for {lot} (game bid ${c.game_bid}, "
                f"liquidity cap ${c.liquidity_cap}, risk cap ${c.risk_cap}, against {c.rival or 'no rival'})"
            )
            return made(c.max_bid, why, "model")
        ev = evaluator(view, me, square, settings, memory, caches)
        try:
            b = ev.bid(reserve_fn=lambda owned: reserve_of(owned, me, settings, memory, caches), search_to_caps=True, resolution=10)
        finally:
            remember_probes(ev, memory)
        why = f"the simulated indifference price against {b.rival or 'no rival'}: bid up to ${b.max_bid} for {lot}"
        return made(b.max_bid, why, "simulation")
    except (AuctionError, ValueError):  # a state the solver refuses: the baseline's rule
        return rule(" (the solver refuses this state)")


__all__ = ["AUCTION_SEED_BASE", "bid_choice", "bid_rule", "buy_choice", "buy_rule", "contest", "evaluator", "remember_probes"]
