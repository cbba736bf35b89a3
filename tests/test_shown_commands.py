"""Every command and program the documents show runs, and prints what they show.

In ``README.md``, ``instances/README.md`` and ``docs/*.md``:

- a fenced block holding ``$ COMMAND`` lines: each command runs in a shell
  (``bash``, so a ``| head -5`` or an ``echo ... |`` works) at the repository's
  root, with this interpreter's ``bin`` first on ``PATH`` (``monopoly-trade``
  and ``python`` are the installed ones); what it prints, standard output and
  standard error together, must be the lines that follow it in the block, up
  to the next ``$`` line or the block's end;
- a ``python`` block followed, after blank lines only, by a plain block: the
  program runs (``python -c``, same root and ``PATH``) and must print that block.

Durations are the one thing a run cannot repeat: a number of seconds
(``0.7 s``, ``(1 s)``) is compared as ``<t> s`` on both sides. Everything else
is compared exactly, so a change of output shows here and the document is
updated with it (``docs/tests.md``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", ROOT / "instances" / "README.md", *(ROOT / "docs").glob("*.md")])
_SECONDS = re.compile(r"\b\d+(?:\.\d+)? s\b")


@dataclass(frozen=True)
class Shown:
    """One command (or program) and the output its document shows."""

    doc: str
    line: int
    kind: str  # "shell" or "python"
    code: str
    output: tuple[str, ...]


def _blocks(path: Path) -> list[tuple[int, str, list[str], int]]:
    """(first line number, info string, lines, line after the block) of every fenced block."""
    out = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            info, start, body = lines[i][3:].strip(), i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append((start + 1, info, body, i + 1))
        i += 1
    return out


def shown(path: Path, root: Path = ROOT) -> list[Shown]:
    """Every shown command and program of ``path`` (under ``root``) with the output shown for it."""
    name = str(path.relative_to(root))
    found: list[Shown] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = _blocks(path)
    for k, (start, info, body, after) in enumerate(blocks):
        if info == "python" and k + 1 < len(blocks):
            nxt_start, nxt_info, nxt_body, _ = blocks[k + 1]
            between = lines[after : nxt_start - 2]
            if nxt_info == "" and all(not x.strip() for x in between):
                found.append(Shown(name, start, "python", "\n".join(body), tuple(nxt_body)))
            continue
        command: tuple[int, str] | None = None
        output: list[str] = []
        for j, line in enumerate(body):
            if line.startswith("$ "):
                if command is not None:
                    found.append(Shown(name, command[0], "shell", command[1], tuple(output)))
                command, output = (start + j, line[2:]), []
            elif command is not None:
                output.append(line)
        if command is not None:
            found.append(Shown(name, command[0], "shell", command[1], tuple(output)))
    return found


SHOWN = [s for doc in DOCS for s in shown(doc)]


def _normal(lines: list[str] | tuple[str, ...]) -> list[str]:
    return [_SECONDS.sub("<t> s", x.rstrip()) for x in lines]


def test_the_documents_show_commands() -> None:
    kinds = {s.kind for s in SHOWN}
    assert len(SHOWN) >= 15 and kinds == {"shell", "python"}


@pytest.mark.parametrize("item", SHOWN, ids=[f"{s.doc}:{s.line}" for s in SHOWN])
def test_shown_output_is_what_runs_print(item: Shown) -> None:
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    env.pop("COLUMNS", None)
    if item.kind == "shell":
        cmd = ["bash", "-c", item.code]
    else:
        cmd = [sys.executable, "-c", item.code]
    done = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    got = _normal(done.stdout.rstrip("\n").splitlines())
    assert got == _normal(item.output), f"{item.doc}:{item.line}: {item.code}\n--- printed:\n" + "\n".join(got)


def test_the_extraction_pairs_commands_with_their_output(tmp_path: Path) -> None:
    doc = tmp_path / "x.md"
    doc.write_text(
        "```\n$ echo a\na\n$ echo b\nb\n```\n\n```python\nprint(1)\n```\n\n```\n1\n```\n\n```sh\nno dollar\n```\n",
        encoding="utf-8",
    )
    got = [(s.kind, s.code, s.output) for s in shown(doc, tmp_path)]
    assert got == [("shell", "echo a", ("a",)), ("shell", "echo b", ("b",)), ("python", "print(1)", ("1",))]
    assert _normal(["took 0.7 s", "(12 s)"]) == ["took <t> s", "(<t> s)"]

