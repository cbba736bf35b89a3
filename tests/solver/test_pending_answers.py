"""``solve`` answers the question a state poses (issue 38, item 3): a pending offer, a debt, an
auction in progress, a building shortage auction; each answer checked against the engine's own
rules or an independent figure, under the standard rules and under another preset."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from engine.rules import legal
from models.io import load_state
from models.pending import PendingDebt
from models.rules import PRESETS
from models.rules_file import with_rules
from solver.decide import decide
from solver.schemas import output_schema

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = {
    "pending-offer": ("Cy", {"refuse"}),
    "pending-debt": ("Ann", {"raise_cash"}),
    "pending-auction": ("Cy", {"bid", "pass"}),
    "pending-shortage": ("Ann", {"building_bid"}),
}


@pytest.mark.parametrize("preset", [None, "house-jackpot"])
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_solve_answers_the_question(name: str, preset: str | None) -> None:
    state = load_state(ROOT / "instances" / f"{name}.json")
    if preset is not None:  # the preset, with the state's supply (a shortage needs its own)
        state = with_rules(state, replace(PRESETS[preset], houses=state.rules.houses, hotels=state.rules.hotels))
    player, actions = EXPECTED[name]
    d = decide(state, player, rollouts=60, seed=1)
    doc = d.to_dict(state)
    jsonschema.Draft202012Validator(output_schema("solve")).validate(doc)
    q = doc["question"]
    assert q is not None and doc["decision"]["action"] == q["action"] in actions
    assert doc["decision"]["reason"] == q["reason"]
    # one question, one answer: no build, trade or purchase beside it
    assert doc["build"] is None and doc["trades"] == [] and doc["purchase"] is None
    if name == "pending-offer":  # instances/README.md: no counter Dee is predicted to accept that Cy gains from
        assert q["counter"] is None
    if name == "pending-shortage":  # instances/README.md: a $100 premium, the house on New York Avenue
        assert (q["premium"], q["property"]) == (100, "New York Avenue")
    other = next(p.name for p in state.players if p.name != player and p.name not in q.get("bidders", ()))
    if name != "pending-auction":  # every active player bids in the auction
        assert decide(state, other, rollouts=20, seed=1).action == "wait"


def test_the_debt_steps_are_legal_and_raise_the_cash() -> None:
    state = load_state(ROOT / "instances" / "pending-debt.json")
    q = decide(state, "Ann", rollouts=20, seed=1).question
    assert q is not None and q.action == "raise_cash"
    work = state.copy()
    work.pending = None
    for step in q.details["steps"]:
        sq = work.square_of(step["property"])
        assert step["action"] == "mortgage" and legal.why_not_mortgage(work, 0, sq) is None
        work.mortgaged[sq] = True
        work.players[0].cash += work.mortgage_value(sq)
        assert work.players[0].cash == step["cash_after"]
    # by hand: $60, New York Avenue's mortgage $100 and Indiana Avenue's $110 (half their prices)
    assert [s["property"] for s in q.details["steps"]] == ["New York Avenue", "Indiana Avenue"]
    assert q.details["cash_after"] == 60 + 100 + 110 >= 200
    assert q.details["liquidation_value"] == 720
    state.pending = PendingDebt(0, 721, None)  # above everything she can sell: instances/README.md
    assert decide(state, "Ann", rollouts=20, seed=1).action == "bankrupt"


def test_a_debt_beyond_everything_is_bankruptcy() -> None:
    state = load_state(ROOT / "instances" / "near-ruin.json")
    dee = state.player_index("Dee")
    # Dee's liquidation value by hand: $45 cash; mortgaged brown pair (nothing more); Vermont $50,
    # Water Works $75 mortgages; the jail card is not sold to the bank: $170
    state.pending = PendingDebt(dee, 171, 0)
    d = decide(state, "Dee", rollouts=20, seed=1)
    assert d.action == "bankrupt" and d.question is not None and d.question.details["liquidation_value"] == 170
    state.pending = PendingDebt(dee, 170, 0)
    assert decide(state, "Dee", rollouts=20, seed=1).action == "raise_cash"


def test_the_shortage_bid_is_the_agents_rule_and_a_legal_lot() -> None:
    from engine.rules.view import GameView
    from solver.agents.strategic import StrategicTradeAgent

    state = load_state(ROOT / "instances" / "pending-shortage.json")
    q = decide(state, "Ann", rollouts=20, seed=1).question
    assert q is not None
    quiet = state.copy()
    quiet.pending = None
    agent = StrategicTradeAgent(0)
    agent.start_game(0, tuple(p.name for p in state.players))
    view = GameView(quiet, 0)
    spare = state.players[0].cash - agent._keep(view)
    assert q.details["premium"] == min(100, int(spare))  # the rule's cash above the reserve, at most $100
    assert state.square_of(q.details["property"]) in legal.legal_builds(quiet, 0)


def test_the_offer_answer_is_respond_and_evaluate() -> None:
    from solver.evaluate import respond

    state = load_state(ROOT / "instances" / "pending-offer.json")
    q = decide(state, "Cy", rollouts=80, seed=3).question
    assert q is not None and state.pending is not None
    quiet = state.copy()
    quiet.pending = None
    r = respond(quiet, state.pending.trade, proposer="Dee", responder="Cy", rollouts=80, seed=3)
    assert q.action == r.verdict and q.details["win_delta"] == r.evaluation.win_delta
    # the verdict follows the sign and the noise of the responder's change
    d, se = q.details["win_delta"]["Cy"], q.details["win_delta_se"]["Cy"]
    assert (q.action == "accept") <= (d > 0) and (d > 2 * se) <= (q.action == "accept")


def test_the_auction_bid_is_within_its_caps() -> None:
    state = load_state(ROOT / "instances" / "pending-auction.json")
    q = decide(state, "Cy", rollouts=20, seed=1).question
    assert q is not None
    d = q.details
    assert 0 <= d["max_bid"] <= min(d["liquidity_cap"], d["risk_cap"], max(d["indifference_price"], 0))


def test_the_engine_refuses_to_start_on_a_pending_question() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "solver", "play", "--state", "instances/pending-debt.json", "--agents", "strategic,strategic,strategic"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().count("\n") == 0 and "waits on Ann's answer to a pending debt" in out.stderr


def test_solve_prints_the_question() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "solver", "solve", "instances/pending-debt.json", "--rollouts", "20", "--seed", "1"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    assert "DECISION: RAISE CASH: Ann owes $200 to the bank" in out
    assert "QUESTION: debt of $200 to the bank (cash $60, liquidation value $720); answer by rule: raise cash" in out
    assert "  2. mortgage Indiana Avenue (cash $270)" in out


@pytest.mark.parametrize(
    "gives, cash_to_bob",
    [(("St. Charles Place",), -100), (("St. Charles Place", "B&O Railroad"), -50), (("B&O Railroad",), 150), (("Reading Railroad", "Electric Company"), 0), (("Electric Company",), -250)],
)
def test_lift_on_receipt_is_the_engines_choice(gives: tuple[str, ...], cash_to_bob: int) -> None:
    """``solve``'s lift-on-receipt answer to an offer equals what the engine does when the same
    trade is accepted in play by a registry agent (asked before the lots move, a lift the trade
    cannot pay for dropped): every lot received lifted or not as the answer says."""
    from engine.rules.agents import BaseAgent
    from engine.rules.game import Game
    from engine.rules.streams import ScriptedStream
    from models.trade import Trade, Transfer
    from solver.agents.strategic import StrategicTradeAgent
    from solver.decisions.offer import receipt_lifts

    class Accepts(StrategicTradeAgent):
        def accept_trade(self, view, trade):  # type: ignore[no-untyped-def]
            return True

    state = load_state(ROOT / "instances" / "mortgaged.json")
    owner = {n: state.owner[state.square_of(n)] for n in gives}
    legs = [Transfer(state.players[o].name, "Bob", tuple(n for n in gives if owner[n] == o)) for o in sorted(set(owner.values()))]
    payer = owner[gives[0]]
    if cash_to_bob > 0:
        legs.append(Transfer(state.players[payer].name, "Bob", (), cash_to_bob))
    elif cash_to_bob < 0:
        legs.append(Transfer("Bob", state.players[payer].name, (), -cash_to_bob))
    trade = Trade(tuple(legs))
    answer = receipt_lifts(state, trade, 1)
    assert set(answer) == set(gives)  # every lot here is mortgaged
    played = state.copy()
    agents = [BaseAgent(), Accepts(0), BaseAgent()]
    game = Game(played, agents, ScriptedStream())
    assert game.propose_trade(payer, trade)
    assert {n: not played.mortgaged[played.square_of(n)] for n in gives} == answer


@pytest.mark.parametrize("preset", [None, "house-jackpot"])
def test_solve_answers_the_jail_question(preset: str | None) -> None:
    """The jailed player's question on ``jailed-early`` under the standard rules and another
    preset, the answer validated against the solve schema: pay ($1,240 less the $50 fine leaves
    at least $150, 24 lots unowned, no card); with a $1,100 fine the same state rolls (hand
    check: $140 would stay)."""
    state = load_state(ROOT / "instances" / "jailed-early.json")
    if preset is not None:
        state = with_rules(state, PRESETS[preset])
    for fine, expected in ((state.rules.jail_fine, "pay"), (1100, "roll")):
        s = with_rules(state, replace(state.rules, jail_fine=fine))
        doc = decide(s, "Ann", rollouts=40, seed=1).to_dict(s)
        jsonschema.Draft202012Validator(output_schema("solve")).validate(doc)
        assert doc["jail"]["choice"] == expected and doc["jail"]["method"] == "rule"
        assert f"${fine} fine" in doc["jail"]["rule"]
