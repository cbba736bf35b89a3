"""JSON Schemas (draft 2020-12) of every command's ``--json`` output, shipped in the package.

``output_schema(name)`` returns the schema of ``monopoly-trade NAME --json``
for ``NAME`` in :data:`OUTPUTS` (``solve`` also describes
``solver.solve(...).to_dict()``). The files are ``solver/data/output-NAME.schema.json``.
Numbers that a simulation can leave undefined are typed ``number`` or ``null``
(:mod:`solver.jsonsafe`). ``tests/solver/test_output_schemas.py`` validates
every command's output on every bundled instance against them.
"""

from __future__ import annotations

from models.errors import UnknownNameError
import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["OUTPUTS", "output_schema"]

OUTPUTS = ("solve", "trades", "analyze", "odds", "risk", "auction", "bidding-game")


@cache
def _load(name: str) -> str:
    return resources.files("solver").joinpath("data").joinpath(f"output-{name}.schema.json").read_text(encoding="utf-8")


def output_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of ``monopoly-trade NAME --json`` (a fresh dict each call)."""
    if name not in OUTPUTS:
        raise UnknownNameError(f"no output schema for {name!r} (known: {', '.join(OUTPUTS)})")
    doc: dict[str, Any] = json.loads(_load(name))
    return doc
