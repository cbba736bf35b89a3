"""Ruin probabilities derived from a real game state (the state-derived model).

The player's *wealth* is its liquidation value ``W`` (cash + buildings sold
back + every unmortgaged property mortgaged, :meth:`GameState.
liquidation_value`): a debt it cannot pay even after selling everything to the
bank is ruin. So ruin is ``W + delta < 0`` on a roll, where ``delta`` is the
roll's cash flow; the other players' holdings are frozen as in the state and
the player buys nothing.

The chain is the roll-level version of :mod:`engine.chains.markov` (square x
doubles so far x jail state) crossed with the wealth grid of
:mod:`engine.chains.bankruptcy` (same bucket rule, on ``W + 1`` so that the
``<= 0`` test there is ``W < 0`` here for integer flows). A roll's cash flow,
given the outcome ``o`` (final square and how it got there) of arriving on
``a``::

    delta = salary * [dice pass Go] + E[card cash | a -> o] - rent(o, total) - tax(o)

``E[card cash | a -> o] = Z[a, o] / X[a, o]`` where ``X = (I - Q)^{-1} B`` is
the card resolution of :func:`engine.chains.markov.resolution` and ``Z`` solves the
same system with each card's cash as a reward (cash cards, pay/collect per
other player, repairs on the player's own buildings, salary when a card
moves the token past Go): ``Z = (I - Q)^{-1} R``, ``R[a] = sum_c w_c rho_c
X[next_c]`` (the expected cash effect of cards, as the issue asks, while the
movement stays exact). Rent is the state's: streets at their level (double
unimproved in a monopoly), railroads by the owner's count (times the card
multiplier after a nearest-railroad card), utilities by the roll's total
(ten times the mean roll after the nearest-utility card); mortgaged, own and
unowned squares charge nothing. Jail: ``long`` stays and rolls (pays the fine
after the last failure), ``short`` pays the fine at the start of the turn; as
in the engine, the fine is paid before the move, so it is tested for ruin on
its own, before any salary the move brings.

Rule variants (:class:`models.rules.Rules`)
    Modelled exactly, as :mod:`engine.chains.markov` derives them (its docstring):
    ``doubles_again``, ``doubles_to_jail`` (a turn steps through up to ``k``
    rolls, the ``k``-th double to jail; with ``doubles_again`` and
    ``doubles_to_jail`` 0 a turn has no most rolls and the chain stops it after
    ``K`` rolls with ``p_dd^K <= 1e-17``, :data:`ROLL_TAIL`, dropping the rest),
    ``max_jail_rolls``, ``jail_doubles`` (without it a jail turn is sat out, or
    the last one with release ``pay`` rolls, pays and moves by any throw) and
    ``jail_release`` (``free``: the last jail turn ends free on the jail square,
    no fine, no move); ``go_landing_bonus`` (a dice or card move ending
    exactly on Go pays the salary twice). Cards: ``card_draw="replacement"``
    draws uniformly over the cards no player holds in the state
    (:func:`held_cards`), the engine's draw; a Get Out of Jail Free card the
    player draws during the horizon is kept in the engine and left out of
    later draws, here not (it stays a card that does nothing). Shuffled decks
    (the standard) are drawn memorylessly over the whole deck, an
    approximation (measured in docs/chains.md).

    Not modelled, and which way that errs: the Free Parking pot
    (``free_parking``): taxes, fines and card payments are charged as usual
    (they go to the pot instead of the bank, the same to the payer), but the
    pot the player would collect on Free Parking is not counted: ruin is
    overstated (conservative). A finite bank (``bank_cash``): the salary and
    the bank's card payments are counted in full; a bank running dry pays less,
    so there ruin is understated. ``cash_target`` and ``round_limit``: the
    chain plays on past a game end, so ruin by a turn after it is counted
    (conservative). ``auctions``, ``auction_only`` and ``even_building`` do
    not matter: the player buys and builds nothing in the chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.chains.bankruptcy import cash_grid, cash_moves, compiled_chains
from engine.chains.ept import state_ept
from engine.chains.markov import (
    JailPolicy,
    PositionChain,
    chain_for,
)
from engine.chains.state_moves import (
    ROLL_TAIL,
    held_cards,
    rent_vectors,
    roll_slots,
    turn_moves,
)
from models.errors import BankruptPlayerError
from models.state import GameState


def expected_income(state: GameState, player: int, chain: PositionChain | None = None) -> float:
    """Rent ``player`` expects to collect per round: the long-run EPT of its
    properties (exact chain, long jail policy) times the number of opponents.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The owner's seat.
    chain : PositionChain or None
        The state's position chain (long jail policy); ``None``: the shared one.

    Returns
    -------
    float
        Dollars per round.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> round(expected_income(state, 1), 2)
    270.27
    """
    chain = chain or chain_for(state.board, state.rules, "long")
    ept = state_ept(chain, state)
    mine = [sq for sq in state.board.property_squares if state.owner[sq] == player]
    return float(ept[mine].sum()) * (len(state.active_players()) - 1)


@dataclass(frozen=True)
class _Chain:
    """The wealth x position chain of one player: grid, move matrices, ruin vectors."""

    grid: np.ndarray
    start_x: float
    cap_x: float
    mats: dict[str, Any]  # scipy sparse matrices
    ruins: dict[str, np.ndarray]
    n_pos: int
    start_pos: int
    slots: tuple[int, bool]  # :func:`roll_slots`


def _build_chain(
    state: GameState,
    player: int,
    wealth: float,
    bucket: float,
    cap: float | None,
    jail: JailPolicy,
    income: bool,
    chain: PositionChain | None,
    transposed: bool,
) -> _Chain:
    """The grid on ``W + 1`` (ruin test ``x <= 0`` <=> ``W < 0`` for integer flows), the
    four move sets' matrices (transposed for the forward step) and the start position."""
    start_x = wealth + 1.0
    cap_x = float(cap if cap is not None else max(2000.0, wealth + 1000.0)) + 1.0
    grid = cash_grid(start_x, bucket, cap_x)
    earn = expected_income(state, player, chain) if income else 0.0
    slots = roll_slots(state.rules)
    moves, n_pos = turn_moves(state, player, jail, earn)
    mats = {}
    ruins = {}
    for name, (src, dst, delta, prob, pre) in moves.items():
        mats[name], ruins[name] = cash_moves(grid, n_pos, src, dst, delta, prob, pre=pre, transposed=transposed)
    pl = state.players[player]
    n = state.board.size
    start_pos = (n + (min(pl.jail_turns, n_pos - n - 1) if jail == "long" else 0)) if pl.in_jail else pl.position
    return _Chain(grid, start_x, cap_x, mats, ruins, n_pos, start_pos, slots)


