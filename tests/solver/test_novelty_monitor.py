"""Novelty detection and adaptation (solver/novelty/monitor.py), the announced-rules view, and trials."""

from __future__ import annotations

import json
import math
import pickle
from pathlib import Path

import numpy as np
import pytest
from scipy.special import betaln

from engine.rules.actions import Build, Event, Mortgage
from engine.rules.agents import BaseAgent
from engine.rules.game import Game
from engine.rules.streams import ScriptedStream
from engine.rules.view import GameView
from models.board import load_board, standard_board
from models.rules import DiceSpec, Rules
from models.state import GameState
from solver.novelty import catalogue as catalogue
from solver.novelty.checkpoint import (
    CheckpointError,
    monitor_from_dict,
    monitor_to_dict,
    read_checkpoint,
    rules_from_dict,
    rules_to_dict,
    write_checkpoint,
)
from solver.novelty.monitor import (
    AdaptiveAgent,
    NoveltyMonitor,
    board_changes,
    dirichlet_log_bayes_factor,
    map_weights,
    reexpress,
)
from solver.novelty.trial import TrialSpec, injection_game, play_trial, trial_metrics
from tests.engine.rules_helpers import (
    BOARDWALK,
    MEDITERRANEAN,
    PARK_PLACE,
    ST_JAMES,
    TENNESSEE,
    ScriptedAgent,
    make_state,
)
from tests.solver.cli_helpers import run_cli

# -- the statistics ---------------------------------------------------------------------


@pytest.mark.parametrize("counts,q", [([3, 7], (0.5, 0.5)), ([10, 0], (0.3, 0.7)), ([0, 0], (0.5, 0.5)), ([40, 60], (0.9, 0.1))])
def test_bayes_factor_two_faces_is_the_beta_integral(counts: list[int], q: tuple[float, float]) -> None:
    """With two faces the Dirichlet(1,1) marginal is the Beta function B(n1+1, n2+1)."""
    n1, n2 = counts
    expected = betaln(n1 + 1, n2 + 1) - n1 * math.log(q[0]) - n2 * math.log(q[1])
    assert dirichlet_log_bayes_factor(counts, q) == pytest.approx(expected, abs=1e-9)


def test_bayes_factor_by_numerical_integration_three_faces() -> None:
    """Dirichlet(1,1,1) has density 2 on the simplex: integrate p1^a p2^b p3^c on a fine grid."""
    counts, q = [2, 1, 3], (0.2, 0.3, 0.5)
    h = 1 / 800
    xs = (np.arange(800) + 0.5) * h
    p1, p2 = np.meshgrid(xs, xs)
    p3 = 1 - p1 - p2
    inside = p3 > 0
    integrand = np.where(inside, p1**2 * p2**1 * np.clip(p3, 0, None) ** 3, 0.0)
    marginal = 2 * integrand.sum() * h * h
    expected = math.log(marginal) - (2 * math.log(0.2) + math.log(0.3) + 3 * math.log(0.5))
    assert dirichlet_log_bayes_factor(counts, q) == pytest.approx(expected, abs=2e-3)


def test_ville_bound_holds_for_the_sequential_test() -> None:
    """Under the belief, P(the Bayes factor ever reaches 1/alpha) <= alpha, checked after every face."""
    rng = np.random.default_rng(7)
    alpha, runs, faces = 0.05, 600, 400
    q = (1 / 6,) * 6
    alarms = 0
    for _ in range(runs):
        counts = [0] * 6
        for f in rng.integers(0, 6, size=faces):
            counts[f] += 1
            if dirichlet_log_bayes_factor(counts, q) > -math.log(alpha):
                alarms += 1
                break
    se = math.sqrt(alpha * (1 - alpha) / runs)
    assert alarms / runs <= alpha + 3 * se


def test_map_weights_hand_numbers() -> None:
    # prior 2 per face: (n + 1) / (N + 6)
    assert map_weights([1, 1, 1, 1, 1, 3]) == pytest.approx((2 / 14,) * 5 + (4 / 14,))
    assert map_weights([0, 0, 0]) == pytest.approx((1 / 3,) * 3)  # no data: the prior's mode
    assert map_weights([5, 15], prior=1.0) == pytest.approx((0.25, 0.75))


# -- the monitor on scripted observations -----------------------------------------------


