"""The public API is documented: numpydoc sections on every public name of the listed modules.

The public API is :data:`PUBLIC_MODULES` (docs/architecture.md#the-public-api
says the same): for each, the names in its ``__all__``, or, without one, the
public names it defines (not those it imports). For each:

- a function: a summary line; ``Parameters`` when it takes any (every one
  named); ``Returns`` (or ``Yields``) unless it returns ``None``; ``Raises``
  when its own body raises; ``Examples`` with at least one ``>>>`` (they run
  in ``tests/test_doctests.py``);
- a class: a summary, ``Examples``, and ``Parameters`` or ``Attributes``
  when it is built with arguments; each public method and property a
  docstring, with ``Parameters``/``Returns``/``Raises`` as for a function
  (a method's ``Examples`` are optional: the class's show it in use);
- a constant: nothing here (its docstring follows it in the source).

``mypy --strict --follow-imports=silent`` checks the same modules' files and
all of ``models/`` (``.ci/run``: ``python tests/test_public_api.py --files``
prints the list).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

PUBLIC_MODULES = (
    # models: all of it
    "models", "models.board", "models.rules", "models.rules_file", "models.state", "models.trade",
    "models.io", "models.limits", "models.files", "models.errors", "models.checks",
    # engine: the rules engine and the agent protocol, the chains, the simulation, tournaments
    "engine.rules.game", "engine.rules.protocol", "engine.rules.agents", "engine.rules.view",
    "engine.rules.actions", "engine.rules.legal", "engine.rules.streams", "engine.rules.seeding",
    "engine.chains.dice", "engine.chains.markov", "engine.chains.ept", "engine.chains.bankruptcy",
    "engine.chains.state_risk", "engine.chains.state_moves", "engine.sim.rollout", "engine.sim.trace", "engine.sim.rollout_policy", "engine.sim.win_model",
    "engine.tournament",
    # solver: the library entry point, the decision, the agents, the analysis, trades, bidding
    "solver", "solver.api", "solver.decide", "solver.evaluate", "solver.schemas",
    "solver.agents.registry", "solver.agents.subgraph_agent", "solver.agents.strategic", "solver.agents.value_agent",
    "solver.agents.adversary",
    "solver.analysis.subgraph", "solver.analysis.frontier", "solver.analysis.position", "solver.analysis.reserve",
    "solver.analysis.valuation", "solver.analysis.funded_build",
    "solver.trades.cpsat", "solver.trades.cpsat_model", "solver.trades.rescore", "solver.trades.bargaining", "solver.trades.selection",
    "solver.bidding.graph", "solver.bidding.richman", "solver.bidding.poorman", "solver.bidding.auction",
    "solver.bidding.contest",
    "solver.novelty.catalogue", "solver.novelty.belief", "solver.novelty.monitor", "solver.novelty.trial",
    "solver.rl.aec_env",
    # the agent's decisions (solver.decisions): the dispatch, its settings, memory and caches, one module per decision
    "solver.decisions.agent", "solver.decisions.settings", "solver.decisions.memory", "solver.decisions.keys",
    "solver.decisions.caches", "solver.decisions.choice", "solver.decisions.profile", "solver.decisions.recording",
    "solver.decisions.buying", "solver.decisions.jail", "solver.decisions.act", "solver.decisions.building",
    "solver.decisions.phase", "solver.decisions.proposing", "solver.decisions.trade_search", "solver.decisions.pricing",
    "solver.decisions.answering", "solver.decisions.receipt", "solver.decisions.raising", "solver.decisions.shortage",
    "solver.decisions.baseline", "solver.decisions.reserves", "solver.decisions.simulation", "solver.decisions.events",
)
"""The modules whose public names are the documented API."""


def public_files() -> list[str]:
    """The source files ``mypy --strict`` checks: all of ``models/`` and each public module's file
    (a package: every file of it, but :mod:`solver` itself, whose public names live in
    :mod:`solver.api`)."""
    files = {str(p.relative_to(ROOT)) for p in (ROOT / "models").rglob("*.py")}
    for module in PUBLIC_MODULES:
        path = ROOT / module.replace(".", "/")
        if path.is_dir():
            found = [path / "__init__.py"] if module == "solver" else list(path.rglob("*.py"))
        else:
            found = [path.with_suffix(".py")]
        files.update(str(p.relative_to(ROOT)) for p in found)
    return sorted(files)


def _section(doc: str, name: str) -> bool:
    return re.search(rf"^\s*{name}\n\s*-{{3,}}\s*$", doc, re.M) is not None


def _params(fn: Callable[..., Any]) -> list[str]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    return [p.name for p in sig.parameters.values() if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _returns_value(fn: Callable[..., Any]) -> bool:
    ann = inspect.signature(fn).return_annotation
    return ann not in (None, "None", inspect.Signature.empty) and str(ann) != "NoReturn"


def _raises_directly(fn: Callable[..., Any]) -> bool:
    try:
        src = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return False
    tree = ast.parse(src)
    body = tree.body[0]
    for node in ast.walk(body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node is not body:
            continue
        if isinstance(node, ast.Raise) and node.exc is not None:
            return True
    return False


def _is_generator(fn: Callable[..., Any]) -> bool:
    return inspect.isgeneratorfunction(fn)


def _own_doc(obj: Any) -> str:
    """The object's own docstring, dedented: not one inherited from a base class (``inspect.getdoc``
    falls back to the parent's, which documents the parent, not this override)."""
    return inspect.cleandoc(obj.__doc__) if isinstance(getattr(obj, "__doc__", None), str) else ""