def state_ruin_pmf(
    state: GameState,
    player: int | str | None = None,
    turns: int = 20,
    bucket: float = 50,
    cap: float | None = None,
    jail: JailPolicy = "long",
    income: bool = True,
    chain: PositionChain | None = None,
) -> np.ndarray:
    """Probability that ``player`` is first ruined at each of the next ``turns`` turns.

    Entry 0 is 1 when the player's liquidation value is already negative or it
    is bankrupt. ``cap`` (default: the larger of $2,000 and the start wealth +
    $1,000) holds wealth above it at the cap. With ``income`` the rent the
    player expects to collect from its opponents each round
    (:func:`expected_income`) is added at the end of each of its turns as a
    sure amount; without it, only the player's own turns' flows count. A
    ``chain`` (long jail policy) for the state's board and rules may be passed
    to save building it. See the module docstring for the rest.

    Probability is conserved: after every turn the mass still alive plus the
    ruin so far is 1, up to rounding (and :data:`ROLL_TAIL` a turn for an
    unbounded turn, cut). Every roll from a live state lands on live states or
    counts as ruin, the double that goes to jail at no cost included: with no
    income it ruins, like any move that brings no money, the mass the bucket
    rule left on the grid's lowest point (wealth -1).

    Parameters
    ----------
    state : GameState
        The position.
    player : int, str or None
        A seat, a name, or ``None`` for the player to move.
    turns : int, default 20
        How many turns ahead.
    bucket : float, default 50
        The wealth grid's step (:func:`engine.chains.bankruptcy.cash_grid`).
    cap : float or None
        Wealth above it is held at it (default: the larger of $2,000 and the start wealth +
        $1,000).
    jail : {"long", "short"}, default "long"
        The jail policy the player follows.
    income : bool, default True
        Add :func:`expected_income` at the end of each of the player's turns.
    chain : PositionChain or None
        The state's position chain (long jail policy), to save building it.

    Returns
    -------
    numpy.ndarray
        ``turns + 1`` probabilities of first ruin at each turn.

    Raises
    ------
    UnknownPlayerError
        ``player`` is a name not in the state (from :meth:`models.state.GameState.player_index`).

    Examples
    --------
    ``monopoly-trade risk instances/near-ruin.json --turns 5`` prints the same figures:

    >>> from models.io import load_state
    >>> near = load_state("instances/near-ruin.json")
    >>> p = state_ruin_pmf(near, "Dee", turns=5)
    >>> [round(float(x), 4) for x in p], round(float(p.sum()), 4)
    ([0.0, 0.6345, 0.1582, 0.0282, 0.0359, 0.0465], 0.9033)
    """
    if isinstance(player, str):
        player = state.player_index(player)
    if player is None:
        player = state.to_move
    out = np.zeros(turns + 1)
    pl = state.players[player]
    wealth = state.liquidation_value(player)
    if pl.bankrupt or wealth < 0:
        out[0] = 1.0
        return out
    ch = _build_chain(state, player, wealth, bucket, cap, jail, income, chain, transposed=True)
    return _forward(ch, turns)[0]


