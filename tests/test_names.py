"""The typed names (:mod:`models.names`): their values are the formats' strings, and the packages use them.

- Each enum's values are exactly the strings its JSON Schema allows (the state
  format's ``phase``; ``solve``'s ``decision.action``, ``position.state``,
  ``mode`` and trade ``kind``; ``trades``' ``kind``), the engine's event table
  (:data:`engine.rules.protocol.EVENT_KINDS`) and the kernel's end reasons
  (:data:`engine.sim.rollout.REASON_CODES`): two independent lists that must agree.
- A member is its string: equal to it, hashed as it, written by ``json`` and
  f-strings as it, with the string's ``repr``.
- Inside, the members are used: a loaded state's phase is a :class:`Phase`, every
  event of a game is an :class:`EventKind` and its end an :class:`EndReason`, a
  decision's action an :class:`ActionKind`, its position a :class:`Verdict`,
  its mode a :class:`Mode`, its candidates' kinds :class:`TradeKind` members.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.rules.actions import EndReason, EventKind
from engine.rules.agents import RandomAgent
from engine.rules.game import Game
from engine.rules.protocol import EVENT_KINDS
from engine.rules.streams import SeededStream
from engine.sim.rollout import REASON_CODES
from models.io import load_state, state_schema
from models.names import Name
from models.state import GameState, Phase
from solver.analysis.position import Verdict
from solver.decide import ActionKind, DecideSettings, decide
from solver.schemas import output_schema
from solver.trades.selection import Mode
from solver.trades.space import TradeKind

ROOT = Path(__file__).resolve().parents[1]
MIDGAME = ROOT / "instances" / "midgame-no-monopolies.json"


def _values(enum: type[Name]) -> set[str]:
    return {m.value for m in enum}


def test_values_are_the_schemas_strings() -> None:
    solve = output_schema("solve")
    assert _values(Phase) == set(state_schema()["properties"]["phase"]["enum"])
    assert _values(ActionKind) == set(solve["$defs"]["decision"]["properties"]["action"]["enum"])
    assert _values(Verdict) == set(solve["properties"]["position"]["properties"]["state"]["enum"])
    assert _values(Mode) == set(solve["properties"]["mode"]["enum"])
    assert _values(TradeKind) == set(solve["$defs"]["rescored"]["properties"]["kind"]["enum"])
    assert _values(TradeKind) == set(output_schema("trades")["properties"]["trades"]["items"]["properties"]["kind"]["enum"])
    assert _values(EventKind) == set(EVENT_KINDS)
    assert _values(EndReason) == set(REASON_CODES)


@pytest.mark.parametrize("member", [Phase.ROLLED, EventKind.GAME_END, EndReason.ROUND_CAP, TradeKind.CYCLE3, Mode.BEST, Verdict.LOSING, ActionKind.HOLD])
def test_a_member_is_its_string(member: Name) -> None:
    s = member.value
    assert member == s and hash(member) == hash(s) and isinstance(member, str)
    assert json.dumps({"k": member}) == json.dumps({"k": s}) and f"{member}" == s and str(member) == s
    assert repr(member) == repr(s)
    assert type(member)(s) is member


def test_the_packages_use_the_members() -> None:
    state = load_state(MIDGAME)
    assert type(state.phase) is Phase
    assert type(GameState.new_game(["A", "B"]).phase) is Phase
    kinds: list[object] = []
    game = Game(GameState.new_game(["A", "B"]), [RandomAgent(1), RandomAgent(2)], SeededStream(3), max_rounds=30,
                observers=[lambda e, g: kinds.append(e.kind)])
    result = game.play()
    assert kinds and all(type(k) is EventKind for k in kinds)
    assert type(result.reason) is EndReason and type(game.state.phase) is Phase
    d = decide(state, "Cy", rollouts=8, seed=0, settings=DecideSettings(mode="best"))
    assert type(d.action) is ActionKind and type(d.position.verdict) is Verdict and type(d.mode) is Mode
    assert d.trades and all(type(r.candidate.kind) is TradeKind for r in d.trades)
