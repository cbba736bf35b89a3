"""The words of a solve answer, shared by the text output (``monopoly-trade solve``) and the HTML
report, so that the two say the same thing with the same numbers.

Every function takes the JSON object of ``solve --json`` (:meth:`solver.decide.Decision.to_dict`)
or a part of it and returns plain text (the report escapes it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "FORECAST_LABEL",
    "agent_lines",
    "building_words",
    "decision_line",
    "forecast_line",
    "funnel_heading",
    "jail_line",
    "legs_text",
    "position_line",
    "purchase_lines",
    "question_lines",
]

FORECAST_LABEL = (
    "win probability now (forecast: 0.35 x a simulation in which every seat plays the trading rollout policy "
    "+ 0.65 x the horizon model, calibrated on games played to the end; +- one standard error)"
)
"""What ``win_prob`` is (``docs/evaluation.md``): a forecast, not a counterfactual."""


def building_words(pos: Mapping[str, Any]) -> str:
    """What ``build_roi`` means in this position: the best building affordable above the reserve,
    none affordable (and the cheapest's cost), or none to build.

    Examples
    --------
    >>> building_words({"build_roi": 0.0, "reserve": 150, "cheapest_building": 100})
    'no building affordable above the $150 reserve (the cheapest costs $100)'
    """
    reserve = pos.get("reserve", 150)
    if (pos.get("build_roi") or 0.0) > 0:
        return f"best building affordable above the ${reserve} reserve returns {pos['build_roi']:.1%} of its cost per round"
    cheapest = pos.get("cheapest_building")
    if cheapest is None:
        return "nothing to build (no complete set that takes a building)"
    return f"no building affordable above the ${reserve} reserve (the cheapest costs ${cheapest})"


def position_line(doc: Mapping[str, Any]) -> str:
    """``NAME: position STATE (building words; ceiling; rounds to full development; ruin)``."""
    pos = doc["position"]
    ttm = pos.get("turns_to_max_dev")
    return (
        f"{doc['player']}: position {pos['state']} ({building_words(pos)}; "
        f"ceiling ${pos['ceiling']:.0f} rent per round; {'never' if ttm is None else f'{ttm:.0f} rounds'} to full "
        f"development; ruin within 20 turns {pos['ruin_20']:.1%})"
    )


def forecast_line(doc: Mapping[str, Any]) -> str:
    """The forecast with its standard errors, after :data:`FORECAST_LABEL`."""
    se = doc.get("win_prob_se") or {}
    return f"{FORECAST_LABEL}: " + ", ".join(f"{n} {p:.1%}+-{(se.get(n) or 0.0):.1%}" for n, p in doc["win_prob"].items())


def decision_line(doc: Mapping[str, Any]) -> str:
    """``DECISION: ACTION: reason``, saying INCOMPLETE when the time budget cut the work short."""
    dec = doc["decision"]
    action = str(dec["action"]).upper().replace("_", " ")
    if dec.get("complete", True):
        return f"DECISION: {action}: {dec['reason']}"
    return (
        "DECISION (INCOMPLETE: the time budget cut the work short, so this is not the answer of the full "
        f"search): {action}: {dec['reason']}"
    )


def jail_line(j: Mapping[str, Any], fine: int) -> str:
    """``JAIL: ...`` for the jail choice (a documented rule: the line says so).

    Examples
    --------
    >>> jail_line({"choice": "roll", "rule": "rule of thumb: ..."}, 50)
    'JAIL: roll for doubles (rule of thumb: ...)'
    """
    what = {"card": "use the Get Out of Jail Free card", "pay": f"pay the ${fine} fine", "roll": "roll for doubles"}[j["choice"]]
    return f"JAIL: {what} ({j['rule']})"


def funnel_heading(doc: Mapping[str, Any]) -> str:
    """``funnel`` and the trade searches that ran (their counts are summed).

    Examples
    --------
    >>> funnel_heading({"searches": ["bilateral", "cycle3"]})
    'funnel (bilateral and 3-cycle searches)'
    """
    searches = list(doc.get("searches") or [])
    which = " and ".join({"bilateral": "bilateral", "cycle3": "3-cycle"}.get(x, x) for x in searches)
    return f"funnel ({which} search{'es' if len(searches) > 1 else ''})" if which else "funnel"


def legs_text(transfers: list[Mapping[str, Any]]) -> str:
    """``A gives B lot, $cash; B gives A ...``."""
    return "; ".join(
        f"{x['from']} gives {x['to']} " + (", ".join([*x["properties"], *([f'${x["cash"]}'] if x["cash"] else [])]) or "nothing")
        for x in transfers
    )


def purchase_lines(b: Mapping[str, Any], auction_only: bool, auctions: bool) -> list[str]:
    """The buy-or-auction answer (the simulated indifference price) and the bidding game as a
    diagnostic without a verdict of its own."""
    if auction_only:
        head = f"PURCHASE: {b['property']} goes to auction (rules: auction_only): bid up to ${b['max_bid']}"
    elif not auctions:
        verdict = "buy" if b["buy_at_list"] else "decline (the bank keeps it)"
        head = (
            f"PURCHASE: {verdict} {b['property']} at its list price ${b['list_price']} "
            "(rules: no auctions; priced as if a rival took a declined lot)"
        )
    elif b["buy_at_list"]:
        head = f"PURCHASE: buy {b['property']} at its list price ${b['list_price']}"
    else:
        head = f"PURCHASE: decline {b['property']} (list ${b['list_price']}) and bid up to ${b['max_bid']} at the auction"
    more = " (censored: still better at its cash)" if b.get("censored") else ""
    lines = [
        head,
        (
            f"  worth to {b['player']} ({b['rollouts']} games of {b['horizon']} rounds, against {b.get('rival') or 'no rival'}): "
            f"indifference price ${b['indifference_price']}{more}; liquidity cap ${b['liquidity_cap']}, risk cap ${b['risk_cap']}"
        ),
    ]
    g = (b.get("diagnostics") or {}).get("bidding_game")
    if g is not None:
        lines.append(
            f"  diagnostic, not the answer: the bidding game for {', '.join(g['lots'])} against {g['rival']} "
            f"prices the race for the group as decisive (Poorman {g['poorman_fraction']:.1%} of ${g['money_in_play']} "
            f"in play = ${g['game_bid']})"
        )
    return lines


def agent_lines(a: Mapping[str, Any]) -> list[str]:
    """The agent's answer (``solve --agent``, ``solve --json``'s ``agent``): the question, the
    answer and how it was reached.

    Examples
    --------
    >>> agent_lines({"spec": "subgraph", "question": "jail", "action": "pay", "method": "rule", "reason": "...", "answer": "pay"})
    ['AGENT (subgraph): jail: pay, by rule']
    >>> agent_lines({"spec": "subgraph", "question": "act", "action": "build", "method": "model", "reason": "...",
    ...              "answer": {"action": "build", "square": 39, "property": "Boardwalk"}})
    ['AGENT (subgraph): act: build on Boardwalk, by a model']
    """
    how = {"simulation": "measured by simulation", "rule": "by rule", "model": "by a model"}.get(a["method"], a["method"])
    answer = a.get("answer")
    what = str(a["action"]).replace("_", " ")
    if isinstance(answer, Mapping) and "property" in answer:
        what += {"build": " on", "sell_building": " on"}.get(str(a["action"]), "") + f" {answer['property']}"
    elif isinstance(answer, Mapping) and "trade" in answer:
        what += ": " + legs_text(answer["trade"]["transfers"])
    elif a["question"] in ("auction", "building_auction") and isinstance(answer, int) and not isinstance(answer, bool):
        what += f" up to ${answer}"
    return [f"AGENT ({a['spec']}): {a['question']}: {what}, {how}"]


def question_lines(q: Mapping[str, Any]) -> list[str]:
    """The answer to the state's pending question (``solve --json``'s ``question``): a head line
    naming the question and how the answer was reached, then its figures.

    Examples
    --------
    >>> question_lines({"question": "debt", "action": "bankrupt", "method": "rule", "reason": "...",
    ...                 "owed": 600, "to": "Ann", "cash": 45, "liquidation_value": 170, "steps": [], "cash_after": 45})
    ['QUESTION: debt of $600 to Ann (cash $45, liquidation value $170); answer by rule: bankrupt']
    """
    kind, method = q["question"], q["method"]
    head = {"simulation": "measured by simulation", "rule": "by rule"}.get(method, method)
    action = str(q["action"]).replace("_", " ")
    if q["action"] == "wait":
        return [f"QUESTION: {kind}, not this player's to answer: wait"]
    if kind == "offer":
        lines = [f"QUESTION: offer from {q['proposer']} to {q['responder']}: {legs_text(q['offer']['transfers'])}; answer {head}: {action}"]
        deltas = ", ".join(f"{n} {v:+.3f}+-{q['win_delta_se'][n]:.3f}" for n, v in q["win_delta"].items())
        lines.append(f"  the offer: {deltas}")
        if not q.get("counter"):
            lines.append(f"  counter-offer: none that {q['proposer']} is predicted to accept and {q['responder']} gains more from")
        else:
            lines.append(
                f"  counter-offer: {q['counter_change']} ({q['responder']} {q['counter_win_delta'][q['responder']]:+.3f}; "
                f"{q['proposer']} is predicted to accept it with probability {q['counter_acceptance']:.0%})"
            )
        for lot, lift in (q.get("lift_on_receipt") or {}).items():
            lines.append(f"  on receipt of mortgaged {lot}: {'lift the mortgage now' if lift else 'pay the interest only'} (rule)")
        return lines
    if kind == "debt":
        to = q["to"] or "the bank"
        lines = [f"QUESTION: debt of ${q['owed']} to {to} (cash ${q['cash']}, liquidation value ${q['liquidation_value']}); answer {head}: {action}"]
        lines += [f"  {k}. {'mortgage' if x['action'] == 'mortgage' else 'sell a building on'} {x['property']} (cash ${x['cash_after']})" for k, x in enumerate(q["steps"], 1)]
        return lines
    if kind == "auction":
        head_line = f"QUESTION: auction of {q['property']}; answer {head}: {action}"
        if q["action"] == "bid":
            head_line += f" up to ${q['max_bid']}"
        return [head_line]
    lines = [f"QUESTION: shortage auction for a {q['building']}; answer {head}: {action}"]
    if q["action"] == "building_bid":
        lines.append(f"  premium up to ${q['premium']} above ${q['house_cost']}; the {q['building']} goes on {q['property']}")
    return lines
