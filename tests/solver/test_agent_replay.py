"""The agent is ``solve`` in a loop: decision points saved from agent games, answered again by ``solve``.

``SubgraphTradeAgent`` answers every question through one decision module
(:func:`solver.decisions.agent.ask`); ``solve --agent SPEC --memory FILE`` answers the question a
state poses with the same modules. Two games are played with recording agents (the default
``subgraph`` and ``subgraph:hold=false``, against ``strategic`` and ``value``); every question a
state can pose is saved (the state posing it, the agent's memory before, its answer and its
memory after), written to a file and read back, and a sample of at least 50 covering every kind
of question and answer met is answered again by :func:`solver.solve` with the agent's spec and
memory: the answer and the memory after it must be the agent's. ``bench/agent_replay.py`` does
the same on more games and every point.

The pinned games: a few whole games whose every event is digested, played before the agent
became a loop over the modules (the same digests as then: its play did not change); a
refactor that changes a move changes a digest.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.rules.actions import Event
from engine.rules.game import Game
from engine.tournament.run import result_row, seat_game
from solver.agents.registry import factory
from solver.decisions.recording import DecisionPoint, RecordingAgent, load_points, replay, save_points

PER_KIND = 4
"""Points replayed per (question, answer) met."""


def _recorded_games() -> list[DecisionPoint]:
    points: list[DecisionPoint] = []
    for game in (3, 4):
        recorders: list[RecordingAgent] = []

        def make(seed: Any, **options: Any) -> RecordingAgent:
            agent = RecordingAgent(seed, **options)
            recorders.append(agent)
            return agent

        lineup = [make, lambda s: make(s, hold=False), factory("strategic"), factory("value")]
        _, agents, state, stream = seat_game(lineup, 0, game)
        Game(state, agents, stream, max_rounds=300).play()
        points += [p for agent in recorders for p in agent.points]
    return points


@pytest.fixture(scope="module")
def points(tmp_path_factory: pytest.TempPathFactory) -> list[DecisionPoint]:
    path = tmp_path_factory.mktemp("replay") / "points.jsonl"
    save_points(_recorded_games(), path)
    return list(load_points(path))


def _sample(points: list[DecisionPoint]) -> list[DecisionPoint]:
    seen: Counter[tuple[str, str]] = Counter()
    out = []
    for p in points:
        if seen[(p.question, p.action)] < PER_KIND:
            seen[(p.question, p.action)] += 1
            out.append(p)
    return out


def test_solve_answers_as_the_agent_did_in_play(points: list[DecisionPoint]) -> None:
    sample = _sample(points)
    kinds = {p.question for p in sample}
    assert len(sample) >= 50 and {"buy", "auction", "jail", "act", "offer", "debt"} <= kinds
    assert {p.action for p in sample if p.question == "act"} >= {"hold", "build", "propose_trade", "mortgage"}
    assert {p.spec for p in sample} == {"subgraph", "subgraph:hold=false"}
    wrong = [r.difference() for r in map(replay, sample) if not r.same]
    assert not wrong, wrong


def test_a_point_is_a_state_solve_reads(points: list[DecisionPoint]) -> None:
    """Each saved state poses its question to its player (a pending question in format 3 for
    offers, debts and auctions), and the memory saved is the agent's at that moment."""
    from models.io import load_state
    from solver.decisions.agent import question_of

    for p in _sample(points):
        state = load_state(p.state)
        assert question_of(state, p.player)[0] == p.question
        assert (state.pending is not None) is (p.question in ("offer", "debt", "auction", "building_auction"))
        assert p.memory["seat"] == p.player


def _digest(lineup: list[str], game: int) -> dict[str, Any]:
    h = hashlib.sha256()

    def observe(event: Event, _: Game) -> None:
        # game_start's "resumed" (added later) is left out: the digests were taken before it.
        data = {k: v for k, v in event.data.items() if not (event.kind == "game_start" and k == "resumed")}
        h.update(repr((event.kind, event.player, sorted((k, repr(v)) for k, v in data.items()))).encode())

    order, agents, state, stream = seat_game([factory(s) for s in lineup], 0, game)
    row = result_row(game, lineup, order, Game(state, agents, stream, max_rounds=300, observers=[observe]).play())
    return {"winner": row["winner"], "rounds": row["rounds"], "turns": row["turns"], "digest": h.hexdigest()[:16]}


OLD = "subgraph:tiebreak=worth,answer_check=off,answer_sets=any,deny_bank=0,purchase_cap=0"
"""The agent with the answer's defaults before session 25 (the pins were played with them; and
``answer_sets=any``, the default before session 30; ``deny_bank=0,purchase_cap=0``, before session 35)."""

PINNED = [
    ([OLD, "strategic", "value", "random"], 0, {"winner": OLD, "rounds": 23, "turns": 75, "digest": "185a7a21fa360d38"}),
    ([OLD, OLD, "strategic", "value"], 2, {"winner": OLD, "rounds": 34, "turns": 122, "digest": "061d6b71c5aa7498"}),
]
"""Games of seed 0 played at commit 991102a (before the agent became a loop over the modules):
their results and a digest of every event."""


@pytest.mark.parametrize(("lineup", "game", "want"), PINNED, ids=[f"{'-'.join(x[0])}-{x[1]}" for x in PINNED])
def test_pinned_games_are_played_the_same(lineup: list[str], game: int, want: dict[str, Any]) -> None:
    assert _digest(lineup, game) == want


def test_the_points_file_is_json_lines(points: list[DecisionPoint], tmp_path: Path) -> None:
    path = tmp_path / "few.jsonl"
    assert save_points(points[:3], path) == 3
    assert list(load_points(path)) == points[:3]
