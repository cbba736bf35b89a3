"""One error family: every error the packages raise on purpose derives from ``MonopolyError``.

Two checks, over every module of ``models``, ``engine`` and ``solver``:

- every ``raise`` names a class of the family, never a built-in exception
  (``ValueError``, ``RuntimeError``, ``KeyError``, ...), with these exceptions,
  each part of a protocol that fixes the class: ``NotImplementedError`` (an
  abstract method), ``SystemExit`` (the process's exit status),
  ``AttributeError`` in a module's ``__getattr__``, ``StopIteration``, a bare
  ``raise`` (re-raising what was caught), and the MCP SDK's ``ToolError`` (the
  protocol's way to report a tool's failure);
- every exception class the packages define derives from
  :class:`models.errors.MonopolyError`, but for the private control-flow
  signals listed in :data:`SIGNALS` (never seen by a caller).
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

from models.errors import MonopolyError

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("models", "engine", "solver")
SOURCES = sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))
BUILTIN_ERRORS = {n for n in dir(builtins) if isinstance(getattr(builtins, n), type) and issubclass(getattr(builtins, n), BaseException)}
ALLOWED = {"NotImplementedError", "SystemExit", "StopIteration", "ToolError"}
SIGNALS = {
    "solver.rl.engine_thread._Abort": "ends the engine's game loop from inside an agent call when the episode is closed",
    "solver.rl.engine_thread._NoLearnerLeft": "ends the game loop when every learner seat is out",
}
"""Private ``BaseException`` subclasses used for control flow, and why."""


def _raised_name(node: ast.Raise) -> str | None:
    exc = node.exc
    if exc is None:
        return None
    if isinstance(exc, ast.Call):
        exc = exc.func
    if isinstance(exc, ast.Name):
        return exc.id
    if isinstance(exc, ast.Attribute):
        return exc.attr
    return None


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []

    def walk(node: ast.AST, func: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            f = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else func
            if isinstance(child, ast.Raise):
                name = _raised_name(child)
                if name in BUILTIN_ERRORS and name not in ALLOWED and not (name == "AttributeError" and func == "__getattr__"):
                    out.append(f"{path.relative_to(ROOT)}:{child.lineno}: raise {name}")
            walk(child, f)

    walk(tree, None)
    return out


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_raises_name_the_family(source: Path) -> None:
    bad = _violations(source)
    assert not bad, f"raise a MonopolyError subclass (models.errors) instead: {bad}"


def _modules() -> list[str]:
    out = []
    for pkg in PACKAGES:
        mod = importlib.import_module(pkg)
        out.append(pkg)
        for info in pkgutil.walk_packages(mod.__path__, pkg + "."):
            if not info.name.endswith("__main__") and info.name != "engine._moved":
                out.append(info.name)
    return out


def test_every_exception_class_is_in_the_family() -> None:
    bad = []
    for name in _modules():
        try:
            mod = importlib.import_module(name)
        except ImportError:  # an optional extra not installed (the rl or mcp faces)
            continue
        for _, cls in inspect.getmembers(mod, inspect.isclass):
            qual = f"{cls.__module__}.{cls.__qualname__}"
            if cls.__module__ != name or not issubclass(cls, BaseException):
                continue
            if not issubclass(cls, MonopolyError) and qual not in SIGNALS:
                bad.append(qual)
    assert not bad, f"exception classes outside MonopolyError: {bad}"


def test_the_scan_sees_a_builtin_raise(tmp_path: Path) -> None:
    f = ROOT / "engine" / "rules" / "_probe_errors.py"
    try:
        f.write_text("def g():\n    raise ValueError('x')\n\ndef __getattr__(n):\n    raise AttributeError(n)\n")
        assert _violations(f) == ["engine/rules/_probe_errors.py:2: raise ValueError"]
    finally:
        f.unlink()