def _last_roll_ruin(ruins: dict[str, np.ndarray]) -> np.ndarray:
    """The ruin vector of a turn's last roll when its double goes to jail: the non-doubles
    (``nd``) and that double (``th``). The double costs nothing, but with no income it is
    still a move that brings no money, so it ruins the mass on the grid's lowest point
    (wealth -1, the bucket rule's "alive until the next move that brings no money")."""
    out: np.ndarray = ruins["nd"] + ruins["th"]
    return out


def _forward(ch: _Chain, turns: int) -> tuple[np.ndarray, np.ndarray]:
    """The forward run of :func:`state_ruin_pmf` on a built chain (transposed matrices):
    ``(first ruin at each turn 0..turns, live mass after each turn 0..turns)``.

    Every move of a live state either stays live or counts as ruin, so ``live[t] +
    ruin[:t + 1].sum()`` is 1 at every turn up to rounding (less, by at most
    :data:`ROLL_TAIL` a turn, for an unbounded turn cut at the tail).
    """
    mats, ruins, n_pos = ch.mats, ch.ruins, ch.n_pos
    out = np.zeros(turns + 1)
    live = np.zeros(turns + 1)
    alive = np.zeros(len(ch.grid) * n_pos)
    alive[int(np.searchsorted(ch.grid, min(ch.start_x, ch.cap_x))) * n_pos + ch.start_pos] = 1.0
    live[0] = 1.0
    nd_m, dj_m, dc_m, th_m = mats["nd"], mats["dj"], mats["dc"], mats["th"]
    r_first = ruins["nd"] + ruins["dj"] + ruins["dc"]  # a roll whose double goes on
    r_third = _last_roll_ruin(ruins)  # the roll whose double goes to jail (at no cost)
    rolls, jails = ch.slots
    for t in range(1, turns + 1):
        # A turn is at most ``rolls`` rolls (standard: three): ``alive`` before the first,
        # ``rolling[i]`` after i doubles (free squares only). Moves are linear, so the
        # shared ones are applied once to the sum.
        rolling = [alive]
        for _ in range(rolls - 1):
            rolling.append(dc_m @ rolling[-1])
        if not jails:  # no roll's double goes to jail (one roll a turn, or the cut geometric turn)
            every = rolling[0]
            for c in rolling[1:]:
                every = every + c
            out[t] = float(every @ r_first)
            alive = nd_m @ every + dj_m @ every
        elif rolls == 1:  # doubles_to_jail 1: every double goes to jail
            out[t] = float(alive @ r_third)
            alive = nd_m @ alive + th_m @ alive
        else:
            early, last = rolling[0], rolling[-1]
            for c in rolling[1:-1]:
                early = early + c
            out[t] = float(early @ r_first + last @ r_third)
            alive = nd_m @ (early + last) + dj_m @ early + th_m @ last
        live[t] = float(alive.sum())
    return out, live


