"""An auction as a step of a bidding game: the race for a colour group, priced by Poorman costs.

When a lot goes to auction, what is really contested is the *group* it
belongs to: whoever collects every lot of a colour group can build, and the
lots still with the bank will be sold one by one, each at its own auction (or
bought at list price, which is an auction the lander declines to open). This
module writes that race as a bidding game on a directed graph (Lazarus, Loeb,
Propp and Ullman; seed 003) and turns the game's bid into dollars.

The graph
---------
*Contested lots.* The lots of the auctioned lot's group (a colour group, the
railroads or the utilities) that the bank still holds: the auctioned lot
first, then the others in board order, at most :data:`MAX_CONTESTED` of them
(a larger group, possible on a custom board, keeps the first ones; the rest
stay with the bank in every configuration). Lots already owned keep their
owners.

*The two sides.* The player (Blue) and one rival (Red): the *strongest rival
for the group* (:func:`strongest_rival`). Among the opponents who can still
complete the group by buying (no lot of it held by anyone else), the one
holding most of its lots; ties, and groups nobody else can complete, go to
the opponent whose own win probability rises most, under the calibrated win
model (:mod:`engine.sim.win_model`, the evaluation the rollouts score their
horizon with), when it gets the auctioned lot for nothing; then to the lower
seat. This is the multi-player reduction (one rival, not a generalisation to
three sides): the player nearest to completing is the one the race is
against, and the one most willing to bid. (The win model alone is not used
first: early in a game it prefers whoever has no income yet, since one lot
moves that player's income share most.) Bystanders keep their holdings and
money in every configuration.

*Vertices and arcs.* A vertex is the list of owners (Blue or Red) of the
first ``t`` contested lots, ``t = 0 .. u``; the empty list is the root (the
current auction). Each vertex with ``t < u`` is one bidding step, the sale of
lot ``t + 1``; its two successors give that lot to Blue or to Red, and the
winner of the bid moves the token to its own successor. The graph is a
binary tree of ``2^(u+1) - 1`` vertices, acyclic, so every cost is found by
one backward pass (:func:`tree_costs`). That the lots are sold in a fixed
order, each at an auction between exactly these two sides, is the model's
main simplification: in play the dice choose the order and a lander may buy
at list price.

*Terminals and their values.* The ``2^u`` full assignments. Each is valued
by the win model: Blue's win probability ``w(c)`` in the state where the
contested lots are owned as in ``c`` (unmortgaged, no buildings, money
unchanged). With ``w+`` and ``w-`` the best and worst terminal for Blue, a
terminal's cost is ``(w+ - w(c)) / (w+ - w-)``: 0 for Blue's best (usually
Blue completing the group), 1 for its worst (usually the rival completing),
and a value in between for a *blocked* group (both sides hold a lot) that
the evaluation, not an arbitrary side, places. A terminal of cost ``c`` is
read as a threshold: Blue counts it a win when its share of the money left
in play exceeds ``c``. This is exact at the two ends (Blue's best is a win at
any share, its worst a loss) and is the one reading under which the Poorman
recursion below holds unchanged for intermediate terminals, since its
derivation uses only the successors' thresholds. The costs are Blue's:
Red is taken to want the opposite, exact with two players and an
approximation when bystanders share the probability.

Costs and bids
--------------
Backward from the terminals, with ``X+`` and ``X-`` the larger and smaller
cost of the two successors (:mod:`solver.bidding.graph` for the conventions):

* Poorman (the winner pays the bank, as in a Monopoly auction)::

      P(v) = P+ / (1 + P+ - P-),     beta(v) = (P+ - P-) / (1 + P+ - P-)

  ``beta`` is the optimal bid as a share of the money in play.
* Richman (the winner pays the loser: the transfer variant, e.g. a lot sold
  to whichever of two players pays the other more)::

      R(v) = (R+ + R-) / 2,          rho(v) = (R+ - R-) / 2

  ``rho`` is the bid as a share of the two sides' total money, the seed's
  "fair price" ``R(v) - R(u)`` with ``u`` the cheaper successor. ``1 - R(v)``
  is also Blue's expected normalised payoff when every later bid is won by a
  fair coin (the random-turn reading).

Dollars
-------
*Money in play*: the two sides' cash. The engine caps every bid at the
bidder's cash (:mod:`engine.rules.game`: a second-price auction on sealed maxima),
so cash is the money either side can put into a bid; what it could raise by
mortgaging is not in play during an auction. (The issue that asked for this
module proposed spendable cash, cash plus mortgage values minus the ruin
reserve; measured against the simulated indifference price on 200
situations from games, that reading ranks the prices worse, Spearman 0.30
against 0.42, and the reserve is applied by the risk cap anyway.) The *game
bid* is ``beta(root) x money in play``, rounded down to a dollar; the Richman
bid ``rho(root) x money in play`` is reported beside it.

*Outbid cap.* The game's bid is the one a player *at its threshold* must
make; a player far above it need only beat what the others can pay. Since
bids are capped at cash, no maximum above the largest cash among the active
opponents, plus the $1 step, can ever be needed: the outbid cap is that
amount ($1 when every opponent has $0).

*Maximum bid* ``= max(0, min(game bid, outbid cap, liquidity cap, risk
cap))`` with the liquidity cap (cash plus mortgage values) and the risk cap
(cash minus the ruin reserve after buying,
:func:`solver.analysis.reserve.cash_reserve`, or what the caller supplies)
of :mod:`solver.bidding.auction`. With ``relative_risk`` the reserve is at
most :func:`solver.analysis.reserve.relative_reserve`: when the rival's
purchase would itself leave the player's ruin probability above epsilon
(a set completed against it), the player may spend down to that
probability, since holding the cash would not keep it safer. *Buy at list price* when the list price is
at most ``min(game bid, liquidity cap)`` (the risk cap is left to the
caller, as in the simulated policy; the outbid cap does not apply, since
declining opens an auction that every opponent may enter).

No dollar value of the lot caps the bid. The game is scale-free (it bids the
same share of the money for Mediterranean Avenue as for Boardwalk), which
looks wrong; but the simulated indifference price is nearly scale-free too
(Spearman -0.03 with the list price on the same 200 situations, median
``p*`` a quarter of the bidder's cash), and a cap from static rent streams
(:class:`solver.analysis.static_value.StaticValuation`, 20 rounds) lowered the rank
agreement with the simulation from 0.42 to 0.14 in every variant tried
(later lots by coin or by landing, the rival's value counted in full, a half
or a third, 20 or 40 rounds); so did scaling the terminal costs by a floor
on the stake (a swing in win probability below the floor is not decisive),
to 0.37-0.09 for floors of 0.02-0.30. ``bench/auction_validation.py``
reports the agreement.

References
----------
A. J. Lazarus, D. E. Loeb, J. G. Propp and D. Ullman, "Richman games", in
*Games of No Chance*, MSRI Publications 29, 1996 (seed 003: the averaging
property, the fair price ``R(v) - R(u)``, the random-turn reading).

A. J. Lazarus, D. E. Loeb, J. G. Propp, W. R. Stromquist and D. H. Ullman,
"Combinatorial games under auction play", *Games and Economic Behavior* 27
(1999) (Poorman costs and bids).

M. Develin and S. Payne, "Discrete bidding games", *Electronic Journal of
Combinatorics* 17 (2010), R85 (bidding with whole-dollar bids and tie
rules: the continuous costs used here are their limit as the money grows,
which the brute-force test of this module checks on a small game).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.chains.markov import PositionChain, chain_for
from engine.sim.win_model import (
    WinModel,
    default_model,
    features_from_arrays,
    state_arrays,
    tables_for,
    win_probabilities,
)
from models.errors import InvalidArgumentError
from models.state import BANK, GameState
from solver.analysis.reserve import cash_reserve, relative_reserve
from solver.bidding.auction import liquidity_cap, resolve_lot

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["MAX_CONTESTED", "ContestBid", "contest_bid", "contest_graph", "race_costs", "strongest_rival", "tree_costs"]

MAX_CONTESTED = 6
"""Contested lots modelled at most (the tree has ``2^(u+1) - 1`` vertices)."""

Vertex = tuple[str, ...]
"""Owners ("B" or "R") of the first contested lots, in step order."""


def contest_graph(u: int) -> nx.DiGraph:
    """The race for ``u`` lots: a binary tree of owner lists, root ``()``, arcs ``v -> v + (side,)``.

    Parameters
    ----------
    u : int
        Contested lots, 0..:data:`MAX_CONTESTED`.

    Returns
    -------
    networkx.DiGraph
        ``2^(u+1) - 1`` vertices.

    Raises
    ------
    InvalidArgumentError
        ``u`` out of range.

    Examples
    --------
    >>> g = contest_graph(2)
    >>> g.number_of_nodes(), sorted(g.successors(()))
    (7, [('B',), ('R',)])
    """
    import networkx as nx  # on demand: 0.17 s, and only an auction's advice needs it

    if not 0 <= u <= MAX_CONTESTED:
        raise InvalidArgumentError(f"contested lots must be in 0..{MAX_CONTESTED}, got {u}")
    g = nx.DiGraph()
    g.add_node(())
    frontier: list[Vertex] = [()]
    for _ in range(u):
        nxt = []
        for v in frontier:
            for side in ("B", "R"):
                w = (*v, side)
                g.add_edge(v, w)
                nxt.append(w)
        frontier = nxt
    return g


def tree_costs(graph: nx.DiGraph, terminal: dict[Any, float]) -> tuple[dict[Any, float], dict[Any, float]]:
    """Poorman and Richman costs of every vertex of an acyclic game, backward from ``terminal``.

    ``terminal`` gives the cost (in [0, 1]) of every vertex without
    successors; the recursions are those of the module docstring (both
    players may use every arc, so only the extreme successors matter).

    Parameters
    ----------
    graph : networkx.DiGraph
        An acyclic game.
    terminal : dict
        The cost of every vertex without successors.

    Returns
    -------
    (poorman, richman) : tuple of dict
        Each vertex's cost under both bidding rules.

    Raises
    ------
    InvalidArgumentError
        The graph has a cycle, or a terminal cost is missing or outside [0, 1].

    Examples
    --------
    Two lots, each one's outcome worth half: Richman averages the extremes (``("B",)``:
    ``(0 + 0.5) / 2``), Poorman takes ``hi / (1 + hi - lo)`` (by hand):

    >>> terminal = {("B", "B"): 0.0, ("B", "R"): 0.5, ("R", "B"): 0.5, ("R", "R"): 1.0}
    >>> poor, rich = tree_costs(contest_graph(2), terminal)
    >>> round(poor[("B",)], 4), rich[("B",)], rich[()]
    (0.3333, 0.25, 0.5)
    """
    import networkx as nx

    if not nx.is_directed_acyclic_graph(graph):
        raise InvalidArgumentError("tree_costs needs an acyclic graph")
    poor: dict[Any, float] = {}
    rich: dict[Any, float] = {}
    for v in reversed(list(nx.topological_sort(graph))):
        succ = list(graph.successors(v))
        if not succ:
            poor[v] = rich[v] = _terminal_cost(terminal, v)
            continue
        _step(poor, rich, v, succ)
    return poor, rich


def _terminal_cost(terminal: dict[Any, float], v: Any) -> float:
    """The cost of a vertex without successors, checked to be given and in [0, 1]."""
    if v not in terminal:
        raise InvalidArgumentError(f"vertex {v!r} has no successors and no terminal cost")
    c = float(terminal[v])
    if not 0.0 <= c <= 1.0:
        raise InvalidArgumentError(f"terminal cost of {v!r} must be in [0, 1], got {c}")
    return c


def _step(poor: dict[Any, float], rich: dict[Any, float], v: Any, succ: Sequence[Any]) -> None:
    """One vertex of both recursions, from its successors' costs (module docstring)."""
    hi, lo = max(poor[w] for w in succ), min(poor[w] for w in succ)
    poor[v] = hi / (1.0 + hi - lo)
    rhi, rlo = max(rich[w] for w in succ), min(rich[w] for w in succ)
    rich[v] = (rhi + rlo) / 2.0


