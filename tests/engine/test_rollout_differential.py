"""Two engines, one truth: the batch kernel and the reference engine play the
same games (same fixed policy, same counter-based dice and cards) and must
agree after every turn on the doubles counter after each roll of the turn,
cash, positions, jail, bankruptcy, net worths, held Get Out of Jail Free cards
(who holds which, in which order), ownership, buildings, mortgages, both
decks (order of the cards left, shuffles, held cards), and, once the game is
over, on its winner and why it ended (:class:`engine.rollout.TraceLayout`).
A low round cap checks the capped winner, ties included, also against
:func:`engine.rollout.simulate`, the untraced kernel.

The policies: the default (trades and mortgages to build), two variants of
it, the old one (``trade=False, mortgage_to_build=False``), and one policy
per seat (seat 0 holds: ``trade=False``; the others with other premiums,
reserves and ``mortgage_to_build`` settings)."""

from __future__ import annotations

import collections
from pathlib import Path

import numpy as np
import pytest

from engine.actions import Event
from engine.game import Game
from engine.rollout import (
    GAME_FIELDS,
    PLAYER_FIELDS,
    REASON_CODES,
    TraceLayout,
    kernel_trace,
    reference_trace,
    simulate,
)
from engine.rollout_policy import RolloutPolicy
from engine.streams import stream_keys
from models.board import HOTEL
from models.io import load_state
from models.rules import DiceSpec, Rules
from models.state import GameState

INSTANCES = sorted((Path(__file__).resolve().parents[2] / "instances").glob("*.json"))
MIXED = "one policy per seat"
POLICIES: tuple[RolloutPolicy | str, ...] = (
    RolloutPolicy(),
    RolloutPolicy(jail="pay", build_reserve=0, unmortgage_reserve=0, sell_premium=0),
    RolloutPolicy(buy_reserve=200, max_level=3),
    RolloutPolicy(trade=False, mortgage_to_build=False),
    MIXED,
)
"""Every seat plays the same policy, or (``MIXED``) one per seat (:func:`_seat_policies`)."""


def _seat_policies(state: GameState, policy: RolloutPolicy | str) -> tuple[RolloutPolicy, ...]:
    """``policy`` for every seat; ``MIXED``: seat 0 holds (``trade=False``), seat ``i``
    asks a premium of ``50 i`` percent and mortgages to build when ``i`` is odd."""
    n = len(state.players)
    if isinstance(policy, RolloutPolicy):
        return (policy,) * n
    return tuple(
        RolloutPolicy(trade=i != 0, sell_premium=50 * i, mortgage_to_build=i % 2 == 1, build_reserve=100 + 50 * (i % 2))
        for i in range(n)
    )

KEYS_PER_CASE = 10
HORIZON = 80

# Every rule path the kernel transcribes must be met by these games, or the
# comparison would prove nothing about it.
NEEDED = {
    "auction won",
    "bankrupt to bank or several",
    "bankrupt to a player",
    "liquidation sale",
    "hotel broken under shortage",
    "mortgage",
    "unmortgage",
    "even_out",
    "hotel built",
    "interest on a received mortgage",
    "leave_card",
    "leave_pay",
    "leave_doubles",
    "leave_third roll",
    "utility card roll",
    "card_each_player",
    "card_repairs",
    "card_move",
    "card_advance_nearest",
    "card_jail_free",
    "third double",
    # the state the trace added (see _trace_coverage)
    "two rolls in a turn",
    "doubles counter at 2",
    "jail card held from chance",
    "jail card held from community_chest",
    "two jail cards held",
    "reshuffle with a card held",
    "jail cards to a creditor",
    "jail cards back to the decks",
    "ended by bankruptcy",
    "ended at the round cap",
    # the policy's trades and mortgages (see _coverage)
    "swap",
    "swap with cash",
    "purchase",
    "mortgage to build",
    "held seat",
}


