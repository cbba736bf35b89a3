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
  bars of 1.96 standard errors (:func:`solver.report.charts.win_rows` says which standard errors);
- the pruning funnel (the result's ``pruning`` counts) as bars on a log scale;
- the deciding player's ruin probability by turn, from the exact (cash x position) chain
  of :func:`engine.chains.state_risk.state_ruin_pmf`, the function of ``monopoly-trade risk``;
- every re-scored trade, as a table.

This module assembles the page; the parts are drawn by :mod:`solver.report` (the board and
the player cards by :mod:`solver.report.board`, the recommended action by
:mod:`solver.report.action`, the charts by :mod:`solver.report.charts`, the escaping and the
colours by :mod:`solver.report.markup`). It is pure inline SVG, CSS and one small inline
script (``solver/data/report.*``, read with :mod:`importlib.resources`); it references
nothing outside itself, and its
Content-Security-Policy (``default-src 'none'``, the script allowed by its SHA-256 hash
only) makes the browser refuse any fetch and any other script. Every name from the
state (players, squares, groups) is HTML-escaped: a state file is hostile input.

Elements carry stable hooks for tests and scripts: ``.player[data-player]`` for each
player's card, ``.square[data-square]`` for each square with ``data-owner``,
``data-houses`` and ``data-mortgaged`` on owned lots, ``.token[data-token]``,
``.trade-arrow[data-from][data-to]``, ``#build-plan .plan-lot[data-lot]``,
``.winbar[data-player]``, ``.funnel-stage[data-stage]`` and ``.risk-line`` (``.risk-none`` when
the ruin probability is 0 at every turn: a sentence instead of a flat chart). The position line,
the forecast's label, the decision's INCOMPLETE and the purchase answer are the text output's
words (:mod:`solver.report.words`). The script
sets ``data-ready`` on the root element to the number of owned lots it found.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Mapping, Sequence
from importlib import resources
from string import Template
from typing import Any

from models.state import GameState
from solver import jsonsafe
from solver.report.action import action_section
from solver.report.board import board_svg, player_cards
from solver.report.charts import funnel_section, risk_section, win_rows, win_section
from solver.version import package_version
from solver.report.words import jail_line, position_line, purchase_lines, question_lines
from solver.report.markup import (
    ACTION_TITLES,
    GROUP_COLOURS,
    PLAYER_COLOURS,
    Z95,
    esc,
    group_colour,
    pct,
    plus_minus,
    signed,
)

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
"""The page's entry points, and the colours, the error-bar width and the bars' numbers of :mod:`solver.report` that tests and scripts use."""


def _asset(name: str) -> str:
    """The text of ``solver/data/<name>`` (package data)."""
    return resources.files("solver").joinpath("data").joinpath(name).read_text(encoding="utf-8")


def content_security_policy(script: str) -> str:
    """The page's policy: nothing may be fetched; styles inline; the one script by its SHA-256 hash.

    Parameters
    ----------
    script
        The text of the page's one inline script, exactly as written between its tags.

    Returns
    -------
    str
        The ``Content-Security-Policy`` value.

    Examples
    --------
    >>> content_security_policy("")
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='; base-uri 'none'; form-action 'none'"
    """
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
        f"script-src 'sha256-{digest}'; base-uri 'none'; form-action 'none'"
    )


def _trades_table(doc: Mapping[str, Any]) -> str:
    """The ``#trades`` section: every re-scored trade as a table row (nothing when there is none)."""
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
            f'<tr class="rescored" data-rank="{k}"><td class="num">{k}</td><td>{esc(t.get("kind"))}</td><td>{esc(legs)}</td>'
            f'<td class="num">{signed(d)}{plus_minus(se)}</td>'
            f"<td>{'yes' if t.get('nash_zone') else 'no'}</td><td>{'yes' if t.get('balanced') else 'no'}</td>"
            f'<td class="num">{pct(t.get("acceptance"), 0)}</td><td class="num">{signed(t.get("risk_adjusted_ev"))}</td>'
            f"<td>{esc(t.get('qualified_by') or 'no')}</td></tr>"
        )
    return (
        '<section id="trades"><h2>Every re-scored trade</h2><table><thead><tr><th class="num">#</th><th>kind</th><th>transfers</th>'
        f"<th class=\"num\">{esc(me)}'s change \u00b1 1.96 se</th><th>Nash zone</th><th>balanced</th><th class=\"num\">acceptance</th>"
        '<th class="num">risk-adjusted</th><th>qualified by</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table></section>"
    )