def race_costs(u: int, terminal: dict[Vertex, float]) -> tuple[dict[Vertex, float], dict[Vertex, float]]:
    """:func:`tree_costs` on :func:`contest_graph` ``(u)`` without building the graph: the same
    recursions over the implicit binary tree, vertex by vertex from the leaves (the same
    floating-point operations, so the same numbers). :func:`contest_bid` uses it, so that an
    auction's advice does not import networkx (0.2 s of a fresh ``solve``); the test suite
    checks it against :func:`tree_costs`.

    Parameters
    ----------
    u : int
        Contested lots, 0..:data:`MAX_CONTESTED`.
    terminal : dict of Vertex to float
        The cost of every leaf (``2^u`` owner lists).

    Returns
    -------
    (poorman, richman) : tuple of dict
        Each vertex's cost under both bidding rules.

    Raises
    ------
    InvalidArgumentError
        ``u`` out of range (or a leaf's cost missing or outside [0, 1]).

    Examples
    --------
    >>> terminal = {("B", "B"): 0.0, ("B", "R"): 0.5, ("R", "B"): 0.5, ("R", "R"): 1.0}
    >>> race_costs(2, terminal) == tree_costs(contest_graph(2), terminal)
    True
    """
    if not 0 <= u <= MAX_CONTESTED:
        raise InvalidArgumentError(f"contested lots must be in 0..{MAX_CONTESTED}, got {u}")
    poor: dict[Vertex, float] = {}
    rich: dict[Vertex, float] = {}
    for v in product("BR", repeat=u):
        poor[v] = rich[v] = _terminal_cost(terminal, v)
    for depth in range(u - 1, -1, -1):
        for v in product("BR", repeat=depth):
            _step(poor, rich, v, ((*v, "B"), (*v, "R")))
    return poor, rich


