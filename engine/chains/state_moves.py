"""The roll moves of the state-derived ruin chain: where each roll of the player takes it and
what it costs, given the state's rents, taxes and cards.

The model and every rule variant are stated in :mod:`engine.chains.state_risk`, which
builds its chain from :func:`turn_moves` (the moves of one turn, in four sets) and
:func:`roll_slots` (the rolls of a turn). The positions and probabilities of the moves
depend only on the board, the rules and the jail policy, and are memoised per
(board, rules, policy, held cards); their cash is computed per state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.chains import dice as dice_math
from engine.chains.markov import (
    ChainError,
    JailPolicy,
    card_outcome,
    card_steps,
    turn_shape,
)
from models.board import Card
from models.rules import Rules
from models.state import BANK, GameState


@dataclass(frozen=True)
class _Outcomes:
    """Per arrival square: outcome probabilities ``X`` and reward-weighted ``Z``
    over slots ``plain f`` (0..n-1), ``rr f`` (n..2n-1), ``ut f`` (2n..3n-1),
    ``jail`` (3n); ``mult`` is the mean card multiplier of rr/ut slots."""

    X: np.ndarray
    Z: np.ndarray
    mult: np.ndarray


def _card_cash(state: GameState, player: int, card: Card, at: int) -> float:
    s = state
    n = s.board.size
    others = len(s.active_players()) - 1
    if card.action == "cash":
        return float(card.amount)
    if card.action == "each_player":
        return float(card.amount * others)
    if card.action == "repairs":
        houses, hotels = s.building_counts(player)
        return -float(houses * card.house + hotels * card.hotel)
    steps = card_steps(card, s.board, at)
    if steps is not None and steps > 0 and at + steps >= n:
        twice = s.rules.go_landing_bonus and (at + steps) % n == 0  # a move ending on Go
        return float(s.rules.go_salary) * (2 if twice else 1)
    return 0.0


def held_cards(state: GameState) -> dict[str, frozenset[int]]:
    """The deck indices of the Get Out of Jail Free cards the state's players hold, per deck.

    The state says how many each player holds, not from which deck: they are taken as
    :class:`engine.rules.game.Game` takes them when it loads a state, from the decks in order
    (Chance's jail cards first, then Community Chest's).

    Parameters
    ----------
    state : GameState
        The position.

    Returns
    -------
    dict of str to frozenset of int
        Per deck (``chance``, ``community_chest``), the indices of the cards out of it.

    Examples
    --------
    >>> from models.io import load_state
    >>> near = load_state("instances/near-ruin.json")
    >>> near.players[3].jail_cards, held_cards(near)  # Dee's card: Chance's, index 8
    (1, {'chance': frozenset({8}), 'community_chest': frozenset()})
    """
    board = state.board
    pool = [(name, i) for name in ("chance", "community_chest") for i, c in enumerate(board.deck(name)) if c.action == "jail_free"]
    count = sum(p.jail_cards for p in state.players)
    out: dict[str, set[int]] = {"chance": set(), "community_chest": set()}
    for name, i in pool[:count]:
        out[name].add(i)
    return {k: frozenset(v) for k, v in out.items()}


def _draw_pile(state: GameState, kind: str) -> tuple[Card, ...]:
    """The cards a draw from deck ``kind`` chooses among, uniformly: the whole deck, or under
    ``card_draw="replacement"`` the cards no player holds (as the engine draws them)."""
    deck = state.board.deck(kind)
    if state.rules.card_draw != "replacement":
        return deck
    held = held_cards(state)[kind]
    return tuple(c for i, c in enumerate(deck) if i not in held) or deck


def _outcomes(state: GameState, player: int) -> _Outcomes:
    board = state.board
    n = board.size
    width = 3 * n + 1
    q = np.zeros((n, n))
    b = np.zeros((n, width))
    mult_w = np.zeros((n, width))
    rewards: list[tuple[int, float, str, int, float]] = []  # (a, w*rho, kind, target, mult)
    for sq in board.squares:
        a = sq.index
        if sq.kind == "go_to_jail":
            b[a, 3 * n] = 1.0
        elif sq.kind in ("chance", "community_chest"):
            deck = _draw_pile(state, sq.kind)
            w = 1.0 / len(deck)
            for card in deck:
                kind, target, mult = card_outcome(card, board, a)
                rho = _card_cash(state, player, card, a)
                rewards.append((a, w * rho, kind, target, mult))
                if kind == "arrive":
                    q[a, target] += w
                elif kind == "final":
                    b[a, target] += w
                elif kind == "rr":
                    b[a, n + target] += w
                    mult_w[a, n + target] += w * mult
                elif kind == "ut":
                    b[a, 2 * n + target] += w
                    mult_w[a, 2 * n + target] += w * mult
                else:
                    b[a, 3 * n] += w
        else:
            b[a, a] = 1.0
    inv = np.linalg.solve(np.eye(n) - q, np.eye(n))
    x = inv @ b
    mw = inv @ mult_w
    r = np.zeros((n, width))
    for a, wr, kind, target, _mult in rewards:
        if wr == 0.0:
            continue
        if kind == "arrive":
            r[a] += wr * x[target]
        elif kind == "final":
            r[a, target] += wr
        elif kind == "rr":
            r[a, n + target] += wr
        elif kind == "ut":
            r[a, 2 * n + target] += wr
        else:
            r[a, 3 * n] += wr
    z = inv @ r
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_mult = np.where(x > 0, mw / np.where(x > 0, x, 1.0), 0.0)
    return _Outcomes(x, z, mean_mult)


def rent_vectors(state: GameState, player: int) -> tuple[np.ndarray, np.ndarray]:
    """(fixed payment on landing per square, utility multiplier per square).

    Fixed payment = street/railroad rent owed + tax; utilities pay ``mult * total``.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat who pays.

    Returns
    -------
    tuple of numpy.ndarray
        Per square: what landing there costs ``player``, and the dice multiplier of a utility
        another player owns (0 elsewhere).

    Examples
    --------
    >>> from models.io import load_state
    >>> fixed, mult = rent_vectors(load_state("instances/late-game-house-shortage.json"), 0)
    >>> float(fixed[24]), float(fixed[4]), float(mult[28])  # Bob's hotel, Income Tax, Water Works
    (925.0, 200.0, 4.0)
    """
    board = state.board
    n = board.size
    fixed = np.zeros(n)
    util = np.zeros(n)
    for sq in board.squares:
        i = sq.index
        if sq.kind == "tax":
            fixed[i] = sq.amount
            continue
        if not sq.is_property:
            continue
        owner = state.owner[i]
        if owner in (BANK, player) or state.mortgaged[i]:
            continue
        if sq.kind == "street":
            assert sq.group is not None
            level = state.houses[i]
            fixed[i] = sq.rents[level] if level else sq.rents[0] * (2 if state.has_monopoly(owner, sq.group) else 1)
        elif sq.kind == "railroad":
            fixed[i] = board.railroad_rents[state.count_in_group(owner, "railroad") - 1]
        else:
            util[i] = board.utility_multipliers[state.count_in_group(owner, "utility") - 1]
    return fixed, util


Moves = dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class _MoveTable:
    """The moves of :func:`_moves` without their cash: per set ``(src, dst, prob, pre, salary,
    rows, t)``, where ``rows`` indexes the outcome slots (-1: a move with no roll, no cash) and
    ``t`` is the dice total; and per outcome slot its square, kind (0 plain, 1 rr, 2 ut, 3
    jail), card cash and card multiplier. Rents enter only through :func:`rent_vectors`, so a
    change of holdings reuses the table (memoised by :func:`_move_table`)."""

    sets: dict[str, tuple[np.ndarray, ...]]
    sq: np.ndarray
    kind: np.ndarray
    card: np.ndarray
    mult: np.ndarray
    n_pos: int


_TABLE_CACHE: dict[tuple[object, ...], tuple[object, _MoveTable]] = {}
_TABLE_CACHE_SIZE = 256


def _move_table(state: GameState, player: int, jail: JailPolicy) -> _MoveTable:
    """The :class:`_MoveTable` of ``state`` for ``player`` and ``jail``, memoised: it depends
    only on the board, the rules, the cards held (draws with replacement), the player's
    houses and hotels (repairs), the number of active players (cards paid per player) and
    ``jail``, so most of a game's ruin chains reuse one. Its arrays are shared: read only."""
    houses, hotels = state.building_counts(player)
    held = tuple(sorted(held_cards(state).items())) if state.rules.card_draw == "replacement" else None
    key = (id(state.board), state.rules, held, houses, hotels, len(state.active_players()), jail)
    hit = _TABLE_CACHE.get(key)
    if hit is not None and hit[0] is state.board:
        return hit[1]
    if len(_TABLE_CACHE) >= _TABLE_CACHE_SIZE:
        _TABLE_CACHE.clear()
    table = _build_move_table(state, _outcomes(state, player), jail)
    _TABLE_CACHE[key] = (state.board, table)
    return table


