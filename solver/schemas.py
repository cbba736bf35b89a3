"""JSON Schemas (draft 2020-12) of every command's ``--json`` output, shipped in the package.

``output_schema(name)`` returns the schema of ``monopoly-trade NAME --json``
for ``NAME`` in :data:`OUTPUTS` (``solve`` also describes
``solver.solve(...).to_dict()``). The files are ``solver/data/output-NAME.schema.json``.

Every output names its schema and version in its first key, ``"schema"``
(:func:`stamp`), for example ``"urn:monopoly-trade:output:solve:3"``; the
schema's ``$id`` is that name, and its ``version`` keyword the number
(:data:`VERSIONS`). A change that a consumer must know of (a key removed or
renamed, a meaning changed) raises the version, and CHANGELOG.md says what
changed.
Numbers that a simulation can leave undefined are typed ``number`` or ``null``
(:mod:`solver.jsonsafe`). ``tests/solver/test_output_schemas.py`` validates
every command's output on every bundled instance against them.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from models.errors import UnknownNameError

__all__ = ["OUTPUTS", "VERSIONS", "output_schema", "schema_id", "stamp"]

OUTPUTS = ("solve", "trades", "evaluate", "respond", "analyze", "odds", "risk", "auction", "bidding-game")

VERSIONS = {name: 2 for name in OUTPUTS} | {"solve": 5, "auction": 3, "evaluate": 2, "respond": 2}
"""Each output's schema version. 1: the schemas of 0.1; 2 (0.2.0): the ``"schema"`` key; 3
(``solve`` and ``auction``, issue 37): one buy-or-auction answer (the simulation's), the
bidding game under ``diagnostics`` without a verdict of its own; ``solve`` adds ``searches``.
``evaluate`` and ``respond`` (issue 38) start at 1. ``solve`` 4 (issue 38): ``question``, the
pending question's answer; 5: ``agent``, the agent's answer (``solve --agent``), and the
decision's actions of the agent's answers. ``evaluate`` and ``respond`` 2 (session 22):
``players``, how every player plays in the simulations."""


def schema_id(name: str) -> str:
    """The name and version of output ``name``'s schema: its ``$id`` and every output's ``"schema"``.

    Parameters
    ----------
    name : str
        One of :data:`OUTPUTS`.

    Returns
    -------
    str
        ``urn:monopoly-trade:output:NAME:VERSION``.

    Raises
    ------
    UnknownNameError
        ``name`` is not in :data:`OUTPUTS`.

    Examples
    --------
    >>> schema_id("solve")
    'urn:monopoly-trade:output:solve:5'
    """
    if name not in VERSIONS:
        raise UnknownNameError(f"no output schema for {name!r} (known: {', '.join(OUTPUTS)})")
    return f"urn:monopoly-trade:output:{name}:{VERSIONS[name]}"


def stamp(name: str, doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with ``"schema": schema_id(name)`` as its first key (a new dict; ``doc`` unchanged).

    Parameters
    ----------
    name : str
        One of :data:`OUTPUTS`.
    doc : dict
        The output object.

    Returns
    -------
    dict
        The stamped object.

    Raises
    ------
    UnknownNameError
        ``name`` is not in :data:`OUTPUTS`.

    Examples
    --------
    >>> stamp("risk", {"turns": 3})
    {'schema': 'urn:monopoly-trade:output:risk:2', 'turns': 3}
    """
    return {"schema": schema_id(name), **{k: v for k, v in doc.items() if k != "schema"}}


@cache
def _load(name: str) -> str:
    return resources.files("solver").joinpath("data").joinpath(f"output-{name}.schema.json").read_text(encoding="utf-8")


def output_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of ``monopoly-trade NAME --json`` (a fresh dict each call).

    Parameters
    ----------
    name : str
        One of :data:`OUTPUTS`.

    Returns
    -------
    dict
        The schema document (draft 2020-12).

    Raises
    ------
    UnknownNameError
        ``name`` is not in :data:`OUTPUTS`.

    Examples
    --------
    >>> doc = output_schema("risk")
    >>> doc["$id"], doc["version"], doc["required"][0]
    ('urn:monopoly-trade:output:risk:2', 2, 'schema')
    """
    if name not in OUTPUTS:
        raise UnknownNameError(f"no output schema for {name!r} (known: {', '.join(OUTPUTS)})")
    doc: dict[str, Any] = json.loads(_load(name))
    return doc
