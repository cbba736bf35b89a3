"""The exact position chain: where a token will be, and how often it lands where.

The chain is the standard Markov-chain treatment of Monopoly movement (Ash &
Bishop, "Monopoly as a Markov process", *Mathematics Magazine* 45, 1972;
Stewart, "How fair is Monopoly?", *Scientific American*, April 1996),
made exact (cards as an absorbing sub-chain, a turn as the composition of its
rolls) and extended to the rule variants of :class:`models.rules.Rules`, each
built with the absorbing-chain algebra of Kemeny & Snell, *Finite Markov
Chains* (1960). docs/chains.md has the same maths in prose and its checks.

States and moves
----------------
A turn starts in one of ``S`` states: *free on square s* (``s = 0..n-1``;
the jail square here means Just Visiting) or *in jail*: with the ``long``
policy ``J_0 .. J_{m-1}`` (turns already spent in jail, ``m =
rules.max_jail_rolls``), with the ``short`` policy one state ``J`` (the player
pays or uses a card at the start of its turn and then rolls as from the jail
square: an ordinary turn, under every variant).

One roll from square ``s`` with total ``t`` arrives at ``a = s + t (mod n)``.
Arrival is then *resolved* (:func:`resolution`): Go To Jail sends to jail;
on a Chance or Community Chest square each card of the deck is drawn with
probability ``1/len(deck)`` and moves the token (advance to a square, to the
nearest railroad or utility, ``steps`` back or forward, to jail) or leaves it
there; a card can move the token onto another card square, which draws
again. With ``Q`` the one-draw moves between card squares and ``B`` the
immediate outcomes, the outcome of an arrival is the absorbing-chain
solution ``X = (I - Q)^{-1} B`` (Kemeny & Snell, thm 3.3.7).

Card draws (``rules.card_draw``)
    The draw ``1/len(deck)``, independent of earlier draws, is *exact* for
    draws with replacement: the engine's movement-only mode, and
    ``card_draw="replacement"`` while no player holds a Get Out of Jail Free
    card (a held card is left out of the draw, so the others come with
    ``1/(len - 1)``; the chain's states do not say who holds one, so there it
    is an approximation, :mod:`engine.chains.state_risk` knows the holders and
    leaves their cards out). For *shuffled* decks (the standard rules) it is
    an approximation: each draw taken alone is uniform (a random permutation
    puts every card in every place with the same probability), but the draws
    of one pass through a deck are dependent (a card drawn does not come
    again before the reshuffle) and the token's path depends on the cards
    drawn; the chain drops that dependence, as Ash & Bishop and Stewart do
    (measured in docs/chains.md).

A turn from a free square
-------------------------
With ``D_dd`` (``D_nd``) the matrix of doubles (non-doubles) moves,
``D[s, s+t] = P(total t, double?)`` (:mod:`engine.chains.dice`), the outcome of one
roll is ``O = D X``. Let ``C = D_dd X_pos`` (a double that leaves the token
free: the turn may go on), ``E`` the turn-ending part of a roll whose double
does not go to jail (non-doubles, and doubles that end in jail by Go To Jail
or a card) and ``E'`` that of the roll whose double goes to jail without
moving (non-doubles, plus ``p_dd`` to ``J_0``); ``L``, ``L'`` (landings) and
the dice-total columns follow the same pattern. The rules give the turn:

``doubles_again`` with ``doubles_to_jail = k >= 2`` (standard: ``k = 3``)
    rolls ``1 .. k-1`` go on after a double, the ``k``-th double goes to jail::

        T_free = sum_{i=0}^{k-2} C^i E + C^{k-1} E'      (k = 3: E + C E + C^2 E')

``doubles_to_jail = 1`` (with or without ``doubles_again``)
    every double goes to jail without moving: ``T_free = E'``, one roll.
``doubles_again`` off, ``doubles_to_jail`` 0 or ``>= 2``
    a double is an ordinary roll (the engine never counts past one double):
    one roll, ``T_free = E + [C | 0]`` (the double's free part ends the turn).
``doubles_again`` with ``doubles_to_jail = 0``
    a turn is a geometric number of rolls (doubles go on for ever, unless a
    card or Go To Jail ends the turn): ``T_free = sum_{i>=0} C^i E =
    (I - C)^{-1} E``, the fundamental matrix of the absorbing chain whose
    transient states are "free on s, the turn goes on" (Kemeny & Snell,
    thm 3.2.1). ``C``'s row sums are at most ``p_dd``, so ``I - C`` is
    invertible when ``p_dd < 1``; with dice that always throw a double no
    turn would end (:class:`ChainError`).

The landings ``L_free`` and dice totals are the same sums with ``L``, ``L'``.

A turn in jail (``long``)
-------------------------
``J_f`` (``f`` turns spent) is the last jail turn when ``f = m - 1``. As in
:meth:`engine.rules.game.Game._jail_turn`:

* the player rolls when ``rules.jail_doubles``, or on the last turn with
  ``jail_release="pay"``; otherwise it *sits the turn out*: no roll, no
  landing, ``J_f -> J_{f+1}``, or after the last turn (release ``"free"``)
  free on the jail square;
* a double with ``jail_doubles``: out, and the token moves by that roll
  (``D_dd X``), no extra roll, whatever ``doubles_again``;
* any other roll (a non-double; any throw without ``jail_doubles``): before
  the last turn ``J_f -> J_{f+1}``, a landing "in jail"; on the last turn
  with release ``"pay"`` the fine is paid and the token moves by that roll,
  no extra roll; with release ``"free"`` the player leaves free without
  moving (``-> `` free on the jail square; the roll counts as a landing in
  jail, where it ended; the next turn is an ordinary one).

Landings
--------
Landings are counted per roll, after cards and Go To Jail: a roll that ends
in jail (sent there, or staying there) counts as ``in jail``, apart from
Just Visiting; the Go To Jail square is never a landing; a turn sat out in
jail has no roll and lands nowhere. The long-run landing table is
``pi L / sum(pi L)`` with ``pi`` the stationary distribution of the turn
chain (``pi T = pi``), i.e. the long-run fraction of rolls.
``go_landings`` counts the moves that end exactly on Go going forward (by
dice or card: the salary, twice under ``rules.go_landing_bonus``).

Rules that do not change the chain: the Free Parking pot, the Go landing
bonus (money: see ``go_landings``), auctions, even building, a finite bank,
a cash target and a round limit (the long run is that of an unending game;
a game cut short ends before it).

Expected rent per opponent turn (EPT), in the long run, for the owner of
``s``: the landings ``pi L`` split by how the token arrived: plainly (rent
at the rule-book rate; a utility charges its multiplier times that roll's
total, so the chain also carries ``sum_t t P(t) ...``), by the
nearest-railroad card (rent times ``rent_multiplier``) or by the
nearest-utility card (``dice_multiplier`` times the mean of a fresh roll).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

import numpy as np

from engine.chains import dice as dice_math
from models.board import Board, Card
from models.errors import InvalidArgumentError, MonopolyError
from models.rules import Rules

JailPolicy = Literal["short", "long"]


def columns(n: int) -> dict[str, slice]:
    """The landing column blocks of :attr:`PositionChain.L` for an ``n``-square board.

    Parameters
    ----------
    n : int
        The number of squares.

    Returns
    -------
    dict of str to slice
        ``plain``, ``jail``, ``rr``, ``ut``, ``rr_w``, ``ut_w``: ``5n + 1`` columns in all.

    Examples
    --------
    >>> c = columns(40)
    >>> c["plain"], c["jail"], c["ut_w"]
    (slice(0, 40, None), slice(40, 41, None), slice(161, 201, None))
    """
    return {
        "plain": slice(0, n),
        "jail": slice(n, n + 1),
        "rr": slice(n + 1, 2 * n + 1),
        "ut": slice(2 * n + 1, 3 * n + 1),
        "rr_w": slice(3 * n + 1, 4 * n + 1),
        "ut_w": slice(4 * n + 1, 5 * n + 1),
    }


class ChainError(MonopolyError, ValueError):
    """The board's cards or the rules make the position chain ill-defined (a card loop; dice
    that always throw a double while doubles roll again for ever, so that no turn ends)."""


@dataclass(frozen=True)
class Resolution:
    """Outcome of arriving on each square (rows), after cards and Go To Jail.

    ``plain[a, f]``: ends on ``f`` at the normal rent; ``rr[a, f]``: ends on
    railroad ``f`` by a nearest-railroad card with a rent multiplier;
    ``ut[a, f]``: ends on utility ``f`` by a nearest-utility card that charges
    a multiple of a fresh roll; ``jail[a]``: ends in jail. ``rr_w`` and
    ``ut_w`` are ``rr`` and ``ut`` weighted by each card's multiplier.

    Attributes
    ----------
    plain, rr, ut, rr_w, ut_w : numpy.ndarray
        ``n x n``, arrival square by final square.
    jail : numpy.ndarray
        ``n``: the probability that an arrival ends in jail.

    Examples
    --------
    An arrival on the first Chance (square 7): one card in sixteen each sends the token to
    jail and to Go; every arrival ends somewhere.

    >>> from models.board import standard_board
    >>> res = resolution(standard_board())
    >>> round(float(res.jail[7]), 4), round(float(res.position[7, 0]), 4), round(float(res.position[7].sum() + res.jail[7]), 9)
    (0.0625, 0.0625, 1.0)
    """

    plain: np.ndarray
    rr: np.ndarray
    ut: np.ndarray
    jail: np.ndarray
    rr_w: np.ndarray
    ut_w: np.ndarray

    @property
    def position(self) -> np.ndarray:
        """Where the token ends (``n x n``), any arrival kind."""
        out: np.ndarray = self.plain + self.rr + self.ut
        return out


def card_outcome(card: Card, board: Board, at: int) -> tuple[str, int, int]:
    """(kind, square, multiplier) of one card drawn on square ``at``: kind in
    ``arrive`` (resolve again), ``final``, ``rr``, ``ut``, ``jail``.

    Parameters
    ----------
    card : Card
        The card.
    board : Board
        The board (any, inline included).
    at : int
        The square it is drawn on.

    Returns
    -------
    tuple of (str, int, int)
        The kind, the square the token goes to, and the rent or dice multiplier.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> board = standard_board()
    >>> nearest = next(c for c in board.deck("chance") if c.action == "advance_nearest" and c.group == "railroad")
    >>> card_outcome(nearest, board, 7)  # to Pennsylvania Railroad at double rent
    ('rr', 15, 2)
    """
    n = board.size
    if card.action == "advance_to":
        assert card.square is not None
        return "arrive", card.square, 1
    if card.action == "move":
        return "arrive", (at + card.steps) % n, 1
    if card.action == "go_to_jail":
        return "jail", board.jail, 1
    if card.action == "advance_nearest":
        target = next((at + k) % n for k in range(1, n + 1) if board.squares[(at + k) % n].kind == card.group)
        if card.group == "railroad" and card.rent_multiplier != 1:
            return "rr", target, card.rent_multiplier
        if card.group == "utility" and card.dice_multiplier:
            return "ut", target, card.dice_multiplier
        return "arrive", target, 1
    return "final", at, 1


def resolution(board: Board) -> Resolution:
    """Resolve arrivals on every square (see the module docstring): with ``Q`` the card moves
    between squares and ``B`` the final outcomes, ``X = (I - Q)^{-1} B``.

    Parameters
    ----------
    board : Board
        The board (any, inline included).

    Returns
    -------
    Resolution
        Where an arrival on each square ends, by kind.

    Raises
    ------
    ChainError
        The cards can move a token between card squares for ever (``I - Q`` singular).

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> res = resolution(standard_board())
    >>> float(res.jail[30])  # Go To Jail
    1.0
    """
    n = board.size
    q = np.zeros((n, n))
    b_plain = np.zeros((n, n))
    b_rr = np.zeros((n, n))
    b_ut = np.zeros((n, n))
    b_jail = np.zeros(n)
    b_rr_w = np.zeros((n, n))
    b_ut_w = np.zeros((n, n))
    for sq in board.squares:
        a = sq.index
        if sq.kind == "go_to_jail":
            b_jail[a] = 1.0
        elif sq.kind in ("chance", "community_chest"):
            deck = board.deck(sq.kind)
            w = 1.0 / len(deck)
            for card in deck:
                kind, target, mult = card_outcome(card, board, a)
                if kind == "arrive":
                    q[a, target] += w
                elif kind == "final":
                    b_plain[a, target] += w
                elif kind == "rr":
                    b_rr[a, target] += w
                    b_rr_w[a, target] += w * mult
                elif kind == "ut":
                    b_ut[a, target] += w
                    b_ut_w[a, target] += w * mult
                else:
                    b_jail[a] += w
        else:
            b_plain[a, a] = 1.0
    # Arrivals on squares without cards resolve at once; the rest solve (I - Q) X = B.
    m = np.eye(n) - q
    try:
        inv = np.linalg.solve(m, np.eye(n))
    except np.linalg.LinAlgError:
        raise ChainError("the card decks can move a token between card squares forever") from None
    if not np.all(np.isfinite(inv)) or np.abs(m @ inv - np.eye(n)).max() > 1e-9:
        raise ChainError("the card decks can move a token between card squares forever")
    return Resolution(inv @ b_plain, inv @ b_rr, inv @ b_ut, inv @ b_jail, inv @ b_rr_w, inv @ b_ut_w)


def card_steps(card: Card, board: Board, at: int) -> int | None:
    """The squares a movement card drawn on ``at`` moves the token (negative: backwards),
    as :meth:`engine.rules.game.Game._draw_card` moves it; ``None`` for a card that does not move
    it along the board (to jail, cash, ...).

    Parameters
    ----------
    card : Card
        The card.
    board : Board
        The board (any, inline included).
    at : int
        The square it is drawn on.

    Returns
    -------
    int or None
        Squares moved (an ``advance_to`` its own square: a full lap, ``n``).

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> board = standard_board()
    >>> back = next(c for c in board.deck("chance") if c.action == "move")
    >>> nearest = next(c for c in board.deck("chance") if c.action == "advance_nearest" and c.group == "railroad")
    >>> card_steps(back, board, 7), card_steps(nearest, board, 7)
    (-3, 8)
    """
    n = board.size
    if card.action == "advance_to":
        assert card.square is not None
        return (card.square - at) % n or n
    if card.action == "advance_nearest":
        return next(k for k in range(1, n + 1) if board.squares[(at + k) % n].kind == card.group)
    if card.action == "move":
        return card.steps
    return None


def go_arrivals(board: Board) -> np.ndarray:
    """``G[a]``: expected card moves that end exactly on Go going forward while an arrival on
    ``a`` is resolved (Go's salary, twice under ``go_landing_bonus``); the arrival itself apart.

    ``G = Q G + g`` with ``g[a]`` the weight of the cards on ``a`` that move forward onto Go
    and ``Q`` the card moves between squares of :func:`resolution` (a card move onto Go
    continues there: Go draws nothing), so ``G = (I - Q)^{-1} g``.

    Parameters
    ----------
    board : Board
        The board (any, inline included).

    Returns
    -------
    numpy.ndarray
        ``n`` expected card moves onto Go, by arrival square.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> g = go_arrivals(standard_board())
    >>> round(float(g[7]), 4), float(g[1])  # one Chance card in sixteen; no card on Mediterranean
    (0.0625, 0.0)
    """
    n = board.size
    q = np.zeros((n, n))
    g = np.zeros(n)
    for sq in board.squares:
        if sq.kind not in ("chance", "community_chest"):
            continue
        a = sq.index
        deck = board.deck(sq.kind)
        w = 1.0 / len(deck)
        for card in deck:
            kind, target, _ = card_outcome(card, board, a)
            steps = card_steps(card, board, a)
            if steps is not None and steps > 0 and target == 0:
                g[a] += w
            if kind == "arrive":
                q[a, target] += w
    return np.linalg.solve(np.eye(n) - q, g)


def turn_shape(rules: Rules) -> tuple[int | None, bool]:
    """How doubles shape a turn from a free square: ``(rolls, jails)``.

    ``rolls`` is the most rolls of a turn (``None``: no bound, ``doubles_again`` with
    ``doubles_to_jail`` 0); ``jails`` says whether a double on the last of them goes to jail
    without moving (``doubles_to_jail`` ``k``: ``(k, True)``; ``doubles_again`` off and no
    jail on a double: ``(1, False)``). As :meth:`engine.rules.game.Game._roll_and_move` plays it:
    without ``doubles_again`` the count of doubles never passes one, so only
    ``doubles_to_jail`` 1 jails.

    Parameters
    ----------
    rules : Rules
        The rules (``doubles_again``, ``doubles_to_jail``).

    Returns
    -------
    tuple of (int or None, bool)
        ``(rolls, jails)``.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> turn_shape(Rules()), turn_shape(Rules(doubles_again=False)), turn_shape(Rules(doubles_to_jail=0))
    ((3, True), (1, False), (None, False))
    """
    k = rules.doubles_to_jail
    if k == 1:
        return 1, True
    if not rules.doubles_again:
        return 1, False
    if k == 0:
        return None, False
    return k, True


def _shift_matrices(n: int, pmf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``D[s, (s+t) mod n] = pmf[t]`` and ``Dt[s, (s+t) mod n] = t * pmf[t]``."""
    d = np.zeros((n, n))
    dt = np.zeros((n, n))
    eye = np.eye(n)
    for t in np.nonzero(pmf)[0]:
        shifted = np.roll(eye, int(t), axis=1)
        d += pmf[t] * shifted
        dt += t * pmf[t] * shifted
    return d, dt


class PositionChain:
    """The exact position chain for a board, rules and jail policy.

    ``T`` is the ``S x S`` turn matrix. ``L[x]`` holds the expected landings
    during a turn from state ``x`` in ``5n + 1`` columns: ``0..n-1`` plain
    landings, ``n`` in jail, ``n+1..2n`` by a nearest-railroad card,
    ``2n+1..3n`` by a nearest-utility card, then those two again weighted by
    the card's multiplier (:func:`columns`). ``landing_totals`` carries the
    dice totals of plain landings (for utility rent).

    Parameters
    ----------
    board : Board
        Board (any, inline included).
    rules : Rules or None, default None
        Rules (dice, doubles, jail; the module docstring says how each variant shapes a
        turn); ``None`` means the standard ``Rules()``.
    jail : {"long", "short"}, default "long"
        ``long`` (stay: roll for doubles, or sit out, as the rules say, up to
        ``rules.max_jail_rolls`` turns) or ``short`` (leave at once, paying or
        using a card).

    Raises
    ------
    InvalidArgumentError
        ``jail`` is neither ``"short"`` nor ``"long"``.
    ChainError
        (a ``ValueError``) The cards can move a token between card squares for
        ever, or every throw is a double while a double rolls again for ever
        (``doubles_again`` with ``doubles_to_jail`` 0): no turn would end.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> chain = PositionChain(standard_board(), Rules(), "long")
    >>> round(float(chain.long_run_landing()[24]), 5)  # Illinois Avenue, share of rolls
    0.02995
    >>> start = chain.state_index(0)  # on Go
    >>> dist = chain.distributions(start, 2)
    >>> dist.shape, round(float(dist[1].sum()), 9)  # S = 40 squares + 3 jail turns
    ((3, 43), 1.0)
    >>> positions, in_jail = chain.square_distributions(start, 2)
    >>> round(float(in_jail[2]), 4), chain.expected_landings(start, 2).shape
    (0.0384, (2, 41))
    >>> round(chain.rolls_per_turn, 4), round(chain.go_landings_per_turn, 4)
    (1.1659, 0.034)
    """

    def __init__(self, board: Board, rules: Rules | None = None, jail: JailPolicy = "long") -> None:
        if jail not in ("short", "long"):
            raise InvalidArgumentError("jail policy is 'short' or 'long'")
        rules = rules or Rules()
        self.board = board
        self.rules = rules
        self.jail_policy = jail
        n = self.n = board.size
        self.n_jail = rules.max_jail_rolls if jail == "long" else 1
        self.size = n + self.n_jail
        res = resolution(board)
        dd, dd_t = _shift_matrices(n, dice_math.doubles_pmf(rules.dice))
        nd, nd_t = _shift_matrices(n, dice_math.non_doubles_pmf(rules.dice))
        p_dbl = dice_math.p_doubles(rules.dice)
        self.p_doubles = p_dbl
        self.mean_total = dice_math.mean_total(rules.dice)

        def landings(d: np.ndarray) -> np.ndarray:
            """Landing columns of one roll with move matrix ``d``: plain, jail, rr, ut."""
            return np.hstack(
                [d @ res.plain, (d @ res.jail)[:, None], d @ res.rr, d @ res.ut, d @ res.rr_w, d @ res.ut_w]
            )

        def ends(d: np.ndarray) -> np.ndarray:
            """Turn-start states reached when the turn ends after a roll with matrix ``d``."""
            out = np.zeros((d.shape[0], self.size))
            out[:, :n] = d @ res.position
            out[:, n] += d @ res.jail  # J0 (or J)
            return out

        width = 5 * n + 1
        jail_col = np.zeros(width)
        jail_col[n] = 1.0
        # A roll whose double does not go to jail: a double that leaves the token free goes on (C).
        cont = dd @ res.position  # n x n
        end01 = ends(nd)
        end01[:, n] += dd @ res.jail
        land01 = landings(dd) + landings(nd)
        tot01 = dd_t @ res.plain + nd_t @ res.plain
        # The roll whose double goes to jail without moving (the k-th of doubles_to_jail k).
        end2 = ends(nd)
        end2[:, n] += p_dbl
        land2 = landings(nd) + p_dbl * jail_col
        tot2 = nd_t @ res.plain
        go = go_arrivals(board)
        go[0] += 1.0  # a roll arriving on Go ends there going forward
        go01 = dd @ go + nd @ go
        go2 = nd @ go
        rolls, jails = turn_shape(rules)
        self.turn_rolls = rolls
        """The most rolls of a turn from a free square (``None``: unbounded), :func:`turn_shape`."""
        if rolls is None:
            if p_dbl >= 1.0:
                raise ChainError("every throw is a double: with doubles_again and doubles_to_jail 0 no turn would end")
            fundamental = np.linalg.solve(np.eye(n) - cont, np.eye(n))  # sum_i C^i

            def turn(first: np.ndarray, last: np.ndarray) -> np.ndarray:
                out: np.ndarray = fundamental @ first
                return out

        elif not jails:  # one roll; a double's free part ends the turn too

            def turn(first: np.ndarray, last: np.ndarray) -> np.ndarray:
                return first

            end01 = end01.copy()
            end01[:, :n] += cont
        else:

            def turn(first: np.ndarray, last: np.ndarray) -> np.ndarray:
                """sum_{i=0}^{k-2} C^i first + C^{k-1} last, left to right."""
                if rolls == 1:
                    return last
                acc, power = first, cont
                for _ in range(rolls - 2):
                    acc = acc + power @ first
                    power = power @ cont
                out: np.ndarray = acc + power @ last
                return out

        t_free = turn(end01, end2)
        l_free = turn(land01, land2)
        tt_free = turn(tot01, tot2)
        g_free = turn(go01, go2)

        t = np.zeros((self.size, self.size))
        land = np.zeros((self.size, width))
        tot = np.zeros((self.size, n))
        gol = np.zeros(self.size)
        t[:n] = t_free
        land[:n] = l_free
        tot[:n] = tt_free
        gol[:n] = g_free
        j = board.jail
        if jail == "short":
            t[n] = t_free[j]
            land[n] = l_free[j]
            tot[n] = tt_free[j]
            gol[n] = g_free[j]
        else:
            row_dd = np.zeros((1, n))
            row_dd[0, j] = 1.0
            leave_dd = row_dd @ dd  # doubles: leave and move, no extra roll
            leave_nd = row_dd @ nd
            p_nd = 1.0 - p_dbl
            for f in range(self.n_jail):
                last = f + 1 == self.n_jail
                stay = n + f + 1 if not last else j  # after the last turn (release "free"): free on the jail square
                if not (rules.jail_doubles or (last and rules.jail_release == "pay")):
                    t[n + f, stay] = 1.0  # nothing to roll for: the turn is sat out
                    continue
                if rules.jail_doubles:
                    t[n + f] = ends(leave_dd)[0]
                    land[n + f] = landings(leave_dd)[0]
                    tot[n + f] = (row_dd @ dd_t @ res.plain)[0]
                    gol[n + f] = (leave_dd @ go)[0]
                    p_fail, fail = p_nd, [(leave_nd, nd_t)]
                else:  # a double does not free: every throw is a failure
                    p_fail, fail = 1.0, [(leave_dd, dd_t), (leave_nd, nd_t)]
                if not last or rules.jail_release == "free":  # stays (or leaves free): no move
                    t[n + f, stay] += p_fail
                    land[n + f] += p_fail * jail_col
                else:  # last try failed: pay and move by that roll
                    for leave, leave_t in fail:
                        t[n + f] += ends(leave)[0]
                        land[n + f] += landings(leave)[0]
                        tot[n + f] += (row_dd @ leave_t @ res.plain)[0]
                        gol[n + f] += (leave @ go)[0]
        self.T = t
        self.L = land
        self.landing_totals = tot
        """``landing_totals[x, f]``: expected sum of the dice totals of plain landings on ``f``
        during a turn from state ``x`` (utility rent is a multiple of the total)."""
        self.go_landings = gol
        """``go_landings[x]``: expected moves (dice or card) that end exactly on Go going forward
        during a turn from state ``x`` (each pays the salary twice under ``go_landing_bonus``)."""

    # -- states ------------------------------------------------------------
    def state_index(self, square: int, in_jail: bool = False, jail_turns: int = 0) -> int:
        """Turn-start state of a token on ``square`` (in jail after ``jail_turns`` failed rolls).

        Parameters
        ----------
        square : int
            Where the token stands.
        in_jail : bool, default False
            Whether it is in jail (then ``square`` is not read).
        jail_turns : int, default 0
            Jail turns already spent (capped at the last one).

        Returns
        -------
        int
            The row of :attr:`T`: the square, or ``n + jail_turns`` in jail (``n`` with the
            ``short`` policy).
        """
        if not in_jail:
            return square
        if self.jail_policy == "short":
            return self.n
        return self.n + min(jail_turns, self.n_jail - 1)

    # -- k-turn questions ---------------------------------------------------
    def distributions(self, start: int, k: int) -> np.ndarray:
        """``(k + 1) x S`` array: row ``t`` is the turn-start state distribution after
        ``t`` turns from state ``start`` (the seed's Pr(g, p, k), jail states included).

        Parameters
        ----------
        start : int
            The turn-start state (:meth:`state_index`).
        k : int
            The number of turns.

        Returns
        -------
        numpy.ndarray
            ``v_t = e_start T^t`` for ``t = 0..k``; each row sums to 1.
        """
        out = np.empty((k + 1, self.size))
        v = np.zeros(self.size)
        v[start] = 1.0
        out[0] = v
        for i in range(1, k + 1):
            v = v @ self.T
            out[i] = v
        return out

    def square_distributions(self, start: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(``(k+1) x n`` position distributions with in-jail folded out, ``k+1`` in-jail probabilities).

        Parameters
        ----------
        start : int
            The turn-start state (:meth:`state_index`).
        k : int
            The number of turns.

        Returns
        -------
        tuple of numpy.ndarray
            The free squares' probabilities after each turn, and the probability of being in jail.
        """
        dist = self.distributions(start, k)
        return dist[:, : self.n], dist[:, self.n :].sum(axis=1)

    def expected_landings(self, start: int, k: int) -> np.ndarray:
        """``k x (n + 1)``: expected landings on each square (last column: in jail)
        during each of the next ``k`` turns from state ``start``.

        Parameters
        ----------
        start : int
            The turn-start state (:meth:`state_index`).
        k : int
            The number of turns.

        Returns
        -------
        numpy.ndarray
            Row ``t`` is ``v_t L`` with the arrival kinds summed per square.
        """
        dist = self.distributions(start, k - 1) if k > 0 else np.zeros((0, self.size))
        full = dist @ self.L
        n = self.n
        out = np.empty((k, n + 1))
        out[:, :n] = full[:, :n] + full[:, n + 1 : 2 * n + 1] + full[:, 2 * n + 1 : 3 * n + 1]
        out[:, n] = full[:, n]
        return out

    # -- long run ----------------------------------------------------------------
    @cached_property
    def stationary(self) -> np.ndarray:
        """``pi`` with ``pi T = pi``, ``sum(pi) = 1`` (solved as a linear system)."""
        a = self.T.T - np.eye(self.size)
        a[-1, :] = 1.0
        b = np.zeros(self.size)
        b[-1] = 1.0
        pi = np.linalg.solve(a, b)
        return pi

    @cached_property
    def landings_per_turn(self) -> np.ndarray:
        """Long-run expected landings per turn, all ``5n + 1`` landing columns (:func:`columns`)."""
        return self.stationary @ self.L

    def long_run_landing(self) -> np.ndarray:
        """``n + 1`` shares of rolls: each square (any arrival kind), then in jail. Sums to 1.

        Returns
        -------
        numpy.ndarray
            ``pi L / sum(pi L)``, arrival kinds summed per square.
        """
        lpt = self.landings_per_turn
        n = self.n
        per_square = lpt[:n] + lpt[n + 1 : 2 * n + 1] + lpt[2 * n + 1 : 3 * n + 1]
        out = np.append(per_square, lpt[n])
        shares: np.ndarray = out / out.sum()
        return shares

    @cached_property
    def rolls_per_turn(self) -> float:
        """Long-run expected rolls per turn (a turn sat out in jail: none)."""
        return float(self.landings_per_turn[: 3 * self.n + 1].sum())  # count columns only

    @cached_property
    def totals_per_turn(self) -> np.ndarray:
        """Long-run expected dice totals of the plain landings on each square per turn (utility rent)."""
        return self.stationary @ self.landing_totals

    @cached_property
    def go_landings_per_turn(self) -> float:
        """Long-run expected moves per turn that end exactly on Go going forward (``pi . go_landings``)."""
        return float(self.stationary @ self.go_landings)


@lru_cache(maxsize=16)
def chain_for(board: Board, rules: Rules, jail: JailPolicy = "long") -> PositionChain:
    """One shared :class:`PositionChain` per (board, rules, jail policy), for callers that
    meet the same few boards and rules over and over (agents, reports, benches).

    Boards and rules are frozen values, hashed and compared by content, so a
    rebuilt but equal board reuses the chain; the chain's lazily computed
    tables are then computed once (at most 16 kept, least recently used first out).

    Parameters
    ----------
    board : Board
        The board.
    rules : Rules
        The rules.
    jail : {"long", "short"}, default "long"
        The jail policy.

    Returns
    -------
    PositionChain
        The shared chain (do not modify it).

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> chain = chain_for(standard_board(), Rules())
    >>> chain is chain_for(standard_board(), Rules()), chain_for(standard_board(), Rules(), "short") is chain
    (True, False)
    """
    return PositionChain(board, rules, jail)


@lru_cache(maxsize=16)
def exact_landings_per_turn(board: Board, rules: Rules) -> tuple[float, ...]:
    """Long-run expected landings per turn on each square (any arrival kind),
    from the exact position chain with the long jail policy (computed once per board and rules).

    Parameters
    ----------
    board : Board
        The board.
    rules : Rules
        The rules.

    Returns
    -------
    tuple of float
        One figure per square; they sum to the landings per turn outside jail (more than 1:
        doubles roll again).

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> landings = exact_landings_per_turn(standard_board(), Rules())
    >>> len(landings), round(landings[24], 4), landings[30], round(sum(landings), 4)  # Illinois; Go To Jail
    (40, 0.0349, 0.0, 1.0565)
    """
    chain = chain_for(board, rules, "long")
    lpt = chain.landings_per_turn
    cols = columns(board.size)
    per = lpt[cols["plain"]] + lpt[cols["rr"]] + lpt[cols["ut"]]
    return tuple(float(x) for x in per)
