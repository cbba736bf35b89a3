"""The visual report of ``monopoly-trade solve --html FILE``: one self-contained HTML page.

:func:`render_report` turns a solve result (the JSON object of ``solve --json``,
:meth:`solver.api.SolveResult.to_dict` or :meth:`solver.decide.Decision.to_dict`) and the
state it was computed for into one HTML string; :func:`write_report` writes it atomically
(:func:`models.files.atomic_write`). The page holds, top to bottom:

- the decision (action and reason) and, when the player stands on a lot the bank holds,
  the purchase advice;
- the board: the state's squares laid around the perimeter of a square grid (any
  square count: ``ceil(N / 4)`` squares a side, square 0 in the bottom-right corner),
  each property with its group's colour band, its owner's marker, its houses or hotel
  and a hatch when mortgaged, and every player's token on its square; one card per
  player beside it;
- the recommended action: the trade as arrows between the parties, each labelled with
  the lots and cash that go that way; the build plan (levels per lot, what it mortgages,
  cost and cash kept); or the reason to hold;
- win-probability bars per player, before and after the recommended action, with error
  bars of 1.96 standard errors (:func:`win_rows` says which standard errors);
- the pruning funnel (the result's ``pruning`` counts) as bars on a log scale;
- the deciding player's ruin probability by turn, from the exact (cash x position) chain
  of :func:`engine.chains.state_risk.state_ruin_pmf`, the function of ``monopoly-trade risk``;
- every re-scored trade, as a table.

It is pure inline SVG, CSS and one small inline script (``solver/data/report.*``, read
with :mod:`importlib.resources`); it references nothing outside itself, and its
Content-Security-Policy (``default-src 'none'``, the script allowed by its SHA-256 hash
only) makes the browser refuse any fetch and any other script. Every name from the
state (players, squares, groups) is HTML-escaped: a state file is hostile input.

Elements carry stable hooks for tests and scripts: ``.player[data-player]`` for each
player's card, ``.square[data-square]`` for each square with ``data-owner``,
``data-houses`` and ``data-mortgaged`` on owned lots, ``.token[data-token]``,
``.trade-arrow[data-from][data-to]``, ``#build-plan .plan-lot[data-lot]``,
``.winbar[data-player]``, ``.funnel-stage[data-stage]`` and ``.risk-line``. The script
sets ``data-ready`` on the root element to the number of owned lots it found.
"""

from __future__ import annotations

import base64
import hashlib
import html
import math
import os
import zlib
from collections.abc import Mapping, Sequence
from importlib import resources
from string import Template
from typing import Any

from models.board import HOTEL
from models.state import BANK, GameState
from solver import jsonsafe

__all__ = [
    "GROUP_COLOURS",
    "PLAYER_COLOURS",
    "Z95",
    "content_security_policy",
    "group_colour",
    "render_report",
    "win_rows",
    "write_report",
]

Z95 = 1.96
"""Half-width of the error bars in standard errors (a 95% normal interval)."""

PLAYER_COLOURS = ("#c0392b", "#1f6fb2", "#1e8449", "#7d3c98", "#d35400", "#117a8b", "#6e4b2a", "#b0306f")
"""One colour per seat (a state has at most 8 players); seat ``k`` takes ``PLAYER_COLOURS[k % 8]``."""

GROUP_COLOURS: Mapping[str, str] = {
    "brown": "#8b4513",
    "light_blue": "#9fd8f5",
    "pink": "#d93a96",
    "orange": "#f7941d",
    "red": "#e0201b",
    "yellow": "#f5e000",
    "green": "#1fa855",
    "dark_blue": "#0060a8",
    "railroad": "#3a3a3a",
    "utility": "#a8b3b8",
    "purple": "#7b3fa0",
    "blue": "#1f5fbf",
    "grey": "#8e8e8e",
    "gray": "#8e8e8e",
    "gold": "#d4a017",
    "black": "#222222",
    "white": "#eeeeee",
}
"""Band colours of the standard groups (and a few common names); other groups get :func:`group_colour`'s hash colour."""

FUNNEL_STAGES: Mapping[str, str] = {
    "raw": "candidates enumerated",
    "completion": "rule 1: everyone in it completes a set",
    "proposer": "rule 2: the proposer does not lose",
    "counterparty": "rule 3: every counterparty gains",
    "cash": "rule 4: everyone keeps its cash reserve",
    "domination": "rule 5: not dominated",
    "cpsat": "CP-SAT candidates",
    "denial": "denial purchases added (mode best)",
    "rescored": "re-scored by simulation",
    "nash_zone": "in the Nash zone",
    "balanced": "in the Nash zone and balanced",
    "qualified": "pass the mode's filters",
}
"""What each stage of the ``pruning`` counts means (``docs/trades.md``, ``docs/decisions.md``)."""

ACTION_TITLES = {"propose_trade": "PROPOSE A TRADE", "build": "BUILD", "hold": "HOLD"}
RISK_TURNS = 20
"""Turns of the ruin curve (as ``position.ruin_20`` and ``monopoly-trade risk``'s default)."""


