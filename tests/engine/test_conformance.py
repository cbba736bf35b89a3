"""Conformance: whole games of random agents with every invariant checked after every event.

The invariants are those of :mod:`engine.rules.invariants` (dollar ledger from the
event feed, single ownership, supply, even building, no buildings on
incomplete or mortgaged groups, cash never negative, bankrupt players own
nothing, jail consistency). ``bench/soak.py`` runs the same check over many
more games.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules.agents import RandomAgent
from engine.rules.game import Game
from engine.rules.invariants import InvariantChecker, check_state
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from models.io import load_state, state_to_dict
from models.state import GameState
from solver.agents.strategic import StrategicTradeAgent

INSTANCES = Path(__file__).resolve().parents[2] / "instances"


def play_checked(state: GameState, seed: int, game: int, kinds: list[str], max_rounds: int = 200) -> tuple[Game, InvariantChecker]:
    stream_seed, seats = game_seeds(game_seed_sequence(seed, game), len(state.players))
    agents = [
        RandomAgent(s) if kind == "random" else StrategicTradeAgent(s) for kind, s in zip(kinds, seats, strict=True)
    ]
    checker = InvariantChecker()
    g = Game(state, agents, SeededStream(stream_seed), max_rounds=max_rounds, observers=[checker])
    g.play()
    return g, checker


def test_hundred_random_games_keep_every_invariant() -> None:
    reasons: dict[str, int] = {}
    for i in range(100):
        state = GameState.new_game(["A", "B", "C", "D"])
        g, checker = play_checked(state, seed=11, game=i, kinds=["random"] * 4)
        assert checker.checks > 100  # the checker really ran
        assert not check_state(g.state)
        assert g.result is not None
        reasons[g.result.reason] = reasons.get(g.result.reason, 0) + 1
        assert g.result.rounds <= 200
        if g.result.reason == "round_cap":
            load_state(state_to_dict(g.state))  # the final state is a valid state file
    assert sum(reasons.values()) == 100


@pytest.mark.parametrize("name", sorted(p.name for p in INSTANCES.glob("*.json") if load_state(p).pending is None))
def test_games_from_every_instance_keep_every_invariant(name: str) -> None:
    """Start from each bundled state (inline boards, loaded dice, set sizes, shortages, mortgages)
    between questions (the engine does not start on a pending question: ``solve`` answers it)."""
    for i in range(6):
        state = load_state(INSTANCES / name)
        kinds = ["random" if (k + i) % 2 else "strategic" for k in range(len(state.players))]
        g, checker = play_checked(state, seed=5, game=i, kinds=kinds, max_rounds=state.round + 120)
        assert checker.checks > 0
        assert not check_state(g.state)


def test_invariant_checker_catches_a_broken_ledger() -> None:
    """The checker is not vacuous: a dollar created outside the event feed is caught."""
    from engine.rules.invariants import InvariantViolation

    state = GameState.new_game(["A", "B"])
    stream_seed, seats = game_seeds(3, 2)
    checker = InvariantChecker()
    g = Game(state, [RandomAgent(s) for s in seats], SeededStream(stream_seed), observers=[checker])
    g.play_turn()
    g.state.players[0].cash += 1  # a dollar from nowhere
    with pytest.raises(InvariantViolation, match="ledger"):
        g.play_turn()


def test_invariant_checker_catches_uneven_building() -> None:
    state = load_state(INSTANCES / "late-game-house-shortage.json")
    group = next(g for g in state.board.street_groups if min(state.houses[sq] for sq in state.board.groups[g]) >= 2)
    assert not check_state(state)
    state.houses[state.board.groups[group][0]] = 0
    assert any("uneven" in v for v in check_state(state))


def test_same_seed_same_game() -> None:
    def run() -> dict[str, object]:
        state = GameState.new_game(["A", "B", "C", "D"])
        g, _ = play_checked(state, seed=7, game=3, kinds=["strategic", "strategic", "random", "random"], max_rounds=300)
        assert g.result is not None
        return {**g.result.to_dict(), "state": state_to_dict(g.state)}

    assert run() == run()
