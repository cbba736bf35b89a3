"""One place that turns user seeds into independent random streams.

Game ``i`` of a run with seed ``S`` is seeded by ``SeedSequence([S, i])``
(numpy's recommended way to derive independent streams, see
https://numpy.org/doc/stable/reference/random/parallel.html). From that
sequence, :func:`game_seeds` spawns one child for the dice-and-cards stream and
one child per seat for the agents' own choices, so that a game replays
identically wherever and in whatever order it is run.
"""

from __future__ import annotations

import numpy as np

from models.errors import InvalidArgumentError

SeedLike = int | np.random.SeedSequence | None


def as_seed_sequence(seed: SeedLike) -> np.random.SeedSequence:
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InvalidArgumentError(f"seed must be a non-negative integer or a SeedSequence, got {seed!r}")
    return np.random.SeedSequence(seed)


def game_seed_sequence(seed: int, game: int = 0) -> np.random.SeedSequence:
    """The seed sequence of game ``game`` of a run seeded ``seed``: ``SeedSequence([seed, game])``."""
    if seed < 0 or game < 0:
        raise InvalidArgumentError("seed and game must be non-negative")
    return np.random.SeedSequence([seed, game])


def game_seeds(seed: SeedLike, n_seats: int) -> tuple[np.random.SeedSequence, list[np.random.SeedSequence]]:
    """(stream seed, one seed per seat) derived from a game's seed.

    The children are derived by ``spawn`` on a fresh copy of the sequence, so
    calling this twice with the same input gives the same children.
    """
    ss = as_seed_sequence(seed)
    fresh = np.random.SeedSequence(ss.entropy, spawn_key=ss.spawn_key, pool_size=ss.pool_size)
    children = fresh.spawn(1 + n_seats)
    return children[0], children[1:]


def make_rng(seed: SeedLike) -> np.random.Generator:
    """A ``numpy.random.Generator`` (PCG64) from any seed-like value."""
    return np.random.Generator(np.random.PCG64(as_seed_sequence(seed)))
