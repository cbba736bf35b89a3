"""engine.chains.markov under the rule variants: every doubles and jail variant, the presets.

* Exactness: on tiny boards without cards, every row of the turn matrix and of
  the landings equals an enumeration written from the engine's rules
  (:meth:`engine.rules.game.Game._roll_and_move`, ``_jail_turn``), roll by roll in
  exact fractions, for each variant, two dice and both jail policies.
* By hand: a board with no Go To Jail and no cards is a random walk on a
  cycle: its turn matrix is circulant, so the stationary distribution is
  uniform; a four-square board with a one-die d2 and the no-doubles jail
  (sit out one turn, leave free) is solved in seventeenths.
* Identities: rules that change money only give the standard chain bit for
  bit; with no jail on doubles the per-roll landing shares do not depend on
  whether a double rolls again (the rolls form the same chain, only grouped
  into turns differently).
* Against the reference engine in movement-only mode, for every preset and
  every single doubles and jail variant: the landings per turn within 4
  batch-means standard errors on every square (the count of
  :class:`engine.chains.landing.RollLandings`); where the variant's table is far
  from the standard one at this sample size, the simulation must also reject
  the standard chain.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from engine.chains.markov import ChainError, PositionChain, columns, turn_shape
from models.board import parse_board, standard_board
from models.rules import PRESETS, DiceSpec, Rules
from tests.engine.test_markov import enumerate_turn, simulate

Z_MAX = 4.0

# ---------------------------------------------------------------------------
# the variants
# ---------------------------------------------------------------------------
SINGLE: dict[str, dict] = {
    "no-doubles-again": {"doubles_again": False},
    "dtj-0": {"doubles_to_jail": 0},
    "dtj-1": {"doubles_to_jail": 1},
    "dtj-2": {"doubles_to_jail": 2},
    "dtj-4": {"doubles_to_jail": 4},
    "dtj-5": {"doubles_to_jail": 5},
    "jail-1": {"max_jail_rolls": 1},
    "jail-2": {"max_jail_rolls": 2},
    "no-jail-doubles": {"jail_doubles": False},
    "release-free": {"jail_release": "free"},
}
"""One rule changed from the standard each."""
COMBINED: dict[str, dict] = {
    "again-off-dtj-1": {"doubles_again": False, "doubles_to_jail": 1},
    "again-off-dtj-0": {"doubles_again": False, "doubles_to_jail": 0},
    "jail-1-no-doubles": {"max_jail_rolls": 1, "jail_doubles": False},
    "jail-2-no-doubles": {"max_jail_rolls": 2, "jail_doubles": False},
    "sit-out-free": {"jail_doubles": False, "jail_release": "free"},
    "jail-1-free": {"max_jail_rolls": 1, "jail_release": "free"},
    "jail-2-free": {"max_jail_rolls": 2, "jail_release": "free"},
    "no-doubles-jail": {"doubles_again": False, "doubles_to_jail": 0, "max_jail_rolls": 1, "jail_doubles": False, "jail_release": "free"},
}


def variant_rules(name: str, dice: DiceSpec | None = None) -> Rules:
    kw = {**SINGLE, **COMBINED}.get(name)
    base = PRESETS[name] if kw is None else Rules(**kw)
    return base if dice is None else dataclasses.replace(base, dice=dice)


def folded(chain: PositionChain, per_turn: np.ndarray) -> np.ndarray:
    """``n + 1`` landings: each square (plain + nearest-card arrivals), then in jail."""
    c = columns(chain.n)
    sq = per_turn[..., c["plain"]] + per_turn[..., c["rr"]] + per_turn[..., c["ut"]]
    return np.concatenate([sq, per_turn[..., c["jail"]]], axis=-1)


# ---------------------------------------------------------------------------
# exact enumeration on tiny boards
# ---------------------------------------------------------------------------
def tiny_board(go_to_jail: bool = True):
    street = lambda name, group: {
        "type": "street", "name": name, "group": group, "price": 60,
        "rents": [2, 10, 30, 90, 160, 250], "house_cost": 50,
    }
    squares = [
        {"type": "go", "name": "Go"},
        street("A", "g1"),
        street("B", "g1"),
        {"type": "jail", "name": "Jail"},
        street("C", "g2"),
        street("D", "g2"),
        {"type": "go_to_jail", "name": "Go To Jail"} if go_to_jail else street("E", "g3"),
        {"type": "free_parking", "name": "Parking"},
    ]
    return parse_board({"name": "tiny-8", "squares": squares, "decks": {"chance": [], "community_chest": []}})


ENUM_DICE = [DiceSpec(2, 2), DiceSpec(2, 3, (1, 2, 4))]


@pytest.mark.parametrize("policy", ["long", "short"])
@pytest.mark.parametrize("dice", ENUM_DICE, ids=str)
@pytest.mark.parametrize("name", [*SINGLE, *COMBINED, "no-doubles"])
def test_every_row_against_enumeration(name: str, dice: DiceSpec, policy: str) -> None:
    board = tiny_board()
    rules = variant_rules(name, dice)
    chain = PositionChain(board, rules, policy)  # type: ignore[arg-type]
    n = board.size
    assert chain.size == n + (rules.max_jail_rolls if policy == "long" else 1)
    unbounded = turn_shape(rules)[0] is None
    tol = 1e-14
    for x in range(chain.size):
        ends, land, rolls = enumerate_turn(board, rules, policy, x)
        t_row = np.zeros(chain.size)
        for k, v in ends.items():
            t_row[k] += float(v)
        l_row = np.zeros(n + 1)
        for k, v in land.items():
            l_row[k] += float(v)
        np.testing.assert_allclose(chain.T[x], t_row, atol=tol, rtol=0, err_msg=f"{name} T row {x}")
        np.testing.assert_allclose(chain.L[x, : n + 1], l_row, atol=tol, rtol=0, err_msg=f"{name} L row {x}")
        assert chain.L[x, : 3 * n + 1].sum() == pytest.approx(float(rolls), abs=tol)
        if not unbounded:  # the enumeration is complete: its rows are stochastic exactly
            assert sum(ends.values()) == 1
    np.testing.assert_allclose(chain.T.sum(axis=1), 1.0, atol=1e-12)
    assert (chain.T >= -1e-15).all() and (chain.L >= -1e-15).all()


def test_turn_shape() -> None:
    assert turn_shape(Rules()) == (3, True)
    assert turn_shape(Rules(doubles_to_jail=1)) == (1, True)
    assert turn_shape(Rules(doubles_again=False, doubles_to_jail=1)) == (1, True)
    assert turn_shape(Rules(doubles_again=False)) == (1, False)
    assert turn_shape(Rules(doubles_to_jail=0)) == (None, False)
    assert turn_shape(Rules(doubles_to_jail=5)) == (5, True)


def test_a_turn_that_never_ends_is_refused() -> None:
    """Dice that always throw a double, rolling again for ever: no turn ends."""
    always = DiceSpec(2, 2, (1, 0))
    with pytest.raises(ValueError):  # the rules refuse them ...
        Rules(dice=always, doubles_to_jail=0)
    rules = Rules(dice=always, doubles_to_jail=2)
    object.__setattr__(rules, "doubles_to_jail", 0)  # ... and so does the chain, should they get there
    with pytest.raises(ChainError, match="no turn would end"):
        PositionChain(tiny_board(), rules)
    assert isinstance(ChainError("x"), ValueError)
    # With a bound on the doubles the same dice make a well-defined (if dull) chain.
    chain = PositionChain(tiny_board(), Rules(dice=always, doubles_to_jail=2))
    np.testing.assert_allclose(chain.T.sum(axis=1), 1.0, atol=1e-12)


# ---------------------------------------------------------------------------
# by hand
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [{"doubles_again": False}, {"doubles_again": False, "doubles_to_jail": 0}, {"doubles_to_jail": 0}])
@pytest.mark.parametrize("dice", [DiceSpec(2, 6), DiceSpec(2, 3, (1, 2, 4)), DiceSpec(1, 5)], ids=str)
def test_random_walk_on_a_cycle_is_uniform(kw: dict, dice: DiceSpec) -> None:
    """No Go To Jail, no cards, no jail on doubles: a turn from ``s`` moves by a total whose law
    does not depend on ``s`` (one roll, or a geometric number of them), so ``T`` restricted to
    the free squares is circulant, hence doubly stochastic, and ``pi`` is uniform (1/8 each);
    the jail states are never reached. Per roll the landings are uniform too."""
    board = tiny_board(go_to_jail=False)
    chain = PositionChain(board, Rules(dice=dice, **kw), "long")
    n = board.size
    free = chain.T[:n, :n]
    for s in range(n):
        np.testing.assert_allclose(free[s], np.roll(free[0], s), atol=1e-14)
    np.testing.assert_allclose(chain.T[:n, n:], 0.0, atol=0)
    np.testing.assert_allclose(chain.stationary[:n], 1 / n, atol=1e-14)
    np.testing.assert_allclose(chain.stationary[n:], 0.0, atol=1e-14)
    share = chain.long_run_landing()
    np.testing.assert_allclose(share[:n], 1 / n, atol=1e-14)
    assert share[n] == pytest.approx(0.0, abs=1e-14)


def four_squares():
    return parse_board(
        {
            "name": "four",
            "squares": [
                {"type": "go", "name": "Go"},
                {"type": "jail", "name": "Jail"},
                {"type": "street", "name": "A", "group": "a", "price": 60, "rents": [2, 10, 30, 90, 160, 250], "house_cost": 50},
                {"type": "go_to_jail", "name": "Go To Jail"},
            ],
            "decks": {"chance": [], "community_chest": []},
        }
    )


@pytest.mark.parametrize("release", ["free", "pay"])
def test_four_square_board_by_hand(release: str) -> None:
    """Go(0), Jail(1), A(2), Go To Jail(3); one d2 (no doubles); one jail turn, no roll for doubles.

    ``free`` (the no-doubles preset's jail): the jailed turn is sat out, then the player is free
    on square 1. Balance: pi0 = pi2/2, pi1 = pi0/2 + piJ, pi2 = pi0/2 + pi1/2,
    piJ = pi1/2 + pi2/2, so pi = (2, 6, 4, 0, 5)/17. Landings per turn (J rolls nothing):
    Go pi2/2 = 2/17, Just Visiting pi0/2 = 1/17, A pi0/2 + pi1/2 = 4/17, in jail
    pi1/2 + pi2/2 = 5/17: 12/17 rolls per turn, shares 1/6, 1/12, 1/3, 0, 5/12.

    ``pay``: the jailed turn rolls, pays and moves as from square 1: pi0 = pi2/2,
    pi1 = pi0/2, pi2 = (pi0 + pi1 + piJ)/2, piJ = (pi1 + pi2 + piJ)/2, so
    pi = (2, 1, 4, 0, 5)/12, one roll per turn, and the same shares (the sequence of rolls is
    the same chain: a roll from Just Visiting after the turn sat out, or from the jail square).
    """
    rules = Rules(dice=DiceSpec(1, 2), max_jail_rolls=1, jail_doubles=False, jail_release=release)
    chain = PositionChain(four_squares(), rules, "long")
    if release == "free":
        pi = np.array([2, 6, 4, 0, 5]) / 17
        per_turn = np.array([2, 1, 4, 0, 5]) / 17
    else:
        pi = np.array([2, 1, 4, 0, 5]) / 12
        per_turn = np.array([2, 1, 4, 0, 5]) / 12
    np.testing.assert_allclose(chain.stationary, pi, atol=1e-15)
    np.testing.assert_allclose(folded(chain, chain.landings_per_turn), per_turn, atol=1e-15)
    np.testing.assert_allclose(chain.long_run_landing(), [1 / 6, 1 / 12, 1 / 3, 0, 5 / 12], atol=1e-15)
    assert chain.rolls_per_turn == pytest.approx(per_turn.sum(), abs=1e-15)


# ---------------------------------------------------------------------------
# identities
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("policy", ["long", "short"])
def test_money_rules_leave_the_chain_alone(policy: str) -> None:
    """The pot, the Go bonus, auctions, building, the bank, the game's end and the card draw
    (uniform either way in the chain) do not touch the position chain: bit for bit."""
    std = PositionChain(standard_board(), Rules(), policy)  # type: ignore[arg-type]
    for rules in (
        PRESETS["house-jackpot"],
        PRESETS["short-game"],
        Rules(card_draw="replacement", free_parking="taxes", free_parking_seed=100),
        Rules(auctions=False, even_building=False, bank_cash=5000, cash_target=3000),
        Rules(auction_only=True),
    ):
        other = PositionChain(standard_board(), rules, policy)  # type: ignore[arg-type]
        for attr in ("T", "L", "landing_totals", "go_landings"):
            assert np.array_equal(getattr(other, attr), getattr(std, attr)), (rules.describe(), attr)


def test_doubles_rolling_again_does_not_change_the_per_roll_shares() -> None:
    """With no jail on doubles, a double that rolls again only groups the same chain of rolls
    into longer turns (in jail one roll a turn either way): the per-roll long-run shares are the
    same, through two different formulas (the fundamental matrix; one roll a turn)."""
    board = standard_board()
    for jail in ("long", "short"):
        geometric = PositionChain(board, Rules(doubles_to_jail=0), jail)  # type: ignore[arg-type]
        single = PositionChain(board, Rules(doubles_again=False), jail)  # type: ignore[arg-type]
        assert not np.allclose(geometric.T, single.T)
        assert geometric.rolls_per_turn > single.rolls_per_turn
        np.testing.assert_allclose(geometric.long_run_landing(), single.long_run_landing(), atol=1e-13)
        # Without doubles_again the count of doubles never passes one: 2..5 never jail.
        for k in (0, 2, 3, 4, 5):
            assert np.array_equal(PositionChain(board, Rules(doubles_again=False, doubles_to_jail=k), jail).T, single.T)  # type: ignore[arg-type]
    # ... and the more doubles it takes to go to jail, the nearer to the unbounded turn.
    gaps = [
        np.abs(PositionChain(board, Rules(doubles_to_jail=k)).long_run_landing() - PositionChain(board, Rules(doubles_to_jail=0)).long_run_landing()).max()
        for k in (1, 2, 3, 4, 5)
    ]
    assert all(a > b for a, b in itertools.pairwise(gaps)) and gaps[-1] < 1e-3


def test_go_landings() -> None:
    """Moves ending exactly on Go going forward, by dice or by a card, counted by hand."""
    board = standard_board()
    chain = PositionChain(board, Rules(doubles_again=False), "long")
    # One roll from Pennsylvania Avenue (34): a 6 ends on Go (5/36); a 2 reaches Chance (36),
    # whose Advance to Go (1/16) or Go Back 3 to Community Chest (33) and its Advance to Go
    # (1/16 x 1/16) end there; an 8 reaches Community Chest (2) and its Advance to Go (1/16).
    assert chain.go_landings[34] == pytest.approx(5 / 36 + 1 / 36 * (1 / 16 + 1 / 256) + 5 / 36 / 16, abs=1e-15)
    std = PositionChain(board, Rules())
    # No standard card lands on Go backwards: the moves ending on Go are the landings on Go.
    lpt = folded(std, std.landings_per_turn)
    assert std.go_landings_per_turn == pytest.approx(lpt[0], abs=1e-14)
    # A card moving back onto Go lands there without passing it: no salary, not counted.
    back = parse_board(
        {
            "name": "back",
            "squares": [
                {"type": "go", "name": "Go"},
                {"type": "free_parking", "name": "P"},
                {"type": "chance", "name": "Chance"},
                {"type": "jail", "name": "Jail"},
            ],
            "decks": {"chance": [{"action": "move", "steps": -2}, {"action": "advance_to", "square": "Go"}], "community_chest": []},
        }
    )
    one = PositionChain(back, Rules(dice=DiceSpec(1, 2), doubles_again=False), "long")
    # From P (1): a 1 reaches Chance (1/2), whose two cards both end on Go, one going forward.
    assert one.go_landings[1] == pytest.approx(1 / 4, abs=1e-15)
    assert folded(one, one.L[1])[0] == pytest.approx(1 / 2, abs=1e-15)


# ---------------------------------------------------------------------------
# against the reference engine
# ---------------------------------------------------------------------------
engine_landings = simulate  # the engine's landings per roll, as in test_markov


MC_TURNS = 150_000
MC_CASES = ["no-doubles", *SINGLE, "sit-out-free", "again-off-dtj-1"]
"""Every preset that changes the chain (the others are the standard chain, above), every single
doubles and jail variant, and two combinations the presets do not cover."""
STANDARD = PositionChain(standard_board(), Rules(), "long")


@pytest.mark.parametrize("name", MC_CASES)
def test_landings_against_the_engine(name: str) -> None:
    board = standard_board()
    rules = variant_rules(name)
    chain = PositionChain(board, rules, "long")
    seed = 2000 + MC_CASES.index(name)
    mean, se, rolls = engine_landings(board, rules, "long", MC_TURNS, seed)
    exact = folded(chain, chain.landings_per_turn)
    zero = se == 0
    assert np.all(exact[zero] == 0) and np.all(mean[zero] == 0)  # Go To Jail is never a landing
    z = (mean - exact)[~zero] / se[~zero]
    assert np.abs(z).max() < Z_MAX, f"{name}: max |z| = {np.abs(z).max():.2f} over {rolls:.0f} rolls"
    assert abs(mean.sum() - chain.rolls_per_turn) < Z_MAX * se.sum()
    # Where the variant's table is far from the standard one at this size, the engine sees it.
    std = folded(STANDARD, STANDARD.landings_per_turn)
    if (np.abs(exact - std)[~zero] / se[~zero]).max() > 12:
        assert (np.abs(mean - std)[~zero] / se[~zero]).max() > 6, f"{name}: the standard chain fits too"


def test_short_policy_no_doubles_against_the_engine() -> None:
    """The short policy pays at once, under any rules: the no-doubles preset with it."""
    board = standard_board()
    rules = PRESETS["no-doubles"]
    chain = PositionChain(board, rules, "short")
    mean, se, _ = engine_landings(board, rules, "short", MC_TURNS, seed=77)
    exact = folded(chain, chain.landings_per_turn)
    zero = se == 0
    assert np.all(exact[zero] == 0)
    assert np.abs((mean - exact)[~zero] / se[~zero]).max() < Z_MAX
