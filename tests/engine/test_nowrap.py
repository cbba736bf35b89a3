"""The kernel's compile hook (:mod:`engine.sim._nowrap`): a registered module's signed indices
are not wrapped (a negative one is out of range, which bounds checking reports), an
unregistered module's still are, and the mangled prefix is numba's own."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.sim._nowrap import _mangled

PROBE = '''
import numpy as np
from numba import njit
{register}

@njit(boundscheck=True)
def at(a, i):
    return a[i]
'''


def _probe(tmp_path: Path, name: str, registered: bool) -> object:
    register = f"from engine.sim import _nowrap\n_nowrap.register({name!r})" if registered else ""
    (tmp_path / f"{name}.py").write_text(PROBE.format(register=register))
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(tmp_path))


def test_registered_module_does_not_wrap_negative_indices(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    a = np.arange(5.0)
    plain = _probe(tmp_path, "nowrap_probe_plain", registered=False)
    hooked = _probe(tmp_path, "nowrap_probe_hooked", registered=True)
    assert plain.at(a, -1) == 4.0  # numba's default: Python's negative indexing
    assert hooked.at(a, 3) == 3.0
    with pytest.raises(IndexError):
        hooked.at(a, -1)  # not wrapped: out of range
    with pytest.raises(IndexError):
        plain.at(a, 5)


def test_mangled_prefix_is_numbas() -> None:
    pytest.importorskip("numba")
    from numba.core import itanium_mangler

    assert _mangled("engine.sim._kernel") == "_ZN6engine3sim7_kernel"
    assert _mangled("kernel_this") == "_ZN11kernel_this"
    for module in ("engine.sim._kernel", "kernel_this", "a.b_c.d9", "pkg.9lives"):
        assert itanium_mangler.mangle(f"{module}.fn", ()) == _mangled(module) + "2fnE"
