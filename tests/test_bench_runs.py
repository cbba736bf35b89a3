"""The results files kept in ``bench/runs/`` are whole, documented, and still the games the code plays.

A head-to-head of 2,000 games takes longer than a session on this project's
machine, and a session's scratch files do not outlive it, so a run that must
go on in the next session is committed there and resumed with ``--resume``
(docs/benchmarks.md, "Runs kept in the repository"). Each file must:

- carry a results header (``engine.tournament.results``) and no line that is
  not a game, within a size bound (a few hundred bytes a game);
- be named in docs/benchmarks.md, which gives the command that continues it;
- replay: its shortest game, played again by ``engine.tournament.run.play_one``
  with the header's agents, seed, round cap and rules, gives the same row (a float
  estimate to within its last bits, :func:`_same`: they differ between CPUs). A
  change of play makes this fail, and the run must then start in a new file
  rather than mix two agents' games under one name.

The verdict reference's files (``bench/verdict_reference.py``, header
``verdict-reference/5``) are checked the same way in their own terms: every
line whole, each trade's blocks contiguous, named in docs/benchmarks.md, and
its first evaluated trade judged again by ``solver.evaluate.evaluate_trade``
gives the recorded verdicts and changes (a change of the evaluation makes the
run start in a new file). The tuning races' files (``bench/tune.py``, header
``monopoly-tune/1``) likewise: whole, named, every row a game of the race's
plan, and its cheapest game played again gives the recorded win; and their
confirmations (``monopoly-tune-confirm/1``, the held-out family's line-ups
drawn again from the seed). The exploitability runs (``bench/exploit.py``): the play file
(results header of kind ``exploit``) is whole and named, and its shortest game played again
gives the same row, offers and estimates included; the judged file (``exploit-judge/3``) is
whole, named, judges only offers its play file accepted (the seeded sample drawn again), and
its verdicts follow from its figures (not replayed: a judged offer is 400 paired games at
least). A screen of answer variants on a judged file (``bench/answer_screen.py``,
``answer-screen/1``) is whole, named, holds the judged offers in order with their recorded
figures, and its first offer answered again on two seeds by every variant gives the recorded
answers. A loss anatomy (``bench/loss_anatomy.py``, ``loss-anatomy/1``) is whole, named, one row a
game, and its shortest game played again gives the same row. An agreement file of the answer's evaluations with the judged changes
(``bench/answer_agree.py``, ``answer-agree/1``) likewise: whole, named, the judged offers in
order with their figures, and its first offer's estimates computed again give the recorded ones.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.tournament.results import read_results
from engine.tournament.run import play_one
from models.io import load_state
from models.rules import Rules
from models.trade import Trade
from solver.agents.registry import factory
from solver.evaluate import evaluate_trade

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "bench" / "runs"
sys.path.insert(0, str(ROOT / "bench"))

import answer_agree  # noqa: E402
import answer_screen  # noqa: E402
import exploit  # noqa: E402
import loss_anatomy  # noqa: E402
import tune  # noqa: E402

VERDICT_HEADER = "verdict-reference/5"


def _same(a: Any, b: Any) -> bool:
    """``a == b``, but a float estimate may differ in its last bits (relative 1e-12).

    The same games on two machines give the same integers (lots, cash, winners, answers) but not
    always the same last bits of a mean: the recorded estimates of ``exploit-play-hardened`` and
    ``answer-agree-premium`` come back on another CPU with 1-2 ulps of difference (e.g.
    -0.040825518288756905 against -0.0408255182887569), the float reductions of numpy/BLAS
    depending on the CPU's vector units. A change of play moves an estimate by 1e-4 or more, far
    beyond this tolerance."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _first_line(path: Path) -> str:
    with path.open(encoding="utf-8") as fh:
        return fh.readline()


def _documented(path: Path) -> None:
    doc = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert f"bench/runs/{path.name}" in doc, f"{path.name} is not named in docs/benchmarks.md"


