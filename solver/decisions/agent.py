"""The agent as ``solve`` in a loop: every question it is asked, answered by one decision module.

:func:`ask` is the one dispatch: the ``subgraph`` agent (:class:`solver.agents.subgraph_agent.SubgraphTradeAgent`)
answers each question of the protocol with it, and ``solve --agent SPEC --memory FILE``
(:func:`answer_as_agent`, ``solver.solve(..., agent=..., memory=...)``) answers the question a
state poses with it, so that the agent's answer in play and ``solve``'s answer with the agent's
settings, memory and seed are the same function's.

=====================  ===================================================  ==========================
question               module                                               method
=====================  ===================================================  ==========================
``buy``                :mod:`solver.decisions.buying` (``buy_choice``)      model (bidding game),
                                                                            simulation or rule
``auction``            :mod:`solver.decisions.buying` (``bid_choice``)      model, simulation or rule
``jail``               :mod:`solver.decisions.jail`                         rule
``act``                :mod:`solver.decisions.act` (the funded plan,        model, simulation or rule
                       :mod:`solver.decisions.building`; proposing,
                       :mod:`solver.decisions.proposing`; the baseline's
                       steps, :mod:`solver.decisions.phase`)
``offer``              :mod:`solver.decisions.answering`                    simulation
``lift_on_receipt``    :mod:`solver.decisions.receipt`                      rule
``debt``               :mod:`solver.decisions.raising`                      rule
``building_auction``   :mod:`solver.decisions.shortage` (a premium)         rule
``place_building``     :mod:`solver.decisions.shortage` (the lot)           rule
=====================  ===================================================  ==========================

The question a state poses to a player (:func:`question_of`): its pending question (state
format 3) when it is put to that player (another player's: ``wait``); else ``buy`` when the
player is to move and has rolled onto a lot of the bank's; else ``jail`` at the start of its
turn in jail; else ``act``, its act phase's next action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.rules.view import GameView
from models.errors import UnknownNameError
from models.pending import PendingAuction, PendingDebt, PendingOffer
from models.state import BANK, GameState, Phase
from solver.decisions.act import act_choice
from solver.decisions.answering import offer_choice
from solver.decisions.baseline import keep_of, valuation_of
from solver.decisions.buying import bid_choice, buy_choice
from solver.decisions.caches import DecisionCaches
from solver.decisions.choice import AgentChoice
from solver.decisions.jail import jail_choice, jailed_turn
from solver.decisions.memory import AgentMemory, AgentMemoryError
from solver.decisions.raising import raise_cash_choice
from solver.decisions.receipt import lift_choice
from solver.decisions.settings import AgentSettings
from solver.decisions.shortage import building_bid_choice, place_building_choice, shortage_lots

QUESTIONS = ("buy", "auction", "jail", "act", "offer", "lift_on_receipt", "debt", "building_auction", "place_building")
"""The questions the agent answers (the protocol's, by the names of :class:`AgentChoice`)."""


def ask(
    question: str, view: GameView, me: int, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches, arg: Any = None
) -> AgentChoice:
    """The agent's answer to ``question`` (the module docstring's table).

    Parameters
    ----------
    question : str
        One of :data:`QUESTIONS`.
    view : GameView
        The game as the seat sees it.
    me : int
        The agent's seat.
    settings : AgentSettings
        Its settings.
    memory : AgentMemory
        Its memory (what the answer implies is recorded there).
    caches : DecisionCaches
        Its caches.
    arg : object
        The question's argument: the lot (``buy``, ``auction``, ``lift_on_receipt``), the trade
        (``offer``), the whole payment (``debt``), ``house`` or ``hotel`` (``building_auction``,
        ``place_building``).

    Returns
    -------
    AgentChoice

    Raises
    ------
    UnknownNameError
        An unknown question.

    Examples
    --------
    >>> from models.io import load_state
    >>> view = GameView(load_state("instances/jailed-early.json"), 0)
    >>> ask("jail", view, 0, AgentSettings(), AgentMemory(), DecisionCaches()).action
    'pay'
    """
    memory.play.sync(view)  # the cash ledger of the observed play (solver.agents.observed_play)
    if question == "buy":
        return buy_choice(view, me, arg, settings, memory, caches)
    if question == "auction":
        return bid_choice(view, me, arg, settings, memory, caches)
    if question == "jail":
        return jail_choice(view, me, settings.baseline)
    if question == "act":
        return act_choice(view, me, settings, memory, caches)
    if question == "offer":
        return offer_choice(view, me, arg, settings, memory, caches)
    if question == "lift_on_receipt":
        return lift_choice(view, me, arg, keep_of(view, me, settings.baseline, caches))
    if question == "debt":
        return raise_cash_choice(view, me, arg, memory.refusals, valuation_of(view, caches))
    if question == "building_auction":
        return building_bid_choice(view, me, arg, keep_of(view, me, settings.baseline, caches))
    if question == "place_building":
        return place_building_choice(view, me, arg, valuation_of(view, caches))
    raise UnknownNameError(f"unknown question {question!r} (known: {', '.join(QUESTIONS)})")


def question_of(state: GameState, player: int) -> tuple[str, Any]:
    """The question ``state`` poses to ``player`` and its argument (module docstring).

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.

    Returns
    -------
    tuple of (str, object)
        ``(question, arg)`` as :func:`ask` takes them, or ``("wait", None)``.

    Examples
    --------
    >>> from models.io import load_state
    >>> question_of(load_state("instances/jailed-early.json"), 0), question_of(load_state("instances/pending-debt.json"), 0)[0]
    (('jail', None), 'debt')
    """
    q = state.pending
    if q is not None:
        if player not in q.who_answers():
            return ("wait", None)
        if isinstance(q, PendingOffer):
            return ("offer", q.trade)
        if isinstance(q, PendingDebt):
            return ("debt", q.owed)
        if isinstance(q, PendingAuction):
            return ("auction", q.square)
        return ("building_auction", q.building)
    here = state.players[player].position
    square = state.board.squares[here]
    if player == state.to_move and state.phase == Phase.ROLLED and square.is_property and state.owner[here] == BANK:
        return ("buy", here)
    if jailed_turn(state, player):
        return ("jail", None)
    return ("act", None)


@dataclass(frozen=True)
class AgentAnswer:
    """``solve``'s answer as the agent: the question, the agent's choice and its memory after it.

    Attributes
    ----------
    question : str
        The question (:func:`question_of`), or ``wait``.
    choice : AgentChoice or None
        The answer (``None`` with ``wait``).
    settings : AgentSettings
        The agent's settings.
    memory : AgentMemory
        Its memory after the answer (what to pass with the next question).
    waits_on : str
        With ``wait``: who the game waits on.

    Examples
    --------
    >>> from models.io import load_state
    >>> s = load_state("instances/jailed-early.json")
    >>> a = answer_as_agent(s, 0, AgentSettings())
    >>> a.action, a.to_dict(s)["question"], a.to_dict(s)["spec"]
    ('pay', 'jail', 'subgraph')
    """

    question: str
    choice: AgentChoice | None
    settings: AgentSettings
    memory: AgentMemory
    waits_on: str = ""

    @property
    def action(self) -> str:
        """The answer in one word (:attr:`AgentChoice.action`, or ``wait``)."""
        return self.choice.action if self.choice is not None else "wait"

    @property
    def reason(self) -> str:
        """Why, in one line."""
        if self.choice is None:
            return f"the game waits on {self.waits_on}'s answer to the pending question"
        return self.choice.reason

    def to_dict(self, state: GameState) -> dict[str, Any]:
        """The JSON object ``solve --agent`` writes under ``agent``.

        Parameters
        ----------
        state : GameState
            The state answered.

        Returns
        -------
        dict
            ``spec``, ``settings`` (the options that differ from the defaults), ``question``,
            ``action``, ``answer``, ``reason``, ``method``, ``details`` (the choice's figures)
            and ``memory`` (after the answer).
        """
        out: dict[str, Any] = {"spec": self.settings.spec(), "settings": self.settings.changed(), "question": self.question}
        c = self.choice
        if c is None:
            out.update(action="wait", answer=None, reason=self.reason, method="rule", details={})
        else:
            out.update(action=c.action, answer=c.answer_json(state), reason=c.reason, method=c.method, details=dict(c.details))
        out["memory"] = self.memory.to_dict()
        return out


def answer_as_agent(
    state: GameState, player: int, settings: AgentSettings, memory: AgentMemory | None = None, caches: DecisionCaches | None = None
) -> AgentAnswer:
    """The agent's answer to the question ``state`` poses to ``player`` (:func:`question_of`),
    with its settings and memory (a copy: ``memory`` is left as it was; the answer holds the
    memory after it).

    For an offer it accepts, the answer also says, for each mortgaged lot it would receive,
    whether it lifts the mortgage on receipt (``lift_on_receipt``, asked as the engine asks it,
    before the lots move); for a shortage auction, where a building it wins would go
    (``place_building``).

    Parameters
    ----------
    state : GameState
        The position (its pending question, if any, is the question).
    player : int
        The seat answering.
    settings : AgentSettings
        The agent's settings.
    memory : AgentMemory or None
        Its memory before the question; ``None``: a fresh one (a game just started).
    caches : DecisionCaches or None
        Caches to reuse (they change no answer); ``None``: fresh ones.

    Returns
    -------
    AgentAnswer

    Raises
    ------
    AgentMemoryError
        The memory is another seat's.

    Examples
    --------
    >>> from models.io import load_state
    >>> answer_as_agent(load_state("instances/pending-shortage.json"), 0, AgentSettings()).action
    'building_bid'
    """
    mem = AgentMemory(seat=player) if memory is None else memory.copy()
    if mem.seat not in (-1, player):
        raise AgentMemoryError(f"memory: it is seat {mem.seat}'s memory, not seat {player}'s")
    mem.seat = player
    question, arg = question_of(state, player)
    if question == "wait":
        assert state.pending is not None
        who = " and ".join(state.players[s].name for s in state.pending.who_answers())
        return AgentAnswer("wait", None, settings, mem, who)
    work = state.copy()
    work.pending = None
    view = GameView(work, player)
    caches = caches or DecisionCaches()
    choice = ask(question, view, player, settings, mem, caches, arg)
    extra: dict[str, Any] = {}
    if question == "offer" and choice.answer:
        lots = [work.board.property_index[n] for n in arg.properties_received(work.players[player].name)]
        extra["lift_on_receipt"] = {
            work.board.squares[sq].name: bool(ask("lift_on_receipt", view, player, settings, mem, caches, sq).answer) for sq in lots if work.mortgaged[sq]
        }
    if question == "building_auction" and shortage_lots(view, arg):
        placed = ask("place_building", view, player, settings, mem, caches, arg)
        extra["place_building"] = placed.details["property"]
    if extra:
        choice = AgentChoice(choice.question, choice.answer, choice.action, choice.reason, choice.method, {**choice.details, **extra})
    return AgentAnswer(question, choice, settings, mem)


__all__ = ["QUESTIONS", "AgentAnswer", "answer_as_agent", "ask", "question_of"]
