"""The visual report of ``monopoly-trade solve --html`` (:mod:`solver.html_report`).

Without a browser: the page is one file that fetches nothing, shows every player and every
owned lot as the state has them, draws the trade's arrows or the build plan or the reason to
hold, escapes hostile names, and the CLI writes it atomically, refuses bad paths with one line
and exit 2, and prints the same decision as without ``--html``.

With Chromium (found on PATH; ``.ci/run`` installs it from the system packages, and the tests
skip with the reason when it is missing): the page is loaded headless through the DevTools
protocol over a pipe (``--remote-debugging-pipe``: no port, no extra package), the rendered DOM
is read back after the script ran, a screenshot is taken and decoded, and the console must show
no error: no uncaught exception, no ``console.error``, no error entry in the browser's log
(a Content-Security-Policy violation, a failed load). Negative controls check that each of
those would be caught.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import html
import itertools
import json
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from engine.chains.state_risk import state_ruin_pmf
from models.io import load_state
from models.state import GameState
from solver import solve
from solver.html_report import (
    PLAYER_COLOURS,
    Z95,
    render_report,
    win_rows,
)
from solver.report.board import perimeter_cell
from tests.solver.cli_helpers import run_cli

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
ROLLOUTS = 100  # Bob's trade in the midgame (mode best) survives at 100 games on seed 1


# -- the pages under test ------------------------------------------------------------------


@dataclass
class Page:
    """A solve result, the state it is about, and its rendered page."""

    state: GameState
    doc: dict[str, Any]
    html: str


def _page(state: GameState, seed: int = 1, rollouts: int = ROLLOUTS, player: str | None = None, mode: str = "fair") -> Page:
    result = solve(state, player, rollouts=rollouts, seed=seed, mode=mode)
    doc = result.to_dict()
    return Page(state, doc, render_report(state, doc, rollouts=rollouts))


HOSTILE_PLAYERS = ('<script>alert("ann")</script>', '"><img src=x onerror=alert(1)> & Bob')
HOSTILE_LOT = '<b>Ash</b> & "Lane" </svg><script>alert(2)</script>'


def hostile_state() -> GameState:
    """The mini board with names that are markup: two players, a lot, a group and the board's name."""
    doc = json.loads((INSTANCES / "mini-board.json").read_text(encoding="utf-8"))
    ann, bob = HOSTILE_PLAYERS
    doc["board"]["name"] = "<svg onload=alert(3)>"
    for sq in doc["board"]["squares"]:
        if sq["name"] == "Ash Lane":
            sq["name"] = HOSTILE_LOT
        if sq.get("group") == "grey":
            sq["group"] = "</style><i>grey</i>"
    doc["players"][0]["name"] = ann
    doc["players"][1]["name"] = bob
    doc["properties"] = {HOSTILE_LOT if k == "Ash Lane" else k: v for k, v in doc["properties"].items()}
    for v in doc["properties"].values():
        v["owner"] = {"Ann": ann, "Bob": bob}[v["owner"]]
    doc["to_move"] = bob
    return load_state(doc)


@pytest.fixture(scope="module")
def trade_page() -> Page:
    # Bob in mode best buys Marvin Gardens from Dee (in mode fair no bundled instance has a trade
    # in the Nash zone judged now against not now: the rollout policy's swaps happen anyway)
    page = _page(load_state(INSTANCES / "midgame-no-monopolies.json"), player="Bob", mode="best")
    assert page.doc["decision"]["action"] == "propose_trade", "the fixture needs a trade decision"
    return page


@pytest.fixture(scope="module")
def build_page() -> Page:
    page = _page(load_state(INSTANCES / "cycle-mortgaged-piece.json"), rollouts=48)
    assert page.doc["decision"]["action"] == "build" and page.doc["decision"]["build"]["mortgage"], "the fixture needs a build that mortgages"
    return page


@pytest.fixture(scope="module")
def hold_page() -> Page:
    page = _page(load_state(INSTANCES / "near-ruin.json"), rollouts=48)
    assert page.doc["decision"]["action"] == "hold", "the fixture needs a hold decision"
    return page


