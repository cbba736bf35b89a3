"""Open-world novelties (seed 002): detection, adaptation and trials.

The catalogue of novelties (rule changes) is :mod:`solver.novelty.catalogue`.

Modules, one job each:

- :mod:`solver.novelty.monitor`: the novelty monitor and the adaptive agent wrapper.
- :mod:`solver.novelty.trial`: trials with one novelty injected, and their metrics (PNWP, NDA, NRP).
"""
