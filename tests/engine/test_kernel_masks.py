"""The batch kernel's group masks (``engine.sim._kernel.MASK_BITS``) against a recount.

The kernel keeps, per player, bit masks of the groups it owns a lot of, holds
completely, is one short of (a street group, by the count), has a mortgaged
lot in and has an unmortgaged lot in, and updates them on every change of
owner and mortgage. The act phase, the trade, the liquidation and the net
worth visit only the groups of a mask, so a stale bit would change the game.
Here the masks and the lot counts at the end of a game (the work state that
:func:`engine.sim._kernel.run_batch` leaves behind) are recounted from the owners
and mortgages alone, on every bundled instance and on a board with more
groups than one 32-bit word holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.rules.streams import stream_keys
from engine.sim import _kernel as k
from engine.sim.rollout_policy import RolloutPolicy
from engine.sim.rollout_tables import encode
from models.io import load_state
from models.rules import PRESETS
from models.state import GameState

INSTANCES = Path(__file__).resolve().parents[2] / "instances"


def _recount(B: tuple[Any, ...], X: tuple[Any, ...]) -> list[str]:
    """Every disagreement between the kernel's counts and masks and a recount from ``OWN``
    and ``MOR``."""
    GL, GI = B[1], B[2]
    PL, OWN, MOR = X[0], X[1], X[3]
    n_groups = GI.shape[0]
    words = k.mask_words(n_groups)
    bad = []
    for p in range(PL.shape[0]):
        for g in range(n_groups):
            lots = [int(s) for s in GL[g, : GI[g, k.G_N]]]
            mine = [s for s in lots if OWN[s] == p]
            n, need = len(mine), int(GI[g, k.G_NEED])
            want = {
                k.HAS: n > 0,
                k.FULL: n >= need,
                k.SHORT: bool(GI[g, k.G_STREET]) and 1 <= n == need - 1,
                k.MORT: any(MOR[s] for s in mine),
                k.FREE: any(not MOR[s] for s in mine),
            }
            if PL[p, k.CNT0 + g] != n:
                bad.append(f"player {p} group {g}: count {PL[p, k.CNT0 + g]}, owns {n}")
            for kind, on in want.items():
                word = PL[p, k.CNT0 + n_groups + kind * words + g // k.MASK_BITS]
                if bool((int(word) >> (g % k.MASK_BITS)) & 1) != on:
                    bad.append(f"player {p} group {g}: mask {kind} says {not on}")
    return bad


def _play_and_recount(state: GameState, horizon: int, seed: int, policy: RolloutPolicy | None = None) -> int:
    """Play one game per key to ``horizon`` rounds; recount after each (the work state
    holds that game's end). Returns the player-turns played."""
    tables = encode(state, policy, state.round + horizon)
    assert _recount(tables.B, tables.X0) == []
    work = tables.work()
    turns = 0
    for key in stream_keys(seed, 8):
        keys = np.array([key], dtype=np.uint64)
        w = np.empty(1, dtype=np.int64)
        worths = np.empty((1, tables.n_players), dtype=np.int64)
        info = np.empty((1, 3), dtype=np.int64)
        trace = np.zeros((0, 1), dtype=np.int64)
        final = np.empty((0, 2 * tables.n_players + 3 * tables.n_squares), dtype=np.int64)
        turns += k.run_batch(tables.B, tables.X0, work, keys, w, worths, info, trace, final)
        assert _recount(tables.B, work) == []
    return turns


@pytest.mark.parametrize("name", sorted(p.name for p in INSTANCES.glob("*.json")))
@pytest.mark.parametrize("horizon", [4, 40])
def test_masks_match_a_recount_on_every_instance(name: str, horizon: int) -> None:
    assert _play_and_recount(load_state(INSTANCES / name), horizon, seed=3) > 0


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_masks_match_a_recount_under_every_preset_and_policy(preset: str) -> None:
    state = GameState.new_game(["A", "B", "C", "D"], rules=PRESETS[preset])
    for policy in (RolloutPolicy(), RolloutPolicy(mortgage_to_build=False), RolloutPolicy(trade=False)):
        assert _play_and_recount(state, 60, seed=11, policy=policy) > 0


def _wide_board_doc(n_groups: int) -> dict[str, Any]:
    """A board of ``n_groups`` two-lot street groups (more than one mask word)."""
    squares: list[dict[str, Any]] = [{"type": "go", "name": "Go"}]
    for g in range(n_groups):
        for i in range(2):
            price = 60 + 4 * g
            squares.append(
                {
                    "type": "street",
                    "name": f"Street {g}-{i}",
                    "group": f"g{g:02d}",
                    "price": price,
                    "rents": [price // 10, price // 2, price * 3 // 2, price * 4, price * 5, price * 6],
                    "house_cost": 50,
                }
            )
        if g % 8 == 3:
            squares.append({"type": "tax", "name": f"Tax {g}", "amount": 100})
    squares.insert(len(squares) // 2, {"type": "jail", "name": "Jail"})
    squares.append({"type": "go_to_jail", "name": "Go to Jail"})
    board = {"name": "wide", "squares": squares, "railroad_rents": [25], "utility_multipliers": [4, 10], "decks": {"chance": [], "community_chest": []}}
    props = {f"Street {g}-0": {"owner": "A" if g % 2 else "B"} for g in range(0, n_groups, 3)}
    props.update({f"Street {g}-1": {"owner": "B", "mortgaged": True} for g in range(1, n_groups, 5)})
    return {
        "format": "monopoly-state/1",
        "board": board,
        "players": [{"name": "A", "cash": 1500, "position": 0}, {"name": "B", "cash": 1500, "position": 0}, {"name": "C", "cash": 1500, "position": 0}],
        "properties": props,
    }


def test_masks_match_a_recount_on_a_board_of_many_groups() -> None:
    state = load_state(_wide_board_doc(40))
    assert len(state.board.groups) == 40 and k.mask_words(40) == 2
    assert _play_and_recount(state, 80, seed=5) > 0