def _monitor(state: GameState | None = None, **kw: object) -> tuple[NoveltyMonitor, GameView]:
    state = state or make_state(4)
    view = GameView(state, 0, Rules())
    mon = NoveltyMonitor(**kw)  # type: ignore[arg-type]
    mon.start_game(0, ("A", "B", "C", "D"))
    mon.attach(view)
    return mon, view


def _roll(*faces: int) -> Event:
    return Event("roll", 1, {"dice": faces, "doubles": len(set(faces)) == 1, "why": "move"})


def test_fair_dice_raise_no_alarm_over_many_games() -> None:
    rng = np.random.default_rng(1)
    mon, _ = _monitor()
    for _game in range(30):
        mon.start_game(0, ("A", "B", "C", "D"))
        for a, b in rng.integers(1, 7, size=(400, 2)):
            mon.observe(_roll(int(a), int(b)))
    assert mon.detections == []


def test_loaded_die_detected_and_estimated() -> None:
    rng = np.random.default_rng(2)
    p = np.array([1, 1, 1, 1, 1, 3]) / 8
    mon, _ = _monitor()
    faces = rng.choice(6, p=p, size=(3000, 2)) + 1
    for a, b in faces:
        mon.observe(_roll(int(a), int(b)))
    tags = [d.tag for d in mon.detections]
    assert tags[0] == "dice.weights"
    mon.start_game(0, ("A", "B", "C", "D"))  # the MAP estimate is refreshed at a game start
    w = np.array(mon.model()[1].dice.face_probabilities())
    n = 6000
    se = np.sqrt(p * (1 - p) / n)
    assert np.all(np.abs(w - p) < 4 * se + 1e-3)


def test_dice_count_and_sides_detected_exactly() -> None:
    mon, _ = _monitor()
    mon.observe(_roll(3, 4, 5))
    assert [d.tag for d in mon.detections] == ["dice.count"]
    assert mon.model()[1].dice == DiceSpec(3, 6)
    mon.observe(_roll(8, 1, 2))
    assert mon.detections[-1].tag == "dice.sides"
    assert mon.model()[1].dice == DiceSpec(3, 8)


def test_fewer_sides_detected_by_the_missing_top_face() -> None:
    rng = np.random.default_rng(3)
    mon, _ = _monitor()
    for a, b in rng.integers(1, 5, size=(200, 2)):  # d4s
        mon.observe(_roll(int(a), int(b)))
    assert mon.detections[0].tag == "dice.sides"
    # (5/6)^n < 1e-6 first at n = 76 faces: the test fires by then (the frequency test may fire sooner)
    n_needed = math.ceil(math.log(1e-6) / math.log(5 / 6))
    faces_seen = int(mon.detections[0].detail.split(" in ")[1].split()[0])
    assert faces_seen <= n_needed
    assert mon.model()[1].dice.sides == 4


def _cash(frm: int | None, to: int | None, amount: int, why: str) -> Event:
    return Event("cash", frm if frm is not None else to, {"frm": frm, "to": to, "amount": amount, "why": why})


def test_salary_fine_and_mortgage_rate() -> None:
    state = make_state(4, owner={BOARDWALK: 1})
    mon, _ = _monitor(state)
    mon.observe(_cash(None, 1, 200, "Go salary"))
    mon.observe(_cash(2, None, 50, "jail fine"))
    mon.observe(_cash(None, 1, 200, "mortgage"))
    mon.observe(Event("mortgage", 1, {"square": BOARDWALK}))
    assert mon.detections == []
    mon.observe(_cash(None, 1, 100, "Go salary"))
    mon.observe(_cash(2, None, 150, "jail fine (third failed roll)"))
    state.owner[PARK_PLACE] = 1
    mon.observe(_cash(None, 1, 105, "mortgage"))
    mon.observe(Event("mortgage", 1, {"square": PARK_PLACE}))
    assert [d.tag for d in mon.detections] == ["go_salary", "jail_fine", "mortgage_rate"]
    rules = mon.model()[1]
    assert (rules.go_salary, rules.jail_fine, rules.mortgage_rate) == (100, 150, 0.3)


def test_set_size_from_double_rent_generalises_to_groups_of_that_size() -> None:
    state = make_state(4, owner={ST_JAMES: 2, TENNESSEE: 2})
    mon, _ = _monitor(state)
    mon.observe(_cash(1, 2, 14, "rent on St. James Place"))  # 2 x $14: no, single rent $14 matches
    assert mon.detections == []
    mon.observe(_cash(1, 2, 28, "rent on St. James Place"))
    assert [d.tag for d in mon.detections] == ["set_size"]
    sizes = dict(mon.model()[1].set_size)
    board = state.board
    three = {g for g in board.street_groups if len(board.groups[g]) == 3}
    assert {g for g, k in sizes.items() if k == 2} == three
    assert "brown" not in sizes and "dark_blue" not in sizes


