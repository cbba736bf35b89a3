"""Simulation: the batch Monte Carlo kernel, its rollouts and policy, the horizon value.

Modules, one job each:

- :mod:`engine.sim.rollout`: :func:`~engine.sim.rollout.simulate`, many games at once on
  common random numbers, with a horizon scored by the win model.
- :mod:`engine.sim._kernel`: the compiled game loop (numba).
- :mod:`engine.sim.rollout_tables`: a state and the seats' policies as the kernel's arrays.
- :mod:`engine.sim.rollout_policy`: the fixed rollout policy, and the same policy as an agent
  of the reference engine (the differential test holds the two to the same game).
- :mod:`engine.sim.win_model`, :mod:`engine.sim._features_kernel`: the calibrated
  P(win | state) that scores a game cut at the horizon; its features compiled.
- :mod:`engine.sim._nowrap`: the compile hook that drops negative-index checks.

Imports :mod:`models`, :mod:`engine.rules` and :mod:`engine.chains` only; nothing
here is imported when the package is (the kernel compiles on first use).
"""
