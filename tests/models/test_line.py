"""The one-line notation (MPN, :mod:`models.io.line`): exact round trips, the documented lines, one-line errors.

- Every bundled instance, 1,000 states from agent games (:mod:`tests.played_states`) and
  random valid states (the variants, the pot, a finite bank, dice weights, set sizes,
  inline boards with awkward group names, names that need quotes) go JSON -> line -> JSON
  to the same document: ``state_to_dict(load_line(to_line(s))) == state_to_dict(s)``.
- ``instances/README.md`` shows the line of every bundled instance (``monopoly-trade
  convert``); the line shown is the one written, and it reads back to the instance.
- 200 seeded mutations of valid lines (characters deleted, inserted, replaced; items
  swapped, doubled, dropped, cut) are each refused by a :class:`NotationError`, one line
  naming the column, never another exception; a mutation that still reads is a valid
  state whose own line round-trips. Random text after the tag never raises anything else.
- Each refusal names the column and what was expected there; a broken rule is reported
  with the loader's message at the column of the item it names.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from models.board import parse_board, standard_board
from models.errors import InvalidStateError, MonopolyError
from models.io import NotationError, is_line, load_line, load_state, load_state_bytes, state_to_dict, to_line, validate_state
from models.io.line_syntax import MAX_LINE_CHARS
from models.rules import PRESETS
from models.state import GameState
from tests.models.test_io import valid_states
from tests.played_states import INSTANCES, played_states
from tests.state_fuzz import LINE_ALPHABET, mutate_line

REPO = Path(__file__).resolve().parents[2]
README = REPO / "instances" / "README.md"
_COLUMN = re.compile(r"^notation: column (\d+): ")


def _round_trip(state: GameState) -> None:
    doc = state_to_dict(state)
    line = to_line(state)
    assert "\n" not in line and line.isprintable() and is_line(line)
    assert state_to_dict(load_line(line)) == doc, line
    assert to_line(load_line(line)) == line


@pytest.mark.parametrize("path", INSTANCES, ids=[p.stem for p in INSTANCES])
def test_every_instance_round_trips(path: Path) -> None:
    state = load_state(path)
    _round_trip(state)
    assert state_to_dict(load_line(to_line(state))) == state_to_dict(load_state(json.loads(path.read_text())))


def test_1000_states_from_agent_games_round_trip() -> None:
    states = played_states(1000)
    assert len(states) == 1000
    kinds = {(state_to_dict(s)["format"], s.board.builtin, s.rules.pot_enabled, s.bank_cash is not None) for s in states}
    assert len(kinds) >= 5  # both formats, an inline board, a pot, a finite bank
    for state in states:
        _round_trip(state)


def _documented() -> dict[str, str]:
    """File -> the line instances/README.md shows for it (``$ monopoly-trade convert instances/FILE`` then the line)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    out = {}
    for i, text in enumerate(lines):
        m = re.fullmatch(r"\$ monopoly-trade convert instances/([\w.-]+\.json)", text)
        if m:
            assert m.group(1) not in out, m.group(1)
            out[m.group(1)] = lines[i + 1]
    return out


def test_the_readme_shows_every_instance_in_one_line() -> None:
    shown = _documented()
    missing = [p.name for p in INSTANCES if p.name not in shown]
    assert not missing, f"instances/README.md lacks the line of {missing}: add `$ monopoly-trade convert instances/FILE` and its output to its one-line forms"
    assert sorted(shown) == sorted(p.name for p in INSTANCES)
    for path in INSTANCES:
        state = load_state(path)
        assert shown[path.name] == to_line(state), path.name
        assert state_to_dict(load_line(shown[path.name])) == state_to_dict(state), path.name


# ---------------------------------------------------------------------------
# Random valid states: the variants, awkward names, inline boards
# ---------------------------------------------------------------------------

NAMES = ("Ann", "Mr X", 'Say "hi"', "to", "MPN1", "A", "Ünïcødé", "x:y", "a=b", "O'Neil", "-dash", "123", "日本", "tab-free", "back\\slash", "a,b")
AWKWARD_GROUPS = {"brown": "round", "light_blue": "br", "pink": "dark blue", "orange": '"q"', "red": "red", "yellow": "Gelb", "green": "a,b", "dark_blue": "rr"}


