"""bench/loss_anatomy.py: its completions against a scan after every event, its games against the
tournament's, and its report against counts made by hand."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.rules.actions import Event
from engine.rules.game import Game
from engine.tournament.run import play_one, seat_game
from solver.agents.registry import factory

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ["strategic:premium=0.6", "strategic:reserve=300", "strategic", "strategic:reserve=50"]


def _bench() -> ModuleType:
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("loss_anatomy", ROOT / "bench" / "loss_anatomy.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_completions_are_every_completion_a_scan_after_every_event_finds() -> None:
    la = _bench()
    for game in range(3):
        row = la.play((AGENTS, 0, game, 150))
        # the same game again, the groups of every seat scanned after every event of any kind
        order, seated, state, stream = seat_game([factory(a) for a in AGENTS], 0, game)
        held: list[set[str]] = [set() for _ in AGENTS]
        scanned: list[list[Any]] = []

        def scan(event: Event, g: Game, held: list[set[str]] = held, scanned: list[list[Any]] = scanned) -> None:
            for seat in range(len(AGENTS)):
                now = set(g.state.complete_groups(seat))
                scanned.extend([g.state.round, seat, grp] for grp in sorted(now - held[seat]))
                held[seat] = now

        Game(state, seated, stream, max_rounds=150, observers=[scan]).play()
        assert [c[:3] for c in row["completions"]] == scanned
        assert scanned, "a game of 150 rounds with no set completed tests nothing"
        assert all(c[3] in ("buy", "auction", "trade", "bankrupt") for c in row["completions"])
        assert all(bool(c[4]) == (c[3] == "trade") for c in row["completions"])


def test_its_games_are_the_tournaments() -> None:
    la = _bench()
    for game in range(3):
        row = la.play((AGENTS, 0, game, 150))
        t = play_one([factory(a) for a in AGENTS], AGENTS, 0, game, 150)
        assert row["seats"] == t["seats"] and row["winner_seat"] == t["winner_seat"] and row["rounds"] == t["rounds"]
        assert row["agent_seat"] == t["seats"].index(AGENTS[0])


def test_the_report_counts_as_by_hand() -> None:
    la = _bench()
    header = {"header": la.HEADER, "agents": ["A", "B", "B"], "seed": 0, "max_rounds": 1000}

    def g(me: int, winner: int, completions: list[list[Any]]) -> dict[str, Any]:
        return {"agent_seat": me, "winner_seat": winner, "completions": completions}

    rows = [
        g(0, 0, [[4, 0, "pink", "trade", [1]]]),  # the agent trades: won
        g(0, 1, [[2, 1, "dark_blue", "buy", []], [9, 0, "orange", "trade", [2]]]),  # an opponent buys: lost
        g(1, 0, [[3, 0, "brown", "buy", []]]),  # an opponent buys, the agent never completes: lost
        g(2, 2, [[1, 0, "red", "bankrupt", []], [5, 1, "green", "trade", [2]]]),  # an opponent trading with the agent: won
        g(0, 2, [[6, 1, "yellow", "trade", [2]]]),  # opponents trading; the agent completes nothing: lost
        g(0, 0, []),  # no set: won
    ]
    lines = la.report(header, rows)
    assert lines[0].startswith("6 games of A,B,B (seed 0); A wins 3: 0.5000")
    body = {ln.split("  ")[1].strip(): ln for ln in lines[2:] if ln.startswith("  ")}
    assert set(body) == {
        "an opponent, buying", "the agent, trading", "an opponent, trading with the agent", "an opponent, opponents trading", "no set completed",
    }
    assert " 2 (33.3%)  0.000" in body["an opponent, buying"] and body["an opponent, buying"].endswith("66.7%")
    assert " 1 (16.7%)  1.000" in body["the agent, trading"] and body["the agent, trading"].endswith(" 0.0%")
    never = next(ln for ln in lines if ln.startswith("the agent completes no set"))
    assert never.startswith("the agent completes no set: 4 games (66.7%), wins 0.500") and never.endswith("66.7% of its losses")
    assert lines[-1] == "groups an opponent completed first by buying: dark_blue 1, brown 1"
