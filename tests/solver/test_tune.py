"""``bench/tune.py`` (issue 39 item 1): the race's rungs, survivors and choice recomputed from its
rows by hand, each row's win replayed by the tournament's own game, the proxy rungs, resuming,
and the confirmation on fresh seeds with a held-out family."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.tournament.run import play_one
from solver.agents.registry import factory, parse_spec

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import tune  # noqa: E402

LEAGUE = "random,random;strategic,strategic"
RUN = ["run", "--agent", "strategic", "--space", "reserve=50:300,premium=0.0:1.0,cooldown=2|8", "--configs", "4", "--games", "2", "--rungs", "2", "--league", LEAGUE, "--workers", "1"]


def _cli(args: list[str], check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "tune.py"), *args], capture_output=True, text=True, check=check)


def _rows(path: Path) -> tuple[dict, list[dict]]:
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    return lines[0], lines[1:]


def test_space_and_configurations() -> None:
    space = tune.parse_space("deny=0:6,answer_z=0.5:2.5,hold=true|false")
    rng = np.random.default_rng(3)
    for _ in range(50):
        c = tune.draw(space, rng)
        assert isinstance(c["deny"], int) and 0 <= c["deny"] <= 6 and 0.5 <= c["answer_z"] <= 2.5 and c["hold"] in ("true", "false")
    specs = tune.configurations("subgraph", space, 5, 0)
    assert specs[0] == "subgraph" and len(set(specs)) == 5 and specs == tune.configurations("subgraph", space, 5, 0)
    for s in specs:
        parse_spec(s)
    assert tune.with_proxy("subgraph:deny=2", "rollouts=80,deny=1") == "subgraph:deny=1,rollouts=80"
    # an agent with options of its own (the kept race's `subgraph:tiebreak=worth,answer_check=off`):
    # the drawn options follow them, the same draws as for the bare name
    base = "subgraph:tiebreak=worth,answer_check=off"
    own = tune.configurations(base, space, 5, 0)
    assert own[0] == base and own[1:] == [base + "," + s.partition(":")[2] for s in specs[1:]]
    assert parse_spec(own[1])[1]["tiebreak"] == "worth" and parse_spec(own[1])[1]["deny"] == parse_spec(specs[1])[1]["deny"]
    for bad in ("deny", "deny=6:0", "deny=a:b"):
        with pytest.raises(SystemExit):
            tune.parse_space(bad)


def test_race_by_hand(tmp_path: Path) -> None:
    out = tmp_path / "tune.jsonl"
    _cli([*RUN, "--out", str(out)])
    header, rows = _rows(out)
    configs, league = header["configs"], header["league"]
    assert len(configs) == 4 and configs[0] == "strategic"
    # rung 0: every configuration, 2 games per line-up; the 2 best by mean win (ties: lower index) go on
    r0 = {c: [x["win"] for x in sorted(rows, key=lambda x: (x["l"], x["g"])) if x["c"] == c and x["g"] < 2] for c in range(4)}
    assert all(len(v) == 4 for v in r0.values())
    best2 = sorted(range(4), key=lambda c: (-sum(r0[c]), c))[:2]
    rung1 = sorted({x["c"] for x in rows if x["g"] >= 2})
    assert rung1 == sorted(set(best2) | {0})
    assert len(rows) == 4 * 2 * 2 + len(rung1) * 2 * 2
    # every row's win is the tournament's own game: the candidate is agent 0 of the line-up
    for x in rows[:: max(1, len(rows) // 6)]:
        spec, opponents = configs[x["c"]], league[x["l"]]
        labels = ["cand", *[f"o{k}" for k in range(len(opponents))]]
        row = play_one([factory(s) for s in [spec, *opponents]], labels, header["seed"], x["g"], tune.MAX_ROUNDS)
        assert x["win"] == int(row["winner"] == "cand")
    # the choice: the best of the last rung by mean win over its 4 games per line-up, ties to the lower index
    r1 = {c: [x["win"] for x in sorted(rows, key=lambda x: (x["l"], x["g"])) if x["c"] == c] for c in rung1}
    want = sorted(rung1, key=lambda c: (-sum(r1[c]), c))[0]
    chosen = json.loads((tmp_path / "tune.jsonl.chosen.json").read_text())
    assert chosen["spec"] == configs[want] and chosen["games_per_lineup"] == 4
    # resuming plays nothing more; another seed is refused in one line
    _cli([*RUN, "--out", str(out), "--resume"])
    assert len(_rows(out)[1]) == len(rows)
    bad = _cli([*RUN, "--out", str(out), "--resume", "--seed", "1"], check=False)
    assert bad.returncode != 0 and "differs in configs, seed" in bad.stderr
    again = _cli([*RUN, "--out", str(out)], check=False)
    assert again.returncode != 0 and "--resume" in again.stderr


def test_proxy_rungs_and_confirmation(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    _cli([*RUN, "--out", str(out), "--proxy", "accept_margin=0"])
    header, rows = _rows(out)
    assert {x["proxy"] for x in rows if x["g"] < 2} == {True, False}  # rung 0 under the proxy; the last rung's 4 games at full settings
    assert all(not x["proxy"] for x in rows if x["g"] >= 2)
    assert sum(not x["proxy"] for x in rows) == len({x["c"] for x in rows if not x["proxy"]}) * 2 * 4
    res = _cli(["confirm", "--out", str(out), "--games", "2", "--workers", "1"])
    assert "held-out: 2 games" in res.stdout and "random,random: 2 games" in res.stdout
    same_seed = _cli(["confirm", "--out", str(out), "--games", "2", "--seed", "0"], check=False)
    assert same_seed.returncode != 0 and "fresh seeds" in same_seed.stderr
    lineup = tune.held_out_lineup(1000, 3, 3)
    assert lineup == tune.held_out_lineup(1000, 3, 3) and len(lineup) == 3
    for s in lineup:
        entry, options = parse_spec(s)
        for k, v in options.items():
            lo, hi = tune.HELD_OUT[entry.name][k]
            assert lo <= v <= hi


def test_confirmation_of_a_choice_made_by_hand(tmp_path: Path) -> None:
    """``confirm --chosen`` pairs a spec with ``--default`` against ``--league`` and the held-out
    family without a race; ``--out`` is the file. Each row's win is the tournament's own game
    replayed (the held-out opponents drawn again), and a bad spec is refused in one line."""
    out = tmp_path / "hand.jsonl"
    args = ["confirm", "--chosen", "strategic:reserve=300", "--default", "strategic", "--league", "random,random",
            "--games", "2", "--seed", "5", "--workers", "1", "--out", str(out)]
    res = _cli(args)
    assert "confirm: strategic:reserve=300 against strategic, seed 5" in res.stdout and "held-out: 2 games" in res.stdout
    header, rows = _rows(out)
    assert (header["chosen"], header["default"], header["league"], header["seed"]) == ("strategic:reserve=300", "strategic", [["random", "random"]], 5)
    assert sorted((x["who"], x["family"], x["g"]) for x in rows) == sorted((w, f, g) for w in ("chosen", "default") for f in (0, 1) for g in (0, 1))
    for x in rows:
        opponents = ["random", "random"] if x["family"] == 0 else tune.held_out_lineup(5, x["g"], 2)
        spec = header[x["who"]]
        row = play_one([factory(s) for s in [spec, *opponents]], ["cand", "o0", "o1"], 5, x["g"], tune.MAX_ROUNDS)
        assert x["win"] == int(row["winner"] == "cand")
    assert _cli(args + ["--resume"]).stdout == res.stdout  # nothing left to play: the same report
    bad = _cli(["confirm", "--chosen", "strategic:reserv=300", "--out", str(tmp_path / "bad.jsonl")], check=False)
    assert bad.returncode != 0 and "reserv" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "bad.jsonl").exists()
