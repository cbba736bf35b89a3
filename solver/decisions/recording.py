"""Decision points saved from agent games: the state posing a question, the agent's memory before
its answer, the answer and the memory after it (what ``solve --agent`` must reproduce).

:class:`RecordingAgent` is the ``subgraph`` agent that, at each question a state can pose
(:func:`solver.decisions.agent.question_of`: buy, an auction, the jail choice, the act phase, an
offer, a debt, a building shortage auction), saves a :class:`DecisionPoint`: the state the engine
showed it, with the question as its pending question where the state format has one (state
format 3); the settings' spec; its memory before and after (JSON); its answer. Lifting on receipt
and placing a won building have no state form (the engine asks them in the middle of a trade or
an auction) and are not saved. :func:`replay` answers a point with ``solve``'s library call
(:func:`solver.solve` with ``agent`` and ``memory``) and says whether the answer and the memory
after it are the agent's. ``tests/solver/test_agent_replay.py`` and ``bench/agent_replay.py``
replay points saved from games.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from engine.rules.seeding import SeedLike
from engine.rules.view import GameView
from models.errors import InvalidStateError, MonopolyError
from models.io import load_state, state_to_dict, validate_state
from models.pending import PendingAuction, PendingBuildingAuction, PendingDebt, PendingOffer
from models.state import GameState
from models.trade import Trade
from solver.agents.subgraph_agent import SubgraphTradeAgent
from solver.decisions.agent import question_of
from solver.decisions.choice import AgentChoice


@dataclass(frozen=True)
class DecisionPoint:
    """One question the agent answered in play, as ``solve --agent`` can be asked it.

    Attributes
    ----------
    spec : str
        The agent's settings as a registry spec.
    player : int
        Its seat.
    question : str
        The question (:data:`solver.decisions.agent.QUESTIONS`).
    state : dict
        The state document posing it.
    memory : dict
        Its memory before the answer (:meth:`solver.decisions.memory.AgentMemory.to_dict`).
    action : str
        Its answer in one word.
    answer : object
        Its answer as JSON (:meth:`solver.decisions.choice.AgentChoice.answer_json`).
    memory_after : dict
        Its memory after the answer.

    Examples
    --------
    >>> p = DecisionPoint("subgraph", 0, "jail", {}, {}, "pay", "pay", {})
    >>> DecisionPoint.from_dict(p.to_dict()) == p
    True
    """

    spec: str
    player: int
    question: str
    state: dict[str, Any]
    memory: dict[str, Any]
    action: str
    answer: Any
    memory_after: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (one line of a points file).

        Returns
        -------
        dict
        """
        return asdict(self)

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> DecisionPoint:
        """The point of :meth:`to_dict`'s form.

        Parameters
        ----------
        doc : mapping
            The JSON form.

        Returns
        -------
        DecisionPoint
        """
        return cls(**{k: doc[k] for k in ("spec", "player", "question", "state", "memory", "action", "answer", "memory_after")})


def posed(question: str, view: GameView, me: int, arg: Any) -> GameState | None:
    """The state that poses ``question`` to ``me`` as the engine asked it, or ``None`` when the
    state format cannot say it (lifting on receipt, placing a building, a question the view's
    state does not pose).

    Parameters
    ----------
    question : str
        The question.
    view : GameView
        The view the engine asked it on.
    me : int
        The seat asked.
    arg : object
        The question's argument (:func:`solver.decisions.agent.ask`).

    Returns
    -------
    GameState or None

    Examples
    --------
    >>> from models.io import load_state
    >>> view = GameView(load_state("instances/midgame-no-monopolies.json"), 2)
    >>> posed("auction", view, 2, 39).pending, posed("jail", view, 2, None)
    (PendingAuction(square=39, bidders=(0, 1, 2, 3)), None)
    """
    state = view.copy()
    active = tuple(state.active_players())
    if question == "auction":
        state.pending = PendingAuction(arg, active)
    elif question == "offer":
        trade: Trade = arg
        proposer = next(n for n in trade.participants() if n != state.players[me].name)
        state.pending = PendingOffer(trade, state.player_index(proposer), me)
    elif question == "debt":
        state.pending = PendingDebt(me, arg, None)
    elif question == "building_auction":
        supply = state.rules.houses if arg == "house" else state.rules.hotels
        left = supply - (state.houses_on_board() if arg == "house" else state.hotels_on_board())
        if not 1 <= left < len(active):
            return None
        state.pending = PendingBuildingAuction(arg, me, active)
    elif question not in ("buy", "jail", "act"):
        return None
    asked = question_of(state, me)
    if asked[0] != question:
        return None
    try:
        validate_state(state)
    except InvalidStateError:  # a moment the format cannot say (the player to move just went bankrupt, say)
        return None
    return state