def _build_move_table(state: GameState, oc: _Outcomes, jail: JailPolicy) -> _MoveTable:
    board, rules = state.board, state.rules
    n = board.size
    dd = dice_math.doubles_pmf(rules.dice)
    nd = dice_math.non_doubles_pmf(rules.dice)
    n_jail = rules.max_jail_rolls if jail == "long" else 1
    jail_pos = n
    # Outcome table: for arrival a, rows start[a]..start[a+1] list its outcome slots.
    arr, slot = np.nonzero(oc.X > 0)
    start = np.searchsorted(arr, np.arange(n + 1))
    px = oc.X[arr, slot]
    card = oc.Z[arr, slot] / px
    kind = slot // n  # 0 plain, 1 rr, 2 ut, 3 jail
    sq = np.where(kind == 3, board.jail, slot % n)
    jailed = kind == 3
    sets: dict[str, list[tuple[np.ndarray, ...]]] = {"nd": [], "dj": [], "dc": [], "th": []}
    totals = np.arange(len(dd))

    def still(src: np.ndarray, dst: np.ndarray, prob: np.ndarray, pre: np.ndarray) -> tuple[np.ndarray, ...]:
        """Moves with no roll and no cash (sat out in jail, the third double to jail)."""
        k = len(src)
        return (src, dst, prob, pre, np.zeros(k), np.full(k, -1), np.zeros(k, dtype=np.int64))

    def roll(src_pos: np.ndarray, squares: np.ndarray, pmf: np.ndarray, dbl: bool, fine_first: float, from_jail: bool) -> None:
        """Moves of the throws with probabilities ``pmf`` (doubles or not) from every
        square of ``squares`` at once, sorted into the sets."""
        t_all = totals[pmf > 0]
        src_i = np.repeat(np.arange(len(squares)), len(t_all))
        t = np.tile(t_all, len(squares))
        p_t = np.tile(pmf[t_all], len(squares))
        here = squares[src_i]
        a = (here + t) % n
        counts = start[a + 1] - start[a]
        rows = np.repeat(start[a], counts) + (np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts))
        t_r = np.repeat(t, counts)
        salary = np.where(here + t >= n, rules.go_salary, 0.0)
        if rules.go_landing_bonus:  # a roll ending on Go pays the salary twice
            salary = salary + np.where((here + t) % n == 0, rules.go_salary, 0.0)
        salary = np.repeat(salary, counts)
        dst = np.where(jailed[rows], jail_pos, sq[rows])
        move = (np.repeat(src_pos[src_i], counts), dst, np.repeat(p_t, counts) * px[rows], np.full(len(rows), fine_first), salary, rows, t_r)
        if not dbl or from_jail:
            sets["nd"].append(move)
            return
        to_jail = jailed[rows]
        sets["dj"].append(tuple(v[to_jail] for v in move))
        sets["dc"].append(tuple(v[~to_jail] for v in move))

    squares = np.arange(n)
    rolls, jails = turn_shape(rules)
    p_dbl = float(dd.sum())
    fine = float(rules.jail_fine)
    jail_sq = np.array([board.jail])

    def doubles(src_pos: np.ndarray, squares: np.ndarray, fine_first: float) -> None:
        """The doubles of a turn's first roll from ``squares`` (the rules sort them, :func:`turn_shape`)."""
        if rolls == 1 and jails:  # every double goes to jail without moving
            if src_pos[0] >= n:  # from jail (short policy): the fine first, then the turn ends in jail
                k = len(src_pos)
                sets["nd"].append(still(src_pos, np.full(k, jail_pos), np.full(k, p_dbl), np.full(k, fine_first)))
            return  # (from a free square: the move set ``th``)
        roll(src_pos, squares, dd, rolls != 1, fine_first, False)  # one roll a turn: a double ends it

    roll(squares, squares, nd, False, 0.0, False)
    doubles(squares, squares, 0.0)
    if jails:
        sets["th"].append(still(squares, np.full(n, jail_pos), np.full(n, p_dbl), np.zeros(n)))
    if jail == "short":  # pay at the start of the turn, then roll as from the jail square
        jp = np.array([jail_pos])
        roll(jp, jail_sq, nd, False, -fine, False)
        doubles(jp, jail_sq, -fine)
    else:
        p_nd = float(nd.sum())
        for f in range(n_jail):
            jp = np.array([jail_pos + f])
            last = f + 1 == n_jail
            stay = jp + 1 if not last else np.array([board.jail])  # after the last turn: free on the jail square
            if not (rules.jail_doubles or (last and rules.jail_release == "pay")):
                sets["nd"].append(still(jp, stay, np.ones(1), np.zeros(1)))  # sat out: no roll
                continue
            if rules.jail_doubles:
                roll(jp, jail_sq, dd, True, 0.0, True)  # doubles: out, move, no extra roll
                p_fail, fail = p_nd, nd
            else:  # a double does not free: every throw fails
                p_fail, fail = 1.0, nd + dd
            if not last or rules.jail_release == "free":  # a failed roll: stay (or leave free), no move
                sets["nd"].append(still(jp, stay, np.array([p_fail]), np.zeros(1)))
            else:  # the last failure: pay the fine and move by that roll
                roll(jp, jail_sq, fail, False, -fine, True)
    out: dict[str, tuple[np.ndarray, ...]] = {}
    for name, parts in sets.items():
        if parts:
            cols = tuple(np.concatenate([p[i] for p in parts]) for i in range(7))
        else:
            cols = still(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0))
        for c in cols:
            c.setflags(write=False)
        out[name] = cols
    mult = oc.mult[arr, slot]
    for a in (sq, kind, card, mult):
        a.setflags(write=False)
    return _MoveTable(out, sq, kind, card, mult, n + n_jail)


