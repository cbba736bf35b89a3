"""Relabel the kept runs when a default of ``subgraph`` changes (docs/benchmarks.md, "Runs kept in the repository").

    python bench/relabel.py --was answer_sets=any [--after subgraph:tiebreak=worth,answer_check=off] [--docs docs/benchmarks.md] [--dry-run] bench/runs/*.jsonl bench/runs/*.json

A kept run names its agents by registry spec (``subgraph``, ``subgraph:hold=false``, and the
``adversary``'s ``target=subgraph/...``), and its games replay under that name
(``tests/test_bench_runs.py``). When a default changes, a spec that did not set the option now
names other play; its games are still the old default's. ``--was`` gives the options that
changed with their *old* values (``key=value``, ``,``-separated): every ``subgraph`` spec in the
files that does not set one of them gets it, so the name again says what was played. The new
option goes after ``--after`` (a spec prefix, so that a tuning race's configurations stay its base
and then its drawn options) when the spec starts with it, else at the end; a bare ``subgraph``
becomes ``subgraph:key=value``; in an ``adversary`` target the options are ``/``-separated.

Where the specs are. In a run file, every JSON string that is a whole ``subgraph`` spec or an
``adversary`` spec with a ``subgraph`` target: results headers and rows (agents, seats, winners),
a screen's variants, a tuning race's configurations and chosen spec. The rewrite is textual (each
file keeps its formatting and key order) and every line of a ``.jsonl`` file (the whole of a
``.json`` file) must parse after it. With ``--docs``, the commands in each named document that
mention a relabelled file get the same rewrite of their specs (``--agent``, ``--agents``,
``--base-agent``, ``--target``, ``--variants "..."``, a ``V="..."`` line used by the commands after
it, and the rows of a table of runs that start with the file's name): a shown command's output
still has to be refreshed (``bench/refresh_shown.py``), since the outputs name the agents too.

Files are written through a temporary file and renamed; ``--dry-run`` only prints what would
change. An option already set in a spec is left alone, so running the same relabel twice changes
nothing the second time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.agents.registry import split_agents  # noqa: E402
from solver.decisions.settings import AgentSettings  # noqa: E402

MAX_FILE_BYTES = 200_000_000
"""The largest file relabelled (a kept run is a few megabytes)."""

_SPEC = re.compile(r'"((?:subgraph(?::[^"]*)?)|(?:adversary:[^"]*target=subgraph[^"]*))"')
_CMD_START = re.compile(r"^\s*(\$ |python |monopoly-trade |V=\"|\| `bench/runs/)")


def parse_was(text: str) -> list[tuple[str, str]]:
    """The ``--was`` options: ``key=value`` pairs, each key an option of ``subgraph``.

    Parameters
    ----------
    text : str
        ``key=value[,key=value...]``.

    Returns
    -------
    list of (str, str)
        The pairs, in order.

    Examples
    --------
    >>> parse_was("answer_sets=any,check_z=1.645")
    [('answer_sets', 'any'), ('check_z', '1.645')]
    >>> parse_was("answer_set=any")
    Traceback (most recent call last):
    ...
    SystemExit: --was: 'answer_set' is not an option of subgraph
    """
    out = []
    for part in text.split(","):
        key, eq, value = part.strip().partition("=")
        if not eq or not value:
            raise SystemExit(f"--was: {part!r} is not key=value")
        if key not in AgentSettings.__dataclass_fields__:
            raise SystemExit(f"--was: {key!r} is not an option of subgraph")
        out.append((key, value))
    if not out:
        raise SystemExit("--was: at least one key=value")
    return out


def _keys(options: str, sep: str) -> set[str]:
    return {o.partition("=")[0] for o in options.split(sep) if o}


def relabel_spec(spec: str, was: list[tuple[str, str]], after: str | None = None, sep: str = ",") -> str:
    """A ``subgraph`` spec with every ``was`` option it does not set added (module docstring).

    Parameters
    ----------
    spec : str
        ``subgraph`` or ``subgraph:...``; any other spec is returned unchanged.
    was : list of (str, str)
        The options and their old values.
    after : str or None
        The prefix after which the options go, when ``spec`` starts with it.
    sep : str
        The options' separator (``/`` inside an ``adversary`` target).

    Returns
    -------
    str
        The spec relabelled.

    Examples
    --------
    >>> was = [("answer_sets", "any")]
    >>> relabel_spec("subgraph", was), relabel_spec("subgraph:hold=false", was), relabel_spec("subgraph:answer_sets=own", was)
    ('subgraph:answer_sets=any', 'subgraph:hold=false,answer_sets=any', 'subgraph:answer_sets=own')
    >>> relabel_spec("subgraph:tiebreak=worth,answer_check=off,deny=0", was, after="subgraph:tiebreak=worth,answer_check=off")
    'subgraph:tiebreak=worth,answer_check=off,answer_sets=any,deny=0'
    >>> relabel_spec("strategic", was)
    'strategic'
    """
    if spec != "subgraph" and not spec.startswith("subgraph:"):
        return spec
    options = spec.partition(":")[2]
    have = _keys(options, sep)
    add = sep.join(f"{k}={v}" for k, v in was if k not in have)
    if not add:
        return spec
    if not options:
        return f"subgraph:{add}"
    if after and sep == "," and spec.startswith(after) and (len(spec) == len(after) or spec[len(after)] == ","):
        return after + "," + add + spec[len(after) :]
    return spec + sep + add


def relabel_agent(spec: str, was: list[tuple[str, str]], after: str | None = None) -> str:
    """One agent spec relabelled: a ``subgraph`` spec, or an ``adversary`` whose ``target`` is one.

    Parameters
    ----------
    spec : str
        Any registry spec.
    was : list of (str, str)
        The options and their old values.
    after : str or None
        As :func:`relabel_spec`.

    Returns
    -------
    str
        The spec relabelled (others unchanged).

    Examples
    --------
    >>> relabel_agent("adversary:record=true,target=subgraph", [("answer_sets", "any")])
    'adversary:record=true,target=subgraph:answer_sets=any'
    >>> relabel_agent("adversary:target=subgraph:hold=false/deny=0", [("answer_sets", "any")])
    'adversary:target=subgraph:hold=false/deny=0/answer_sets=any'
    """
    if spec.startswith("adversary:"):
        head, _, target = spec.partition("target=")
        tail = ""
        if "," in target:  # an option after the target
            target, comma, rest = target.partition(",")
            tail = comma + rest
        return head + "target=" + relabel_spec(target, was, None, "/") + tail
    return relabel_spec(spec, was, after)


def relabel_text(text: str, was: list[tuple[str, str]], after: str | None = None) -> str:
    """A run file's text with every spec in a JSON string relabelled.

    Parameters
    ----------
    text : str
        The file's text.
    was : list of (str, str)
        The options and their old values.
    after : str or None
        As :func:`relabel_spec`.

    Returns
    -------
    str
        The text relabelled.

    Examples
    --------
    >>> relabel_text('{"agents": ["subgraph", "strategic"], "winner": "subgraph"}', [("answer_sets", "any")])
    '{"agents": ["subgraph:answer_sets=any", "strategic"], "winner": "subgraph:answer_sets=any"}'
    """
    return _SPEC.sub(lambda m: '"' + relabel_agent(m.group(1), was, after) + '"', text)


def relabel_command(text: str, was: list[tuple[str, str]], after: str | None = None) -> str:
    """A shell command's (or a table row's) specs relabelled (module docstring).

    Parameters
    ----------
    text : str
        The command, its continuation lines joined by newlines.
    was : list of (str, str)
        The options and their old values.
    after : str or None
        As :func:`relabel_spec`.

    Returns
    -------
    str
        The command relabelled.

    Examples
    --------
    >>> relabel_command("monopoly-trade tournament --agents subgraph:hold=false,deny=0,strategic --out x", [("answer_sets", "any")])
    'monopoly-trade tournament --agents subgraph:hold=false,deny=0,answer_sets=any,strategic --out x'
    >>> relabel_command('python bench/answer_screen.py run --variants "subgraph;subgraph:deny=0"', [("answer_sets", "any")])
    'python bench/answer_screen.py run --variants "subgraph:answer_sets=any;subgraph:deny=0,answer_sets=any"'
    """

    def one(x: str) -> str:
        return relabel_agent(x, was, after)

    def variants(s: str) -> str:
        return ";".join(a if a.startswith("$") else one(a) for a in s.split(";"))

    text = re.sub(r"(--(?:agent|base-agent|target) )([^\s`\"]+)", lambda m: m.group(1) + one(m.group(2)), text)
    text = re.sub(r"(--agents )([^\s`\"]+)", lambda m: m.group(1) + ",".join(one(a) for a in split_agents(m.group(2))), text)
    text = re.sub(r'(--variants ")([^"]*)(")', lambda m: m.group(1) + variants(m.group(2)) + m.group(3), text)
    text = re.sub(r'^(V=")([^"]*)(")', lambda m: m.group(1) + variants(m.group(2)) + m.group(3), text)
    return text


def relabel_doc(text: str, names: list[str], was: list[tuple[str, str]], after: str | None = None) -> tuple[str, list[int]]:
    """A document's commands that mention one of the files ``names`` (``bench/runs/NAME``), relabelled.

    Parameters
    ----------
    text : str
        The document.
    names : list of str
        The relabelled run files' names.
    was : list of (str, str)
        The options and their old values.
    after : str or None
        As :func:`relabel_spec`.

    Returns
    -------
    tuple of (str, list of int)
        The document relabelled, and the first line number of each command changed.

    Examples
    --------
    >>> doc = "python x.py --agent subgraph --out bench/runs/a.jsonl\\npython x.py --agent subgraph --out bench/runs/b.jsonl"
    >>> relabel_doc(doc, ["a.jsonl"], [("answer_sets", "any")])
    ('python x.py --agent subgraph:answer_sets=any --out bench/runs/a.jsonl\\npython x.py --agent subgraph --out bench/runs/b.jsonl', [1])
    """
    lines = text.split("\n")
    out: list[str] = []
    changed: list[int] = []
    i = 0
    while i < len(lines):
        j = i
        while lines[j].endswith("\\") and j + 1 < len(lines):
            j += 1
        joined = "\n".join(lines[i : j + 1])
        scope = "\n".join(lines[j + 1 : j + 8]) if lines[i].startswith('V="') else joined  # a V= line serves the commands after it
        touches = any(f"bench/runs/{n}" in scope for n in names)
        if touches and _CMD_START.match(lines[i]):
            new = relabel_command(joined, was, after)
            if new != joined:
                changed.append(i + 1)
            out += new.split("\n")
        else:
            out += lines[i : j + 1]
        i = j + 1
    return "\n".join(out), changed


def _check_json(path: Path, text: str) -> None:
    """Exits naming the file and line when the relabelled text is no longer JSON (per line for ``.jsonl``)."""
    chunks = text.splitlines() if path.suffix == ".jsonl" else [text]
    for n, chunk in enumerate(chunks, 1):
        if chunk.strip():
            try:
                json.loads(chunk)
            except json.JSONDecodeError as err:
                raise SystemExit(f"{path}: line {n} is not JSON after the relabel ({err.msg})") from None


def _write(path: Path, text: str) -> None:
    """Writes ``text`` through a temporary file in the same folder, then renames it."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Relabel the kept runs when a default of subgraph changes.")
    ap.add_argument("files", nargs="*", help="run files (.jsonl, .json)")
    ap.add_argument("--was", required=True, help="the changed options with their old values: key=value[,key=value...]")
    ap.add_argument("--after", default=None, help="a spec prefix after which the options go")
    ap.add_argument("--docs", action="append", default=[], help="a document whose commands naming a relabelled file are rewritten; repeatable")
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args(argv)
    was = parse_was(args.was)
    if args.after is not None and args.after != "subgraph" and not args.after.startswith("subgraph:"):
        raise SystemExit(f"--after: {args.after!r} is not a subgraph spec")
    names: list[str] = []
    pending: list[tuple[Path, str]] = []
    for name in args.files:
        path = Path(name)
        if path.suffix not in (".jsonl", ".json"):
            raise SystemExit(f"{path}: not a .jsonl or .json run file")
        if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            raise SystemExit(f"{path}: not a file of at most {MAX_FILE_BYTES} bytes")
        old = path.read_text(encoding="utf-8")
        new = relabel_text(old, was, args.after)
        if new != old:
            _check_json(path, new)
            pending.append((path, new))
            names.append(path.name)
    docs: list[tuple[Path, str, list[int]]] = []
    for name in args.docs:
        path = Path(name)
        if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            raise SystemExit(f"--docs: {path}: not a file of at most {MAX_FILE_BYTES} bytes")
        new, lines = relabel_doc(path.read_text(encoding="utf-8"), names, was, args.after)
        if lines:
            docs.append((path, new, lines))
    for path, new in pending:
        if not args.dry_run:
            _write(path, new)
        print(f"relabelled {path}")
    for path, new, lines in docs:
        if not args.dry_run:
            _write(path, new)
        print(f"{path}: commands at lines {', '.join(map(str, lines))}")
    if args.dry_run:
        print("(dry run: nothing written)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
