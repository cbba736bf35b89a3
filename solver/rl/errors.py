"""The errors of the reinforcement-learning environment, importable without the ``[rl]`` extra.

Narrow subclasses of the shared bases of :mod:`models.errors`, each also the
built-in class the environment raised before (so that code catching that
keeps working):

- :class:`RLExtraNotInstalledError`: PettingZoo or Gymnasium is missing when
  :mod:`solver.rl.aec_env` is imported; an :class:`ImportError` as well, as an
  import failure is expected to be.
- :class:`UnknownSeatError`: a seat or agent name of no seat.
- :class:`OpponentSpecError`: an ``opponents`` value that is neither an agent
  spec nor a factory; a :class:`TypeError` as well (the value's type is wrong).

Arguments outside their domain raise :class:`models.errors.InvalidArgumentError`
itself and a step or an observation before ``reset()`` raises
:class:`models.errors.NotReadyError`.

Examples
--------
>>> from solver.rl.errors import UnknownSeatError
>>> from models.errors import UnknownNameError
>>> issubclass(UnknownSeatError, UnknownNameError), issubclass(UnknownSeatError, ValueError)
(True, True)
"""

from __future__ import annotations

from models.errors import ExtraNotInstalledError, InvalidArgumentError, UnknownNameError

__all__ = ["OpponentSpecError", "RLExtraNotInstalledError", "UnknownSeatError"]


class RLExtraNotInstalledError(ExtraNotInstalledError, ImportError):
    """PettingZoo or Gymnasium (the ``[rl]`` extra) is not installed; the message names ``pip install -e '.[rl]'``."""


class UnknownSeatError(UnknownNameError):
    """A seat or agent name that is not ``player_0`` .. ``player_{n-1}`` of this environment (one line)."""


class OpponentSpecError(InvalidArgumentError, TypeError):
    """An ``opponents`` value that is neither an agent spec string nor a factory ``f(seed) -> Agent``."""
