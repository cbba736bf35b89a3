"""A host stricter than our rules, to check that agents honour the host's legality.

A foreign engine may allow fewer moves than ours (another building rule, a trade it will not
run). :class:`StrictHost` models one, seeded and reproducible:

- its views (:class:`StricterView`) leave out of the legal lists (builds, building sales,
  mortgages, lifts) a share ``drop`` of the moves our rules allow, each (kind, square) decided
  by a hash of the seed, the kind, the square and the position (round, mover, the lot's
  buildings and mortgage): the same answer every time the same question is asked in the
  same position;
- it refuses a share ``refuse`` of the moves and a share ``refuse_trades`` (by default the
  same) of the trades an agent answers although they are listed (and legal under our
  rules), when tried: each refusal is a ``refused`` event to the
  agent (:meth:`engine.rules.game.Game.refusal`), and the phase goes on. The decision is a
  hash of the seed, the seat, the move and the position's holdings (every lot's owner,
  buildings and mortgage: :func:`engine.rules.refusals.position_key`), so asking again in
  the same position is refused again: a repeat is wasted, and counted.

It also records what the agents did with it (:attr:`StrictHost.log`): moves answered that its
view did not list (``unlisted``), refusals, and refused moves asked again in the same
position (``repeats``). ``tests/solver/test_host_legality.py`` asserts that no registry agent
takes an unlisted move or repeats a refused one; ``bench/strict_host.py`` measures what the
host costs ``subgraph`` in play (paired games against the standard host).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.rules.actions import Action, Build, Mortgage, ProposeTrade, SellBuilding, Unmortgage
from engine.rules.game import Game
from engine.rules.refusals import position_key
from engine.rules.streams import SeededStream
from engine.rules.view import GameView
from engine.tournament.run import AgentFactory, result_row, seat_game
from models.board import HOTEL
from models.errors import InvalidArgumentError
from models.state import GameState

LISTS = {Build: "legal_builds", SellBuilding: "legal_building_sales", Mortgage: "legal_mortgages", Unmortgage: "legal_unmortgages"}
"""The view's list for each kind of move on one square."""


def _uniform(*parts: object) -> float:
    """A number in [0, 1) that is a pure function of ``parts`` (SHA-256 of their text)."""
    key = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") / 2**64


class StricterView(GameView):
    """A view whose legal lists leave out a seeded share ``drop`` of our rules' legal moves
    (module docstring).

    Parameters
    ----------
    state, me:
        As :class:`engine.rules.view.GameView`.
    seed:
        The host's seed.
    drop:
        The share of listed moves left out, in [0, 1].

    Examples
    --------
    >>> from models.io import load_state
    >>> state = load_state("instances/late-game-house-shortage.json")
    >>> GameView(state, 0).legal_builds(), StricterView(state, 0, seed=11, drop=0.5).legal_builds()
    ([16, 18, 19], [18, 19])
    """

    def __init__(self, state: GameState, me: int, seed: int, drop: float) -> None:
        super().__init__(state, me)
        self._seed = seed
        self._drop = drop

    def _kept(self, kind: str, squares: list[int]) -> list[int]:
        s = self._s
        return [
            sq
            for sq in squares
            if _uniform(self._seed, kind, sq, s.round, s.to_move, s.houses[sq], s.mortgaged[sq]) >= self._drop
        ]

    def legal_builds(self) -> list[int]:  # noqa: D102 - GameView's, less the dropped share
        return self._kept("build", super().legal_builds())

    def legal_building_sales(self) -> list[int]:  # noqa: D102
        return self._kept("sell", super().legal_building_sales())

    def legal_mortgages(self) -> list[int]:  # noqa: D102
        return self._kept("mortgage", super().legal_mortgages())

    def legal_unmortgages(self) -> list[int]:  # noqa: D102
        return self._kept("lift", super().legal_unmortgages())


@dataclass
class HostLog:
    """What the agents did under a :class:`StrictHost`, per seat."""

    asked: list[int] = field(default_factory=list)
    """Moves answered (``act`` and ``raise_cash``), trades included."""
    unlisted: list[int] = field(default_factory=list)
    """Moves on a square that the seat's view did not list (never allowed)."""
    refused: list[int] = field(default_factory=list)
    """Moves and trades the host refused."""
    repeats: list[int] = field(default_factory=list)
    """Refused moves asked again in the same position."""
    examples: list[str] = field(default_factory=list)
    """The first few unlisted moves and repeats, one line each."""