def _coverage(counter: collections.Counter[str]):  # type: ignore[no-untyped-def]
    last: list[tuple[str, int | None]] = [("", None)]

    def observe(ev: Event, game: Game) -> None:
        d = ev.data
        if ev.kind == "cash" and d["why"] in ("mortgage", "building"):
            pass  # part of a mortgage or a build: not a break between them
        elif ev.kind == "build" and last[0] == ("mortgage", ev.player):
            counter["mortgage to build"] += 1  # a liquidation's mortgage is followed by the payment
        if not (ev.kind == "cash" and d["why"] in ("mortgage", "building")):
            last[0] = (ev.kind, ev.player)
        if ev.kind == "trade":
            assert d["accepted"], "the policy proposes only what the other side accepts"
            trade = d["trade"]
            held = [i for i, a in enumerate(game.agents) if not a.policy.trade]  # type: ignore[attr-defined]
            assert not {game.state.players[i].name for i in held} & set(trade.participants()), "a held seat traded"
            counter["held seat"] += bool(held)
            if all(t.properties for t in trade.transfers):
                counter["swap"] += 1
                counter["swap with cash"] += any(t.cash for t in trade.transfers)
            else:
                counter["purchase"] += 1
        elif ev.kind == "bankrupt":
            counter["bankrupt to a player" if d["creditor"] is not None else "bankrupt to bank or several"] += 1
        elif ev.kind == "sell_building":
            counter["liquidation sale"] += 1
            if len(d["levels"]) > 1 or any(v < HOTEL - 1 for v in d["levels"].values()):
                counter["hotel broken under shortage"] += 1
        elif ev.kind == "leave_jail":
            counter["leave_" + d["how"]] += 1
        elif ev.kind == "jail" and d["why"] == "third double":
            counter["third double"] += 1
        elif ev.kind == "roll" and d["why"] == "utility card":
            counter["utility card roll"] += 1
        elif ev.kind == "card":
            counter["card_" + game.state.board.deck(d["deck"])[d["card"]].action] += 1
        elif ev.kind == "auction" and d["winner"] is not None:
            counter["auction won"] += 1
        elif ev.kind in ("even_out", "unmortgage", "mortgage"):
            counter[ev.kind] += 1
        elif ev.kind == "build" and d["level"] == HOTEL:
            counter["hotel built"] += 1
        elif ev.kind == "cash" and d["why"].startswith("interest"):
            counter["interest on a received mortgage"] += 1

    return observe


def _trace_coverage(counter: collections.Counter[str], layout: TraceLayout, rows: np.ndarray) -> None:
    """Count the paths of the state the trace added, from the reference's rows."""
    players = range(layout.n_players)

    def col(row: np.ndarray, q: int, name: str) -> int:
        return int(row[layout.player(q) + PLAYER_FIELDS.index(name)])

    for t, row in enumerate(rows):
        rolls = row[1 : 1 + min(int(row[0]), layout.game - 1)]
        if len(rolls) >= 2:
            counter["two rolls in a turn"] += 1
        if 2 in rolls:
            counter["doubles counter at 2"] += 1
        for q in players:
            decks = set(row[layout.held(q)][0::2].tolist()) - {-1}
            for d in decks:
                counter["jail card held from " + ("chance", "community_chest")[d]] += 1
            if col(row, q, "jail_cards") >= 2:
                counter["two jail cards held"] += 1
        if t == 0:
            continue
        prev = rows[t - 1]
        for d in range(2):
            if row[layout.deck(d)] > prev[layout.deck(d)] and prev[layout.deck_held(d)].any() and row[layout.deck_held(d)].any():
                counter["reshuffle with a card held"] += 1
        for q in players:
            if col(row, q, "bankrupt") and not col(prev, q, "bankrupt") and col(prev, q, "jail_cards"):
                to_player = any(col(row, c, "jail_cards") > col(prev, c, "jail_cards") for c in players if c != q)
                counter["jail cards to a creditor" if to_player else "jail cards back to the decks"] += 1
    reason = int(rows[-1][layout.game + GAME_FIELDS.index("reason")])
    if reason == REASON_CODES["bankruptcy"]:
        counter["ended by bankruptcy"] += 1
    elif reason == REASON_CODES["round_cap"]:
        counter["ended at the round cap"] += 1


