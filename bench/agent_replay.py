"""The agent is ``solve`` in a loop: every decision point of agent games, answered again by ``solve``.

    python bench/agent_replay.py [--games 4] [--seed 0] [--per-kind 0] [--out FILE.jsonl]

Games ``0..games-1`` of three line-ups are played with recording agents
(:class:`solver.decisions.recording.RecordingAgent`): the default ``subgraph`` and
``subgraph:hold=false`` against ``strategic`` and ``value``; two ``subgraph`` (one with
``auction=simulate,haggle=1,recall=4,offers=1``) against ``strategic`` and ``random``; the default
against three ``strategic`` under a host refusing a seeded 30% of the moves and trades when tried
(:mod:`engine.tournament.strict_host` with nothing left out of its lists: ``solve`` answers with
the legal moves of our rules, and a host's lists are not part of a state). Every question a state can pose is saved (the state, the
agent's memory before, its answer and its memory after) and answered again by
:func:`solver.solve` with the agent's spec and memory (:func:`solver.decisions.recording.replay`).
Printed: the points replayed by question and answer, and each mismatch (an answer, or the memory
after it, that is not the agent's); the exit status is 1 when there is one. ``--per-kind K``
replays at most K points per question and answer (0: all); ``--out`` also writes the points.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.rules.game import Game
from engine.tournament.run import seat_game
from engine.tournament.strict_host import StrictHost
from solver.agents.registry import factory
from solver.decisions.recording import DecisionPoint, RecordingAgent, replay, save_points

LINEUPS: list[tuple[str, list[dict[str, Any] | str], bool]] = [
    ("subgraph,subgraph:hold=false,strategic,value", [{}, {"hold": False}, "strategic", "value"], False),
    ("subgraph,subgraph:auction=simulate,...,strategic,random", [{}, {"auction": "simulate", "haggle": 1, "recall": 4, "offers": 1}, "strategic", "random"], False),
    ("subgraph,strategic x3 (a host refusing moves)", [{}, "strategic", "strategic", "strategic"], True),
]
"""(label, seats: options of a recording agent or a registry spec, strict host)."""


def _play(seats: list[dict[str, Any] | str], strict: bool, seed: int, game: int) -> list[DecisionPoint]:
    recorders: list[RecordingAgent] = []

    def recording(options: dict[str, Any]) -> Callable[[Any], RecordingAgent]:
        def make(s: Any) -> RecordingAgent:
            agent = RecordingAgent(s, **options)
            recorders.append(agent)
            return agent

        return make

    makers = [factory(x) if isinstance(x, str) else recording(x) for x in seats]
    _, agents, state, stream = seat_game(makers, seed, game)
    # a host that refuses moves when tried (its refusals are the agent's memory); not one whose lists leave moves
    # out: solve lists the moves of our rules, and a host's lists are not part of the state
    host = StrictHost(state, agents, stream, seed=game, drop=0.0, refuse=0.3, max_rounds=300) if strict else Game(state, agents, stream, max_rounds=300)
    host.play()
    return [p for agent in recorders for p in agent.points]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-kind", type=int, default=0)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    t = time.perf_counter()
    points: list[DecisionPoint] = []
    for label, seats, strict in LINEUPS:
        for game in range(args.games):
            got = _play(seats, strict, args.seed, game)
            points += got
            print(f"{label}, game {game}: {len(got)} decision points", flush=True)
    if args.out:
        save_points(points, args.out)
    seen: Counter[tuple[str, str]] = Counter()
    sample = []
    for p in points:
        if args.per_kind == 0 or seen[(p.question, p.action)] < args.per_kind:
            seen[(p.question, p.action)] += 1
            sample.append(p)
    bad = 0
    for p in sample:
        r = replay(p)
        if not r.same:
            bad += 1
            print(f"MISMATCH ({p.spec}, seat {p.player}): {r.difference()}", flush=True)
    kinds = Counter((p.question, p.action) for p in sample)
    print(f"{len(sample)} decision points replayed through solve (of {len(points)} saved), {bad} mismatches, {time.perf_counter() - t:.0f} s")
    for (q, a), n in sorted(kinds.items()):
        print(f"  {q:17} {a:14} {n}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
