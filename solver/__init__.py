"""What to do: analysis, trade generation, re-scoring, bidding, decisions, agents, CLI.

Subpackages, one job each (imports flow ``models <- engine <- solver``):

- :mod:`solver.analysis`: sets, build frontier, position, reserves, values.
- :mod:`solver.trades`: the trade space, CP-SAT and explicit generators, re-scoring, bargaining.
- :mod:`solver.bidding`: Richman/Poorman bidding games and the auction policy.
- :mod:`solver.agents`: the agents that play whole games and their registry.
- :mod:`solver.novelty`: novelty detection, adaptation and trials.
- :mod:`solver.decide`: the decision point (build, trade or hold).
- :mod:`solver.cli`: the ``monopoly-trade`` command line.
"""