def turn_moves(state: GameState, player: int, jail: JailPolicy, income: float) -> tuple[Moves, int]:
    """Every roll move of the chain, in four sets of arrays ``(src, dst, delta, prob, pre)``
    over positions (free square ``s``: ``s``; jail with ``f`` failures: ``n + f``):

    ``nd``
        throws that end the turn whatever the doubles count: non-doubles from
        free squares, and every move from a jail position (long policy: doubles
        leave and move, failures stay or pay and move; short policy: pay, then
        the ending throws from the jail square);
    ``dj``
        doubles from a free square that end in jail (a card or Go To Jail), for
        the first and second roll of a turn;
    ``dc``
        doubles from a free square that do not end in jail: the turn goes on;
    ``th``
        the third double of a turn: to jail without moving.

    The doubles count is carried by the iteration (three vectors), not by the
    positions, because every move but ``dc`` and ``th`` is the same at any
    count. ``pre`` is a payment made before the move's other flows (the jail
    fine); ``income`` is added to every move that ends the turn. The moves
    themselves come from the memoised :class:`_MoveTable`; only their cash is
    computed here, from the state's rents.

    Parameters
    ----------
    state : GameState
        The position (the other players' holdings, frozen).
    player : int
        The seat whose ruin is asked.
    jail : {"long", "short"}
        The jail policy.
    income : float
        Dollars added at the end of each of the player's turns.

    Returns
    -------
    tuple of (Moves, int)
        The four move sets and the number of positions.

    Examples
    --------
    >>> from models.io import load_state
    >>> moves, n_pos = turn_moves(load_state("instances/near-ruin.json"), 3, "long", 0.0)
    >>> sorted(moves), n_pos  # 40 squares and 3 jail turns
    (['dc', 'dj', 'nd', 'th'], 43)
    >>> src, dst, delta, prob, pre = moves["nd"]
    >>> len(src) == len(dst) == len(delta) == len(prob) == len(pre)
    True
    """
    table = _move_table(state, player, jail)
    fixed, util = rent_vectors(state, player)
    mean_total = dice_math.mean_total(state.rules.dice)
    kind, sq, mult = table.kind, table.sq, table.mult
    # Per outcome slot, with a zero slot last for the moves without a roll (rows -1).
    pay_fixed = np.where(kind == 0, fixed[sq], 0.0) + np.where(kind == 1, fixed[sq] * mult, 0.0)
    pay_fixed += np.where(kind == 2, (util[sq] > 0) * mult * mean_total, 0.0)
    pay_per_total = np.append(np.where(kind == 0, util[sq], 0.0), 0.0)
    pay_fixed = np.append(pay_fixed, 0.0)
    card = np.append(table.card, 0.0)
    out: Moves = {}
    for name, (src, dst, prob, pre, salary, rows, t_r) in table.sets.items():
        delta = salary + card[rows] - pay_fixed[rows] - pay_per_total[rows] * t_r
        if name != "dc":
            delta = delta + income
        out[name] = (src, dst, delta, prob, pre)
    return out, table.n_pos