def _poorman_fraction(hi: float, lo: float) -> float:
    return (hi - lo) / (1.0 + hi - lo)


@dataclass(frozen=True)
class ContestBid:
    """The bidding-game bid for one lot, with every component (module docstring).

    Attributes
    ----------
    player, property, group : str
        The bidder, the lot and its group.
    square, list_price : int
        The lot and its printed price.
    rival : str or None
        Red, the strongest rival.
    rival_gain : float
        The rival's win-model gain from getting the lot for nothing.
    lots : tuple of str
        The contested lots in step order (the auctioned lot first).
    terminal_win, terminal_cost : dict of str to float
        Blue's win-model probability, and its cost, at each terminal (key: owners in step
        order, e.g. ``"BR"``).
    money : tuple of (int, int)
        Blue's and Red's cash: what each can bid.
    poorman_cost, poorman_fraction, richman_cost, richman_fraction : float
        The root's costs and bid fractions under both rules.
    money_in_play : int
        Both players' cash.
    game_bid, richman_bid : int
        The fractions of the money in play, in dollars.
    outbid_cap, liquidity_cap, risk_cap : int
        One dollar above the richest opponent's cash; cash plus mortgages; cash above the reserve.
    reserve : int
        The reserve behind the risk cap.
    max_bid : int
        The least of the game's bid and the caps.
    buy_at_list : bool
        Whether ``max_bid`` reaches the list price.
    vertices, terminals : int
        The race's size.

    Examples
    --------
    ``monopoly-trade auction instances/midgame-no-monopolies.json --property Boardwalk``:

    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> bid = contest_bid(state, "Cy", "Boardwalk")
    >>> bid.rival, bid.lots, bid.poorman_fraction, bid.money_in_play, bid.max_bid, bid.outbid_cap
    ('Bob', ('Boardwalk',), 0.5, 895, 447, 466)
    """

    player: str
    property: str
    square: int
    list_price: int
    group: str
    rival: str | None
    rival_gain: float
    """The rival's win-model gain from getting the lot for nothing."""
    lots: tuple[str, ...]
    """Contested lots in step order (the auctioned lot first)."""
    vertices: int
    terminals: int
    terminal_win: dict[str, float]
    """Blue's win-model probability at each terminal (key: owners in step order, e.g. ``"BR"``)."""
    terminal_cost: dict[str, float]
    poorman_cost: float
    poorman_fraction: float
    richman_cost: float
    richman_fraction: float
    money: tuple[int, int]
    """Blue's and Red's cash: what each can bid."""
    money_in_play: int
    game_bid: int
    richman_bid: int
    outbid_cap: int
    liquidity_cap: int
    risk_cap: int
    reserve: int
    max_bid: int
    buy_at_list: bool

    def to_dict(self) -> dict[str, Any]:
        """The bid as ``auction --json`` writes it (``"method": "bidding-game"``).

        Returns
        -------
        dict
            Every field, tuples as lists.
        """
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["lots"] = list(self.lots)
        out["money"] = list(self.money)
        out["method"] = "bidding-game"
        return out


