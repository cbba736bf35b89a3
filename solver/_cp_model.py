"""OR-Tools' CP-SAT module for the trade generator, imported without pandas in the CLI.

``ortools.sat.python.cp_model`` imports pandas at module level (OR-Tools 9.x):
about 0.2 s of a fresh ``solve``'s 1.2 s, for helpers this package never calls
(``new_int_var_series`` and the other ``*_series`` builders, ``CpSolver.values``
on a ``pd.Index``). Where the module's ``pd`` is used otherwise, it is in
annotations and in the union ``Union[pd.Index, pd.Series]``, which only need
the two names to exist.

:func:`cp_model_module` therefore imports it, when :data:`PANDAS_FREE` is set,
with a placeholder ``pandas`` module in ``sys.modules`` that has two empty
classes ``Index`` and ``Series``; the placeholder is removed right after, so a
later ``import pandas`` gets the real one. Only the command-line entry point
(:func:`solver.cli.run`) sets the flag: that process runs no code but ours. A
program that imports this package gets the ordinary import (pandas included),
as it may use the pandas helpers itself. When pandas is already loaded, or the
placeholder import fails (another OR-Tools version), the ordinary import is
used. ``tests/solver/test_cli_imports.py`` checks that ``solve`` from the
command line loads no pandas and prints what :func:`solver.cli.main` prints.
"""

from __future__ import annotations

import sys
import types
from typing import Any

PANDAS_FREE = False
"""Import CP-SAT with the placeholder pandas (set by :func:`solver.cli.run` only)."""

_NAME = "ortools.sat.python.cp_model"


def cp_model_module() -> Any:
    """``ortools.sat.python.cp_model`` (see the module docstring)."""
    loaded = sys.modules.get(_NAME)
    if loaded is not None:
        return loaded
    if PANDAS_FREE and "pandas" not in sys.modules:
        stub = types.ModuleType("pandas", "placeholder: CP-SAT imported without pandas (solver._cp_model)")
        setattr(stub, "Index", type("Index", (), {}))  # noqa: B010 - a module made here: no attributes to type
        setattr(stub, "Series", type("Series", (), {}))  # noqa: B010
        sys.modules["pandas"] = stub
        try:
            from ortools.sat.python import cp_model

            return cp_model
        except Exception:  # another OR-Tools: use the ordinary import below
            sys.modules.pop(_NAME, None)
        finally:
            if sys.modules.get("pandas") is stub:
                del sys.modules["pandas"]
    from ortools.sat.python import cp_model

    return cp_model


__all__ = ["PANDAS_FREE", "cp_model_module"]
