"""A :class:`models.state.GameState` as the integer arrays of the batch kernel.

:func:`encode` turns a state (any board the state format allows, inline
boards, other dice, ``set_size``) and the seats' :class:`RolloutPolicy` into the two
tuples of :mod:`engine.sim._kernel`: the constant tables ``B`` and the initial
mutable state ``X0``. Every derived number (mortgage value, interest, the
building sell-back value) is computed here by the same methods that the
reference engine calls, so the kernel never re-derives a rule. The rule
variants of :class:`models.rules.Rules` are columns of the rules table
(``engine.sim._kernel.R_*``), the Free Parking pot and the bank's cash start each
game from the state's (``GameState.pot``, ``GameState.bank_cash``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.sim import _kernel as k
from engine.sim.rollout_policy import NON_STREET_GROUPS, PolicyLike, seat_policies
from engine.sim.rollout_values import value_table
from models.errors import InvalidStateError
from models.state import GameState, Phase

_KINDS = {
    "street": k.K_STREET,
    "railroad": k.K_RAIL,
    "utility": k.K_UTIL,
    "tax": k.K_TAX,
    "chance": k.K_CHANCE,
    "community_chest": k.K_CHEST,
    "go_to_jail": k.K_GOTOJAIL,
    "free_parking": k.K_FREEPARK,
}
_ACTIONS = {
    "advance_to": k.A_ADVANCE,
    "advance_nearest": k.A_NEAREST,
    "move": k.A_MOVE,
    "go_to_jail": k.A_JAIL,
    "jail_free": k.A_JAILFREE,
    "repairs": k.A_REPAIRS,
    "cash": k.A_CASH,
    "each_player": k.A_EACH,
}
DECK_NAMES = ("chance", "community_chest")
_POT_MODES = {"off": k.POT_OFF, "taxes": k.POT_TAXES, "bank": k.POT_BANK}


@dataclass(frozen=True)
class Tables:
    """The encoded state: ``B`` (constant), ``X0`` (initial mutable state)."""

    B: tuple[Any, ...]
    X0: tuple[Any, ...]

    def work(self) -> tuple[Any, ...]:
        """A fresh copy of the initial state for the kernel to play in."""
        return tuple(a.copy() for a in self.X0)
    n_players: int
    n_squares: int


def _square_table(state: GameState, group_ids: dict[str, int]) -> np.ndarray:
    board, rules = state.board, state.rules
    sq_t = np.zeros((board.size, k.SQ_COLS), dtype=np.int64)
    sq_t[:, k.GROUP] = -1
    for sq in board.squares:
        row = sq_t[sq.index]
        row[k.KIND] = _KINDS.get(sq.kind, k.K_OTHER)
        row[k.TAX] = sq.amount
        if not sq.is_property:
            continue
        assert sq.group is not None
        mval = state.mortgage_value(sq.index)
        row[k.GROUP] = group_ids[sq.group]
        row[k.PRICE] = sq.price
        row[k.HCOST] = sq.house_cost
        row[k.MVAL] = mval
        row[k.INTEREST] = rules.interest(mval)
        row[k.UNMORT] = rules.unmortgage_cost(mval)
        row[k.SELL] = rules.sell_value(sq.house_cost)
        for lv, r in enumerate(sq.rents[:6]):
            row[k.RENT0 + lv] = r
    return sq_t


def _group_tables(state: GameState, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    groups = state.board.groups
    width = max(len(groups[g]) for g in names)
    gl = np.full((len(names), width), -1, dtype=np.int64)
    gi = np.zeros((len(names), k.GI_COLS), dtype=np.int64)
    for g, name in enumerate(names):
        lots = groups[name]
        gl[g, : len(lots)] = lots
        gi[g, k.G_N] = len(lots)
        gi[g, k.G_NEED] = state.set_size(name)
        gi[g, k.G_STREET] = int(name not in NON_STREET_GROUPS)
        gi[g, k.G_PRICE] = sum(state.board.squares[sq].price for sq in lots)
    return gl, gi


def _card_tables(state: GameState) -> tuple[np.ndarray, np.ndarray]:
    board = state.board
    decks = [board.deck(d) for d in DECK_NAMES]
    width = max(1, *(len(d) for d in decks))
    cd = np.zeros((2, width, k.CD_COLS), dtype=np.int64)
    nc = np.array([len(d) for d in decks], dtype=np.int64)
    for d, cards in enumerate(decks):
        for i, c in enumerate(cards):
            row = cd[d, i]
            row[k.C_ACT] = _ACTIONS[c.action]
            row[k.C_SQUARE] = c.square if c.square is not None else -1
            row[k.C_KIND] = _KINDS.get(c.group or "", -1)
            row[k.C_RMULT] = c.rent_multiplier
            row[k.C_DMULT] = c.dice_multiplier
            row[k.C_STEPS] = c.steps
            row[k.C_HOUSE] = c.house
            row[k.C_HOTEL] = c.hotel
            row[k.C_AMOUNT] = c.amount
    return cd, nc


def _rules_table(state: GameState) -> tuple[np.ndarray, np.ndarray]:
    rules, board = state.rules, state.board
    r = np.zeros(k.R_LEN, dtype=np.int64)
    r[k.R_SALARY] = rules.go_salary
    r[k.R_FINE] = rules.jail_fine
    r[k.R_HOUSES] = rules.houses
    r[k.R_HOTELS] = rules.hotels
    r[k.R_JAILROLLS] = rules.max_jail_rolls
    r[k.R_DBLJAIL] = rules.doubles_to_jail
    r[k.R_JAILSQ] = board.jail
    r[k.R_SIZE] = board.size
    r[k.R_NDICE] = rules.dice.count
    r[k.R_SIDES] = rules.dice.sides
    r[k.R_LOADED] = int(rules.dice.weights is not None)
    r[k.R_NPL] = len(state.players)
    r[k.R_DBLAGAIN] = int(rules.doubles_again)
    r[k.R_JAILDBL] = int(rules.jail_doubles)
    r[k.R_JAILFREE] = int(rules.jail_release == "free")
    r[k.R_REPLACE] = int(rules.card_draw == "replacement")
    r[k.R_POT] = _POT_MODES[rules.free_parking]
    r[k.R_SEED] = rules.free_parking_seed
    r[k.R_GOBONUS] = int(rules.go_landing_bonus)
    r[k.R_AUCTIONS] = int(rules.auctions)
    r[k.R_AUCONLY] = int(rules.auction_only)
    r[k.R_EVEN] = int(rules.even_building)
    r[k.R_TARGET] = rules.cash_target or 0
    r[k.R_RLIMIT] = rules.round_limit or 0
    if rules.dice.weights is not None:
        cdf = np.array([float(c) for c in np.cumsum(rules.dice.face_probabilities())[:-1]], dtype=np.float64)
    else:
        cdf = np.zeros(0, dtype=np.float64)
    return r, cdf


def _initial_state(state: GameState, max_rounds: int, nc: np.ndarray, group_ids: dict[str, int]) -> tuple[Any, ...]:
    board = state.board
    n_pl = len(state.players)
    n_groups = len(group_ids)
    pl = np.zeros((n_pl, k.PL_COLS + n_groups + k.N_MASKS * k.mask_words(n_groups)), dtype=np.int64)
    for i, p in enumerate(state.players):
        pl[i, : k.SKIP_VER] = (p.cash, p.position, int(p.in_jail), p.jail_turns, p.jail_cards, int(p.bankrupt))
        pl[i, k.SKIP_VER] = -1  # no act phase has been skipped yet
        pl[i, k.MOOD] = (1 << n_pl) - 1  # every seat accepts its trades (run_batch redraws under P_ACCEPT < 100)
    own = np.array(state.owner, dtype=np.int64)
    hou = np.array(state.houses, dtype=np.int64)
    mor = np.array(state.mortgaged, dtype=np.int64)
    m = np.zeros(k.M_LEN + n_groups, dtype=np.int64)
    # the kernel's running counts: lots per player and group, buildings
    for sq in board.property_squares:
        g = group_ids[state.group_of(sq)]
        if own[sq] >= 0:
            pl[own[sq], k.CNT0 + g] += 1
        m[k.GB0 + g] += hou[sq]
    m[k.HB] = state.houses_on_board()
    m[k.TB] = state.hotels_on_board()
    m[k.TO_MOVE] = state.to_move
    m[k.ROUND] = state.round
    m[k.PHASE] = int(state.phase != Phase.START)
    m[k.DBL] = state.doubles_rolled
    m[k.WINNER] = -1
    m[k.MAXR] = max_rounds
    m[k.NBK] = sum(p.bankrupt for p in state.players)
    m[k.POT] = state.pot
    m[k.BANK] = -1 if state.bank_cash is None else state.bank_cash
    width = max(1, int(nc.max()))
    pile = np.zeros((2, width), dtype=np.int64)
    held = np.zeros((2, width), dtype=np.int64)
    # Held Get Out of Jail Free cards come from the decks in order, Chance first
    # (as engine.rules.game.Game._assign_held_cards does).
    pool = [(d, i) for d, name in enumerate(DECK_NAMES) for i, c in enumerate(board.deck(name)) if c.action == "jail_free"]
    stack = np.zeros((n_pl, max(1, len(pool)), 2), dtype=np.int64)
    for i, p in enumerate(state.players):
        for j in range(p.jail_cards):
            if not pool:
                raise InvalidStateError("", "more Get Out of Jail Free cards held than the decks contain")
            d, idx = pool.pop(0)
            held[d, idx] = 1
            stack[i, j] = (d, idx)
    width = max(board.size, int(nc.max()), n_pl, 1)
    scratch = np.zeros((k.SCR_ROWS, width), dtype=np.int64)
    return (pl, own, hou, mor, m, pile, held, stack, scratch)


def _mark_groups(pl: np.ndarray, gi: np.ndarray, gl: np.ndarray, own: np.ndarray, mor: np.ndarray) -> None:
    """Each player's group masks (:data:`engine.sim._kernel.MASK_BITS`), from its counts and
    mortgages (array operations: :func:`encode` runs on every simulation)."""
    n_groups = gi.shape[0]
    if n_groups == 0:
        return
    words = k.mask_words(n_groups)
    counts = pl[:, k.CNT0 : k.CNT0 + n_groups]
    need = gi[:, k.G_NEED]
    valid = np.arange(gl.shape[1]) < gi[:, k.G_N][:, None]
    lots = np.where(valid, gl, 0)
    owners = np.where(valid, own[lots], -1)
    mortgaged = mor[lots] != 0
    players = np.arange(pl.shape[0])[:, None, None]
    mine = owners[None] == players  # player x group x lot
    kinds = {
        k.HAS: counts > 0,
        k.FULL: counts >= need,
        k.SHORT: (gi[:, k.G_STREET] != 0) & (counts >= 1) & (counts == need - 1),
        k.MORT: (mine & mortgaged[None]).any(axis=2),
        k.FREE: (mine & ~mortgaged[None]).any(axis=2),
    }
    for kind, on in kinds.items():
        for w in range(words):
            part = on[:, w * k.MASK_BITS : (w + 1) * k.MASK_BITS].astype(np.int64)
            pl[:, k.CNT0 + n_groups + kind * words + w] = (part << np.arange(part.shape[1], dtype=np.int64)).sum(axis=1)


_NO_VALUES = np.zeros((1, 2, 1), dtype=np.int64)
"""``VT`` when no seat prices by value: the kernel's tuple keeps its type, and reads it never."""
_NO_VALUES.setflags(write=False)