ROLL_TAIL = 1e-17
"""Under ``doubles_again`` with ``doubles_to_jail`` 0 a turn has no most rolls: the ruin chains
stop it after ``K`` rolls with ``p_dd^K <= ROLL_TAIL`` (what goes on after that is dropped)."""


def roll_slots(rules: Rules) -> tuple[int, bool]:
    """The rolls of a turn the ruin chains step through, and whether a double on the last goes
    to jail (:func:`engine.chains.markov.turn_shape`, the unbounded turn cut at :data:`ROLL_TAIL`).

    Parameters
    ----------
    rules : Rules
        The rules (dice, ``doubles_again``, ``doubles_to_jail``).

    Returns
    -------
    tuple of (int, bool)
        ``(rolls, jails)``.

    Raises
    ------
    ChainError
        Every throw is a double while doubles roll again for ever: no turn would end.

    Examples
    --------
    >>> from models.rules import Rules
    >>> roll_slots(Rules()), roll_slots(Rules(doubles_again=False))
    ((3, True), (1, False))
    """
    rolls, jails = turn_shape(rules)
    if rolls is not None:
        return rolls, jails
    p = dice_math.p_doubles(rules.dice)
    if p >= 1.0:
        raise ChainError("every throw is a double: with doubles_again and doubles_to_jail 0 no turn would end")
    if p <= 0.0:
        return 1, False
    return max(1, math.ceil(math.log(ROLL_TAIL) / math.log(p))), False


__all__ = ["ROLL_TAIL", "Moves", "held_cards", "rent_vectors", "roll_slots", "turn_moves"]