def _e(value: Any) -> str:
    """``value`` as text, HTML-escaped for element content and quoted attributes."""
    return html.escape(str(value), quote=True)


def _num(x: float) -> str:
    """A coordinate for SVG: two decimals, no exponent."""
    return f"{x:.2f}".rstrip("0").rstrip(".") if math.isfinite(x) else "0"


def _pct(p: float | None, digits: int = 1) -> str:
    return "n/a" if p is None else f"{100 * p:.{digits}f}%"


def _signed(x: float | None, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:+.{digits}f}"


def _short(name: str, width: int) -> str:
    """``name`` on one line of at most ``width`` characters (cut with an ellipsis)."""
    return name if len(name) <= width else name[: width - 1] + "\u2026"


def _plus_minus(se: float | None) -> str:
    """`` ± 1.96 se`` (three decimals), or nothing when the standard error is missing."""
    return "" if se is None else f" \u00b1 {Z95 * se:.3f}"


def group_colour(group: str | None) -> str:
    """The band colour of ``group``: :data:`GROUP_COLOURS`, else a hue from a hash of its name (the same on every run)."""
    if group is None:
        return "#ffffff"
    known = GROUP_COLOURS.get(group.lower())
    if known is not None:
        return known
    hue = zlib.crc32(group.encode("utf-8")) % 360
    return f"hsl({hue}, 62%, 48%)"


def _player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def _initial(name: str) -> str:
    """The first character of a name (a whole surrogate-free code point), upper-cased."""
    return name[:1].upper() or "?"


def _asset(name: str) -> str:
    return resources.files("solver").joinpath("data").joinpath(name).read_text(encoding="utf-8")


