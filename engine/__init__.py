"""How a game moves: the rules engine, exact chains, simulation, tournaments.

Subpackages, one job each, and the order of imports between them (a room
imports only the rooms before it, and :mod:`models`; nothing in
:mod:`engine` imports :mod:`solver`):

1. :mod:`engine.rules`: the reference rules engine, the agent protocol, the
   read-only view, legality, and chance as seeded dice and card streams.
2. :mod:`engine.chains`: exact chains: dice distributions, the position
   chain, expected rent per turn, ruin probabilities.
3. :mod:`engine.sim`: the batch Monte Carlo kernel, its rollouts and policy,
   and the calibrated horizon value.
4. :mod:`engine.tournament`: seeded, resumable head-to-head runs on local
   processes or Ray.

``tests/test_layering.py`` holds every module to this order. The flat paths
of 0.1 (``engine.game``, ``engine.markov``, ...) still import, with a
:class:`DeprecationWarning`, until 0.3.0 (:mod:`engine._moved`).
"""

from engine import _moved

_moved.install()
