"""Mutations of state documents and of one-line positions, for fuzzing the loader and the commands
(tests, ``bench/fuzz.py`` and ``bench/notation.py``).

:func:`mutate` applies ``count`` random edits to a copy of a parsed state
document, each at a random place in it (any object key or list item, at any
depth):

* delete a key or a list item;
* replace a value by another type (null, a boolean, a string, a list, an object);
* an extreme number (0, -1, 2^31, 2^63, 10^9 + 1, 10^30, 1e308, -0.0, 0.5);
* hostile text (empty, a line break, a control character, a lone surrogate,
  right-to-left marks, 10,000 characters, a name of another player);
* deep nesting (the value wrapped in 40 lists);
* an extra unknown key.

:func:`nudge` makes plausible edits instead (small number changes, flipped
booleans, strings swapped within the document), so that many mutated states
still load and reach the commands. Everything is drawn from the given
:class:`random.Random`, so a seed replays a case exactly.
"""

from __future__ import annotations

import copy
import random
from typing import Any

EXTREME_NUMBERS: tuple[Any, ...] = (0, -1, 1, 2**31, 2**63, 10**9 + 1, 10**30, 1e308, -0.0, 0.5, 7, 40, 1500)
HOSTILE_TEXT = ("", "a\nb", "x\x00y", "\ud800", "\u202eevil", "x" * 10_000, "Ann", "Boardwalk", "standard-us", "start")


def _places(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``doc`` (keys and list indices)."""
    out = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.append((*path, k))
            out.extend(_places(v, (*path, k)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.append((*path, i))
            out.extend(_places(v, (*path, i)))
    return out


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


def _other_value(rng: random.Random) -> Any:
    kind = rng.randrange(7)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice(HOSTILE_TEXT)
    if kind == 3:
        return rng.choice(EXTREME_NUMBERS)
    if kind == 4:
        return [rng.choice(EXTREME_NUMBERS) for _ in range(rng.randrange(4))]
    if kind == 5:
        return {rng.choice(HOSTILE_TEXT): rng.choice(EXTREME_NUMBERS)}
    return -rng.choice(EXTREME_NUMBERS)


def _strings(doc: Any) -> list[str]:
    if isinstance(doc, dict):
        return [s for k, v in doc.items() for s in (k, *_strings(v)) if isinstance(s, str)]
    if isinstance(doc, list):
        return [s for v in doc for s in _strings(v)]
    return [doc] if isinstance(doc, str) else []


def nudge(doc: Any, rng: random.Random, count: int = 1) -> Any:
    """A copy of ``doc`` with ``count`` *plausible* edits: a number moved a little (or to 0 or
    a large value), a boolean flipped, a string replaced by another string of the same document
    (another player's name, another property, another phase). Many of these still load, so they
    reach the commands with unusual combinations."""
    out = copy.deepcopy(doc)
    strings = _strings(doc) or ["x"]
    for _ in range(count):
        places = [p for p in _places(out) if not isinstance(_parent(out, p)[p[-1]], (dict, list))]
        if not places:
            return out
        path = rng.choice(places)
        parent, key = _parent(out, path), path[-1]
        value = parent[key]
        if isinstance(value, bool):
            parent[key] = not value
        elif isinstance(value, int):
            parent[key] = max(0, rng.choice((value + rng.randint(-3, 3), value * 2, 0, 1, value + 500, 99_999)))
        elif isinstance(value, float):
            parent[key] = rng.choice((0.0, value / 2, min(1.0, value * 2)))
        elif isinstance(value, str):
            parent[key] = rng.choice(strings)
    return out


def mutate(doc: Any, rng: random.Random, count: int = 1) -> Any:
    """A copy of ``doc`` with ``count`` random edits (module docstring)."""
    out = copy.deepcopy(doc)
    for _ in range(count):
        places = _places(out)
        if not places:
            return out
        path = rng.choice(places)
        parent = _parent(out, path)
        key = path[-1]
        action = rng.randrange(7)
        if action == 0:
            del parent[key]
        elif action == 1:
            parent[key] = _other_value(rng)
        elif action == 2:
            parent[key] = rng.choice(EXTREME_NUMBERS)
        elif action == 3:
            parent[key] = rng.choice(HOSTILE_TEXT)
        elif action == 4:
            value = parent[key]
            for _ in range(40):
                value = [value]
            parent[key] = value
        elif action == 5 and isinstance(parent, dict):
            parent[rng.choice(HOSTILE_TEXT)] = _other_value(rng)
        elif isinstance(parent[key], (int, float)) and not isinstance(parent[key], bool):
            parent[key] = parent[key] + rng.choice((-1, 1, 100, -100, 10**6))
        else:
            parent[key] = _other_value(rng)
    return out


LINE_ALPHABET = "AaBbjcxhm-0123456789:@=,()\"{}[] \\\n'd.\u00e9\u2028\ud800"
"""Characters :func:`mutate_line` inserts: the notation's own, and a few a line must refuse."""


def mutate_line(line: str, rng: random.Random) -> str:
    """``line`` with one to three edits: a character deleted, inserted or replaced (from
    :data:`LINE_ALPHABET`); two items swapped; an item doubled or dropped; the line cut."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(7)
        i = rng.randrange(len(line) + 1)
        if kind == 0 and line:
            line = line[: max(i - 1, 0)] + line[i:]
        elif kind == 1:
            line = line[:i] + rng.choice(LINE_ALPHABET) + line[i:]
        elif kind == 2 and i < len(line):
            line = line[:i] + rng.choice(LINE_ALPHABET) + line[i + 1 :]
        elif kind == 6:
            line = line[:i]
        else:
            items = line.split(" ")
            a, b = rng.randrange(len(items)), rng.randrange(len(items))
            if kind == 3:
                items[a], items[b] = items[b], items[a]
            elif kind == 4:
                items.insert(a, items[b])
            elif len(items) > 1:
                del items[a]
            line = " ".join(items)
    return line
