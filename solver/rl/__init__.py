"""Reinforcement-learning interfaces over the reference engine (the optional ``[rl]`` extra).

:mod:`solver.rl.aec_env` holds :class:`MonopolyAECEnv`, a PettingZoo AEC
environment (``docs/rl.md``). PettingZoo and Gymnasium are optional: they are
imported by :mod:`solver.rl.aec_env` only, and a missing one raises an
:class:`ImportError` that names ``pip install -e '.[rl]'``. Nothing else in the
project imports this package, and importing the package itself loads neither
(the names below are resolved on first use).
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
