"""engine.chains.markov: the exact position chain against hand enumeration, published
figures and the reference engine played in movement-only mode.

The Monte Carlo checks drive :class:`engine.rules.game.Game` directly (one token, the
other seat idle, as :func:`engine.chains.landing.simulate_landings` does) with an
observer of our own that counts ``roll_end`` events per turn; standard errors
come from batch means over consecutive turns (turns are correlated through the
position). Every square and the in-jail entry must agree with the chain's
long-run landings per turn within 4 standard errors.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from engine.chains.landing import JailPolicyAgent, RollLandings
from engine.chains.markov import PositionChain, columns
from engine.rules.game import Game
from engine.rules.streams import SeededStream
from models.board import parse_board, standard_board
from models.io import load_state
from models.rules import DiceSpec, Rules
from models.state import GameState

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
Z_MAX = 4.0
ILLINOIS, JUST_VISITING, GO_TO_JAIL = 24, 10, 30


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def folded(chain: PositionChain, per_turn: np.ndarray) -> np.ndarray:
    """``n + 1`` landings per turn: each square (plain + nearest-card arrivals), then in jail."""
    c = columns(chain.n)
    sq = per_turn[..., c["plain"]] + per_turn[..., c["rr"]] + per_turn[..., c["ut"]]
    return np.concatenate([sq, per_turn[..., c["jail"]]], axis=-1)


def row_rolls(chain: PositionChain) -> np.ndarray:
    """Expected rolls during a turn from each state: the unweighted landing columns of ``L``."""
    return chain.L[:, : 3 * chain.n + 1].sum(axis=1)


def simulate(board, rules, policy: str, n_turns: int, seed: int, batches: int = 100):
    """Play ``n_turns`` movement-only turns of one token; return (mean, batch-means SE, rolls) of
    the ``n + 1`` landings per turn (square, then in jail), counted per roll
    (:class:`engine.chains.landing.RollLandings`: a turn sat out in jail lands nowhere)."""
    state = GameState.new_game(["token", "idle"], board, rules)
    counts = np.zeros((batches, board.size + 1))
    observe = RollLandings(board, 0, counts[0])
    game = Game(
        state,
        [JailPolicyAgent(policy), JailPolicyAgent(policy)],
        SeededStream(seed),
        movement_only=True,
        max_rounds=10**12,
        observers=[observe],
    )
    per = n_turns // batches
    for b in range(batches):
        observe.row = counts[b]
        for _ in range(per):
            state.to_move, state.phase = 0, "start"
            game.play_turn()
    means = counts / per
    return means.mean(axis=0), means.std(axis=0, ddof=1) / np.sqrt(batches), counts.sum()


def z_scores(chain: PositionChain, mean: np.ndarray, se: np.ndarray) -> np.ndarray:
    exact = folded(chain, chain.landings_per_turn)
    zero = se == 0
    # A square never landed on in the simulation must be one the chain never lands on.
    assert np.all(exact[zero] == 0) and np.all(mean[zero] == 0), np.nonzero(zero)
    z = np.zeros_like(mean)
    z[~zero] = (mean[~zero] - exact[~zero]) / se[~zero]
    return z


def check_exact(chain, board, rules, policy, n_turns, seed):
    mean, se, rolls = simulate(board, rules, policy, n_turns, seed)
    z = z_scores(chain, mean, se)
    worst = int(np.argmax(np.abs(z)))
    assert np.abs(z).max() < Z_MAX, f"square {worst}: z = {z[worst]:.2f}"
    # Rolls per turn too.
    total_se = se.sum()  # conservative (batch totals' SE is smaller than the sum of SEs)
    assert abs(mean.sum() - chain.stationary @ row_rolls(chain)) < Z_MAX * total_se
    return float(np.abs(z).max()), rolls, mean, se


def tiny_board_doc() -> dict:
    street = lambda name, group: {
        "type": "street", "name": name, "group": group, "price": 60,
        "rents": [2, 10, 30, 90, 160, 250], "house_cost": 50,
    }
    return {
        "name": "tiny-8",
        "squares": [
            {"type": "go", "name": "Go"},
            street("A", "g1"),
            street("B", "g1"),
            {"type": "jail", "name": "Jail"},
            street("C", "g2"),
            street("D", "g2"),
            {"type": "go_to_jail", "name": "Go To Jail"},
            {"type": "free_parking", "name": "Parking"},
        ],
        "decks": {"chance": [], "community_chest": []},
    }


def enumerate_turn(board, rules: Rules, policy: str, state: int):
    """One turn from ``state`` on a board without card squares, roll by roll as the engine plays it.

    Returns (end-state distribution, landings per square + in jail, expected rolls), in
    fractions. Written from :mod:`engine.rules.game`, not from the chain: a double counts towards
    ``doubles_to_jail`` only under ``doubles_again`` (else every double is the first); the
    ``doubles_to_jail``-th jails without moving; a double rolls again under ``doubles_again``.
    In jail: no roll unless ``jail_doubles`` or the last turn pays; a double with
    ``jail_doubles`` frees and moves; otherwise stay, or after the last turn pay and move
    (``pay``) or leave free without moving (``free``, the roll counted in jail). An unbounded
    turn (doubles roll again for ever) is followed until less than 1e-20 of it is left.
    """
    n, jail, gtj = board.size, board.jail, board.go_to_jail
    dice = rules.dice
    weights = dice.weights or (1,) * dice.sides
    wsum = sum(Fraction(w) for w in weights)
    throws = []
    for faces in itertools.product(range(1, dice.sides + 1), repeat=dice.count):
        p = Fraction(1)
        for f in faces:
            p *= Fraction(weights[f - 1]) / wsum
        if p:
            throws.append((sum(faces), dice.count >= 2 and len(set(faces)) == 1, p))
    ends: dict[int, Fraction] = defaultdict(Fraction)
    land: dict[int, Fraction] = defaultdict(Fraction)  # key n: in jail
    rolls = Fraction(0)
    m = rules.max_jail_rolls if policy == "long" else 1
    J0 = n

    def arrive(a: int, p: Fraction) -> bool:
        if a == gtj:
            land[n] += p
            ends[J0] += p
            return False
        land[a] += p
        return True

    def free_turn(start: int) -> None:
        nonlocal rolls
        level = {start: Fraction(1)}
        run = 0  # the engine's doubles_rolled
        while level:
            nxt: dict[int, Fraction] = defaultdict(Fraction)
            for pos, p in level.items():
                for t, dbl, q in throws:
                    pq = p * q
                    rolls += pq
                    count = (run + 1 if rules.doubles_again else 1) if dbl else 0
                    if dbl and rules.doubles_to_jail and count >= rules.doubles_to_jail:
                        land[n] += pq
                        ends[J0] += pq
                        continue
                    a = (pos + t) % n
                    if arrive(a, pq):
                        if dbl and rules.doubles_again:
                            nxt[a] += pq
                        else:
                            ends[a] += pq
            run += 1
            level = dict(nxt)
            if sum(level.values()) < Fraction(1, 10**20):
                break

    if state < n:
        free_turn(state)
    elif policy == "short":
        free_turn(jail)
    else:
        f = state - n
        last = f + 1 >= m
        after = jail if last else n + f + 1  # after the last jail turn: free on the jail square
        if not rules.jail_doubles and not (last and rules.jail_release == "pay"):
            ends[after] += 1
        else:
            for t, dbl, q in throws:
                rolls += q
                if not (dbl and rules.jail_doubles) and (not last or rules.jail_release == "free"):
                    land[n] += q
                    ends[after] += q
                    continue
                if arrive((jail + t) % n, q):  # freed by doubles, or paid after the last: move, no extra roll
                    ends[(jail + t) % n] += q
    return ends, land, rolls


@pytest.fixture(scope="module")
def std_long():
    return PositionChain(standard_board(), Rules(), "long")


@pytest.fixture(scope="module")
def std_short():
    return PositionChain(standard_board(), Rules(), "short")


@pytest.mark.parametrize("policy", ["long", "short"])
def test_rows_and_columns(policy):
    chain = PositionChain(standard_board(), Rules(), policy)
    n = chain.n
    assert chain.T.shape == (n + (3 if policy == "long" else 1),) * 2
    np.testing.assert_allclose(chain.T.sum(axis=1), 1.0, atol=1e-12)
    assert (chain.T >= -1e-15).all() and (chain.L >= -1e-15).all()
    rolls = row_rolls(chain)
    # At least one roll, at most 1 + 1/6 + 1/36 (three rolls only after two doubles).
    assert (rolls >= 1 - 1e-12).all() and (rolls <= 1 + 1 / 6 + 1 / 36 + 1e-12).all()
    if policy == "long":  # one roll in jail, whatever happens
        np.testing.assert_allclose(rolls[n:], 1.0, atol=1e-12)
    else:
        assert rolls[n] == pytest.approx(rolls[chain.board.jail], abs=1e-12)
    # The long-run rolls per turn (pi . row sums) is about 1.17 (long) / 1.19 (short).
    per_turn = chain.stationary @ rolls
    assert 1.15 < per_turn < 1.2
    assert per_turn == pytest.approx(folded(chain, chain.landings_per_turn).sum(), abs=1e-12)
    np.testing.assert_allclose(chain.stationary @ chain.T, chain.stationary, atol=1e-12)
    assert chain.stationary.sum() == pytest.approx(1.0, abs=1e-12)


def test_rolls_per_turn_property(std_long):
    expected = std_long.stationary @ row_rolls(std_long)
    assert std_long.rolls_per_turn == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("policy", ["long", "short"])
def test_long_run_landing_shares(policy):
    chain = PositionChain(standard_board(), Rules(), policy)
    share = chain.long_run_landing()
    assert share.shape == (41,)
    assert share.sum() == pytest.approx(1.0, abs=1e-12)
    assert share[GO_TO_JAIL] == 0.0
    assert (share >= 0).all()
    lpt = folded(chain, chain.landings_per_turn)
    np.testing.assert_allclose(share, lpt / lpt.sum(), atol=1e-14)


def test_published_figures(std_long, std_short):
    """Truman Collins, "Probabilities in the Game of Monopoly" (tkcs-collins.com), shares of
    rolls, long stay in jail: Illinois Avenue 2.99 %, In Jail 9.39 %; short stay: In Jail ~3.9 %."""
    long_ = std_long.long_run_landing() * 100
    short = std_short.long_run_landing() * 100
    assert long_[ILLINOIS] == pytest.approx(2.99, abs=0.02)
    assert long_[40] == pytest.approx(9.4, abs=0.1)
    assert short[40] == pytest.approx(4.0, abs=0.15)
    assert short[40] < long_[40]
    assert short[JUST_VISITING] > long_[JUST_VISITING]
    # Illinois is the most landed-on property under either policy.
    props = list(standard_board().property_squares)
    assert max(props, key=lambda s: long_[s]) == ILLINOIS
    assert max(props, key=lambda s: short[s]) == ILLINOIS


def test_state_index(std_long, std_short):
    assert std_long.state_index(7) == 7
    assert std_long.state_index(10, in_jail=True, jail_turns=0) == 40
    assert std_long.state_index(10, in_jail=True, jail_turns=2) == 42
    assert std_short.state_index(10, in_jail=True, jail_turns=2) == 40


# ---------------------------------------------------------------------------
# a tiny board by hand
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny():
    board = parse_board(tiny_board_doc())
    rules = Rules(dice=DiceSpec(2, 2))
    return board, rules


def test_tiny_board_one_turn_from_go_by_hand(tiny):
    """2d2 (totals 2 double 1/4, 3 1/2, 4 double 1/4) from Go on an 8-square board
    with Jail at 3 and Go To Jail at 6.

    Jail: 2 then 4 (-> 6), 4 then 2 (-> 6): 1/16 each; two doubles ending on 4 or 0
    (2+2, 4+4) then a third double: 2 * 1/16 * 1/2. Total 3/16.
    Just Visiting (3): 3 at once (1/2), or 4+4 -> 0 then 3 (1/32): 17/32.
    Square 5: 2 then 3: 1/8.  Square 7: 4 then 3 (1/8) or 2+2 then 3 (1/32): 5/32.
    """
    board, rules = tiny
    chain = PositionChain(board, rules, "long")
    d1 = chain.distributions(0, 1)[1]
    expected = np.zeros(chain.size)
    expected[8] = 3 / 16  # J0
    expected[3] = 17 / 32
    expected[5] = 1 / 8
    expected[7] = 5 / 32
    np.testing.assert_allclose(d1, expected, atol=1e-15)
    # Expected rolls in that turn: 1 + P(first double) + P(two doubles, not jailed).
    # Doubles: 1/2; second roll only after 2 or 4; third after (2,2) or (4,4): 1/8.
    assert row_rolls(chain)[0] == pytest.approx(1 + 1 / 2 + 1 / 8, abs=1e-15)


@pytest.mark.parametrize("policy", ["long", "short"])
@pytest.mark.parametrize("dice", [DiceSpec(2, 2), DiceSpec(2, 3, (1, 2, 4)), DiceSpec(2, 6)], ids=str)
def test_tiny_board_every_row_against_enumeration(tiny, policy, dice):
    board, _ = tiny
    rules = Rules(dice=dice)
    chain = PositionChain(board, rules, policy)
    n = board.size
    for x in range(chain.size):
        ends, land, rolls = enumerate_turn(board, rules, policy, x)
        t_row = np.zeros(chain.size)
        for k, v in ends.items():
            t_row[k] += float(v)
        l_row = np.zeros(n + 1)
        for k, v in land.items():
            l_row[k] += float(v)
        np.testing.assert_allclose(chain.T[x], t_row, atol=1e-14, err_msg=f"T row {x}")
        np.testing.assert_allclose(chain.L[x, : n + 1], l_row, atol=1e-14, err_msg=f"L row {x}")
        assert not chain.L[x, n + 1 :].any()  # no cards on this board
        assert row_rolls(chain)[x] == pytest.approx(float(rolls), abs=1e-14)


def test_distributions_and_matrix_power(std_long):
    for start in (0, 17, 40, 42):
        k = 12
        dist = std_long.distributions(start, k)
        assert dist.shape == (k + 1, std_long.size)
        unit = np.zeros(std_long.size)
        unit[start] = 1.0
        np.testing.assert_array_equal(dist[0], unit)
        np.testing.assert_allclose(dist.sum(axis=1), 1.0, atol=1e-12)
        for t in (1, 5, k):
            np.testing.assert_allclose(dist[t], unit @ np.linalg.matrix_power(std_long.T, t), atol=1e-13)
    sq, jail = std_long.square_distributions(0, 3)
    np.testing.assert_allclose(sq.sum(axis=1) + jail, 1.0, atol=1e-12)


def test_expected_landings(std_long, std_short, tiny):
    board, rules = tiny
    for chain in (std_long, std_short, PositionChain(board, rules, "long")):
        rolls = row_rolls(chain)
        for start in (0, chain.n):
            k = 6
            el = chain.expected_landings(start, k)
            assert el.shape == (k, chain.n + 1)
            dist = chain.distributions(start, k - 1)
            np.testing.assert_allclose(el.sum(axis=1), dist @ rolls, atol=1e-12)
            # Row 0 is the landing row of the start state itself.
            np.testing.assert_allclose(el[0], folded(chain, chain.L[start]), atol=1e-14)
        far = chain.expected_landings(0, 400)[-1]
        np.testing.assert_allclose(far, folded(chain, chain.landings_per_turn), atol=1e-9)
    assert std_long.expected_landings(0, 0).shape == (0, 41)
    # From Go in the first turn, Go To Jail is never a landing.
    assert std_long.expected_landings(0, 3)[:, GO_TO_JAIL].max() == 0.0


# ---------------------------------------------------------------------------
# exactness against the reference engine
# ---------------------------------------------------------------------------
def test_exact_against_engine_long(std_long):
    # ~1,000,000 rolls (1.166 rolls per turn in the long run).
    zmax, rolls, *_ = check_exact(std_long, standard_board(), Rules(), "long", 860_000, seed=20240501)
    assert rolls > 1_000_000
    print(f"long: max |z| = {zmax:.2f} over {rolls:.0f} rolls")


def test_exact_against_engine_short(std_short):
    # Fewer rolls for the short policy (~250,000) to keep the suite's time down; the long
    # run above covers the shared free-square part of the chain with 1M rolls.
    zmax, rolls, *_ = check_exact(std_short, standard_board(), Rules(), "short", 215_000, seed=77)
    assert rolls > 250_000
    print(f"short: max |z| = {zmax:.2f} over {rolls:.0f} rolls")


def test_exact_against_engine_mini_board():
    state = load_state(INSTANCES / "mini-board.json")
    chain = PositionChain(state.board, state.rules, "long")
    zmax, rolls, *_ = check_exact(chain, state.board, state.rules, "long", 180_000, seed=12)
    assert rolls > 200_000
    print(f"mini-board: max |z| = {zmax:.2f} over {rolls:.0f} rolls")


def test_loaded_dice_change_the_table_and_match_the_engine(std_long):
    rules = Rules(dice=DiceSpec(2, 6, (1, 1, 1, 1, 1, 3)))
    chain = PositionChain(standard_board(), rules, "long")
    diff = np.abs(chain.long_run_landing() - std_long.long_run_landing())
    assert diff.max() > 3e-3  # the sixes shift the table visibly (in jail: +0.43 points)
    assert chain.p_doubles == pytest.approx(14 / 64)
    zmax, rolls, mean, se = check_exact(chain, standard_board(), rules, "long", 175_000, seed=5)
    assert rolls > 200_000
    # ... and the engine really throws the loaded dice: the fair table is far off.
    assert np.abs(z_scores(std_long, mean, se)).max() > 10
    print(f"loaded dice: max |z| = {zmax:.2f} over {rolls:.0f} rolls")


def test_chain_for_shares_one_chain_per_board_and_rules() -> None:
    import dataclasses

    from engine.chains.markov import chain_for

    a = chain_for(standard_board(), Rules())
    rebuilt = dataclasses.replace(standard_board())  # equal content, another object
    assert rebuilt is not standard_board()
    assert chain_for(rebuilt, Rules()) is a
    other = chain_for(standard_board(), Rules(dice=DiceSpec(3, 6)))
    assert other is not a and not np.allclose(other.stationary[:40], a.stationary[:40])
    assert np.allclose(a.stationary, PositionChain(standard_board(), Rules(), "long").stationary)