def content_security_policy(script: str) -> str:
    """The page's policy: nothing may be fetched; styles inline; the one script by its SHA-256 hash."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
        f"script-src 'sha256-{digest}'; base-uri 'none'; form-action 'none'"
    )


# -- the board ---------------------------------------------------------------------------


def _perimeter_cell(i: int, per_side: int) -> tuple[int, int]:
    """(column, row) of square ``i`` on a grid of ``per_side + 1`` cells a side, walking
    clockwise from the bottom-right corner as on a printed board (Go, then leftwards)."""
    side, off = divmod(i, per_side)
    if side == 0:
        return per_side - off, per_side
    if side == 1:
        return 0, per_side - off
    if side == 2:
        return off, 0
    return per_side, off


def _wrap(name: str, width: int, lines: int) -> list[str]:
    """``name`` in at most ``lines`` lines of at most ``width`` characters (the last cut with an ellipsis)."""
    out: list[str] = []
    cur = ""
    for word in name.split():
        while len(word) > width:  # a long word is cut
            if cur:
                out.append(cur)
                cur = ""
            out.append(word[:width])
            word = word[width:]
        if not cur:
            cur = word
        elif len(cur) + 1 + len(word) <= width:
            cur += " " + word
        else:
            out.append(cur)
            cur = word
    if cur:
        out.append(cur)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: max(1, width - 1)] + "\u2026"
    return out


def _level_text(level: int) -> str:
    return "a hotel" if level == HOTEL else f"{level} house" + ("" if level == 1 else "s")


def _board_svg(state: GameState, doc: Mapping[str, Any], size: float = 660.0) -> str:
    board = state.board
    n = board.size
    per_side = max(1, math.ceil(n / 4))
    c = size / (per_side + 1)
    show_text = c >= 36
    font = max(6.0, min(11.0, c * 0.135))
    chars = max(3, int(c / (font * 0.56)))
    dec = doc.get("decision") or {}
    planned: dict[int, str] = {}
    build = dec.get("build") if dec.get("action") == "build" else None
    if build:
        for lot, lv in (build.get("levels") or {}).items():
            sq = board.property_index.get(lot)
            if sq is not None:
                planned[sq] = f"\u2192 {'H' if lv == HOTEL else lv}"
        for lot in build.get("mortgage") or []:
            sq = board.property_index.get(lot)
            if sq is not None:
                planned[sq] = "\u2192 M"
    traded: dict[int, str] = {}
    trade = dec.get("trade") if dec.get("action") == "propose_trade" else None
    if trade:
        for leg in trade.get("transfers") or []:
            for lot in leg.get("properties") or []:
                sq = board.property_index.get(lot)
                if sq is not None:
                    traded[sq] = str(leg.get("to"))
    parts = [
        (f'<svg id="board-svg" viewBox="0 0 {_num(size)} {_num(size)}" width="{_num(size)}" height="{_num(size)}" '
        f'role="img" aria-label="the board: {_e(board.name)}">'),
        ('<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="6" height="6" fill="#ffffff" fill-opacity="0.35"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#9a1c1c" stroke-opacity="0.55" stroke-width="1.6"/></pattern></defs>'),
        f'<rect x="0" y="0" width="{_num(size)}" height="{_num(size)}" fill="#d8ecd9" stroke="#6d7780"/>',
    ]
    for sq in board.squares:
        col, row = _perimeter_cell(sq.index, per_side)
        x, y = col * c, row * c
        owner = state.owner[sq.index]
        classes = ["square", sq.kind]
        attrs = [f'data-square="{sq.index}"', f'data-kind="{_e(sq.kind)}"']
        if sq.group is not None:
            attrs.append(f'data-group="{_e(sq.group)}"')
        title = [f"{sq.index}: {sq.name}"]
        if sq.is_property:
            title.append(f"({sq.group}, ${sq.price})")
        if owner != BANK:
            oname = state.players[owner].name
            level = state.houses[sq.index]
            mort = state.mortgaged[sq.index]
            classes.append("owned")
            attrs += [f'data-owner="{_e(oname)}"', f'data-houses="{level}"', f'data-mortgaged="{str(mort).lower()}"']
            title.append(f"\u2014 owner {oname}" + (f", {_level_text(level)}" if level else "") + (", mortgaged" if mort else ""))
            if mort:
                classes.append("mortgaged")
        elif sq.is_property:
            title.append("\u2014 the bank's")
        if sq.index in planned:
            classes.append("planned")
            attrs.append(f'data-plan="{_e(planned[sq.index])}"')
            title.append(f"(plan: {planned[sq.index]})")
        if sq.index in traded:
            classes.append("traded")
            attrs.append(f'data-traded-to="{_e(traded[sq.index])}"')
            title.append(f"(trade: to {traded[sq.index]})")
        g = [f'<g class="{" ".join(classes)}" {" ".join(attrs)} transform="translate({_num(x)} {_num(y)})">']
        g.append(f"<title>{_e(' '.join(title))}</title>")
        g.append(f'<rect class="cell" width="{_num(c)}" height="{_num(c)}"/>')
        band = c * 0.22
        if sq.is_property:
            g.append(f'<rect class="band" width="{_num(c)}" height="{_num(band)}" fill="{group_colour(sq.group)}"/>')
        if show_text:
            for k, line in enumerate(_wrap(sq.name, chars, 2)):
                g.append(
                    f'<text class="sq-name" x="{_num(c / 2)}" y="{_num(band + font * (1.15 + 1.1 * k))}" '
                    f'font-size="{_num(font)}" text-anchor="middle">{_e(line)}</text>'
                )
            if sq.is_property and owner == BANK:
                g.append(f'<text class="price" x="{_num(c / 2)}" y="{_num(c - font * 0.5)}" font-size="{_num(font)}" text-anchor="middle">${sq.price}</text>')
            elif sq.kind == "tax" and sq.amount:
                g.append(f'<text class="price" x="{_num(c / 2)}" y="{_num(c - font * 0.5)}" font-size="{_num(font)}" text-anchor="middle">pay ${sq.amount}</text>')
        if owner != BANK:
            level = state.houses[sq.index]
            if level == HOTEL:
                g.append(f'<rect class="hotel" x="{_num(c * 0.3)}" y="{_num(band * 0.15)}" width="{_num(c * 0.4)}" height="{_num(band * 0.7)}"/>')
            else:
                w = band * 0.7
                for k in range(level):
                    g.append(f'<rect class="house" x="{_num(c * 0.06 + k * (w + c * 0.04))}" y="{_num(band * 0.15)}" width="{_num(w)}" height="{_num(w)}"/>')
            if state.mortgaged[sq.index]:
                g.append(f'<rect class="hatch" y="{_num(band)}" width="{_num(c)}" height="{_num(c - band)}" fill="url(#hatch)"/>')
                if show_text:
                    g.append(
                        f'<text class="mortgage-label" x="{_num(c / 2)}" y="{_num(c * 0.66)}" font-size="{_num(font)}" '
                        'text-anchor="middle">MORTGAGED</text>'
                    )
            r = max(3.0, c * 0.14)
            g.append(
                f'<g class="owner-mark" data-owner="{_e(state.players[owner].name)}"><circle cx="{_num(r + c * 0.05)}" cy="{_num(c - r - c * 0.05)}" '
                f'r="{_num(r)}" fill="{_player_colour(owner)}"/>'
                + (f'<text x="{_num(r + c * 0.05)}" y="{_num(c - r - c * 0.05)}" font-size="{_num(r * 1.15)}">{_e(_initial(state.players[owner].name))}</text>' if show_text else "")
                + "</g>"
            )
        if sq.index in planned and show_text:
            g.append(f'<text class="plan-label" x="{_num(c * 0.95)}" y="{_num(c - font * 0.5)}" font-size="{_num(font * 1.1)}" text-anchor="end" fill="#1c7c3c" font-weight="700">{_e(planned[sq.index])}</text>')
        g.append("</g>")
        parts.append("".join(g))
    parts.append(_tokens_svg(state, per_side, c))
    parts.append(_board_centre(state, doc, size, c))
    parts.append("</svg>")
    return "\n".join(parts)


def _tokens_svg(state: GameState, per_side: int, c: float) -> str:
    """Each active player's token on its square: up to four in a 2 x 2 block in the cell's right half, more overlapping."""
    here: dict[int, int] = {}
    out = []
    r = max(3.0, c * 0.11)
    for seat, p in enumerate(state.players):
        if p.bankrupt or not 0 <= p.position < state.board.size:
            continue
        k = here.get(p.position, 0)
        here[p.position] = k + 1
        col, row = _perimeter_cell(p.position, per_side)
        cx = col * c + c - r * (1.3 + 2.2 * (k % 2)) - c * 0.02
        cy = row * c + c * 0.5 + r * (0.4 + 2.2 * ((k // 2) % 2))
        where = state.board.squares[p.position].name + (" (in jail)" if p.in_jail else "")
        out.append(
            f'<g class="token" data-token="{_e(p.name)}" data-at="{p.position}"><title>{_e(p.name)} on {_e(where)}</title>'
            f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" fill="{_player_colour(seat)}"/>'
            f'<text x="{_num(cx)}" y="{_num(cy)}" font-size="{_num(r * 1.2)}">{_e(_initial(p.name))}</text></g>'
        )
    return "\n".join(out)


def _board_centre(state: GameState, doc: Mapping[str, Any], size: float, c: float) -> str:
    mid = size / 2
    inner = size - 2 * c
    if inner < 120:
        return ""
    to_move = state.players[state.to_move].name
    lines = [
        f'<text class="title" x="{_num(mid)}" y="{_num(mid - 46)}">{_e(state.board.name)}</text>',
        f'<text class="rules" x="{_num(mid)}" y="{_num(mid - 32)}" font-size="11">rules: {_e(state.rules.describe())}</text>',
        f'<text x="{_num(mid)}" y="{_num(mid - 18)}" font-size="13">round {state.round}, {_e(to_move)} to move ({_e(state.phase)})</text>',
        f'<text x="{_num(mid)}" y="{_num(mid + 4)}" font-size="13">bank: {state.houses_in_bank()} houses, {state.hotels_in_bank()} hotels</text>',
    ]
    action = (doc.get("decision") or {}).get("action", "")
    lines.append(
        f'<text x="{_num(mid)}" y="{_num(mid + 34)}" font-size="15" font-weight="700">{_e(doc.get("player", ""))}: {_e(ACTION_TITLES.get(action, action))}</text>'
    )
    return '<g class="board-centre">' + "".join(lines) + "</g>"


def _player_cards(state: GameState, doc: Mapping[str, Any]) -> str:
    me = doc.get("player")
    win = doc.get("win_prob") or {}
    cards = []
    for seat, p in enumerate(state.players):
        lots = state.properties_of(seat)
        houses, hotels = state.building_counts(seat)
        mortgaged = sum(1 for sq in lots if state.mortgaged[sq])
        where = state.board.squares[p.position].name if 0 <= p.position < state.board.size else str(p.position)
        classes = ["player"] + (["deciding"] if p.name == me else []) + (["bankrupt"] if p.bankrupt else [])
        status = "bankrupt" if p.bankrupt else ("in jail" if p.in_jail else "playing")
        cards.append(
            f'<div class="{" ".join(classes)}" data-player="{_e(p.name)}" data-seat="{seat}" tabindex="0" style="--pc: {_player_colour(seat)}">'
            f'<div class="name">{_e(p.name)}</div><dl>'
            f"<dt>cash</dt><dd>${p.cash:,}</dd>"
            f"<dt>on</dt><dd>{_e(where)} ({status})</dd>"
            f"<dt>lots</dt><dd>{len(lots)}" + (f", {mortgaged} mortgaged" if mortgaged else "") + "</dd>"
            f"<dt>buildings</dt><dd>{houses} houses, {hotels} hotels</dd>"
            f"<dt>wins now</dt><dd>{_pct(win.get(p.name))}</dd>"
            "</dl></div>"
        )
    return '<div class="players">' + "".join(cards) + "</div>"


# -- the recommended action --------------------------------------------------------------


def _box_edge(cx: float, cy: float, towards: tuple[float, float], hw: float, hh: float, gap: float) -> tuple[float, float]:
    """Where the ray from a box's centre towards a point leaves the box (plus ``gap``)."""
    dx, dy = towards[0] - cx, towards[1] - cy
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    t = min(hw / abs(ux) if ux else math.inf, hh / abs(uy) if uy else math.inf) + gap
    return cx + ux * t, cy + uy * t