@pytest.fixture(scope="module")
def novelty_page() -> Page:
    """Rules with many overrides (``novelty-rules``): their line must stay on the board."""
    return _page(load_state(INSTANCES / "novelty-rules.json"), rollouts=32)


@pytest.fixture(scope="module")
def cycle_page() -> Page:
    """A three-way trade drawn from a real decision's shape: the best cycle of ``cycle-brown-pair``
    placed as the decision (the arrows and labels of three parties)."""
    state = load_state(INSTANCES / "cycle-brown-pair.json")
    from solver.trades.cpsat import generate_trades
    from solver.trades.space import TradeSettings

    found = generate_trades(state, state.to_move, settings=TradeSettings(value="linear", objective="proposer"), cycles=True, bilateral=False)
    doc = solve(state, rollouts=16, seed=1).to_dict()
    trade = found.trades[0].candidate.to_trade(state).to_dict()
    doc["decision"] = {"action": "propose_trade", "reason": "drawn for the test", "complete": True, "trade": {"kind": "cycle3", **trade}}
    return Page(state, doc, render_report(state, doc, rollouts=16))


@pytest.fixture(scope="module")
def hostile_page() -> Page:
    return _page(hostile_state(), rollouts=32)


# -- reading a page -------------------------------------------------------------------------


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: list[str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


class _Collector(HTMLParser):
    """Every element of a page, with its attributes (entity-decoded) and the text inside it."""

    VOID = frozenset({"meta", "br", "img", "input", "link", "hr", "area", "base", "col", "embed", "source", "track", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Element(tag, {k: v or "" for k, v in attrs})
        self.elements.append(el)
        if tag not in self.VOID:
            self.open.append(el)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for k in range(len(self.open) - 1, -1, -1):
            if self.open[k].tag == tag:
                del self.open[k:]
                return

    def handle_data(self, data: str) -> None:
        for el in self.open:
            el.text.append(data)


def elements(page: str) -> list[Element]:
    parser = _Collector()
    parser.feed(page)
    parser.close()
    return parser.elements


def having(els: list[Element], cls: str) -> list[Element]:
    return [e for e in els if cls in e.classes]


def owned_lots(state: GameState) -> dict[str, tuple[str, str, str]]:
    """``data-square`` -> (owner, houses, mortgaged) as the page must write them."""
    return {
        str(sq): (state.players[p].name, str(state.houses[sq]), str(state.mortgaged[sq]).lower()) for sq, p in state.iter_owned()
    }


def check_page_shows_state(els: list[Element], state: GameState) -> None:
    """Every player's card and token, and every owned lot with its owner, buildings and mortgage, as in ``state``."""
    cards = [e.attrs["data-player"] for e in having(els, "player")]
    assert cards == [p.name for p in state.players]
    tokens = {e.attrs["data-token"]: e.attrs["data-at"] for e in having(els, "token")}
    assert tokens == {p.name: str(p.position) for p in state.players if not p.bankrupt}
    squares = having(els, "square")
    assert sorted(int(e.attrs["data-square"]) for e in squares) == list(range(state.board.size))
    shown = {e.attrs["data-square"]: (e.attrs["data-owner"], e.attrs["data-houses"], e.attrs["data-mortgaged"]) for e in squares if "data-owner" in e.attrs}
    assert shown == owned_lots(state)
    assert owned_lots(state), "the fixture state must own lots"


# -- without a browser -------------------------------------------------------------------


NETWORK = re.compile(r"""(?<![\w-])(?:src|href|action|formaction|srcset|poster|data|xlink:href)\s*=|url\(\s*['"]?(?!#)|@import""", re.IGNORECASE)
"""An attribute that makes a browser fetch, a CSS ``url()`` that is not a fragment of the page, or a CSS import."""


def test_the_page_is_one_file_that_fetches_nothing(trade_page: Page, build_page: Page, hold_page: Page) -> None:
    for page in (trade_page, build_page, hold_page):
        text = page.html
        assert text.startswith("<!DOCTYPE html>")
        assert "http://" not in text and "https://" not in text
        assert not NETWORK.search(text), NETWORK.search(text)
        els = elements(text)
        scripts = [e for e in els if e.tag == "script"]
        assert len(scripts) == 1 and not scripts[0].attrs
        assert not [e for e in els if e.tag in ("img", "link", "iframe", "object", "embed", "image", "use", "a")]
        csp = next(e.attrs["content"] for e in els if e.tag == "meta" and e.attrs.get("http-equiv") == "Content-Security-Policy")
        assert "default-src 'none'" in csp
        digest = base64.b64encode(hashlib.sha256("".join(scripts[0].text).encode()).digest()).decode()
        assert f"script-src 'sha256-{digest}'" in csp


def test_every_player_and_every_owned_lot_appear(trade_page: Page, build_page: Page, hold_page: Page) -> None:
    for page in (trade_page, build_page, hold_page):
        check_page_shows_state(elements(page.html), page.state)
    mortgaged = [e for e in having(elements(build_page.html), "square") if e.attrs.get("data-mortgaged") == "true"]
    assert mortgaged and all("mortgaged" in e.classes for e in mortgaged)


def test_a_trade_is_drawn_as_arrows_labelled_with_lots_and_cash(trade_page: Page) -> None:
    els = elements(trade_page.html)
    legs = trade_page.doc["decision"]["trade"]["transfers"]
    arrows = having(els, "trade-arrow")
    assert [(a.attrs["data-from"], a.attrs["data-to"]) for a in arrows] == [(x["from"], x["to"]) for x in legs]
    for arrow, leg in zip(arrows, legs, strict=True):
        label = "".join(arrow.text)
        assert all(lot in label for lot in leg["properties"])
        assert (f"${leg['cash']:,}" in label) == bool(leg["cash"])
        assert arrow.attrs["data-cash"] == str(leg["cash"])
    parties = {e.attrs["data-party"] for e in having(els, "trade-party")}
    assert parties == {x["from"] for x in legs} | {x["to"] for x in legs}
    moved = {lot: leg["to"] for leg in legs for lot in leg["properties"]}
    board = trade_page.state.board
    traded = {board.squares[int(e.attrs["data-square"])].name: e.attrs["data-traded-to"] for e in having(els, "traded")}
    assert traded == moved
    assert not having(els, "plan-lot") and not [e for e in els if e.attrs.get("id") == "hold-reason"]


def test_a_three_way_cycle_gets_three_arrows(trade_page: Page) -> None:
    doc = json.loads(json.dumps(trade_page.doc))
    doc["decision"]["trade"]["kind"] = "cycle3"
    doc["decision"]["trade"]["transfers"] = [
        {"from": "Cy", "to": "Dee", "properties": ["Atlantic Avenue"], "cash": 0},
        {"from": "Dee", "to": "Ann", "properties": [], "cash": 120},
        {"from": "Ann", "to": "Cy", "properties": ["Kentucky Avenue", "Indiana Avenue"], "cash": 0},
    ]
    arrows = having(elements(render_report(trade_page.state, doc, rollouts=ROLLOUTS, ruin=[0.0, 0.1])), "trade-arrow")
    assert [(a.attrs["data-from"], a.attrs["data-to"]) for a in arrows] == [("Cy", "Dee"), ("Dee", "Ann"), ("Ann", "Cy")]
    assert "$120" in "".join(arrows[1].text) and "Indiana Avenue" in "".join(arrows[2].text)


def test_a_build_shows_its_plan(build_page: Page) -> None:
    els = elements(build_page.html)
    build = build_page.doc["decision"]["build"]
    rows = {e.attrs["data-lot"]: int(e.attrs["data-level"]) for e in having(els, "plan-lot")}
    assert rows == build["levels"]
    assert [e.attrs["data-lot"] for e in having(els, "plan-mortgage")] == build["mortgage"]
    board = build_page.state.board
    planned = {board.squares[int(e.attrs["data-square"])].name for e in having(els, "planned")}
    assert planned == set(build["levels"]) | set(build["mortgage"])
    text = "".join(next(e for e in els if e.attrs.get("id") == "build-plan").text)
    assert f"cost ${build['cost']:,}" in text and f"cash kept ${build['cash_after']:,}" in text
    assert not having(els, "trade-arrow")


def test_a_hold_shows_its_reason(hold_page: Page) -> None:
    els = elements(hold_page.html)
    reason = next(e for e in els if e.attrs.get("id") == "hold-reason")
    assert "".join(reason.text) == hold_page.doc["decision"]["reason"]
    assert not having(els, "trade-arrow") and not having(els, "plan-lot")


def test_win_bars_are_before_and_after_with_their_error_bars(trade_page: Page, build_page: Page, hold_page: Page) -> None:
    doc = trade_page.doc
    trade = doc["decision"]["trade"]
    rows = win_rows(doc, ROLLOUTS)
    assert [r["player"] for r in rows] == list(doc["win_prob"])
    for r in rows:
        p = doc["win_prob"][r["player"]]
        assert r["before"] == p
        assert r["before_err"] == pytest.approx(Z95 * doc["win_prob_se"][r["player"]])  # the forecast's own standard error
        assert r["before_err"] <= Z95 * (p * (1 - p) / ROLLOUTS) ** 0.5 + 1e-12  # within the bound a score in [0, 1] allows
        assert r["after"] == pytest.approx(p + trade["win_delta"][r["player"]])
        assert r["after_err"] == pytest.approx(Z95 * trade["win_delta_se"][r["player"]])
    bars = {e.attrs["data-player"]: e for e in having(elements(trade_page.html), "winbar")}
    assert set(bars) == set(doc["win_prob"])
    for r in rows:
        assert float(bars[r["player"]].attrs["data-after"]) == pytest.approx(r["after"], abs=1e-4)
    assert len(having(elements(trade_page.html), "errbar")) == 2 * len(rows)
    me = build_page.doc["player"]
    built = {r["player"]: r for r in win_rows(build_page.doc, 48)}
    assert built[me]["after"] == pytest.approx(build_page.doc["win_prob"][me] + build_page.doc["decision"]["build"]["win_delta"])
    assert all(r["after"] is None for name, r in built.items() if name != me)
    assert all(r["after"] is None for r in win_rows(hold_page.doc, 48))
    bare = {k: v for k, v in hold_page.doc.items() if k != "win_prob_se"}  # a result without standard errors
    assert all(r["before_err"] is None for r in win_rows(bare, None))
    p = next(iter(bare["win_prob"].values()))
    assert win_rows(bare, 48)[0]["before_err"] == pytest.approx(Z95 * (p * (1 - p) / 48) ** 0.5)
    assert "1.96" in trade_page.html and "standard error" in trade_page.html


def test_the_funnel_and_the_risk_curve(trade_page: Page, hold_page: Page) -> None:
    els = elements(trade_page.html)
    stages = {e.attrs["data-stage"]: int(e.attrs["data-count"]) for e in having(els, "funnel-stage")}
    assert stages == trade_page.doc["pruning"]
    for page in (trade_page, hold_page):
        line = having(elements(page.html), "risk-line")
        assert len(line) == 1
        me = page.state.player_index(page.doc["player"])
        pmf = state_ruin_pmf(page.state, me, 20, jail="long")
        assert float(line[0].attrs["data-final"]) == pytest.approx(float(pmf.sum()), rel=1e-5, abs=1e-12)
        assert len(line[0].attrs["points"].split()) == len(pmf)
    assert float(having(elements(hold_page.html), "risk-line")[0].attrs["data-final"]) > 0.5  # near ruin


def test_a_fast_path_build_says_there_was_no_trade_search() -> None:
    page = _page(load_state(INSTANCES / "two-player.json"), rollouts=32)
    assert page.doc["decision"]["action"] == "build" and not page.doc["pruning"]
    els = elements(page.html)
    assert not having(els, "funnel-stage") and having(els, "funnel-none")


def test_hostile_names_are_shown_as_text(hostile_page: Page) -> None:
    text = hostile_page.html
    for name in (*HOSTILE_PLAYERS, HOSTILE_LOT, "<svg onload=alert(3)>", "</style><i>grey</i>"):
        assert name not in text
    els = elements(text)
    assert [e.tag for e in els].count("script") == 1
    assert not [e for e in els if e.tag in ("img", "b", "i") or any(k.startswith("on") for k in e.attrs)]
    assert [e.attrs["data-player"] for e in having(els, "player")] == list(HOSTILE_PLAYERS)
    names = ["".join(e.text) for e in els if "name" in e.classes]
    assert names == list(HOSTILE_PLAYERS)
    check_page_shows_state(els, hostile_page.state)
    lot = hostile_page.state.square_of(HOSTILE_LOT)
    title = next(e for e in having(els, "square") if e.attrs["data-square"] == str(lot))
    assert HOSTILE_LOT in "".join(title.text)


@pytest.mark.parametrize("n", [4, 12, 13, 40, 41, 199, 200])
def test_any_number_of_squares_goes_round_the_edge(n: int) -> None:
    per_side = -(-n // 4)
    cells = [perimeter_cell(i, per_side) for i in range(n)]
    assert len(set(cells)) == n
    assert all(c in (0, per_side) or r in (0, per_side) for c, r in cells)
    assert cells[0] == (per_side, per_side)
    assert all(abs(c1 - c2) + abs(r1 - r2) == 1 for (c1, r1), (c2, r2) in itertools.pairwise(cells))


def test_a_small_board_is_drawn_whole() -> None:
    state = load_state(INSTANCES / "mini-board.json")
    page = _page(state, rollouts=32)
    els = elements(page.html)
    assert next(e for e in els if e.attrs.get("id") == "board").attrs["data-squares"] == "12"
    check_page_shows_state(els, state)


# -- the command line ---------------------------------------------------------------------


def test_cli_writes_the_page_and_prints_the_same_decision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = str(INSTANCES / "cycle-mortgaged-piece.json")
    args = ("solve", state, "--seed", "3", "--rollouts", "32")
    out_file = tmp_path / "report.html"
    for extra in ((), ("--json",)):
        code, plain, _ = run_cli(capsys, *args, *extra)
        assert code == 0
        code, with_html, err = run_cli(capsys, *args, *extra, "--html", str(out_file))
        assert code == 0 and with_html == plain and err == ""
        page = out_file.read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
        check_page_shows_state(elements(page), load_state(state))
        out_file.unlink()
    code, _, _ = run_cli(capsys, *args, "--html", str(out_file))
    assert code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]  # no temporary file left


@pytest.mark.parametrize(
    ("target", "says"),
    [("missing-folder/report.html", "no folder"), ("-", "- is not allowed"), (".", "is a folder"), ("", "empty file name")],
)
def test_cli_refuses_a_bad_html_path_in_one_line(target: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "solve", str(INSTANCES / "opening.json"), "--rollouts", "8", "--html", target)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("--html: ") and says in err
    assert list(tmp_path.iterdir()) == []


# -- in a real browser ----------------------------------------------------------------------


def chromium() -> str:
    """The first Chromium on PATH that runs (``--version``); the test is skipped, saying why, when there is none."""
    broken = []
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if not path:
            continue
        try:
            done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60, check=False)
        except (OSError, subprocess.TimeoutExpired) as err:
            broken.append(f"{path}: {err}")
            continue
        if done.returncode == 0:
            return path
        broken.append(f"{path}: {(done.stderr or done.stdout).strip().splitlines()[:1]}")  # e.g. a snap stub
    why = f"Chromium on PATH does not run ({'; '.join(broken)})" if broken else "no Chromium on PATH (chromium, chromium-browser or google-chrome)"
    pytest.skip(f"{why}: the browser checks of the HTML report are skipped; .ci/run installs it with apt-get")


TRAMPOLINE = "import os, sys; a, b = map(int, sys.argv[1:3]); os.dup2(a, 3); os.dup2(b, 4); os.close(a); os.close(b); os.execvp(sys.argv[3], sys.argv[3:])"
"""Run in a fresh Python: the two pipe ends become fds 3 and 4 (what ``--remote-debugging-pipe`` reads and writes), then exec Chromium."""


def _high_fd(fd: int) -> int:
    """``fd`` moved to a number >= 10, so that making fds 3 and 4 cannot clobber it."""
    if fd >= 10:
        return fd
    new = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return new


@dataclass
class Rendered:
    """What the browser made of a page: its DOM after the scripts ran, screenshots, and the errors it reported."""

    dom: str
    screenshot: bytes
    board_png: bytes | None
    errors: list[str]
    console: list[str]
    geometry: dict[str, Any] = field(default_factory=dict)


GEOMETRY_JS = """(() => {
  const out = {crossings: [], rules_outside: []};
  for (const g of document.querySelectorAll('.trade-arrow')) {
    const path = g.querySelector('path');
    const len = path.getTotalLength();
    for (const t of g.querySelectorAll('text')) {
      const b = t.getBBox();
      for (let k = 0; k <= 200; k++) {
        const q = path.getPointAtLength(len * k / 200);
        if (q.x > b.x && q.x < b.x + b.width && q.y > b.y && q.y < b.y + b.height) {
          out.crossings.push(g.dataset.from + '->' + g.dataset.to + ': ' + t.textContent); break;
        }
      }
    }
  }
  const board = document.getElementById('board-svg');
  if (board) {
    const vb = board.viewBox.baseVal;
    for (const t of board.querySelectorAll('.board-centre text.rules')) {
      const b = t.getBBox();
      if (b.x < vb.x || b.x + b.width > vb.x + vb.width) out.rules_outside.push(t.textContent);
    }
  }
  return out;
})()"""
"""Measured in the browser (SVG user units, the text's real extent): trade labels that an arrow
crosses, and rules lines that leave the board."""


class DevTools:
    """A headless Chromium driven through the DevTools protocol on a pipe (fds 3 and 4)."""

    def __init__(self, exe: str, profile: Path) -> None:
        cmd_r, cmd_w = (_high_fd(fd) for fd in os.pipe())
        out_r, out_w = (_high_fd(fd) for fd in os.pipe())
        flags = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--remote-debugging-pipe",
            f"--user-data-dir={profile}",
            "--no-first-run",
            "--no-default-browser-check",
            "--hide-scrollbars",
            "--mute-audio",
            "about:blank",
        ]
        self.proc = subprocess.Popen(
            [sys.executable, "-c", TRAMPOLINE, str(cmd_r), str(out_w), exe, *flags],
            pass_fds=(cmd_r, out_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(cmd_r)
        os.close(out_w)
        self.w, self.r = cmd_w, out_r
        self.buf = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=10)
        except (OSError, TimeoutError, RuntimeError):
            pass
        for fd in (self.w, self.r):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=15)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from Chromium")
            ready, _, _ = select.select([self.r], [], [], left)
            if ready:
                chunk = os.read(self.r, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed the DevTools pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)  # type: ignore[no-any-return]

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None, timeout: float = 30) -> dict[str, Any]:
        self.next_id += 1
        msg: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            got = self._read(deadline)
            if got.get("id") == self.next_id:
                if "error" in got:
                    raise RuntimeError(f"{method}: {got['error']}")
                return got.get("result", {})  # type: ignore[no-any-return]
            if "method" in got:
                self.events.append(got)

    def wait_for(self, method: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not any(e["method"] == method for e in self.events):
            got = self._read(deadline)
            if "method" in got:
                self.events.append(got)

    def render(self, url: str, width: int = 1400, height: int = 1000) -> Rendered:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable", session=session)
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session)
        self.events.clear()
        self.send("Page.navigate", {"url": url}, session)
        self.wait_for("Page.loadEventFired")

        def js(expr: str) -> Any:
            return self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session)["result"].get("value")

        dom = js("document.documentElement.outerHTML")
        shot = base64.b64decode(self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}, session)["data"])
        box = js("(() => { const b = document.getElementById('board-svg'); if (!b) return null; const r = b.getBoundingClientRect(); return [r.x + scrollX, r.y + scrollY, r.width, r.height]; })()")
        board = None
        if box:
            clip = {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 0.5}
            board = base64.b64decode(self.send("Page.captureScreenshot", {"format": "png", "clip": clip}, session)["data"])
        geometry = js(GEOMETRY_JS) or {}
        js("0")  # one more round trip: every event of the load has arrived
        errors, console = [], []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                errors.append(f"exception: {d.get('exception', {}).get('description') or d.get('text')}")
            elif e["method"] == "Runtime.consoleAPICalled":
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
                console.append(f"{p['type']}: {text}")
                if p["type"] in ("error", "assert"):
                    errors.append(f"console.{p['type']}: {text}")
            elif e["method"] == "Log.entryAdded":
                entry = p["entry"]
                console.append(f"log {entry['level']}: {entry.get('text')}")
                if entry["level"] == "error":
                    errors.append(f"log ({entry.get('source')}): {entry.get('text')}")
        self.send("Target.closeTarget", {"targetId": target})
        return Rendered(dom, shot, board, errors, console, geometry)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevTools]:
    exe = chromium()
    tools = DevTools(exe, tmp_path_factory.mktemp("chromium-profile"))
    try:
        tools.send("Browser.getVersion", timeout=60)
        yield tools
    finally:
        tools.close()


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced truecolour PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    assert header is not None
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif kind == 4:
                c = prev[x - bpp] if x >= bpp else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def colours(data: bytes) -> set[bytes]:
    width, _, rows = png_pixels(data)
    bpp = len(rows[0]) // width
    return {row[k : k + 3] for row in rows for k in range(0, len(row), bpp)}


