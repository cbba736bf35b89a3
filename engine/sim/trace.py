"""Two engines, one truth: the same game played by the batch kernel and by the reference engine, turn by turn.

:func:`reference_trace` plays a game with the reference engine
(:class:`engine.rules.game.Game`, :class:`engine.sim.rollout_policy.PolicyAgent`,
:class:`engine.rules.streams.CounterStream`) and :func:`kernel_trace` the same game
(the same stream key) with the kernel of :mod:`engine.sim.rollout`; the
differential test (``tests/engine/test_rollout_differential.py``) demands
identical rows after every turn. A row (:class:`TraceLayout`) holds the doubles
counter after each roll of the turn, then the whole state: cash, positions,
jail, held Get Out of Jail Free cards, buildings, mortgages, the Free Parking
pot and the bank's cash, both decks' order, held cards and with-replacement
draws, and the winner and end reason once the game is over. Only the kernel's
trace call records them: :func:`engine.sim.rollout.simulate` passes a trace
without rows, and its turns run the version of :func:`engine.sim._kernel.play_turn`
compiled without recording. :data:`REASON_CODES` maps the engine's end
reasons to the kernel's codes (the simulation counts its games' ends by them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from engine.rules.game import Game, Observer
from engine.rules.streams import CounterStream
from engine.sim import _kernel
from engine.sim.rollout_policy import PolicyAgent, PolicyLike, seat_policies
from engine.sim.rollout_tables import DECK_NAMES, encode
from models.state import GameState, Phase

GAME_FIELDS = ("to_move", "round", "phase", "doubles", "dice_thrown", "over", "winner", "reason", "pot", "bank_cash")
PLAYER_FIELDS = ("cash", "position", "in_jail", "bankrupt", "jail_turns", "jail_cards", "net_worth")
DECK_FIELDS = ("shuffles", "left", "draws")
REASON_CODES = {
    "bankruptcy": _kernel.REASON_BANKRUPTCY,
    "round_cap": _kernel.REASON_CAP,
    "round_limit": _kernel.REASON_LIMIT,
    "cash_target": _kernel.REASON_TARGET,
}
"""The reference engine's end reasons (``GameResult.reason``) as the kernel's codes."""
assert (len(GAME_FIELDS), len(PLAYER_FIELDS), len(DECK_FIELDS)) == (_kernel.TRACE_GAME, _kernel.TRACE_PLAYER, _kernel.TRACE_DECK)


@dataclass(frozen=True)
class TraceLayout:
    """The columns of a row of :func:`kernel_trace` and :func:`reference_trace` (one row per turn).

    ``rolls`` (column 0) counts the rolls of the turn (a jail turn counts as
    one, with the roll it may lead to); columns ``1 .. TRACE_ROLLS`` hold
    the doubles counter (``GameState.doubles_rolled``) after each of them and
    its consequences (-1 padding; a turn's rolls past :data:`engine.sim._kernel.TRACE_ROLLS`
    are counted, not recorded). Then the state after the turn:
    :data:`GAME_FIELDS` (``phase`` 0 at the start of a turn; ``winner`` and
    ``reason``, :data:`REASON_CODES`, are -1 until the game is over;
    ``bank_cash`` -1 when the bank never runs out), per
    player :data:`PLAYER_FIELDS` and ``held_width`` (deck, card) pairs, the
    Get Out of Jail Free cards it holds in the order received (the last is
    used first; -1 padding); owner, level and mortgage flag per square; per
    deck (Chance, then Community Chest) :data:`DECK_FIELDS` (shuffles so
    far, cards left before the next shuffle, with-replacement draws so far),
    the cards left in draw order
    (``deck_width`` columns, -1 padding) and a held flag per card.

    Attributes
    ----------
    n_players, n_squares : int
        The state's players and squares.
    held_width : int
        Get Out of Jail Free cards a player can hold (the decks' number, at least 1).
    deck_width : int
        The larger deck's size.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> layout = TraceLayout.of(state)
    >>> layout.width, layout.player(1), layout.squares, layout.deck(0)
    (253, 30, 63, 183)
    >>> names = layout.names()
    >>> names[layout.player(2)], names[layout.squares + 1], len(names) == layout.width
    ('player 2 cash', 'square 1 owner', True)
    """

    n_players: int
    n_squares: int
    held_width: int
    deck_width: int

    @classmethod
    def of(cls, state: GameState) -> TraceLayout:
        """The layout of ``state``'s rows.

        Parameters
        ----------
        state : GameState
            The state the trace starts from (players, board, decks).

        Returns
        -------
        TraceLayout
            Its widths.
        """
        board = state.board
        decks = [board.deck(name) for name in DECK_NAMES]
        pool = sum(c.action == "jail_free" for cards in decks for c in cards)
        return cls(len(state.players), board.size, max(1, pool), max(1, *(len(d) for d in decks)))

    @property
    def game(self) -> int:
        """First column of :data:`GAME_FIELDS` (after the rolls and the doubles counters)."""
        return _kernel.TRACE_STATE

    def player(self, q: int) -> int:
        """First column of player ``q`` (:data:`PLAYER_FIELDS`, then its held cards).

        Parameters
        ----------
        q : int
            The seat (``n_players``: the column after the last player's).

        Returns
        -------
        int
            The column.
        """
        return self.game + len(GAME_FIELDS) + q * (len(PLAYER_FIELDS) + 2 * self.held_width)

    def held(self, q: int) -> slice:
        """Columns of player ``q``'s held cards, ``(deck, card)`` pairs.

        Parameters
        ----------
        q : int
            The seat.

        Returns
        -------
        slice
            ``2 * held_width`` columns.
        """
        start = self.player(q) + len(PLAYER_FIELDS)
        return slice(start, start + 2 * self.held_width)

    @property
    def squares(self) -> int:
        """First column of the owners; levels and mortgage flags follow."""
        return self.player(self.n_players)

    def deck(self, d: int) -> int:
        """First column of deck ``d`` (:data:`DECK_FIELDS`, then its pile and its held flags).

        Parameters
        ----------
        d : int
            0 for Chance, 1 for Community Chest (2: the end of the row).

        Returns
        -------
        int
            The column.
        """
        return self.squares + 3 * self.n_squares + d * (len(DECK_FIELDS) + 2 * self.deck_width)

    def pile(self, d: int) -> slice:
        """Columns of deck ``d``'s cards left, in draw order.

        Parameters
        ----------
        d : int
            0 for Chance, 1 for Community Chest.

        Returns
        -------
        slice
            ``deck_width`` columns.
        """
        start = self.deck(d) + len(DECK_FIELDS)
        return slice(start, start + self.deck_width)

    def deck_held(self, d: int) -> slice:
        """Columns of deck ``d``'s held flags, one per card.

        Parameters
        ----------
        d : int
            0 for Chance, 1 for Community Chest.

        Returns
        -------
        slice
            ``deck_width`` columns.
        """
        start = self.deck(d) + len(DECK_FIELDS) + self.deck_width
        return slice(start, start + self.deck_width)

    @property
    def width(self) -> int:
        """Columns per row."""
        return self.deck(2)

    def names(self) -> list[str]:
        """A name per column, for messages.

        Returns
        -------
        list of str
            ``width`` names (``"player 2 cash"``, ``"square 1 owner"``, ...).
        """
        out = ["rolls"] + [f"doubles after roll {i}" for i in range(_kernel.TRACE_ROLLS)] + list(GAME_FIELDS)
        for q in range(self.n_players):
            out += [f"player {q} {f}" for f in PLAYER_FIELDS]
            out += [f"player {q} held card {k} {f}" for k in range(self.held_width) for f in ("deck", "card")]
        for f in ("owner", "level", "mortgaged"):
            out += [f"square {sq} {f}" for sq in range(self.n_squares)]
        for d, name in enumerate(DECK_NAMES):
            out += [f"{name} {f}" for f in DECK_FIELDS]
            out += [f"{name} pile {i}" for i in range(self.deck_width)]
            out += [f"{name} held {i}" for i in range(self.deck_width)]
        assert len(out) == self.width
        return out


def kernel_trace(state: GameState, key: int, horizon: int, policy: PolicyLike = None) -> np.ndarray:
    """The kernel's rows (:class:`TraceLayout`), one per turn of the game with stream key ``key``.

    Parameters
    ----------
    state : GameState
        The start.
    key : int
        The game's stream key (:class:`engine.rules.streams.CounterStream`).
    horizon : int
        Rounds to play.
    policy : RolloutPolicy, sequence of them, or None
        As :func:`simulate`.

    Returns
    -------
    numpy.ndarray
        One row per turn, int64.

    Examples
    --------
    The differential test in one line: the kernel and the reference engine play the same
    game, turn by turn.

    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> rows = kernel_trace(state, 12345, 2)
    >>> rows.shape, bool((rows == reference_trace(state, 12345, 2)).all())
    ((6, 253), True)
    """
    tables = encode(state, policy, state.round + horizon)
    layout = TraceLayout.of(state)
    assert (tables.X0[7].shape[1], tables.X0[5].shape[1]) == (layout.held_width, layout.deck_width)
    n_pl = tables.n_players
    cap = 8 * (horizon + 1) * n_pl * 4 + 64
    trace = np.zeros((cap, layout.width), dtype=np.int64)
    keys = np.array([key], dtype=np.uint64)
    info = np.empty((1, 3), dtype=np.int64)
    _kernel.run_batch(
        tables.B, tables.X0, tables.work(), keys, np.empty(1, np.int64), np.empty((1, n_pl), np.int64), info, trace, np.empty((0, 1), np.int64)
    )
    return trace[: int(info[0, 0])]


def _reference_row(game: Game, layout: TraceLayout, rolls: list[int], stream: CounterStream) -> list[int]:
    s = game.state
    res = game.result
    row = [len(rolls)] + (rolls + [-1] * _kernel.TRACE_ROLLS)[: _kernel.TRACE_ROLLS]
    row += [s.to_move, s.round, int(s.phase != Phase.START), s.doubles_rolled, stream.dice_thrown, int(game.over)]
    if res is None:
        row += [-1, -1]
    else:
        row += [res.winner_index if res.winner_index is not None else -1, REASON_CODES[res.reason]]
    row += [s.pot, -1 if s.bank_cash is None else s.bank_cash]
    for q, p in enumerate(s.players):
        row += [p.cash, p.position, int(p.in_jail), int(p.bankrupt), p.jail_turns, p.jail_cards, s.net_worth(q)]
        held = [v for deck, idx in game.held_cards[q] for v in (DECK_NAMES.index(deck), idx)]
        row += held + [-1] * (2 * layout.held_width - len(held))
    row += list(s.owner) + list(s.houses) + [int(m) for m in s.mortgaged]
    for name in DECK_NAMES:
        deck = game.decks[name]
        pile = list(reversed(deck._pile))  # the next card is at the end of _pile
        row += [stream._shuffles[name], len(pile), stream._draws[name]]
        row += pile + [-1] * (layout.deck_width - len(pile))
        row += [int(i in deck.held) for i in range(layout.deck_width)]
    return row


def _count_rolls(game: Game, rolls: list[int]) -> None:
    """Append ``state.doubles_rolled`` to ``rolls`` after every roll of a turn
    (``Game._roll_and_move``, or ``Game._jail_turn`` with the roll it may lead
    to), as the kernel's :func:`engine.sim._kernel.play_turn` records it."""
    depth = 0

    def outer(method: Callable[[int], bool]) -> Callable[[int], bool]:
        def wrapped(p: int) -> bool:
            nonlocal depth
            depth += 1
            try:
                return method(p)
            finally:
                depth -= 1
                if depth == 0:
                    rolls.append(game.state.doubles_rolled)

        return wrapped

    for name in ("_roll_and_move", "_jail_turn"):
        setattr(game, name, outer(getattr(game, name)))


def reference_game(
    state: GameState,
    key: int,
    horizon: int,
    policy: PolicyLike = None,
    observers: Iterable[Observer] = (),
) -> Game:
    """Game ``key`` of the kernel as a reference-engine game, not yet played: a copy of
    ``state``, the policy's agents, the counter stream of ``key`` and the horizon as
    the round cap.

    Parameters
    ----------
    state : GameState
        The start (copied).
    key : int
        The game's stream key.
    horizon : int
        Rounds to play.
    policy : RolloutPolicy, sequence of them, or None
        As :func:`simulate`.
    observers : iterable of Observer
        Told every event of the game.

    Returns
    -------
    Game
        Ready to :meth:`~engine.rules.game.Game.play`.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> result = reference_game(state, 12345, 2).play()
    >>> result.reason, result.rounds - state.round
    ('round_cap', 2)
    """
    s = state.copy()
    policies = seat_policies(policy, len(s.players))
    agents = [PolicyAgent(policies=policies, key=key) for _ in s.players]
    return Game(s, agents, CounterStream(key), max_rounds=s.round + horizon, observers=observers)


def reference_trace(
    state: GameState,
    key: int,
    horizon: int,
    policy: PolicyLike = None,
    observers: Iterable[Observer] = (),
) -> np.ndarray:
    """The same game as :func:`kernel_trace`, played by the reference engine
    (``observers`` see its events); the same rows.

    Parameters
    ----------
    state : GameState
        The start (copied).
    key : int
        The game's stream key.
    horizon : int
        Rounds to play.
    policy : RolloutPolicy, sequence of them, or None
        As :func:`simulate`.
    observers : iterable of Observer
        Told every event of the game.

    Returns
    -------
    numpy.ndarray
        One row per turn (:class:`TraceLayout`), int64.

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> reference_trace(state, 12345, 2).shape
    (6, 253)
    """
    game = reference_game(state, key, horizon, policy, observers)
    stream = game.stream
    assert isinstance(stream, CounterStream)  # reference_game's stream (for the type checker)
    s = game.state
    layout = TraceLayout.of(s)
    rolls: list[int] = []
    _count_rolls(game, rolls)
    rows = []
    while not game.over:
        rolls.clear()
        game.play_turn()
        rows.append(_reference_row(game, layout, rolls, stream))
    return np.array(rows, dtype=np.int64).reshape(len(rows), layout.width)


__all__ = [
    "DECK_FIELDS",
    "GAME_FIELDS",
    "PLAYER_FIELDS",
    "REASON_CODES",
    "TraceLayout",
    "kernel_trace",
    "reference_game",
    "reference_trace",
]
