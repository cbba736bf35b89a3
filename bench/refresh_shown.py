"""Rewrite the output a document shows under a command with what the command prints now.

    python bench/refresh_shown.py DOC:LINE [DOC:LINE ...]

``DOC:LINE`` is an id of ``tests/test_shown_commands.py`` (``README.md:95``).
Only shell commands (``$`` lines): the lines after the command, up to the
next ``$`` line or the block's end, are replaced. Read the change before
committing it: the test then checks the document against the code.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_shown_commands import shown  # noqa: E402


def main(ids: list[str]) -> int:
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    env.pop("COLUMNS", None)
    for ident in ids:
        doc, line = ident.rsplit(":", 1)
        path = ROOT / doc
        item = next(s for s in shown(path) if s.line == int(line))
        if item.kind != "shell":
            print(f"{ident}: not a shell command, skipped")
            continue
        done = subprocess.run(["bash", "-c", item.code], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        lines = path.read_text(encoding="utf-8").splitlines()
        start = item.line  # the output starts on the line after the command (1-based line numbers)
        end = start + len(item.output)
        lines[start:end] = done.stdout.rstrip("\n").splitlines()
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{ident}: {len(item.output)} -> {len(done.stdout.rstrip().splitlines())} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
