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
"""A seed: a non-negative integer, a ``numpy.random.SeedSequence``, or ``None`` (fresh entropy)."""


def as_seed_sequence(seed: SeedLike) -> np.random.SeedSequence:
    """The ``SeedSequence`` of a seed: a sequence itself, else ``SeedSequence(seed)``.

    Parameters
    ----------
    seed:
        A :data:`SeedLike`.

    Returns
    -------
    numpy.random.SeedSequence
        The sequence (the same object when given one).

    Raises
    ------
    InvalidArgumentError
        A negative integer, a bool, or anything else that is not a seed.

    Examples
    --------
    >>> as_seed_sequence(5).entropy
    5
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InvalidArgumentError(f"seed must be a non-negative integer or a SeedSequence, got {seed!r}")
    return np.random.SeedSequence(seed)


def game_seed_sequence(seed: int, game: int = 0) -> np.random.SeedSequence:
    """The seed sequence of game ``game`` of a run seeded ``seed``: ``SeedSequence([seed, game])``.

    Parameters
    ----------
    seed:
        The run's seed.
    game:
        The game's index in the run.

    Returns
    -------
    numpy.random.SeedSequence
        The game's sequence.

    Raises
    ------
    InvalidArgumentError
        ``seed`` or ``game`` negative.

    Examples
    --------
    >>> game_seed_sequence(7, 2).entropy
    [7, 2]
    """
    if seed < 0 or game < 0:
        raise InvalidArgumentError("seed and game must be non-negative")
    return np.random.SeedSequence([seed, game])


def game_seeds(seed: SeedLike, n_seats: int) -> tuple[np.random.SeedSequence, list[np.random.SeedSequence]]:
    """(stream seed, one seed per seat) derived from a game's seed.

    The children are derived by ``spawn`` on a fresh copy of the sequence, so
    calling this twice with the same input gives the same children.

    Parameters
    ----------
    seed:
        The game's seed (e.g. :func:`game_seed_sequence`).
    n_seats:
        The number of seats.

    Returns
    -------
    tuple
        The dice-and-cards stream's sequence (child 0), and one sequence per seat (children 1..).

    Raises
    ------
    InvalidArgumentError
        ``seed`` is not a seed.

    Examples
    --------
    >>> stream_seed, seats = game_seeds(42, 3)
    >>> stream_seed.spawn_key, [s.spawn_key for s in seats]
    ((0,), [(1,), (2,), (3,)])
    """
    ss = as_seed_sequence(seed)
    fresh = np.random.SeedSequence(ss.entropy, spawn_key=ss.spawn_key, pool_size=ss.pool_size)
    children = fresh.spawn(1 + n_seats)
    return children[0], children[1:]


def make_rng(seed: SeedLike) -> np.random.Generator:
    """A ``numpy.random.Generator`` (PCG64) from any seed-like value.

    Parameters
    ----------
    seed:
        A :data:`SeedLike`.

    Returns
    -------
    numpy.random.Generator
        The generator.

    Raises
    ------
    InvalidArgumentError
        ``seed`` is not a seed.

    Examples
    --------
    >>> round(float(make_rng(1).random()), 4)
    0.5118
    """
    return np.random.Generator(np.random.PCG64(as_seed_sequence(seed)))