def _renamed_board() -> dict[str, object]:
    doc = standard_board().to_dict()
    for sq in doc["squares"]:
        if sq["type"] == "street":
            sq["group"] = AWKWARD_GROUPS[sq["group"]]
    doc["name"] = "awkward"
    return doc


@st.composite
def variant_states(draw: st.DrawFn) -> GameState:
    """A valid state (tests/models/test_io.py) moved under a preset with variants, its names
    and (sometimes) its groups renamed to names a line must quote."""
    state = draw(valid_states())
    names = draw(st.permutations(NAMES))
    for p, name in zip(state.players, names, strict=False):
        p.name = name
    if draw(st.booleans()) and state.board.name == "standard-us" and state.board.builtin:
        mapping = AWKWARD_GROUPS
        state.board = parse_board(_renamed_board())
        set_size = {mapping.get(g, g): n for g, n in state.rules.set_size.items()}
        state.rules = replace(state.rules, set_size=set_size)
    preset = draw(st.sampled_from(sorted(PRESETS)))
    base = PRESETS[preset]
    rules = replace(base, go_salary=state.rules.go_salary, houses=state.rules.houses, hotels=state.rules.hotels,
                    mortgage_interest=state.rules.mortgage_interest, dice=state.rules.dice, set_size=state.rules.set_size)  # fmt: skip
    if draw(st.booleans()):
        rules = replace(rules, free_parking=draw(st.sampled_from(["taxes", "bank"])), free_parking_seed=draw(st.integers(0, 500)))
    if draw(st.booleans()):
        rules = replace(rules, bank_cash=draw(st.one_of(st.none(), st.integers(0, 30_000))), cash_target=draw(st.one_of(st.none(), st.integers(1, 20_000))))
    if draw(st.booleans()):
        rules = replace(rules, round_limit=draw(st.integers(1, 2000)), even_building=draw(st.booleans()), auction_only=False, auctions=draw(st.booleans()))
    state.rules = rules
    for p in state.players:
        p.jail_turns = min(p.jail_turns, rules.max_jail_rolls - 1)
    limit = 0 if not rules.doubles_again else (rules.doubles_to_jail - 1 if rules.doubles_to_jail else 5)
    state.doubles_rolled = min(state.doubles_rolled, max(limit, 0))
    state.pot = draw(st.integers(0, 5000)) if rules.pot_enabled else 0
    state.bank_cash = None if rules.bank_cash is None else draw(st.integers(0, 30_000))
    try:
        validate_state(state)
    except InvalidStateError:
        assume(False)
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(variant_states())
def test_random_valid_states_round_trip(state: GameState) -> None:
    _round_trip(state)


def test_awkward_names_are_quoted_and_read_back() -> None:
    state = load_line('MPN1 "Mr X":500@3 \'O\'Neil\':10 "a=b":7c1 to="Mr X"'.replace("'O'Neil'", "O'Neil"))
    assert [p.name for p in state.players] == ["Mr X", "O'Neil", "a=b"]
    assert to_line(state) == 'MPN1 "Mr X":500@3 O\'Neil:10 "a=b":7c1'
    board = parse_board(_renamed_board())
    state = GameState.new_game(["Ann", "Bob"], board=board)
    state.owner[1] = state.owner[3] = 0  # the group "round" (brown), complete
    state.owner[6] = 1  # light blue, renamed "br"
    state.owner[39] = 1  # dark blue, renamed "rr": the name wins over the railroads' code
    state.owner[5] = 0  # a railroad: written by its group's name, since rr names dark blue here
    line = to_line(state)
    assert '"round"=AA br=B-- rr=-B railroad=A---' in line, line
    _round_trip(state)


