"""Writing a state: its document, that document as JSON text, and the file, written atomically.

:func:`state_to_dict` gives the document (``load_state(state_to_dict(s)) == s``
for every valid state ``s``), :func:`dumps_state` its text in the layout of the
spec's example (a player, a property, a square or a card on one line), and
:func:`save_state` writes that text through :func:`models.files.atomic_write`,
so that a reader never sees a half-written file. A state is written in format
``monopoly-state/1`` when it needs nothing newer (:mod:`models.io.format`).
"""

from __future__ import annotations

import json
from typing import Any

from models.files import atomic_write
from models.io.format import FORMAT, FORMAT_V1, FORMAT_V3
from models.io.json_text import PathLike
from models.io.pending import pending_to_dict
from models.state import GameState, PlayerState

_LINE_WIDTH = 140
"""Longest line :func:`dumps_state` writes an object or a list on, compact."""


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The state-format document of a state.

    The format is ``monopoly-state/1`` when the rules are standard but for the
    format-1 fields, else ``monopoly-state/2``; ``monopoly-state/3`` with ``pending``
    when the state waits on a question. The board is written by name
    when built in, else inline; ``rules`` is ``{"preset": NAME}`` when the
    rules are exactly a preset other than the standard one, else only the
    overrides (omitted when there are none); ``pot`` is written when the rules
    have a pot and ``bank_cash`` when the bank is finite; player fields at
    their defaults are left out except ``position``; ``properties`` lists
    owned properties in board order, with ``houses``/``mortgaged`` only when
    set. ``load_state(state_to_dict(s)) == s`` for every valid state ``s``.

    Parameters
    ----------
    state:
        The state (not changed; it should pass :func:`~models.io.validate.validate_state`).

    Returns
    -------
    dict[str, Any]
        A fresh document, JSON-ready.

    Examples
    --------
    >>> from models.io import load_state, state_to_dict
    >>> doc = state_to_dict(load_state("instances/two-player.json"))
    >>> doc["format"], doc["players"][1]
    ('monopoly-state/1', {'name': 'Bob', 'cash': 340, 'position': 10, 'in_jail': True, 'jail_turns': 1})
    """
    rules = state.rules
    newer = bool(rules.variant_overrides())  # a pot or a finite bank comes with its rule
    doc: dict[str, Any] = {"format": FORMAT if newer else FORMAT_V1}
    doc["board"] = state.board.name if state.board.builtin else state.board.to_dict()
    name = rules.preset()
    if name is not None and name != "standard-us":
        doc["rules"] = {"preset": name}
    elif rules.overrides():
        doc["rules"] = rules.overrides()
    doc["players"] = [_player_to_dict(p) for p in state.players]
    doc["properties"] = _properties_to_dict(state)
    doc["to_move"] = state.players[state.to_move].name
    doc["round"] = state.round
    doc["phase"] = state.phase
    doc["doubles_rolled"] = state.doubles_rolled
    if rules.pot_enabled:
        doc["pot"] = state.pot
    if state.bank_cash is not None:
        doc["bank_cash"] = state.bank_cash
    if state.pending is not None:
        doc["format"] = FORMAT_V3
        doc["pending"] = pending_to_dict(state)
    return doc


def _player_to_dict(p: PlayerState) -> dict[str, Any]:
    """A ``players[i]`` object: name, cash, position, and the other fields when not default."""
    out: dict[str, Any] = {"name": p.name, "cash": p.cash, "position": p.position}
    if p.in_jail:
        out["in_jail"] = True
    if p.jail_turns:
        out["jail_turns"] = p.jail_turns
    if p.jail_cards:
        out["jail_cards"] = p.jail_cards
    if p.bankrupt:
        out["bankrupt"] = True
    return out


def _properties_to_dict(state: GameState) -> dict[str, Any]:
    """The ``properties`` object: owned properties in board order."""
    out: dict[str, Any] = {}
    for sq, owner in state.iter_owned():
        entry: dict[str, Any] = {"owner": state.players[owner].name}
        if state.houses[sq]:
            entry["houses"] = state.houses[sq]
        if state.mortgaged[sq]:
            entry["mortgaged"] = True
        out[state.board.squares[sq].name] = entry
    return out


def dumps_state(state: GameState) -> str:
    """The state as JSON text: indented by 2, keys in the document's order, trailing newline.

    An object or list that fits on one line of at most 140 characters is
    written on one line (a player, a property, a square, a card), as in the
    spec's example; larger ones are spread over lines.

    Parameters
    ----------
    state:
        The state (not changed).

    Returns
    -------
    str
        The text of :func:`state_to_dict`'s document.

    Examples
    --------
    >>> from models.io import dumps_state, load_state
    >>> text = dumps_state(load_state("instances/two-player.json"))
    >>> print(text.splitlines()[4])
        {"name": "Ann", "cash": 560, "position": 24, "jail_cards": 1},
    """
    return _format_json(state_to_dict(state), 0) + "\n"


def _format_json(value: Any, indent: int, column: int | None = None) -> str:
    """``value`` as JSON, compact where it fits in :data:`_LINE_WIDTH`, else indented by 2.

    ``indent`` is the current nesting indentation; ``column`` is where the
    value starts on its line (after a key), for the width check.
    """
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    start = indent if column is None else column
    if not isinstance(value, (dict, list)) or not value or start + len(flat) + 1 <= _LINE_WIDTH:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            head = f"{pad}{json.dumps(key, ensure_ascii=False)}: "
            items.append(head + _format_json(item, indent + 2, len(head)))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + _format_json(item, indent + 2) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def save_state(state: GameState, path: PathLike) -> None:
    """Write the state to ``path`` atomically (:func:`models.files.atomic_write`): a reader never sees a half-written file.

    Parameters
    ----------
    state:
        The state (not changed).
    path:
        The file; its folder must exist. An existing file is replaced.

    Raises
    ------
    OSError
        The file cannot be written.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from models.io import load_state, save_state
    >>> state = load_state("instances/two-player.json")
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_state(state, Path(tmp) / "saved.json")
    ...     print(load_state(Path(tmp) / "saved.json") == state)
    True
    """
    atomic_write(path, dumps_state(state))


__all__ = ["dumps_state", "save_state", "state_to_dict"]
