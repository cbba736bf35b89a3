"""The exact position chain: where a token will be, and how often it lands where.

States and moves
----------------
A turn starts in one of ``S`` states: *free on square s* (``s = 0..n-1``;
the jail square here means Just Visiting) or *in jail*: with the ``long``
policy ``J0, J1, J2`` (failed rolls so far), with the ``short`` policy one
state ``J`` (the player pays or uses a card at the start of its turn and then
rolls as from the jail square).

One roll from square ``s`` with total ``t`` arrives at ``a = s + t (mod n)``.
Arrival is then *resolved* (:func:`resolution`): Go To Jail sends to jail;
on a Chance or Community Chest square each card of the deck is drawn with
probability ``1/len(deck)`` (memoryless, as if drawn with replacement) and
moves the token (advance to a square, to the nearest railroad or utility,
``steps`` back or forward, to jail) or leaves it there; a card can move the
token onto another card square, which draws again. With ``Q`` the one-draw
moves between card squares and ``B`` the immediate outcomes, the outcome of
an arrival is the absorbing-chain solution ``X = (I - Q)^{-1} B`` (Kemeny &
Snell, *Finite Markov Chains*, 1960, thm 3.3.7).

With ``D_dd`` (``D_nd``) the matrix of doubles (non-doubles) moves,
``D[s, s+t] = P(total t, double?)`` (:mod:`engine.dice`), the outcome of one
roll is ``O = D X``. A turn from a free square: doubles continue (``C`` =
the doubles part that ends free), non-doubles or jail end the turn; the third
double goes to jail without moving. So the turn matrix and the expected
landings per turn are::

    T_free = E01 + C E01 + C C E2,        L_free = L01 + C L01 + C C L2

with ``E01`` the turn-ending part of a roll with 0 or 1 doubles so far,
``E2`` the same after two doubles (a double now goes to jail), ``L01`` and
``L2`` the landings of those rolls. From jail (``long``): doubles leave and
move by that roll (no extra roll); otherwise ``J_f -> J_{f+1}``, and after the
third failure the player pays and moves by that roll.

Landings are counted per roll, after cards and Go To Jail: a roll that ends in
jail (sent there, or staying there) counts as ``in jail``, apart from Just
Visiting; the Go To Jail square is never a landing. The long-run landing
table is ``pi L / sum(pi L)`` with ``pi`` the stationary distribution of the
turn chain (``pi T = pi``), i.e. the long-run fraction of rolls.

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

from engine import dice as dice_math
from models.board import Board, Card
from models.rules import Rules

JailPolicy = Literal["short", "long"]


def columns(n: int) -> dict[str, slice]:
    """The landing column blocks of :attr:`PositionChain.L` for an ``n``-square board."""
    return {
        "plain": slice(0, n),
        "jail": slice(n, n + 1),
        "rr": slice(n + 1, 2 * n + 1),
        "ut": slice(2 * n + 1, 3 * n + 1),
        "rr_w": slice(3 * n + 1, 4 * n + 1),
        "ut_w": slice(4 * n + 1, 5 * n + 1),
    }


class ChainError(ValueError):
    """The board's cards make the position chain ill-defined (e.g. a card loop)."""