class StrictHost(Game):
    """A :class:`engine.rules.game.Game` with :class:`StricterView` views that also refuses a
    seeded share of the moves and trades tried (module docstring).

    Parameters
    ----------
    state, agents, stream:
        As :class:`engine.rules.game.Game`.
    seed:
        The host's seed (its lists and refusals).
    drop:
        The share of legal moves left out of the lists, in [0, 1].
    refuse:
        The share of listed moves refused when tried, in [0, 1].
    refuse_trades:
        The share of trades refused when proposed, in [0, 1]; ``None`` (the default) for
        ``refuse``. Apart, the two tell which refusals cost an agent most.
    **kwargs:
        More :class:`engine.rules.game.Game` arguments (``max_rounds``).

    Raises
    ------
    InvalidArgumentError
        ``drop``, ``refuse`` or ``refuse_trades`` outside [0, 1].
    """

    def __init__(
        self, state: GameState, agents: Sequence[Any], stream: SeededStream, *, seed: int, drop: float, refuse: float,
        refuse_trades: float | None = None, **kwargs: Any,
    ) -> None:
        if refuse_trades is None:
            refuse_trades = refuse
        for name, value in (("drop", drop), ("refuse", refuse), ("refuse_trades", refuse_trades)):
            if not 0.0 <= value <= 1.0:
                raise InvalidArgumentError(f"{name}: {value} is outside 0..1")
        self.seed, self.drop, self.refuse, self.refuse_trades = seed, drop, refuse, refuse_trades
        n = len(state.players)
        self.log = HostLog([0] * n, [0] * n, [0] * n, [0] * n, [])
        self._refused_at: list[set[tuple[object, Action]]] = [set() for _ in range(n)]
        super().__init__(state, agents, stream, **kwargs)
        self.views = [StricterView(state, i, seed, drop) for i in range(n)]

    def _can_build_kind(self, q: int, kind: str) -> bool:
        """Whether ``q`` could build a ``kind`` now *by this host's list* (its view's
        ``legal_builds``): the host decides who contests a shortage auction, so a rival is
        never asked to place a building where its own view lists no lot."""
        s = self.state
        return any((s.houses[sq] == HOTEL - 1) == (kind == "hotel") for sq in self.views[q].legal_builds())

    def refusal(self, p: int, action: Action) -> str | None:
        """Refuse a move its view did not list (a bug of the agent, logged), and a seeded share
        ``refuse`` of the rest (``refuse_trades`` of the trades); a refused move asked again in the same position is logged as a
        repeat (and refused again)."""
        log = self.log
        log.asked[p] += 1
        view = self.views[p]
        where = position_key(view)
        if not isinstance(action, ProposeTrade):
            if action.square not in getattr(view, LISTS[type(action)])():
                log.unlisted[p] += 1
                if len(log.examples) < 10:
                    log.examples.append(f"seat {p}: {action} not listed")
                return "not listed by this host"
        if (where, action) in self._refused_at[p]:
            log.repeats[p] += 1
            if len(log.examples) < 10:
                log.examples.append(f"seat {p}: {action} asked again after a refusal in the same position")
            return "refused before in this position"
        share = self.refuse_trades if isinstance(action, ProposeTrade) else self.refuse
        if _uniform(self.seed, "refuse", p, action, where) < share:
            log.refused[p] += 1
            self._refused_at[p].add((where, action))
            return "this host does not allow it"
        return None


def play_strict(
    factories: Sequence[AgentFactory], labels: Sequence[str], seed: int, game: int, max_rounds: int, drop: float, refuse: float,
    refuse_trades: float | None = None,
) -> dict[str, Any]:
    """Game ``game`` of the run seeded ``seed`` under a :class:`StrictHost` seeded by the game's
    number: the same seating, dice and agents' seeds as
    :func:`engine.tournament.run.play_one` (so the two are paired game by game), and the row
    it gives plus the host's log summed over seats (``asked``, ``unlisted``, ``refused``,
    ``repeats``) and its examples.

    Parameters
    ----------
    factories, labels, seed, game, max_rounds:
        As :func:`engine.tournament.run.play_one`.
    drop, refuse, refuse_trades:
        As :class:`StrictHost`.

    Returns
    -------
    dict
        The row.

    Examples
    --------
    >>> from engine.rules.agents import RandomAgent
    >>> row = play_strict([RandomAgent, RandomAgent], ["a", "b"], 7, 1, 30, drop=0.3, refuse=0.3)
    >>> row["seats"], row["unlisted"], row["repeats"], row["refused"] > 0
    (['b', 'a'], 0, 0, True)
    """
    order, agents, state, stream = seat_game(factories, seed, game)
    host = StrictHost(state, agents, stream, seed=seed * 1_000_003 + game, drop=drop, refuse=refuse, refuse_trades=refuse_trades, max_rounds=max_rounds)
    log = host.log
    row = result_row(game, labels, order, host.play())
    row.update(asked=sum(log.asked), unlisted=sum(log.unlisted), refused=sum(log.refused), repeats=sum(log.repeats), examples=log.examples)
    return row
