"""``ValueAgent`` (seed 002's agent): its choices against ``state_value`` evaluated by hand on the
candidate states, the two bankruptcy conditions by hand numbers, and whole games."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest

from engine.chains.markov import PositionChain
from engine.rules import legal
from engine.rules.actions import Build, Mortgage, SellBuilding, Unmortgage
from engine.rules.game import Game
from engine.rules.invariants import InvariantChecker
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from engine.rules.view import GameView
from models.board import standard_board
from models.io import load_state
from models.rules import DiceSpec
from models.state import GameState
from models.trade import Trade
from solver.agents.registry import factory, parse_spec
from solver.agents.strategic import StrategicTradeAgent
from solver.agents.value_agent import ValueAgent, largest
from solver.analysis.state_value import move_is_safe, r_short, state_value, worst_rent

CHAIN = PositionChain(standard_board())
NAMES = ("Ann", "Bob", "Cy")


def state_of(
    props: dict[str, Any], cash: tuple[int, ...] = (1500, 1500, 1500), players: dict[str, Any] | None = None
) -> GameState:
    ps = [{"name": n, "cash": c, "position": 0} for n, c in zip(NAMES, cash, strict=True)]
    ps[0].update(players or {})
    return load_state(
        {
            "format": "monopoly-state/1",
            "players": ps,
            "properties": {k: (v if isinstance(v, dict) else {"owner": v}) for k, v in props.items()},
        }
    )


def agent(literal: bool = False) -> ValueAgent:
    a = ValueAgent(0, cash_in_assets=not literal)
    a.start_game(0, NAMES)
    return a


def V(s: GameState, literal: bool = False) -> float:
    """The agent's V: the seed's terms plus its cash (``cash_in_assets``, the default);
    ``literal``: the seed's terms only (``value:cash_in_assets=false``)."""
    return state_value(s, 0, chain=CHAIN).total + (0 if literal else s.players[0].cash)


def safe(s: GameState, cost: float) -> bool:
    return all(move_is_safe(s, 0, cost, chain=CHAIN))


def edited(s: GameState, *, owner: dict[int, int] | None = None, houses: dict[int, int] | None = None,
           mortgaged: dict[int, bool] | None = None, cash: int = 0, **player: Any) -> GameState:
    """A copy of ``s`` with Ann's move done by hand."""
    t = s.copy()
    for sq, o in (owner or {}).items():
        t.owner[sq] = o
    for sq, h in (houses or {}).items():
        t.houses[sq] = h
    for sq, m in (mortgaged or {}).items():
        t.mortgaged[sq] = m
    t.players[0].cash += cash
    for key, value in player.items():
        setattr(t.players[0], key, value)
    return t


# -- buy ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cash", [400, 550, 600, 750, 1000])
def test_buy_is_argmax_of_v_over_safe_moves(cash: int) -> None:
    # Ann holds Park Place: M_monopoly prices the dark blues' development out of F, so
    # the $200 railroad sometimes costs more V than it brings (cash 400, 600) and sometimes not.
    s = state_of({"Park Place": "Ann", "Baltic Avenue": "Bob"}, cash=(cash, 1500, 1500))
    rr = s.square_of("Reading Railroad")
    v_buy, v_no = V(edited(s, owner={rr: 0}, cash=-200)), V(s)
    assert safe(s, 200)
    assert agent().buy(GameView(s, 0), rr) == (v_buy > v_no + 1.0)


def test_buy_declines_when_v_says_so() -> None:
    s = state_of({"Park Place": "Ann", "Baltic Avenue": "Bob"}, cash=(600, 1500, 1500))
    rr = s.square_of("Reading Railroad")
    assert V(edited(s, owner={rr: 0}, cash=-200)) < V(s) - 100  # one Boardwalk house fewer in F
    assert safe(s, 200) and not agent().buy(GameView(s, 0), rr)