VERDICTS = sorted(p for p in RUNS.glob("*.jsonl") if VERDICT_HEADER in _first_line(p))
TUNES = sorted(p for p in RUNS.glob("*.jsonl") if tune.HEADER in _first_line(p))
CONFIRMS = sorted(p for p in RUNS.glob("*.jsonl") if tune.CONFIRM_HEADER in _first_line(p))
EXPLOIT_JUDGE_HEADER = "exploit-judge/3"
EXPLOITS = sorted(p for p in RUNS.glob("*.jsonl") if '"kind": "exploit"' in _first_line(p))
EXPLOIT_JUDGED = sorted(p for p in RUNS.glob("*.jsonl") if EXPLOIT_JUDGE_HEADER in _first_line(p))
SCREENS = sorted(p for p in RUNS.glob("*.jsonl") if answer_screen.HEADER in _first_line(p))
AGREES = sorted(p for p in RUNS.glob("*.jsonl") if answer_agree.HEADER in _first_line(p))
ANATOMIES = sorted(p for p in RUNS.glob("*.jsonl") if loss_anatomy.HEADER in _first_line(p))
FILES = sorted(p for p in RUNS.glob("*.jsonl") if p not in VERDICTS + TUNES + CONFIRMS + EXPLOITS + EXPLOIT_JUDGED + SCREENS + AGREES + ANATOMIES)
MAX_BYTES = 2_000_000
"""A bound on one kept file (about 10,000 games of a tournament)."""
MAX_EXPLOIT_BYTES = 8_000_000
"""An exploit play file keeps the state of every accepted offer (about 3 kB a game): 1,000 games and more."""


def test_there_is_a_kept_run() -> None:
    assert FILES, "bench/runs/ holds no results file"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_kept_run_is_whole_and_documented(path: Path) -> None:
    assert path.stat().st_size <= MAX_BYTES, f"{path.name}: larger than {MAX_BYTES} bytes"
    found = read_results(path)
    assert found.header is not None and found.header["kind"] == "tournament", f"{path.name}: no tournament header"
    assert found.dropped == 0, f"{path.name}: {found.dropped} line(s) that are not a game"
    assert found.rows, f"{path.name}: no game"
    seats = len(found.header["agents"])
    for g, row in found.rows.items():
        assert row["game"] == g and len(row["seats"]) == seats
        assert row["winner"] is None or row["winner"] in found.header["agents"]
    _documented(path)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_kept_run_replays(path: Path) -> None:
    found = read_results(path)
    assert found.header is not None
    header = found.header
    rules = Rules(**header["rules"]["overrides"]) if "rules" in header else None
    # the shortest game is the cheapest to replay; ties go to the lower game number
    g = min(found.rows, key=lambda k: (found.rows[k]["turns"], k))
    agents = header["agents"]
    row = play_one([factory(s) for s in agents], agents, header["seed"], g, header["max_rounds"], rules)
    assert row == found.rows[g], f"{path.name}: game {g} no longer plays as recorded; start the run in a new file"


