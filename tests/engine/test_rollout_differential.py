"""Two engines, one truth: the batch kernel and the reference engine play the
same games (same fixed policy, same counter-based dice and cards) and must
agree after every turn on the doubles counter after each roll of the turn,
cash, positions, jail, bankruptcy, net worths, held Get Out of Jail Free cards
(who holds which, in which order), ownership, buildings, mortgages, both
decks (order of the cards left, shuffles, held cards), and, once the game is
over, on its winner and why it ended (:class:`engine.sim.trace.TraceLayout`).
A low round cap checks the capped winner, ties included, also against
:func:`engine.sim.rollout.simulate`, the untraced kernel.

The policies: the default (trades and mortgages to build), two variants of
it, the old one (``trade=False, mortgage_to_build=False``), and one policy
per seat (seat 0 holds: ``trade=False``; the others with other premiums,
reserves and ``mortgage_to_build`` settings).

Rule variants (:class:`models.rules.Rules`): every preset and every variant
field is played from several instances (:data:`VARIANTS`); the trace then
also holds the Free Parking pot, the bank's cash and the with-replacement
draws, and each variant must take its own rule path in the compared games
(``needed``) and never a path its rules forbid (``never``), counted from the
reference engine's events (:func:`_variant_coverage`) and rows
(:func:`_variant_trace_coverage`). The untraced kernel (:func:`simulate`)
must agree on every winner, final net worth and end reason. The standard
rules never take a variant's path."""

from __future__ import annotations

import collections
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from engine.rules.actions import Event
from engine.rules.game import POT_REASONS, Game
from engine.rules.streams import stream_keys
from engine.sim._kernel import TRACE_ROLLS
from engine.sim.rollout import (
    DECK_FIELDS,
    GAME_FIELDS,
    PLAYER_FIELDS,
    REASON_CODES,
    TraceLayout,
    kernel_trace,
    reference_game,
    reference_trace,
    simulate,
)
from engine.sim.rollout_policy import RolloutPolicy
from models.board import HOTEL
from models.io import load_state, repair_state, validate_state
from models.rules import PRESETS, VARIANT_FIELDS, DiceSpec, Rules
from models.state import GameState

INSTANCES = sorted(p for p in (Path(__file__).resolve().parents[2] / "instances").glob("*.json") if load_state(p).pending is None)
"""The bundled states between questions (a game does not start on a pending question)."""
MIXED = "one policy per seat"
POLICIES: tuple[RolloutPolicy | str, ...] = (
    RolloutPolicy(),
    RolloutPolicy(jail="pay", build_reserve=0, unmortgage_reserve=0, sell_premium=0),
    RolloutPolicy(buy_reserve=200, max_level=3),
    RolloutPolicy(trade=False, mortgage_to_build=False),
    MIXED,
)
"""Every seat plays the same policy, or (``MIXED``) one per seat (:func:`_seat_policies`)."""


