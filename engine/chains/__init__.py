"""Exact chains: dice distributions, the position chain, expected rent, ruin.

Modules, one job each:

- :mod:`engine.chains.dice`: exact distributions of any dice (sums, doubles).
- :mod:`engine.chains.markov`: the exact position chain (square x doubles x jail):
  landing distributions, long-run frequencies.
- :mod:`engine.chains.ept`: expected rent per opponent turn (EPT).
- :mod:`engine.chains.landing`: landing frequencies by simulation with the reference
  engine, an independent check of the chain, and the shipped table.
- :mod:`engine.chains.bankruptcy`: the abstract ruin chain over (cash, square).
- :mod:`engine.chains.state_risk`: ruin probabilities from a state (every holder, card
  and jail rule), forward and backward.
- :mod:`engine.chains._chain_kernel`: the ruin chains' inner loops compiled, to the bit.

Imports :mod:`models` and :mod:`engine.rules` only.
"""
