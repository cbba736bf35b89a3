"""Two engines, one truth: the batch kernel and the reference engine play the
same games (same fixed policy, same counter-based dice and cards) and must
agree on cash, positions, jail, bankruptcy, ownership, buildings and mortgages
after every turn."""

from __future__ import annotations

import collections
from pathlib import Path

import numpy as np
import pytest

from engine.actions import Event
from engine.game import Game
from engine.rollout import kernel_trace, reference_trace
from engine.rollout_policy import RolloutPolicy
from engine.streams import stream_keys
from models.board import HOTEL
from models.io import load_state
from models.rules import DiceSpec, Rules
from models.state import GameState

INSTANCES = sorted((Path(__file__).resolve().parents[2] / "instances").glob("*.json"))
POLICIES = (
    RolloutPolicy(),
    RolloutPolicy(jail="pay", build_reserve=0, unmortgage_reserve=0),
    RolloutPolicy(buy_reserve=200, max_level=3),
)
KEYS_PER_CASE = 10
HORIZON = 80

# Every rule path the kernel transcribes must be met by these games, or the
# comparison would prove nothing about it.
NEEDED = {
    "auction won",
    "bankrupt to bank or several",
    "bankrupt to a player",
    "liquidation sale",
    "hotel broken under shortage",
    "mortgage",
    "unmortgage",
    "even_out",
    "hotel built",
    "interest on a received mortgage",
    "leave_card",
    "leave_pay",
    "leave_doubles",
    "leave_third roll",
    "utility card roll",
    "card_each_player",
    "card_repairs",
    "card_move",
    "card_advance_nearest",
    "card_jail_free",
}


def _coverage(counter: collections.Counter[str]):  # type: ignore[no-untyped-def]
    def observe(ev: Event, game: Game) -> None:
        d = ev.data
        if ev.kind == "bankrupt":
            counter["bankrupt to a player" if d["creditor"] is not None else "bankrupt to bank or several"] += 1
        elif ev.kind == "sell_building":
            counter["liquidation sale"] += 1
            if len(d["levels"]) > 1 or any(v < HOTEL - 1 for v in d["levels"].values()):
                counter["hotel broken under shortage"] += 1
        elif ev.kind == "leave_jail":
            counter["leave_" + d["how"]] += 1
        elif ev.kind == "roll" and d["why"] == "utility card":
            counter["utility card roll"] += 1
        elif ev.kind == "card":
            counter["card_" + game.state.board.deck(d["deck"])[d["card"]].action] += 1
        elif ev.kind == "auction" and d["winner"] is not None:
            counter["auction won"] += 1
        elif ev.kind in ("even_out", "unmortgage", "mortgage"):
            counter[ev.kind] += 1
        elif ev.kind == "build" and d["level"] == HOTEL:
            counter["hotel built"] += 1
        elif ev.kind == "cash" and d["why"].startswith("interest"):
            counter["interest on a received mortgage"] += 1

    return observe


def _compare(state: GameState, key: int, policy: RolloutPolicy, observers=()) -> None:  # type: ignore[no-untyped-def]
    ref = reference_trace(state, key, HORIZON, policy, observers=observers)
    ker = kernel_trace(state, key, HORIZON, policy)
    assert ker.shape == ref.shape, f"{len(ker)} kernel turns against {len(ref)} reference turns"
    bad = np.nonzero((ker != ref).any(axis=1))[0]
    assert bad.size == 0, f"first differing turn {bad[0]}: kernel {ker[bad[0]].tolist()} reference {ref[bad[0]].tolist()}"


def test_instances_all_policies_450_games() -> None:
    counter: collections.Counter[str] = collections.Counter()
    observe = _coverage(counter)
    games = 0
    for path in INSTANCES:
        state = load_state(path)
        for pi, policy in enumerate(POLICIES):
            for key in stream_keys(pi, KEYS_PER_CASE):
                _compare(state, int(key), policy, observers=[observe])
                games += 1
    assert games >= 200
    missing = NEEDED - set(counter)
    assert not missing, f"paths never exercised: {sorted(missing)}"


@pytest.mark.parametrize(
    "dice",
    [DiceSpec(3, 6), DiceSpec(1, 12), DiceSpec(2, 8, (1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 3.0, 5.0))],
    ids=["three-dice", "one-die", "loaded-d8"],
)
def test_other_dice(dice: DiceSpec) -> None:
    state = GameState.new_game(["A", "B", "C"], rules=Rules(dice=dice))
    for key in stream_keys(11, 6):
        _compare(state, int(key), RolloutPolicy())


def test_mid_turn_state_with_doubles_and_held_cards() -> None:
    state = load_state(INSTANCES[0].parent / "late-game-house-shortage.json")
    state.phase = "rolled"
    state.doubles_rolled = 1
    state.players[state.to_move].jail_cards = 1
    for key in stream_keys(5, 6):
        _compare(state, int(key), RolloutPolicy())