def _compare(state: GameState, key: int, policy: RolloutPolicy | str, observers=(), horizon: int = HORIZON) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Both engines' traces of one game, which must be equal; returns the reference's."""
    policy = _seat_policies(state, policy)
    ref = reference_trace(state, key, horizon, policy, observers=observers)
    ker = kernel_trace(state, key, horizon, policy)
    assert ker.shape == ref.shape, f"{len(ker)} kernel turns against {len(ref)} reference turns"
    bad = np.nonzero((ker != ref).any(axis=1))[0]
    if bad.size:
        t = int(bad[0])
        names = TraceLayout.of(state).names()
        diff = [f"{names[c]}: kernel {ker[t, c]}, reference {ref[t, c]}" for c in np.nonzero(ker[t] != ref[t])[0]]
        raise AssertionError(f"key {key}, first differing turn {t}: " + "; ".join(diff))
    return ref


def test_instances_all_policies_750_games() -> None:
    counter: collections.Counter[str] = collections.Counter()
    observe = _coverage(counter)
    games = 0
    for path in INSTANCES:
        state = load_state(path)
        for pi, policy in enumerate(POLICIES):
            for key in stream_keys(pi, KEYS_PER_CASE):
                rows = _compare(state, int(key), policy, observers=[observe])
                _trace_coverage(counter, TraceLayout.of(state), rows)
                games += 1
    assert games >= 200
    missing = NEEDED - set(counter)
    assert not missing, f"paths never exercised: {sorted(missing)}"


@pytest.mark.parametrize(
    "dice",
    [DiceSpec(3, 6), DiceSpec(1, 12), DiceSpec(2, 8, (1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 3.0, 5.0))],
    ids=["three-dice", "one-die", "loaded-d8"],
)
def test_other_dice(dice: DiceSpec) -> None:
    state = GameState.new_game(["A", "B", "C"], rules=Rules(dice=dice))
    for key in stream_keys(11, 6):
        _compare(state, int(key), RolloutPolicy())


def test_mid_turn_state_with_doubles_and_held_cards() -> None:
    state = load_state(INSTANCES[0].parent / "late-game-house-shortage.json")
    state.phase = "rolled"
    state.doubles_rolled = 1
    state.players[state.to_move].jail_cards = 1
    for key in stream_keys(5, 6):
        _compare(state, int(key), RolloutPolicy())


CAP = 3
"""Rounds of the round-cap test (also 1 from the opening): short enough that most games reach the cap."""


def test_round_cap_winner_and_ties() -> None:
    """A low round cap: most games end there and are won by the highest net
    worth, ties to the earlier seat. Each engine's winner is in its trace;
    :func:`simulate` (the kernel compiled without tracing) must pick the same
    winners and report the same final net worths, game by game."""
    cases = [(load_state(path), CAP) for path in INSTANCES]
    # From the opening, net worths stay level for a while (a purchase keeps it): ties.
    cases += [(GameState.new_game(["A", "B", "C", "D"][:n]), cap) for n in (2, 3, 4) for cap in (1, CAP)]
    games = capped = ties = 0
    for si, (state, cap) in enumerate(cases):
        layout = TraceLayout.of(state)
        worth_cols = [layout.player(q) + PLAYER_FIELDS.index("net_worth") for q in range(layout.n_players)]
        bankrupt_cols = [layout.player(q) + PLAYER_FIELDS.index("bankrupt") for q in range(layout.n_players)]
        for pi, policy in enumerate(POLICIES):
            seed = 100 * si + pi
            keys = stream_keys(seed, 8)
            sim = simulate(state, len(keys), cap, seed=seed, policy=_seat_policies(state, policy))
            for g, key in enumerate(keys):
                last = _compare(state, int(key), policy, horizon=cap)[-1]
                winner = int(last[layout.game + GAME_FIELDS.index("winner")])
                worths = last[worth_cols]
                assert sim.winners[g] == winner, f"simulate: game {g} won by {sim.winners[g]}, reference {winner}"
                assert np.array_equal(sim.worths[g], worths.astype(np.float32))
                games += 1
                if last[layout.game + GAME_FIELDS.index("reason")] != REASON_CODES["round_cap"]:
                    continue
                capped += 1
                active = [q for q in range(layout.n_players) if not last[bankrupt_cols[q]]]
                best = max(worths[q] for q in active)
                assert winner == min(q for q in active if worths[q] == best)
                ties += sum(worths[q] == best for q in active) > 1
    assert capped >= 0.8 * games, f"only {capped} of {games} games reached the cap"
    assert ties >= 20, f"only {ties} capped games with a tie for the highest net worth"