def test_buy_pruned_by_condition_1() -> None:
    # Nobody owns anything: R_next = 0 (no rent either way); 450 + 0 - 400 = 50 < cash_min 150.
    s = state_of({}, cash=(450, 1500, 1500))
    bw = s.square_of("Boardwalk")
    assert r_short(s, 0, CHAIN, 1) == (0.0, 0.0)
    assert move_is_safe(s, 0, 400, chain=CHAIN) == (False, True)  # condition 2: 450 + 0 + 0 - 400 - 0 > 0
    assert V(edited(s, owner={bw: 0}, cash=-400)) > V(s) + 300
    assert not agent().buy(GameView(s, 0), bw)
    s.players[0].cash = 550  # 550 - 400 = 150 >= 150: safe
    assert agent().buy(GameView(s, 0), bw)


def test_buy_pruned_by_condition_2() -> None:
    # Bob's hotels on the dark blues: R_worst = $2,000. Ann owns nothing: R_owed = 0,
    # worth_scaled = 0; buying Illinois ($240) with $2,200: 2200 + 0 + 0 - 240 - 2000 = -40 <= 0.
    hotels = {"Boardwalk": {"owner": "Bob", "houses": 5}, "Park Place": {"owner": "Bob", "houses": 5}}
    s = state_of(hotels, cash=(2200, 1500, 1500))
    il = s.square_of("Illinois Avenue")
    assert worst_rent(s, 0) == 2000 and r_short(s, 0, CHAIN, 1)[0] == 0.0
    assert 2200 + r_short(s, 0, CHAIN, 1)[0] - r_short(s, 0, CHAIN, 1)[1] - 240 >= 150  # condition 1 holds
    assert move_is_safe(s, 0, 240, chain=CHAIN) == (True, False)
    assert V(edited(s, owner={il: 0}, cash=-240), literal=True) > V(s, literal=True) + 200
    assert not agent(literal=True).buy(GameView(s, 0), il)
    s.players[0].cash = 2400  # 2400 - 240 - 2000 = 160 > 0
    assert safe(s, 240) and agent(literal=True).buy(GameView(s, 0), il)


# -- auction -------------------------------------------------------------------------------


@pytest.mark.parametrize("cash", [400, 1000, 1600])
def test_auction_max_is_the_indifference_bid(cash: int) -> None:
    s = state_of({"Park Place": "Ann", "Baltic Avenue": "Bob"}, cash=(cash, 1500, 1500))
    rr = s.square_of("Reading Railroad")
    b = agent().auction_max(GameView(s, 0), rr)
    v_no = V(s)

    def won(x: int) -> float:
        return V(edited(s, owner={rr: 0}, cash=-x))

    assert 1 <= b <= cash and safe(s, b) and won(b) >= v_no
    # The value binds here, not the conditions or the cash: one dollar more is safe but worth less.
    assert safe(s, b + 1) and won(b + 1) < v_no and won(b + 10) < v_no


def test_auction_max_capped_by_condition_1() -> None:
    # With $300 the value would pay more; condition 1 caps the bid at 300 + R_next - 150.
    s = state_of({"Park Place": "Ann", "Baltic Avenue": "Bob"}, cash=(300, 1500, 1500))
    rr = s.square_of("Reading Railroad")
    collect, owe = r_short(s, 0, CHAIN, 1)
    cap = math.floor(300 + collect - owe - 150)
    # condition 2 is far from binding: 300 + R_owed + worth_scaled (175) - C - R_worst (Baltic, $4) > 0
    assert 300 + collect + 175 - cap - 4 > 0 and worst_rent(s, 0) == 4
    b = agent().auction_max(GameView(s, 0), rr)
    assert b == cap
    assert V(edited(s, owner={rr: 0}, cash=-b)) >= V(s) and V(edited(s, owner={rr: 0}, cash=-(b + 1))) >= V(s)
    assert not move_is_safe(s, 0, b + 1, chain=CHAIN)[0]


def test_auction_nothing_safe_bids_zero() -> None:
    s = state_of({}, cash=(150, 1500, 1500))  # R_next = 0: 150 - 1 < 150
    assert agent().auction_max(GameView(s, 0), s.square_of("Boardwalk")) == 0


