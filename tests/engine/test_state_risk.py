"""engine.chains.state_risk.state_ruin_pmf: the state-derived ruin chain, checked independently.

* Monte Carlo against the reference engine (engine.rules.game.Game with passive
  BaseAgents): a player A that owns nothing against B's developed monopolies.
  The chain draws cards memorylessly and uses their expected cash, the engine
  shuffles real decks, and B's own cards move A's cash too (B's "Chairman of
  the Board" pays A $50, B's birthday takes $10 from A); the chain counts A's
  own turns only. So the comparison allows 4 binomial standard errors + 0.02.
* Exactness on tiny inline boards (2d2 dice), without cards and with
  movement-only cards (drawn memorylessly, the chain's model): the ruin PMF
  by enumeration over every throw and card (Fractions or floats; the
  engine's rules: doubles roll again, the third double goes to jail, long
  and short jail policies, payments against the liquidation value) equals
  the chain with bucket=1 to 1e-12.
* The card-cash approximation on the standard decks (cash cards included),
  measured: against an exact enumeration with every card's own cash
  (decks with replacement, :mod:`tests.engine.card_ruin_enum`), and against
  the engine with real shuffled decks (A's turns only); the chain's error
  is about 0.04 there, bounded at 0.06.
* Probability is conserved on the instances, under the standard rules,
  ``doubles_to_jail=1`` and the no-doubles preset, buckets 1 and 50: after
  every turn the live mass plus the ruin so far is 1 to 1e-12 (forward run),
  and the backward pass from ``u_0 = 1`` stays 1 in every state.
* Edge cases: bankrupt / negative liquidation value -> entry 0 is 1; a rich
  player is (almost) never ruined.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.chains import state_moves as sm
from engine.chains import state_risk as sr
from engine.chains.markov import JailPolicy
from engine.chains.state_risk import _backward, _build_chain, _forward, state_ruin_pmf
from engine.rules.agents import BaseAgent
from engine.rules.game import Game
from engine.rules.streams import SeededStream
from models.io import load_state
from models.rules import PRESETS
from models.state import BANK, GameState
from tests.engine.card_ruin_enum import engine_own_turns_ruin, exact_ruin_pmf_with_cards

# ---------------------------------------------------------------------------
# Monte Carlo against the reference engine
# ---------------------------------------------------------------------------

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
ORANGE = ("St. James Place", "Tennessee Avenue", "New York Avenue")
RED = ("Kentucky Avenue", "Indiana Avenue", "Illinois Avenue")
RAILROADS = ("Reading Railroad", "Pennsylvania Railroad", "B&O Railroad", "Short Line")


def _holdings(groups: tuple[str, ...], houses: int) -> dict[str, Any]:
    out: dict[str, Any] = {name: {"owner": "B", "houses": houses} for name in groups}
    out.update({name: {"owner": "B"} for name in RAILROADS})
    return out


def _mc_doc(cash: int, properties: dict[str, Any], position: int = 0, jail_turns: int | None = None) -> dict[str, Any]:
    a: dict[str, Any] = {"name": "A", "cash": cash, "position": position}
    if jail_turns is not None:
        a.update(position=10, in_jail=True, jail_turns=jail_turns)
    return {
        "format": "monopoly-state/1",
        "players": [a, {"name": "B", "cash": 100_000, "position": 0}],
        "properties": properties,
        "to_move": "A",
    }


def _engine_ruin_turns(doc: dict[str, Any], games: int, turns: int) -> np.ndarray:
    """Fraction of games in which A goes bankrupt during (or right after) its t-th turn."""
    hits = np.zeros(turns + 1)
    for seed in range(games):
        count = [0]
        ruined: list[int] = []

        def observe(event: Any, game: Game, count: list[int] = count, ruined: list[int] = ruined) -> None:
            if event.player == 0:
                if event.kind == "turn":
                    count[0] += 1
                elif event.kind == "bankrupt":
                    ruined.append(count[0])

        game = Game(load_state(doc), [BaseAgent(), BaseAgent()], SeededStream(seed), max_rounds=turns, observers=[observe])
        game.play()
        assert count[0] <= turns
        if ruined:
            hits[ruined[0]] += 1
    return hits / games


MC_CASES = {
    # A on Go with $600 against orange + red with 3 houses and four railroads.
    "go-600-orange-red": _mc_doc(600, _holdings(ORANGE + RED, 3)),
    # A on Free Parking with $600 against orange with 3 houses and four railroads.
    "parking-600-orange": _mc_doc(600, _holdings(ORANGE, 3), position=20),
    # A in jail after two failed rolls (third roll: doubles or pay and move), $350.
    "jail2-350-orange-red": _mc_doc(350, _holdings(ORANGE + RED, 3), jail_turns=2),
}
MC_GAMES = 4000
MC_TURNS = 20


@pytest.mark.parametrize("case", sorted(MC_CASES))
def test_ruin_pmf_matches_engine_monte_carlo(case: str) -> None:
    doc = MC_CASES[case]
    state = load_state(doc)
    assert state.properties_of(0) == []  # A earns no rent: income on or off must agree
    chain = state_ruin_pmf(state, "A", MC_TURNS, bucket=5, jail="long", income=False)
    assert np.array_equal(chain, state_ruin_pmf(state, "A", MC_TURNS, bucket=5, jail="long", income=True))
    assert chain[0] == 0.0 and np.all(chain >= -1e-12) and chain.sum() <= 1 + 1e-9
    engine = _engine_ruin_turns(doc, MC_GAMES, MC_TURNS)
    assert engine[0] == 0.0
    for t in (5, 10, 20):
        p_mc = float(engine[: t + 1].sum())
        p_chain = float(chain[: t + 1].sum())
        se = np.sqrt(max(p_mc * (1 - p_mc), 1e-4) / MC_GAMES)
        assert abs(p_mc - p_chain) <= 4 * se + 0.02, (case, t, p_mc, p_chain)


def test_mc_case_chain_is_not_trivial() -> None:
    """The Monte Carlo cases sit in the informative range (not all 0 or all 1 by turn 5)."""
    for doc in MC_CASES.values():
        by5 = float(state_ruin_pmf(load_state(doc), "A", 5, bucket=5).sum())
        assert 0.05 < by5 < 0.95


# ---------------------------------------------------------------------------
# Exactness: enumeration over every throw (and card) on tiny boards
# ---------------------------------------------------------------------------

TINY: list[dict[str, Any]] = [
    {"type": "go", "name": "Go"},
    {"type": "street", "name": "Rent St", "group": "r", "price": 60, "rents": [5, 45, 90, 160, 250, 300], "house_cost": 50},
    {"type": "tax", "name": "Tax", "amount": 15},
    {"type": "jail", "name": "Jail"},
    {"type": "street", "name": "Own St", "group": "o", "price": 80, "rents": [6, 30, 90, 270, 400, 550], "house_cost": 40},
    {"type": "free_parking", "name": "Parking"},
    {"type": "go_to_jail", "name": "Go To Jail"},
    {"type": "street", "name": "Cheap St", "group": "c", "price": 50, "rents": [12, 30, 90, 270, 400, 550], "house_cost": 50},
]


def _board(squares: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": "tiny",
        "squares": squares,
        "railroad_rents": [25],
        "utility_multipliers": [4, 10],
        "decks": {"chance": [], "community_chest": []},
    }


def _tiny_doc(cash: int = 40, position: int = 0, jail_turns: int | None = None) -> dict[str, Any]:
    a: dict[str, Any] = {"name": "A", "cash": cash, "position": position}
    if jail_turns is not None:
        a.update(position=3, in_jail=True, jail_turns=jail_turns)
    return {
        "format": "monopoly-state/1",
        "board": _board(TINY),
        "rules": {"dice": {"count": 2, "sides": 2}, "go_salary": 20, "jail_fine": 25},
        "players": [a, {"name": "B", "cash": 1000, "position": 0}],
        "properties": {
            "Rent St": {"owner": "B", "houses": 1},  # rent 45
            "Own St": {"owner": "A", "houses": 2},  # liquidation: 2 * 20 + 40 = 80
            "Cheap St": {"owner": "B"},  # a one-lot group: monopoly, double rent 24
        },
        "to_move": "A",
    }


_RUIN = "ruin"


def _product(values: Any) -> Any:
    out: Any = 1
    for v in values:
        out *= v
    return out


def brute_force_pmf(
    state: GameState,
    player: int,
    turns: int,
    jail: JailPolicy = "long",
    wealth: int | None = None,
    num: Any = Fraction,
    decks: dict[str, list[Any]] | None = None,
) -> list[Any]:
    """Exact first-ruin PMF over ``player``'s next turns by enumerating every throw.

    Rules as the engine plays them (:mod:`engine.rules.game`), the variants of
    ``state.rules`` included: a throw moves the token (Go salary when passing or
    landing on Go, twice when it ends on Go under ``go_landing_bonus``), then
    the square charges (rent of another's street or railroad, tax), sends to
    jail, or draws a card. Cards are drawn memorylessly (each with probability
    1/len(deck), the chain's model; ``decks`` replaces a deck, e.g. by the cards
    no one holds) and only movement cards are handled (advance to a square or
    the nearest railroad at the card's rent multiplier, move, go to jail, a kept
    Get Out of Jail Free card); a payment larger than the wealth (liquidation
    value) is ruin. Doubles: under ``doubles_again`` a double throws again and
    the ``doubles_to_jail``-th goes to jail without moving (0: never; a turn
    that goes on is followed until less than 1e-16 of it is left, so use
    ``num=float`` there); without it every double counts as the first (only
    ``doubles_to_jail`` 1 jails). In jail (long): no throw unless
    ``jail_doubles`` or the last turn pays (a turn sat out); a double with
    ``jail_doubles`` leaves and moves with no extra throw; otherwise stay, or on
    the last turn (``max_jail_rolls``) pay the fine and then move (``pay``) or
    leave free without moving (``free``). Short: pay the fine, then a normal
    turn from the jail square.
    """
    s = state
    n = s.board.size
    rules = s.rules
    weights = rules.dice.weights or (1,) * rules.dice.sides
    face = [num(w) / sum(num(v) for v in weights) for w in weights]
    throws = [
        (th, _product(face[f - 1] for f in th))
        for th in itertools.product(range(1, rules.dice.sides + 1), repeat=rules.dice.count)
    ]
    throws = [(th, q) for th, q in throws if q > 0]

    def salary(pos: int, steps: int) -> int:
        if steps <= 0 or pos + steps < n:
            return 0
        return rules.go_salary * (2 if rules.go_landing_bonus and (pos + steps) % n == 0 else 1)

    def charge(pos: int, card: Any) -> int:
        sq = s.board.squares[pos]
        if sq.kind == "tax":
            return sq.amount
        if not sq.is_property:
            return 0
        owner = s.owner[pos]
        if owner in (BANK, player) or s.mortgaged[pos]:
            return 0
        if sq.kind == "railroad":
            mult = card.rent_multiplier if card is not None and card.action == "advance_nearest" else 1
            return s.board.railroad_rents[s.count_in_group(owner, "railroad") - 1] * mult
        assert sq.kind == "street" and sq.group is not None  # no utilities on these boards
        level = s.houses[pos]
        return sq.rents[level] if level else sq.rents[0] * (2 if s.has_monopoly(owner, sq.group) else 1)

    @functools.cache
    def arrive(pos: int, w: int, card: Any = None) -> list[tuple[Any, Any, Any]]:
        """Outcomes (probability, square or 'jail' or None, wealth or _RUIN) of arriving on ``pos``."""
        sq = s.board.squares[pos]
        if sq.kind == "go_to_jail":
            return [(num(1), "jail", w)]
        if sq.kind in ("chance", "community_chest"):
            deck = (decks or {}).get(sq.kind) or s.board.deck(sq.kind)
            out: list[tuple[Any, Any, Any]] = []
            for drawn in deck:
                q = num(1) / len(deck)
                if drawn.action in ("advance_to", "advance_nearest", "move"):
                    if drawn.action == "advance_to":
                        assert drawn.square is not None
                        steps = (drawn.square - pos) % n or n
                    elif drawn.action == "advance_nearest":
                        steps = next(k for k in range(1, n + 1) if s.board.squares[(pos + k) % n].kind == drawn.group)
                    else:
                        steps = drawn.steps
                    w2 = w + salary(pos, steps)
                    out += [(q * r, where, w3) for r, where, w3 in arrive((pos + steps) % n, w2, drawn)]
                elif drawn.action == "go_to_jail":
                    out.append((q, "jail", w))
                elif drawn.action == "jail_free":
                    out.append((q, pos, w))
                else:
                    raise NotImplementedError(drawn.action)  # cash cards: the chain uses their mean
            return out
        c = charge(pos, card)
        return [(num(1), None, _RUIN)] if c > w else [(num(1), pos, w - c)]

    @functools.cache
    def move_land(pos: int, total: int, w: int) -> list[tuple[Any, Any, Any]]:
        return arrive((pos + total) % n, w + salary(pos, total))

    def free_turns(level: dict[tuple[int, int], Any], out: dict[Any, Any]) -> None:
        """Turns from free squares, throw by throw: ``level`` maps the (square, wealth) states
        still throwing to their probability (all the turn's starts at once: paths that meet merge)."""
        doubles = 0  # the engine's doubles_rolled
        while level:
            again: dict[tuple[int, int], Any] = defaultdict(num)
            for (here, wealth_), pr in level.items():
                for th, prob in throws:
                    dbl = len(set(th)) == 1
                    run = (doubles + 1 if rules.doubles_again else 1) if dbl else 0
                    if dbl and rules.doubles_to_jail and run >= rules.doubles_to_jail:
                        out[("J", 0, wealth_)] += pr * prob
                        continue
                    for r, new, w2 in move_land(here, sum(th), wealth_):
                        if w2 == _RUIN:
                            out[_RUIN] += pr * prob * r
                        elif new == "jail":
                            out[("J", 0, w2)] += pr * prob * r
                        elif dbl and rules.doubles_again:
                            again[(new, w2)] += pr * prob * r
                        else:
                            out[("F", new, w2)] += pr * prob * r
            level = dict(again)
            doubles += 1
            if level and sum(level.values()) < 1e-16:
                assert num is float, "an unbounded turn needs num=float"
                break

    def jail_turn(failed: int, w: int, p: Any, out: dict[Any, Any]) -> None:
        jpos = s.board.jail
        if jail == "short":
            if rules.jail_fine > w:
                out[_RUIN] += p
            else:
                starts[(jpos, w - rules.jail_fine)] += p
            return
        last = failed + 1 >= rules.max_jail_rolls
        after = ("F", jpos) if last else ("J", failed + 1)  # (released free after the last turn)
        if not rules.jail_doubles and not (last and rules.jail_release == "pay"):
            out[(*after, w)] += p  # nothing to throw for: the turn is sat out
            return
        for th, prob in throws:
            dbl = len(set(th)) == 1
            w1 = w
            if not (dbl and rules.jail_doubles):
                if not last or rules.jail_release == "free":
                    out[(*after, w)] += p * prob
                    continue
                if rules.jail_fine > w:
                    out[_RUIN] += p * prob
                    continue
                w1 = w - rules.jail_fine
            for r, new, w2 in move_land(jpos, sum(th), w1):
                if w2 == _RUIN:
                    out[_RUIN] += p * prob * r
                elif new == "jail":
                    out[("J", 0, w2)] += p * prob * r
                else:
                    out[("F", new, w2)] += p * prob * r

    pl = s.players[player]
    w0 = s.liquidation_value(player) if wealth is None else wealth
    start = ("J", pl.jail_turns if jail == "long" else 0, w0) if pl.in_jail else ("F", pl.position, w0)
    dist: dict[Any, Any] = {start: num(1)}
    pmf = [num(0)]
    for _ in range(turns):
        out: dict[Any, Any] = defaultdict(num)
        starts: dict[tuple[int, int], Any] = defaultdict(num)  # free turns (short policy: after the fine)
        for (kind, where, w), p in dist.items():
            if kind == "F":
                starts[(where, w)] += p
            else:
                jail_turn(where, w, p, out)
        free_turns(dict(starts), out)
        pmf.append(out.pop(_RUIN, num(0)))
        dist = out
    assert abs(sum(pmf) + sum(dist.values()) - 1) <= (0 if num is Fraction else 1e-10)
    return pmf


EXACT_CASES: dict[str, tuple[dict[str, Any], JailPolicy]] = {
    "go-cash40": (_tiny_doc(40), "long"),
    "parking-cash0": (_tiny_doc(0, position=5), "long"),
    "cheap-cash10": (_tiny_doc(10, position=7), "long"),
    "jail2-cash5": (_tiny_doc(5, jail_turns=2), "long"),
    "jail1-cash30-short": (_tiny_doc(30, jail_turns=1), "short"),
}
EXACT_TURNS = 8


@pytest.mark.parametrize("case", sorted(EXACT_CASES))
def test_ruin_pmf_exact_on_tiny_board(case: str) -> None:
    doc, jail = EXACT_CASES[case]
    state = load_state(doc)
    assert state.liquidation_value(0) == state.players[0].cash + 80
    exact = np.array([float(x) for x in brute_force_pmf(state, 0, EXACT_TURNS, jail)])
    assert exact.sum() > 0.01  # the case does reach ruin
    got = state_ruin_pmf(state, "A", EXACT_TURNS, bucket=1, jail=jail, income=False)
    assert got.shape == (EXACT_TURNS + 1,)
    np.testing.assert_allclose(got, exact, rtol=0, atol=1e-12)


def test_ruin_uses_liquidation_value_not_cash() -> None:
    """Ruin means a debt above cash + buildings sold + mortgages: counting cash alone differs."""
    state = load_state(_tiny_doc(0, position=5))
    got = state_ruin_pmf(state, "A", EXACT_TURNS, bucket=1, income=False)
    cash_only = np.array([float(x) for x in brute_force_pmf(state, 0, EXACT_TURNS, wealth=0)])
    assert np.abs(got - cash_only).max() > 0.05
    # A's own street earns rent only from B: with income the chain adds it as a sure amount
    # at the end of each turn, so ruin can only be less likely.
    with_income = state_ruin_pmf(state, "A", EXACT_TURNS, bucket=1, income=True)
    assert np.cumsum(with_income)[-1] <= np.cumsum(got)[-1] + 1e-12


def test_deterministic_doubles_by_hand() -> None:
    """Dice loaded so that every throw is (1, 1): a double of total 2, worked by hand.

    Turn 1: Go -> Tax (W 80 -> 65) -> Own St -> third double: jail, no move.
    Turn 2: jail doubles: out to Parking (5), no extra throw.
    Turn 3: Cheap St (7, rent 24: W 41) -> past Go (+20) to Rent St (1, rent 45: W 16) -> third double: jail.
    Turn 4: out to Parking. Turn 5: Cheap St, rent 24 > 16: ruin.
    """
    doc = _tiny_doc(0, position=0)
    doc["rules"]["dice"] = {"count": 2, "sides": 2, "weights": [1, 0]}
    state = load_state(doc)
    assert [float(x) for x in brute_force_pmf(state, 0, 6)] == [0, 0, 0, 0, 0, 1, 0]
    got = state_ruin_pmf(state, "A", 6, bucket=1, income=False)
    np.testing.assert_allclose(got, [0, 0, 0, 0, 0, 1, 0], rtol=0, atol=1e-12)
    # More cash moves the ruin later, turn for turn as the enumeration says.
    when = [5]
    for cash in (8, 33, 60):
        doc["players"][0]["cash"] = cash
        more = load_state(doc)
        exact = [float(x) for x in brute_force_pmf(more, 0, 12)]
        np.testing.assert_allclose(state_ruin_pmf(more, "A", 12, bucket=1, income=False), exact, rtol=0, atol=1e-12)
        when.append(exact.index(1.0))
    assert when == sorted(when) and when[-1] > 5


CARDS_BOARD: list[dict[str, Any]] = [
    {"type": "go", "name": "Go"},
    {"type": "street", "name": "Rent St", "group": "r", "price": 60, "rents": [5, 45, 90, 160, 250, 300], "house_cost": 50},
    {"type": "chance", "name": "Chance"},
    {"type": "jail", "name": "Jail"},
    {"type": "street", "name": "Own St", "group": "o", "price": 80, "rents": [6, 30, 90, 270, 400, 550], "house_cost": 40},
    {"type": "railroad", "name": "Line", "price": 200},
    {"type": "tax", "name": "Tax", "amount": 15},
    {"type": "go_to_jail", "name": "Go To Jail"},
    {"type": "chance", "name": "Chance"},
    {"type": "street", "name": "Cheap St", "group": "c", "price": 50, "rents": [12, 30, 90, 270, 400, 550], "house_cost": 50},
]
MOVEMENT_CARDS: list[dict[str, Any]] = [
    {"action": "advance_to", "square": "Go"},
    {"action": "advance_to", "square": "Cheap St"},
    {"action": "move", "steps": -1},  # from 2: Rent St; from 8: Go To Jail
    {"action": "move", "steps": 3},  # from 2: Line at its plain rent; from 8: past Go to Rent St
    {"action": "advance_nearest", "group": "railroad", "rent_multiplier": 2},
    {"action": "go_to_jail"},
    {"action": "jail_free"},
]


def _cards_doc(cash: int, position: int = 0, jail_turns: int | None = None) -> dict[str, Any]:
    board = _board(CARDS_BOARD)
    board["decks"] = {"chance": MOVEMENT_CARDS, "community_chest": []}
    a: dict[str, Any] = {"name": "A", "cash": cash, "position": position}
    if jail_turns is not None:
        a.update(position=3, in_jail=True, jail_turns=jail_turns)
    return {
        "format": "monopoly-state/1",
        "board": board,
        "rules": {"dice": {"count": 2, "sides": 2}, "go_salary": 20, "jail_fine": 25},
        "players": [a, {"name": "B", "cash": 1000, "position": 0}],
        "properties": {
            "Rent St": {"owner": "B", "houses": 1},
            "Own St": {"owner": "A", "houses": 2},
            "Line": {"owner": "B"},  # 25, or 50 by the nearest-railroad card
            "Cheap St": {"owner": "B"},
        },
        "to_move": "A",
    }


@pytest.mark.parametrize(
    ("cash", "position", "jail_turns", "jail"),
    [(0, 0, None, "long"), (30, 6, None, "long"), (10, 3, 2, "long"), (40, 3, 0, "short")],
)
def test_ruin_pmf_exact_with_movement_cards(cash: int, position: int, jail_turns: int | None, jail: JailPolicy) -> None:
    """Movement-only cards (no card cash apart from the Go salary they pay, which is the same for
    every way of reaching an outcome here): the memoryless chain is exact, double railroad rent
    by the card included."""
    state = load_state(_cards_doc(cash, position, jail_turns))
    exact = np.array(brute_force_pmf(state, 0, 6, jail, num=float))  # floats: Fractions are slow here
    assert exact.sum() > 0.01
    got = state_ruin_pmf(state, "A", 6, bucket=1, jail=jail, income=False)
    np.testing.assert_allclose(got, exact, rtol=0, atol=1e-12)


JAIL_PAST_GO: list[dict[str, Any]] = [
    {"type": "go", "name": "Go"},
    {"type": "street", "name": "Rent St", "group": "r", "price": 60, "rents": [5, 45, 90, 160, 250, 300], "house_cost": 50},
    {"type": "free_parking", "name": "Parking"},
    {"type": "free_parking", "name": "Parking 2"},
    {"type": "jail", "name": "Jail"},
    {"type": "free_parking", "name": "Parking 3"},
]


def test_jail_fine_is_charged_before_the_salary_of_the_roll_out() -> None:
    doc = {
        "format": "monopoly-state/1",
        "board": _board(JAIL_PAST_GO),
        "rules": {"dice": {"count": 2, "sides": 2}, "go_salary": 100, "jail_fine": 50},
        "players": [
            {"name": "A", "cash": 30, "position": 4, "in_jail": True, "jail_turns": 2},
            {"name": "B", "cash": 1000, "position": 0},
        ],
        "properties": {"Rent St": {"owner": "B"}},
        "to_move": "A",
    }
    state = load_state(doc)
    exact = [float(x) for x in brute_force_pmf(state, 0, 3)]
    assert exact[1] == 0.5  # the third failed roll (any non-double): cannot pay the $50 fine
    np.testing.assert_allclose(state_ruin_pmf(state, "A", 3, bucket=1, income=False), exact, rtol=0, atol=1e-12)


def test_brute_force_matches_engine_on_scripted_jail_fine() -> None:
    """The brute force's order (fine first) is the engine's: a scripted third failed roll."""
    from engine.rules.streams import ScriptedStream

    doc = {
        "format": "monopoly-state/1",
        "board": _board(JAIL_PAST_GO),
        "rules": {"dice": {"count": 2, "sides": 2}, "go_salary": 100, "jail_fine": 50},
        "players": [
            {"name": "A", "cash": 30, "position": 4, "in_jail": True, "jail_turns": 2},
            {"name": "B", "cash": 1000, "position": 0},
        ],
        "properties": {"Rent St": {"owner": "B"}},
        "to_move": "A",
    }
    game = Game(load_state(doc), [BaseAgent(), BaseAgent()], ScriptedStream(dice=[(1, 2)]), max_rounds=5)
    game.play_turn()
    assert game.state.players[0].bankrupt


# ---------------------------------------------------------------------------
# Rule variants: exactness on the tiny boards, against the engine
# ---------------------------------------------------------------------------

VARIANTS: dict[str, dict[str, Any]] = {
    "no-doubles-again": {"doubles_again": False},
    # 2d2's doubles (1/2) make turns ~50 throws deep; without the salary the wealth cannot
    # spread along them (the enumeration stays small)
    "dtj-0": {"doubles_to_jail": 0, "go_salary": 0},
    "dtj-1": {"doubles_to_jail": 1},
    "dtj-2": {"doubles_to_jail": 2},
    "dtj-4": {"doubles_to_jail": 4},
    "jail-1": {"max_jail_rolls": 1},
    "jail-2": {"max_jail_rolls": 2},
    "no-jail-doubles": {"jail_doubles": False},
    "release-free": {"jail_release": "free"},
    "sit-out-free": {"jail_doubles": False, "jail_release": "free"},
    "go-bonus": {"go_landing_bonus": True},
    "no-doubles": {"preset": "no-doubles"},
    "house-jackpot": {"preset": "house-jackpot"},
}
"""Every doubles and jail variant alone, the Go landing bonus, and the presets that change the chain."""


def _variant(doc: dict[str, Any], rules: dict[str, Any]) -> GameState:
    """``doc`` under format 2 with ``rules`` added (A's jail turns capped by the jail rule)."""
    doc = {**doc, "format": "monopoly-state/2", "rules": {**doc.get("rules", {}), **rules}}
    a = doc["players"][0]
    if a.get("in_jail"):
        m = load_state({**doc, "players": [{**a, "in_jail": False, "jail_turns": 0}, doc["players"][1]]}).rules.max_jail_rolls
        doc["players"] = [{**a, "jail_turns": min(a["jail_turns"], m - 1)}, doc["players"][1]]
    return load_state(doc)


VARIANT_STATES: dict[str, tuple[Any, JailPolicy]] = {
    "tiny-go-40": (lambda: _tiny_doc(40), "long"),
    "tiny-parking-0": (lambda: _tiny_doc(0, position=5), "long"),
    "tiny-jail2-5": (lambda: _tiny_doc(5, jail_turns=2), "long"),
    "tiny-jail1-30-short": (lambda: _tiny_doc(30, jail_turns=1), "short"),
    "cards-go-0": (lambda: _cards_doc(0, 0), "long"),
    "cards-jail2-10": (lambda: _cards_doc(10, 3, 2), "long"),
}


@pytest.mark.parametrize("where", sorted(VARIANT_STATES))
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_ruin_pmf_exact_under_variants(variant: str, where: str) -> None:
    """The chain against the enumeration (floats) under each variant: bucket 1, 6 turns, 1e-12.

    The enumeration follows the engine's doubles, jail and Go rules directly; the chain steps
    through the rolls of a turn as :func:`engine.chains.markov.turn_shape` says (an unbounded turn
    stopped at ``ROLL_TAIL``, the enumeration at 1e-16)."""
    make, jail = VARIANT_STATES[where]
    state = _variant(make(), VARIANTS[variant])
    exact = np.array(brute_force_pmf(state, 0, 6, jail, num=float))
    got = state_ruin_pmf(state, "A", 6, bucket=1, jail=jail, income=False)
    np.testing.assert_allclose(got, exact, rtol=0, atol=1e-12)


def test_variants_change_the_ruin() -> None:
    """The cases above are informative: under each variant ruin within 6 turns is neither rare
    nor sure on at least two of the states, and the variant moves it on at least one."""
    std = {where: state_ruin_pmf(_variant(make(), {}), "A", 6, bucket=1, jail=jail, income=False) for where, (make, jail) in VARIANT_STATES.items()}
    for variant, rules in VARIANTS.items():
        moved, informative = 0.0, 0
        for where, (make, jail) in VARIANT_STATES.items():
            got = state_ruin_pmf(_variant(make(), rules), "A", 6, bucket=1, jail=jail, income=False)
            moved = max(moved, float(np.abs(np.cumsum(got) - np.cumsum(std[where])).max()))
            informative += 0.01 < got.sum() < 0.99
        assert moved > 1e-3 and informative >= 2, (variant, moved, informative)


def test_go_landing_bonus_lowers_ruin() -> None:
    """Tiny board, A on Parking (5) with W = 80 against B's rents: a throw of 3 ends on Go
    (+20, or +40 under the bonus). The bonus only adds money, so ruin by every turn can only
    fall, and here it falls visibly (the exact values: the variant cases above)."""
    doc = _tiny_doc(0, position=5)
    plain = _variant(doc, {})
    bonus = _variant(doc, {"go_landing_bonus": True})
    a = np.cumsum(state_ruin_pmf(plain, "A", 8, bucket=1, income=False))
    b = np.cumsum(state_ruin_pmf(bonus, "A", 8, bucket=1, income=False))
    assert np.all(b <= a + 1e-15) and (a - b).max() > 0.01  # more money, less ruin


def test_replacement_draws_leave_held_cards_out() -> None:
    """``card_draw="replacement"``: the engine draws over the cards no player holds. B holds the
    deck's Get Out of Jail Free card: the chain draws over the other six (the enumeration given
    that deck), while shuffled decks keep the whole deck (the memoryless approximation)."""
    from engine.chains.state_moves import held_cards

    doc = _cards_doc(0, 0)
    doc["players"][1]["jail_cards"] = 1
    shuffled = _variant(doc, {})
    replaced = _variant(doc, {"card_draw": "replacement"})
    assert held_cards(replaced) == {"chance": frozenset({6}), "community_chest": frozenset()}
    without = [c for c in replaced.board.chance if c.action != "jail_free"]
    assert len(without) == len(MOVEMENT_CARDS) - 1
    exact_rep = np.array(brute_force_pmf(replaced, 0, 6, num=float, decks={"chance": without}))
    exact_shuf = np.array(brute_force_pmf(shuffled, 0, 6, num=float))
    got_rep = state_ruin_pmf(replaced, "A", 6, bucket=1, income=False)
    got_shuf = state_ruin_pmf(shuffled, "A", 6, bucket=1, income=False)
    np.testing.assert_allclose(got_rep, exact_rep, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got_shuf, exact_shuf, rtol=0, atol=1e-12)
    assert np.abs(got_rep - got_shuf).max() > 1e-3


VARIANT_MC_RULES = {
    "doubles_again": False,
    "doubles_to_jail": 0,
    "max_jail_rolls": 1,
    "jail_doubles": False,
    "jail_release": "free",
    "card_draw": "replacement",
    "go_landing_bonus": True,
}
"""The no-doubles preset's movement rules and draws, with the Go bonus, without its cash target
(B's $100,000 would end the game at once) and its finite bank."""


@pytest.mark.parametrize("case", ["go-600-orange-red", "jail2-350-orange-red"])
def test_variant_ruin_pmf_matches_engine_monte_carlo(case: str) -> None:
    """The Monte Carlo check above under the no-doubles rules with the Go bonus (same bounds)."""
    doc = {**MC_CASES[case], "format": "monopoly-state/2", "rules": dict(VARIANT_MC_RULES)}
    if doc["players"][0].get("in_jail"):
        doc["players"] = [{**doc["players"][0], "jail_turns": 0}, doc["players"][1]]
    state = load_state(doc)
    chain = state_ruin_pmf(state, "A", MC_TURNS, bucket=5, jail="long", income=False)
    standard = state_ruin_pmf(load_state(MC_CASES[case]), "A", MC_TURNS, bucket=5, jail="long", income=False)
    engine = _engine_ruin_turns(doc, MC_GAMES, MC_TURNS)
    for t in (5, 10, 20):
        p_mc = float(engine[: t + 1].sum())
        p_chain = float(chain[: t + 1].sum())
        se = np.sqrt(max(p_mc * (1 - p_mc), 1e-4) / MC_GAMES)
        assert abs(p_mc - p_chain) <= 4 * se + 0.02, (case, t, p_mc, p_chain)
    # the rules matter here: the standard chain is further off than the bound at some t
    assert max(abs(float(chain[: t + 1].sum() - standard[: t + 1].sum())) for t in (5, 10, 20)) > 0.02


# ---------------------------------------------------------------------------
# The card-cash approximation, measured with the standard decks
# ---------------------------------------------------------------------------

BROWN = ("Mediterranean Avenue", "Baltic Avenue")
LIGHT_BLUE = ("Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")
PINK = ("St. Charles Place", "States Avenue", "Virginia Avenue")
GREEN = ("Pacific Avenue", "North Carolina Avenue", "Pennsylvania Avenue")
DARK_BLUE = ("Park Place", "Boardwalk")
UTILITIES = ("Electric Company", "Water Works")


def _b_owns(streets: tuple[str, ...], houses: int = 1) -> dict[str, Any]:
    """B owns ``streets`` (``houses`` each), the four railroads and both utilities."""
    out: dict[str, Any] = {name: {"owner": "B", "houses": houses} for name in streets}
    out.update({name: {"owner": "B"} for name in RAILROADS + UTILITIES})
    return out


CARD_CASES = {
    # A on Atlantic Avenue (26) with $40: Community Chest 33 on a 7, Chance 36, greens, Short Line.
    "atlantic-40": _mc_doc(40, _b_owns(GREEN + DARK_BLUE + LIGHT_BLUE), position=26),
    # A just visiting (10) with $80: Community Chest 17 on a 7, Chance 22 on a double 6.
    "visiting-80": _mc_doc(80, _b_owns(PINK + ORANGE + RED), position=10),
    # A in jail after two failed rolls with $120 (the third roll: doubles, or pay $50 and move).
    "jail2-120": _mc_doc(120, _b_owns(PINK + ORANGE + RED), jail_turns=2),
    # A on Go with $40: Community Chest 2, Income Tax 4, Chance 7 (its "go back 3" is the tax).
    "go-40": _mc_doc(40, _b_owns(BROWN + LIGHT_BLUE + PINK), position=0),
}
CARD_TURNS = 4
CARD_CASH_BOUND = 0.06
"""Bound on max_t |P_chain(ruin by t) - P_exact(ruin by t)|, t <= CARD_TURNS (see
:func:`test_card_cash_expectation_error_is_bounded`): the largest measured error 0.0384 x 1.5,
rounded up."""
DECK_ORDER_ALLOWANCE = 0.004
"""Shuffled decks drawn without replacement vs with replacement (measured below 0.002)."""
CARD_MC_GAMES = 50_000


@functools.cache
def _card_case(case: str) -> tuple[GameState, np.ndarray, np.ndarray]:
    """(state, chain, exact) cumulative ruin probabilities by turn 0..CARD_TURNS."""
    state = load_state(CARD_CASES[case])
    assert state.properties_of(0) == []  # wealth = cash, no income: the chain's income flag is moot
    chain = np.cumsum(state_ruin_pmf(state, "A", CARD_TURNS, bucket=1, jail="long", income=False))
    exact = np.cumsum(exact_ruin_pmf_with_cards(state, 0, CARD_TURNS))
    return state, chain, exact


@pytest.mark.parametrize("case", sorted(CARD_CASES))
def test_card_cash_expectation_error_is_bounded(case: str) -> None:
    """The chain's expected card cash against the exact card effects, decks with replacement.

    What is approximated. The chain resolves a card square into outcomes (final square, and how
    the token got there); card *movement* is exact, but the cash of every card leading to the same
    outcome is replaced by its mean. On the standard decks the cards that leave the token on its
    square are merged: Community Chest's 14 (from +$200 to -$100, 3 of them fees of $50, $50, $100)
    pay +$29.64 on average, Chance's 6 (+$50, +$150, -$15, -$50 "each player", two at $0) +$22.50.
    So a player with less than $100 never loses to a Community Chest fee in the chain, and later
    turns see a mean wealth instead of a spread one; the nearest-utility card charges 10 x the
    mean total instead of 10 x a fresh throw. Decks are drawn with replacement.

    Reference. :func:`tests.engine.card_ruin_enum.exact_ruin_pmf_with_cards` enumerates every
    throw and card with its own cash (and every fresh throw of the utility card), with
    replacement, on an integer wealth grid: it differs from the chain (``bucket=1``, so the grid
    adds no error of its own) by the card-cash expectation alone. The states put a poor player
    next to a Community Chest or Chance square among B's rents, where a card's cash decides ruin.

    Measured (4 turns, max over t of |cumulative chain - exact|; always the chain too low):
    atlantic-40 0.0379 (t=1: 0.6213 vs 0.6592), visiting-80 0.0372 (t=2: 0.5990 vs 0.6362),
    jail2-120 0.0285 (t=2: 0.6376 vs 0.6661), go-40 0.0357 (t=2: 0.6738 vs 0.7095). Over 10 and 20
    turns the maximum is the same (reached at t <= 2) and the cumulative ruin by turn 20 agrees to
    0.003. A scan of 1,248 states (6 holdings, 13 squares, $20-$320, 4 turns) found no error above
    0.039. Bound: 0.0384 (the largest, against the engine, see below) x 1.5 = 0.058 -> 0.06.
    The lower check (0.01) keeps the cases informative: if it fails, the cards no longer matter
    there, or the chain became exact for card cash and the bound can shrink.
    """
    _, chain, exact = _card_case(case)
    assert 0.05 < exact[1] and exact[-1] < 0.95  # informative: neither sure nor impossible
    err = float(np.abs(chain - exact).max())
    assert err <= CARD_CASH_BOUND, (case, chain.tolist(), exact.tolist())
    assert err > 0.01, (case, err)


@pytest.mark.parametrize("case", sorted(CARD_CASES))
def test_card_cash_chain_against_engine_with_real_decks(case: str) -> None:
    """The same cases played by the reference engine with its real, shuffled decks.

    :func:`tests.engine.card_ruin_enum.engine_own_turns_ruin` plays A's turns only (the turn goes
    straight back to A), with passive agents and decks shuffled once and drawn without
    replacement: B never moves nor draws, so its cards move neither A's cash ("Chairman of the
    Board", birthday) nor the decks, and the difference to the exact enumeration is the deck
    order alone. Measured with 300,000 games per case (seeds from 10**6, independent of these):
    |MC - exact| <= 0.0018 (at most 2.1 standard errors of about 0.0008), so the deck order moves
    the ruin probability by less than about 0.002 over 4 turns; it is allowed 0.004. The chain is
    13 to 44 standard errors off the engine there (|MC - chain| <= 0.0384), the error of the
    previous test, which these 50,000 games (SE <= 0.0023) also resolve.

    Bounds, cumulative ruin by each turn t <= 4, SE = sqrt(p (1 - p) / games) at the exact p:
    |MC - exact| <= 4 SE + 0.004 and |MC - chain| <= 0.06 (measured 0.0384 x 1.5) + 4 SE.
    """
    state, chain, exact = _card_case(case)
    mc = np.cumsum(engine_own_turns_ruin(state, 0, CARD_TURNS, CARD_MC_GAMES))
    se = np.sqrt(np.maximum(exact * (1 - exact), 1e-4) / CARD_MC_GAMES)
    assert np.all(np.abs(mc - exact) <= 4 * se + DECK_ORDER_ALLOWANCE), (case, mc.tolist(), exact.tolist())
    assert np.all(np.abs(mc - chain) <= CARD_CASH_BOUND + 4 * se), (case, mc.tolist(), chain.tolist())


# ---------------------------------------------------------------------------
# Conservation of probability
# ---------------------------------------------------------------------------

CONSERVATION_RULES: dict[str, Any] = {
    "standard": lambda r: r,  # the instance's own rules
    "dtj-1": lambda r: dataclasses.replace(r, doubles_to_jail=1),  # every double to jail: the move set ``th`` alone
    "no-doubles": lambda r: PRESETS["no-doubles"],  # no jailing double, one jail turn sat out
}


@pytest.mark.parametrize("bucket", [1, 50])
@pytest.mark.parametrize("rules", sorted(CONSERVATION_RULES))
@pytest.mark.parametrize("name", ["near-ruin", "mortgaged", "novelty-rules"])
def test_probability_is_conserved(name: str, rules: str, bucket: float) -> None:
    """Every roll from a live state lands on live states or counts as ruin: forward, the live
    mass plus the ruin so far is 1 after every turn of 20; backward, ``u`` from 1 is still 1
    in every state after 20 turns (its shortfall could only grow from turn to turn).

    Without income, mass split onto the grid's lowest point (wealth -1) is ruined by a move that
    brings no money, the double that goes to jail at no cost included (it was once dropped
    without being counted: up to 5.5e-5 of the 20-turn ruin on near-ruin, 5.7e-4 with
    ``doubles_to_jail=1``). Bucket 50: both jail policies without income, and the long one
    with it; bucket 1 (the slow grid): without income, the players by turns long and short."""
    state = load_state(f"instances/{name}.json")
    state.rules = CONSERVATION_RULES[rules](state.rules)
    for pl in state.players:
        pl.jail_turns = min(pl.jail_turns, state.rules.max_jail_rolls - 1)
    checked = 0
    for p in state.active_players():
        policies: list[tuple[JailPolicy, bool]] = [("long", False), ("short", False), ("long", True)]
        if bucket == 1:
            policies = [policies[p % 2]]
        for jail, income in policies:
            bwd = _build_chain(state, p, state.liquidation_value(p), bucket, None, jail, income, None, transposed=False)
            fwd = dataclasses.replace(bwd, mats={k: m.T for k, m in bwd.mats.items()})  # what transposed=True builds
            ruin, live = _forward(fwd, 20)
            np.testing.assert_allclose(live + np.cumsum(ruin), 1.0, rtol=0, atol=1e-12, err_msg=f"{p} {jail} {income}")
            u = _backward(bwd, 20, np.ones(len(bwd.grid) * bwd.n_pos))
            np.testing.assert_allclose(u, 1.0, rtol=0, atol=1e-12, err_msg=f"{p} {jail} {income}")
            checked += 1
    assert checked >= (3 if bucket == 1 else 9)


@pytest.mark.parametrize("preset", ["standard-us", "no-doubles", "house-jackpot"])
def test_backward_from_zero_skips_the_first_turn_exactly(preset: str) -> None:
    """From ``u_0 = 0`` the backward pass starts at ``u_1 = k``, skipping the first turn's
    products (all of them products with zero): bit for bit the pass that makes them (``u0``
    given as explicit zeros), at 0, 1 and 20 turns, for every player of two instances."""
    for name in ("midgame-no-monopolies", "near-ruin"):
        state = load_state(f"instances/{name}.json")
        state.rules = PRESETS[preset]
        for p in state.active_players():
            ch = _build_chain(state, p, state.liquidation_value(p), 200, None, "long", True, None, transposed=False)
            zeros = np.zeros(len(ch.grid) * ch.n_pos)
            for turns in (0, 1, 20):
                assert np.array_equal(_backward(ch, turns), _backward(ch, turns, zeros)), (name, p, turns)


# ---------------------------------------------------------------------------
# Edge cases
# ---------------------------------------------------------------------------


def test_bankrupt_player_is_ruined_at_turn_zero() -> None:
    state = load_state("instances/near-ruin.json")
    pmf = state_ruin_pmf(state, "Cy", 5)
    assert pmf.tolist() == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]


def test_negative_liquidation_value_is_ruined_at_turn_zero() -> None:
    state = load_state(_tiny_doc(0))
    state.players[0].cash = -81  # liquidation value 80 - 81 < 0
    assert state.liquidation_value(0) < 0
    pmf = state_ruin_pmf(state, "A", 4, bucket=1)
    assert pmf.tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]
    state.players[0].cash = -80  # liquidation value exactly 0: alive now
    assert state_ruin_pmf(state, "A", 4, bucket=1)[0] == 0.0