def _seat_policies(state: GameState, policy: RolloutPolicy | str | tuple[RolloutPolicy, ...]) -> tuple[RolloutPolicy, ...]:
    """``policy`` for every seat; ``MIXED``: seat 0 holds (``trade=False``), seat ``i``
    asks a premium of ``50 i`` percent and mortgages to build when ``i`` is odd, seat 1 takes
    no action of its own before its third turn and seat 2 before its first (``wait_turns``);
    seat 1 also declines every offer while it waits (``wait_declines``), seat 2 does not."""
    n = len(state.players)
    if isinstance(policy, RolloutPolicy):
        return (policy,) * n
    if isinstance(policy, tuple):
        return policy
    return tuple(
        RolloutPolicy(
            trade=i != 0,
            sell_premium=50 * i,
            mortgage_to_build=i % 2 == 1,
            build_reserve=100 + 50 * (i % 2),
            wait_turns=(0, 3, 1)[i] if i < 3 else 0,
            wait_declines=i == 1,
        )
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


def _compare(state: GameState, key: int, policy: RolloutPolicy | str | tuple[RolloutPolicy, ...], observers=(), horizon: int = HORIZON) -> np.ndarray:  # type: ignore[no-untyped-def]
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
    variant: collections.Counter[str] = collections.Counter()
    observe = _coverage(counter)
    games = 0
    for path in INSTANCES:
        state = load_state(path)
        assert not state.rules.variant_overrides()
        for pi, policy in enumerate(POLICIES):
            for key in stream_keys(pi, KEYS_PER_CASE):
                rows = _compare(state, int(key), policy, observers=[observe, _variant_coverage(variant)])
                _trace_coverage(counter, TraceLayout.of(state), rows)
                _variant_trace_coverage(variant, TraceLayout.of(state), rows, state.phase != "start")
                games += 1
    assert games >= 200
    missing = NEEDED - set(counter)
    assert not missing, f"paths never exercised: {sorted(missing)}"
    taken = STANDARD_NEVER & {k for k, v in variant.items() if v}
    assert not taken, f"the standard rules took a variant's path: {sorted(taken)}"


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


@pytest.mark.parametrize("phase", ["start", "rolled"])
def test_waiting_seat_declines(phase: str) -> None:
    """The seat under "not now" (``wait_turns``, ``wait_declines``) in both engines, also when the
    state resumes its own turn in phase ``rolled`` (the reference counts that turn from
    ``game_start``'s ``resumed``). The path must matter: with and without ``wait_declines`` some
    games differ, or the comparison would prove nothing about it."""
    state = load_state(INSTANCES[0].parent / "midgame-no-monopolies.json")
    state.phase = phase
    n, me = len(state.players), state.to_move
    differ = 0
    for key in stream_keys(13, 8):
        traces = []
        for declines in (True, False):
            policy = tuple(RolloutPolicy(wait_turns=2, wait_declines=declines) if q == me else RolloutPolicy() for q in range(n))
            traces.append(_compare(state, int(key), policy))
        differ += traces[0].shape != traces[1].shape or bool((traces[0] != traces[1]).any())
    assert differ >= 2, f"wait_declines changed only {differ} of 8 games"


def test_acceptance_moods() -> None:
    """Seats that accept a proposer's trades in only some games (``accept`` below 100, one draw
    per game and ordered pair from stream 5) play the same games in both engines. The path must
    matter: against every seat at 100 some games differ, and the trades made fall with the rate."""
    state = load_state(INSTANCES[0].parent / "midgame-no-monopolies.json")
    n = len(state.players)
    differ = 0
    for key in stream_keys(17, 8):
        full = _compare(state, int(key), RolloutPolicy())
        moody = _compare(state, int(key), tuple(RolloutPolicy(accept=(30, 60, 100, 0)[q % 4]) for q in range(n)))
        differ += full.shape != moody.shape or bool((full != moody).any())
    assert differ >= 2, f"accept changed only {differ} of 8 games"


def test_value_pricing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats pricing by static value (``pricing="value"``, every seat or every other seat, the
    others at the premium) play the same games in both engines. The path must matter: the
    reference makes value-priced sales and swaps, and some games differ from the premium's."""
    import engine.sim.rollout_policy as rp

    made: collections.Counter[str] = collections.Counter()
    find = rp.find_trade

    def counting(view, p, policies, turns=None, key=None):  # type: ignore[no-untyped-def]
        trade = find(view, p, policies, turns, key)
        if trade is not None:
            q = next(i for i in range(view.n_players) if i != p and view.name(i) in trade.participants())
            if policies[q].pricing == "value":
                made["swap" if trade.properties_given(view.name(p)) else "sale"] += 1
        return trade

    monkeypatch.setattr(rp, "find_trade", counting)
    differ = 0
    for name in ("midgame-no-monopolies.json", "cycle-orange-red-yellow.json"):
        state = load_state(INSTANCES[0].parent / name)
        n = len(state.players)
        mixed = tuple(RolloutPolicy(pricing=("value", "premium")[q % 2], build_reserve=100 + 50 * (q % 2)) for q in range(n))
        for key in stream_keys(31, 4):
            premium = _compare(state, int(key), RolloutPolicy())
            value = _compare(state, int(key), RolloutPolicy(pricing="value"))
            _compare(state, int(key), mixed)
            differ += premium.shape != value.shape or bool((premium != value).any())
    assert made["sale"] >= 3 and made["swap"] >= 3, made
    assert differ >= 2, f"value pricing changed only {differ} of 8 games"


def test_nobody_accepting_is_nobody_trading() -> None:
    """Every seat at ``accept=0`` proposes to nobody, so the games are those of every seat with
    trading off (an identity of two different paths through the kernel: the moods against the
    policy's trade flag), game by game over 200 games; at 100 the trading games differ."""
    state = load_state(INSTANCES[0].parent / "midgame-no-monopolies.json")
    none = simulate(state, 200, 40, seed=3, policy=RolloutPolicy(accept=0))
    off = simulate(state, 200, 40, seed=3, policy=RolloutPolicy(trade=False))
    on = simulate(state, 200, 40, seed=3, policy=RolloutPolicy())
    assert np.array_equal(none.winners, off.winners) and np.array_equal(none.worths, off.worths)
    assert not np.array_equal(on.worths, off.worths)


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


# ---------------------------------------------------------------------------
# rule variants
# ---------------------------------------------------------------------------
def _variant_coverage(counter: collections.Counter[str]):  # type: ignore[no-untyped-def]
    """An observer counting the rule paths of the variants in the reference engine's events.

    One observer per game (it keeps the game's card draws and the pot between events)."""
    g: dict[str, object] = {}

    def observe(ev: Event, game: Game) -> None:
        s, d, kind, rules = game.state, ev.data, ev.kind, game.state.rules
        if kind == "game_start":
            g.clear()
            g["draws"] = {name: [] for name in ("chance", "community_chest")}
            # A shuffled deck's first cycle holds the cards not held at the start, each once.
            g["cycle"] = {name: len(s.board.deck(name)) - len(game.decks[name].held) for name in ("chance", "community_chest")}
            g["pot"] = s.pot
            return
        prev_pot, g["pot"] = g["pot"], s.pot
        if g.pop("collected", False) and rules.free_parking_seed and s.pot >= rules.free_parking_seed:
            counter["pot reseeded"] += 1  # Game._collect_pot puts the seed back after its event
        if g.pop("salary_due", False) and not (kind == "cash" and d["why"] == "Go salary"):
            counter["salary unpaid (bank empty)"] += 1  # passed Go, no salary event: nothing was paid
        if kind == "turn":
            g["rolled"] = False
            g["jail_turns"] = s.players[ev.player].jail_turns if ev.player is not None else 0
        elif kind == "roll":
            g["rolled"] = True
            if d["why"] == "move" and d["doubles"] and not rules.doubles_again:
                counter["double without a second roll"] += 1
        elif kind == "roll_end" and d["in_jail"] and not g.get("rolled", True):
            counter["sat out in jail"] += 1  # a jail turn without a throw
        elif kind == "jail":
            counter["jailed: " + d["why"]] += 1
        elif kind == "leave_jail":
            counter["leave_" + d["how"]] += 1
            if d["how"] == "third roll":
                counter[f"paid out on jail turn {g['jail_turns'] + 1}"] += 1  # type: ignore[operator]
        elif kind == "card":
            seen = g["draws"][d["deck"]]  # type: ignore[index]
            if len(seen) < g["cycle"][d["deck"]] and d["card"] in seen:  # type: ignore[index]
                counter["card repeated within a deck's first cycle"] += 1  # never from a shuffled deck
            seen.append(d["card"])
        elif kind == "move" and d["passed_go"]:
            g["salary_due"] = True
        elif kind == "cash":
            why = d["why"]
            if why == "Go salary" and d["amount"] < rules.go_salary:
                counter["salary cut short"] += 1
            elif why == "Go landing bonus":
                counter["Go landing bonus"] += 1
            elif why == "Free Parking pot":
                counter["pot collected"] += 1
                g["collected"] = True
            elif d["to"] is None and d["frm"] is not None and s.pot - prev_pot == d["amount"] > 0:
                what = "fine" if why.startswith("jail fine") else why if why in POT_REASONS else "tax"
                counter[what + " to the pot"] += 1
            if d["frm"] is None and s.bank_cash == 0:
                counter["bank emptied"] += 1
        elif kind == "declined":
            counter["declined"] += 1
        elif kind == "auction":
            counter["auction"] += 1
        elif kind == "buy":
            counter["buy"] += 1
        elif kind == "bankrupt" and d["creditor"] is None and d["properties"] and not rules.auctions:
            counter["a bankrupt's lots kept by the bank"] += 1
        elif kind == "sell_building":
            sq = next(iter(d["levels"]))
            lots = [q for q in s.board.groups[s.group_of(sq)] if s.owner[q] == ev.player]
            if max(s.houses[q] for q in lots) - min(s.houses[q] for q in lots) > 1:
                counter["uneven group after a sale"] += 1  # a hotel broken alone under a shortage
        elif kind == "game_end":
            counter["ended by " + d["reason"]] += 1

    return observe


def _variant_trace_coverage(counter: collections.Counter[str], layout: TraceLayout, rows: np.ndarray, mid_turn: bool = False) -> None:
    """Count the variants' paths seen in the reference's rows (``mid_turn``: the first row
    finishes a turn that the state started, doubles already rolled)."""
    for t, row in enumerate(rows):
        if row[0] >= 2 and not (mid_turn and t == 0):
            counter["two rolls in a turn"] += 1
        if row[0] >= 4:
            counter["four rolls in a turn"] += 1
        if row[0] > TRACE_ROLLS:
            counter["more rolls than the trace records"] += 1
    if len(rows):
        for d in range(2):
            counter["deck shuffled"] += int(rows[-1][layout.deck(d) + DECK_FIELDS.index("shuffles")])
            counter["card drawn with replacement"] += int(rows[-1][layout.deck(d) + DECK_FIELDS.index("draws")])


VARIANT_STATES = ("opening", "midgame-no-monopolies", "late-game-house-shortage", "near-ruin", "mortgaged")
VARIANT_POLICIES = (
    RolloutPolicy(),
    RolloutPolicy(trade=False, mortgage_to_build=False),
    RolloutPolicy(jail="pay", build_reserve=0, unmortgage_reserve=0, sell_premium=0),
)


@dataclass(frozen=True)
class Variant:
    """Rules to compare the engines under, the paths they must take and those they must not."""

    rules: Rules
    needed: frozenset[str]
    never: frozenset[str] = frozenset()
    states: tuple[str, ...] = VARIANT_STATES
    policies: tuple[RolloutPolicy, ...] = VARIANT_POLICIES
    keys: int = 3
    horizon: int = HORIZON


def _v(rules: Rules, needed: set[str], never: set[str] = frozenset(), **kw) -> Variant:  # type: ignore[assignment, no-untyped-def]
    return Variant(rules, frozenset(needed), frozenset(never), **kw)


POT_PATHS = {"tax to the pot", "fine to the pot", "card to the pot", "repairs to the pot", "pot collected"}
NO_DOUBLES_POLICIES = (RolloutPolicy(max_level=0), RolloutPolicy(max_level=2, build_reserve=500), RolloutPolicy())
VARIANTS: dict[str, Variant] = {
    # every variant field alone (VARIANT_FIELDS; test_variants_cover_every_field)
    "doubles_again=false": _v(Rules(doubles_again=False), {"double without a second roll"}, {"two rolls in a turn"}),
    "doubles_to_jail=0": _v(Rules(doubles_to_jail=0), {"four rolls in a turn"}, {"jailed: third double"}),
    "doubles_to_jail=0, two-sided dice": _v(
        Rules(doubles_to_jail=0, dice=DiceSpec(2, 2)), {"more rolls than the trace records"}, {"jailed: third double"}
    ),
    "doubles_to_jail=1": _v(Rules(doubles_to_jail=1), {"jailed: double number 1"}, {"two rolls in a turn"}),
    "max_jail_rolls=1": _v(Rules(max_jail_rolls=1), {"paid out on jail turn 1"}, {"paid out on jail turn 2", "paid out on jail turn 3"}),
    "max_jail_rolls=2": _v(Rules(max_jail_rolls=2), {"paid out on jail turn 2"}, {"paid out on jail turn 1", "paid out on jail turn 3"}),
    "jail_doubles=false": _v(Rules(jail_doubles=False), {"sat out in jail", "leave_third roll"}, {"leave_doubles"}),
    "jail_release=free": _v(Rules(jail_release="free"), {"leave_served"}, {"leave_third roll"}),
    "card_draw=replacement": _v(
        Rules(card_draw="replacement"), {"card repeated within a deck's first cycle", "card drawn with replacement"}, {"deck shuffled"}
    ),
    "free_parking=taxes": _v(
        Rules(free_parking="taxes"), {"tax to the pot", "pot collected"}, {"fine to the pot", "card to the pot", "repairs to the pot"}
    ),
    "free_parking=bank": _v(Rules(free_parking="bank"), POT_PATHS),
    "free_parking_seed": _v(Rules(free_parking="taxes", free_parking_seed=300), {"pot collected", "pot reseeded"}),
    "go_landing_bonus": _v(Rules(go_landing_bonus=True), {"Go landing bonus"}),
    "auctions=false": _v(Rules(auctions=False), {"declined", "a bankrupt's lots kept by the bank"}, {"auction"}),
    "auction_only": _v(Rules(auction_only=True), {"auction"}, {"buy", "declined"}),
    "even_building=false": _v(Rules(even_building=False), {"uneven group after a sale"}),
    "bank_cash": _v(Rules(bank_cash=2000), {"bank emptied", "salary cut short", "salary unpaid (bank empty)"}),
    "cash_target": _v(Rules(cash_target=2500), {"ended by cash_target", "ended by bankruptcy"}),
    # near-ruin starts at round 42: over at once
    "round_limit": _v(Rules(round_limit=40), {"ended by round_limit", "ended by bankruptcy"}, {"ended by round_cap"}),
    "round_limit beyond the horizon": _v(Rules(round_limit=200), {"ended by round_cap"}, {"ended by round_limit"}),
    # the presets
    "house-jackpot": _v(PRESETS["house-jackpot"], POT_PATHS | {"Go landing bonus", "declined", "a bankrupt's lots kept by the bank"}, {"auction"}),
    "no-doubles": _v(
        PRESETS["no-doubles"],
        {
            "double without a second roll",
            "leave_served",
            "card repeated within a deck's first cycle",
            "bank emptied",
            "salary unpaid (bank empty)",
            "ended by cash_target",
        },
        {"two rolls in a turn", "leave_doubles", "leave_third roll", "deck shuffled", "sat out in jail"},
        states=("opening", "two-player", "midgame-no-monopolies"),
        policies=NO_DOUBLES_POLICIES,
        keys=4,
        horizon=200,
    ),
    "short-game": _v(PRESETS["short-game"], {"ended by round_limit", "ended by bankruptcy"}),
}
"""Each preset and each variant field (some twice), with the paths they must and must not take."""
STANDARD_NEVER = frozenset(
    {
        "double without a second roll",
        "four rolls in a turn",
        "jailed: double number 1",
        "paid out on jail turn 1",
        "paid out on jail turn 2",
        "sat out in jail",
        "leave_served",
        "card repeated within a deck's first cycle",
        "card drawn with replacement",
        "pot collected",
        "pot reseeded",
        "Go landing bonus",
        "declined",
        "a bankrupt's lots kept by the bank",
        "uneven group after a sale",
        "bank emptied",
        "salary cut short",
        "salary unpaid (bank empty)",
        "ended by cash_target",
        "ended by round_limit",
    }
    | POT_PATHS
)
"""Variant paths that the standard rules never take (checked on the 750 standard games)."""


def _with_rules(state: GameState, rules: Rules) -> GameState:
    """``state`` under ``rules``: the pot at its seed, the bank at the rules' cash, and what
    the rules forbid repaired (:func:`models.io.repair_state`: jail turns beyond
    ``max_jail_rolls``, a doubles count without ``doubles_again``), so a valid state."""
    out = state.copy()
    out.rules = rules
    out.pot = rules.free_parking_seed
    out.bank_cash = rules.bank_cash
    out = repair_state(out).state
    validate_state(out)
    return out


def test_variants_cover_every_preset_and_field() -> None:
    rules = [v.rules for v in VARIANTS.values()]
    assert all(p in rules for p in PRESETS.values() if p != Rules())
    alone = {next(iter(r.variant_overrides())) for r in rules if len(r.variant_overrides()) == 1}
    assert alone | {"free_parking_seed"} == set(VARIANT_FIELDS)  # the seed needs a pot: with free_parking


@pytest.mark.parametrize("name", list(VARIANTS))
def test_variant(name: str) -> None:
    v = VARIANTS[name]
    counter: collections.Counter[str] = collections.Counter()
    games = 0
    for si, state_name in enumerate(v.states):
        state = _with_rules(load_state(INSTANCES[0].parent / f"{state_name}.json"), v.rules)
        layout = TraceLayout.of(state)
        reason_col = layout.game + GAME_FIELDS.index("reason")
        winner_col = layout.game + GAME_FIELDS.index("winner")
        worth_cols = [layout.player(q) + PLAYER_FIELDS.index("net_worth") for q in range(layout.n_players)]
        for pi, policy in enumerate(v.policies):
            seed = 1000 * si + pi
            keys = stream_keys(seed, v.keys)
            sim = simulate(state, v.keys, v.horizon, seed=seed, policy=policy, scoring="net_worth")
            reasons: collections.Counter[str] = collections.Counter()
            for g, key in enumerate(keys):
                rows = _compare(state, int(key), policy, observers=[_variant_coverage(counter)], horizon=v.horizon)
                _variant_trace_coverage(counter, layout, rows, state.phase != "start")
                games += 1
                if len(rows):
                    last = rows[-1]
                    reason = next(r for r, c in REASON_CODES.items() if c == last[reason_col])
                    winner, worths = int(last[winner_col]), last[worth_cols]
                else:  # over before the first turn (a target or a limit already met): no row
                    res = reference_game(state, int(key), v.horizon, policy).result
                    assert res is not None
                    reason, winner = res.reason, res.winner_index
                    worths = np.array([state.net_worth(q) for q in range(layout.n_players)])
                reasons[reason] += 1
                assert sim.winners[g] == winner, f"simulate: game {g} won by {sim.winners[g]}, reference {winner}"
                assert np.array_equal(sim.worths[g], worths.astype(np.float32))
            assert {r: round(f * v.keys) for r, f in sim.ended.items() if f} == dict(reasons)
    missing = v.needed - {k for k, n in counter.items() if n}
    assert not missing, f"{name}: paths never exercised in {games} games: {sorted(missing)}"
    taken = v.never & {k for k, n in counter.items() if n}
    assert not taken, f"{name}: paths the rules forbid were taken: {sorted(taken)}"