def _function_problems(fn: Callable[..., Any], where: str, examples: bool) -> list[str]:
    doc = _own_doc(fn)
    out = []
    if not doc.strip():
        return [f"{where}: no docstring"]
    params = _params(fn)
    if params:
        if not _section(doc, "Parameters"):
            out.append(f"{where}: no Parameters section")
        else:
            block = doc.split("Parameters", 1)[1]
            # a line naming it, alone or among others (numpydoc's ``x1, x2 : int``)
            missing = [p for p in params if not re.search(rf"^\s*(?:\**\w+\s*,\s*)*\**{re.escape(p)}\b", block, re.M)]
            if missing:
                out.append(f"{where}: Parameters does not name {missing}")
    if _returns_value(fn) and not (_section(doc, "Returns") or _section(doc, "Yields")) and not _is_generator(fn):
        out.append(f"{where}: no Returns section")
    if _raises_directly(fn) and not _section(doc, "Raises"):
        out.append(f"{where}: raises but has no Raises section")
    if examples and (not _section(doc, "Examples") or ">>>" not in doc):
        out.append(f"{where}: no Examples")
    return out


def _unwrapped(obj: Any) -> Any:
    """A function behind ``functools`` wrappers (``@cache``, ``@lru_cache``), else ``obj``."""
    inner = inspect.unwrap(obj) if callable(obj) and not inspect.isclass(obj) else obj
    return inner if inspect.isfunction(inner) else obj


def _own_names(mod: Any) -> list[str]:
    names = getattr(mod, "__all__", None)
    if names is not None:
        return list(names)
    out = []
    for name, obj in vars(mod).items():
        if name.startswith("_") or inspect.ismodule(obj):
            continue
        obj = _unwrapped(obj)
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and getattr(obj, "__module__", None) == mod.__name__:
            out.append(name)
    return out


def _class_problems(cls: type, where: str) -> list[str]:
    doc = _own_doc(cls)
    out = []
    if not doc.strip():
        return [f"{where}: no docstring"]
    if issubclass(cls, BaseException):
        return out  # an error: its docstring says when it is raised
    if not (_section(doc, "Examples") and ">>>" in doc):
        out.append(f"{where}: no Examples")
    init = cls.__dict__.get("__init__")
    fields = getattr(cls, "__dataclass_fields__", None)
    takes = bool(fields) or (init is not None and _params(init))
    if takes and not (_section(doc, "Parameters") or _section(doc, "Attributes")):
        out.append(f"{where}: no Parameters or Attributes section")
    elif takes:
        names = [n for n in (list(fields) if fields else _params(init)) if not n.startswith("_")]
        block = "".join(doc.split(sec, 1)[1] for sec in ("Parameters", "Attributes") if _section(doc, sec))
        missing = [n for n in names if not re.search(rf"^\s*(?:\**\w+\s*,\s*)*\**{re.escape(n)}\b", block, re.M)]
        if missing:
            out.append(f"{where}: Parameters/Attributes do not name {missing}")
    for name, member in cls.__dict__.items():
        if name.startswith("_"):
            continue
        if isinstance(member, property):
            if not (member.__doc__ or "").strip():
                out.append(f"{where}.{name}: no docstring")
        elif isinstance(member, (staticmethod, classmethod)):
            out += _function_problems(member.__func__, f"{where}.{name}", examples=False)
        elif inspect.isfunction(member):
            out += _function_problems(member, f"{where}.{name}", examples=False)
    return out


def _problems(module: str) -> Iterator[str]:
    mod = importlib.import_module(module)
    for name in _own_names(mod):
        obj = _unwrapped(getattr(mod, name))
        where = f"{module}.{name}"
        if inspect.isclass(obj):
            if obj.__module__ != module and not module.endswith(("models", "models.io", "engine.tournament", "solver")):
                continue  # re-exported from its home, checked there
            yield from _class_problems(obj, where)
        elif inspect.isfunction(obj):
            yield from _function_problems(obj, where, examples=True)


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_public_names_are_documented(module: str) -> None:
    bad = list(_problems(module))
    assert not bad, "\n".join(bad)


def test_the_checker_finds_what_is_missing() -> None:
    def f(a: int, b: int) -> int:
        """Sum.

        Parameters
        ----------
        a : int
            One.
        """
        if a < 0:
            raise ValueError(a)
        return a + b

    got = _function_problems(f, "f", examples=True)
    assert got == ["f: Parameters does not name ['b']", "f: no Returns section", "f: raises but has no Raises section", "f: no Examples"]

    def g(a: int, b: int) -> None:
        """Nothing.

        Parameters
        ----------
        a, b : int
            Two, on one line.

        Examples
        --------
        >>> g(1, 2)
        """

    assert _function_problems(g, "g", examples=True) == []

    import functools

    cached = functools.cache(f)
    assert _unwrapped(cached) is f  # a cached function is checked like any other

    class Base:
        """A base.

        Examples
        --------
        >>> Base().run()
        """

        def run(self) -> None:
            """Run."""

    class Child(Base):
        """A child.

        Parameters
        ----------
        a : int
            One.

        Examples
        --------
        >>> Child(1, 2).run()
        """

        def __init__(self, a: int, b: int) -> None:
            self.a, self.b = a, b

        def run(self) -> None:  # an override: Base's docstring does not document it
            pass

    assert _class_problems(Child, "Child") == ["Child: Parameters/Attributes do not name ['b']", "Child.run: no docstring"]


def test_public_files_exist() -> None:
    files = public_files()
    assert "solver/api.py" in files and "engine/tournament/run.py" in files and "models/io/load.py" in files
    assert all((ROOT / f).is_file() for f in files) and "solver/cli/__init__.py" not in files


if __name__ == "__main__":  # .ci/run: python tests/test_public_api.py --files
    import sys

    if sys.argv[1:] != ["--files"]:
        raise SystemExit("usage: python tests/test_public_api.py --files")
    print("\n".join(public_files()))