def ruin_within_by_wealth(
    state: GameState,
    player: int | str | None = None,
    turns: int = 20,
    bucket: float = 50,
    cap: float | None = None,
    jail: JailPolicy = "long",
    income: bool = True,
    chain: PositionChain | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Probability of ruin within ``turns`` turns for every starting wealth of the grid at once.

    The chain of :func:`state_ruin_pmf` (same grid, moves and arguments), run
    backward: the player stays on its square (and in its jail state), its
    opponents' holdings and its own properties stay as in the state, and only
    the starting wealth (liquidation value) varies over the grid points. With
    the live-to-live matrices of the four move sets (rows = from-state) ``A``
    (``nd``), ``D`` (``dj``), ``C`` (``dc``), ``H`` (``th``) and their ruin
    vectors ``r_first = r_nd + r_dj + r_dc`` (first and second roll of a
    turn) and ``r_third = r_nd + r_th`` (the third roll: a double goes to
    jail at no cost, which ruins only the mass on the grid's lowest point,
    wealth -1, when there is no income), ``u_t[s]`` = P(ruin within ``t``
    turns | state ``s`` before a turn's first roll) follows from the forward
    step of :func:`state_ruin_pmf` by transposition::

        u_0 = 0
        k   = r_first + C (r_first + C r_third)
        u_t = k + y + z + C (y + z + C (y + h)),   y = A u_{t-1}, z = D u_{t-1}, h = H u_{t-1}

    (a turn from ``s``: a first roll that ruins, ends the turn (``A``, ``D``)
    or is a double going on (``C``); after one double the same again; after
    two, ``r_third``, ``A`` or the third double ``H``); it is evaluated as
    ``u_t = k + P u + C (P u + C Q u)`` with ``P = A + D``, ``Q = A + H``. So
    ``u_turns`` at the grid point of the player's own wealth is
    ``state_ruin_pmf(...)[1:].sum()`` up to rounding, and one pass costs about
    what one forward run does. The pass conserves probability as the forward
    run does: from ``u_0 = 1`` instead of 0 every ``u_t`` is 1.

    Parameters
    ----------
    state : GameState
        The position.
    player : int, str or None
        A seat, a name, or ``None`` for the player to move.
    turns : int, default 20
        How many turns ahead.
    bucket : float, default 50
        The wealth grid's step (:func:`engine.chains.bankruptcy.cash_grid`).
    cap : float or None
        Wealth above it is held at it (default: the larger of $2,000 and the start wealth +
        $1,000).
    jail : {"long", "short"}, default "long"
        The jail policy the player follows.
    income : bool, default True
        Add :func:`expected_income` at the end of each of the player's turns.
    chain : PositionChain or None
        The state's position chain (long jail policy), to save building it.

    Returns
    -------
    wealth : np.ndarray
        The wealth of each grid point, ``grid - 1`` (the chain runs on
        ``W + 1``), ascending, without the grid's lowest point 0 (wealth -1:
        not a starting wealth, only a live state of the bucket rule that
        the next paying move ruins). The points are ``bucket`` apart,
        aligned on the player's wealth ``W`` (``W`` is one of them when
        ``0 <= W < cap``); the last is the cap (default: the larger of
        $2,000 and ``W`` + $1,000), which need not be aligned. Note that the
        grid and the default cap depend on ``W``:
        :func:`state_ruin_pmf` from another wealth ``W'`` uses the same grid
        only if ``W' - W`` is a multiple of ``bucket`` and the cap is given.
    ruin : np.ndarray
        P(ruin within ``turns`` turns) from each of those wealths, non-increasing.

    Raises
    ------
    UnknownPlayerError
        ``player`` is a name not in the state (from :meth:`models.state.GameState.player_index`).
    BankruptPlayerError
        If the player is bankrupt (it has no wealth to vary).

    Examples
    --------
    Dee's own wealth, $170, is a grid point, where the backward pass gives the forward
    run's figure (:func:`state_ruin_pmf`, 0.9033); less wealth, more risk:

    >>> from models.io import load_state
    >>> near = load_state("instances/near-ruin.json")
    >>> wealth, ruin = ruin_within_by_wealth(near, "Dee", turns=5)
    >>> wealth[:4].tolist(), [round(float(x), 4) for x in ruin[:4]]
    ([20.0, 70.0, 120.0, 170.0], [0.974, 0.9367, 0.9135, 0.9033])
    """
    if isinstance(player, str):
        player = state.player_index(player)
    if player is None:
        player = state.to_move
    pl = state.players[player]
    if pl.bankrupt:
        raise BankruptPlayerError(f"player {pl.name} is bankrupt")
    ch = _build_chain(state, player, state.liquidation_value(player), bucket, cap, jail, income, chain, transposed=False)
    u = _backward(ch, turns)
    return ch.grid[1:] - 1.0, u.reshape(len(ch.grid), ch.n_pos)[1:, ch.start_pos]


try:  # SciPy's own CSR kernel, called without the ``@`` operator's dispatch
    from scipy.sparse._sparsetools import csr_matvec as _csr_matvec
except ImportError:  # pragma: no cover - a SciPy without it: the public operator
    _csr_matvec = None


def _matvec(m: Any, x: np.ndarray) -> np.ndarray:
    """``m @ x`` for a float64 CSR matrix ``m`` and a float64 vector ``x``.

    It calls the kernel ``m @ x`` itself ends in (``scipy.sparse._sparsetools.csr_matvec``,
    into a zeroed output, as ``_cs_matrix._matmul_vector`` does), so the result is the same
    to the bit; what it saves is the operator's dispatch, about 10 us a call, which a
    reserve's backward pass pays some 80 times. Without that private kernel it is ``m @ x``.
    """
    if _csr_matvec is None or m.format != "csr" or m.dtype != np.float64 or x.dtype != np.float64:
        out: np.ndarray = m @ x
        return out
    y = np.zeros(m.shape[0])
    _csr_matvec(m.shape[0], m.shape[1], m.indptr, m.indices, m.data, np.ascontiguousarray(x), y)
    return y


def _unsigned(a: np.ndarray) -> np.ndarray:
    """A view of a non-negative index array as the unsigned type of its size."""
    return a.view(np.uint32 if a.dtype.itemsize == 4 else np.uint64)


def _csr_add(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``a + b`` (CSR) as :func:`engine.chains._chain_kernel.csr_add` stores it: ``(indptr, indices,
    data)``, the indices unsigned for :func:`engine.chains._chain_kernel.backward_pass`."""
    from engine.chains._chain_kernel import csr_add

    a_arrays = (_unsigned(a.indptr), _unsigned(a.indices), a.data)
    ptr, idx, dat = csr_add(*a_arrays, _unsigned(b.indptr), _unsigned(b.indices), b.data, a.shape[1])
    return _unsigned(ptr), _unsigned(idx), dat


