"""Static values of street lots for the rollout policy's ``pricing="value"`` trades.

The baseline agent (``strategic``, :mod:`solver.agents.strategic`) prices a lot that completes
a group by its static value (:mod:`solver.analysis.static_value`): each side's change in
static worth, with the cash set so that both gain the same. The rollout policy's default
(``pricing="premium"``) asks a fixed mark-up on the printed price instead, and then the
answer's simulations and games played by ``strategic`` disagree about which completions
happen and at what price (docs/benchmarks.md, "The rollouts' asking premium in the answer").
This module is the other pricing's numbers, one table per board and rules, read by the
kernel (:mod:`engine.sim._kernel`) and by the reference agent
(:mod:`engine.sim.rollout_policy`) alike.

The streams (after :class:`solver.analysis.static_value.StaticValuation`, which the tests
cross-check). With ``L[s]`` the exact long-run landings on ``s`` per turn
(:func:`engine.chains.markov.exact_landings_per_turn`), ``H = VALUE_HORIZON`` rounds and ``n``
opponents, a street's rent stream, rounded to whole dollars, is::

    LONE[s, n] = round(n H L[s] rent_0(s))                         (outside a set)
    MONO[s, n] = round(max(n H L[s] 2 rent_0(s),
                           max over l = 1..5 of n H L[s] rent_l(s) - l house_cost(s)))

(in a set held completely, unbuilt: the double rent or the best level net of the houses'
cost). A lot's value for its holder is its stream plus its mortgage value when it is
unmortgaged, and ``max(0, stream - the cost of lifting the mortgage)`` when mortgaged
(:func:`lot_value`). ``n`` is the number of seats still in the game less one (at least 1,
as ``StaticValuation.worth``); the table has a column for every ``n`` up to ``MAX_PLAYERS - 1``
(column 0 repeats column 1). Railroads, utilities and other squares have zero rows: the
policy trades street lots only.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from engine.chains.markov import exact_landings_per_turn
from models.board import HOTEL, Board
from models.io.format import MAX_PLAYERS
from models.rules import Rules

VALUE_HORIZON = 30
"""``H``, rounds of rent counted: the baseline's default horizon (``strategic:horizon``)."""
LONE, MONO = 0, 1


@lru_cache(maxsize=16)
def _streams(board: Board, rules: Rules, width: int) -> np.ndarray:
    landings = exact_landings_per_turn(board, rules)
    out = np.zeros((board.size, 2, width), dtype=np.int64)
    for s, sq in enumerate(board.squares):
        if sq.kind != "street":
            continue
        for n in range(width):
            scale = max(1, n) * VALUE_HORIZON * landings[s]
            out[s, LONE, n] = round(scale * sq.rents[0])
            best = scale * 2 * sq.rents[0]
            for level in range(1, HOTEL + 1):
                best = max(best, scale * sq.rents[level] - level * sq.house_cost)
            out[s, MONO, n] = round(best)
    out.setflags(write=False)
    return out


def value_table(board: Board, rules: Rules, n_players: int = MAX_PLAYERS) -> np.ndarray:
    """``VT[s, k, n]``: the rent stream of street ``s`` outside a set (``k = LONE``) and in a set
    held completely (``k = MONO``) against ``n`` opponents (module docstring).

    Parameters
    ----------
    board : Board
        The board.
    rules : Rules
        The rules (the dice and jail rules of the landing chain).
    n_players : int, default MAX_PLAYERS
        The seats the table must serve: it has ``max(n_players, MAX_PLAYERS)`` columns.

    Returns
    -------
    numpy.ndarray
        Read-only int64, shape ``(board.size, 2, max(n_players, MAX_PLAYERS))``; one array per
        board, rules and width (cached).

    Examples
    --------
    >>> from models.board import standard_board
    >>> vt = value_table(standard_board(), Rules())
    >>> vt.shape, int(vt[39, LONE, 3]), int(vt[39, MONO, 3])  # Boardwalk, three opponents
    ((40, 2, 8), 130, 4217)
    """
    return _streams(board, rules, max(n_players, MAX_PLAYERS))


def lot_value(stream: int, mortgage_value: int, lift_cost: int, mortgaged: bool) -> int:
    """A lot's static value for its holder: ``stream + mortgage_value`` when unmortgaged,
    ``max(0, stream - lift_cost)`` when mortgaged (:meth:`StaticValuation.lot_value` for an unbuilt
    lot).

    Examples
    --------
    >>> lot_value(135, 200, 220, False), lot_value(135, 200, 220, True), lot_value(5029, 200, 220, True)
    (335, 0, 4809)
    """
    if mortgaged:
        return max(0, stream - lift_cost)
    return stream + mortgage_value


def half_up(x: int) -> int:
    """``x / 2`` rounded half away from zero, on whole dollars (the kernel's rounding of a split).

    Examples
    --------
    >>> half_up(7), half_up(-7), half_up(6)
    (4, -4, 3)
    """
    return (x + 1) // 2 if x >= 0 else -((-x + 1) // 2)


__all__ = ["LONE", "MONO", "VALUE_HORIZON", "half_up", "lot_value", "value_table"]
