"""What a novelty monitor weighs: a detection, the differences between two boards, the dice tests,
and a state re-expressed on the believed board.

Pure functions of their arguments, shared by :class:`solver.novelty.monitor.NoveltyMonitor`
(which holds the belief and decides when evidence is a detection) and
:class:`solver.novelty.monitor.AdaptiveAgent` (which plays on the belief). The statistics
(a Bayes factor of face counts against the believed die, and the MAP estimate of a loaded
die) are stated in :mod:`solver.novelty.monitor`'s docstring. Every name here is also
imported from :mod:`solver.novelty.monitor`, where 0.1 had them.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from models.board import Board, Square
from models.rules import Rules
from models.state import GameState

PRIOR = 2.0
"""Dirichlet prior weight per face for the MAP estimate of a loaded die."""


@dataclass(frozen=True, slots=True)
class Detection:
    """One change the monitor noticed: where, what (``tag``) and how it knows (``detail``).

    Attributes
    ----------
    game, round : int
        When (the trial's game, the game's round).
    tag : str
        What changed (``dice.count``, ``board.rents``, ...), as the catalogue's ``tags``.
    detail : str
        The evidence, in one line.

    Examples
    --------
    >>> Detection(0, 3, "dice.count", "a roll of 3 dice").to_dict()
    {'game': 0, 'round': 3, 'tag': 'dice.count', 'detail': 'a roll of 3 dice'}
    """

    game: int
    round: int
    tag: str
    detail: str

    def to_dict(self) -> dict[str, Any]:
        """The detection as JSON-ready data (a trial's rows and checkpoint).

        Returns
        -------
        dict
            ``game``, ``round``, ``tag``, ``detail``.
        """
        return {"game": self.game, "round": self.round, "tag": self.tag, "detail": self.detail}


def board_changes(old: Board, new: Board) -> list[tuple[str, str]]:
    """The differences between two boards as ``(tag, detail)`` pairs (empty: equal boards).

    Parameters
    ----------
    old, new : Board
        The boards compared.

    Returns
    -------
    list of tuple of (str, str)
        One pair per kind of change (squares, order, groups, prices, rents, house costs, taxes,
        cards), the first instance named.

    Examples
    --------
    >>> from models.board import standard_board
    >>> from models.rules import Rules
    >>> from solver.novelty import catalogue
    >>> std = standard_board()
    >>> cut, _ = catalogue.get("rent-cut").apply(std, Rules())
    >>> board_changes(std, cut)[0][0], board_changes(std, std)
    ('board.rents', [])
    """
    out: list[tuple[str, str]] = []
    if old.size != new.size:
        out.append(("board.squares", f"{old.size} -> {new.size} squares"))
    kinds = [i for i in range(min(old.size, new.size)) if old.squares[i].kind != new.squares[i].kind]
    if kinds:
        i = kinds[0]
        out.append(("board.squares", f"square {i}: {old.squares[i].name} ({old.squares[i].kind}) -> {new.squares[i].name} ({new.squares[i].kind})" + _more(kinds)))
    gone = sorted(set(old.property_index) - set(new.property_index))
    came = sorted(set(new.property_index) - set(old.property_index))
    if (gone or came) and not kinds:
        out.append(("board.squares", f"properties gone {gone}, new {came}"))
    common = [n for n in old.property_index if n in new.property_index]
    fields: tuple[tuple[str, Callable[[Square], object], str], ...] = (
        ("board.order", lambda s: s.index, "square"),
        ("board.groups", lambda s: s.group, "group"),
        ("board.price", lambda s: s.price, "price"),
        ("board.rents", lambda s: s.rents, "rents"),
        ("board.house_cost", lambda s: s.house_cost, "house cost"),
    )
    for tag, get, label in fields:
        diff = [n for n in common if get(old.squares[old.property_index[n]]) != get(new.squares[new.property_index[n]])]
        if diff:
            n = diff[0]
            a, b = get(old.squares[old.property_index[n]]), get(new.squares[new.property_index[n]])
            out.append((tag, f"{label} of {n}: {a} -> {b}" + _more(diff)))
    if old.railroad_rents != new.railroad_rents or old.utility_multipliers != new.utility_multipliers:
        out.append(("board.rents", f"railroad rents {old.railroad_rents} -> {new.railroad_rents}, utility x{old.utility_multipliers} -> x{new.utility_multipliers}"))
    old_tax = {sq.name: sq.amount for sq in old.squares if sq.kind == "tax"}
    new_tax = {sq.name: sq.amount for sq in new.squares if sq.kind == "tax"}
    taxed = [n for n in old_tax if n in new_tax and old_tax[n] != new_tax[n]]
    if taxed:
        out.append(("board.tax", f"{taxed[0]}: ${old_tax[taxed[0]]} -> ${new_tax[taxed[0]]}" + _more(taxed)))
    if not out and (old.chance != new.chance or old.community_chest != new.community_chest):
        out.append(("board.cards", "the decks changed"))
    return out


def _more(items: list[Any]) -> str:
    return f" (and {len(items) - 1} more)" if len(items) > 1 else ""


def dirichlet_log_bayes_factor(counts: list[int], q: tuple[float, ...]) -> float:
    """``log BF`` of face counts: uniform-Dirichlet marginal likelihood over the point belief ``q``.

    ``BF = Gamma(m) / Gamma(N + m) * prod Gamma(n_f + 1) / prod q_f^n_f`` (see the module docstring).
    A face with ``q_f = 0`` that was seen gives ``+inf``.

    Parameters
    ----------
    counts : list of int
        How often each face was seen.
    q : tuple of float
        The believed face probabilities.

    Returns
    -------
    float
        ``log BF``: positive favours "the dice changed".

    Examples
    --------
    Sixty fair-looking rolls favour the fair die; sixty sixes overwhelmingly do not:

    >>> round(dirichlet_log_bayes_factor([10] * 6, (1 / 6,) * 6), 3), round(dirichlet_log_bayes_factor([60, 0, 0, 0, 0, 0], (1 / 6,) * 6), 1)
    (-6.423, 91.6)
    >>> dirichlet_log_bayes_factor([1, 0], (0.0, 1.0))
    inf
    """
    m = len(counts)
    n = sum(counts)
    log_alt = math.lgamma(m) - math.lgamma(n + m) + sum(math.lgamma(c + 1) for c in counts)
    log_null = 0.0
    for c, p in zip(counts, q, strict=True):
        if c:
            if p <= 0:
                return math.inf
            log_null += c * math.log(p)
    return log_alt - log_null


def map_weights(counts: list[int], prior: float = PRIOR) -> tuple[float, ...]:
    """The MAP face probabilities under a ``Dirichlet(prior, ..., prior)`` prior (``prior >= 1``).

    ``(n_f + prior - 1) / (N + m (prior - 1))``.

    Parameters
    ----------
    counts : list of int
        How often each face was seen.
    prior : float, default PRIOR
        The Dirichlet's concentration.

    Returns
    -------
    tuple of float
        The face probabilities, summing to 1.

    Examples
    --------
    >>> [round(w, 4) for w in map_weights([3, 1], prior=2.0)], map_weights([3, 1], prior=1.0)  # 4/6, 2/6; the frequencies
    ([0.6667, 0.3333], (0.75, 0.25))
    """
    m = len(counts)
    n = sum(counts)
    return tuple((c + prior - 1) / (n + m * (prior - 1)) for c in counts)


def reexpress(state: GameState, board: Board, rules: Rules) -> tuple[GameState, dict[int, int], dict[int, int]]:
    """``state`` on another board: properties matched by name, positions kept by square number.

    Returns the new state and the maps true square -> model square and back.
    A property the model board lacks is left out; buildings stay only on
    lots whose colour group the owner can build on under the model (the
    model's rules say nothing else could hold them).

    Parameters
    ----------
    state : GameState
        The true state.
    board : Board
        The model's board.
    rules : Rules
        The model's rules.

    Returns
    -------
    tuple of (GameState, dict of int to int, dict of int to int)
        The state on ``board``, and the square maps true -> model and model -> true.

    Examples
    --------
    ``board-order`` swaps Boardwalk (39) and Baltic Avenue (3):

    >>> from models.board import standard_board
    >>> from models.io import load_state
    >>> from models.rules import Rules
    >>> from solver.novelty import catalogue
    >>> state = load_state("instances/midgame-no-monopolies.json")
    >>> swapped, _ = catalogue.get("board-order").apply(standard_board(), Rules())
    >>> moved, to_model, to_true = reexpress(state, swapped, Rules())
    >>> moved.owner[3] == state.owner[39], to_model[39], to_true[3]
    (True, 3, 39)
    """
    n = board.size
    out = GameState(board, rules, [dataclasses.replace(p, position=p.position % n) for p in state.players], to_move=state.to_move, round=state.round, phase=state.phase, doubles_rolled=state.doubles_rolled, pot=state.pot, bank_cash=state.bank_cash)
    to_model: dict[int, int] = {}
    for name, sq in board.property_index.items():
        t = state.board.property_index.get(name)
        if t is not None:
            to_model[t] = sq
            out.owner[sq] = state.owner[t]
            out.mortgaged[sq] = state.mortgaged[t]
            out.houses[sq] = state.houses[t]
    for sq in board.property_squares:
        if out.houses[sq]:
            group = board.squares[sq].group
            assert group is not None
            if board.squares[sq].kind != "street" or not out.can_build_on_group(out.owner[sq], group):
                out.houses[sq] = 0
    return out, to_model, {m: t for t, m in to_model.items()}


__all__ = ["PRIOR", "Detection", "board_changes", "dirichlet_log_bayes_factor", "map_weights", "reexpress"]
