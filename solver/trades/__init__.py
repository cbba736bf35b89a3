"""Trade generation and scoring (seed 000, Phase 2).

Modules, one job each:

- :mod:`solver.trades.space`: the trade space, its linear values and rules 1-5.
- :mod:`solver.trades.candidates`: the explicit enumerator and the pruning funnel.
- :mod:`solver.trades.cpsat`: the same space as a CP-SAT model (top-K, 3-way cycles).
- :mod:`solver.trades.rescore`: Monte Carlo re-scoring on common random numbers.
- :mod:`solver.trades.bargaining`: the cash part of a trade by Nash bargaining.
- :mod:`solver.trades.prune_report`: the pruning-validation report (seed 000, Test 3).
"""
