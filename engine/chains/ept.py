"""Expected rent per opponent turn (EPT) from the exact position chain.

For an opponent's landing vector ``l`` over one turn (:class:`engine.chains.markov.
PositionChain` columns: plain landings, nearest-card landings, and those
weighted by the card's multiplier) the rent its owner collects is::

    street s at level k:    rent_k(s) * l_plain[s]         (no card reaches a street
                                                             by a rent-multiplying move)
    railroad s, j held:     rr_rent[j-1] * (l_plain[s] + l_rr_w[s])
    utility s, j held:      mult[j-1] * tot_plain[s] + E[total] * l_ut_w[s]

where ``tot_plain[s]`` is the expected sum of the dice totals of the plain
landings on ``s`` (utility rent is a multiple of the roll that brought the
token) and ``l_rr_w``, ``l_ut_w`` count nearest-card landings weighted by the
card's multiplier (double rent; ten times a fresh roll of mean ``E[total]``).
With ``l`` the long-run landings per turn (``pi L``) this is the long-run EPT;
with the landings of turn ``t`` ahead it is ``E[rent(t)]`` of the Bellman
purchase value. The rent tables are the board's (US rules: an unimproved lot
of a complete group pays double).

Rule variants come in through the chain (:mod:`engine.chains.markov`): the doubles
and jail rules change the landings per turn (a jail turn sat out lands
nowhere and pays no rent), cards are drawn as the chain draws them. EPT is
rent only: the Go salary and its landing bonus, the Free Parking pot and a
finite bank's shortfall are no part of it (the bank never pays rent).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.chains.markov import PositionChain, columns
from models.state import BANK, GameState


def blocks_from(chain: PositionChain, landings: np.ndarray, totals: np.ndarray) -> dict[str, np.ndarray]:
    """Landing blocks (``plain``, ``rr``, ``rr_w``, ``ut``, ``ut_w`` per square and ``tot``)
    from landing rows of ``chain.L`` and the matching dice totals; leading axes (e.g. a turn
    axis) pass through. The input of :func:`street_ept` and friends.

    Parameters
    ----------
    chain : PositionChain
        The position chain of the board and rules.
    landings : numpy.ndarray
        Rows of ``chain.L`` (landings per turn), any leading axes.
    totals : numpy.ndarray
        The matching dice totals of the plain landings, per square.

    Returns
    -------
    dict of str to numpy.ndarray
        ``plain``, ``rr``, ``rr_w``, ``ut``, ``ut_w``, ``jail`` per square, and ``tot``.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> from engine.chains.markov import chain_for
    >>> chain = chain_for(standard_board(), Rules())
    >>> blocks = blocks_from(chain, chain.landings_per_turn, chain.totals_per_turn)
    >>> sorted(blocks), blocks["plain"].shape
    (['jail', 'plain', 'rr', 'rr_w', 'tot', 'ut', 'ut_w'], (40,))
    """
    cols = columns(chain.n)
    out = {k: landings[..., v] for k, v in cols.items()}
    out["tot"] = totals
    return out


def long_run_blocks(chain: PositionChain) -> dict[str, np.ndarray]:
    """The long-run landing blocks of ``chain`` (computed once per chain): :func:`blocks_from` of
    ``pi L``, the landings per turn of the stationary distribution.

    Parameters
    ----------
    chain : PositionChain
        The position chain of the board and rules.

    Returns
    -------
    dict of str to numpy.ndarray
        As :func:`blocks_from`, one value per square.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> from engine.chains.markov import chain_for
    >>> chain = chain_for(standard_board(), Rules())
    >>> round(float(long_run_blocks(chain)["plain"].sum()), 4)  # landings per turn (doubles: more than 1)
    1.0409
    """
    cached = chain.__dict__.get("_long_run_blocks")
    if cached is None:
        cached = blocks_from(chain, chain.landings_per_turn, chain.totals_per_turn)
        chain.__dict__["_long_run_blocks"] = cached
    return cached


def street_ept(chain: PositionChain, square: int, rent: float, blocks: dict[str, np.ndarray] | None = None) -> Any:
    """Expected rent per opponent turn of a street charging ``rent``: ``rent * l_plain[s]``.

    Parameters
    ----------
    chain : PositionChain
        The position chain of the board and rules.
    square : int
        The street's square.
    rent : float
        Its rent at its level (double for an unimproved complete group).
    blocks : dict of str to numpy.ndarray or None
        Landing blocks (:func:`blocks_from`); ``None``: the long-run ones.

    Returns
    -------
    float or numpy.ndarray
        Dollars per opponent turn (an array over the blocks' leading axes).

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> from engine.chains.markov import chain_for
    >>> chain = chain_for(standard_board(), Rules())
    >>> round(float(street_ept(chain, 39, 2000)), 2)  # Boardwalk with a hotel
    57.97
    """
    b = blocks or long_run_blocks(chain)
    return rent * b["plain"][..., square]


def railroad_ept(chain: PositionChain, square: int, rent: float, blocks: dict[str, np.ndarray] | None = None) -> Any:
    """Expected rent per opponent turn of a railroad charging ``rent``: plain landings plus the
    nearest-railroad card's landings at double rent (``l_rr_w``).

    Parameters
    ----------
    chain : PositionChain
        The position chain of the board and rules.
    square : int
        The railroad's square.
    rent : float
        Its rent for the number of railroads its owner holds.
    blocks : dict of str to numpy.ndarray or None
        Landing blocks (:func:`blocks_from`); ``None``: the long-run ones.

    Returns
    -------
    float or numpy.ndarray
        Dollars per opponent turn.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> from engine.chains.markov import chain_for
    >>> chain = chain_for(standard_board(), Rules())
    >>> round(float(railroad_ept(chain, 5, 200)), 2)  # Reading Railroad, four held
    7.18
    """
    b = blocks or long_run_blocks(chain)
    return rent * (b["plain"][..., square] + b["rr_w"][..., square])


def utility_ept(chain: PositionChain, square: int, multiplier: float, blocks: dict[str, np.ndarray] | None = None) -> Any:
    """Expected rent per opponent turn of a utility: ``multiplier`` times the roll that brought the
    token (``tot``), plus the nearest-utility card's ten times a fresh roll (``E[total] l_ut_w``).

    Parameters
    ----------
    chain : PositionChain
        The position chain of the board and rules.
    square : int
        The utility's square.
    multiplier : float
        Its dice multiplier for the number of utilities held (4 or 10 on the US board).
    blocks : dict of str to numpy.ndarray or None
        Landing blocks (:func:`blocks_from`); ``None``: the long-run ones.

    Returns
    -------
    float or numpy.ndarray
        Dollars per opponent turn.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> from engine.chains.markov import chain_for
    >>> chain = chain_for(standard_board(), Rules())
    >>> round(float(utility_ept(chain, 28, 10)), 2)  # Water Works, both held
    2.18
    """
    b = blocks or long_run_blocks(chain)
    return multiplier * b["tot"][..., square] + chain.mean_total * b["ut_w"][..., square]


def ept_table(chain: PositionChain) -> dict[str, list[float]]:
    """The ``odds`` table: street -> levels 0..5 (group complete in one hand),
    railroad -> 1..4 held, utility -> 1..2 held, colour group -> whole group at
    even levels 0..5. Dollars per opponent turn, long run.

    Parameters
    ----------
    chain : PositionChain
        The position chain of the board and rules.

    Returns
    -------
    dict of str to list of float
        By square or group name, one figure per level or count.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> from engine.chains.markov import chain_for
    >>> chain = chain_for(standard_board(), Rules())
    >>> [round(x, 2) for x in ept_table(chain)["Boardwalk"]]  # level 0: the group's double rent
    [2.9, 5.8, 17.39, 40.58, 49.28, 57.97]
    """
    board = chain.board
    b = long_run_blocks(chain)
    out: dict[str, list[float]] = {}
    n_rr, n_ut = len(board.railroads), len(board.utilities)
    for sq in board.squares:
        if sq.kind == "street":
            rents = [2 * sq.rents[0], *sq.rents[1:]]
            out[sq.name] = [float(street_ept(chain, sq.index, r, b)) for r in rents]
        elif sq.kind == "railroad":
            out[sq.name] = [float(railroad_ept(chain, sq.index, r, b)) for r in board.railroad_rents[:n_rr]]
        elif sq.kind == "utility":
            out[sq.name] = [float(utility_ept(chain, sq.index, m, b)) for m in board.utility_multipliers[:n_ut]]
    for group in board.street_groups:
        lots = [board.squares[s].name for s in board.groups[group]]
        out[group] = [sum(out[name][k] for name in lots) for k in range(6)]
    return out


def state_ept(chain: PositionChain, state: GameState, blocks: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """EPT of every square for its current owner, with the state's buildings,
    mortgages, monopolies (``set_size`` honoured) and railroad/utility counts.

    ``blocks`` defaults to the long-run landings; pass the blocks of one turn's
    landings for a time-dependent version. Unowned or mortgaged squares: 0.

    Parameters
    ----------
    chain : PositionChain
        The position chain of the board and rules.
    state : GameState
        The position: owners, buildings, mortgages.
    blocks : dict of str to numpy.ndarray or None
        Landing blocks (:func:`blocks_from`); ``None``: the long-run ones.

    Returns
    -------
    numpy.ndarray
        Dollars per opponent turn for each square (the blocks' leading axes first).

    Examples
    --------
    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> ept = state_ept(chain_for(state.board, state.rules), state)
    >>> round(float(ept[24]), 2), round(float(ept.sum()), 2)  # Illinois Avenue's hotel; the board
    (32.31, 276.15)
    """
    b = blocks or long_run_blocks(chain)
    board = state.board
    shape = b["plain"].shape[:-1]
    out = np.zeros((*shape, board.size))
    for sq in board.property_squares:
        owner = state.owner[sq]
        if owner == BANK or state.mortgaged[sq]:
            continue
        s = board.squares[sq]
        if s.kind == "street":
            assert s.group is not None
            level = state.houses[sq]
            rent = s.rents[level] if level else s.rents[0] * (2 if state.has_monopoly(owner, s.group) else 1)
            out[..., sq] = street_ept(chain, sq, rent, b)
        elif s.kind == "railroad":
            count = state.count_in_group(owner, "railroad")
            out[..., sq] = railroad_ept(chain, sq, board.railroad_rents[count - 1], b)
        else:
            count = state.count_in_group(owner, "utility")
            out[..., sq] = utility_ept(chain, sq, board.utility_multipliers[count - 1], b)
    return out


def player_landing_blocks(chain: PositionChain, state: GameState, player: int, rounds: int) -> dict[str, np.ndarray]:
    """Landing blocks of ``player``'s next ``rounds`` turns from where it stands
    (arrays with a leading turn axis; pass them to :func:`state_ept`).

    Parameters
    ----------
    chain : PositionChain
        The position chain of the board and rules.
    state : GameState
        The position.
    player : int
        The seat whose landings are wanted.
    rounds : int
        How many turns ahead (the first is the coming one).

    Returns
    -------
    dict of str to numpy.ndarray
        As :func:`blocks_from`, with a leading axis of ``rounds`` turns.

    Examples
    --------
    Ann stands on Community Chest, seven squares (the likeliest roll) before Bob's hotel on
    Illinois Avenue: the coming turn is the dangerous one.

    >>> from models.io import load_state
    >>> from engine.chains.markov import chain_for
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> chain = chain_for(state.board, state.rules)
    >>> blocks = player_landing_blocks(chain, state, 0, 3)
    >>> blocks["plain"].shape, [round(float(x), 2) for x in state_ept(chain, state, blocks)[:, 24]]
    ((3, 40), [165.67, 13.32, 9.67])
    """
    pl = state.players[player]
    start = chain.state_index(pl.position, pl.in_jail, pl.jail_turns)
    dist = chain.distributions(start, max(rounds - 1, 0))[:rounds]
    return blocks_from(chain, dist @ chain.L, dist @ chain.landing_totals)
