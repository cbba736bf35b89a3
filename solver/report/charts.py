"""The charts of the report page: win probability before and after, the pruning funnel, the risk of ruin by turn.

- :func:`win_section`: two bars per player, the win probability now and after
  the recommended action (:func:`win_rows` gives the numbers and says which
  standard errors the whiskers show: 1.96 of them, a 95% normal interval);
- :func:`funnel_section`: the result's ``pruning`` counts on a log scale
  (bar length ``log(1 + count)``), one bar per stage of :data:`FUNNEL_STAGES`;
- :func:`risk_section`: the deciding player's ruin probability by turn, from
  the exact (cash x position) chain of
  :func:`engine.chains.state_risk.state_ruin_pmf` (the function of
  ``monopoly-trade risk``), for :data:`RISK_TURNS` turns; the vertical scale is
  the smallest of 1, 2, 5, 10, 20, 25, 50, 100% that holds the curve; a curve
  that is 0 at every turn is said in a sentence, not drawn as if informative.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from models.state import GameState
from solver.report.markup import Z95, esc, num, pct, player_colour, short
from solver.report.words import funnel_heading

__all__ = ["FUNNEL_STAGES", "RISK_TURNS", "funnel_section", "risk_section", "win_rows", "win_section"]

FUNNEL_STAGES: Mapping[str, str] = {
    "raw": "candidates enumerated",
    "completion": "rule 1: everyone in it completes a set",
    "proposer": "rule 2: the proposer does not lose",
    "counterparty": "rule 3: every counterparty gains",
    "cash": "rule 4: everyone keeps its cash reserve",
    "domination": "rule 5: not dominated",
    "cpsat": "distinct structures CP-SAT returned",
    "denial": "denial purchases added (mode best)",
    "policy": "the rollout policy's own proposal added",
    "rescored": "re-scored by simulation",
    "nash_zone": "in the Nash zone",
    "balanced": "in the Nash zone and balanced",
    "qualified": "pass the mode's filters",
}
"""What each stage of the ``pruning`` counts means (``docs/trades.md``, ``docs/decisions.md``)."""
RISK_TURNS = 20
"""Turns of the ruin curve (as ``position.ruin_20`` and ``monopoly-trade risk``'s default)."""


def win_rows(doc: Mapping[str, Any], rollouts: int | None) -> list[dict[str, Any]]:
    """The bars of the win-probability chart, one dict per player of ``doc["win_prob"]``.

    Parameters
    ----------
    doc
        The solve result (the JSON object of ``solve --json``).
    rollouts
        Games per simulated state (``--rollouts``), for the error of ``before``; ``None``:
        no error bar on ``before``.

    Returns
    -------
    list of dict
        ``player``, ``before``, ``before_err`` (1.96 x the forecast's standard error
        ``win_prob_se``; a result without it: 1.96 x sqrt(p(1-p)/rollouts), which bounds
        1.96 standard errors of a mean of per-game scores in [0, 1]), ``after`` and ``after_err`` (``before``
        plus the recommended trade's ``win_delta``, and 1.96 x its paired ``win_delta_se``;
        for a build, the deciding player's row only, from the plan's ``win_delta`` and
        ``win_delta_se``; ``None`` where there is no after). Missing numbers are ``None``.
    """
    dec = doc.get("decision") or {}
    win = doc.get("win_prob") or {}
    win_se = doc.get("win_prob_se") or {}
    delta: Mapping[Any, Any] = {}  # player name -> change; a build keys it by doc.get("player"), untyped JSON
    delta_se: Mapping[Any, Any] = {}
    if dec.get("action") == "propose_trade" and dec.get("trade"):
        delta = dec["trade"].get("win_delta") or {}
        delta_se = dec["trade"].get("win_delta_se") or {}
    elif dec.get("action") == "build" and dec.get("build"):
        me = doc.get("player")
        delta = {me: dec["build"].get("win_delta")}
        delta_se = {me: dec["build"].get("win_delta_se")}
    rows = []
    for name, p in win.items():
        before_err = None
        if p is not None and win_se.get(name) is not None:
            before_err = Z95 * float(win_se[name])
        elif p is not None and rollouts:
            before_err = Z95 * math.sqrt(max(0.0, p * (1.0 - p)) / rollouts)
        d = delta.get(name)
        after = None if p is None or d is None else p + d
        se = delta_se.get(name)
        rows.append(
            {
                "player": name,
                "before": p,
                "before_err": before_err,
                "after": after,
                "after_err": None if after is None or se is None else Z95 * se,
            }
        )
    return rows


def _errbar(x_of: Any, value: float, err: float, y: float, h: float) -> str:
    """A whisker ``value`` +- ``err``, clipped to [0, 1], on the bar at height ``y``."""
    lo, hi = max(0.0, value - err), min(1.0, value + err)
    x0, x1 = x_of(lo), x_of(hi)
    return (
        f'<g class="errbar" data-lo="{lo:.4f}" data-hi="{hi:.4f}">'
        f'<line x1="{num(x0)}" y1="{num(y + h / 2)}" x2="{num(x1)}" y2="{num(y + h / 2)}"/>'
        f'<line x1="{num(x0)}" y1="{num(y + 2)}" x2="{num(x0)}" y2="{num(y + h - 2)}"/>'
        f'<line x1="{num(x1)}" y1="{num(y + 2)}" x2="{num(x1)}" y2="{num(y + h - 2)}"/></g>'
    )


def win_section(state: GameState, doc: Mapping[str, Any], rollouts: int | None) -> str:
    """The ``#win-prob`` section: :func:`win_rows` as bars with whiskers, and the caption that says what they show.

    Parameters
    ----------
    state
        The state the result is about.
    doc
        The solve result's JSON object (:func:`solver.html_report.render_report` made it JSON-safe).
    rollouts
        Games per simulated state, as :func:`win_rows`.

    Returns
    -------
    str
        The ``<section>`` element.
    """
    rows = win_rows(doc, rollouts)
    no_after = {"propose_trade": "not simulated", "build": "not reported (the build's change is the deciding player's only)"}.get(
        (doc.get("decision") or {}).get("action", ""), "the same (hold)"
    )
    seats = {p.name: k for k, p in enumerate(state.players)}
    left, right, bar, gap = 150.0, 160.0, 16.0, 14.0
    w = 760.0
    plot = w - left - right
    h = 30 + len(rows) * (2 * bar + gap) + 24

    def x_of(v: float) -> float:
        return left + plot * min(1.0, max(0.0, v))

    out = [f'<svg id="win-svg" viewBox="0 0 {num(w)} {num(h)}" width="{num(w)}" height="{num(h)}" role="img" aria-label="win probabilities">']
    out.append('<g class="grid">' + "".join(f'<line x1="{num(x_of(t / 4))}" y1="20" x2="{num(x_of(t / 4))}" y2="{num(h - 22)}"/>' for t in range(5)) + "</g>")
    out.append(
        '<g class="axis">'
        + "".join(f'<text x="{num(x_of(t / 4))}" y="{num(h - 8)}" text-anchor="middle">{25 * t}%</text>' for t in range(5))
        + f'<line x1="{num(left)}" y1="20" x2="{num(left)}" y2="{num(h - 22)}"/></g>'
    )
    y = 24.0
    for r in rows:
        colour = player_colour(seats.get(r["player"], 0))
        before = "" if r["before"] is None else f"{r['before']:.4f}"
        after = "" if r["after"] is None else f"{r['after']:.4f}"
        g = [
            f'<g class="winbar" data-player="{esc(r["player"])}" data-before="{before}" data-after="{after}">',
            (f'<text class="chart-label" x="{num(left - 8)}" y="{num(y + bar)}" text-anchor="end" dominant-baseline="central" '
            f'font-size="12">{esc(short(r["player"], 22))}</text>'),
        ]
        for k, (kind, value, err) in enumerate((("before", r["before"], r["before_err"]), ("after", r["after"], r["after_err"]))):
            yy = y + k * bar
            if value is None:
                g.append(f'<text class="chart-label {kind}" x="{num(left + 4)}" y="{num(yy + bar / 2)}" dominant-baseline="central">{kind}: {no_after if kind == "after" else "n/a"}</text>')
                continue
            g.append(f'<rect class="{kind}" x="{num(left)}" y="{num(yy + 1)}" width="{num(max(0.0, x_of(value) - left))}" height="{num(bar - 2)}" fill="{colour}"/>')
            if err is not None:
                g.append(_errbar(x_of, value, err, yy, bar))
            hi = min(1.0, value + (err or 0.0))
            g.append(
                f'<text class="chart-label" x="{num(x_of(hi) + 6)}" y="{num(yy + bar / 2)}" dominant-baseline="central">{kind} {pct(value)}'
                + ("" if err is None else f" \u00b1 {100 * err:.1f}")
                + "</text>"
            )
        g.append("</g>")
        out.append("".join(g))
        y += 2 * bar + gap
    out.append("</svg>")
    dec = doc.get("decision") or {}
    what = {
        "propose_trade": "after the recommended trade: the win probability now plus the trade's simulated change (win_delta) for every player",
        "build": "after the build, for the deciding player only: the win probability now plus the plan's simulated change (the others' changes are not reported)",
    }.get(dec.get("action", ""), "the decision is to hold: nothing changes, so there is no after bar")
    if doc.get("win_prob_se"):
        before_err = "the before bars' whiskers are 1.96 x the forecast's standard error (0.35 x the simulation's)"
    elif rollouts:
        before_err = (
            f"the before bars' whiskers are 1.96 x sqrt(p(1-p)/{rollouts}), an upper bound on 1.96 standard errors of a mean of "
            f"{rollouts} per-game scores in [0, 1]"
        )
    else:
        before_err = "the before bars have no whisker (neither the standard errors nor the number of rollouts is known)"
    caption = (
        f"Win probability now (pale bars): a forecast, 0.35 x {rollouts or 'n/a'} simulated games in which every seat, "
        f"{doc.get('player', 'the deciding player')} included, plays the trading rollout policy, + 0.65 x the horizon model "
        f"on the state (the blend calibrated on games played to the end); and {what}. Error bars: \u00b1 1.96 "
        f"standard errors (about 95%): {before_err}; the after bars' whiskers are 1.96 x the paired standard error of the "
        "change (win_delta_se, the same games played from both states), the uncertainty of the difference the decision rests on."
    )
    return f'<section id="win-prob"><h2>Win probability now (forecast), and after</h2>{"".join(out)}<p class="caption">{esc(caption)}</p></section>'


def funnel_section(doc: Mapping[str, Any]) -> str:
    """The ``#funnel`` section: one bar per stage of ``doc["pruning"]`` on a log scale (or a line saying there was no search).

    Parameters
    ----------
    doc
        The solve result's JSON object.

    Returns
    -------
    str
        The ``<section>`` element.
    """
    pruning = doc.get("pruning") or {}
    if not pruning:
        return (
            '<section id="funnel"><h2>The pruning funnel</h2>'
            '<p class="funnel-none">No trade search: the decision took the fast path (a growing position builds at once).</p></section>'
        )
    top = max([int(v) for v in pruning.values()] + [1])
    left, bar, gap = 300.0, 18.0, 6.0
    w = 760.0
    plot = w - left - 70
    h = len(pruning) * (bar + gap) + 10
    out = [f'<svg id="funnel-svg" viewBox="0 0 {num(w)} {num(h)}" width="{num(w)}" height="{num(h)}" role="img" aria-label="the pruning funnel">']
    y = 4.0
    for stage, count in pruning.items():
        n = int(count)
        width = plot * math.log1p(n) / math.log1p(top)
        desc = FUNNEL_STAGES.get(stage, stage)
        out.append(
            f'<g class="funnel-stage{" empty" if n == 0 else ""}" data-stage="{esc(stage)}" data-count="{n}">'
            f'<text class="chart-label" x="{num(left - 8)}" y="{num(y + bar / 2)}" text-anchor="end" dominant-baseline="central" font-size="12">{esc(stage)}: {esc(desc)}</text>'
            f'<rect x="{num(left)}" y="{num(y)}" width="{num(max(1.0, width))}" height="{num(bar)}"/>'
            f'<text class="chart-label" x="{num(left + max(1.0, width) + 6)}" y="{num(y + bar / 2)}" dominant-baseline="central" font-size="12">{n:,}</text></g>'
        )
        y += bar + gap
    out.append("</svg>")
    return (
        f'<section id="funnel"><h2>The pruning funnel: {esc(funnel_heading(doc))}</h2>'
        + "".join(out)
        + '<p class="caption">Trade candidates left after each stage of the search that ran: the explicit enumerator\'s five rules '
        "on the generator's own value and floors (the fitted change in win probability, 0.04 margins), then the distinct property "
        "structures CP-SAT returned, the candidates added beside them, the simulation and the mode's filters; when the 3-cycle "
        "search ran too, the counts are of both searches. Bar length is log(1 + count), so that the last stages stay visible.</p></section>"
    )


def risk_section(state: GameState, doc: Mapping[str, Any], ruin: Sequence[float] | None) -> str:
    """The ``#risk`` section: the deciding player's ruin probability at each turn (bars) and by each turn (the line).

    Parameters
    ----------
    state
        The state the result is about.
    doc
        The solve result's JSON object (:func:`solver.html_report.render_report` made it JSON-safe).
    ruin
        The ruin probability at each turn 0..T; ``None``: :func:`engine.chains.state_risk.state_ruin_pmf`
        for :data:`RISK_TURNS` turns, jail policy ``long``.

    Returns
    -------
    str
        The ``<section>`` element.
    """
    me = str(doc.get("player", ""))
    if ruin is None:
        from engine.chains.state_risk import state_ruin_pmf

        ruin = [float(v) for v in state_ruin_pmf(state, state.player_index(me), RISK_TURNS, jail="long")]
    pmf = [min(1.0, max(0.0, float(v))) for v in ruin]
    cum: list[float] = []
    total = 0.0
    for v in pmf:
        total = min(1.0, total + v)
        cum.append(total)
    turns = len(pmf) - 1
    top = max(cum) if cum else 0.0
    if top == 0.0:  # a flat 0% curve carries no information: say so instead of drawing it
        return (
            '<section id="risk"><h2>Risk of ruin, turn by turn</h2>'
            f'<p class="risk-none" data-player="{esc(me)}" data-turns="{turns}" data-final="0">{esc(me)} cannot be ruined within the next '
            f"{turns} turns: the ruin probability is 0 at every turn (the exact (cash x position) chain of engine.chains.state_risk, "
            "as monopoly-trade risk computes it: the others' holdings frozen, the player buying nothing, jail policy long).</p></section>"
        )
    ymax = 1.0
    for cand in (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0):
        if top <= cand:
            ymax = cand
            break
    left, right, topm, bottom = 60.0, 20.0, 14.0, 40.0
    w, h = 760.0, 280.0
    pw, ph = w - left - right, h - topm - bottom

    def x_of(t: float) -> float:
        return left + pw * t / max(1, turns)

    def y_of(v: float) -> float:
        return topm + ph * (1 - v / ymax)

    out = [f'<svg id="risk-svg" viewBox="0 0 {num(w)} {num(h)}" width="{num(w)}" height="{num(h)}" role="img" aria-label="ruin probability by turn">']
    yt = [ymax * k / 5 for k in range(6)]
    out.append('<g class="grid">' + "".join(f'<line x1="{num(left)}" y1="{num(y_of(v))}" x2="{num(w - right)}" y2="{num(y_of(v))}"/>' for v in yt) + "</g>")
    step = max(1, math.ceil(turns / 10))
    out.append(
        '<g class="axis">'
        + f'<path d="M{num(left)},{num(topm)} V{num(topm + ph)} H{num(w - right)}"/>'
        + "".join(f'<text x="{num(left - 6)}" y="{num(y_of(v))}" text-anchor="end" dominant-baseline="central">{100 * v:g}%</text>' for v in yt)
        + "".join(f'<text x="{num(x_of(t))}" y="{num(topm + ph + 16)}" text-anchor="middle">{t}</text>' for t in range(0, turns + 1, step))
        + f'<text x="{num(left + pw / 2)}" y="{num(h - 4)}" text-anchor="middle">turns from now</text></g>'
    )
    bw = max(1.0, pw / max(1, turns) * 0.5)
    out.append(
        '<g class="risk-pmfs">'
        + "".join(
            f'<rect class="risk-pmf" x="{num(x_of(t) - bw / 2)}" y="{num(y_of(min(v, ymax)))}" width="{num(bw)}" height="{num(topm + ph - y_of(min(v, ymax)))}"/>'
            for t, v in enumerate(pmf)
            if v > 0
        )
        + "</g>"
    )
    points = " ".join(f"{num(x_of(t))},{num(y_of(min(v, ymax)))}" for t, v in enumerate(cum))
    out.append(f'<polyline class="risk-line" data-player="{esc(me)}" data-turns="{turns}" data-final="{cum[-1] if cum else 0.0:.6g}" points="{points}"/>')
    out.append("</svg>")
    caption = (
        f"The probability that {me} is ruined (owes more than its liquidation value, ${state.liquidation_value(state.player_index(me)):,}) "
        f"by each of the next {turns} turns (line: by then, {pct(cum[-1] if cum else 0.0, 2)} at turn {turns}; pale bars: at that turn), "
        "from the exact (cash x position) chain of engine.chains.state_risk, as monopoly-trade risk computes it: the others' "
        "holdings frozen, the player buying nothing, jail policy long."
    )
    return f'<section id="risk"><h2>Risk of ruin, turn by turn</h2>{"".join(out)}<p class="caption">{esc(caption)}</p></section>'
