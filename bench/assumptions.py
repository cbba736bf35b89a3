"""The seed's "Assumptions to Test" (seed 000), measured.

    python bench/assumptions.py [--games 30] [--seed 0] [--every 10] [--max-states 100]
                                [--max-round 100] [--rollouts 300] [--horizon 20]
                                [--dropped 20] [--workers 2]
                                [--a-rollouts 4000] [--a-horizon 40]

(a) "Never trade complete sets": built states where a player holds brown
    (unbuilt, or with 4 houses a lot, sold before the trade) and two pieces
    of orange or red, and gives brown (+- cash) for the last piece.
    Before/after simulated on the same dice (``simulate`` + ``paired_delta``).
(b) Exploiting the heuristic: every re-scored bilateral trade (the solver's
    ``decide`` list and the funnel candidates of (c)); would a
    ``StrategicTradeAgent`` partner accept, and does it lose (< -2 SE)?
(c) Pruning: the explicit funnel (``run_funnel`` rules, ``FrontierValues``);
    up to ``--dropped`` candidates dropped by rule 1 (completion) and as many
    by rule 3 (counterparty) per (state, proposer), and the surviving ones,
    re-scored by simulation; how many dropped ones are in the Nash zone and
    how they compare with the best survivor.
(d) Third-party check: the choice among ``decide``'s re-scored trades with
    and without the ``balanced`` filter (emulated: ``decide`` builds its
    ``RescoreSettings`` itself), and the time of ``self_balancing`` per trade.

States: as in ``bench/heuristic_vs_solver.py`` (games of four
``StrategicTradeAgent``s), every active player as the proposer.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import time
from typing import Any

from heuristic_vs_solver import (
    sample_states,  # bench/ is sys.path[0] when run as a script
)

from engine.chains.markov import PositionChain
from engine.rules.view import GameView
from engine.sim.rollout import paired_delta, simulate
from engine.tournament import wilson
from models.state import GameState
from models.trade import Trade
from solver.agents.strategic import StrategicTradeAgent, exact_landings_per_turn
from solver.analysis.reserve import reserves
from solver.decide import TRADE, decide
from solver.trades.candidates import bilateral_candidates
from solver.trades.rescore import (
    Rescored,
    RescoreSettings,
    baseline,
    rescore_one,
    self_balancing,
    trade_after,
)
from solver.trades.rules import evaluate, undominated
from solver.trades.space import TradeSettings, TradeSpace
from solver.trades.values import FrontierValues

SIG = 2.0
_STATES: list[tuple[int, int, GameState]] = []
_LANDINGS: dict[object, tuple[float, ...]] = {}
_CHAIN: dict[object, PositionChain] = {}


def _agent(state: GameState, seat: int) -> StrategicTradeAgent:
    key = (id(state.board), id(state.rules))
    if key not in _LANDINGS:
        _LANDINGS[key] = exact_landings_per_turn(state.board, state.rules)
    a = StrategicTradeAgent(0, landings=_LANDINGS[key])
    a.start_game(seat, tuple(pl.name for pl in state.players))
    return a


def _accepts(state: GameState, trade: Trade, proposer: str) -> bool:
    ok = True
    for n in trade.participants():
        if n != proposer:
            q = state.player_index(n)
            ok = ok and _agent(state, q).accept_trade(GameView(state, q), trade)
    return ok


# ---------------------------------------------------------------------------
# (a) complete sets
# ---------------------------------------------------------------------------
def _a_state(target: str, brown_houses: int, cash: int) -> GameState:
    s = GameState.new_game(["A", "B", "C", "D"])
    own = {
        "A": ["Mediterranean Avenue", "Baltic Avenue"],
        "B": ["Reading Railroad", "Electric Company", "Oriental Avenue"],
        "C": ["Atlantic Avenue", "Pacific Avenue", "Short Line", "Vermont Avenue"],
        "D": ["Ventnor Avenue", "Park Place", "B&O Railroad", "States Avenue"],
    }
    if target == "orange":
        own["A"] += ["St. James Place", "Tennessee Avenue"]
        own["B"] += ["New York Avenue"]
        own["C"] += ["Kentucky Avenue"]
        own["D"] += ["Illinois Avenue"]
    else:
        own["A"] += ["Kentucky Avenue", "Indiana Avenue"]
        own["B"] += ["Illinois Avenue"]
        own["C"] += ["St. James Place"]
        own["D"] += ["New York Avenue"]
    for i, n in enumerate("ABCD"):
        for prop in own[n]:
            s.owner[s.square_of(prop)] = i
    for prop in ("Mediterranean Avenue", "Baltic Avenue"):
        s.houses[s.square_of(prop)] = brown_houses
    s.players[0].cash = cash
    for i, c in ((1, 900), (2, 900), (3, 900)):
        s.players[i].cash = c
    s.round = 20
    return s


def part_a(rollouts: int, horizon: int, seed: int) -> None:
    print(f"(a) giving the brown monopoly for the last piece of a better set ({rollouts} paired games, horizon {horizon})")
    print(f"    {'case':<52} {'dA':>7} {'SE':>6} {'dB':>7} {'SE':>6}  B accepts")
    for target, piece in (("orange", "New York Avenue"), ("red", "Illinois Avenue")):
        for houses, cash in ((0, 1000), (0, 300), (4, 1000)):
            before = _a_state(target, houses, cash)
            base = simulate(before, rollouts, horizon, seed)
            for pay in (-200, 0, 200, 400):
                if pay > cash:
                    continue
                mid = before.copy()
                sold = 0
                for prop in ("Mediterranean Avenue", "Baltic Avenue"):
                    sq = mid.square_of(prop)
                    sold += mid.houses[sq] * mid.board.squares[sq].house_cost // 2
                    mid.houses[sq] = 0
                mid.players[0].cash += sold
                tr = Trade.bilateral("A", "B", ["Mediterranean Avenue", "Baltic Avenue"], [piece], pay)
                if pay > 0:  # for reference: the same cash alone, brown (and its houses) kept
                    only = Trade.bilateral("A", "B", [], [piece], pay)
                    alone = simulate(trade_after(before, only), rollouts, horizon, seed)
                    ka, ksa = paired_delta(base, alone, "A")
                    kb, ksb = paired_delta(base, alone, "B")
                    acc0 = _agent(before, 1).accept_trade(GameView(before, 1), only)
                    label = f"{target}, brown {houses}h/lot kept, A ${cash}, cash only {pay:+d}"
                    print(f"    {label:<52} {ka:+.3f} {ksa:.3f} {kb:+.3f} {ksb:.3f}  {'yes' if acc0 else 'no'}")
                after = simulate(trade_after(mid, tr), rollouts, horizon, seed)
                da, sa = paired_delta(base, after, "A")
                db, sb = paired_delta(base, after, "B")
                acc = _agent(mid, 1).accept_trade(GameView(mid, 1), tr)
                label = f"{target}, brown {houses}h/lot{' (sold)' if houses else ''}, A ${cash}, A pays {pay:+d}"
                print(f"    {label:<52} {da:+.3f} {sa:.3f} {db:+.3f} {sb:.3f}  {'yes' if acc else 'no'}")


# ---------------------------------------------------------------------------
# (b)-(d) on sampled states
# ---------------------------------------------------------------------------
def _row(r: Rescored, state: GameState, me: str, source: str) -> dict[str, Any]:
    names = [pl.name for pl in state.players]
    others = [names[i] for i in r.candidate.players[1:]]
    worst = min(others, key=lambda n: r.win_delta[n])
    out: dict[str, Any] = {
        "src": source,
        "kind": r.candidate.kind,
        "key": (r.candidate.moves, r.candidate.cash),
        "d_p": r.win_delta[me],
        "se_p": r.win_delta_se[me],
        "d_q": r.win_delta[worst],
        "se_q": r.win_delta_se[worst],
        "nash": r.nash_zone,
        "balanced": r.balanced,
        "leader_trader": r.leader in [names[i] for i in r.candidate.players],
        "accepted": _accepts(state, r.trade, me),
    }
    return out


def evaluate_pair(job: tuple[int, int, int, int, int, int]) -> dict[str, Any]:
    k, p, rollouts, horizon, seed, n_drop = job
    g, r, state = _STATES[k]
    me = state.players[p].name
    sim_seed = seed * 1_000_003 + g * 1_009 + r * 7 + p
    rs = RescoreSettings(rollouts=rollouts, horizon=horizon, seed=sim_seed)
    key = (id(state.board), id(state.rules))
    chain = _CHAIN.setdefault(key, PositionChain(state.board, state.rules, "long"))
    out: dict[str, Any] = {"state": k, "game": g, "player": me}

    # decide, (b) and (d)
    d = decide(state, me, budget_s=600.0, rollouts=rollouts, seed=sim_seed, horizon=horizon, chain=chain)
    out["chosen"] = None
    if d.action == TRADE and d.scored is not None:
        out["chosen"] = _row(d.scored, state, me, "decide")
    out["decide_trades"] = [_row(t, state, me, "decide") for t in d.trades]
    bil = [t for t in d.trades if t.candidate.kind == "bilateral"]
    with_bal = next((t for t in d.trades if t.nash_zone and t.balanced), None)
    no_bal = next((t for t in bil if t.nash_zone), None) or next((t for t in d.trades if t.nash_zone), None)
    out["d_with"] = None if with_bal is None else (with_bal.candidate.moves, with_bal.candidate.cash)
    out["d_without"] = None if no_bal is None else (no_bal.candidate.moves, no_bal.candidate.cash)
    out["d_blocked_leader"] = None
    if no_bal is not None and not no_bal.balanced:
        ps = [state.players[i].name for i in no_bal.candidate.players]
        out["d_blocked_leader"] = "proposer" if no_bal.leader == me else "partner" if no_bal.leader in ps else "third party"
    times = []
    for t in [t for t in d.trades if t.nash_zone][:3]:
        t0 = time.perf_counter()
        ok = self_balancing(state, t, rs)
        times.append((t.balanced, time.perf_counter() - t0, ok))
    out["sb_times"] = times
    out["decide_s"] = d.seconds

    # funnel, (c)
    t0 = time.perf_counter()
    res = reserves(state, None, epsilon=TradeSettings().reserve_epsilon, chain=chain)
    space = TradeSpace(state, p, TradeSettings(), res)
    values = FrontierValues(state, space.settings, chain)
    vbase = {i: values(state, i) for i in space.participants}
    dropped: dict[str, list[Any]] = {"completion": [], "counterparty": []}
    passed = []
    for cand in bilateral_candidates(space):
        ev = evaluate(space, cand, values, vbase)
        if ev.failed is None:
            passed.append(ev)
        elif ev.failed in dropped:
            dropped[ev.failed].append(cand)
    surv = undominated(passed)
    out["n_dropped"] = {k2: len(v) for k2, v in dropped.items()}
    out["n_surv"] = len(surv)
    base = baseline(state, rs)
    rng = random.Random(sim_seed)
    out["funnel"] = []
    for rule, cands in dropped.items():
        pick = cands if len(cands) <= n_drop else rng.sample(cands, n_drop)
        for c in pick:
            sc = rescore_one(state, c, base, rs)
            if sc is not None:
                out["funnel"].append(_row(sc, state, me, rule))
    for e in sorted(surv, key=lambda e: -e.gains[p])[:n_drop]:
        sc = rescore_one(state, e.candidate, base, rs)
        if sc is not None:
            out["funnel"].append(_row(sc, state, me, "survivor"))
    out["funnel_s"] = time.perf_counter() - t0
    return out


def _rate(label: str, k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    frac = f"{k / n:.3f}" if n else "  -  "
    return f"    {label:<62} {k:>5} / {n:<5} {frac}  [{lo:.3f}, {hi:.3f}]"


def _mean_se(xs: list[float]) -> str:
    if not xs:
        return "-"
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
    return f"{m:+.4f} +- {se:.4f} (n={len(xs)})"


def summarize(rows: list[dict[str, Any]]) -> None:
    n = len(rows)
    print(f"{len({r['state'] for r in rows})} states from {len({r['game'] for r in rows})} games, {n} (state, proposer) pairs")

    # (b)
    print("(b) the heuristic as counterparty")
    chosen = [r["chosen"] for r in rows if r["chosen"] is not None]
    print(_rate("solver's chosen trades a StrategicTradeAgent partner accepts", sum(c["accepted"] for c in chosen), len(chosen)))
    print(_rate("  accepted and losing for the partner (< -2 SE)",
                sum(c["accepted"] and c["d_q"] < -SIG * c["se_q"] for c in chosen), len(chosen)))
    pool: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r in rows:
        for t in r["decide_trades"] + r["funnel"]:
            if t["kind"] == "bilateral":
                pool.setdefault((r["state"], r["player"], t["key"]), t)
    allt = list(pool.values())
    lose_q = [t for t in allt if t["d_q"] < -SIG * t["se_q"]]
    print(_rate("re-scored bilateral trades (decide + funnel) accepted by partner", sum(t["accepted"] for t in allt), len(allt)))
    print(_rate("of trades losing for the partner (< -2 SE): partner accepts", sum(t["accepted"] for t in lose_q), len(lose_q)))
    exploit = [t for t in lose_q if t["accepted"] and t["d_p"] > SIG * t["se_p"]]
    print(_rate("accepted, partner loses, proposer gains (> +2 SE), of all", len(exploit), len(allt)))
    print(f"    proposer gain in those: {_mean_se([t['d_p'] for t in exploit])}; partner: {_mean_se([t['d_q'] for t in exploit])}")
    pairs_x = {(r["state"], r["player"]) for r in rows for t in r["decide_trades"] + r["funnel"]
               if t["kind"] == "bilateral" and t["accepted"] and t["d_q"] < -SIG * t["se_q"] and t["d_p"] > SIG * t["se_p"]}
    print(_rate("pairs with at least one such exploitable trade", len(pairs_x), n))
    extra = []
    for r in rows:
        if (r["state"], r["player"]) in pairs_x:
            best_x = max(t["d_p"] for t in r["decide_trades"] + r["funnel"] if t["kind"] == "bilateral" and t["accepted"]
                         and t["d_q"] < -SIG * t["se_q"] and t["d_p"] > SIG * t["se_p"])
            extra.append(best_x - (r["chosen"]["d_p"] if r["chosen"] else 0.0))
    print(f"    in those pairs, best exploitable gain minus the solver's chosen trade (0 if none): {_mean_se(extra)}")
    print(f"    over all pairs, that is {sum(extra) / n:+.4f} win probability per decision point")
    nz = [t for t in allt if t["nash"]]
    print(f"    for comparison, Nash-zone trades: proposer gain {_mean_se([t['d_p'] for t in nz])}")
    print(f"    exploitable trades by source: { {s: sum(t['src'] == s for t in exploit) for s in ('decide', 'completion', 'counterparty', 'survivor')} }")

    # (c)
    print("(c) pruning: dropped candidates re-scored")
    nd = {k: sum(r["n_dropped"][k] for r in rows) for k in ("completion", "counterparty")}
    print(f"    dropped in all pairs: completion {nd['completion']}, counterparty {nd['counterparty']}; "
          f"survivors {sum(r['n_surv'] for r in rows)}")
    for rule in ("completion", "counterparty", "survivor"):
        xs = [t for r in rows for t in r["funnel"] if t["src"] == rule]
        print(_rate(f"{rule}: re-scored in the Nash zone", sum(t["nash"] for t in xs), len(xs)))
    for rule in ("completion", "counterparty"):
        beat, nzp, diffs = 0, 0, []
        for r in rows:
            surv = [t for t in r["funnel"] if t["src"] == "survivor" and t["nash"]]
            best = max((t["d_p"] for t in surv), default=0.0)
            dz = [t for t in r["funnel"] if t["src"] == rule and t["nash"]]
            if dz:
                nzp += 1
                top = max(t["d_p"] for t in dz)
                diffs.append(top - best)
                beat += top > best
        print(_rate(f"pairs with a Nash-zone {rule} drop beating the best survivor*", beat, n))
        print(f"      (pairs with any Nash-zone {rule} drop: {nzp}); best drop minus best survivor*: {_mean_se(diffs)}")
    print("    * best Nash-zone survivor's proposer delta, 0 (no trade) when none is in the zone")

    # (d)
    print("(d) the third-party check (balanced, leader < 0.55)")
    has = [r for r in rows if r["d_with"] is not None or r["d_without"] is not None]
    diff = [r for r in has if r["d_with"] != r["d_without"]]
    print(_rate("pairs with a Nash-zone trade where the filter changes the choice", len(diff), len(has)))
    print(_rate("  of all pairs", len(diff), n))
    print(_rate("  of changes, no trade at all with the filter", sum(r["d_with"] is None for r in diff), len(diff)))
    for who in ("proposer", "partner", "third party"):
        print(_rate(f"  of changes, the >0.55 leader is the {who}", sum(r["d_blocked_leader"] == who for r in diff), len(diff)))
    nzt = [t for r in rows for t in r["decide_trades"] if t["nash"]]
    print(_rate("decide's Nash-zone trades that are unbalanced", sum(not t["balanced"] for t in nzt), len(nzt)))
    ds = [r["decide_s"] for r in rows]
    print(f"    decide: median {statistics.median(ds) * 1e3:.0f} ms per pair")
    for bal in (True, False):
        sb = [x for r in rows for (b, x, _ok) in r["sb_times"] if b == bal]
        oks = [ok for r in rows for (b, _x, ok) in r["sb_times"] if b == bal]
        if sb:
            print(f"    self_balancing on {'balanced' if bal else 'unbalanced'} Nash-zone trades: median {statistics.median(sb) * 1e3:.1f} ms, "
                  f"mean {statistics.fmean(sb) * 1e3:.1f} ms, max {max(sb) * 1e3:.0f} ms (n={len(sb)}); True in {sum(oks)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--max-states", type=int, default=100)
    ap.add_argument("--max-round", type=int, default=100)
    ap.add_argument("--rollouts", type=int, default=300)
    ap.add_argument("--horizon", type=int, default=20)
    ap.add_argument("--dropped", type=int, default=20, help="dropped candidates re-scored per rule and pair")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--a-rollouts", type=int, default=4000)
    ap.add_argument("--a-horizon", type=int, default=40)
    ap.add_argument("--skip-a", action="store_true")
    args = ap.parse_args()
    t0 = time.perf_counter()
    if not args.skip_a:
        part_a(args.a_rollouts, args.a_horizon, args.seed)
        print(f"    ({time.perf_counter() - t0:.0f} s)")
    states = sample_states(args.seed, args.games, args.every, args.max_states, args.max_round)
    _STATES[:] = states
    jobs = [
        (k, p, args.rollouts, args.horizon, args.seed, args.dropped)
        for k, (_g, _r, st) in enumerate(states)
        for p in st.active_players()
    ]
    if args.workers > 1:
        with mp.get_context("fork").Pool(args.workers) as pool:
            rows = list(pool.imap(evaluate_pair, jobs, chunksize=1))
    else:
        rows = [evaluate_pair(j) for j in jobs]
    summarize(rows)
    print(f"{args.rollouts} rollouts, horizon {args.horizon}; wall {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
