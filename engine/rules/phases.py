"""An agent's action phases: the budget of a phase, the ``act`` phase, and how an action is carried out.

Between turns every active player, and after each roll its mover, gets an
``act`` phase (:func:`act`): asked for one action at a time (build, sell a
building, mortgage, lift a mortgage, propose a trade) until it answers
``None``. A phase closes after :data:`MAX_ACTIONS_PER_PHASE` actions, or at the
proposal past :data:`MAX_TRADES_PER_PHASE`, which is not made (no trade spam);
the debtor's ``raise_cash`` phase (:func:`engine.rules.money.raise_cash`) has the
same budget. During a phase the agent's view shows what is left
(``GameView.actions_left``, ``GameView.trades_left``). :func:`carry_out` asks the host
first (``Game.refusal``: a host may refuse a move its rules allow, and then tells the
agent with a ``refused`` event naming the move, and the phase goes on; the reference
engine refuses nothing), then :func:`apply` carries the action out, or raises
:class:`models.errors.IllegalActionError` with the reason :mod:`engine.rules.legal` gives
(a move our rules do not allow is a bug of the agent, never a refusal).

:func:`act` and :func:`apply` take the game as their first argument and are
bound as ``Game._act`` and ``Game._apply`` (:mod:`engine.rules.game` says why
functions rather than mixin classes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.rules import legal
from engine.rules.actions import (
    Action,
    Build,
    EventKind,
    Mortgage,
    ProposeTrade,
    SellBuilding,
    Unmortgage,
)
from models.errors import IllegalActionError

if TYPE_CHECKING:
    from engine.rules.game import Game

MAX_ACTIONS_PER_PHASE = 64
"""An ``act`` or ``raise_cash`` phase closes after this many actions."""
MAX_TRADES_PER_PHASE = 2
"""An ``act`` phase closes at the third trade proposal (no trade spam)."""


@dataclass
class Phase:
    """The count of one phase so far: actions answered (``None`` excluded) and trades proposed."""

    actions: int = 0
    trades: int = 0


def act(game: Game, p: int) -> None:
    """``p``'s ``act`` phase (``Game._act``); none when ``p`` is bankrupt, the game over, or in
    movement-only mode.

    Parameters
    ----------
    game:
        The game.
    p:
        The player asked.

    Raises
    ------
    IllegalActionError
        The agent answered an action the rules do not allow now.
    """
    if game.over or game.state.players[p].bankrupt or game.movement_only:
        return
    phase = Phase()
    while phase.actions < MAX_ACTIONS_PER_PHASE and not game.over:
        game.views[p].set_budget(MAX_ACTIONS_PER_PHASE - phase.actions, MAX_TRADES_PER_PHASE - phase.trades)
        action = game.agents[p].act(game.views[p])
        game.views[p].set_budget(None, None)
        if action is None:
            return
        phase.actions += 1
        if isinstance(action, ProposeTrade):
            phase.trades += 1
            if phase.trades > MAX_TRADES_PER_PHASE:
                return
        carry_out(game, p, action)


def carry_out(game: Game, p: int, action: Action) -> bool:
    """``p``'s ``action`` in an ``act`` or ``raise_cash`` phase: refused by the host
    (``Game.refusal`` gives a reason: a ``refused`` event to ``p``, with ``action`` and
    ``why``; nothing else changes, and the refused move still counts against the phase's
    budget), or carried out (:func:`apply`).

    Parameters
    ----------
    game:
        The game.
    p:
        The player who acts.
    action:
        Its answer.

    Returns
    -------
    bool
        ``True`` if the action was carried out, ``False`` if the host refused it.

    Raises
    ------
    IllegalActionError
        As :func:`apply`.
    """
    why = game.refusal(p, action)
    if why is not None:
        game._emit(EventKind.REFUSED, p, action=action, why=why)
        return False
    game._apply(p, action)
    return True


def apply(game: Game, p: int, action: Action) -> None:
    """Carry out ``p``'s ``action`` (``Game._apply``).

    Parameters
    ----------
    game:
        The game.
    p:
        The player who acts.
    action:
        A :data:`engine.rules.actions.Action`.

    Raises
    ------
    IllegalActionError
        The rules do not allow the action now (the message says why), or it is
        not an action.
    """
    s = game.state
    if isinstance(action, Build):
        game._build(p, action.square)
    elif isinstance(action, SellBuilding):
        legal.require_legal(legal.why_not_sell_building(s, p, action.square))
        changes = game._sell_one(p, action.square)
        game._emit(EventKind.SELL_BUILDING, p, square=action.square, levels=changes)
    elif isinstance(action, Mortgage):
        legal.require_legal(legal.why_not_mortgage(s, p, action.square))
        s.mortgaged[action.square] = True
        game._cash(None, p, s.mortgage_value(action.square), "mortgage")
        game._emit(EventKind.MORTGAGE, p, square=action.square)
    elif isinstance(action, Unmortgage):
        legal.require_legal(legal.why_not_unmortgage(s, p, action.square))
        game._cash(p, None, s.rules.unmortgage_cost(s.mortgage_value(action.square)), "mortgage lifted")
        s.mortgaged[action.square] = False
        game._emit(EventKind.UNMORTGAGE, p, square=action.square)
    elif isinstance(action, ProposeTrade):
        game.propose_trade(p, action.trade)
    else:
        raise IllegalActionError(f"unknown action {action!r}")
