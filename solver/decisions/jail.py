"""The jail choice: at the start of its turn in jail, use a card, pay the fine or roll (a documented rule).

The rule (the baseline's, :class:`solver.decisions.baseline.BaselineRules`, which every agent of
the registry but ``value`` plays): leave early while ``leave_jail_unowned`` (8) or more lots are
unowned (there is still property to buy), with a Get Out of Jail Free card when it holds one, else
by paying the fine when ``reserve`` ($150) or more stays after it; otherwise roll (stay, and collect
rent while the others move). Not a simulation.

:func:`jail_rule` is the rule, :func:`jail_choice` the agent's answer with its reason,
:func:`jail_advice` what ``solve`` prints for a state in which the player to move is to play its
turn in jail (:class:`JailAdvice`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.rules.actions import JailChoice
from engine.rules.view import GameView
from models.state import BANK, GameState, Phase
from solver.decisions.baseline import BaselineRules
from solver.decisions.choice import AgentChoice


def unowned_lots(view: GameView) -> int:
    """The lots the bank still holds.

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.

    Returns
    -------
    int

    Examples
    --------
    >>> from models.io import load_state
    >>> unowned_lots(GameView(load_state("instances/jailed-early.json"), 0))
    24
    """
    return sum(1 for sq in view.board.property_squares if view.owner_of(sq) == BANK)


def jail_rule(view: GameView, me: int, rules: BaselineRules) -> JailChoice:
    """The rule (module docstring).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The seat in jail.
    rules : BaselineRules
        ``leave_jail_unowned`` and ``reserve``.

    Returns
    -------
    JailChoice
        ``card``, ``pay`` or ``roll``.

    Examples
    --------
    >>> from models.io import load_state
    >>> jail_rule(GameView(load_state("instances/jailed-early.json"), 0), 0, BaselineRules())
    'pay'
    """
    player = view.player(me)
    if unowned_lots(view) >= rules.leave_jail_unowned:
        if player.jail_cards:
            return "card"
        if player.cash - view.rules.jail_fine >= rules.reserve:
            return "pay"
    return "roll"


def _why(choice: str, unowned: int, cash: int, fine: int, rules: BaselineRules) -> str:
    early = unowned >= rules.leave_jail_unowned
    if choice == "card":
        return f"{unowned} lots are still unowned (>= {rules.leave_jail_unowned}): leave now to buy, with the card"
    if choice == "pay":
        return (
            f"{unowned} lots are still unowned (>= {rules.leave_jail_unowned}): leave now to buy; no card, and ${cash - fine} "
            f"stays after the ${fine} fine (>= ${rules.reserve})"
        )
    if early:
        return f"{unowned} lots are still unowned, but the ${fine} fine would leave ${cash - fine} (< ${rules.reserve}) and there is no card: roll"
    return f"only {unowned} lots are unowned (< {rules.leave_jail_unowned}): stay and roll, collecting rent while the others move"


def jail_choice(view: GameView, me: int, rules: BaselineRules) -> AgentChoice:
    """The agent's jail choice, with its reason (:func:`jail_rule`).

    Parameters
    ----------
    view : GameView
        The game as the seat sees it.
    me : int
        The seat in jail.
    rules : BaselineRules
        The rule's parameters.

    Returns
    -------
    AgentChoice
        ``question`` ``jail``; ``answer`` and ``action`` the choice; ``method`` ``rule``; details
        ``unowned``.

    Examples
    --------
    >>> from models.io import load_state
    >>> jail_choice(GameView(load_state("instances/jailed-early.json"), 0), 0, BaselineRules()).reason
    'rule of thumb: 24 lots are still unowned (>= 8): leave now to buy; no card, and $1190 stays after the $50 fine (>= $150)'
    """
    choice = jail_rule(view, me, rules)
    unowned = unowned_lots(view)
    why = _why(choice, unowned, view.cash(me), view.rules.jail_fine, rules)
    return AgentChoice("jail", choice, choice, f"rule of thumb: {why}", "rule", {"unowned": unowned})


@dataclass(frozen=True)
class JailAdvice:
    """The jail choice for a player about to play its turn in jail: a documented rule, not a
    simulation (:func:`jail_rule` with the baseline's defaults, which the ``subgraph`` agent plays
    too).

    Attributes
    ----------
    choice : {"card", "pay", "roll"}
        Use a Get Out of Jail Free card, pay the fine, or roll for doubles.
    rule : str
        The rule, in words, with the figures it read.
    unowned : int
        Lots the bank still holds (the rule's input).

    Examples
    --------
    >>> from models.io import load_state
    >>> jail_advice(load_state("instances/jailed-early.json"), 0).choice
    'pay'
    """

    choice: str
    rule: str
    unowned: int

    def to_dict(self) -> dict[str, Any]:
        """``choice``, ``method`` (``"rule"``), ``rule``, ``unowned``.

        Returns
        -------
        dict
            The JSON form.
        """
        return {"choice": self.choice, "method": "rule", "rule": self.rule, "unowned": self.unowned}


def jailed_turn(state: GameState, player: int) -> bool:
    """Whether ``player`` is to move, in jail, at the start of its turn (phase ``start``): the
    state asks the jail choice.

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.

    Returns
    -------
    bool

    Examples
    --------
    >>> from models.io import load_state
    >>> jailed_turn(load_state("instances/jailed-early.json"), 0)
    True
    """
    pl = state.players[player]
    return player == state.to_move and state.phase == Phase.START and pl.in_jail and not pl.bankrupt


def jail_advice(state: GameState, player: int) -> JailAdvice | None:
    """The jail choice when ``player`` is to move, in jail, at the start of its turn (phase
    ``start``: the question the engine asks then); else ``None``.

    The rule (the baseline's defaults, the agent's too): leave early while 8 or more lots are
    unowned (there is still property to buy), with a card when it holds one, else by paying the
    fine when $150 or more stays after it; otherwise roll (stay in jail and collect rent while
    the board is bought up).

    Parameters
    ----------
    state : GameState
        The position.
    player : int
        The seat.

    Returns
    -------
    JailAdvice or None
        The choice and its rule.

    Examples
    --------
    >>> from models.io import load_state
    >>> a = jail_advice(load_state("instances/jailed-early.json"), 0)
    >>> a.choice, a.unowned
    ('pay', 24)
    """
    if not jailed_turn(state, player):
        return None
    c = jail_choice(GameView(state, player), player, BaselineRules())
    return JailAdvice(str(c.answer), c.reason, int(c.details["unowned"]))


__all__ = ["JailAdvice", "jail_advice", "jail_choice", "jail_rule", "jailed_turn", "unowned_lots"]
