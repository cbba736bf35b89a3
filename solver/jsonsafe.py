"""JSON output that is always valid JSON: undefined and infinite numbers as ``null``.

Python's :func:`json.dumps` writes ``NaN`` and ``Infinity`` for such floats,
which is not JSON (RFC 8259) and which most other languages' parsers refuse.
A simulated figure can be undefined (a standard error from one rollout, a
ratio over nothing), so every JSON document this package writes passes
through :func:`json_safe` first: such a number is written as ``null``,
meaning "not defined for this input".
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["dumps", "json_safe"]


def json_safe(x: Any) -> Any:
    """``x`` with every non-finite float replaced by ``None`` (in dicts, lists and tuples, recursively)."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: json_safe(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_safe(v) for v in x]
    return x


def dumps(x: Any, **kwargs: Any) -> str:
    """:func:`json.dumps` of :func:`json_safe` ``(x)``, refusing any NaN or infinity left (``allow_nan=False``)."""
    return json.dumps(json_safe(x), allow_nan=False, **kwargs)