def _win_batch(state: GameState, model: WinModel, owners: np.ndarray) -> np.ndarray:
    """Win-model probabilities ``(len(owners), players)`` for the state with each row of ``owners``."""
    cash, _, houses, mortgaged, bankrupt = state_arrays(state)
    n = len(owners)
    f = features_from_arrays(
        tables_for(state.board, state.rules),
        np.repeat(cash, n, 0),
        owners,
        np.repeat(houses, n, 0),
        np.repeat(mortgaged, n, 0),
        np.repeat(bankrupt, n, 0),
    )
    return win_probabilities(model.weights, f, np.repeat(bankrupt, n, 0))


def strongest_rival(state: GameState, player: int, square: int, model: WinModel | None = None) -> tuple[int | None, float]:
    """The strongest rival for ``square``'s group, and its win-model gain from getting ``square`` free.

    Among the active opponents who can still complete the group (every lot of
    it they do not hold is with the bank), the one holding most of its lots;
    ties, and the case where no opponent can complete, go to the largest gain
    in its own win-model probability from the lot, then to the lower seat.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The bidder's seat.
    square : int
        The lot.
    model : WinModel or None
        The win model (default: the shipped one).

    Returns
    -------
    tuple of (int or None, float)
        The rival's seat (``None`` without opponents) and its gain.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> rival, gain = strongest_rival(state, 2, 39)
    >>> state.players[rival].name, round(gain, 3)
    ('Bob', 0.034)
    """
    model = model or default_model()
    opponents = [q for q in state.active_players() if q != player]
    if not opponents:
        return None, 0.0
    rows = np.repeat(np.array([state.owner], np.int64), len(opponents) + 1, 0)
    for i, q in enumerate(opponents):
        rows[i + 1, square] = q
    p = _win_batch(state, model, rows)
    gains = [float(p[i + 1, q] - p[0, q]) for i, q in enumerate(opponents)]
    group = state.board.squares[square].group
    assert group is not None
    lots = state.board.groups[group]

    def held(q: int) -> int:
        if any(state.owner[s] not in (q, BANK) for s in lots):
            return -1  # cannot complete by buying
        return sum(state.owner[s] == q for s in lots)

    best = max(range(len(opponents)), key=lambda i: (held(opponents[i]), gains[i], -i))
    return opponents[best], gains[best]


