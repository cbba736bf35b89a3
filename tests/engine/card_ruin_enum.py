"""References for the card-cash approximation of :mod:`engine.chains.state_risk` (test helpers).

:func:`exact_ruin_pmf_with_cards`
    The exact first-ruin PMF over the player's own turns with every card's
    real cash effect (no expectation), decks drawn with replacement. Written
    from the rules, independently of the engine and of the chain: every throw
    and card is followed in the engine's order (:mod:`engine.rules.game`): the throw
    moves the token (Go salary when passing or landing on Go), the square
    charges rent or tax, sends to jail or draws a card; a card that moves the
    token pays the salary when it passes Go, then the new square acts (a
    nearest-railroad card at its rent multiplier, the nearest-utility card at
    its dice multiplier times a fresh throw, every total enumerated); cash
    cards pay or collect, "each player" cards per active opponent, repairs on
    the player's own buildings; a Get Out of Jail Free card is kept and never
    used (the passive :class:`engine.rules.agents.BaseAgent` always rolls in jail).
    The player buys nothing. Doubles roll again, the third double goes to
    jail without moving; in jail (long policy) doubles leave and move with no
    extra throw, the last failure pays the fine, then moves by that throw.
    Within one throw every income (salary, a collecting card) comes before
    the one payment the throw can bring (rent, tax or a paying card), so a
    throw with cash flow ``delta`` ruins iff ``W + delta < 0`` (the jail fine,
    paid before its throw, is tested on its own). The wealth ``W`` (liquidation
    value, here the player's cash: it owns nothing) is tracked exactly on the
    integers, one probability vector per position, so the result is exact up
    to float rounding. "With replacement" is the chain's memoryless draw: every
    draw is over the whole deck, a Get Out of Jail Free card the player drew
    included (the engine's ``card_draw="replacement"`` leaves a held card out).
    Rule variants: any ``max_jail_rolls`` and ``doubles_to_jail >= 1`` with the
    standard ``doubles_again``, ``jail_doubles``, ``jail_release="pay"`` and no
    Go landing bonus; other rules raise ``ValueError`` (the variants are
    checked by the enumeration of ``tests/engine/test_state_risk.py``).
:func:`engine_own_turns_ruin`
    Monte Carlo with the reference engine and its real, shuffled decks
    (drawn without replacement), the player's own turns only.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np

from engine.rules.agents import BaseAgent
from engine.rules.game import Game
from engine.rules.streams import SeededStream
from models.board import Card
from models.state import BANK, GameState

JAIL = -1
"""Destination of a throw that ends in jail."""

Moves = dict[tuple[int, int], float]  # (destination square or JAIL, cash flow) -> probability


def _throws(state: GameState) -> dict[tuple[int, bool], float]:
    """(total, doubles) -> probability, from the dice's faces."""
    dice = state.rules.dice
    weights = dice.weights or (1,) * dice.sides
    face = [w / sum(weights) for w in weights]
    out: dict[tuple[int, bool], float] = defaultdict(float)
    for th in itertools.product(range(1, dice.sides + 1), repeat=dice.count):
        q = float(np.prod([face[f - 1] for f in th]))
        if q > 0:
            out[(sum(th), len(set(th)) == 1)] += q
    return dict(out)


