"""Every reference in the documents and docstrings points at something that exists.

- Markdown links between the repository's files (README.md, CHANGELOG.md,
  docs/, instances/README.md): the file exists and, for ``#anchor``, a heading
  of that file has that anchor (GitHub's rule: lower case, punctuation but
  ``-`` and ``_`` dropped, spaces to ``-``). No link leaves the repository
  (``../`` above its root) and none names ``shared/``.
- Paths in backticks in those documents (``engine/rules/game.py``,
  ``bench/solve.py``, ``instances/opening.json``): the file or folder exists
  (but a run's output under ``bench/out/``, and placeholders in capitals).
- Dotted names of the project in backticks (``engine.sim.rollout.simulate``)
  and the targets of Sphinx roles in docstrings (``:mod:`engine.chains.markov```,
  ``:func:`...```, ``:class:`...```, ``:meth:`...```, ``:data:`...```):
  the module imports and the attribute exists. Old paths of
  :data:`engine._moved.MOVED` are refused, so the documents name where
  things are now. CHANGELOG.md is left out of these two checks: it names
  what moved or went, where it was.
"""

from __future__ import annotations

import ast
import importlib
import re
import warnings
from functools import cache
from pathlib import Path

import pytest

from engine._moved import MOVED

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", ROOT / "instances" / "README.md", *(ROOT / "docs").glob("*.md")] + ([ROOT / "CHANGELOG.md"] if (ROOT / "CHANGELOG.md").exists() else []))
PACKAGES = ("models", "engine", "solver")
SOURCES = sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))

_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_TICKED = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(r"^(?:models|engine|solver|bench|tests|instances|examples|docs|\.ci)/[\w./*-]*$")
_DOTTED = re.compile(r"^(?:models|engine|solver)(?:\.[A-Za-z_]\w*)+$")
_ROLE = re.compile(r":(?:mod|func|class|meth|data|attr|exc|obj):`~?((?:models|engine|solver)(?:\.\w+)+)`")


def _slug(heading: str) -> str:
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        slug = _slug(line.lstrip("#"))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def _prose(path: Path) -> str:
    """The document without its fenced code blocks (shown output may name anything)."""
    out, in_code = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if not in_code:
            out.append(line)
    return "\n".join(out)


@cache
def _resolves(name: str) -> bool:
    """Whether ``name`` is an importable module or an attribute chain of one."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", DeprecationWarning)
                obj: object = importlib.import_module(module)
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                # a dataclass field or an instance attribute set in __init__: read the class's source
                return isinstance(obj, type) and _names_attribute(obj, attr)
            obj = getattr(obj, attr)
        return True
    return False


def _names_attribute(cls: type, attr: str) -> bool:
    annotations: dict[str, object] = {}
    for base in cls.__mro__:
        annotations.update(getattr(base, "__annotations__", {}))
    if attr in annotations:
        return True
    import inspect

    try:
        return f"self.{attr}" in inspect.getsource(cls)
    except (OSError, TypeError):
        return False


def _old(name: str) -> str | None:
    for old in MOVED:
        if name == old or name.startswith(old + "."):
            return old
    return None


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve(doc: Path) -> None:
    bad = []
    for target in _LINK.findall(_prose(doc)):
        if re.match(r"^[a-z]+:", target):
            continue  # an address outside, e.g. https:
        file, _, anchor = target.partition("#")
        dest = (doc.parent / file).resolve() if file else doc
        if ROOT not in dest.parents and dest != ROOT or "shared/" in target:
            bad.append(f"{target}: outside the repository")
        elif not dest.exists():
            bad.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            bad.append(f"{target}: no heading with that anchor")
    assert not bad, bad


@pytest.mark.parametrize("doc", [d for d in DOCS if d.name != "CHANGELOG.md"], ids=lambda p: str(p.relative_to(ROOT)))
def test_ticked_paths_and_names_exist(doc: Path) -> None:
    # CHANGELOG.md is left out: it names what moved or went, at its old place.
    bad = []
    for ticked in _TICKED.findall(_prose(doc)):
        for word in ticked.replace(",", " ").split():
            word = word.rstrip(".:;)").lstrip("(")
            if _PATH.match(word):
                if word.startswith("bench/out/") or re.search(r"[A-Z]{2,}", word):
                    continue  # a run's output (not committed), or a placeholder (output-NAME.schema.json)
                if not (list(ROOT.glob(word)) if "*" in word else (ROOT / word).exists()):
                    bad.append(f"{word}: no such path")
            elif _DOTTED.match(word.split("(")[0]):
                name = word.split("(")[0]
                old = _old(name)
                if old:
                    bad.append(f"{name}: an old path (now {MOVED[old]})")
                elif not _resolves(name):
                    bad.append(f"{name}: does not resolve")
    assert not bad, bad


def _docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out.append(node.value.value)
    return out


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_docstring_roles_resolve(source: Path) -> None:
    bad = []
    for text in _docstrings(source):
        for name in _ROLE.findall(text):
            if _old(name):
                bad.append(f"{name}: an old path")
            elif not _resolves(name):
                bad.append(f"{name}: does not resolve")
    assert not bad, bad


def test_the_checks_can_fail(tmp_path: Path) -> None:
    assert _resolves("engine.sim.rollout.simulate") and _resolves("models.state.GameState.players")
    assert not _resolves("engine.sim.rollout.no_such_name") and not _resolves("engine.no_such_room")
    assert _old("engine.game.Game") == "engine.game" and _old("engine.rules.game.Game") is None
    doc = tmp_path / "x.md"
    doc.write_text("# Tournaments (`engine/tournament/`)\n\n```\n# not a heading\n```\n", encoding="utf-8")
    assert _anchors(doc) == {"tournaments-enginetournament"}
    assert "not a heading" not in _prose(doc)
