"""The state format's versions and the bounds that parsing, validation and repair share.

A document names its version in ``format`` (docs/state-format.md):
``monopoly-state/1`` is the first format, ``monopoly-state/2`` adds the variant
rules (:data:`models.rules.VARIANT_FIELDS`), the rules ``preset``, the Free
Parking ``pot`` and the bank's cash, ``monopoly-state/3`` a pending question
(``pending``: :mod:`models.io.pending`). All are read; :mod:`models.io.write`
writes the oldest format that holds the state.
"""

from __future__ import annotations

FORMAT = "monopoly-state/2"
"""The format written when a state needs it (variant rules, a pot, a finite bank)."""
FORMAT_V1 = "monopoly-state/1"
"""The first format, still read, and written for every state that needs nothing newer."""
FORMAT_V3 = "monopoly-state/3"
"""Format 2 and a pending question (``pending``), written only for a state that poses one."""
FORMATS = (FORMAT_V1, FORMAT, FORMAT_V3)
"""Every format read."""
DEFAULT_BOARD = "standard-us"
"""The board of a document without ``board``."""
MIN_PLAYERS = 2
"""Fewest players in a state."""
MAX_PLAYERS = 8
"""Most players in a state."""
MAX_JAIL_TURNS = 2
"""Most failed rolls in jail before the forced exit that a document may give (``rules.max_jail_rolls`` <= 3)."""
MAX_DOUBLES = 1000
"""Bound on ``doubles_rolled`` at parsing; :func:`models.io.validate.validate_state` checks it against
the rules (``rules.doubles_to_jail``)."""

__all__ = [
    "DEFAULT_BOARD",
    "FORMAT",
    "FORMATS",
    "FORMAT_V1",
    "FORMAT_V3",
    "MAX_DOUBLES",
    "MAX_JAIL_TURNS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
]
