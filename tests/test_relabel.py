"""``bench/relabel.py`` does what the relabel of session 30 did by hand.

When ``answer_sets`` became ``own`` (session 30), the kept runs and the commands naming them were
relabelled ``answer_sets=any`` by throwaway scripts (commit 48797e2 against 67b6049). The fixture
``tests/data/relabel-session-30.json`` holds, from those two commits, a few lines of one kept file
of each kind (results of a tournament and of the adversary, a screen, an agreement file, a tuning
race, its chosen spec and its confirmation) before and after, and every command of
docs/benchmarks.md that the relabel changed, before and after. The tool must give the same text
(a second method against the first: the commit's), and a second relabel must change nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import relabel  # noqa: E402

FIXTURE = json.loads((ROOT / "tests" / "data" / "relabel-session-30.json").read_text(encoding="utf-8"))
WAS = relabel.parse_was(FIXTURE["was"])
AFTER = FIXTURE["after"]


@pytest.mark.parametrize("item", FIXTURE["files"], ids=lambda f: f["name"])
def test_run_files_are_relabelled_as_in_session_30(item: dict) -> None:
    new = relabel.relabel_text(item["before"], WAS, AFTER)
    assert new == item["after"] and new != item["before"]
    assert relabel.relabel_text(new, WAS, AFTER) == new  # a second relabel changes nothing


def test_commands_are_relabelled_as_in_session_30() -> None:
    assert len(FIXTURE["commands"]) == 52
    for pair in FIXTURE["commands"]:
        assert relabel.relabel_command(pair["before"], WAS, AFTER) == pair["after"]
        assert relabel.relabel_command(pair["after"], WAS, AFTER) == pair["after"]


def test_the_command_line_rewrites_files_and_docs_in_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = []
    for item in FIXTURE["files"]:
        path = tmp_path / item["name"]
        path.write_text(item["before"], encoding="utf-8")
        files.append(path)
    untouched = tmp_path / "strategic-only.jsonl"
    untouched.write_text('{"agents": ["strategic", "value"]}\n', encoding="utf-8")
    doc = tmp_path / "doc.md"
    names = {i["name"] for i in FIXTURE["files"]}
    mine = [p for p in FIXTURE["commands"] if any(f"bench/runs/{n}" in p["before"] for n in names)]
    assert mine  # some of the commands name the fixture's files
    doc.write_text("\n\n".join(p["before"] for p in mine) + "\n", encoding="utf-8")
    args = [str(p) for p in [*files, untouched]] + ["--was", FIXTURE["was"], "--after", AFTER, "--docs", str(doc)]
    assert relabel.main([*args, "--dry-run"]) == 0
    assert [p.read_text(encoding="utf-8") for p in files] == [i["before"] for i in FIXTURE["files"]]
    assert relabel.main(args) == 0
    out = capsys.readouterr().out
    assert [p.read_text(encoding="utf-8") for p in files] == [i["after"] for i in FIXTURE["files"]]
    assert doc.read_text(encoding="utf-8") == "\n\n".join(p["after"] for p in mine) + "\n"
    assert "strategic-only" not in out and f"{doc}: commands at lines" in out
    assert not list(tmp_path.glob(".*.tmp"))  # written through temporary files, none left
    relabel.main(args)
    assert "relabelled" not in capsys.readouterr().out  # nothing left to relabel


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--was", "answer_set=any"], "'answer_set' is not an option of subgraph"),
        (["--was", "answer_sets"], "'answer_sets' is not key=value"),
        (["--was", "answer_sets=any", "--after", "strategic"], "'strategic' is not a subgraph spec"),
        (["--was", "answer_sets=any", "notes.txt"], "not a .jsonl or .json run file"),
        (["--was", "answer_sets=any", "missing.jsonl"], "not a file of at most"),
    ],
)
def test_bad_arguments_exit_with_one_line(argv: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as err:
        relabel.main(argv)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_relabel_that_breaks_json_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "odd.jsonl"
    text = '{"agents": ["subgraph"]}\n{"note": "subgraph" "subgraph"}\n'
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit, match="line 2 is not JSON"):
        relabel.main([str(path), "--was", "answer_sets=any"])
    assert path.read_text(encoding="utf-8") == text


def test_the_examples_run() -> None:
    import doctest

    result = doctest.testmod(relabel, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0