@dataclass(frozen=True)
class Resolution:
    """Outcome of arriving on each square (rows), after cards and Go To Jail.

    ``plain[a, f]``: ends on ``f`` at the normal rent; ``rr[a, f]``: ends on
    railroad ``f`` by a nearest-railroad card with a rent multiplier;
    ``ut[a, f]``: ends on utility ``f`` by a nearest-utility card that charges
    a multiple of a fresh roll; ``jail[a]``: ends in jail. ``rr_w`` and
    ``ut_w`` are ``rr`` and ``ut`` weighted by each card's multiplier.
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
        return self.plain + self.rr + self.ut


def card_outcome(card: Card, board: Board, at: int) -> tuple[str, int, int]:
    """(kind, square, multiplier) of one card drawn on square ``at``: kind in
    ``arrive`` (resolve again), ``final``, ``rr``, ``ut``, ``jail``."""
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
    """Resolve arrivals on every square (see the module docstring)."""
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
    board, rules:
        Board (any, inline included) and rules (dice, jail rolls).
    jail:
        ``long`` (stay and roll for doubles, up to ``rules.max_jail_rolls``
        tries) or ``short`` (leave at once, paying or using a card).

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> chain = PositionChain(standard_board(), Rules(), "long")
    >>> round(chain.long_run_landing()[24], 4)  # Illinois Avenue, share of rolls
    0.0299
    """

    def __init__(self, board: Board, rules: Rules | None = None, jail: JailPolicy = "long") -> None:
        if jail not in ("short", "long"):
            raise ValueError("jail policy is 'short' or 'long'")
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
        # Free square, 0 or 1 doubles so far: doubles continue unless jailed.
        cont = dd @ res.position  # n x n
        end01 = ends(nd)
        end01[:, n] += dd @ res.jail
        land01 = landings(dd) + landings(nd)
        tot01 = dd_t @ res.plain + nd_t @ res.plain
        # Two doubles so far: a double goes to jail without moving.
        end2 = ends(nd)
        end2[:, n] += p_dbl
        land2 = landings(nd) + p_dbl * jail_col
        tot2 = nd_t @ res.plain
        c2 = cont @ cont
        t_free = end01 + cont @ end01 + c2 @ end2
        l_free = land01 + cont @ land01 + c2 @ land2
        tt_free = tot01 + cont @ tot01 + c2 @ tot2
        if rules.doubles_to_jail != 3:
            raise ChainError("the chain assumes the third double goes to jail")

        t = np.zeros((self.size, self.size))
        land = np.zeros((self.size, width))
        tot = np.zeros((self.size, n))
        t[:n] = t_free
        land[:n] = l_free
        tot[:n] = tt_free
        j = board.jail
        if jail == "short":
            t[n] = t_free[j]
            land[n] = l_free[j]
            tot[n] = tt_free[j]
        else:
            row_dd = np.zeros((1, n))
            row_dd[0, j] = 1.0
            leave_dd = row_dd @ dd  # doubles: leave and move, no extra roll
            leave_nd = row_dd @ nd
            p_nd = 1.0 - p_dbl
            for f in range(self.n_jail):
                t[n + f] = ends(leave_dd)[0]
                land[n + f] = landings(leave_dd)[0]
                tot[n + f] = (row_dd @ dd_t @ res.plain)[0]
                if f + 1 < self.n_jail:
                    t[n + f, n + f + 1] += p_nd
                    land[n + f] += p_nd * jail_col
                else:  # last try failed: pay and move by that roll
                    t[n + f] += ends(leave_nd)[0]
                    land[n + f] += landings(leave_nd)[0]
                    tot[n + f] += (row_dd @ nd_t @ res.plain)[0]
        self.T = t
        self.L = land
        self.landing_totals = tot
        """``landing_totals[x, f]``: expected sum of the dice totals of plain landings on ``f``
        during a turn from state ``x`` (utility rent is a multiple of the total)."""

    # -- states ------------------------------------------------------------
    def state_index(self, square: int, in_jail: bool = False, jail_turns: int = 0) -> int:
        """Turn-start state of a token on ``square`` (in jail after ``jail_turns`` failed rolls)."""
        if not in_jail:
            return square
        if self.jail_policy == "short":
            return self.n
        return self.n + min(jail_turns, self.n_jail - 1)

    # -- k-turn questions ---------------------------------------------------
    def distributions(self, start: int, k: int) -> np.ndarray:
        """``(k + 1) x S`` array: row ``t`` is the turn-start state distribution after
        ``t`` turns from state ``start`` (the seed's Pr(g, p, k), jail states included)."""
        out = np.empty((k + 1, self.size))
        v = np.zeros(self.size)
        v[start] = 1.0
        out[0] = v
        for i in range(1, k + 1):
            v = v @ self.T
            out[i] = v
        return out

    def square_distributions(self, start: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(``(k+1) x n`` position distributions with in-jail folded out, ``k+1`` in-jail probabilities)."""
        dist = self.distributions(start, k)
        return dist[:, : self.n], dist[:, self.n :].sum(axis=1)

    def expected_landings(self, start: int, k: int) -> np.ndarray:
        """``k x (n + 1)``: expected landings on each square (last column: in jail)
        during each of the next ``k`` turns from state ``start``."""
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
        """``n + 1`` shares of rolls: each square (any arrival kind), then in jail. Sums to 1."""
        lpt = self.landings_per_turn
        n = self.n
        per_square = lpt[:n] + lpt[n + 1 : 2 * n + 1] + lpt[2 * n + 1 : 3 * n + 1]
        out = np.append(per_square, lpt[n])
        return out / out.sum()

    @cached_property
    def rolls_per_turn(self) -> float:
        return float(self.landings_per_turn[: 3 * self.n + 1].sum())  # count columns only

    @cached_property
    def totals_per_turn(self) -> np.ndarray:
        return self.stationary @ self.landing_totals


@lru_cache(maxsize=16)
def chain_for(board: Board, rules: Rules, jail: JailPolicy = "long") -> PositionChain:
    """One shared :class:`PositionChain` per (board, rules, jail policy), for callers that
    meet the same few boards and rules over and over (agents, reports, benches).

    Boards and rules are frozen values, hashed and compared by content, so a
    rebuilt but equal board reuses the chain; the chain's lazily computed
    tables are then computed once.
    """
    return PositionChain(board, rules, jail)
