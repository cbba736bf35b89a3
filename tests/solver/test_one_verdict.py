"""One verdict per question, on every bundled instance (issue 37, item 3 and 4).

``solve --json`` runs on every instance in ``instances/`` and on a variant
of each in which the player to move has just rolled onto the first lot the
bank holds (phase ``rolled``: the only phase in which a purchase is asked).
Each answer is read back and checked for self-contradiction:

* one ``buy_at_list`` and one ``max_bid`` in the whole JSON when a purchase
  is asked (the simulation's; the bidding game under ``diagnostics`` carries
  no verdict of its own), none when it is not; the verdict is the
  indifference price's (``buy_at_list`` iff ``p*`` reaches the list price,
  ``max_bid = min(p*, caps)``);
* the text's ``PURCHASE:`` line says the same verdict, and the diagnostic
  line names no verdict;
* a state that waits on a question (``pending``) gets that question's answer
  and nothing else: one ``QUESTION:`` block, the decision's action is the
  answer's, no purchase, build, trade or jail line beside it (an auction's
  answer carries the one ``max_bid``);
* the decision's action has its object (a build plan for ``build``, a
  qualified re-scored trade for ``propose_trade``) and the words of the
  position line match the numbers it prints (a building "not affordable"
  costs more than the cash above the reserve).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from models.io import dumps_state, load_state
from models.state import BANK, Phase
from tests.solver.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = sorted((ROOT / "instances").glob("*.json"))


def _count(doc: Any, key: str) -> int:
    if isinstance(doc, dict):
        return sum((k == key) + _count(v, key) for k, v in doc.items())
    if isinstance(doc, list):
        return sum(_count(v, key) for v in doc)
    return 0


def _cases(tmp: Path) -> list[Path]:
    out = []
    for path in INSTANCES:
        state = load_state(path)
        if state.players[state.to_move].bankrupt:
            continue
        out.append(path)
        free = [sq for sq in state.board.property_squares if state.owner[sq] == BANK]
        if free:
            mover = state.players[state.to_move]
            mover.position, mover.in_jail, mover.jail_turns = free[0], False, 0  # rolled out of jail onto the lot
            state.phase = Phase.ROLLED
            rolled = tmp / f"{path.stem}-rolled.json"
            rolled.write_text(dumps_state(state), encoding="utf-8")
            out.append(rolled)
    return out


def _check(doc: dict[str, Any], text: str, state_path: Path) -> None:
    state = load_state(state_path)
    me = state.players[state.to_move]
    question = doc["question"]
    assert (question is not None) == (state.pending is not None)  # a pending question is answered, alone
    can_buy = (
        question is None and state.phase == Phase.ROLLED and state.board.squares[me.position].is_property and state.owner[me.position] == BANK
    )
    purchase = doc["purchase"]
    assert (purchase is not None) == can_buy
    n = 1 if can_buy else 0
    bids = n + int(question is not None and question["question"] == "auction" and question["action"] != "wait")
    assert _count(doc, "buy_at_list") == n and _count(doc, "max_bid") == bids, state_path.name
    assert sum(ln.startswith("QUESTION:") for ln in text.splitlines()) == int(question is not None)
    if question is not None:
        assert doc["decision"]["action"] == question["action"] and doc["decision"]["reason"] == question["reason"]
        assert doc["build"] is None and doc["trades"] == [] and doc["jail"] is None
        return
    lines = [ln for ln in text.splitlines() if ln.startswith("PURCHASE:")]
    assert len(lines) == n
    if can_buy:
        assert purchase["method"] == "simulation"
        p = purchase["indifference_price"]
        assert purchase["buy_at_list"] == (p >= purchase["list_price"])
        assert purchase["max_bid"] == max(0, min(p, purchase["liquidity_cap"], purchase["risk_cap"]))
        verdict = lines[0]
        if state.rules.auction_only:
            assert f"bid up to ${purchase['max_bid']}" in verdict
        elif purchase["buy_at_list"]:
            assert verdict.startswith("PURCHASE: buy ")
        else:
            assert verdict.startswith("PURCHASE: decline ")
            if state.rules.auctions:
                assert f"bid up to ${purchase['max_bid']}" in verdict
        diag = [ln for ln in text.splitlines() if "diagnostic" in ln]
        assert all("max bid" not in ln and "buy at list" not in ln and "bid up to" not in ln for ln in diag)
    jailed = state.phase == Phase.START and me.in_jail
    assert (doc["jail"] is not None) == jailed
    assert sum(ln.startswith("JAIL:") for ln in text.splitlines()) == int(jailed)
    d = doc["decision"]
    assert d["complete"] is True
    if d["action"] == "build":
        assert d["build"]["cost"] > 0
    elif d["action"] == "propose_trade":
        assert d["trade"]["qualified_by"] is not None
    else:
        assert d["action"] == "hold"
    pos = doc["position"]
    head = next(ln for ln in text.splitlines() if ": position " in ln)
    if "no building affordable above" in head:
        assert pos["cheapest_building"] is not None
        assert pos["cheapest_building"] > state.players[state.to_move].cash - pos["reserve"]
        if d["action"] == "build":  # a build then is funded by mortgages: the plan says so
            assert doc["funding"] is not None and doc["funding"]["mortgage"]


def test_one_verdict_per_question_on_every_instance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = _cases(tmp_path)
    assert len(cases) > len(INSTANCES)  # the rolled variants are there
    for path in cases:
        for mode in ("fair", "best"):  # mode best proposes trades on some instances: they name their rule
            code, out, err = run_cli(capsys, "solve", str(path), "--rollouts", "40", "--mode", mode, "--json")
            assert code == 0, (path.name, err)
            code, text, err = run_cli(capsys, "solve", str(path), "--rollouts", "40", "--mode", mode)
            assert code == 0, (path.name, err)
            _check(json.loads(out), text, path)


def test_the_jail_answer_follows_its_rule() -> None:
    """Card, pay or roll, by the rule it names (checked by hand: 8 or more unowned lots and a card,
    or $150 left after the fine; else roll), and only where the question is asked."""
    from solver.decide import jail_advice

    base = load_state(ROOT / "instances" / "jailed-early.json")
    assert jail_advice(base, 0) is not None and jail_advice(base, 1) is None  # only the player to move
    cases = []
    for cards, cash, owned_extra in ((1, 1240, 0), (0, 1240, 0), (0, 180, 0), (0, 1240, 21)):
        s = base.copy()
        s.players[0].jail_cards, s.players[0].cash = cards, cash
        free = [sq for sq in s.board.property_squares if s.owner[sq] == BANK]
        for sq in free[:owned_extra]:
            s.owner[sq] = 1
        unowned = sum(1 for sq in s.board.property_squares if s.owner[sq] == BANK)
        expected = "roll" if unowned < 8 else "card" if cards else "pay" if cash - s.rules.jail_fine >= 150 else "roll"
        a = jail_advice(s, 0)
        assert a is not None and a.choice == expected and a.unowned == unowned and str(unowned) in a.rule
        cases.append(a.choice)
    assert cases == ["card", "pay", "roll", "roll"]
    rolled = base.copy()
    rolled.phase = Phase.ROLLED
    assert jail_advice(rolled, 0) is None  # the jail question is asked at the start of the turn