def _whole_rows(path: Path) -> tuple[dict, list[dict]]:
    """A kept JSON-lines file's header and rows; a torn line fails here."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:]]


@pytest.mark.parametrize("path", VERDICTS, ids=lambda p: p.name)
def test_kept_verdict_run_is_whole_and_documented(path: Path) -> None:
    assert path.stat().st_size <= MAX_BYTES, f"{path.name}: larger than {MAX_BYTES} bytes"
    header, rows = _whole_rows(path)
    assert header["header"] == VERDICT_HEADER
    played: dict[int, int] = {}
    for row in rows:
        if "start" in row:  # a block: the next games of its trade, after the trade was judged
            assert row["start"] == played.get(row["k"], 0), f"{path.name}: trade {row['k']}'s blocks are not contiguous"
            assert 0 < row["n"] <= header["block"] and set(row["sum"]) == set(row["sumsq"])
            assert len(row["capped"]) == 2 and all(0 <= c <= row["n"] for c in row["capped"])
            assert all(abs(row["sum"][n]) <= row["sumsq"][n] <= row["n"] for n in row["sum"])
            played[row["k"]] = row["start"] + row["n"]
        else:
            assert set(row) in ({"k", "top"}, {"k", "state", "trade", "proposer", "verdicts", "win_delta", "win_delta_se"}), row.keys()
    _documented(path)


@pytest.mark.parametrize("path", VERDICTS, ids=lambda p: p.name)
def test_kept_verdict_run_judges_as_recorded(path: Path) -> None:
    _, rows = _whole_rows(path)
    judged = [row for row in rows if "verdicts" in row]
    if not judged:
        pytest.skip(f"{path.name}: no trade judged yet")
    row = judged[0]
    state = load_state(row["state"])
    ev = evaluate_trade(state, Trade.from_dict(row["trade"]), proposer=state.player_index(row["proposer"]))
    for name, verdict in row["verdicts"].items():
        assert ev.verdicts[name].verdict == verdict, f"{path.name}: trade {row['k']} is judged otherwise now; start a new file"
        assert ev.win_delta[name] == pytest.approx(row["win_delta"][name], abs=1e-12)


@pytest.mark.parametrize("path", TUNES, ids=lambda p: p.name)
def test_kept_tune_run_is_whole_and_documented(path: Path) -> None:
    assert path.stat().st_size <= MAX_BYTES, f"{path.name}: larger than {MAX_BYTES} bytes"
    header, rows = _whole_rows(path)
    assert header["header"] == tune.HEADER and rows, f"{path.name}: no tuning header or no game"
    seen = set()
    for row in rows:
        assert set(row) == {"c", "l", "g", "proxy", "win", "cpu_s"} and row["win"] in (0, 1)
        assert 0 <= row["c"] < len(header["configs"]) and 0 <= row["l"] < len(header["league"])
        key = (row["c"], row["l"], row["g"], row["proxy"])
        assert key not in seen, f"{path.name}: game {key} twice"
        seen.add(key)
    _documented(path)


@pytest.mark.parametrize("path", TUNES, ids=lambda p: p.name)
def test_kept_tune_run_replays(path: Path) -> None:
    header, rows = _whole_rows(path)
    row = min(rows, key=lambda r: (r["cpu_s"], r["c"], r["l"], r["g"]))  # the cheapest game
    spec = header["configs"][row["c"]]
    if row["proxy"]:
        spec = tune.with_proxy(spec, header["proxy"])
    won, _ = tune.play((spec, header["league"][row["l"]], header["seed"], row["g"]))
    assert won == row["win"], f"{path.name}: game {row} no longer plays as recorded; start the run in a new file"


@pytest.mark.parametrize("path", VERDICTS, ids=lambda p: p.name)
def test_the_policy_bench_reads_the_verdict_run_as_the_run_does(path: Path) -> None:
    # bench/verdict_policies.py judges exactly the trades the run finished, with the run's own references
    # (it reads them through verdict_reference.summarize and re-shapes them)
    import argparse

    import verdict_policies
    import verdict_reference

    header, rows = _whole_rows(path)
    args = argparse.Namespace(**{k: v for k, v in header.items() if k != "header"})
    done = {k: t for k, t in verdict_reference.summarize(rows, args).items() if t.get("done")}
    found = {t["k"]: t for t in verdict_policies.finished(path)}
    assert set(found) == set(done)
    for k, t in done.items():
        assert found[k]["n"] == t["n"] and found[k]["capped"] == t["capped"]
        for name, mean in t["reference"].items():
            assert found[k]["reference"][name] == pytest.approx((mean, t["reference_se"][name]), abs=1e-12)


@pytest.mark.parametrize("path", CONFIRMS, ids=lambda p: p.name)
def test_kept_tune_confirmation_is_whole_documented_and_replays(path: Path) -> None:
    assert path.stat().st_size <= MAX_BYTES, f"{path.name}: larger than {MAX_BYTES} bytes"
    header, rows = _whole_rows(path)
    assert header["header"] == tune.CONFIRM_HEADER and rows
    families = len(header["league"]) + 1  # the league's line-ups, then the held-out family
    for row in rows:
        assert set(row) == {"who", "family", "g", "win", "cpu_s"} and row["who"] in ("chosen", "default")
        assert 0 <= row["family"] < families and 0 <= row["g"] < header["games"] and row["win"] in (0, 1)
    _documented(path)
    row = min(rows, key=lambda r: (r["cpu_s"], r["who"], r["family"], r["g"]))
    n_opp = len(header["league"][0])
    fam = row["family"]
    opponents = header["league"][fam] if fam < families - 1 else tune.held_out_lineup(header["seed"], row["g"], n_opp)
    won, _ = tune.play((header[row["who"]], opponents, header["seed"], row["g"]))
    assert won == row["win"], f"{path.name}: game {row} no longer plays as recorded; start the confirmation in a new file"


@pytest.mark.parametrize("path", EXPLOITS, ids=lambda p: p.name)
def test_kept_exploit_run_is_whole_documented_and_replays(path: Path) -> None:
    assert path.stat().st_size <= MAX_EXPLOIT_BYTES, f"{path.name}: larger than {MAX_EXPLOIT_BYTES} bytes"
    found = read_results(path)
    assert found.header is not None and found.dropped == 0 and found.rows, f"{path.name}: not a whole exploit run"
    agents = found.header["agents"]
    assert agents[0].startswith("adversary:") and len(set(agents[1:])) == 1
    for g, row in found.rows.items():
        assert row["game"] == g and sorted(row["seats"]) == sorted(["adversary"] + ["target"] * (len(agents) - 1))
        assert row["seats"][row["adversary_seat"]] == "adversary"
        for o in row["offers"]:
            assert isinstance(o["accepted"], bool) and ("state" in o) == o["accepted"]
    _documented(path)
    g = min(found.rows, key=lambda k: (found.rows[k]["turns"], k))
    again = json.loads(json.dumps(exploit._play((agents[0], agents[1], len(agents), found.header["seed"], g))))
    recorded = dict(found.rows[g])
    again.pop("cpu_s"), recorded.pop("cpu_s")
    assert _same(again, recorded), f"{path.name}: game {g} no longer plays as recorded; start the run in a new file"


@pytest.mark.parametrize("path", EXPLOIT_JUDGED, ids=lambda p: p.name)
def test_kept_exploit_judgement_is_whole_and_consistent(path: Path) -> None:
    assert path.stat().st_size <= MAX_BYTES, f"{path.name}: larger than {MAX_BYTES} bytes"
    header, rows = _whole_rows(path)
    assert header["header"] == EXPLOIT_JUDGE_HEADER
    play = RUNS / header["play"]
    assert play in EXPLOITS, f"{path.name}: its play file {header['play']} is not kept"
    games = list(read_results(play).rows.values())
    if "games_play" in header:  # judged on the first games of a longer play
        games = [g for g in games if g["game"] < header["games_play"]]
        assert len(games) == header["games_play"], f"{path.name}: its play file lacks some of its first {header['games_play']} games"
    offers = exploit.accepted_offers(games)
    if "sample" in header:
        assert header["accepted"] == len(offers)
        offers = exploit.sample_offers(offers, header["sample"], header["sample_seed"])
    order = [k for k, _ in offers]
    assert [r["offer"] for r in rows] == order[: len(rows)], f"{path.name}: not the offers its play file gives, in order"
    for r in rows:
        assert 2 <= r["games"] <= header["games"] and (r["games"] % header["block"] == 0 or r["games"] == header["games"])
        assert r["harmful"] == (r["target"] < -2 * r["target_se"])
        assert r["games"] == header["games"] or (header["early_stop"] and r["target"] > 3 * r["target_se"])
    _documented(path)


def test_an_offer_judged_in_two_kept_files_is_judged_alike() -> None:
    """What ``bench/exploit.py judge --reuse`` rests on: an offer's judgement is a function of the
    offer (:func:`exploit.offer_key`) and the judging settings. Every offer judged, not reused, in
    two kept files with the same settings has the same figures there (the adversary's early games
    against two targets often make the same offers)."""
    seen: dict[tuple[object, ...], tuple[str, dict]] = {}
    pairs = 0
    for path in EXPLOIT_JUDGED:
        header, rows = _whole_rows(path)
        games = read_results(RUNS / header["play"]).rows
        for r in rows:
            if "reused" in r:
                continue
            g, k = (int(x) for x in r["offer"].split(":"))
            key = (exploit.offer_key(games[g]["offers"][k], games[g]["adversary_seat"]), *(header[f] for f in exploit.JUDGING))
            figures = {f: r[f] for f in ("games", "target", "target_se", "adversary", "adversary_se", "harmful")}
            if key in seen:
                pairs += 1
                assert seen[key][1] == figures, f"{path.name} {r['offer']} and {seen[key][0]} are the same offer, judged apart"
            else:
                seen[key] = (f"{path.name} {r['offer']}", figures)
    assert pairs >= 4  # 4:0, 7:0, 12:0 and 13:0 of the censuses of session 31's and 32's adversaries


@pytest.mark.parametrize("path", SCREENS, ids=lambda p: p.name)
def test_kept_answer_screen_is_whole_and_replays(path: Path) -> None:
    assert path.stat().st_size <= MAX_BYTES, f"{path.name}: larger than {MAX_BYTES} bytes"
    header, rows = _whole_rows(path)
    assert header["header"] == answer_screen.HEADER and rows
    judged = RUNS / header["judged"]
    assert judged in EXPLOIT_JUDGED, f"{path.name}: its judged file {header['judged']} is not kept"
    verdicts = _whole_rows(judged)[1]
    assert json.loads(_first_line(judged))["play"] == header["play"]
    answer_screen.check_first_variant(header["variants"], RUNS / header["play"])  # the weights' reference
    assert len(rows) <= len(verdicts)
    for r, v in zip(rows, verdicts):
        assert (r["offer"], r["target"], r["target_se"], r["harmful"]) == (v["offer"], v["target"], v["target_se"], v["harmful"])
        assert len(r["accepts"]) == len(header["variants"]) and all(len(a) == header["seeds"] for a in r["accepts"])
    _documented(path)
    g, k = (int(x) for x in rows[0]["offer"].split(":"))
    offer = read_results(RUNS / header["play"]).rows[g]["offers"][k]
    for spec, recorded in zip(header["variants"], rows[0]["accepts"]):
        seeds = min(2, header["seeds"])
        assert answer_screen.answers(offer, spec, seeds) == recorded[:seeds], f"{path.name}: {spec} no longer answers as recorded"


def test_answer_screen_refuses_a_first_variant_other_than_the_target() -> None:
    """The screen's weights are relative to the first variant's answers, so it must be the target as
    it played: the same settings in any spelling pass, other settings stop the run in one line."""
    play = RUNS / "exploit-play-horizon-0-1000.jsonl"
    target = answer_screen.target_spec(play)
    assert target.startswith("subgraph:") and "check_horizon=100" in target
    name, options = target.split(":")
    answer_screen.check_first_variant([name + ":" + ",".join(reversed(options.split(","))), "subgraph"], play)
    answer_screen.check_first_variant(["subgraph:deny_bank=0,purchase_cap=0"], play)  # the defaults of sessions 33-34
    with pytest.raises(SystemExit, match="is not the target"):  # since session 35 the defaults buy out bank lots
        answer_screen.check_first_variant(["subgraph"], play)
    with pytest.raises(SystemExit, match="is not the target as it played in exploit-play-horizon-0-1000.jsonl"):
        answer_screen.check_first_variant(["subgraph:check_horizon=0", target], play)


@pytest.mark.parametrize("path", AGREES, ids=lambda p: p.name)
def test_kept_answer_agreement_is_whole_and_replays(path: Path) -> None:
    assert path.stat().st_size <= MAX_BYTES, f"{path.name}: larger than {MAX_BYTES} bytes"
    header, rows = _whole_rows(path)
    assert header["header"] == answer_agree.HEADER and rows
    expected = []
    for name in header["judged"]:
        assert RUNS / name in EXPLOIT_JUDGED, f"{path.name}: its judged file {name} is not kept"
        expected += [(name, v) for v in _whole_rows(RUNS / name)[1]]
    assert len(rows) <= len(expected)
    for r, (name, v) in zip(rows, expected):
        assert (r["judged"], r["offer"], r["target"], r["target_se"], r["harmful"]) == (name, v["offer"], v["target"], v["target_se"], v["harmful"])
        assert all(len(r[kind]) == len(header["premiums"]) for kind in answer_agree.EVALUATIONS)
    _documented(path)
    first = rows[0]
    play = json.loads(_first_line(RUNS / first["judged"]))["play"]
    g, k = (int(x) for x in first["offer"].split(":"))
    offer = read_results(RUNS / play).rows[g]["offers"][k]
    for i, premium in enumerate(header["premiums"]):
        again = answer_agree.estimates(offer, premium, header["rollouts"])
        assert _same([again[kind] for kind in answer_agree.EVALUATIONS], [first[kind][i] for kind in answer_agree.EVALUATIONS]), f"{path.name}: premium {premium} no longer estimates as recorded"


@pytest.mark.parametrize("path", ANATOMIES, ids=lambda p: p.name)
def test_kept_loss_anatomy_is_whole_and_replays(path: Path) -> None:
    assert path.stat().st_size <= MAX_BYTES, f"{path.name}: larger than {MAX_BYTES} bytes"
    header, rows = _whole_rows(path)
    assert header["header"] == loss_anatomy.HEADER and rows
    games = [r["game"] for r in rows]
    assert len(set(games)) == len(games), f"{path.name}: a game recorded twice"
    _documented(path)
    shortest = min(rows, key=lambda r: (r["rounds"], r["game"]))
    again = loss_anatomy.play((header["agents"], header["seed"], shortest["game"], header["max_rounds"]))
    assert again == shortest, f"{path.name}: game {shortest['game']} no longer plays as recorded"
