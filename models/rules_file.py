"""Rules chosen apart from a state: a preset's name or a rules file, and a state moved under them.

The command line's ``--rules NAME|FILE`` (docs/cli.md) reads its argument with
:func:`load_rules`: the name of a preset (:data:`models.rules.PRESETS`) or the
path of a JSON file holding one ``rules`` object of the state format
(docs/state-format.md#rules: an optional ``preset`` and overrides of its
fields). :func:`with_rules` then gives the state played under those rules: the
state's own ``rules`` are replaced whole (not merged), the Free Parking pot
and the bank's cash are kept when the new rules have them and set to their
starting values (``free_parking_seed``, ``bank_cash``) otherwise, and the
result goes through the strict loader, so that a state the new rules do not
allow (e.g. uneven building under the even-building rule, more houses than a
smaller supply) is refused with the loader's one-line message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from models.board import Board
from models.errors import InvalidStateError
from models.io import FORMAT, load_state, parse_rules, state_to_dict
from models.io.json_text import read_json
from models.rules import PRESETS, Rules
from models.state import GameState


def load_rules(spec: str, board: Board) -> Rules:
    """The rules named by ``spec``: a preset's name, else a path to a JSON rules object.

    Parameters
    ----------
    spec:
        The argument of ``--rules``: a key of :data:`models.rules.PRESETS`, or the
        path of a JSON file holding one ``rules`` object of the state format.
    board:
        The board the rules are for (a file's ``set_size`` names its groups).

    Returns
    -------
    Rules
        The preset, or the file's rules.

    Raises
    ------
    InvalidStateError
        The file breaks the ``rules`` object's format (``err.field`` names the place), or
        ``spec`` is neither a preset nor an existing file.
    OSError
        The file exists but cannot be read.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules_file import load_rules
    >>> load_rules("house-jackpot", standard_board()).free_parking
    'bank'
    """
    if spec in PRESETS:
        return PRESETS[spec]
    path = Path(spec)
    if not path.is_file():
        raise InvalidStateError("", f"{spec!r} is neither a rules preset ({', '.join(PRESETS)}) nor a rules file")
    doc: Any = read_json(path)
    return parse_rules(doc, board, "rules")


def with_rules(state: GameState, rules: Rules) -> GameState:
    """A copy of ``state`` under ``rules`` (module docstring), checked by the strict loader.

    Parameters
    ----------
    state:
        The state (not changed).
    rules:
        The rules to play it under; they replace the state's own rules whole.

    Returns
    -------
    GameState
        The new state: the pot and the bank's cash kept when ``rules`` have them,
        set to their starting values otherwise.

    Raises
    ------
    InvalidStateError
        The state breaks a rule of ``rules`` (e.g. more houses than a smaller supply).

    Examples
    --------
    >>> from models.io import load_state
    >>> from models.rules import PRESETS
    >>> from models.rules_file import with_rules
    >>> state = with_rules(load_state("instances/midgame-no-monopolies.json"), PRESETS["no-doubles"])
    >>> state.rules.preset(), state.bank_cash, state.players[0].cash
    ('no-doubles', 14580, 420)
    """
    doc = state_to_dict(state)
    if "pending" not in doc:  # format 3 (a pending question) already holds every rule
        doc["format"] = FORMAT
    name = rules.preset()
    doc["rules"] = {"preset": name} if name is not None else rules.overrides()
    if not rules.pot_enabled:
        doc.pop("pot", None)
    elif not state.rules.pot_enabled:
        doc["pot"] = rules.free_parking_seed
    if rules.bank_cash is None:
        doc.pop("bank_cash", None)
    elif state.bank_cash is None:
        doc["bank_cash"] = rules.bank_cash
    return load_state(doc)


__all__ = ["load_rules", "with_rules"]
