"""What to do: analysis, trade generation, re-scoring, bidding, decisions, agents, CLI.

Subpackages, one job each (imports flow ``models <- engine <- solver``):

- :mod:`solver.analysis`: sets, build frontier, position, reserves, values.
- :mod:`solver.trades`: the trade space, CP-SAT and explicit generators, re-scoring, bargaining.
- :mod:`solver.bidding`: Richman/Poorman bidding games and the auction policy.
- :mod:`solver.agents`: the agents that play whole games and their registry.
- :mod:`solver.novelty`: novelty detection, adaptation and trials.
- :mod:`solver.decide`: the decision point (build, trade or hold).
- :mod:`solver.cli`: the ``monopoly-trade`` command line.
- :mod:`solver.api`: :func:`solver.solve`, the library entry point.
- :mod:`solver.evaluate`: :func:`solver.evaluate_trade` and :func:`solver.respond`, a given trade judged
  and an offer answered.
"""

from __future__ import annotations

from typing import Any

__all__ = ["OfferError", "SolveError", "SolveResult", "evaluate_trade", "respond", "solve", "warm_up"]

_EVALUATE = ("OfferError", "evaluate_trade", "respond")


def __getattr__(name: str) -> Any:
    """``solver.solve``, ``solver.SolveResult`` and ``solver.SolveError`` (from :mod:`solver.api`),
    ``solver.evaluate_trade``, ``solver.respond`` and ``solver.OfferError`` (from
    :mod:`solver.evaluate`), imported on first use, so that importing a light part of the package
    (the CLI's ``validate``) does not load the simulation and optimisation libraries."""
    if name in _EVALUATE:
        from solver import evaluate

        return getattr(evaluate, name)
    if name in __all__:
        from solver import api

        return getattr(api, name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")