def test_largest_bisection() -> None:
    assert largest(lambda x: x <= 37, 0, 100) == 37
    assert largest(lambda x: x <= 37, 40, 100) is None
    assert largest(lambda x: True, 5, 5) == 5 and largest(lambda x: True, 5, 4) is None


# -- act --------------------------------------------------------------------------------------


LIGHT_BLUES = ("Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")


def _act_state(cash: int) -> GameState:
    props: dict[str, Any] = {n: "Ann" for n in LIGHT_BLUES}
    props["Boardwalk"] = {"owner": "Ann", "mortgaged": True}
    props["Baltic Avenue"] = "Bob"
    return state_of(props, cash=(cash, 1500, 1500))


def _act_candidates(s: GameState) -> dict[Any, tuple[int, GameState]]:
    bw = s.square_of("Boardwalk")
    out: dict[Any, tuple[int, GameState]] = {}
    for n in LIGHT_BLUES:
        sq = s.square_of(n)
        out[Build(sq)] = (50, edited(s, houses={sq: 1}, cash=-50))
    out[Unmortgage(bw)] = (220, edited(s, mortgaged={bw: False}, cash=-220))
    return out


@pytest.mark.parametrize("cash", [300, 1000])
def test_act_is_argmax_of_v_over_safe_moves(cash: int) -> None:
    s = _act_state(cash)
    cands = _act_candidates(s)
    assert set(cands) == {*(Build(q) for q in legal.legal_builds(s, 0)), *(Unmortgage(q) for q in legal.legal_unmortgages(s, 0))}
    ok = {m: V(t) for m, (c, t) in cands.items() if safe(s, c)}
    best = max(ok, key=ok.__getitem__)
    assert ok[best] > V(s) + 1.0
    assert agent().act(GameView(s, 0)) == best


def test_act_prunes_an_unsafe_lift_by_condition_1() -> None:
    # $300: lifting Boardwalk's mortgage costs 200 + 20 = 220, and 300 + R_next - 220 < 150 since
    # R_next (one round of light-blue rent collected, minus at most $4 a landing on Baltic) < 70;
    # a $50 house passes: 300 + R_next - 50 >= 150.
    s = _act_state(300)
    collect, owe = r_short(s, 0, CHAIN, 1)
    assert collect < 70 and 300 + collect - owe - 220 < 150 and 300 + collect - owe - 50 >= 150
    cands = _act_candidates(s)
    lift = Unmortgage(s.square_of("Boardwalk"))
    v = {m: V(t) for m, (_, t) in cands.items()}
    assert v[lift] == max(v.values())  # the highest V ...
    choice = agent().act(GameView(s, 0))
    assert isinstance(choice, Build) and choice != lift  # ... but pruned


def test_act_terminates_and_each_step_was_safe() -> None:
    # Build on the light blues with $700, applying each action: the agent stops when no safe
    # build is left (condition 1 at $50 fails), never at an unsafe one.
    s = state_of({n: "Ann" for n in LIGHT_BLUES}, cash=(700, 1500, 1500))
    a = agent()
    steps = 0
    while (m := a.act(GameView(s, 0))) is not None:
        assert isinstance(m, Build) and legal.why_not_build(s, 0, m.square) is None
        assert safe(s, 50)
        s.houses[m.square] += 1
        s.players[0].cash -= 50
        steps += 1
        assert steps <= 15
    assert steps > 0 and (not legal.legal_builds(s, 0) or not safe(s, 50))


# -- raise_cash ----------------------------------------------------------------------------