class RecordingAgent(SubgraphTradeAgent):
    """The ``subgraph`` agent, saving a :class:`DecisionPoint` at each question a state can pose
    (module docstring); it plays exactly as the agent.

    Parameters
    ----------
    seed : int, SeedSequence or None
        As :class:`SubgraphTradeAgent`.
    **options
        Its options.

    Attributes
    ----------
    points : list of DecisionPoint
        The points saved, in order.

    Examples
    --------
    >>> from models.io import load_state
    >>> agent = RecordingAgent(0)
    >>> s = load_state("instances/jailed-early.json")
    >>> agent.start_game(0, tuple(p.name for p in s.players))
    >>> agent.jail_choice(GameView(s, 0)), agent.points[0].question, agent.points[0].answer
    ('pay', 'jail', 'pay')
    """

    def __init__(self, seed: SeedLike = None, **options: Any) -> None:
        super().__init__(seed, **options)
        self.points: list[DecisionPoint] = []

    def _ask(self, question: str, view: GameView, arg: Any = None) -> AgentChoice:
        state = posed(question, view, self.me, arg)
        if state is None:
            return super()._ask(question, view, arg)
        before = self.memory.to_dict()
        choice = super()._ask(question, view, arg)
        self.points.append(
            DecisionPoint(
                self.settings.spec(), self.me, question, state_to_dict(state), before, choice.action, choice.answer_json(state),
                self.memory.to_dict(),
            )
        )
        return choice


class ReplayError(MonopolyError, ValueError):
    """A points file that cannot be read (one line)."""


def save_points(points: Iterable[DecisionPoint], path: str | os.PathLike[str]) -> int:
    """Write points as JSON lines.

    Parameters
    ----------
    points : iterable of DecisionPoint
        The points.
    path : path
        The file (replaced).

    Returns
    -------
    int
        How many were written.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "points.jsonl")
    >>> save_points([DecisionPoint("subgraph", 0, "jail", {}, {}, "pay", "pay", {})], path), len(list(load_points(path)))
    (1, 1)
    """
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for p in points:
            f.write(json.dumps(p.to_dict()) + "\n")
            n += 1
    return n


def load_points(path: str | os.PathLike[str]) -> Iterator[DecisionPoint]:
    """The points of a JSON-lines file written by :func:`save_points`.

    Parameters
    ----------
    path : path
        The file.

    Yields
    ------
    DecisionPoint

    Raises
    ------
    ReplayError
        A line that is not a point.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "bad.jsonl")
    >>> _ = open(path, "w").write("{}")
    >>> try:
    ...     list(load_points(path))
    ... except ReplayError as err:
    ...     print(str(err).split(": ", 1)[1])
    not a decision point (KeyError: 'spec')
    """
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            try:
                yield DecisionPoint.from_dict(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError) as err:
                raise ReplayError(f"{path}:{i}: not a decision point ({err.__class__.__name__}: {err})") from None


@dataclass(frozen=True)
class Replayed:
    """A point answered again by ``solve``.

    Attributes
    ----------
    point : DecisionPoint
        The point.
    action : str
        ``solve``'s action.
    answer : object
        ``solve``'s answer (JSON).
    memory_after : dict
        ``solve``'s memory after the answer.

    Examples
    --------
    >>> p = DecisionPoint("subgraph", 0, "jail", {}, {}, "pay", "pay", {})
    >>> Replayed(p, "pay", "pay", {}).same
    True
    """

    point: DecisionPoint
    action: str
    answer: Any
    memory_after: dict[str, Any]

    @property
    def same(self) -> bool:
        """Whether the answer and the memory after it are the agent's."""
        p = self.point
        return (self.action, self.answer, self.memory_after) == (p.action, p.answer, p.memory_after)

    def difference(self) -> str:
        """What differs, in one line (empty when :attr:`same`).

        Returns
        -------
        str
        """
        p = self.point
        if (self.action, self.answer) != (p.action, p.answer):
            return f"{p.question}: the agent answered {p.answer!r}, solve {self.answer!r}"
        if self.memory_after != p.memory_after:
            keys = sorted(k for k in p.memory_after if p.memory_after.get(k) != self.memory_after.get(k))
            return f"{p.question}: the same answer, but the memory after it differs in {', '.join(keys)}"
        return ""


def replay(point: DecisionPoint, rollouts: int = 8) -> Replayed:
    """Answer ``point`` with ``solver.solve(state, player, agent=spec, memory=memory)``.

    Parameters
    ----------
    point : DecisionPoint
        The point.
    rollouts : int, default 8
        ``solve``'s forecast's games (the agent's answer does not depend on it).

    Returns
    -------
    Replayed

    Examples
    --------
    >>> from models.io import load_state
    >>> agent = RecordingAgent(0)
    >>> s = load_state("instances/jailed-early.json")
    >>> agent.start_game(0, tuple(p.name for p in s.players)); _ = agent.jail_choice(GameView(s, 0))
    >>> replay(agent.points[0]).same
    True
    """
    from solver.api import solve

    state = load_state(point.state)
    result = solve(state, point.player, agent=point.spec, memory=point.memory, rollouts=rollouts)
    a = result.decision.agent
    assert a is not None and a.choice is not None
    return Replayed(point, a.action, a.choice.answer_json(state), a.memory.to_dict())


__all__ = ["DecisionPoint", "RecordingAgent", "ReplayError", "Replayed", "load_points", "posed", "replay", "save_points"]
