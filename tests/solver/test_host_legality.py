"""The host decides what is legal (issue 38, item 5, first part).

A stricter host is modelled by a view whose legal lists (builds, building sales, mortgages, lifts)
leave out a seeded subset of what our rules allow: each (kind, square) is left out in a given
state with probability 0.3, decided by a hash of the seed, the kind, the square and the state's
round, mover and buildings (the same answer every time the same question is asked in the same
state). Every action an agent answers (``act`` and ``raise_cash``) is checked against the lists
of the view it was given: no agent may take a move the host did not list. ``subgraph`` and
``strategic`` play whole games under that host.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from engine.rules.actions import Build, Mortgage, SellBuilding, Unmortgage
from engine.rules.game import Game
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from engine.rules.view import GameView
from models.state import GameState
from solver.agents.registry import factory

DROP = 0.3


class StricterView(GameView):
    """A view whose legal lists leave out a seeded share of our rules' legal moves (module docstring)."""

    def __init__(self, state: GameState, me: int, seed: int) -> None:
        super().__init__(state, me)
        self._seed = seed

    def _kept(self, kind: str, squares: list[int]) -> list[int]:
        s = self._s
        out = []
        for sq in squares:
            key = f"{self._seed}:{kind}:{sq}:{s.round}:{s.to_move}:{s.houses[sq]}:{s.mortgaged[sq]}".encode()
            u = int.from_bytes(hashlib.sha256(key).digest()[:8], "big") / 2**64
            if u >= DROP:
                out.append(sq)
        return out

    def legal_builds(self) -> list[int]:
        return self._kept("build", super().legal_builds())

    def legal_building_sales(self) -> list[int]:
        return self._kept("sell", super().legal_building_sales())

    def legal_mortgages(self) -> list[int]:
        return self._kept("mortgage", super().legal_mortgages())

    def legal_unmortgages(self) -> list[int]:
        return self._kept("lift", super().legal_unmortgages())


CHECKED: dict[str, int] = {}
"""How many answered moves of each kind were checked (the games must exercise the lists)."""

LISTS = {Build: "legal_builds", SellBuilding: "legal_building_sales", Mortgage: "legal_mortgages", Unmortgage: "legal_unmortgages"}


class Checked:
    """An agent whose every answered action is checked against its view's lists."""

    def __init__(self, agent: Any, log: list[str]) -> None:
        self._agent = agent
        self._log = log

    def __getattr__(self, name: str) -> Any:
        return getattr(self._agent, name)

    def _check(self, view: GameView, action: Any, where: str) -> Any:
        method = LISTS.get(type(action))
        if method is not None:
            CHECKED[type(action).__name__] = CHECKED.get(type(action).__name__, 0) + 1
            if action.square not in getattr(view, method)():
                self._log.append(f"{where}: {action} not in {method}")
        return action

    def act(self, view: GameView) -> Any:
        return self._check(view, self._agent.act(view), "act")

    def raise_cash(self, view: GameView, owed: int) -> Any:
        return self._check(view, self._agent.raise_cash(view, owed), "raise_cash")


def _play(specs: list[str], seed: int, game: int, log: list[str]) -> str | None:
    stream_seed, seats = game_seeds(game_seed_sequence(seed, game), len(specs))
    agents = [Checked(factory(spec)(s), log) for spec, s in zip(specs, seats)]
    state = GameState.new_game([f"P{k + 1}" for k in range(len(specs))])
    g = Game(state, agents, SeededStream(stream_seed), max_rounds=300)  # type: ignore[arg-type]
    g.views = [StricterView(state, i, seed) for i in range(len(specs))]
    return g.play().winner


def test_no_agent_takes_a_move_the_host_did_not_list() -> None:
    log: list[str] = []
    CHECKED.clear()
    for game in range(4):
        _play(["subgraph", "strategic", "value", "strategic"], 11, game, log)
    assert log == [], log[:5]
    assert CHECKED.get("Build", 0) > 20 and CHECKED.get("Mortgage", 0) > 0, CHECKED  # the lists were exercised


class Naive:
    """The negative control: builds wherever our own rules allow, ignoring the host's list."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def act(self, view: GameView) -> Any:
        from engine.rules.legal import legal_builds

        ours = legal_builds(view.copy(), view.me)
        return Build(ours[0]) if ours and ours[0] not in view.legal_builds() else self._inner.act(view)


def test_the_check_catches_an_agent_that_ignores_the_host() -> None:
    log: list[str] = []
    stream_seed, seats = game_seeds(game_seed_sequence(11, 0), 4)
    agents = [Checked(Naive(factory("strategic")(s)), log) for s in seats]
    state = GameState.new_game([f"P{k + 1}" for k in range(4)])
    g = Game(state, agents, SeededStream(stream_seed), max_rounds=300)  # type: ignore[arg-type]
    g.views = [StricterView(state, i, 11) for i in range(4)]
    g.play()
    assert any("Build" in x for x in log)


def test_the_stricter_host_leaves_moves_out() -> None:
    """The control: the view does leave out moves that our rules allow."""
    from models.io import load_state

    state = load_state("instances/late-game-house-shortage.json")
    plain, strict = GameView(state, 0), StricterView(state, 0, 11)
    allowed = plain.legal_builds() + plain.legal_mortgages()
    kept = strict.legal_builds() + strict.legal_mortgages()
    assert set(kept) < set(allowed) or not allowed
