"""The recommended action on the report page: the trade as arrows between the parties, the build plan, or the reason to hold.

A trade's parties are boxes; each transfer is a quadratic curve from the
giver to the receiver, bent to the left of the direction of travel (so that
two parties' two arrows curve apart), in the giver's colour and labelled with
the lots and cash that go that way; three or more parties sit on an ellipse.
A build is a table of the lots' levels now and after, with the lots mortgaged
to pay for it. A hold shows its reason (:func:`action_section`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from models.state import GameState
from solver.report.markup import (
    Z95,
    esc,
    level_text,
    num,
    pct,
    player_colour,
    short,
    signed,
)

__all__ = ["action_section"]


def _box_edge(cx: float, cy: float, towards: tuple[float, float], hw: float, hh: float, gap: float) -> tuple[float, float]:
    """Where the ray from a box's centre towards a point leaves the box (plus ``gap``)."""
    dx, dy = towards[0] - cx, towards[1] - cy
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    t = min(hw / abs(ux) if ux else math.inf, hh / abs(uy) if uy else math.inf) + gap
    return cx + ux * t, cy + uy * t


def _trade_svg(state: GameState, trade: Mapping[str, Any]) -> str:
    """The parties as boxes (two face to face; more on an ellipse) and one bent arrow per transfer."""
    legs = list(trade.get("transfers") or [])
    parties: list[str] = []
    for leg in legs:
        for who in (leg.get("from"), leg.get("to")):
            if who not in parties:
                parties.append(str(who))
    w, h = 860.0, 250.0 if len(parties) <= 2 else 360.0
    hw, hh = 80.0, 24.0
    if len(parties) <= 2:
        centres = [(170.0, h / 2), (w - 170.0, h / 2)][: len(parties)]
    else:
        centres = [
            (w / 2 + 250 * math.cos(-math.pi / 2 + 2 * math.pi * k / len(parties)), h / 2 + 120 * math.sin(-math.pi / 2 + 2 * math.pi * k / len(parties)))
            for k in range(len(parties))
        ]
    pos = dict(zip(parties, centres, strict=True))
    seats = {p.name: k for k, p in enumerate(state.players)}
    out = ["<defs>"]
    xs = [x for x, _ in centres for x in (x - hw, x + hw)]
    ys = [y for _, y in centres for y in (y - hh, y + hh)]
    for name in parties:
        seat = seats.get(name, 0)
        out.append(
            f'<marker id="ah-{seat}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{player_colour(seat)}"/></marker>'
        )
    out.append("</defs>")
    for leg in legs:
        a, b = str(leg.get("from")), str(leg.get("to"))
        (x0, y0), (x2, y2) = pos[a], pos[b]
        mx, my = (x0 + x2) / 2, (y0 + y2) / 2
        d = math.hypot(x2 - x0, y2 - y0) or 1.0
        nx, ny = (y2 - y0) / d, -(x2 - x0) / d  # left of the direction of travel
        bend = 90.0 if len(parties) <= 2 else 55.0
        cx, cy = mx + nx * bend, my + ny * bend
        sx, sy = _box_edge(x0, y0, (cx, cy), hw, hh, 4)
        ex, ey = _box_edge(x2, y2, (cx, cy), hw, hh, 8)
        apex_x, apex_y = 0.25 * sx + 0.5 * cx + 0.25 * ex, 0.25 * sy + 0.5 * cy + 0.25 * ey  # the curve at t = 1/2
        cash = leg.get("cash") or 0
        lots = [str(x) for x in leg.get("properties") or []]
        label = lots + ([f"${cash:,}"] if cash else [])
        if not label:
            label = ["nothing"]
        seat = seats.get(a, 0)
        step = 16.0
        # The label sits beside the curve, on its outer side: its box (about 7.2 units a character
        # of 13-unit type, one step a line) is moved along the normal by its half extent in that
        # direction plus a margin, so the curve, which runs along the tangent there, does not cross it.
        lw, lh = 7.2 * max(len(t) for t in label), step * len(label)
        off = 10.0 + lw / 2 * abs(nx) + lh / 2 * abs(ny)
        lx, ly = apex_x + nx * off, apex_y + ny * off
        y_first = ly - step * (len(label) - 1) / 2
        xs += [lx - lw / 2, lx + lw / 2]
        ys += [ly - lh / 2, ly + lh / 2]
        texts = "".join(f'<text x="{num(lx)}" y="{num(y_first + k * step)}">{esc(t)}</text>' for k, t in enumerate(label))
        out.append(
            f'<g class="trade-arrow" data-from="{esc(a)}" data-to="{esc(b)}" data-cash="{int(cash)}" data-lots="{len(lots)}">'
            f"<title>{esc(a)} gives {esc(b)}: {esc(', '.join(label))}</title>"
            f'<path d="M{num(sx)},{num(sy)} Q{num(cx)},{num(cy)} {num(ex)},{num(ey)}" stroke="{player_colour(seat)}" marker-end="url(#ah-{seat})"/>'
            f"{texts}</g>"
        )
    for name in parties:
        x, y = pos[name]
        seat = seats.get(name, 0)
        out.append(
            f'<g class="trade-party" data-party="{esc(name)}"><rect x="{num(x - hw)}" y="{num(y - hh)}" width="{num(2 * hw)}" height="{num(2 * hh)}" rx="8" '
            f'stroke="{player_colour(seat)}"/><text x="{num(x)}" y="{num(y)}" font-size="15">{esc(short(name, 18))}</text></g>'
        )
    out.append("</svg>")
    x0, y0 = min(0.0, min(xs) - 10), min(0.0, min(ys) - 10)
    vw, vh = max(w, max(xs) + 10) - x0, max(h, max(ys) + 10) - y0
    out.insert(0, f'<svg id="trade-svg" viewBox="{num(x0)} {num(y0)} {num(vw)} {num(vh)}" width="{num(vw)}" height="{num(vh)}" role="img" aria-label="the trade">')
    return "\n".join(out)


