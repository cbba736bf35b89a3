"""The agent's act phase: the next action (build, lift, mortgage, propose, or end the phase).

``subgraph``'s phase: with ``build="funded"`` the next step of the funded build plan when there
is one (:func:`solver.decisions.building.funded_step`: lift, build or mortgage to fund it);
otherwise the baseline's steps (:func:`solver.decisions.phase.phase_choice`: lift in its sets,
build evenly with ``build="even"`` only, propose, lift when cash is plentiful), whose trade step
is :func:`solver.decisions.proposing.propose_choice`, at most ``offers`` searches a phase, none
when the host's budget of proposals for the phase is spent (``GameView.trades_left``), and not
in debt.
"""

from __future__ import annotations

from engine.rules.view import GameView
from solver.decisions.baseline import keep_of, valuation_of
from solver.decisions.building import funded_step
from solver.decisions.caches import DecisionCaches
from solver.decisions.choice import AgentChoice
from solver.decisions.memory import AgentMemory
from solver.decisions.phase import phase_choice
from solver.decisions.proposing import propose_choice
from solver.decisions.settings import AgentSettings


def act_choice(view: GameView, me: int, settings: AgentSettings, memory: AgentMemory, caches: DecisionCaches) -> AgentChoice:
    """The agent's next action of its phase (module docstring).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The agent's seat.
    settings : AgentSettings
        Its options.
    memory : AgentMemory
        Its memory (the phase's proposals counted, the plan, the queue).
    caches : DecisionCaches
        The caches.

    Returns
    -------
    AgentChoice
        ``question`` ``act``; ``answer`` an action or ``None`` (end the phase).

    Examples
    --------
    >>> from models.io import load_state
    >>> act_choice(GameView(load_state("instances/late-game-house-shortage.json"), 0), 0, AgentSettings(), AgentMemory(), DecisionCaches()).action
    'build'
    """
    if settings.build == "funded":
        step = funded_step(view, me, settings, memory, caches)
        if step is not None:
            return step

    def propose() -> AgentChoice:
        memory.proposed_this_phase += 1
        return propose_choice(view, me, settings, memory, caches)

    # the host's own budget too (``GameView.trades_left``: a host may allow fewer proposals a phase than
    # ``offers``; under ours, 2 a phase, the agent's count already stays within it)
    left = view.trades_left
    may_propose = memory.proposed_this_phase < settings.offers and (left is None or left > 0) and view.player(me).cash >= 0
    return phase_choice(
        view, me, keep_of(view, me, settings.baseline, caches), memory.refusals, valuation_of(view, caches),
        build=settings.build != "funded", may_propose=may_propose, propose=propose,
    )


__all__ = ["act_choice"]