_BOARD_TABLES: list[tuple[object, object, tuple[Any, ...]]] = []
"""The tables that depend only on the board and the rules, for the last few (board, rules) pairs,
recognised by identity (:func:`_board_tables`)."""

BOARD_TABLES_KEPT = 8


def _board_tables(state: GameState) -> tuple[Any, ...]:
    """``(names, group_ids, sq_t, gl, gi, cd, nc, rr, um)`` of the state's board and rules.

    They are a function of the board and the rules alone (a lot's mortgage value is its price
    times the rules' rate), and building them is about half of :func:`encode` (0.7 of 1.5 ms
    here; an agent's game simulates some 200 times). The objects of one game are the same objects
    all game, so the last few pairs are kept with the objects themselves (their ids cannot be
    reused while kept) and found by identity; other objects, even equal ones, build anew. The
    kernel only reads these arrays (``tests/engine/test_rollout.py`` checks they are unchanged
    after a simulation)."""
    board, rules = state.board, state.rules
    for b, r, tables in list(_BOARD_TABLES):
        if b is board and r is rules:
            return tables
    names = sorted(board.groups)  # ids in name order: the order of Game._acquired
    group_ids = {g: i for i, g in enumerate(names)}
    sq_t = _square_table(state, group_ids)
    gl, gi = _group_tables(state, names)
    cd, nc = _card_tables(state)
    rr = np.array(board.railroad_rents or (0,), dtype=np.int64)
    um = np.array(board.utility_multipliers or (0,), dtype=np.int64)
    tables = (names, group_ids, sq_t, gl, gi, cd, nc, rr, um)
    _BOARD_TABLES.insert(0, (board, rules, tables))
    del _BOARD_TABLES[BOARD_TABLES_KEPT:]
    return tables