def _backward(ch: _Chain, turns: int, u0: np.ndarray | None = None) -> np.ndarray:
    """``u_turns`` of :func:`ruin_within_by_wealth` over every live state (grid-major) of a
    built chain (untransposed matrices), from ``u_0 = u0`` (default 0).

    From ``u0 = 1`` it gives P(ruined within ``turns`` turns or still alive), which is 1 in
    every state up to rounding (as :func:`_forward` conserves the mass).
    """
    mats, ruins = ch.mats, ch.ruins
    compiled = compiled_chains() and all(m.format == "csr" for m in mats.values())
    # u_t = k + P u + C (P u + C Q u) with P = A + D, Q = A + H; the sums have no
    # duplicates and no explicit zeros, which halves the matvec time. Compiled, the
    # sums are SciPy's entry for entry (engine.chains._chain_kernel.csr_add).
    if compiled:
        from engine.chains._chain_kernel import backward_pass

        p_m, q_m = (_csr_add(mats["nd"], mats[b]) for b in ("dj", "th"))
    else:
        p_m = (mats["nd"] + mats["dj"]).tocsr()
        q_m = (mats["nd"] + mats["th"]).tocsr()
    c_m = mats["dc"].tocsr()
    c_m.sum_duplicates()
    c_m.eliminate_zeros()
    r_first = ruins["nd"] + ruins["dj"] + ruins["dc"]
    rolls, jails = ch.slots
    # The same nesting for any number of rolls: the last roll's part (r_third, Q; or with no
    # jailing double r_first, P), then each earlier roll's ``r_first + P u + C (...)``.
    k = _last_roll_ruin(ruins) if jails else r_first
    for _ in range(rolls - 1):
        k = r_first + _matvec(c_m, k)
    if u0 is None:  # u_1 = k: from u_0 = 0 every product of the first turn is zero
        if turns == 0:
            return np.zeros(len(ch.grid) * ch.n_pos)
        u, turns = k.copy(), turns - 1
    else:
        u = np.asarray(u0, dtype=float)
    if compiled:  # the same loop, compiled
        c3 = (_unsigned(c_m.indptr), _unsigned(c_m.indices), c_m.data)
        out: np.ndarray = backward_pass(*p_m, *q_m, *c3, np.ascontiguousarray(k), np.ascontiguousarray(u), turns, rolls, jails)
        return out
    for _ in range(turns):
        if rolls == 1:
            u = k + _matvec(q_m if jails else p_m, u)
            continue
        pu = _matvec(p_m, u)
        inner = _matvec(q_m, u) if jails else pu
        for _ in range(rolls - 2 if jails else rolls - 1):
            inner = pu + _matvec(c_m, inner)
        u = k + pu + _matvec(c_m, inner) if jails else k + inner
    return u


__all__ = ["ROLL_TAIL", "expected_income", "held_cards", "rent_vectors", "roll_slots", "ruin_within_by_wealth", "state_ruin_pmf"]