def _trade_svg(state: GameState, trade: Mapping[str, Any]) -> str:
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
    out = [f'<svg id="trade-svg" viewBox="0 0 {_num(w)} {_num(h)}" width="{_num(w)}" height="{_num(h)}" role="img" aria-label="the trade">', "<defs>"]
    for name in parties:
        seat = seats.get(name, 0)
        out.append(
            f'<marker id="ah-{seat}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{_player_colour(seat)}"/></marker>'
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
        lx, ly = 0.25 * sx + 0.5 * cx + 0.25 * ex, 0.25 * sy + 0.5 * cy + 0.25 * ey
        cash = leg.get("cash") or 0
        lots = [str(x) for x in leg.get("properties") or []]
        label = lots + ([f"${cash:,}"] if cash else [])
        if not label:
            label = ["nothing"]
        seat = seats.get(a, 0)
        step = 16.0
        y_first = ly - step * (len(label) - 1) / 2 + (ny * step * (len(label) - 1) / 2 if len(parties) <= 2 else 0)
        texts = "".join(f'<text x="{_num(lx)}" y="{_num(y_first + k * step)}">{_e(t)}</text>' for k, t in enumerate(label))
        out.append(
            f'<g class="trade-arrow" data-from="{_e(a)}" data-to="{_e(b)}" data-cash="{int(cash)}" data-lots="{len(lots)}">'
            f"<title>{_e(a)} gives {_e(b)}: {_e(', '.join(label))}</title>"
            f'<path d="M{_num(sx)},{_num(sy)} Q{_num(cx)},{_num(cy)} {_num(ex)},{_num(ey)}" stroke="{_player_colour(seat)}" marker-end="url(#ah-{seat})"/>'
            f"{texts}</g>"
        )
    for name in parties:
        x, y = pos[name]
        seat = seats.get(name, 0)
        out.append(
            f'<g class="trade-party" data-party="{_e(name)}"><rect x="{_num(x - hw)}" y="{_num(y - hh)}" width="{_num(2 * hw)}" height="{_num(2 * hh)}" rx="8" '
            f'stroke="{_player_colour(seat)}"/><text x="{_num(x)}" y="{_num(y)}" font-size="15">{_e(_short(name, 18))}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _trade_section(state: GameState, doc: Mapping[str, Any], trade: Mapping[str, Any]) -> str:
    dec = doc.get("decision") or {}
    rows = []
    for leg in trade.get("transfers") or []:
        items = [*(str(x) for x in leg.get("properties") or []), *([f"${leg['cash']:,}"] if leg.get("cash") else [])]
        rows.append(f"<li><b>{_e(leg.get('from'))}</b> gives <b>{_e(leg.get('to'))}</b>: {_e(', '.join(items) or 'nothing')}</li>")
    price = dec.get("nash_cash") or dec.get("play_cash")
    facts = [
        f"kind {_e(trade.get('kind'))}",
        f"Nash zone {'yes' if trade.get('nash_zone') else 'no'}",
        f"leader after: {_e(trade.get('leader'))} at {_pct(trade.get('leader_win_prob'), 0)} ({'balanced' if trade.get('balanced') else 'unbalanced'})",
        f"acceptance {_pct(trade.get('acceptance'), 0)}",
        f"risk-adjusted gain {_signed(trade.get('risk_adjusted_ev'))}",
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
    board = state.board
    rows = []
    for lot, level in (build.get("levels") or {}).items():
        sq = board.property_index.get(lot)
        now = state.houses[sq] if sq is not None else 0
        group = board.squares[sq].group if sq is not None else ""
        rows.append(
            f'<tr class="plan-lot" data-lot="{_e(lot)}" data-level="{int(level)}" data-now="{now}">'
            f"<td>{_e(lot)}</td><td>{_e(group)}</td><td>{_e(_level_text(now))}</td><td>{_e(_level_text(int(level)))}</td></tr>"
        )
    mort = [str(x) for x in build.get("mortgage") or []]
    raised = ((build.get("funding") or {}).get("raised")) if build.get("funding") else None
    lines = [
        f"cost ${build.get('cost', 0):,}",
        (f"mortgage first: {_e(', '.join(mort))}" + (f" (raises ${raised:,})" if raised is not None else "")) if mort else "no mortgage",
    ]
    if build.get("cash_after") is not None:
        lines.append(f"cash kept ${build['cash_after']:,}")
    se = build.get("win_delta_se")
    lines.append(
        f"building now changes the win probability by {_signed(build.get('win_delta'))}"
        + ("" if se is None else f" (\u00b1 {Z95 * se:.3f}, 1.96 standard errors)")
    )
    mort_rows = "".join(f'<li class="plan-mortgage" data-lot="{_e(x)}">{_e(x)}</li>' for x in mort)
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


def _action_section(state: GameState, doc: Mapping[str, Any]) -> str:
    dec = doc.get("decision") or {}
    action = dec.get("action")
    if action == "propose_trade" and dec.get("trade"):
        body = _trade_section(state, doc, dec["trade"])
        head = "The recommended trade"
    elif action == "build" and dec.get("build"):
        body = _build_section(state, dec["build"])
        head = "The build plan"
    else:
        body = f'<p id="hold-reason">{_e(dec.get("reason", ""))}</p>'
        head = "Hold: why"
    return f'<section id="action" class="panel" data-action="{_e(action)}"><h2>{head}</h2>{body}</section>'


# -- win probabilities -------------------------------------------------------------------


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
        ``player``, ``before``, ``before_err`` (1.96 x sqrt(p(1-p)/rollouts), which bounds
        1.96 standard errors of a mean of per-game scores in [0, 1]: the result does not
        carry the baseline's own standard error), ``after`` and ``after_err`` (``before``
        plus the recommended trade's ``win_delta``, and 1.96 x its paired ``win_delta_se``;
        for a build, the deciding player's row only, from the plan's ``win_delta`` and
        ``win_delta_se``; ``None`` where there is no after). Missing numbers are ``None``.
    """
    dec = doc.get("decision") or {}
    win = doc.get("win_prob") or {}
    delta: Mapping[str, Any] = {}
    delta_se: Mapping[str, Any] = {}
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
        if p is not None and rollouts:
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
    lo, hi = max(0.0, value - err), min(1.0, value + err)
    x0, x1 = x_of(lo), x_of(hi)
    return (
        f'<g class="errbar" data-lo="{lo:.4f}" data-hi="{hi:.4f}">'
        f'<line x1="{_num(x0)}" y1="{_num(y + h / 2)}" x2="{_num(x1)}" y2="{_num(y + h / 2)}"/>'
        f'<line x1="{_num(x0)}" y1="{_num(y + 2)}" x2="{_num(x0)}" y2="{_num(y + h - 2)}"/>'
        f'<line x1="{_num(x1)}" y1="{_num(y + 2)}" x2="{_num(x1)}" y2="{_num(y + h - 2)}"/></g>'
    )


def _win_section(state: GameState, doc: Mapping[str, Any], rollouts: int | None) -> str:
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

    out = [f'<svg id="win-svg" viewBox="0 0 {_num(w)} {_num(h)}" width="{_num(w)}" height="{_num(h)}" role="img" aria-label="win probabilities">']
    out.append('<g class="grid">' + "".join(f'<line x1="{_num(x_of(t / 4))}" y1="20" x2="{_num(x_of(t / 4))}" y2="{_num(h - 22)}"/>' for t in range(5)) + "</g>")
    out.append(
        '<g class="axis">'
        + "".join(f'<text x="{_num(x_of(t / 4))}" y="{_num(h - 8)}" text-anchor="middle">{25 * t}%</text>' for t in range(5))
        + f'<line x1="{_num(left)}" y1="20" x2="{_num(left)}" y2="{_num(h - 22)}"/></g>'
    )
    y = 24.0
    for r in rows:
        colour = _player_colour(seats.get(r["player"], 0))
        before = "" if r["before"] is None else f"{r['before']:.4f}"
        after = "" if r["after"] is None else f"{r['after']:.4f}"
        g = [
            f'<g class="winbar" data-player="{_e(r["player"])}" data-before="{before}" data-after="{after}">',
            (f'<text class="chart-label" x="{_num(left - 8)}" y="{_num(y + bar)}" text-anchor="end" dominant-baseline="central" '
            f'font-size="12">{_e(_short(r["player"], 22))}</text>'),
        ]
        for k, (kind, value, err) in enumerate((("before", r["before"], r["before_err"]), ("after", r["after"], r["after_err"]))):
            yy = y + k * bar
            if value is None:
                g.append(f'<text class="chart-label {kind}" x="{_num(left + 4)}" y="{_num(yy + bar / 2)}" dominant-baseline="central">{kind}: {no_after if kind == "after" else "n/a"}</text>')
                continue
            g.append(f'<rect class="{kind}" x="{_num(left)}" y="{_num(yy + 1)}" width="{_num(max(0.0, x_of(value) - left))}" height="{_num(bar - 2)}" fill="{colour}"/>')
            if err is not None:
                g.append(_errbar(x_of, value, err, yy, bar))
            hi = min(1.0, value + (err or 0.0))
            g.append(
                f'<text class="chart-label" x="{_num(x_of(hi) + 6)}" y="{_num(yy + bar / 2)}" dominant-baseline="central">{kind} {_pct(value)}'
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
    before_err = (
        f"the before bars' whiskers are 1.96 x sqrt(p(1-p)/{rollouts}), an upper bound on 1.96 standard errors of a mean of "
        f"{rollouts} per-game scores in [0, 1]"
        if rollouts
        else "the before bars have no whisker (the number of rollouts is not known)"
    )
    caption = (
        f"Win probability now (pale bars, simulated: {rollouts or 'n/a'} games per state) and {what}. Error bars: \u00b1 1.96 "
        f"standard errors (about 95%): {before_err}; the after bars' whiskers are 1.96 x the paired standard error of the "
        "change (win_delta_se, the same games played from both states), the uncertainty of the difference the decision rests on."
    )
    return f'<section id="win-prob"><h2>Win probability, before and after</h2>{"".join(out)}<p class="caption">{_e(caption)}</p></section>'


# -- the funnel and the risk curve ------------------------------------------------------


def _funnel_section(doc: Mapping[str, Any]) -> str:
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
    out = [f'<svg id="funnel-svg" viewBox="0 0 {_num(w)} {_num(h)}" width="{_num(w)}" height="{_num(h)}" role="img" aria-label="the pruning funnel">']
    y = 4.0
    for stage, count in pruning.items():
        n = int(count)
        width = plot * math.log1p(n) / math.log1p(top)
        desc = FUNNEL_STAGES.get(stage, stage)
        out.append(
            f'<g class="funnel-stage{" empty" if n == 0 else ""}" data-stage="{_e(stage)}" data-count="{n}">'
            f'<text class="chart-label" x="{_num(left - 8)}" y="{_num(y + bar / 2)}" text-anchor="end" dominant-baseline="central" font-size="12">{_e(stage)}: {_e(desc)}</text>'
            f'<rect x="{_num(left)}" y="{_num(y)}" width="{_num(max(1.0, width))}" height="{_num(bar)}"/>'
            f'<text class="chart-label" x="{_num(left + max(1.0, width) + 6)}" y="{_num(y + bar / 2)}" dominant-baseline="central" font-size="12">{n:,}</text></g>'
        )
        y += bar + gap
    out.append("</svg>")
    return (
        '<section id="funnel"><h2>The pruning funnel</h2>'
        + "".join(out)
        + '<p class="caption">Trade candidates left after each stage: the enumerator\'s five rules on the frontier values, then '
        "the CP-SAT search, the simulation and the mode's filters. Bar length is log(1 + count), so that the last stages stay visible.</p></section>"
    )


def _risk_section(state: GameState, doc: Mapping[str, Any], ruin: Sequence[float] | None) -> str:
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

    out = [f'<svg id="risk-svg" viewBox="0 0 {_num(w)} {_num(h)}" width="{_num(w)}" height="{_num(h)}" role="img" aria-label="ruin probability by turn">']
    yt = [ymax * k / 5 for k in range(6)]
    out.append('<g class="grid">' + "".join(f'<line x1="{_num(left)}" y1="{_num(y_of(v))}" x2="{_num(w - right)}" y2="{_num(y_of(v))}"/>' for v in yt) + "</g>")
    step = max(1, math.ceil(turns / 10))
    out.append(
        '<g class="axis">'
        + f'<path d="M{_num(left)},{_num(topm)} V{_num(topm + ph)} H{_num(w - right)}"/>'
        + "".join(f'<text x="{_num(left - 6)}" y="{_num(y_of(v))}" text-anchor="end" dominant-baseline="central">{100 * v:g}%</text>' for v in yt)
        + "".join(f'<text x="{_num(x_of(t))}" y="{_num(topm + ph + 16)}" text-anchor="middle">{t}</text>' for t in range(0, turns + 1, step))
        + f'<text x="{_num(left + pw / 2)}" y="{_num(h - 4)}" text-anchor="middle">turns from now</text></g>'
    )
    bw = max(1.0, pw / max(1, turns) * 0.5)
    out.append(
        '<g class="risk-pmfs">'
        + "".join(
            f'<rect class="risk-pmf" x="{_num(x_of(t) - bw / 2)}" y="{_num(y_of(min(v, ymax)))}" width="{_num(bw)}" height="{_num(topm + ph - y_of(min(v, ymax)))}"/>'
            for t, v in enumerate(pmf)
            if v > 0
        )
        + "</g>"
    )
    points = " ".join(f"{_num(x_of(t))},{_num(y_of(min(v, ymax)))}" for t, v in enumerate(cum))
    out.append(f'<polyline class="risk-line" data-player="{_e(me)}" data-turns="{turns}" data-final="{cum[-1] if cum else 0.0:.6g}" points="{points}"/>')
    out.append("</svg>")
    caption = (
        f"The probability that {me} is ruined (owes more than its liquidation value, ${state.liquidation_value(state.player_index(me)):,}) "
        f"by each of the next {turns} turns (line: by then, {_pct(cum[-1] if cum else 0.0, 2)} at turn {turns}; pale bars: at that turn), "
        "from the exact (cash x position) chain of engine.chains.state_risk, as `monopoly-trade risk` computes it: the others' "
        "holdings frozen, the player buying nothing, jail policy long."
    )
    return f'<section id="risk"><h2>Risk of ruin, turn by turn</h2>{"".join(out)}<p class="caption">{_e(caption)}</p></section>'


def _trades_table(doc: Mapping[str, Any]) -> str:
    trades = doc.get("trades") or []
    if not trades:
        return ""
    me = doc.get("player")
    rows = []
    for k, t in enumerate(trades, 1):
        legs = "; ".join(
            f"{x.get('from')} \u2192 {x.get('to')}: " + (", ".join([*map(str, x.get("properties") or []), *([f"${x['cash']:,}"] if x.get("cash") else [])]) or "nothing")
            for x in t.get("transfers") or []
        )
        d = (t.get("win_delta") or {}).get(me)
        se = (t.get("win_delta_se") or {}).get(me)
        rows.append(
            f'<tr class="rescored" data-rank="{k}"><td class="num">{k}</td><td>{_e(t.get("kind"))}</td><td>{_e(legs)}</td>'
            f'<td class="num">{_signed(d)}{_plus_minus(se)}</td>'
            f"<td>{'yes' if t.get('nash_zone') else 'no'}</td><td>{'yes' if t.get('balanced') else 'no'}</td>"
            f'<td class="num">{_pct(t.get("acceptance"), 0)}</td><td class="num">{_signed(t.get("risk_adjusted_ev"))}</td></tr>'
        )
    return (
        '<section id="trades"><h2>Every re-scored trade</h2><table><thead><tr><th class="num">#</th><th>kind</th><th>transfers</th>'
        f"<th class=\"num\">{_e(me)}'s change \u00b1 1.96 se</th><th>Nash zone</th><th>balanced</th><th class=\"num\">acceptance</th>"
        '<th class="num">risk-adjusted</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table></section>"
    )


def _purchase(doc: Mapping[str, Any]) -> str:
    b = doc.get("purchase")
    if not b:
        return ""
    if b.get("buy_at_list"):
        text = f"PURCHASE: buy {b.get('property')} at its list price ${b.get('list_price')}"
    else:
        text = f"PURCHASE: decline {b.get('property')} (list ${b.get('list_price')}) and bid up to ${b.get('max_bid')} at the auction"
    check = doc.get("purchase_check")
    if check:
        text += f" (simulated check: indifference price ${check.get('indifference_price')}, buy at list {'yes' if check.get('buy_at_list') else 'no'})"
    return f'<p id="purchase">{_e(text)}</p>'


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("monopoly-trade")
    except metadata.PackageNotFoundError:
        return "unknown"


def render_report(
    state: GameState,
    doc: Mapping[str, Any],
    *,
    rollouts: int | None = None,
    ruin: Sequence[float] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> str:
    """The report page of a solve result, as one HTML string (module docstring).

    Parameters
    ----------
    state
        The state the result was computed for (the board, owners, buildings, tokens).
    doc
        The result: the JSON object of ``solve --json`` (:meth:`solver.api.SolveResult.to_dict`,
        or :meth:`solver.decide.Decision.to_dict`; non-finite numbers are treated as missing).
    rollouts
        Games per simulated state (``--rollouts``): sizes the before bars' error bars and is
        named in the caption; ``None`` draws the before bars without one.
    ruin
        The deciding player's ruin probability at each turn 0..T; ``None`` computes it for
        :data:`RISK_TURNS` turns with :func:`engine.chains.state_risk.state_ruin_pmf` (as ``risk``).
    meta
        Lines for the footer (e.g. the state file, seed, rollouts, mode), escaped.

    Returns
    -------
    str
        The page: ``<!DOCTYPE html>`` and everything it shows, nothing it must fetch.

    Raises
    ------
    KeyError
        ``doc["player"]`` is not a player of ``state``.
    """
    doc = jsonsafe.json_safe(dict(doc))
    me = str(doc.get("player", ""))
    state.player_index(me)  # the result must be about this state
    dec = doc.get("decision") or {}
    action = str(dec.get("action", ""))
    pos = doc.get("position") or {}
    ttm = pos.get("turns_to_max_dev")
    position = (
        f"{me}: position {pos.get('state', 'n/a')}; best building returns {_pct(pos.get('build_roi'))} of its cost per round; "
        f"ceiling ${pos.get('ceiling') or 0:.0f} rent per round; {'never' if ttm is None else f'{ttm:.0f} rounds'} to full development; "
        f"ruin within 20 turns {_pct(pos.get('ruin_20'))}"
    )
    banner = '<p class="banner">The decision was cut short by the time budget (truncated).</p>' if doc.get("truncated") else ""
    footer = "".join(f"<span>{_e(k)}: {_e(v)}</span>; " for k, v in (meta or {}).items())
    body = "\n".join(
        [
            f'<header><h1>What should {_e(me)} do?</h1><p class="sub">{_e(position)}</p></header>',
            (f'<section id="decision" data-action="{_e(action)}"><span class="badge {_e(action)}">{_e(ACTION_TITLES.get(action, action.upper()))}</span>'
            f'<span class="reason">{_e(dec.get("reason", ""))}</span>{banner}{_purchase(doc)}</section>'),
            '<div class="layout">',
            (f'<section id="board" class="col" data-squares="{state.board.size}"><h2>The board</h2>{_board_svg(state, doc)}'
            '<p class="caption">Each property shows its group colour, its owner (a disc with the initial, in the player\'s colour), '
            "its houses (green) or hotel (red), and a red hatch when mortgaged; discs on the right are the players' tokens. "
            "Point at a player's card to see only that player's lots.</p></section>"),
            f'<section id="players" class="col"><h2>The players</h2>{_player_cards(state, doc)}</section>',
            "</div>",
            _action_section(state, doc),
            _win_section(state, doc, rollouts),
            _funnel_section(doc),
            _risk_section(state, doc, ruin),
            _trades_table(doc),
            (f"<footer>monopoly-trade {_e(_version())} solve; {footer}mode {_e(doc.get('mode', ''))}. "
            "One self-contained page: nothing is fetched.</footer>"),
        ]
    )
    js = _asset("report.js")
    page = Template(_asset("report.html")).substitute(
        csp=content_security_policy(js),
        generator=f"monopoly-trade {_e(_version())}",
        title=_e(f"monopoly-trade solve: {me}: {ACTION_TITLES.get(action, action)}"),
        css=_asset("report.css"),
        body=body,
        js=js,
    )
    return page


def write_report(path: str | os.PathLike[str], state: GameState, doc: Mapping[str, Any], **kwargs: Any) -> None:
    """Write :func:`render_report` ``(state, doc, **kwargs)`` to ``path`` atomically (UTF-8).

    Parameters
    ----------
    path
        The page's file; its folder must exist.
    state, doc, kwargs
        As :func:`render_report`.
    """
    from models.files import atomic_write

    atomic_write(path, render_report(state, doc, **kwargs))