def encode(state: GameState, policy: PolicyLike, max_rounds: int) -> Tables:
    """Encode ``state`` for the kernel; ``max_rounds`` is the absolute round cap;
    ``policy`` is one :class:`RolloutPolicy` for every seat or one per seat
    (:func:`engine.sim.rollout_policy.seat_policies`; ``None``: the default).

    Every rule variant is played; nothing is refused (rules under which a turn could
    never end, dice that always roll doubles with an endless doubles run, are refused
    by :class:`models.rules.Rules` itself).
    """
    names, group_ids, sq_t, gl, gi, cd, nc, rr, um = _board_tables(state)
    r, cdf = _rules_table(state)
    board = state.board
    policies = seat_policies(policy, len(state.players))
    pol = np.array([p.as_array() for p in policies], dtype=np.int64)
    assert pol.shape[1] == k.P_LEN
    # the value prices' streams only when a seat prices by value (the kernel reads VT for no other)
    vt = value_table(board, state.rules, len(state.players)) if any(p.pricing == "value" for p in policies) else _NO_VALUES
    b = (sq_t, gl, gi, rr, um, cd, nc, r, cdf, pol, vt)
    x0 = _initial_state(state, max_rounds, nc, group_ids)
    _mark_groups(x0[0], gi, gl, x0[1], x0[3])
    return Tables(b, x0, len(state.players), board.size)


__all__ = ["DECK_NAMES", "Tables", "encode"]
