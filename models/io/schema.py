"""The JSON Schema (draft 2020-12) of the state format, shipped as ``models/data/state.schema.json``.

The schema covers types, required fields, unknown keys and the ranges a
schema can express (:mod:`models.limits`); the rule checks (even building,
supply, owners ...) are :func:`models.io.validate.validate_state`'s alone.
``tests/models/test_io.py`` cross-checks the schema against the loader.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def _schema_text() -> str:
    """The schema file's text (read once; package data under ``models/data``)."""
    return resources.files("models").joinpath("data").joinpath("state.schema.json").read_text(encoding="utf-8")


def state_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the state format, as a fresh dict.

    The schema covers types, required fields, unknown keys and the ranges a
    schema can express; the rule checks (even building, supply, owners ...)
    are :func:`~models.io.load.load_state`'s alone.

    Returns
    -------
    dict[str, Any]
        The schema, parsed anew on each call (the caller may change it).

    Examples
    --------
    >>> from models.io import state_schema
    >>> schema = state_schema()
    >>> schema["$schema"], sorted(schema["required"])
    ('https://json-schema.org/draft/2020-12/schema', ['format', 'players'])
    """
    schema: dict[str, Any] = json.loads(_schema_text())
    return schema


__all__ = ["state_schema"]
