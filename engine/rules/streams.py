"""Explicit random streams for dice and cards.

The engine never touches global randomness: every die and every card order
comes from a stream object passed in. Two implementations:

* :class:`SeededStream`: three independent PCG64 generators spawned from one
  ``SeedSequence``: dice, Chance, Community Chest. The ``r``-th die thrown in
  the game uses the ``r``-th double ``u`` of the dice generator, and shows the
  face ``1 + floor(u * sides)`` for a fair die, or ``1 + #{k : cdf[k] <= u}``
  for a loaded one (inverse-CDF sampling; ``cdf`` holds the cumulative face
  probabilities without the last, so a loaded die is sampled exactly). Deck
  shuffles are ``Generator.permutation(n)`` on that deck's own generator, and
  with-replacement draws (movement-only mode) are ``Generator.integers(n)``.
  Because each stream is indexed by a counter (die number, shuffle number), a
  batch engine can reproduce the same dice and cards for the same seed.
* :class:`CounterStream`: counter-based (stateless) uniforms, the stream of
  the batch kernel (:mod:`engine.sim.rollout`). The ``c``-th uniform of stream
  ``k`` of a game with key ``K`` is a pure function ``u(K, k, c)``, so a game
  can be replayed by any engine, and two states can be played on the same
  dice and cards (common random numbers). See :func:`counter_uniform`.
* :class:`ScriptedStream`: dice and deck orders given as lists, for tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, cast

import numpy as np

from engine.rules.seeding import SeedLike, as_seed_sequence
from models.errors import InvalidArgumentError, MonopolyError
from models.rules import DiceSpec

DECKS = ("chance", "community_chest")
_BLOCK = 256


class RandomStream(Protocol):
    """Where a game's dice and cards come from (:class:`SeededStream`, :class:`CounterStream`,
    :class:`ScriptedStream`).

    Examples
    --------
    Code written against the protocol takes any of the streams:

    >>> from models.rules import DiceSpec
    >>> def rolls(stream: RandomStream, n: int) -> list: return [stream.roll(DiceSpec()) for _ in range(n)]
    >>> rolls(ScriptedStream([(1, 2), (3, 3)]), 2), rolls(SeededStream(42), 2)
    ([(1, 2), (3, 3)], [(6, 6), (6, 2)])
    """

    def begin_turn(self, player: int) -> None:
        """Called by the engine at the start of each turn (each :meth:`engine.rules.game.Game.play_turn`).

        Streams that index dice by (player, turn) use it; the others ignore it.

        Parameters
        ----------
        player:
            The seat about to throw the dice of this turn, if any.
        """
        ...

    def roll(self, dice: DiceSpec) -> tuple[int, ...]:
        """Throw ``dice.count`` dice.

        Parameters
        ----------
        dice:
            The dice (count, sides, face weights).

        Returns
        -------
        tuple of int
            The faces, 1-based.
        """
        ...

    def shuffle(self, deck: str, n: int) -> list[int]:
        """The draw order of a freshly shuffled deck.

        Parameters
        ----------
        deck:
            ``chance`` or ``community_chest``.
        n:
            The number of cards shuffled.

        Returns
        -------
        list of int
            A permutation of ``range(n)``.
        """
        ...

    def draw(self, deck: str, n: int) -> int:
        """One card drawn with replacement (movement-only mode, ``rules.card_draw="replacement"``).

        Parameters
        ----------
        deck:
            ``chance`` or ``community_chest``.
        n:
            The number of cards to draw from.

        Returns
        -------
        int
            An index in ``range(n)``.
        """
        ...


class SeededStream:
    """Dice and cards from a seed (see the module docstring for the exact mapping).

    Its methods are those of :class:`RandomStream`; ``dice_thrown`` counts the dice thrown.

    Parameters
    ----------
    seed:
        Any seed :func:`engine.rules.seeding.as_seed_sequence` takes.

    Raises
    ------
    InvalidArgumentError
        A seed that is not a non-negative integer or a ``SeedSequence``.

    Examples
    --------
    >>> from models.rules import DiceSpec
    >>> stream = SeededStream(42)
    >>> stream.roll(DiceSpec()), stream.shuffle("chance", 5), stream.dice_thrown
    ((6, 6), [0, 4, 1, 2, 3], 2)
    """

    def __init__(self, seed: SeedLike = None) -> None:
        ss = as_seed_sequence(seed)
        dice_ss, chance_ss, chest_ss = ss.spawn(3)
        self._dice = np.random.Generator(np.random.PCG64(dice_ss))
        self._decks = {
            "chance": np.random.Generator(np.random.PCG64(chance_ss)),
            "community_chest": np.random.Generator(np.random.PCG64(chest_ss)),
        }
        self._buffer: list[float] = []
        self._pos = 0
        self._cdf_cache: dict[DiceSpec, list[float]] = {}
        self.dice_thrown = 0

    def _uniform(self) -> float:
        if self._pos >= len(self._buffer):
            # Drawing a block gives the same doubles as drawing them one by one.
            self._buffer = self._dice.random(_BLOCK).tolist()
            self._pos = 0
        u = self._buffer[self._pos]
        self._pos += 1
        self.dice_thrown += 1
        return u

    def _cdf(self, dice: DiceSpec) -> list[float]:
        cdf = self._cdf_cache.get(dice)
        if cdf is None:
            probs = dice.face_probabilities()
            cdf = list(np.cumsum(probs)[:-1])
            self._cdf_cache[dice] = cdf
        return cdf

    def begin_turn(self, player: int) -> None:
        """Dice are sequential here: the turn is not part of their index.

        Parameters
        ----------
        player : int
            The seat about to throw the dice of this turn.
        """

    def roll(self, dice: DiceSpec) -> tuple[int, ...]:
        """Throw ``dice.count`` dice: each face ``1 + floor(u * sides)`` of the next uniform (loaded dice: the inverse CDF).

        Parameters
        ----------
        dice : DiceSpec
            The dice (count, sides, face weights).

        Returns
        -------
        tuple of int
            The faces, 1-based.
        """
        if dice.weights is None:
            sides = dice.sides
            return tuple(1 + int(self._uniform() * sides) for _ in range(dice.count))
        cdf = self._cdf(dice)
        faces = []
        for _ in range(dice.count):
            u = self._uniform()
            faces.append(1 + sum(1 for c in cdf if c <= u))
        return tuple(faces)

    def shuffle(self, deck: str, n: int) -> list[int]:
        """The draw order of a fresh shuffle, from the deck's own generator.

        Parameters
        ----------
        deck : str
            ``chance`` or ``community_chest``.
        n : int
            The number of cards shuffled.

        Returns
        -------
        list of int
            A permutation of ``range(n)``.
        """
        return [int(i) for i in self._decks[deck].permutation(n)]

    def draw(self, deck: str, n: int) -> int:
        """One card drawn with replacement, from the deck's own generator.

        Parameters
        ----------
        deck : str
            ``chance`` or ``community_chest``.
        n : int
            The number of cards to draw from.

        Returns
        -------
        int
            An index in ``range(n)``.
        """
        return int(self._decks[deck].integers(n))


_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
DICE_STREAM = 0
DECK_STREAMS = {"chance": 1, "community_chest": 2}
DRAW_STREAMS = {"chance": 3, "community_chest": 4}
SHUFFLE_SHIFT = 16
"""Fisher-Yates step ``i`` of shuffle ``k`` uses counter ``(k << 16) | i`` (decks up to 65,536 cards)."""


PLAYER_SHIFT, TURN_SHIFT = 40, 16


def dice_counter(player: int, turn: int, die: int) -> int:
    """The dice counter of a die: ``(player + 1) << 40 | turn << 16 | die``.

    Below 2**48 for up to 254 players, 2**24 turns each and 65,536 dice a turn.

    Parameters
    ----------
    player:
        The thrower's seat.
    turn:
        The thrower's turn, counted from 1 from the stream's start.
    die:
        The die within the turn, from 0.

    Returns
    -------
    int
        The counter ``c`` of ``u(K, 0, c)`` (:func:`counter_uniform`).

    Examples
    --------
    >>> dice_counter(0, 1, 0) == (1 << 40) | (1 << 16)
    True
    """
    return ((player + 1) << PLAYER_SHIFT) | (turn << TURN_SHIFT) | die


def mix64(z: int) -> int:
    """The SplitMix64 finaliser: a bijection of 64-bit words with good avalanche, used as a hash.

    ``z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27; z *= 0x94D049BB133111EB;
    z ^= z >> 31``, modulo 2**64.

    Parameters
    ----------
    z:
        A word (taken modulo 2**64).

    Returns
    -------
    int
        The hashed word, in ``[0, 2**64)``.

    References
    ----------
    G. L. Steele, D. Lea and C. H. Flood, "Fast splittable pseudorandom number
    generators", OOPSLA 2014.

    Examples
    --------
    >>> hex(mix64(1))
    '0x5692161d100b05e5'
    """
    z &= _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def counter_uniform(key: int, stream: int, counter: int) -> float:
    """``u(K, k, c) = (mix64(K xor mix64((k << 48) | c)) >> 11) / 2**53``, a double in [0, 1).

    The inner hash is a bijection of ``(stream, counter)`` (for ``counter <
    2**48``), so within one game no two draws share a hash input.

    Parameters
    ----------
    key:
        The game's key ``K`` (:func:`stream_keys`).
    stream:
        ``k``: 0 the dice, 1 and 2 the Chance and Community Chest shuffles, 3 and 4 their
        with-replacement draws.
    counter:
        ``c``: the draw's index within the stream (:func:`dice_counter` for the dice).

    Returns
    -------
    float
        The uniform, a multiple of 2**-53.

    Examples
    --------
    >>> round(counter_uniform(1, 0, 0), 6)
    0.338167
    """
    inner = mix64(((stream << 48) | counter) & _MASK)
    return (mix64(key ^ inner) >> 11) * (1.0 / 9007199254740992.0)


def stream_keys(seed: SeedLike, n_games: int, first: int = 0) -> np.ndarray:
    """Keys of games ``first .. first + n_games - 1`` of a run: ``mix64(B + g * golden)``
    where ``B`` is the first 64-bit word that ``SeedSequence(seed)`` generates and
    ``golden`` is 0x9E3779B97F4A7C15.

    Game ``g``'s key does not depend on how many games are asked for, so a
    larger run extends a smaller one.

    Parameters
    ----------
    seed:
        The run's seed (:func:`engine.rules.seeding.as_seed_sequence`).
    n_games:
        How many keys.
    first:
        The first game's index.

    Returns
    -------
    numpy.ndarray
        ``n_games`` keys, ``uint64``.

    Examples
    --------
    >>> keys = stream_keys(7, 3)
    >>> bool(stream_keys(7, 2, first=1)[0] == keys[1]), int(keys[0])
    (True, 10946952438034858134)
    """
    ss = as_seed_sequence(seed)
    base = int(ss.generate_state(1, np.uint64)[0])
    # mix64 over the whole batch in uint64 arithmetic, which wraps modulo 2**64 as the
    # masked Python integers of :func:`mix64` do (tests/engine/test_rollout.py compares them)
    z = np.uint64(base) + (np.uint64(first) + np.arange(n_games, dtype=np.uint64)) * np.uint64(_GOLDEN)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


class CounterStream:
    """Dice and cards of one game from a 64-bit key (see :func:`counter_uniform`).

    Dice are indexed by who throws them and when: die ``r`` of player ``p``'s
    ``t``-th turn (``t = 1, 2, ...`` counted from the stream's start, ``r``
    from 0 within the turn, jail rolls and a utility card's fresh roll
    included) uses ``u(K, 0, dice_counter(p, t, r))`` and shows ``1 + floor(u *
    sides)`` (loaded dice: the inverse CDF as in :class:`SeededStream`). Two
    games that differ in one event therefore keep throwing the same dice for
    the same player's same turn afterwards, however many dice the event made
    someone throw (common random numbers that stay aligned). Shuffle
    ``k`` of a deck of ``n`` cards is a Fisher-Yates shuffle of ``0..n-1``:
    for ``i = n-1 .. 1``, swap ``i`` with ``floor(u(K, d, (k << 16) | i) * (i +
    1))``, where ``d`` is 1 for Chance and 2 for Community Chest. The batch
    kernel computes the same numbers, so the two engines play the same game.
    The ``c``-th with-replacement draw of a deck of ``n`` is ``floor(u(K, d + 2, c) * n)``.

    Its methods are those of :class:`RandomStream`; ``dice_thrown`` counts the dice thrown.

    Parameters
    ----------
    key:
        The game's 64-bit key (taken modulo 2**64), e.g. from :func:`stream_keys`.

    Examples
    --------
    >>> from models.rules import DiceSpec
    >>> stream = CounterStream(12345)
    >>> stream.begin_turn(0)
    >>> stream.roll(DiceSpec()), stream.shuffle("chance", 5)
    ((1, 5), [0, 3, 4, 2, 1])
    """

    def __init__(self, key: int) -> None:
        self.key = int(key) & _MASK
        self.dice_thrown = 0
        self._shuffles = {name: 0 for name in DECKS}
        self._draws = {name: 0 for name in DECKS}
        self._cdf_cache: dict[DiceSpec, list[float]] = {}
        self._turns: dict[int, int] = {}
        self._mover = 0
        self._in_turn = 0

    def begin_turn(self, player: int) -> None:
        """Count a new turn of ``player``: the next dice are die 0, 1, ... of that turn.

        Parameters
        ----------
        player : int
            The seat about to throw the dice of this turn.
        """
        self._turns[player] = self._turns.get(player, 0) + 1
        self._mover = player
        self._in_turn = 0

    def _uniform(self) -> float:
        counter = dice_counter(self._mover, self._turns.get(self._mover, 0), self._in_turn)
        u = counter_uniform(self.key, DICE_STREAM, counter)
        self._in_turn += 1
        self.dice_thrown += 1
        return u

    def roll(self, dice: DiceSpec) -> tuple[int, ...]:
        """Throw ``dice.count`` dice: the mover's next dice of this turn (the class docstring's mapping).

        Parameters
        ----------
        dice : DiceSpec
            The dice (count, sides, face weights).

        Returns
        -------
        tuple of int
            The faces, 1-based.
        """
        if dice.weights is None:
            return tuple(1 + int(self._uniform() * dice.sides) for _ in range(dice.count))
        cdf = self._cdf_cache.get(dice)
        if cdf is None:
            cdf = [float(c) for c in np.cumsum(dice.face_probabilities())[:-1]]
            self._cdf_cache[dice] = cdf
        faces = []
        for _ in range(dice.count):
            u = self._uniform()
            faces.append(1 + sum(1 for c in cdf if c <= u))
        return tuple(faces)

    def shuffle(self, deck: str, n: int) -> list[int]:
        """The ``k``-th shuffle of ``deck``: a Fisher-Yates shuffle on the deck's counter stream.

        Parameters
        ----------
        deck : str
            ``chance`` or ``community_chest``.
        n : int
            The number of cards shuffled.

        Returns
        -------
        list of int
            A permutation of ``range(n)``.
        """
        k = self._shuffles[deck]
        self._shuffles[deck] = k + 1
        order = list(range(n))
        stream = DECK_STREAMS[deck]
        for i in range(n - 1, 0, -1):
            j = int(counter_uniform(self.key, stream, (k << SHUFFLE_SHIFT) | i) * (i + 1))
            order[i], order[j] = order[j], order[i]
        return order

    def draw(self, deck: str, n: int) -> int:
        """The ``c``-th with-replacement draw of ``deck``: ``floor(u * n)``.

        Parameters
        ----------
        deck : str
            ``chance`` or ``community_chest``.
        n : int
            The number of cards to draw from.

        Returns
        -------
        int
            An index in ``range(n)``.
        """
        c = self._draws[deck]
        self._draws[deck] = c + 1
        return int(counter_uniform(self.key, DRAW_STREAMS[deck], c) * n)


class StreamExhausted(MonopolyError, RuntimeError):
    """A scripted stream ran out of dice or with-replacement draws (a test scripted too few)."""


class ScriptedStream:
    """Dice and deck orders fixed in advance (for tests).

    Parameters
    ----------
    dice:
        Rolls in order, each a tuple of faces, e.g. ``[(3, 4), (6, 6)]``.
    decks:
        Per deck, either one permutation (used for every shuffle) or a list of
        permutations, one per successive shuffle. A shuffle permutes the cards
        available in the deck (in printed order, held Get Out of Jail Free
        cards left out), so with a full deck it is the draw order of card
        indices. Decks not
        given are left in printed order.
    draws:
        Per deck, card indices returned by with-replacement draws (taken modulo the deck size).

    Its methods are those of :class:`RandomStream`: ``roll`` raises
    :class:`StreamExhausted` when the dice are used up and
    :class:`models.errors.InvalidArgumentError` for a roll of the wrong number
    of dice, ``shuffle`` raises :class:`models.errors.InvalidArgumentError`
    for an order that is not a permutation of the cards shuffled, ``draw``
    raises :class:`StreamExhausted` when a deck's draws are used up.

    Examples
    --------
    >>> from models.rules import DiceSpec
    >>> stream = ScriptedStream([(3, 4)], decks={"chance": [2, 0, 1]}, draws={"chance": [5]})
    >>> stream.roll(DiceSpec()), stream.remaining_rolls, stream.shuffle("chance", 3), stream.draw("chance", 16)
    ((3, 4), 0, [2, 0, 1], 5)
    >>> stream.roll(DiceSpec())
    Traceback (most recent call last):
    ...
    engine.rules.streams.StreamExhausted: the scripted dice are used up
    """

    def __init__(
        self,
        dice: Iterable[Sequence[int]] = (),
        decks: Mapping[str, Sequence[int] | Sequence[Sequence[int]]] | None = None,
        draws: Mapping[str, Sequence[int]] | None = None,
    ) -> None:
        self._dice = [tuple(r) for r in dice]
        self._pos = 0
        self._decks: dict[str, list[list[int]]] = {}
        for name, orders in (decks or {}).items():
            # one order (ints) or several (sequences of ints): the first item tells which
            if orders and isinstance(orders[0], (list, tuple)):
                self._decks[name] = [list(o) for o in cast("Sequence[Sequence[int]]", orders)]
            else:
                self._decks[name] = [list(cast("Sequence[int]", orders))]
        self._shuffles = {name: 0 for name in DECKS}
        self._draws = {name: list(v) for name, v in (draws or {}).items()}

    @property
    def remaining_rolls(self) -> int:
        """The scripted rolls not thrown yet."""
        return len(self._dice) - self._pos

    def begin_turn(self, player: int) -> None:
        """Scripted dice come in the given order, whoever throws them.

        Parameters
        ----------
        player : int
            The seat about to throw the dice of this turn.
        """

    def roll(self, dice: DiceSpec) -> tuple[int, ...]:
        """The next scripted roll.

        Parameters
        ----------
        dice : DiceSpec
            The dice (count, sides, face weights).

        Returns
        -------
        tuple of int
            The faces, 1-based.

        Raises
        ------
        StreamExhausted
            The scripted rolls are used up.
        InvalidArgumentError
            The next scripted roll does not have ``dice.count`` dice.
        """
        if self._pos >= len(self._dice):
            raise StreamExhausted("the scripted dice are used up")
        r = self._dice[self._pos]
        self._pos += 1
        if len(r) != dice.count:
            raise InvalidArgumentError(f"scripted roll {r} does not have {dice.count} dice")
        return r

    def shuffle(self, deck: str, n: int) -> list[int]:
        """The deck's next scripted order (the last one again once they run out; printed order when none).

        Parameters
        ----------
        deck : str
            ``chance`` or ``community_chest``.
        n : int
            The number of cards shuffled.

        Returns
        -------
        list of int
            A permutation of ``range(n)``.

        Raises
        ------
        InvalidArgumentError
            The scripted order is not a permutation of ``range(n)``.
        """
        orders = self._decks.get(deck)
        k = self._shuffles[deck]
        self._shuffles[deck] = k + 1
        if not orders:
            return list(range(n))
        order = orders[min(k, len(orders) - 1)]
        if sorted(order) != list(range(n)):
            raise InvalidArgumentError(f"scripted order for {deck} is not a permutation of range({n})")
        return list(order)

    def draw(self, deck: str, n: int) -> int:
        """The deck's next scripted draw, modulo ``n``.

        Parameters
        ----------
        deck : str
            ``chance`` or ``community_chest``.
        n : int
            The number of cards to draw from.

        Returns
        -------
        int
            An index in ``range(n)``.

        Raises
        ------
        StreamExhausted
            The deck's scripted draws are used up.
        """
        queue = self._draws.get(deck)
        if not queue:
            raise StreamExhausted(f"the scripted {deck} draws are used up")
        return queue.pop(0) % n
