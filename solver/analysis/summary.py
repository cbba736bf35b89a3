"""One player's position analysis in one dict, as ``monopoly-trade analyze`` prints it: the
player's subgraph (:mod:`solver.analysis.subgraph`), its position (:mod:`solver.analysis.position`),
its exact build frontier sampled every $100 or so (:mod:`solver.analysis.frontier`) and the
position-aware value of each lot it holds or needs in a group without buildings; ``bench/analyze.py``
times the same function.
"""

from __future__ import annotations

from typing import Any

from engine.chains.markov import PositionChain
from models.state import GameState
from solver.analysis.frontier import build_frontier
from solver.analysis.funded_build import funded_plan
from solver.analysis.position import assess_position, frontier_value, property_value
from solver.analysis.subgraph import analyze


def player_analysis(state: GameState, player: int, chain: PositionChain) -> dict[str, Any]:
    """The analysis of ``player`` in ``state`` that ``monopoly-trade analyze`` reports.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        Index of the analysed player in ``state.players``.
    chain : PositionChain
        The board's position chain (``PositionChain(state.board, state.rules, "long")``),
        shared by every player of the state.

    Returns
    -------
    dict
        ``subgraph``: complete, partial and isolated sets (``PlayerSubgraph.to_dict``);
        ``position``: GROWING, CAPPED or LOSING and its numbers (``Position.to_dict``);
        ``frontier``: ``unit`` (dollars per budget step), ``current_rent`` (rent per round
        now) and ``table``, rows ``{"cash", "rent_gain"}`` for every budget that is a
        multiple of about $100, and the last one;
        ``property_values``: lot name -> its position-aware value in dollars (rounded to
        cents), for the lots the player holds or needs in groups without buildings;
        ``build_plan``: the funded build plan (:func:`solver.analysis.funded_build.funded_plan`,
        ``FundedPlan.to_dict``): the levels, the lots it mortgages, the cash it keeps and the
        ruin figures that chose it (``levels`` empty: holding is best);
        ``_frontier``: the :class:`~solver.analysis.frontier.Frontier` itself, for plotting
        (not JSON-serialisable: ``analyze`` drops it before printing).
    """
    graph = analyze(state, player)
    frontier = build_frontier(state, player, chain)
    position = assess_position(state, player, chain=chain, frontier=frontier)
    step = max(frontier.unit, 100 // frontier.unit * frontier.unit or frontier.unit)
    table = [
        {"cash": int(b), "rent_gain": float(frontier.gains[i])}
        for i, b in enumerate(frontier.budgets)
        if int(b) % step == 0 or i == len(frontier.budgets) - 1
    ]
    names = state.board.squares
    candidates = [sq for sq in graph.properties if not state.group_has_buildings(state.group_of(sq))]
    candidates += [sq for p in graph.partial_sets for sq in p.needed if not state.group_has_buildings(state.group_of(sq))]
    base = frontier_value(state, player, chain=chain)
    values = {names[sq].name: round(property_value(state, player, sq, base, chain=chain), 2) for sq in candidates}
    return {
        "subgraph": graph.to_dict(state),
        "position": position.to_dict(),
        "frontier": {"unit": frontier.unit, "current_rent": frontier.current, "table": table},
        "property_values": values,
        "build_plan": funded_plan(state, player, chain, frontier=frontier).to_dict(state),
        "_frontier": frontier,
    }
