"""The examples in the docstrings run, as doctests, from the repository's root.

Every module of ``models``, ``engine`` and ``solver`` that has an example
(``>>>``) is collected; each docstring's examples run in a fresh namespace with
the working directory at the repository's root, so examples name the bundled
instances as ``instances/....json``. Numbers are printed rounded in the
examples (``round(x, 3)``, ``f"{x:.3f}"``), so they are exact.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("models", "engine", "solver")


def _modules() -> list[str]:
    out = []
    for pkg in PACKAGES:
        mod = importlib.import_module(pkg)
        out.append(pkg)
        for info in pkgutil.walk_packages(mod.__path__, pkg + "."):
            if not info.name.endswith("__main__") and info.name != "engine._moved":
                out.append(info.name)
    return out


def _tests() -> list[tuple[str, str]]:
    found = []
    finder = doctest.DocTestFinder(exclude_empty=True)
    for name in _modules():
        path = ROOT / (name.replace(".", "/") + ".py")
        if not path.exists():
            path = ROOT / name.replace(".", "/") / "__init__.py"
        if ">>>" not in path.read_text(encoding="utf-8"):
            continue
        try:
            mod = importlib.import_module(name)
        except ImportError:  # an optional extra not installed
            continue
        for test in finder.find(mod, name):
            if test.examples:
                found.append((name, test.name))
    return found


TESTS = _tests()


def test_there_are_examples() -> None:
    assert len(TESTS) >= 5


@pytest.mark.parametrize(("module", "name"), TESTS, ids=[t[1] for t in TESTS])
def test_docstring_examples(module: str, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    mod = importlib.import_module(module)
    finder = doctest.DocTestFinder(exclude_empty=True)
    (test,) = [t for t in finder.find(mod, module) if t.name == name]
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
