"""Position analysis: what a player holds and what it is worth.

Modules, one job each:

- :mod:`solver.analysis.subgraph`: complete, partial and isolated sets (seed 000, Phase 1).
- :mod:`solver.analysis.frontier`: the exact build frontier (best rent per dollar spent).
- :mod:`solver.analysis.position`: GROWING / CAPPED / LOSING and the numbers behind it.
- :mod:`solver.analysis.reserve`: cash reserves against ruin (one backward ruin pass).
- :mod:`solver.analysis.valuation`: Bellman purchase value with a ruin penalty (seed 004).
- :mod:`solver.analysis.state_value`: seed 002's state value and its safety conditions.
- :mod:`solver.analysis.summary`: the per-player analysis that ``analyze`` prints.
"""
