"""The board of the report page: the squares around a square grid, owners, buildings, mortgages, tokens; the player cards.

The state's squares are laid around the perimeter of a square grid (any
square count: ``ceil(N / 4)`` squares a side, square 0 in the bottom-right
corner, walking clockwise as on a printed board: :func:`perimeter_cell`), each
property with its group's colour band, its owner's marker, its houses or hotel
and a hatch when mortgaged, and every active player's token on its square; a
build plan's lots and a trade's lots are marked (:func:`board_svg`). One card
per player goes beside it (:func:`player_cards`). Cells narrower than 36 units
(a board of more than about 70 squares) leave the names out (they stay in the
tooltips).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from models.board import HOTEL
from models.state import BANK, GameState
from solver.report.markup import (
    ACTION_TITLES,
    esc,
    group_colour,
    initial,
    level_text,
    num,
    pct,
    player_colour,
)

__all__ = ["board_svg", "perimeter_cell", "player_cards", "wrap"]


def perimeter_cell(i: int, per_side: int) -> tuple[int, int]:
    """(column, row) of square ``i`` on a grid of ``per_side + 1`` cells a side, walking
    clockwise from the bottom-right corner as on a printed board (Go, then leftwards).

    Examples
    --------
    >>> [perimeter_cell(i, 10) for i in (0, 1, 10, 20, 30, 39)]
    [(10, 10), (9, 10), (0, 10), (0, 0), (10, 0), (10, 9)]
    """
    side, off = divmod(i, per_side)
    if side == 0:
        return per_side - off, per_side
    if side == 1:
        return 0, per_side - off
    if side == 2:
        return off, 0
    return per_side, off


def wrap(name: str, width: int, lines: int) -> list[str]:
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


def board_svg(state: GameState, doc: Mapping[str, Any], size: float = 660.0) -> str:
    """The board as one ``<svg id="board-svg">``: the squares, the plan's and the trade's marks, the tokens, the centre text.

    Parameters
    ----------
    state
        The state the result is about.
    doc
        The solve result's JSON object (:func:`solver.html_report.render_report` made it JSON-safe).
    size
        Width and height of the drawing.

    Returns
    -------
    str
        The ``<svg>`` element.
    """
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
            at = board.property_index.get(lot)
            if at is not None:
                planned[at] = f"\u2192 {'H' if lv == HOTEL else lv}"
        for lot in build.get("mortgage") or []:
            at = board.property_index.get(lot)
            if at is not None:
                planned[at] = "\u2192 M"
    traded: dict[int, str] = {}
    trade = dec.get("trade") if dec.get("action") == "propose_trade" else None
    if trade:
        for leg in trade.get("transfers") or []:
            for lot in leg.get("properties") or []:
                at = board.property_index.get(lot)
                if at is not None:
                    traded[at] = str(leg.get("to"))
    parts = [
        (f'<svg id="board-svg" viewBox="0 0 {num(size)} {num(size)}" width="{num(size)}" height="{num(size)}" '
        f'role="img" aria-label="the board: {esc(board.name)}">'),
        ('<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="6" height="6" fill="#ffffff" fill-opacity="0.35"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#9a1c1c" stroke-opacity="0.55" stroke-width="1.6"/></pattern></defs>'),
        f'<rect x="0" y="0" width="{num(size)}" height="{num(size)}" fill="#d8ecd9" stroke="#6d7780"/>',
    ]
    for sq in board.squares:
        col, row = perimeter_cell(sq.index, per_side)
        x, y = col * c, row * c
        owner = state.owner[sq.index]
        classes = ["square", sq.kind]
        attrs = [f'data-square="{sq.index}"', f'data-kind="{esc(sq.kind)}"']
        if sq.group is not None:
            attrs.append(f'data-group="{esc(sq.group)}"')
        title = [f"{sq.index}: {sq.name}"]
        if sq.is_property:
            title.append(f"({sq.group}, ${sq.price})")
        if owner != BANK:
            oname = state.players[owner].name
            level = state.houses[sq.index]
            mort = state.mortgaged[sq.index]
            classes.append("owned")
            attrs += [f'data-owner="{esc(oname)}"', f'data-houses="{level}"', f'data-mortgaged="{str(mort).lower()}"']
            title.append(f"\u2014 owner {oname}" + (f", {level_text(level)}" if level else "") + (", mortgaged" if mort else ""))
            if mort:
                classes.append("mortgaged")
        elif sq.is_property:
            title.append("\u2014 the bank's")
        if sq.index in planned:
            classes.append("planned")
            attrs.append(f'data-plan="{esc(planned[sq.index])}"')
            title.append(f"(plan: {planned[sq.index]})")
        if sq.index in traded:
            classes.append("traded")
            attrs.append(f'data-traded-to="{esc(traded[sq.index])}"')
            title.append(f"(trade: to {traded[sq.index]})")
        g = [f'<g class="{" ".join(classes)}" {" ".join(attrs)} transform="translate({num(x)} {num(y)})">']
        g.append(f"<title>{esc(' '.join(title))}</title>")
        g.append(f'<rect class="cell" width="{num(c)}" height="{num(c)}"/>')
        band = c * 0.22
        if sq.is_property:
            g.append(f'<rect class="band" width="{num(c)}" height="{num(band)}" fill="{group_colour(sq.group)}"/>')
        if show_text:
            for k, line in enumerate(wrap(sq.name, chars, 2)):
                g.append(
                    f'<text class="sq-name" x="{num(c / 2)}" y="{num(band + font * (1.15 + 1.1 * k))}" '
                    f'font-size="{num(font)}" text-anchor="middle">{esc(line)}</text>'
                )
            if sq.is_property and owner == BANK:
                g.append(f'<text class="price" x="{num(c / 2)}" y="{num(c - font * 0.5)}" font-size="{num(font)}" text-anchor="middle">${sq.price}</text>')
            elif sq.kind == "tax" and sq.amount:
                g.append(f'<text class="price" x="{num(c / 2)}" y="{num(c - font * 0.5)}" font-size="{num(font)}" text-anchor="middle">pay ${sq.amount}</text>')
        if owner != BANK:
            level = state.houses[sq.index]
            if level == HOTEL:
                g.append(f'<rect class="hotel" x="{num(c * 0.3)}" y="{num(band * 0.15)}" width="{num(c * 0.4)}" height="{num(band * 0.7)}"/>')
            else:
                w = band * 0.7
                for k in range(level):
                    g.append(f'<rect class="house" x="{num(c * 0.06 + k * (w + c * 0.04))}" y="{num(band * 0.15)}" width="{num(w)}" height="{num(w)}"/>')
            if state.mortgaged[sq.index]:
                g.append(f'<rect class="hatch" y="{num(band)}" width="{num(c)}" height="{num(c - band)}" fill="url(#hatch)"/>')
                if show_text:
                    g.append(
                        f'<text class="mortgage-label" x="{num(c / 2)}" y="{num(c * 0.66)}" font-size="{num(font)}" '
                        'text-anchor="middle">MORTGAGED</text>'
                    )
            r = max(3.0, c * 0.14)
            g.append(
                f'<g class="owner-mark" data-owner="{esc(state.players[owner].name)}"><circle cx="{num(r + c * 0.05)}" cy="{num(c - r - c * 0.05)}" '
                f'r="{num(r)}" fill="{player_colour(owner)}"/>'
                + (f'<text x="{num(r + c * 0.05)}" y="{num(c - r - c * 0.05)}" font-size="{num(r * 1.15)}">{esc(initial(state.players[owner].name))}</text>' if show_text else "")
                + "</g>"
            )
        if sq.index in planned and show_text:
            g.append(f'<text class="plan-label" x="{num(c * 0.95)}" y="{num(c - font * 0.5)}" font-size="{num(font * 1.1)}" text-anchor="end" fill="#1c7c3c" font-weight="700">{esc(planned[sq.index])}</text>')
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
        col, row = perimeter_cell(p.position, per_side)
        cx = col * c + c - r * (1.3 + 2.2 * (k % 2)) - c * 0.02
        cy = row * c + c * 0.5 + r * (0.4 + 2.2 * ((k // 2) % 2))
        where = state.board.squares[p.position].name + (" (in jail)" if p.in_jail else "")
        out.append(
            f'<g class="token" data-token="{esc(p.name)}" data-at="{p.position}"><title>{esc(p.name)} on {esc(where)}</title>'
            f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{player_colour(seat)}"/>'
            f'<text x="{num(cx)}" y="{num(cy)}" font-size="{num(r * 1.2)}">{esc(initial(p.name))}</text></g>'
        )
    return "\n".join(out)


def _wrap_words(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken at spaces (a longer word stands alone).

    Examples
    --------
    >>> _wrap_words("rules: standard-us with go_salary=400, houses=24", 24)
    ['rules: standard-us with', 'go_salary=400, houses=24']
    """
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _board_centre(state: GameState, doc: Mapping[str, Any], size: float, c: float) -> str:
    """The board's name, rules, round, bank and the decision in the middle (nothing when the middle is too small)."""
    mid = size / 2
    inner = size - 2 * c
    if inner < 120:
        return ""
    to_move = state.players[state.to_move].name
    # The rules line is wrapped to the middle's width (11-unit type: about 0.6 x 11 units a character),
    # so that a long list of overrides stays on the board; everything below moves down with it.
    rules = _wrap_words(f"rules: {state.rules.describe()}", max(20, int((inner - 24) / 6.6)))
    y = mid - 46 - 6 * (len(rules) - 1)
    lines = [f'<text class="title" x="{num(mid)}" y="{num(y)}">{esc(state.board.name)}</text>']
    for k, text in enumerate(rules):
        lines.append(f'<text class="rules" x="{num(mid)}" y="{num(y + 14 + 12 * k)}" font-size="11">{esc(text)}</text>')
    y += 14 + 12 * (len(rules) - 1)
    lines += [
        f'<text x="{num(mid)}" y="{num(y + 14)}" font-size="13">round {state.round}, {esc(to_move)} to move ({esc(state.phase)})</text>',
        f'<text x="{num(mid)}" y="{num(y + 36)}" font-size="13">bank: {state.houses_in_bank()} houses, {state.hotels_in_bank()} hotels</text>',
    ]
    action = (doc.get("decision") or {}).get("action", "")
    lines.append(
        f'<text x="{num(mid)}" y="{num(y + 66)}" font-size="15" font-weight="700">{esc(doc.get("player", ""))}: {esc(ACTION_TITLES.get(action, action))}</text>'
    )
    return '<g class="board-centre">' + "".join(lines) + "</g>"


def player_cards(state: GameState, doc: Mapping[str, Any]) -> str:
    """One card per player: cash, square and status, lots, buildings, the win probability now.

    Parameters
    ----------
    state
        The state the result is about.
    doc
        The solve result's JSON object (:func:`solver.html_report.render_report` made it JSON-safe).

    Returns
    -------
    str
        The ``<div class="players">`` element.
    """
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
            f'<div class="{" ".join(classes)}" data-player="{esc(p.name)}" data-seat="{seat}" tabindex="0" style="--pc: {player_colour(seat)}">'
            f'<div class="name">{esc(p.name)}</div><dl>'
            f"<dt>cash</dt><dd>${p.cash:,}</dd>"
            f"<dt>on</dt><dd>{esc(where)} ({status})</dd>"
            f"<dt>lots</dt><dd>{len(lots)}" + (f", {mortgaged} mortgaged" if mortgaged else "") + "</dd>"
            f"<dt>buildings</dt><dd>{houses} houses, {hotels} hotels</dd>"
            f"<dt>wins now</dt><dd>{pct(win.get(p.name))}</dd>"
            "</dl></div>"
        )
    return '<div class="players">' + "".join(cards) + "</div>"