def test_raise_cash_picks_the_least_v_loss() -> None:
    props: dict[str, Any] = {n: {"owner": "Ann", "houses": 2} for n in LIGHT_BLUES}
    props.update({"Boardwalk": "Ann", "Reading Railroad": "Ann", "Mediterranean Avenue": "Ann", "Baltic Avenue": "Bob"})
    s = state_of(props, cash=(10, 1500, 1500))
    options: dict[Any, GameState] = {}
    for n in LIGHT_BLUES:
        sq = s.square_of(n)
        options[SellBuilding(sq)] = edited(s, houses={sq: 1}, cash=25)
    for n, mv in (("Boardwalk", 200), ("Reading Railroad", 100), ("Mediterranean Avenue", 30)):
        options[Mortgage(s.square_of(n))] = edited(s, mortgaged={s.square_of(n): True}, cash=mv)
    legal_moves = {*(SellBuilding(q) for q in legal.legal_building_sales(s, 0)), *(Mortgage(q) for q in legal.legal_mortgages(s, 0))}
    assert set(options) == legal_moves
    v = {m: V(t) for m, t in options.items()}
    best = max(v, key=v.__getitem__)
    assert max(v.values()) > sorted(v.values())[-2]  # a unique answer
    assert agent().raise_cash(GameView(s, 0), 300) == best


def test_raise_cash_none_only_when_nothing_is_legal() -> None:
    s = state_of({"Boardwalk": {"owner": "Ann", "mortgaged": True}}, cash=(10, 1500, 1500))
    assert agent().raise_cash(GameView(s, 0), 300) is None


# -- trades, jail, lifting, buildings ----------------------------------------------------------


def test_accept_trade_by_v_and_condition_1() -> None:
    s = state_of({"Park Place": "Ann", "Boardwalk": "Bob"}, cash=(500, 1500, 1500))
    buy_bw = Trade.bilateral("Ann", "Bob", (), ("Boardwalk",), 400)
    after = s.copy()
    buy_bw.apply(after)
    assert V(after) > V(s) + 1.0
    collect, owe = r_short(s, 0, CHAIN, 1)
    assert 500 + collect - owe - 400 < 150  # condition 1 fails: refused
    assert not agent().accept_trade(GameView(s, 0), buy_bw)
    rich = state_of({"Park Place": "Ann", "Boardwalk": "Bob"}, cash=(1500, 1500, 1500))
    after = rich.copy()
    buy_bw.apply(after)
    assert safe(rich, 400) and V(after) > V(rich) + 1.0
    assert agent().accept_trade(GameView(rich, 0), buy_bw)
    give_pp = Trade.bilateral("Ann", "Bob", ("Park Place",), (), -1)  # Ann sells Park Place for $1
    after = rich.copy()
    give_pp.apply(after)
    assert V(after) < V(rich)
    assert not agent().accept_trade(GameView(rich, 0), give_pp)
    assert not agent().accept_trade(GameView(rich, 0), Trade.bilateral("Ann", "Bob", ("Boardwalk",), ()))  # invalid


def test_jail_ties_follow_the_unowned_rule() -> None:
    # Nobody collects rent (nothing owned, or everything mortgaged) and Ann owns nothing:
    # V = 0 whatever she does; ties: leave (card first) while more than half is unowned.
    jailed = {"position": 10, "in_jail": True, "jail_cards": 1}
    s = state_of({}, players=jailed)
    assert V(s, True) == V(edited(s, in_jail=False, jail_cards=0), True) == V(edited(s, in_jail=False, cash=-50), True) == 0.0
    assert agent(literal=True).jail_choice(GameView(s, 0)) == "card"
    s.players[0].jail_cards = 0
    assert agent(literal=True).jail_choice(GameView(s, 0)) == "pay"
    # with cash counted, paying the fine costs $50 of V: no tie, the agent rolls
    assert V(edited(s, in_jail=False, cash=-50)) == V(s) - 50
    assert agent().jail_choice(GameView(s, 0)) == "roll"
    board = standard_board()
    owned = {board.squares[q].name: {"owner": "Bob", "mortgaged": True} for q in board.property_squares[:15]}
    s = state_of(owned, players=jailed)  # 13 of 28 unowned
    assert V(s, True) == V(edited(s, in_jail=False, jail_cards=0), True) == 0.0
    assert agent(literal=True).jail_choice(GameView(s, 0)) == "roll"


