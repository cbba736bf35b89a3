"""The layering of the packages, and of the rooms inside :mod:`engine`, read from the import statements.

Every ``import`` and ``from ... import`` in ``models/``, ``engine/`` and
``solver/`` counts, at module level or inside a function (a lazy import breaks
the layering as surely as an eager one), except those under ``if
TYPE_CHECKING:`` (never executed; for the circle test only). The rules, stated
in :mod:`engine` and docs/architecture.md:

- ``models <- engine <- solver``: ``models`` imports neither, ``engine`` never
  imports ``solver``;
- inside ``engine``: ``rules <- chains <- sim <- tournament``, each room
  importing only the rooms before it;
- no circle among the modules, counting every import (eager or lazy);
- no module imports an old path of :data:`engine._moved.MOVED`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

from engine._moved import MOVED

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("models", "engine", "solver")
ENGINE_ROOMS = ("rules", "chains", "sim", "tournament")
"""The rooms of ``engine`` in import order: each imports only those before it."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, module: str, typing_only: bool = False) -> Iterator[tuple[str, int, bool]]:
    """(imported module, line, under TYPE_CHECKING) for every import in ``tree``."""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST, typing: bool) -> Iterator[tuple[str, int, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.body:
                    yield from visit_one(sub, True)
                for sub in child.orelse:
                    yield from visit_one(sub, typing)
                continue
            yield from visit_one(child, typing)

    def visit_one(node: ast.AST, typing: bool) -> Iterator[tuple[str, int, bool]]:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno, typing
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield (full if full in MODULES or full in MOVED else base), node.lineno, typing
        yield from visit(node, typing)

    yield from visit(tree, typing_only)


def _edges() -> list[tuple[str, str, int, bool]]:
    out = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for target, line, typing in _imports(tree, module):
            if target.split(".")[0] in PACKAGES:
                out.append((module, target, line, typing))
    return out


EDGES = _edges()


def _room(module: str) -> int | None:
    """Index of ``module``'s room in :data:`ENGINE_ROOMS` (None: the package root)."""
    parts = module.split(".")
    if parts[0] != "engine" or len(parts) < 2 or parts[1] not in ENGINE_ROOMS:
        return None
    return ENGINE_ROOMS.index(parts[1])


def test_the_scan_sees_the_imports() -> None:
    # The scan itself: known edges, a lazy one and a relative form included.
    pairs = {(a, b) for a, b, _, _ in EDGES}
    assert ("engine.rules.money", "engine.rules.legal") in pairs
    assert ("engine.sim.rollout", "engine.sim._kernel") in pairs
    assert ("solver.decide", "engine.sim.rollout") in pairs
    assert len(MODULES) > 100
    tree = ast.parse("def f():\n    from engine.chains import markov\nif TYPE_CHECKING:\n    import solver.api\n")
    MODULES.setdefault("engine.rules._probe", ROOT / "engine" / "rules" / "_probe.py")
    try:
        found = list(_imports(tree, "engine.rules._probe"))
    finally:
        del MODULES["engine.rules._probe"]
    assert found == [("engine.chains.markov", 2, False), ("solver.api", 4, True)]


@pytest.mark.parametrize(("low", "high"), [("models", "engine"), ("models", "solver"), ("engine", "solver")])
def test_packages_import_one_way(low: str, high: str) -> None:
    bad = [(a, b, line) for a, b, line, _ in EDGES if a.split(".")[0] == low and b.split(".")[0] == high]
    assert not bad, f"{low} must not import {high}: {bad}"


def test_engine_rooms_import_in_order() -> None:
    bad = []
    for a, b, line, _ in EDGES:
        ra, rb = _room(a), _room(b)
        if b.split(".")[0] != "engine":
            continue
        if ra is not None and rb is not None and rb > ra:
            bad.append((a, b, line))
        if ra is not None and rb is None and b not in ("engine",):
            bad.append((a, b, line))  # a room importing the package root's private modules
    assert not bad, f"engine's rooms import only the rooms before them ({' <- '.join(ENGINE_ROOMS)}): {bad}"


def test_every_engine_module_is_in_a_room() -> None:
    loose = [m for m in MODULES if m.startswith("engine.") and _room(m) is None and m != "engine._moved"]
    assert not loose, f"engine modules outside {ENGINE_ROOMS}: {loose}"


def test_no_old_paths() -> None:
    bad = [(a, b, line) for a, b, line, _ in EDGES if b in MOVED or any(b.startswith(old + ".") for old in MOVED)]
    assert not bad, f"imports of paths that moved (engine._moved.MOVED): {bad}"


def test_no_import_circle() -> None:
    graph = nx.DiGraph()
    for a, b, _, typing in EDGES:
        if not typing and a != b:
            target = b if b in MODULES else b.rpartition(".")[0] if b.rpartition(".")[0] in MODULES else b
            graph.add_edge(a, target)
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, f"import circles: {sorted(cycles, key=len)[:5]}"