def test_set_size_from_a_building_on_an_incomplete_group() -> None:
    state = make_state(4, owner={ST_JAMES: 1, TENNESSEE: 1})
    mon, _ = _monitor(state)
    mon.observe(Event("build", 1, {"square": ST_JAMES, "level": 1, "premium": 0}))
    assert [d.tag for d in mon.detections] == ["set_size"]
    assert mon.model()[1].set_size["orange"] == 2 and mon.model()[1].set_size["red"] == 2
    state.owner[18 + 1] = 1  # New York: all three orange lots, believed complete now
    n = len(mon.detections)
    mon.observe(Event("build", 1, {"square": TENNESSEE, "level": 1, "premium": 0}))
    assert len(mon.detections) == n


def test_unknown_payment_and_auction_without_offer() -> None:
    state = make_state(4)
    mon, _ = _monitor(state)
    mon.observe(_cash(None, 2, 300, "Free Parking pot"))
    assert mon.detections[-1].tag == "rule.cash"
    mon.observe(Event("move", 0, {"frm": 0, "to": MEDITERRANEAN, "passed_go": False, "why": "dice"}))
    mon.observe(Event("auction", 1, {"square": MEDITERRANEAN, "winner": 1, "price": 10}))
    assert mon.detections[-1].tag == "rule.auction_only"
    # asked to buy and declined: an ordinary auction, no detection
    n = len(mon.detections)
    mon.observe(Event("move", 0, {"frm": 1, "to": 6, "passed_go": False, "why": "dice"}))
    mon.note_buy_asked(6)
    mon.observe(Event("auction", 1, {"square": 6, "winner": 1, "price": 10}))
    assert len(mon.detections) == n


@pytest.mark.parametrize("name", [n.name for n in catalogue.CATALOGUE if not n.hidden])
def test_every_visible_novelty_is_named_by_the_board_diff(name: str) -> None:
    nov = catalogue.get(name)
    board, _ = nov.apply(standard_board(), Rules())
    tags = {t for t, _ in board_changes(standard_board(), board)}
    assert tags & set(nov.tags), (name, tags)
    assert board_changes(standard_board(), standard_board()) == []


def test_monitor_memory_round_trips_as_json() -> None:
    mon, _ = _monitor()
    mon.observe(_roll(1, 2, 3))
    doc = json.loads(json.dumps(monitor_to_dict(mon)))
    back = monitor_from_dict(doc)
    assert back.detections == mon.detections and back._view is None
    assert back.model() == mon.model() and back.model()[1].dice.count == 3
    assert back.window == mon.window and back.posterior == mon.posterior
    assert monitor_to_dict(back) == doc


@pytest.mark.parametrize("name", [n.name for n in catalogue.CATALOGUE])
def test_every_novelty_board_and_rules_round_trip(name: str) -> None:
    board, rules = catalogue.get(name).apply(standard_board(), Rules())
    doc = json.loads(json.dumps(rules_to_dict(rules)))
    back_board = load_board(json.loads(json.dumps(board.name if board.builtin else board.to_dict())))
    assert back_board == board
    assert rules_from_dict(doc, back_board) == rules


def test_checkpoint_refuses_other_trials_and_hostile_files(tmp_path: Path) -> None:
    spec = TrialSpec("strategic", "go-salary", games=4, seed=5, max_rounds=60)
    mon, _ = _monitor()
    path = tmp_path / "t.jsonl.monitor"
    write_checkpoint(path, spec, 1, mon)
    game, back = read_checkpoint(path, spec)
    assert game == 1 and back.detections == mon.detections
    other = TrialSpec("strategic", "go-salary", games=4, seed=6, max_rounds=60)
    with pytest.raises(CheckpointError, match="different trial"):
        read_checkpoint(path, other)
    good = json.loads(path.read_text())
    cases = {
        "pickle": pickle.dumps({"spec": spec}),  # the old format: data, never unpickled
        "not json": b"{nope",
        "not utf-8": b"\xff\xfe",
        "format": json.dumps({**good, "format": "x"}).encode(),
        "game": json.dumps({**good, "game": 99}).encode(),
        "rule": json.dumps({**good, "monitor": {**good["monitor"], "alpha": 2}}).encode(),
        "depth": b"[" * 100_000 + b"]" * 100_000,
    }
    for label, data in cases.items():
        path.write_bytes(data)
        with pytest.raises(CheckpointError) as err:
            read_checkpoint(path, spec)
        assert "\n" not in str(err.value), label


