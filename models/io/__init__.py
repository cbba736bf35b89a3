"""Load and save game states in the ``monopoly-state`` JSON format (versions 1 and 2).

The format is specified in docs/state-format.md. Parsing is strict: every
field is type-checked (JSON ``true`` is not an integer), unknown keys are
refused at every level, and a state that breaks a rule of the game (uneven
building, more houses than the supply, a bankrupt owner ...) is refused. Every
refusal is an :class:`~models.errors.InvalidStateError` whose ``field`` names
the place, e.g. ``properties["Baltic Avenue"].houses: 2 houses, but the brown
group is not owned by one player``.

Modules, one job each (a module imports only those before it):

1. :mod:`models.io.format`: the format's versions and the bounds the others share.
2. :mod:`models.io.json_text`: reading JSON text with the guards of a hostile
   file (size, nesting depth, duplicate keys, ``NaN``).
3. :mod:`models.io.parse`: a document into a :class:`~models.state.GameState`
   (types, ranges, names), and the ``rules`` object alone (:func:`parse_rules`).
4. :mod:`models.io.validate`: the rule checks of a state (:func:`validate_state`).
5. :mod:`models.io.repair`: the lenient loader and its repairs
   (:func:`load_state_lenient`, :func:`repair_state`, :data:`REPAIR_RULES`).
6. :mod:`models.io.write`: the document of a state, its JSON text, the file
   written atomically (:func:`state_to_dict`, :func:`dumps_state`, :func:`save_state`).
7. The one-line notation MPN ("FEN for Monopoly"): :mod:`models.io.line_syntax`
   (the tag, words, numbers, quoted text, errors naming the column),
   :mod:`models.io.line_codes` (the fields' keys, the groups' codes, the seat
   letters), :mod:`models.io.line_read` (a line into a document, with each place's
   column), :mod:`models.io.line_write` (a document into a line) and
   :mod:`models.io.line` (:func:`load_line`, :func:`to_line`, :func:`is_line`).
8. :mod:`models.io.load`: the loader (:func:`load_state`, strict or lenient, of
   a file, a document or a line; :func:`load_state_bytes`).
9. :mod:`models.io.schema`: the JSON Schema of the format (:func:`state_schema`).

The names below are the public API, imported from :mod:`models.io`:

load_state(path_or_dict, *, strict=True) -> GameState
    Parse a file, an already-parsed document or a line of the notation
    (:func:`is_line`; a file holding a line is read as one). ``strict=False``:
    repair what a foreign engine's state may break and return a
    :class:`LenientLoad` ``(state, repairs)`` instead (:data:`REPAIR_RULES`).
load_state_bytes(data, source="<stdin>") -> GameState
    The same on the bytes of a document or a line (e.g. standard input).
load_line(text) -> GameState
    A line of the one-line notation (``MPN1 Ann:1500 Bob:1500 ...``,
    docs/state-format.md#one-line-positions); errors name the column
    (:class:`NotationError`).
to_line(state) -> str
    The line of a state (``state_to_dict(load_line(to_line(s))) == state_to_dict(s)``).
is_line(value) -> bool
    Whether a string is a line (its tag ``MPN1``) rather than a path.
load_state_lenient(path_or_dict) -> LenientLoad
    The same as ``load_state(path_or_dict, strict=False)``.
repair_state(state) -> LenientLoad
    The lenient repairs on an in-memory state (a repaired copy; the state is untouched).
validate_state(state) -> None
    The rule checks alone, on an in-memory :class:`~models.state.GameState`.
parse_rules(doc, board) -> Rules
    A ``rules`` object of the format alone.
state_to_dict(state) -> dict
    The document of a state (``load_state(state_to_dict(s)) == s``).
dumps_state(state) -> str
    That document as indented JSON text with a trailing newline.
save_state(state, path) -> None
    Write it atomically (temporary file in the same folder, then replace).
state_schema() -> dict
    The JSON Schema (draft 2020-12) of the format.
jail_cards_in_decks(board) -> int
    How many Get Out of Jail Free cards the board's decks hold.

Examples
--------
>>> from models.io import load_state, state_to_dict
>>> state = load_state("instances/midgame-no-monopolies.json")
>>> load_state(state_to_dict(state)) == state
True
"""

from models.io.format import FORMAT, FORMAT_V1, MAX_PLAYERS, MIN_PLAYERS
from models.io.line import NotationError, is_line, load_line, to_line
from models.io.load import load_state, load_state_bytes
from models.io.parse import parse_rules
from models.io.repair import (
    REPAIR_RULES,
    LenientLoad,
    Repair,
    load_state_lenient,
    repair_state,
)
from models.io.schema import state_schema
from models.io.validate import jail_cards_in_decks, validate_state
from models.io.write import dumps_state, save_state, state_to_dict

__all__ = [
    "FORMAT",
    "FORMAT_V1",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "REPAIR_RULES",
    "LenientLoad",
    "NotationError",
    "Repair",
    "dumps_state",
    "is_line",
    "jail_cards_in_decks",
    "load_line",
    "load_state",
    "load_state_bytes",
    "load_state_lenient",
    "parse_rules",
    "repair_state",
    "save_state",
    "state_schema",
    "state_to_dict",
    "to_line",
    "validate_state",
]