def _rgb(hex_colour: str) -> bytes:
    return bytes.fromhex(hex_colour[1:])


def test_console_errors_are_caught(browser: DevTools, tmp_path: Path) -> None:
    """The negative controls: a thrown exception, console.error and a blocked fetch each show up as errors."""
    pages = {
        "throw": "<script>throw new Error('deliberate')</script>",
        "console": "<script>console.error('deliberately logged')</script>",
        "fetch": "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\"><img src='data:,x' alt=''><p>blocked</p>",
    }
    found = {}
    for name, body in pages.items():
        path = tmp_path / f"{name}.html"
        path.write_text(f"<!DOCTYPE html><html><head></head><body>{body}</body></html>", encoding="utf-8")
        found[name] = browser.render(path.as_uri()).errors
    assert any("deliberate" in e and e.startswith("exception") for e in found["throw"]), found
    assert any("deliberately logged" in e for e in found["console"]), found
    assert any("Content Security Policy" in e for e in found["fetch"]), found
    clean = tmp_path / "clean.html"
    clean.write_text("<!DOCTYPE html><html><body><script>console.log('fine')</script></body></html>", encoding="utf-8")
    quiet = browser.render(clean.as_uri())
    assert quiet.errors == [] and "log: fine" in quiet.console


@pytest.mark.parametrize("which", ["trade_page", "build_page", "hostile_page", "novelty_page", "cycle_page"])
def test_the_page_in_a_real_browser(which: str, browser: DevTools, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    page: Page = request.getfixturevalue(which)
    path = tmp_path / "report.html"
    path.write_text(page.html, encoding="utf-8")
    got = browser.render(path.as_uri())
    assert got.errors == [], got.errors
    assert got.console == [], got.console  # the page logs nothing at all
    els = elements(got.dom)
    root = next(e for e in els if e.tag == "html")
    assert root.attrs.get("data-ready") == str(len(owned_lots(page.state)))  # the script ran and found every owned lot
    check_page_shows_state(els, page.state)
    if page.doc["decision"]["action"] == "propose_trade":
        legs = page.doc["decision"]["trade"]["transfers"]
        assert [(a.attrs["data-from"], a.attrs["data-to"]) for a in having(els, "trade-arrow")] == [(x["from"], x["to"]) for x in legs]
    if page.doc["decision"]["action"] == "build":
        assert {e.attrs["data-lot"] for e in having(els, "plan-lot")} == set(page.doc["decision"]["build"]["levels"])
    assert [e.tag for e in els].count("script") == 1
    assert got.geometry.get("crossings") == [], got.geometry  # no arrow runs through its own label
    assert got.geometry.get("rules_outside") == [], got.geometry
    shot = tmp_path / "report.png"
    shot.write_bytes(got.screenshot)
    width, height = struct.unpack(">II", got.screenshot[16:24])
    assert width == 1400 and height > 1500 and shot.stat().st_size > 50_000
    assert got.board_png is not None
    seen = colours(got.board_png)
    assert len(seen) > 50
    for seat, _ in enumerate(page.state.players):
        if page.state.properties_of(seat):
            assert _rgb(PLAYER_COLOURS[seat]) in seen, f"seat {seat}'s colour is not on the board"


def test_the_page_says_what_the_text_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The page's position line, forecast label, decision (INCOMPLETE included) and purchase answer are
    the text output's words and numbers (solver.report.words), on a state where a purchase is asked."""
    from models.io import dumps_state
    from models.state import Phase

    state = load_state(INSTANCES / "midgame-no-monopolies.json")
    state.phase = Phase.ROLLED  # Cy has just rolled onto Pennsylvania Avenue: a purchase is asked
    path = tmp_path / "rolled.json"
    path.write_text(dumps_state(state), encoding="utf-8")
    code, text, _ = run_cli(capsys, "solve", str(path), "--rollouts", "32", "--seed", "1")
    assert code == 0
    doc = solve(state, rollouts=32, seed=1).to_dict()
    page = render_report(state, doc, rollouts=32)
    shown = re.sub(r"<[^>]+>", " ", re.sub(r"<(style|script)\b[^>]*>.*?</\1>", " ", page, flags=re.S))  # the text a reader sees
    lines = text.splitlines()
    assert html.escape(lines[1], quote=False) in page  # the position line
    assert "forecast" in page and "Win probability now (forecast)" in page
    purchase = [ln.strip() for ln in lines if ln.startswith("PURCHASE:") or ln.startswith("  worth to") or "diagnostic, not the answer" in ln]
    assert len(purchase) == 3
    for ln in purchase:
        assert html.escape(ln, quote=False) in page
    assert "`" not in shown  # no literal markdown
    cut = dict(doc, truncated=True, decision=dict(doc["decision"], complete=False))
    assert "INCOMPLETE" in render_report(state, cut, rollouts=32)
    assert "INCOMPLETE" not in page


def test_a_flat_zero_ruin_curve_is_said_not_drawn() -> None:
    state = load_state(INSTANCES / "opening.json")
    doc = {"player": state.players[0].name, "decision": {"action": "hold", "reason": "nothing to build"}}
    page = render_report(state, doc, ruin=[0.0] * 21)
    els = elements(page)
    assert not having(els, "risk-line") and having(els, "risk-none")
    assert "cannot be ruined within the next 20 turns" in page
    drawn = render_report(state, doc, ruin=[0.0] * 20 + [0.01])
    assert having(elements(drawn), "risk-line") and not having(elements(drawn), "risk-none")


def test_a_long_rules_line_is_wrapped_on_the_board(novelty_page: Page) -> None:
    lines = [" ".join(e.text) for e in elements(novelty_page.html) if "rules" in e.attrs.get("class", "").split()]
    assert len(lines) >= 2
    assert " ".join(lines) == f"rules: {novelty_page.state.rules.describe()}"
    assert "{" not in " ".join(lines)  # no Python dict syntax


def test_the_trades_table_names_the_rule_each_trade_qualified_by(trade_page: Page) -> None:
    rows = having(elements(trade_page.html), "rescored")
    assert len(rows) == len(trade_page.doc["trades"])
    assert "qualified by" in trade_page.html
    for t in trade_page.doc["trades"]:
        if t["qualified_by"]:
            assert html.escape(t["qualified_by"], quote=False) in trade_page.html