def test_no_adaptation_keeps_the_first_model() -> None:
    mon, _ = _monitor(adapt=False)
    mon.observe(_roll(1, 2, 3))
    assert mon.detections and mon.model()[1] == Rules()


# -- the view under announced rules, and the referee -----------------------------------


def test_view_shows_announced_rules_but_legality_is_true() -> None:
    true = Rules(set_size={"orange": 2}, jail_fine=150)
    state = make_state(2, owner={ST_JAMES: 0, TENNESSEE: 0}, rules=true)
    view = GameView(state, 0, Rules())
    assert view.rules == Rules() and view.copy().rules == Rules()
    assert not view.has_monopoly(0, "orange")  # the announced rules: all three lots
    assert set(view.legal_builds()) == {ST_JAMES, TENNESSEE}  # the referee: two suffice


def test_refused_jail_payment_becomes_a_roll_in_a_trial() -> None:
    state = make_state(2, cash=[100, 1500], in_jail={0: 0}, rules=Rules(jail_fine=150))
    agents = [ScriptedAgent(jail="pay"), ScriptedAgent()]
    game = Game(state, agents, ScriptedStream([(1, 2)]), announced_rules=Rules())
    game.play_turn()
    kinds = [e.kind for e in agents[0].events]
    assert "refused" in kinds and state.players[0].in_jail and state.players[0].jail_turns == 1
    assert state.players[0].cash == 100


# -- the adaptive agent ------------------------------------------------------------------


def test_reexpress_matches_properties_by_name() -> None:
    moved, _ = catalogue.get("board-order").apply(standard_board(), Rules())
    state = GameState.new_game(["A", "B"], moved, Rules())
    state.owner[moved.property_index["Boardwalk"]] = 1
    state.owner[moved.property_index["Park Place"]] = 1
    state.houses[moved.property_index["Boardwalk"]] = 2
    state.houses[moved.property_index["Park Place"]] = 2
    out, to_model, to_true = reexpress(state, standard_board(), Rules())
    assert out.owner[BOARDWALK] == 1 and out.owner[PARK_PLACE] == 1 and out.houses[BOARDWALK] == 2
    assert to_model[3] == BOARDWALK and to_true[BOARDWALK] == 3
    assert out.owner[MEDITERRANEAN] == -1


class _Builder(BaseAgent):
    """Asks to build on the model square it is told, mortgage another; records what it saw."""

    def __init__(self, square: int) -> None:
        super().__init__(0)
        self.square = square
        self.seen: list[GameView] = []

    def act(self, view: GameView) -> Build | None:
        self.seen.append(view)
        return Build(self.square)

    def raise_cash(self, view: GameView, owed: int) -> Mortgage | None:
        return Mortgage(self.square)


def test_adaptive_agent_translates_and_refuses_illegal_actions() -> None:
    moved, _ = catalogue.get("board-order").apply(standard_board(), Rules())
    state = GameState.new_game(["A", "B"], moved, Rules())
    for name in ("Boardwalk", "Park Place"):
        state.owner[moved.property_index[name]] = 0
    view = GameView(state, 0, Rules())
    # adaptation off: the model is the standard board, where Boardwalk is square 39
    mon = NoveltyMonitor(adapt=False)
    mon.start_game(0, ("A", "B"))
    mon.initial = (standard_board(), Rules())
    mon.board, mon.rules = standard_board(), Rules()
    agent = AdaptiveAgent(_Builder(BOARDWALK), mon)
    agent.me = 0
    act = agent.act(view)
    assert act == Build(moved.property_index["Boardwalk"])  # translated to the true square 3
    assert agent.inner.seen[-1].owner_of(BOARDWALK) == 0  # the model view has it at 39
    assert mon.detected(("board.order",))
    # an action the true rules refuse is dropped
    agent2 = AdaptiveAgent(_Builder(MEDITERRANEAN), mon)  # model's Mediterranean = true square 37, not owned
    agent2.me = 0
    assert agent2.act(view) is None