def test_jail_choice_by_v() -> None:
    # Bob's hotels on the pinks just past jail: leaving now risks them; staying is worth more.
    pinks = {n: {"owner": "Bob", "houses": 5} for n in ("St. Charles Place", "States Avenue", "Virginia Avenue")}
    s = state_of(pinks, players={"position": 10, "in_jail": True, "jail_cards": 1})
    v_roll, v_card = V(s), V(edited(s, in_jail=False, jail_cards=0))
    v_pay = V(edited(s, in_jail=False, cash=-50))
    assert v_roll > max(v_card, v_pay) + 1.0
    assert agent().jail_choice(GameView(s, 0)) == "roll"


def test_lift_on_receipt_by_v() -> None:
    s = state_of({"Park Place": "Ann", "Boardwalk": {"owner": "Ann", "mortgaged": True}}, cash=(1500, 1500, 1500))
    bw = s.square_of("Boardwalk")
    held = edited(s, cash=-20)
    lifted = edited(s, mortgaged={bw: False}, cash=-220)
    assert safe(held, 200) and V(lifted) > V(held) + 1.0
    assert agent().lift_on_receipt(GameView(s, 0), bw)
    poor = state_of({"Park Place": "Ann", "Boardwalk": {"owner": "Ann", "mortgaged": True}}, cash=(300, 1500, 1500))
    assert not safe(edited(poor, cash=-20), 200)  # 280 + R_next - 200 < 150
    assert not agent().lift_on_receipt(GameView(poor, 0), bw)


def test_place_building_and_building_bid() -> None:
    props: dict[str, Any] = {n: {"owner": "Ann", "houses": 1} for n in LIGHT_BLUES}
    props["Baltic Avenue"] = "Bob"
    s = state_of(props, cash=(800, 1500, 1500))
    v = {sq: V(edited(s, houses={sq: 2}, cash=-50)) for sq in (s.square_of(n) for n in LIGHT_BLUES)}
    best = max(v, key=v.__getitem__)
    a = agent()
    assert a.place_building(GameView(s, 0), "house") == best
    x = a.building_bid(GameView(s, 0), "house")
    assert x is not None and x >= 0
    assert safe(s, 50 + x) and V(edited(s, houses={best: 2}, cash=-50 - x)) >= V(s)
    assert x == 800 - 50 or not safe(s, 51 + x) or V(edited(s, houses={best: 2}, cash=-51 - x)) < V(s)


# -- the chain follows the view's board and rules --------------------------------------------


def test_chain_rebuilt_when_rules_change() -> None:
    s = state_of({"Park Place": "Ann"})
    a = agent()
    a.buy(GameView(s, 0), s.square_of("Boardwalk"))
    first = a.chain
    a.buy(GameView(s.copy(), 0), s.square_of("Boardwalk"))
    assert a.chain is first  # equal board and rules: kept
    odd = dataclasses.replace(s, rules=dataclasses.replace(s.rules, dice=DiceSpec(count=2, sides=8)))
    a.buy(GameView(odd, 0), s.square_of("Boardwalk"))
    assert a.chain is not first and a.chain.rules == odd.rules and a.chain.board == odd.board


# -- registry and whole games -----------------------------------------------------------------


def test_registry_builds_the_agent() -> None:
    a = factory("value")(1)
    assert isinstance(a, ValueAgent) and (a.k, a.cash_min) == (5, 150)
    entry, kwargs = parse_spec("value:k=3,cash_min=100")
    assert entry.cls is ValueAgent and kwargs == {"k": 3, "cash_min": 100}
    b = factory("value:k=3")(1)
    assert isinstance(b, ValueAgent) and b.k == 3


@pytest.mark.parametrize("game", [0, 1, 2])
def test_whole_games_against_strategic(game: int) -> None:
    stream_seed, seats = game_seeds(game_seed_sequence(7, game), 4)
    agents: list[Any] = [StrategicTradeAgent(x) for x in seats]
    agents[game] = ValueAgent(seats[game])
    state = GameState.new_game(["P1", "P2", "P3", "P4"])
    checker = InvariantChecker()
    result = Game(state, agents, SeededStream(stream_seed), max_rounds=150, observers=[checker]).play()
    assert result.reason in ("bankruptcy", "round_cap") and checker.checks > 0 and not checker.violations
