"""engine.chains.ept: expected rent per opponent turn, against the chain's landings by
hand, the reference engine's rent rule, and a movement-only Monte Carlo that
weights railroad landings by the nearest-railroad card's multiplier."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.chains.ept import ept_table, long_run_blocks, state_ept
from engine.chains.landing import JailPolicyAgent
from engine.chains.markov import PositionChain, columns
from engine.rules.game import Game
from engine.rules.streams import SeededStream
from models.board import standard_board
from models.io import load_state
from models.rules import Rules
from models.state import BANK, GameState

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
Z_MAX = 4.0


@pytest.fixture(scope="module")
def chain():
    return PositionChain(standard_board(), Rules(), "long")


@pytest.fixture(scope="module")
def table(chain):
    return ept_table(chain)


def block(chain, name):
    return chain.landings_per_turn[columns(chain.n)[name]]


def test_street_rows(chain, table):
    board = chain.board
    plain = block(chain, "plain")
    for s in board.squares:
        if s.kind != "street":
            continue
        expected = [2 * s.rents[0] * plain[s.index]] + [s.rents[k] * plain[s.index] for k in range(1, 6)]
        np.testing.assert_allclose(table[s.name], expected, rtol=1e-12, err_msg=s.name)
        # No card brings a token to a street with a multiplier: all landings are plain.
        assert block(chain, "rr")[s.index] == 0 and block(chain, "ut")[s.index] == 0
    # Hand numbers: Boardwalk with a hotel is $2000 times its landings per turn.
    assert table["Boardwalk"][5] == pytest.approx(2000 * plain[39], rel=1e-12)
    assert table["Mediterranean Avenue"][0] == pytest.approx(4 * plain[1], rel=1e-12)


def test_group_rows_are_sums(chain, table):
    board = chain.board
    for group in board.street_groups:
        names = [board.squares[s].name for s in board.groups[group]]
        for k in range(6):
            assert table[group][k] == pytest.approx(sum(table[n][k] for n in names), rel=1e-12)
    props = {board.squares[s].name for s in board.property_squares}
    assert set(table) == props | set(board.street_groups)


def test_railroad_and_utility_rows_by_formula(chain, table):
    board = chain.board
    plain, rr_w, ut_w = block(chain, "plain"), block(chain, "rr_w"), block(chain, "ut_w")
    tot = chain.totals_per_turn
    for s in board.railroads:
        name = board.squares[s].name
        assert len(table[name]) == 4
        for j, rent in enumerate((25, 50, 100, 200)):
            assert table[name][j] == pytest.approx(rent * (plain[s] + rr_w[s]), rel=1e-12)
        # rr_w is twice the card landings (the card doubles the rent).
        assert rr_w[s] == pytest.approx(2 * block(chain, "rr")[s], rel=1e-12)
    for s in board.utilities:
        name = board.squares[s].name
        for j, mult in enumerate((4, 10)):
            assert table[name][j] == pytest.approx(mult * tot[s] + 7 * ut_w[s], rel=1e-12)
        assert ut_w[s] == pytest.approx(10 * block(chain, "ut")[s], rel=1e-12)


def simulate_rents(n_turns: int, seed: int, batches: int = 50):
    """Per-turn railroad landings weighted by the card multiplier, and utility rent
    (4x / 10x the roll's total on a plain landing, 10 x E[total] = 70 on the card)."""
    board = standard_board()
    state = GameState.new_game(["token", "idle"], board, Rules())
    rr_idx = {s: i for i, s in enumerate(board.railroads)}
    ut_idx = {s: i for i, s in enumerate(board.utilities)}
    rr = np.zeros((batches, 4))
    ut = np.zeros((batches, 2, 2))  # [batch, utility, held 1 or 2]
    cur = {"b": 0, "card": None, "total": 0}

    def observe(event, game):
        if event.player != 0:
            return
        if event.kind == "roll":
            cur["card"] = None
            cur["total"] = sum(event.data["dice"])
        elif event.kind == "card":
            cur["card"] = board.deck(event.data["deck"])[event.data["card"]]
        elif event.kind == "roll_end" and not event.data["in_jail"]:
            pos = event.data["position"]
            card = cur["card"]
            by_card = card is not None and card.action == "advance_nearest"
            if pos in rr_idx:
                rr[cur["b"], rr_idx[pos]] += card.rent_multiplier if by_card else 1
            elif pos in ut_idx:
                if by_card:
                    assert card.dice_multiplier == 10
                    ut[cur["b"], ut_idx[pos]] += 10 * 7
                else:
                    ut[cur["b"], ut_idx[pos]] += (4 * cur["total"], 10 * cur["total"])

    game = Game(
        state,
        [JailPolicyAgent("long"), JailPolicyAgent("long")],
        SeededStream(seed),
        movement_only=True,
        max_rounds=10**12,
        observers=[observe],
    )
    per = n_turns // batches
    for b in range(batches):
        cur["b"] = b
        for _ in range(per):
            state.to_move = 0
            state.phase = "start"
            game.play_turn()
    rr /= per
    ut /= per

    def stats(x):
        return x.mean(axis=0), x.std(axis=0, ddof=1) / np.sqrt(batches)

    return stats(rr), stats(ut)


def test_railroads_and_utilities_against_engine(chain, table):
    # ~400,000 rolls of the reference engine (movement only, long jail policy).
    (rr_mean, rr_se), (ut_mean, ut_se) = simulate_rents(340_000, seed=99)
    board = chain.board
    zs = []
    for i, s in enumerate(board.railroads):
        name = board.squares[s].name
        for j, rent in enumerate((25, 50, 100, 200)):
            z = (table[name][j] - rent * rr_mean[i]) / (rent * rr_se[i])
            zs.append(z)
    for i, s in enumerate(board.utilities):
        name = board.squares[s].name
        for j in range(2):
            zs.append((table[name][j] - ut_mean[i, j]) / ut_se[i, j])
    zs = np.abs(zs)
    print(f"EPT railroads/utilities: max |z| = {zs.max():.2f}")
    assert zs.max() < Z_MAX
    # The test can tell: without the card's doubling the railroads would be far off.
    plain, rr = block(chain, "plain"), block(chain, "rr")
    z_undoubled = [(plain[s] + rr[s] - rr_mean[i]) / rr_se[i] for i, s in enumerate(board.railroads)]
    print(f"undoubled railroads: max |z| = {np.abs(z_undoubled).max():.1f}")
    assert np.abs(z_undoubled).max() > 2 * Z_MAX


def test_state_ept_by_hand(chain):
    state = load_state(INSTANCES / "late-game-house-shortage.json")
    board = state.board
    plain, rr_w, ut_w = block(chain, "plain"), block(chain, "rr_w"), block(chain, "ut_w")
    tot = chain.totals_per_turn
    ept = state_ept(chain, state)
    assert ept.shape == (board.size,)
    sq = board.property_index
    # Houses: Oriental 3 houses ($270), Illinois 4 houses ($925), hotel on Boardwalk ($2000).
    assert ept[sq["Oriental Avenue"]] == pytest.approx(270 * plain[6], rel=1e-12)
    assert ept[sq["Illinois Avenue"]] == pytest.approx(925 * plain[24], rel=1e-12)
    assert ept[sq["Boardwalk"]] == pytest.approx(2000 * plain[39], rel=1e-12)
    # Mortgaged: St. Charles, Pacific.
    assert ept[sq["St. Charles Place"]] == 0.0 and ept[sq["Pacific Avenue"]] == 0.0
    # Lone lot, no monopoly: Mediterranean $2, Atlantic $22.
    assert ept[sq["Mediterranean Avenue"]] == pytest.approx(2 * plain[1], rel=1e-12)
    assert ept[sq["Atlantic Avenue"]] == pytest.approx(22 * plain[26], rel=1e-12)
    # Bob holds B&O and Short Line: $50 each, the card doubling included.
    assert ept[sq["B&O Railroad"]] == pytest.approx(50 * (plain[25] + rr_w[25]), rel=1e-12)
    assert ept[sq["Reading Railroad"]] == pytest.approx(25 * (plain[5] + rr_w[5]), rel=1e-12)
    # One utility each: 4 x the roll, or 10 x a fresh roll (mean 7) by the card.
    assert ept[sq["Electric Company"]] == pytest.approx(4 * tot[12] + 7 * ut_w[12], rel=1e-12)
    assert ept[sq["Water Works"]] == pytest.approx(4 * tot[28] + 7 * ut_w[28], rel=1e-12)
    non_property = [s for s in range(board.size) if s not in board.property_squares]
    assert not ept[non_property].any()

    # Variations: a bare monopoly pays double (also with a lot of it mortgaged),
    # unowned pays 0, and a mortgaged railroad still counts for the owner's others.
    s2 = state.copy()
    cy = s2.player_index("Cy")
    s2.owner[sq["Baltic Avenue"]] = cy
    s2.mortgaged[sq["Baltic Avenue"]] = True
    s2.owner[sq["Ventnor Avenue"]] = BANK
    s2.mortgaged[sq["Short Line"]] = True
    e2 = state_ept(chain, s2)
    assert e2[sq["Mediterranean Avenue"]] == pytest.approx(4 * plain[1], rel=1e-12)
    assert e2[sq["Baltic Avenue"]] == 0.0
    assert e2[sq["Ventnor Avenue"]] == 0.0
    assert e2[sq["Short Line"]] == 0.0
    assert e2[sq["B&O Railroad"]] == pytest.approx(50 * (plain[25] + rr_w[25]), rel=1e-12)
    s2.owner[sq["Water Works"]] = s2.owner[sq["Electric Company"]]
    e3 = state_ept(chain, s2)
    assert e3[sq["Water Works"]] == pytest.approx(10 * tot[28] + 7 * ut_w[28], rel=1e-12)


def test_state_ept_agrees_with_engine_rent(chain):
    """For streets and railroads, EPT = the engine's rent (no card) x plain landings
    + the engine's card rent x card landings."""
    state = load_state(INSTANCES / "late-game-house-shortage.json")
    state.mortgaged[state.board.property_index["Short Line"]] = True
    board = state.board
    game = Game(state.copy(), [JailPolicyAgent(), JailPolicyAgent(), JailPolicyAgent(), JailPolicyAgent()], SeededStream(1))
    rr_card = next(c for c in board.chance if c.action == "advance_nearest" and c.group == "railroad")
    plain, rr = block(chain, "plain"), block(chain, "rr")
    ept = state_ept(chain, state)
    for s in board.property_squares:
        kind = board.squares[s].kind
        if kind == "street":
            assert ept[s] == pytest.approx(game.rent(s, 7) * plain[s], rel=1e-12, abs=0)
        elif kind == "railroad":
            expected = game.rent(s, 7) * plain[s] + game.rent(s, 7, rr_card) * rr[s]
            assert ept[s] == pytest.approx(expected, rel=1e-12, abs=0)


def test_time_dependent_blocks(chain):
    """Passing the blocks of one turn's landings gives that turn's expected rent."""
    state = load_state(INSTANCES / "late-game-house-shortage.json")
    from engine.chains.ept import (
        blocks_from,  # the documented way to build per-turn blocks
    )

    dist = chain.distributions(0, 2)
    land = dist @ chain.L
    tot = dist @ chain.landing_totals
    per_turn = state_ept(chain, state, blocks_from(chain, land, tot))
    assert per_turn.shape == (3, chain.n)
    # Turn 0 from Go: Illinois (4 houses, $925) only through its plain landings that turn.
    assert per_turn[0, 24] == pytest.approx(925 * chain.L[0, 24], rel=1e-12)
    long_run = state_ept(chain, state, long_run_blocks(chain))
    np.testing.assert_allclose(state_ept(chain, state), long_run)
    # Far ahead, the per-turn EPT is the long-run EPT.
    far = chain.distributions(0, 300)[-1]
    np.testing.assert_allclose(
        state_ept(chain, state, blocks_from(chain, far @ chain.L, far @ chain.landing_totals)), long_run, rtol=1e-8
    )