# -- trials ---------------------------------------------------------------------------------


def test_injection_game_is_seeded_and_in_range() -> None:
    got = {injection_game(s, 20) for s in range(200)}
    assert min(got) >= 5 and max(got) <= 15 and len(got) == 11
    assert injection_game(3, 100) == injection_game(3, 100)


def test_trial_metrics_by_hand() -> None:
    spec = TrialSpec("strategic", "go-salary", games=4, seed=0)
    rows = [
        {"game": 0, "tested_won": True, "winner": "strategic", "detections": []},
        {"game": 1, "tested_won": False, "winner": "strategic", "detections": []},
        {"game": 2, "tested_won": True, "winner": "strategic", "detections": [{"game": 2, "round": 1, "tag": "go_salary", "detail": ""}]},
        {"game": 3, "tested_won": False, "winner": None, "detections": []},
    ]
    # the tested agent is also labelled "strategic" here: its wins count for the baseline too
    m = trial_metrics(spec, 2, rows)
    assert (m["pre_wins"], m["post_wins"], m["pnwp"], m["post_rate"]) == (1, 1, 0.5, 0.5)
    assert m["baseline_pre_seats"] == 6 and m["baseline_pre_wins"] == 2
    assert m["nrp"] == pytest.approx(0.5 / (2 / 6))
    assert m["detected"] and m["detection_delay_games"] == 0
    rows[0]["detections"] = [{"game": 0, "round": 3, "tag": "dice.weights", "detail": ""}]
    assert not trial_metrics(spec, 2, rows)["detected"]


def test_trial_resumes_to_the_same_rows(tmp_path: Path) -> None:
    spec = TrialSpec("strategic", "go-salary", games=4, seed=5, max_rounds=60)
    whole = play_trial(spec)
    out = tmp_path / "t.jsonl"

    class Stop(Exception):
        pass

    def stop_after_two(done: int, total: int, row: object) -> None:
        if done == 2:
            raise Stop

    with pytest.raises(Stop):
        play_trial(spec, out=out, progress=stop_after_two)
    assert len(out.read_text().splitlines()) == 2
    resumed = play_trial(spec, out=out, resume=True)
    assert resumed.rows == whole.rows and resumed.metrics == whole.metrics
    assert [json.loads(x) for x in out.read_text().splitlines()] == whole.rows


def test_cli_trial_list_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "trial", "--list", "--json")
    doc = json.loads(out)
    assert code == 0 and len(doc["novelties"]) >= 12
    assert {n["class"] for n in doc["novelties"]} == {"attribute", "representation", "class"}
    code, _, err = run_cli(capsys, "trial", "--agent", "strategic", "--novelty", "no-such-thing")
    assert code == 2 and "no-such-thing" in err and len(err.strip().splitlines()) == 1
    code, _, err = run_cli(capsys, "trial", "--agent", "nobody", "--novelty", "go-salary")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_cli_trial_runs_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "trial", "--agent", "strategic", "--novelty", "three-dice", "--games", "4", "--seed", "2", "--max-rounds", "40", "--json")
    doc = json.loads(out)
    assert code == 0
    m = doc["metrics"]
    assert doc["injected_at"] == injection_game(2, 4)
    assert m["pre_games"] + m["post_games"] == 4 and m["detected"] is True
    assert m["detection"]["tag"] == "dice.count"


def test_cli_many_trials_summarize_and_keep_their_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "trials"
    args = ("trial", "--agent", "strategic", "--novelty", "none", "--seeds", "2", "--games", "4", "--max-rounds", "30", "--out", str(out), "--json")
    code, text, _ = run_cli(capsys, *args)
    doc = json.loads(text)
    assert code == 0 and len(doc["trials"]) == 2
    ctrl = doc["summary"]["control"]
    correct = sum(t["metrics"]["false_alarms"] == 0 for t in doc["trials"])
    assert ctrl["trials"] == 2 and ctrl["nda"] == correct / 2
    assert ctrl["pnwp"] == sum(t["metrics"]["pre_wins"] for t in doc["trials"]) / 8
    assert len(list(out.glob("*.jsonl"))) == 2 and (out / "summary.json").exists()
    # resuming finds every game done: the same summary
    code, again, _ = run_cli(capsys, *args, "--resume")
    assert code == 0 and json.loads(again)["summary"] == doc["summary"]
    # without --resume or --force the results are kept and the refusal says how to go on
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and "--resume" in err and "--force" in err