def _landing(state: GameState, player: int) -> dict[tuple[int, int], Moves]:
    """(square arrived on by the dice, dice total) -> the throw's outcomes, flows relative to the arrival."""
    s, p = state, player
    board, rules = s.board, s.rules
    n = board.size
    fresh: dict[int, float] = defaultdict(float)  # a fresh throw's total (nearest-utility card)
    for (total, _dbl), q in _throws(s).items():
        fresh[total] += q
    others = len(s.active_players()) - 1
    houses, hotels = s.building_counts(p)

    def charge(pos: int, total: int, card: Card | None) -> list[tuple[float, int]]:
        sq = board.squares[pos]
        if sq.kind == "tax":
            return [(1.0, sq.amount)]
        owner = s.owner[pos]
        if not sq.is_property or owner in (BANK, p) or s.mortgaged[pos]:
            return [(1.0, 0)]
        nearest = card is not None and card.action == "advance_nearest"
        if sq.kind == "street":
            assert sq.group is not None
            level = s.houses[pos]
            return [(1.0, sq.rents[level] if level else sq.rents[0] * (2 if s.has_monopoly(owner, sq.group) else 1))]
        count = s.count_in_group(owner, sq.kind)
        if sq.kind == "railroad":
            return [(1.0, board.railroad_rents[count - 1] * (card.rent_multiplier if card is not None and nearest else 1))]
        if card is not None and nearest and card.dice_multiplier:
            return [(q, card.dice_multiplier * t) for t, q in fresh.items()]
        return [(1.0, board.utility_multipliers[count - 1] * total)]

    def land(pos: int, total: int, card: Card | None, prob: float, flow: int, out: Moves) -> None:
        sq = board.squares[pos]
        if sq.kind == "go_to_jail":
            out[(JAIL, flow)] += prob
        elif sq.kind not in ("chance", "community_chest"):
            for q, c in charge(pos, total, card):
                out[(pos, flow - c)] += prob * q
        else:
            deck = board.deck(sq.kind)
            for drawn in deck:
                q = prob / len(deck)
                act = drawn.action
                if act in ("advance_to", "advance_nearest", "move"):
                    if act == "advance_to":
                        assert drawn.square is not None
                        steps = (drawn.square - pos) % n or n
                    elif act == "advance_nearest":
                        steps = next(j for j in range(1, n + 1) if board.squares[(pos + j) % n].kind == drawn.group)
                    else:
                        steps = drawn.steps
                    salary = rules.go_salary if steps > 0 and pos + steps >= n else 0
                    land((pos + steps) % n, total, drawn, q, flow + salary, out)
                elif act == "go_to_jail":
                    out[(JAIL, flow)] += q
                elif act == "jail_free":
                    out[(pos, flow)] += q
                elif act == "repairs":
                    out[(pos, flow - houses * drawn.house - hotels * drawn.hotel)] += q
                elif act == "cash":
                    out[(pos, flow + drawn.amount)] += q
                elif act == "each_player":
                    out[(pos, flow + drawn.amount * others)] += q
                else:
                    raise NotImplementedError(act)

    table: dict[tuple[int, int], Moves] = {}
    for a in range(n):
        for total in {t for t, _ in _throws(s)}:
            out: Moves = defaultdict(float)
            land(a, total, None, 1.0, 0, out)
            table[(a, total)] = dict(out)
    return table