def test_a_pending_question_travels_as_json() -> None:
    pytest.importorskip("models.io.pending", reason="the state format has no pending question yet")
    doc = json.loads((REPO / "instances" / "midgame-no-monopolies.json").read_text())
    doc["format"] = "monopoly-state/3"
    for pending in (
        {"question": "debt", "debtor": "Dee", "owed": 900, "to": "Ann"},
        {"question": "offer", "from": "Cy", "to": "Dee", "trade": {"transfers": [{"from": "Cy", "to": "Dee", "properties": ["Atlantic Avenue"], "cash": 150}]}},
        {"question": "auction", "property": "Boardwalk"},
    ):
        state = load_state({**doc, "pending": pending})
        assert " pending={" in to_line(state)
        _round_trip(state)


def test_a_field_the_line_has_no_form_for_is_refused_not_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    import models.io.line as line_module

    state = load_state(INSTANCES[0])
    newer = {**state_to_dict(state), "format": "monopoly-state/9", "forecast": {"Ann": 0.5}}
    monkeypatch.setattr(line_module, "state_to_dict", lambda s: newer)
    with pytest.raises(InvalidStateError, match="forecast: the one-line notation has no field for it"):
        to_line(state)


# ---------------------------------------------------------------------------
# Errors: one line, the column, what was expected
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("line", "column", "says"),
    [
        ("MPN1 Ann:x Bob:1", 10, "expected a cash amount after 'Ann:', got 'x'"),
        ("MPN2 Ann:1 Bob:1", 1, "expected the tag MPN1 (this reader knows version 1), got 'MPN2'"),
        ("MPN1 Ann:1@ Bob:1", 12, "expected a square number after '@', got the end of the line"[:38]),
        ("MPN1 Ann:1@3q Bob:1", 13, "expected a flag (j: in jail, c: Get Out of Jail Free cards, x: bankrupt) or a space, got 'q'"),
        ("MPN1 Ann:1j1j2 Bob:1", 13, "flag 'j' given twice"),
        ("MPN1 Ann Bob:1", 9, "expected ':' after a player's name or '=' after a field's key 'Ann', got ' '"),
        ("MPN1 Ann:1 Bob:1 br=AAA", 21, "expected 2 lots for br (Mediterranean Avenue, Baltic Avenue), got 3"),
        ("MPN1 Ann:1 Bob:1 br=Ac", 22, "expected a lot: '-' (the bank's) or its owner's seat letter (A: the first player), got 'c'"),
        ("MPN1 Ann:1 Bob:1 br=aA", 21, "expected a lot: '-' (the bank's) or its owner's seat letter (A: the first player), got 'aA'"),
        ("MPN1 Ann:1 Bob:1 br=AC", 22, "expected a seat letter A-B (one per player), got 'C'"),
        ("MPN1 Ann:1 Bob:1 zz=A", 18, "expected a field or a group of the board (to, round, phase, doubles, pot, bank, rules, pending, board, br, lb"),
        ("MPN1 Ann:1 Bob:1 round=1 round=2", 26, "the field 'round' given twice"),
        ("MPN1 Ann:1 Bob:1 br=AA brown=AA", 24, "the brown group given twice"),
        ("MPN1 Ann:1 Bob:1 rules=dice:2x6", 30, "expected 'd' between the number of dice and their sides, as in 2d6, got 'x6'"),
        ("MPN1 Ann:1 Bob:1 rules=go_salary:400,short-game", 38, "expected a rule KEY:VALUE (a preset's name comes first, alone), got 'short-game'"),
        ('MPN1 "Ann:1 Bob:1', 6, "expected the closing '\"' of the quoted text, got the end of the line"),
        ("MPN1 Ann:1 Bob:1 board={\"squares\":[}", 36, "expected the board as a JSON object (Expecting value)"),
        ("MPN1 Ann:1\nBob:1", 11, "expected '@' and a square, a flag (j: in jail, c: Get Out of Jail Free cards, x: bankrupt) or a space, got '\\nBob:1'"),
        # a rule of the game broken: the loader's message, at the item's column
        ("MPN1 Ann:1500 Bob:1500 br=AA2", 28, 'properties["Baltic Avenue"].houses: 2 houses, but Mediterranean Avenue'),
        ("MPN1 Ann:1@12j1 Bob:1", 14, "players[0].in_jail: in jail, but position 12 is not the jail square (10)"),
        ("MPN1 Ann:1 Ann:2", 12, "players[1].name: duplicate player name 'Ann'"),
        ("MPN1 Ann:1 Bob:1 to=Cy", 21, "to_move: 'Cy' is not a player"),
        ("MPN1 Ann:1 Bob:1x br=-B", 23, "properties[\"Baltic Avenue\"].owner: 'Bob' is bankrupt and cannot own property"),
        ("MPN1 Ann:1 Bob:1 rules=short-game,round_limit:0", 35, "rules.round_limit: 0 is below the minimum 1"),
        ("MPN1 Ann:1 Bob:1 rules=set_size:(or:2,xx:1)", 39, "rules.set_size.xx: not a group of the board"),
        ("MPN1 Ann:1 Bob:1 pot=5", 22, "pot: $5 in the Free Parking pot, but the rules have no pot"),
    ],
)
def test_errors_name_the_column_and_what_was_expected(line: str, column: int, says: str) -> None:
    with pytest.raises(NotationError) as info:
        load_line(line)
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"notation: column {column}: "), text
    assert says in text, text
    assert info.value.column == column and info.value.field == "notation"