def _purchase(state: GameState, doc: Mapping[str, Any]) -> str:
    """The purchase answer, when the result carries one: the text output's lines (one verdict; the bidding game as a diagnostic)."""
    b = doc.get("purchase")
    if not b:
        return ""
    lines = purchase_lines(b, state.rules.auction_only, state.rules.auctions)
    return '<p id="purchase">' + "<br>".join(esc(x.strip()) for x in lines) + "</p>"


def _jail(state: GameState, doc: Mapping[str, Any]) -> str:
    """The jail choice, when the result carries one (the text output's line)."""
    j = doc.get("jail")
    return f'<p id="jail">{esc(jail_line(j, state.rules.jail_fine))}</p>' if j else ""


def _question(doc: Mapping[str, Any]) -> str:
    """The answer to the pending question, when the result carries one (the text output's lines)."""
    q = doc.get("question")
    return '<p id="question">' + "<br>".join(esc(x.strip()) for x in question_lines(q)) + "</p>" if q else ""


def _version() -> str:
    """The installed package's version (``unknown`` when it is not installed)."""
    return package_version()


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
        :data:`solver.report.charts.RISK_TURNS` turns with :func:`engine.chains.state_risk.state_ruin_pmf` (as ``risk``).
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

    Examples
    --------
    >>> from solver import solve
    >>> result = solve("instances/midgame-no-monopolies.json", rollouts=8, seed=1)
    >>> page = render_report(result.state, result.to_dict(), rollouts=8)
    >>> page.startswith("<!DOCTYPE html>"), '<svg id="board-svg"' in page
    (True, True)
    """
    doc = jsonsafe.json_safe(dict(doc))
    me = str(doc.get("player", ""))
    state.player_index(me)  # the result must be about this state
    dec = doc.get("decision") or {}
    action = str(dec.get("action", ""))
    pos = doc.get("position") or {}
    position = position_line(doc) if pos else f"{me}: position n/a"  # the text output's words (solver.report.words)
    complete = dec.get("complete", not doc.get("truncated"))
    banner = (
        "" if complete else '<p class="banner">INCOMPLETE: the time budget cut the work short, so this is not the answer of the full search.</p>'
    )
    footer = "".join(f"<span>{esc(k)}: {esc(v)}</span>; " for k, v in (meta or {}).items())
    body = "\n".join(
        [
            f'<header><h1>What should {esc(me)} do?</h1><p class="sub">{esc(position)}</p></header>',
            (f'<section id="decision" data-action="{esc(action)}"><span class="badge {esc(action)}">{esc(ACTION_TITLES.get(action, action.upper()))}</span>'
            f'<span class="reason">{esc(dec.get("reason", ""))}</span>{banner}{_purchase(state, doc)}{_jail(state, doc)}{_question(doc)}</section>'),
            '<div class="layout">',
            (f'<section id="board" class="col" data-squares="{state.board.size}"><h2>The board</h2>{board_svg(state, doc)}'
            '<p class="caption">Each property shows its group colour, its owner (a disc with the initial, in the player\'s colour), '
            "its houses (green) or hotel (red), and a red hatch when mortgaged; discs on the right are the players' tokens. "
            "Point at a player's card to see only that player's lots.</p></section>"),
            f'<section id="players" class="col"><h2>The players</h2>{player_cards(state, doc)}</section>',
            "</div>",
            action_section(state, doc),
            win_section(state, doc, rollouts),
            funnel_section(doc),
            risk_section(state, doc, ruin),
            _trades_table(doc),
            (f"<footer>monopoly-trade {esc(_version())} solve; {footer}mode {esc(doc.get('mode', ''))}. "
            "One self-contained page: nothing is fetched.</footer>"),
        ]
    )
    js = _asset("report.js")
    page = Template(_asset("report.html")).substitute(
        csp=content_security_policy(js),
        generator=f"monopoly-trade {esc(_version())}",
        title=esc(f"monopoly-trade solve: {me}: {ACTION_TITLES.get(action, action)}"),
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

    Raises
    ------
    KeyError
        As :func:`render_report`.
    OSError
        The file cannot be written (nothing is left behind).

    Examples
    --------
    A hold decision, with the ruin curve given (no chain to solve):

    >>> import pathlib, tempfile
    >>> from models.io import load_state
    >>> state = load_state("instances/opening.json")
    >>> doc = {"player": state.players[0].name, "decision": {"action": "hold", "reason": "nothing to build"}}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "report.html"
    ...     write_report(path, state, doc, ruin=[0.0] * 21)
    ...     'id="hold-reason"' in path.read_text(encoding="utf-8")
    True
    """
    from models.files import atomic_write

    atomic_write(path, render_report(state, doc, **kwargs))
