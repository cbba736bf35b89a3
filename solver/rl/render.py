"""The ``"ansi"`` rendering of :class:`solver.rl.aec_env.MonopolyAECEnv`: the position and the pending decision as text.

One line for the round and the player to move, one per seat (cash, square,
bankrupt or in jail, holdings with their buildings and ``(m)`` when
mortgaged), then the pending decision and its legal actions (or the result
once the game is over), then the engine's last events (without their trade
payloads). There is no graphical mode.

This module needs neither PettingZoo nor Gymnasium.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.rules.actions import Event
from engine.rules.game import Game, GameResult
from solver.rl.engine_thread import Request

__all__ = ["ansi_text"]


def ansi_text(
    game: Game,
    seat_names: Sequence[str],
    pending: Request | None,
    legal: Sequence[str],
    result: GameResult | None,
    events: Iterable[Event],
) -> str:
    """The text summary of a live game.

    Parameters
    ----------
    game:
        The live game (read while its engine thread is blocked).
    seat_names:
        The environment's seat names, by seat.
    pending:
        The pending question, if any.
    legal:
        The names of the actions its mask allows.
    result:
        The engine's result, once it ended the game.
    events:
        The last engine events, oldest first.

    Returns
    -------
    str
        Lines joined by newlines, no final newline.
    """
    s = game.state
    lines = [f"round {s.round}, turn {game.turns}, {s.players[s.to_move].name} to move ({s.phase})"]
    for i, pl in enumerate(s.players):
        props = ", ".join(
            s.board.squares[sq].name + (f" [{s.houses[sq]}]" if s.houses[sq] else "") + (" (m)" if s.mortgaged[sq] else "")
            for sq in s.properties_of(i)
        )
        flags = " BANKRUPT" if pl.bankrupt else (" in jail" if pl.in_jail else "")
        where = s.board.squares[pl.position].name
        lines.append(f"  {seat_names[i]} {pl.name}: ${pl.cash} on {where}{flags}; {props or 'no property'}")
    if pending is not None:
        info = pending.describe(s.board)
        detail = ", ".join(f"{k}={v}" for k, v in info.items() if k != "kind")
        lines.append(f"decision: {seat_names[pending.seat]} {pending.kind} {detail}".rstrip())
        lines.append(f"  legal: {', '.join(legal)}")
    elif result is not None:
        lines.append(f"over: {result.winner} wins ({result.reason})")
    for event in events:
        who = s.players[event.player].name if event.player is not None else "-"
        data = ", ".join(f"{k}={v}" for k, v in event.data.items() if k != "trade")
        lines.append(f"  . {event.kind} {who} {data}".rstrip())
    return "\n".join(lines)
