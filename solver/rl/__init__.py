"""Reinforcement-learning interfaces over the reference engine (the optional ``[rl]`` extra).

:mod:`solver.rl.aec_env` holds :class:`MonopolyAECEnv`, a PettingZoo AEC
environment (``docs/rl.md``), built from the modules beside it:

- :mod:`solver.rl.seats`: the seats, the start state and the opponents' agents (the constructor's arguments, checked);
- :mod:`solver.rl.engine_thread`: the engine in a worker thread, the learner seats' questions (:class:`solver.rl.engine_thread.Request`);
- :mod:`solver.rl.actions`: the ``Discrete`` action layout, the legal-action masks and the engine's answer to each action;
- :mod:`solver.rl.observation`: the observation vector and its layout;
- :mod:`solver.rl.render`: the ``"ansi"`` text;
- :mod:`solver.rl.errors`: the environment's errors.

PettingZoo and Gymnasium are optional: they are imported by
:mod:`solver.rl.aec_env` only (the other modules need numpy and the engine
only), and a missing one raises
:class:`solver.rl.errors.RLExtraNotInstalledError`, an :class:`ImportError`
that names ``pip install -e '.[rl]'``. Nothing else in the project imports
this package, and importing the package itself loads neither (the names
below are resolved on first use).
"""

from __future__ import annotations

from typing import Any

__all__ = ["MonopolyAECEnv", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    """Resolve :data:`__all__` lazily from :mod:`solver.rl.aec_env` (which needs the ``[rl]`` extra)."""
    if name in __all__:
        from solver.rl import aec_env

        return getattr(aec_env, name)
    raise AttributeError(f"module 'solver.rl' has no attribute {name!r}")
