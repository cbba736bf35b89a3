"""The old paths of the modules that moved when :mod:`engine` was split by job (0.2.0).

``import engine.game`` (and every other path of :data:`MOVED`) keeps working
until 0.3.0: it warns once with a :class:`DeprecationWarning` naming the new
path, and gives the very module at the new path (``engine.game is
engine.rules.game``), so objects, private names and monkeypatching behave as
before. Nothing in this repository imports an old path (a test checks it).

Three moved to the rooms of their users in :mod:`solver`:
``engine.strategic`` (the baseline agent), ``engine.static_value`` (its
static worth) and ``engine.novelty_catalogue``. Their aliases import
:mod:`solver` from an :mod:`engine` path, against the layering, only when the
deprecated path is used; the layering test reads import statements, and this
table holds strings.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

REMOVAL = "0.3.0"
"""The version whose ``engine`` no longer has the old paths."""

MOVED: dict[str, str] = {
    "engine.actions": "engine.rules.actions",
    "engine.agents": "engine.rules.agents",
    "engine.game": "engine.rules.game",
    "engine.legal": "engine.rules.legal",
    "engine.view": "engine.rules.view",
    "engine.invariants": "engine.rules.invariants",
    "engine.streams": "engine.rules.streams",
    "engine.seeding": "engine.rules.seeding",
    "engine.dice": "engine.chains.dice",
    "engine.markov": "engine.chains.markov",
    "engine.ept": "engine.chains.ept",
    "engine.landing": "engine.chains.landing",
    "engine.bankruptcy": "engine.chains.bankruptcy",
    "engine.state_risk": "engine.chains.state_risk",
    "engine.rollout": "engine.sim.rollout",
    "engine.rollout_policy": "engine.sim.rollout_policy",
    "engine.rollout_tables": "engine.sim.rollout_tables",
    "engine.win_model": "engine.sim.win_model",
    "engine.strategic": "solver.agents.strategic",
    "engine.static_value": "solver.analysis.static_value",
    "engine.novelty_catalogue": "solver.novelty.catalogue",
}
"""Old module path -> new module path."""


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path of :data:`MOVED` and loads it as the module at the new path."""

    def __init__(self) -> None:
        self._real_specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}; the old path goes in {REMOVAL}",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(new)
        # The import system writes the alias's spec on the module it is given: keep the real one.
        self._real_specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        alias = module.__spec__
        if alias is not None and alias.name in self._real_specs:
            module.__spec__ = self._real_specs.pop(alias.name)


def install() -> None:
    """Put the alias finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.insert(0, _Alias())