def test_a_line_over_the_limit_is_refused_before_it_is_read() -> None:
    with pytest.raises(NotationError, match=rf"column {MAX_LINE_CHARS + 1}: expected at most"):
        load_line("MPN1 Ann:1 Bob:1 " + "x" * MAX_LINE_CHARS)


def test_every_loader_takes_a_line() -> None:
    line = "MPN1 Ann:420@21 Bob:340j1 br=AA rr=B--- to=Bob round=5"
    state = load_line(line)
    assert load_state(line) == state and load_state_bytes((line + "\n").encode()) == state
    assert load_state("  " + line + "  ") == state
    lenient, repairs = load_state(line.replace("Bob:340j1", "Bob:340@12j1"), strict=False)
    assert [r.rule for r in repairs] == ["jail_position"] and lenient.players[1].position == 10
    assert not is_line("instances/opening.json") and not is_line("./MPN1 x") and is_line("mpn1 Ann:1")


def test_a_file_holding_a_line_is_read_as_one(tmp_path: Path) -> None:
    path = tmp_path / "state.txt"
    path.write_text("\ufeffMPN1 Ann:1500 Bob:1500 to=Bob\n", encoding="utf-8")
    assert load_state(path).to_move == 1 and load_state(str(path)).to_move == 1
    path.write_bytes(b"MPN1 \xff:1 Bob:1")
    with pytest.raises(InvalidStateError, match="not UTF-8"):
        load_state(path)


# ---------------------------------------------------------------------------
# Fuzzing: mutated lines and random text
# ---------------------------------------------------------------------------

def _outcome(line: str) -> str:
    """``refused`` (a one-line NotationError naming a column on the line) or ``accepted`` (and round-trips)."""
    try:
        state = load_line(line)
    except NotationError as err:
        text = str(err)
        m = _COLUMN.match(text)
        assert m and "\n" not in text and "\r" not in text and text.isprintable(), repr(text)
        assert 1 <= int(m.group(1)) <= max(len(line), MAX_LINE_CHARS) + 1
        return "refused"
    except MonopolyError as err:  # pragma: no cover - would be a finding
        raise AssertionError(f"{line!r}: {type(err).__name__} without a column: {err}") from None
    _round_trip(state)
    return "accepted"


def test_200_mutated_lines_are_refused_in_one_line_naming_the_column() -> None:
    sources = [to_line(load_state(p)) for p in INSTANCES]
    sources.append("MPN1 \"Mr X\":5@3c1 Bob:7j2 br=Am- rules=no-doubles,cash_target:5000,dice:2d6(1,1,1,1,1,3) bank=9000 to=Bob")
    rng = random.Random(40)
    refused = accepted = 0
    while refused < 200:
        outcome = _outcome(mutate_line(rng.choice(sources), rng))
        refused += outcome == "refused"
        accepted += outcome == "accepted"
        assert refused + accepted < 1000
    assert accepted < refused


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=LINE_ALPHABET + "MPN1ru=toondbsgle_", max_size=60))
def test_random_text_after_the_tag_never_raises_anything_else(tail: str) -> None:
    _outcome("MPN1 " + tail)
