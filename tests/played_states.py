"""States from agent games, for round trips through the formats (``tests/models/test_line.py`` and
``bench/notation.py``).

Games start from the opening under each rules preset (four players; the pot of
``house-jackpot``, the finite bank of ``no-doubles``, the round limit of
``short-game``) and from every bundled instance (the inline board of
``mini-board.json``, the loaded dice and set sizes of ``novelty-rules.json``,
jail, mortgages, hotels, a bankrupt player). Seats alternate the ``strategic``
and ``random`` agents; game ``g`` of seed ``S`` is seeded ``SeedSequence([S, g])``
and capped at ``max_rounds``. The state at the start of every turn (what
``play --save-states`` writes) and the final state are kept; :func:`played_states`
takes ``count`` of them spread evenly over all the games.
"""

from __future__ import annotations

from pathlib import Path

from engine.rules.agents import RandomAgent
from engine.rules.game import Game
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from models.io import load_state
from models.rules import PRESETS
from models.state import GameState
from solver.agents.strategic import StrategicTradeAgent

INSTANCES = sorted((Path(__file__).resolve().parents[1] / "instances").glob("*.json"))


def starts() -> list[GameState]:
    """The starting positions: the opening under each preset, then every bundled instance that
    is a position between questions (a game starts there; one waiting on a pending question does not)."""
    out = [GameState.new_game(["Ann", "Bob", "Cy", "Dee"], rules=rules) for rules in PRESETS.values()]
    instances = [load_state(path) for path in INSTANCES]
    return out + [s for s in instances if getattr(s, "pending", None) is None]


def game_states(start: GameState, seed: int, game: int, max_rounds: int) -> list[GameState]:
    """Every turn-start state of one game from ``start``, and its final state."""
    stream_seed, seat_seeds = game_seeds(game_seed_sequence(seed, game), len(start.players))
    agents = [(StrategicTradeAgent if (i + game) % 2 else RandomAgent)(s) for i, s in enumerate(seat_seeds)]
    seen: list[GameState] = []

    def observe(event, g) -> None:  # type: ignore[no-untyped-def]
        if event.kind == "turn":
            seen.append(g.state.copy())

    played = Game(start.copy(), agents, SeededStream(stream_seed), max_rounds=max_rounds, observers=[observe])
    played.play()
    return [*seen, played.state.copy()]


def played_states(count: int, seed: int = 0, max_rounds: int = 60) -> list[GameState]:
    """``count`` states spread evenly over one game from each of :func:`starts` (module docstring)."""
    every = [s for g, start in enumerate(starts()) for s in game_states(start, seed, g, max_rounds)]
    if len(every) < count:
        raise AssertionError(f"only {len(every)} states from the games, {count} asked")
    step = len(every) / count
    return [every[int(k * step)] for k in range(count)]