def _trade_section(state: GameState, doc: Mapping[str, Any], trade: Mapping[str, Any]) -> str:
    """The trade's arrows, its transfers as a list, and its verdicts (Nash zone, balance, acceptance, price)."""
    dec = doc.get("decision") or {}
    rows = []
    for leg in trade.get("transfers") or []:
        items = [*(str(x) for x in leg.get("properties") or []), *([f"${leg['cash']:,}"] if leg.get("cash") else [])]
        rows.append(f"<li><b>{esc(leg.get('from'))}</b> gives <b>{esc(leg.get('to'))}</b>: {esc(', '.join(items) or 'nothing')}</li>")
    price = dec.get("nash_cash") or dec.get("play_cash")
    facts = [
        f"kind {esc(trade.get('kind'))}",
        f"Nash zone {'yes' if trade.get('nash_zone') else 'no'}",
        f"leader after: {esc(trade.get('leader'))} at {pct(trade.get('leader_win_prob'), 0)} ({'balanced' if trade.get('balanced') else 'unbalanced'})",
        f"acceptance {pct(trade.get('acceptance'), 0)}",
        f"risk-adjusted gain {signed(trade.get('risk_adjusted_ev'))}",
    ]
    if price and price.get("cash") is not None:
        facts.append(f"cash set by {'Nash bargaining' if 'nash_cash' in dec else 'gain x acceptance'}: ${price['cash']:,}")
    return (
        '<div id="trade">'
        + _trade_svg(state, trade)
        + '<ul class="legs">'
        + "".join(rows)
        + "</ul>"
        + f'<p class="muted">{"; ".join(facts)}.</p>'
        + '<p class="caption">Each arrow goes from the player who gives to the player who receives, labelled with the lots and cash that go that way.</p>'
        + "</div>"
    )


def _build_section(state: GameState, build: Mapping[str, Any]) -> str:
    """The build plan: each lot's level now and after, the mortgages that pay for it, cost, cash kept, change in win probability."""
    board = state.board
    rows = []
    for lot, level in (build.get("levels") or {}).items():
        sq = board.property_index.get(lot)
        now = state.houses[sq] if sq is not None else 0
        group = board.squares[sq].group if sq is not None else ""
        rows.append(
            f'<tr class="plan-lot" data-lot="{esc(lot)}" data-level="{int(level)}" data-now="{now}">'
            f"<td>{esc(lot)}</td><td>{esc(group)}</td><td>{esc(level_text(now))}</td><td>{esc(level_text(int(level)))}</td></tr>"
        )
    mort = [str(x) for x in build.get("mortgage") or []]
    raised = ((build.get("funding") or {}).get("raised")) if build.get("funding") else None
    lines = [
        f"cost ${build.get('cost', 0):,}",
        (f"mortgage first: {esc(', '.join(mort))}" + (f" (raises ${raised:,})" if raised is not None else "")) if mort else "no mortgage",
    ]
    if build.get("cash_after") is not None:
        lines.append(f"cash kept ${build['cash_after']:,}")
    se = build.get("win_delta_se")
    lines.append(
        f"building now changes the win probability by {signed(build.get('win_delta'))}"
        + ("" if se is None else f" (\u00b1 {Z95 * se:.3f}, 1.96 standard errors)")
    )
    mort_rows = "".join(f'<li class="plan-mortgage" data-lot="{esc(x)}">{esc(x)}</li>' for x in mort)
    return (
        '<div id="build-plan">'
        "<table><thead><tr><th>lot</th><th>group</th><th>now</th><th>after</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
        + (f'<p>mortgaged to pay for it:</p><ul class="mortgages">{mort_rows}</ul>' if mort else "")
        + f'<p class="muted">{"; ".join(lines)}.</p>'
        + '<p class="caption">The plan is also drawn on the board: a dashed outline and the level after the build (H: a hotel, M: mortgaged).</p>'
        + "</div>"
    )


def action_section(state: GameState, doc: Mapping[str, Any]) -> str:
    """The ``#action`` section: the trade's arrows and facts, the build plan's table, or the reason to hold.

    Parameters
    ----------
    state
        The state the result is about.
    doc
        The solve result's JSON object (:func:`solver.html_report.render_report` made it JSON-safe).

    Returns
    -------
    str
        The ``<section>`` element (the trade's or build's only when the decision carries one).
    """
    dec = doc.get("decision") or {}
    action = dec.get("action")
    if action == "propose_trade" and dec.get("trade"):
        body = _trade_section(state, doc, dec["trade"])
        head = "The recommended trade"
    elif action == "build" and dec.get("build"):
        body = _build_section(state, dec["build"])
        head = "The build plan"
    else:
        body = f'<p id="hold-reason">{esc(dec.get("reason", ""))}</p>'
        head = "Hold: why"
    return f'<section id="action" class="panel" data-action="{esc(action)}"><h2>{head}</h2>{body}</section>'
