"""Signed array indices without numba's negative-index wraparound, for named modules only.

numba compiles every array access with a signed integer index as ``i + n if i < 0
else i`` (Python's negative indexing), and has no option to turn it off (numba issue
#3205; only unsigned index types skip it, numba pull request #929). The batch kernel
(:mod:`engine.sim._kernel`) indexes only with non-negative values, its every index a
player, a square, a group, a column or a counter, so the check is pure cost: without
it the kernel plays 6-7% more player-turns per second from the opening and 9-10% more
from the mid-game (``bench/kernel_compare.py``, paired, session 15).

:func:`register` names a module whose functions are compiled without it: numba's
``numba.np.arrayobj.fix_integer_index`` (which emits the check) is wrapped once so
that, while it lowers a function of a registered module (told by the function's
mangled name, ``_ZN`` then the module's dotted name as length-prefixed parts), a
signed index is only widened to ``intp``. Every other function, in this package or
the user's, compiles as numba would. A numba without that hook is left alone (the
kernel is then only slower). Under ``NUMBA_DISABLE_JIT`` nothing is compiled and
nothing changes.

The kernel's indices are checked non-negative by ``bench/kernel_boundscheck.py``:
the kernel compiled with ``NUMBA_BOUNDSCHECK=1`` and this hook, where a negative
index raises ``IndexError`` instead of wrapping, on ``bench/kernel_compare.py``'s
504 configurations.
"""

from __future__ import annotations

from typing import Any

_PREFIXES: set[str] = set()


def _mangled(module: str) -> str:
    """How numba's mangled name of a function of ``module`` begins (``engine.sim._kernel`` ->
    ``_ZN6engine3sim7_kernel``): ``_ZN``, then each part of the dotted name escaped and
    length-prefixed by ``numba.core.itanium_mangler`` itself."""
    from numba.core.itanium_mangler import mangle_identifier

    return "_Z" + mangle_identifier(f"{module}.f")[: -len("1fE")]


def register(module: str) -> bool:
    """Compile the functions of ``module`` (its ``__name__``) without the wraparound.
    Returns whether the hook is in place (False: this numba has no such hook)."""
    try:
        import numba.np.arrayobj as arrayobj
        from numba.core import types
    except ImportError:  # pragma: no cover - numba is a dependency
        return False
    current = getattr(arrayobj, "fix_integer_index", None)
    if current is None:  # pragma: no cover - another numba
        return False
    if not getattr(current, "_nowrap", False):
        original = current

        def fix_integer_index(context: Any, builder: Any, idxty: Any, idx: Any, size: Any) -> Any:
            if idxty.signed and builder.function.name.startswith(tuple(_PREFIXES)):
                return context.cast(builder, idx, idxty, types.intp)
            return original(context, builder, idxty, idx, size)

        fix_integer_index._nowrap = True  # type: ignore[attr-defined]  # a marker on the function: wrapped once
        arrayobj.fix_integer_index = fix_integer_index
    _PREFIXES.add(_mangled(module))
    return True