def exact_ruin_pmf_with_cards(state: GameState, player: int, turns: int) -> np.ndarray:
    """P(first ruin at each of the player's next ``turns`` turns), entry 0 = 0; see the module docstring."""
    s, p = state, player
    board, rules = s.board, s.rules
    if not (rules.doubles_again and rules.doubles_to_jail >= 1 and rules.jail_doubles and rules.jail_release == "pay") or rules.go_landing_bonus:
        raise ValueError("exact_ruin_pmf_with_cards plays the standard doubles, jail and Go rules (any jail length, any doubles_to_jail >= 1)")
    n, jail_sq = board.size, board.jail
    pl = s.players[p]
    assert not pl.bankrupt and s.properties_of(p) == []  # wealth = cash, no income
    w0 = s.liquidation_value(p)
    assert w0 >= 0
    throws = _throws(s)
    landing = _landing(s, p)
    # The most a throw can bring: bounds the wealth vector (nothing may fall off its top).
    top = max(max(max(flow for _, flow in moves) for moves in landing.values()), 0) + rules.go_salary
    size = w0 + 3 * turns * top + 1
    n_jail = rules.max_jail_rolls

    def moves_from(square: int, dbl: bool) -> Moves:
        """The throws (doubles or not) from a square: (dst, flow) -> probability."""
        out: Moves = defaultdict(float)
        for (total, d), q in throws.items():
            if d != dbl:
                continue
            salary = rules.go_salary if square + total >= n else 0
            for (dst, flow), r in landing[((square + total) % n, total)].items():
                out[(dst, flow + salary)] += q * r
        return dict(out)

    free_moves = {(a, dbl): moves_from(a, dbl) for a in range(n) for dbl in (False, True)}
    p_dbl = sum(q for (_, d), q in throws.items() if d)
    p_nd = 1.0 - p_dbl

    def apply(vec: np.ndarray, flow: int, prob: float, into: np.ndarray) -> float:
        """Add ``prob * vec`` shifted by ``flow`` to ``into``; return the mass ruined (W + flow < 0)."""
        if flow >= 0:
            assert not vec[size - flow :].any()
            into[flow:] += prob * vec[: size - flow]
            return 0.0
        into[: size + flow] += prob * vec[-flow:]
        return prob * float(vec[:-flow].sum())

    free = np.zeros((n, size))
    jail = np.zeros((n_jail, size))
    if pl.in_jail:
        jail[pl.jail_turns, w0] = 1.0
    else:
        free[pl.position, w0] = 1.0
    pmf = [0.0]
    fine = rules.jail_fine
    for _ in range(turns):
        ruin = 0.0
        nfree = np.zeros_like(free)
        njail = np.zeros_like(jail)
        rolling = free  # before the first throw, after one double, after two
        for doubles in range(rules.doubles_to_jail):
            again = np.zeros_like(free)
            for a in np.nonzero(rolling.any(axis=1))[0]:
                vec = rolling[a]
                if doubles + 1 == rules.doubles_to_jail:  # the third double: jail, no move
                    njail[0] += p_dbl * vec
                else:
                    for (dst, flow), q in free_moves[(a, True)].items():
                        ruin += apply(vec, flow, q, njail[0] if dst == JAIL else again[dst])
                for (dst, flow), q in free_moves[(a, False)].items():
                    ruin += apply(vec, flow, q, njail[0] if dst == JAIL else nfree[dst])
            rolling = again
        for f in range(n_jail):
            vec = jail[f]
            if not vec.any():
                continue
            for (dst, flow), q in free_moves[(jail_sq, True)].items():  # doubles: out, no extra throw
                ruin += apply(vec, flow, q, njail[0] if dst == JAIL else nfree[dst])
            if f + 1 < n_jail:
                njail[f + 1] += p_nd * vec
                continue
            ruin += p_nd * float(vec[:fine].sum())  # the last failure: the fine first
            paid = np.zeros(size)
            paid[: size - fine] = vec[fine:]
            for (dst, flow), q in free_moves[(jail_sq, False)].items():
                ruin += apply(paid, flow, q, njail[0] if dst == JAIL else nfree[dst])
        free, jail = nfree, njail
        pmf.append(ruin)
    assert abs(sum(pmf) + free.sum() + jail.sum() - 1.0) < 1e-9
    return np.array(pmf)


def engine_own_turns_ruin(state: GameState, player: int, turns: int, games: int, seed0: int = 0) -> np.ndarray:
    """Monte Carlo with the reference engine, the player's own turns only.

    Each game copies ``state`` and plays the player's turns with
    :class:`engine.rules.game.Game` (passive :class:`engine.rules.agents.BaseAgent` seats,
    real decks shuffled by :class:`engine.rules.streams.SeededStream` and drawn
    without replacement), handing the turn straight back to the player after
    each one: the opponents never move nor draw, so their holdings stay
    frozen and their cards neither move the player's cash nor the decks, as
    in the chain. Returns the fraction of games first ruined (bankrupt) at
    each turn, entry 0 = 0.
    """
    hits = np.zeros(turns + 1)
    for g in range(games):
        st = state.copy()
        st.to_move = player
        game = Game(st, [BaseAgent() for _ in st.players], SeededStream(seed0 + g), max_rounds=10**9)
        for t in range(1, turns + 1):
            game.play_turn()
            if st.players[player].bankrupt:
                hits[t] += 1
                break
            assert not game.over
            st.to_move = player
    return hits / games
