"""Trade generation and scoring (seed 000, Phase 2).

Modules, one job each:

- :mod:`solver.trades.space`: the trade space: its settings, its candidates and their after-states.
- :mod:`solver.trades.values`: the values the rules judge by (``frontier_value + cash``, its linear estimate).
- :mod:`solver.trades.rules`: the five pruning rules and domination.
- :mod:`solver.trades.candidates`: the explicit enumerator and the pruning funnel.
- :mod:`solver.trades.value_model`: the fitted value (each participant's predicted change in win probability).
- :mod:`solver.trades.cpsat`: the same space as a CP-SAT model (top-K, 3-way cycles).
- :mod:`solver.trades.purchases`: single-lot purchases outside the space (denial, consolidation).
- :mod:`solver.trades.rescore`: Monte Carlo re-scoring on common random numbers.
- :mod:`solver.trades.selection`: which re-scored trades qualify, and their ranking.
- :mod:`solver.trades.bargaining`: the cash part of a trade by Nash bargaining.
- :mod:`solver.trades.prune_report`: the pruning-validation report (seed 000, Test 3).
"""