def test_rich_player_is_almost_never_ruined() -> None:
    state = load_state(_mc_doc(3000, _holdings(ORANGE, 0)))
    pmf = state_ruin_pmf(state, "A", 20)
    assert pmf.shape == (21,)
    assert pmf.sum() < 1e-9


def test_player_defaults_to_to_move_and_accepts_index() -> None:
    state = load_state("instances/near-ruin.json")
    by_default = state_ruin_pmf(state, None, 6)
    np.testing.assert_array_equal(by_default, state_ruin_pmf(state, "Dee", 6))
    np.testing.assert_array_equal(by_default, state_ruin_pmf(state, 3, 6))


def _clear_memos() -> None:
    sm._TABLE_CACHE.clear()


@pytest.mark.parametrize("draw", ["shuffled", "replacement"])
def test_memoised_moves_equal_a_fresh_build(draw: str) -> None:
    """The move table (with the card resolution) is memoised without the rents: a chain built
    after the holdings changed (a memo hit) equals the same chain built with empty memos,
    bit for bit, and the memoised arrays are read-only (a caller cannot corrupt the memo)."""
    state = load_state(INSTANCES / "late-game-house-shortage.json")
    state.rules = dataclasses.replace(state.rules, card_draw=draw)
    _clear_memos()
    first = sr.ruin_within_by_wealth(state, 1, 20, 200)
    changed = state.copy()
    sq = next(s for s in changed.board.property_squares if changed.owner[s] == 0 and changed.houses[s] == 0)
    changed.mortgaged[sq] = not changed.mortgaged[sq]  # a rent player 1 may owe changes
    hit = sr.ruin_within_by_wealth(changed, 1, 20, 200)
    hit_moves = sm.turn_moves(changed, 1, "long", 7.0)[0]
    assert len(sm._TABLE_CACHE) == 1  # the second chain reused the memo
    _clear_memos()
    fresh = sr.ruin_within_by_wealth(changed, 1, 20, 200)
    fresh_moves = sm.turn_moves(changed, 1, "long", 7.0)[0]
    assert not np.array_equal(first[1], fresh[1])  # the change matters to the ruin
    for a, b in zip(hit, fresh):
        assert np.array_equal(a, b)
    for name in fresh_moves:
        for a, b in zip(hit_moves[name], fresh_moves[name]):
            assert np.array_equal(a, b)
    table = sm._move_table(changed, 1, "long")
    with pytest.raises(ValueError):
        table.card[0] = 1.0


def test_matvec_is_the_operator_to_the_bit() -> None:
    """The backward pass's direct call of SciPy's CSR kernel gives ``m @ x`` exactly (and falls
    back to it for anything but float64 CSR)."""
    import scipy.sparse as sp

    from engine.chains.state_risk import _matvec

    rng = np.random.default_rng(0)
    for _ in range(30):
        m = sp.random(200, 150, density=0.05, format="csr", random_state=rng)
        x = rng.random(150)
        assert np.array_equal(_matvec(m, x), m @ x)
        assert np.array_equal(_matvec(m.tocsc(), x), m @ x)
        assert np.array_equal(_matvec(m, x.astype(np.float32)), m @ x.astype(np.float32))