def contest_bid(
    state: GameState,
    player: int | str,
    square: int | str,
    *,
    rival: int | None = None,
    epsilon: float = 0.05,
    bucket: int = 50,
    chain: PositionChain | None = None,
    reserve_fn: Callable[[GameState, int], int] | None = None,
    model: WinModel | None = None,
    relative_risk: bool = False,
    turns: int = 20,
    max_cash: int = 2000,
) -> ContestBid:
    """The bidding-game maximum bid of ``player`` for the unowned lot ``square`` (index or name).

    Parameters
    ----------
    state : GameState
        The position.
    player : int or str
        The bidder.
    square : int or str
        The lot, by square or name.
    rival : int, optional
        Red; default :func:`strongest_rival`.
    epsilon, bucket, chain
        Passed to :func:`solver.analysis.reserve.cash_reserve` (20 turns) for
        the reserve behind the risk cap, unless ``reserve_fn(state, player)``
        is given (called once, on the state where the player owns the lot).
    reserve_fn : callable or None
        ``(state, player) -> reserve``, in place of the reserve call.
    model
        The win model (default: the shipped one).
    relative_risk, turns, max_cash
        With ``relative_risk`` the reserve is at most
        :func:`solver.analysis.reserve.relative_reserve` (``epsilon``, ``bucket``,
        ``turns``, ``max_cash``): the player may spend down to the ruin probability
        it would have if the rival took the lot, when that is above ``epsilon``.

    Returns
    -------
    ContestBid
        The bid with every component.

    Raises
    ------
    AuctionError
        Unknown player or property, a lot already owned, a bankrupt player.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> bid = contest_bid(state, "Cy", "Boardwalk")
    >>> bid.game_bid, bid.richman_bid, bid.liquidity_cap, bid.risk_cap, bid.buy_at_list
    (447, 447, 1115, 510, True)
    """
    player, square = resolve_lot(state, player, square)
    sq = state.board.squares[square]
    model = model or default_model()
    chain = chain or chain_for(state.board, state.rules)

    gain = 0.0
    if rival is None:
        rival, gain = strongest_rival(state, player, square, model)
    assert sq.group is not None
    others = [s for s in state.board.groups[sq.group] if s != square and state.owner[s] == BANK]
    lots = (square, *others)[:MAX_CONTESTED]
    u = len(lots)
    vertices = 2 ** (u + 1) - 1  # of contest_graph(u), which race_costs walks without building it
    terminals = ["".join(t) for t in product("BR", repeat=u)]

    owned = state.copy()
    owned.owner[square] = player
    owned.mortgaged[square] = False
    if reserve_fn is not None:
        reserve = int(reserve_fn(owned, player))
    else:
        reserve = cash_reserve(owned, player, epsilon=epsilon, bucket=bucket, chain=chain)
    if relative_risk and rival is not None and reserve > 0:
        lost = state.copy()
        lost.owner[square] = rival
        lost.mortgaged[square] = False
        relaxed = relative_reserve(owned, lost, player, epsilon=epsilon, turns=turns, bucket=bucket, max_cash=max_cash, chain=chain)
        reserve = min(reserve, relaxed)
    cash = state.players[player].cash
    liq = liquidity_cap(state, player)
    risk = cash - reserve
    outbid = 1 + max((state.players[q].cash for q in state.active_players() if q != player), default=-1)

    if rival is None:  # nobody to bid against: the lot is Blue's for $0 or the list price
        return ContestBid(
            state.players[player].name, sq.name, square, sq.price, sq.group, None, 0.0,
            tuple(state.board.squares[s].name for s in lots), vertices, len(terminals),
            {}, {}, 0.0, 0.0, 0.0, 0.0, (cash, 0), cash, 0, 0, outbid, liq, risk, reserve, 0, sq.price <= liq,
        )  # fmt: skip

    # Terminal values: the win model on every full assignment of the contested lots.
    base = np.array(state.owner, np.int64)
    rows = np.repeat(base[None, :], len(terminals), 0)
    for i, t in enumerate(terminals):
        for lot, side in zip(lots, t):
            rows[i, lot] = player if side == "B" else rival
    win = _win_batch(state, model, rows)[:, player]
    top, bottom = float(win.max()), float(win.min())
    spread = top - bottom
    cost = {t: ((top - float(w)) / spread if spread > 0 else 0.0) for t, w in zip(terminals, win)}
    poor, rich = race_costs(u, {tuple(t): c for t, c in cost.items()})
    pb, pr = poor[("B",)], poor[("R",)]
    rb, rr = rich[("B",)], rich[("R",)]
    beta = _poorman_fraction(max(pb, pr), min(pb, pr))
    rho = (max(rb, rr) - min(rb, rr)) / 2.0
    if pb > pr:  # Blue would rather the rival took the lot: the game does not bid
        beta = rho = 0.0

    money = (cash, state.players[rival].cash)
    in_play = money[0] + money[1]
    game_bid = int(beta * in_play)
    richman_bid = int(rho * in_play)

    max_bid = max(0, min(game_bid, outbid, liq, risk))
    return ContestBid(
        player=state.players[player].name,
        property=sq.name,
        square=square,
        list_price=sq.price,
        group=sq.group,
        rival=state.players[rival].name,
        rival_gain=gain,
        lots=tuple(state.board.squares[s].name for s in lots),
        vertices=vertices,
        terminals=len(terminals),
        terminal_win={t: float(w) for t, w in zip(terminals, win)},
        terminal_cost=cost,
        poorman_cost=poor[()],
        poorman_fraction=beta,
        richman_cost=rich[()],
        richman_fraction=rho,
        money=money,
        money_in_play=in_play,
        game_bid=game_bid,
        richman_bid=richman_bid,
        outbid_cap=outbid,
        liquidity_cap=liq,
        risk_cap=risk,
        reserve=reserve,
        max_bid=max_bid,
        buy_at_list=sq.price <= min(game_bid, liq),
    )
