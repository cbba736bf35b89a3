"""The heuristic trader against the solver on states from simulated games (seed 000, Test 1).

    python bench/heuristic_vs_solver.py [--games 30] [--seed 0] [--every 10] [--max-states 150]
                                        [--max-round 100] [--rollouts 300] [--horizon 20]
                                        [--workers 2] [--all-players] [--verbose]

States: games of four :class:`solver.agents.strategic.StrategicTradeAgent`s, game
``i`` seeded ``SeedSequence([seed, i])`` exactly as
:func:`engine.tournament.play_one` does (1,000-round cap), and the state at the
start of every ``--every``-th round (rounds ``every``, ``2 every``, ... up to
``--max-round``; long stalemated games would otherwise fill the sample with
late states from a few games) while at least two players are in, in game
order, at most ``--max-states``.

For each state and the player to move ``P`` (with ``--all-players``: each
active player in turn as ``P``; a *pair* is a state and its ``P``):

1. the heuristic's proposal: a fresh ``StrategicTradeAgent`` seated as ``P``
   (no memory of refused offers) calls ``find_trade``; the trade is re-scored
   by simulation (:func:`solver.trades.rescore.rescore_one`, ``--rollouts`` games of
   ``--horizon`` rounds, paired with the no-trade games on the same dice); it
   *loses for the proposer* when the proposer's win delta is below -2 SE;
2. whether the partner (a fresh ``StrategicTradeAgent`` in its seat) accepts
   it, and whether an accepted trade loses for the partner (-2 SE);
3. the solver's decision, :func:`solver.decide.decide` (same rollouts,
   horizon and seed, so its no-trade games are the same dice as in 1; a
   budget large enough that it is never truncated). A trade the heuristic
   *missed*: the solver proposes a trade whose win delta for the proposer is
   above +2 SE, and the heuristic proposes nothing or a trade with a lower
   simulated delta for the proposer. *Agreement*: both propose nothing, or
   both propose trades that move the same properties between the same
   players (cash may differ).

Every rate comes with a 95% Wilson interval (:func:`engine.tournament.wilson`).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import time
from collections.abc import Sequence
from typing import Any

from engine.chains.markov import PositionChain
from engine.rules.game import Game
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from engine.rules.view import GameView
from engine.tournament import wilson
from models.state import GameState
from models.trade import Trade
from solver.agents.strategic import StrategicTradeAgent, exact_landings_per_turn
from solver.decide import TRADE, decide
from solver.trades.rescore import RescoreSettings, baseline, rescore_one
from solver.trades.space import Candidate

SIG = 2.0  # standard errors for "loses" / "gains significantly"


def sample_states(seed: int, games: int, every: int, max_states: int, max_round: int = 0) -> list[tuple[int, int, GameState]]:
    """(game, round, state) at the start of every ``every``-th round of four-baseline games
    (up to round ``max_round`` when it is positive)."""
    out: list[tuple[int, int, GameState]] = []
    for g in range(games):
        if len(out) >= max_states:
            break
        stream_seed, seat_seeds = game_seeds(game_seed_sequence(seed, g), 4)
        state = GameState.new_game([f"P{k + 1}" for k in range(4)])
        agents = [StrategicTradeAgent(s) for s in seat_seeds]
        game = Game(state, agents, SeededStream(stream_seed), max_rounds=1000)
        seen = -1
        while not game.over and len(out) < max_states:
            r = state.round
            if max_round and r > max_round:
                break
            if r != seen and state.phase == "start":
                seen = r
                if r > 0 and r % every == 0 and len(state.active_players()) >= 2:
                    out.append((g, r, state.copy()))
            game.play_turn()
    return out


def _moves(state: GameState, trade: Trade) -> frozenset[tuple[str, str, str]]:
    return frozenset((t.frm, t.to, p) for t in trade.transfers for p in t.properties)


def _candidate(state: GameState, trade: Trade, proposer: int) -> Candidate:
    """A bilateral candidate with the trade's players (proposer first); re-scored with ``trade=``."""
    names = [p.name for p in state.players]
    other = [state.player_index(n) for n in trade.participants() if state.player_index(n) != proposer]
    moves = tuple(
        sorted(
            (_square(state, p), names.index(t.frm), names.index(t.to))
            for t in trade.transfers
            for p in t.properties
        )
    )
    return Candidate("bilateral", (proposer, *other), moves)


def _square(state: GameState, name: str) -> int:
    return next(i for i, sq in enumerate(state.board.squares) if sq.name == name)


_CHAIN: dict[object, PositionChain] = {}
_STATES: list[tuple[int, int, GameState]] = []  # inherited by forked workers (states do not pickle)


def _heuristic(state: GameState, seat: int) -> StrategicTradeAgent:
    """A fresh baseline agent in ``seat``, with the landing table it would build on its first move."""
    agent = StrategicTradeAgent(0, landings=exact_landings_per_turn(state.board, state.rules))
    agent.start_game(seat, tuple(pl.name for pl in state.players))
    return agent


def evaluate(job: tuple[int, int, int, int, int]) -> dict[str, Any]:
    k, p, rollouts, horizon, seed = job
    g, r, state = _STATES[k]
    t0 = time.perf_counter()
    names = tuple(pl.name for pl in state.players)
    me = names[p]
    sim_seed = seed * 1_000_003 + g * 1_009 + r * 7 + p
    rs = RescoreSettings(rollouts=rollouts, horizon=horizon, seed=sim_seed)
    row: dict[str, Any] = {"state": k, "game": g, "round": r, "player": me}

    # 1-2. the heuristic's proposal, its simulated deltas, the partner's answer
    agent = _heuristic(state, p)
    h = agent.find_trade(GameView(state, p))
    base = baseline(state, rs)
    row["h"] = None
    if h is not None:
        q = next(state.player_index(n) for n in h.participants() if n != me)
        sc = rescore_one(state, _candidate(state, h, p), base, rs, trade=h)
        partner = _heuristic(state, q)
        accepted = partner.accept_trade(GameView(state, q), h)
        if sc is not None:
            row["h"] = {
                "trade": h.to_dict(),
                "moves": sorted(_moves(state, h)),
                "partner": names[q],
                "d_p": sc.win_delta[me],
                "se_p": sc.win_delta_se[me],
                "d_q": sc.win_delta[names[q]],
                "se_q": sc.win_delta_se[names[q]],
                "accepted": accepted,
            }

    # 3. the solver's decision
    key = (id(state.board), id(state.rules))
    chain = _CHAIN.setdefault(key, PositionChain(state.board, state.rules, "long"))
    d = decide(state, me, budget_s=600.0, rollouts=rollouts, seed=sim_seed, horizon=horizon, chain=chain)
    row["truncated"] = d.truncated
    row["action"] = d.action
    row["s"] = None
    if d.action == TRADE and d.scored is not None:
        t = d.scored
        others = [n for n in t.trade.participants() if n != me]
        worst = min(others, key=lambda n: t.win_delta[n])
        acc = []
        for n in others:
            q = state.player_index(n)
            a = _heuristic(state, q)
            acc.append(a.accept_trade(GameView(state, q), t.trade))
        row["s"] = {
            "trade": t.trade.to_dict(),
            "kind": t.candidate.kind,
            "moves": sorted(_moves(state, t.trade)),
            "d_p": t.win_delta[me],
            "se_p": t.win_delta_se[me],
            "d_q": t.win_delta[worst],
            "se_q": t.win_delta_se[worst],
            "strategic_accepts": all(acc),
        }
    row["seconds"] = time.perf_counter() - t0
    return row


def _rate(label: str, k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    frac = f"{k / n:.3f}" if n else "  -  "
    return f"{label:<58} {k:>4} / {n:<4} {frac}  [{lo:.3f}, {hi:.3f}]"


def _med(xs: Sequence[float]) -> str:
    return f"{statistics.median(xs):+.4f} (n={len(xs)})" if xs else "-"


def summarize(rows: list[dict[str, Any]]) -> None:
    n = len(rows)
    n_states = len({r["state"] for r in rows})
    hp = [r for r in rows if r["h"] is not None]
    h_lose = [r for r in hp if r["h"]["d_p"] < -SIG * r["h"]["se_p"]]
    h_gain = [r for r in hp if r["h"]["d_p"] > SIG * r["h"]["se_p"]]
    acc = [r for r in hp if r["h"]["accepted"]]
    acc_lose = [r for r in acc if r["h"]["d_q"] < -SIG * r["h"]["se_q"]]
    sp = [r for r in rows if r["s"] is not None]
    s_sig = [r for r in sp if r["s"]["d_p"] > SIG * r["s"]["se_p"]]
    missed = [r for r in s_sig if r["h"] is None or r["h"]["d_p"] < r["s"]["d_p"]]
    missed_none = [r for r in missed if r["h"] is None]
    s_acc = [r for r in sp if r["s"]["strategic_accepts"]]

    def same(r: dict[str, Any]) -> bool:
        if r["h"] is None or r["s"] is None:
            return r["h"] is None and r["s"] is None
        return r["h"]["moves"] == r["s"]["moves"]

    either = [r for r in rows if r["h"] is not None or r["s"] is not None]
    agree = [r for r in rows if same(r)]
    agree_either = [r for r in either if same(r)]
    games = len({r["game"] for r in rows})
    trunc = sum(r["truncated"] for r in rows)
    print(f"{n_states} states from {games} games, {n} (state, proposer) pairs; decide truncated on {trunc}")
    print(f"{'':<58} {'k':>4} / {'n':<4} rate   95% Wilson")
    print(_rate("heuristic proposes a trade (of pairs)", len(hp), n))
    print(_rate("  of which loses for the proposer (< -2 SE)", len(h_lose), len(hp)))
    print(_rate("  of which gains for the proposer (> +2 SE)", len(h_gain), len(hp)))
    print(_rate("  of which the partner (strategic) accepts", len(acc), len(hp)))
    print(_rate("    accepted, losing for the partner (< -2 SE)", len(acc_lose), len(acc)))
    print(_rate("solver proposes a trade (of pairs)", len(sp), n))
    print(_rate("  of which a strategic partner would accept", len(s_acc), len(sp)))
    print(_rate("missed by the heuristic (of pairs)", len(missed), n))
    print(_rate("  of which the heuristic proposed nothing", len(missed_none), len(missed)))
    print(_rate("agreement (none/none or same property moves), of pairs", len(agree), n))
    print(_rate("agreement where either proposes", len(agree_either), len(either)))
    print("medians of the simulated win deltas:")
    print(f"  heuristic, proposer: {_med([r['h']['d_p'] for r in hp])}")
    print(f"  heuristic, partner:  {_med([r['h']['d_q'] for r in hp])}")
    print(f"  heuristic accepted, partner: {_med([r['h']['d_q'] for r in acc])}")
    print(f"  solver, proposer:    {_med([r['s']['d_p'] for r in sp])}")
    print(f"  solver, partner (worst-off): {_med([r['s']['d_q'] for r in sp])}")
    print(f"  median SE of a heuristic delta (proposer): {_med([r['h']['se_p'] for r in hp])}")
    actions: dict[str, int] = {}
    for r in rows:
        actions[r["action"]] = actions.get(r["action"], 0) + 1
    print(f"solver actions: {dict(sorted(actions.items()))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--max-states", type=int, default=150)
    ap.add_argument("--rollouts", type=int, default=300)
    ap.add_argument("--horizon", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-round", type=int, default=100, help="last round sampled in a game (0: no limit)")
    ap.add_argument("--all-players", action="store_true", help="every active player proposes, not only the one to move")
    ap.add_argument("--verbose", action="store_true", help="one line per state")
    args = ap.parse_args()
    t0 = time.perf_counter()
    states = sample_states(args.seed, args.games, args.every, args.max_states, args.max_round)
    print(f"sampled {len(states)} states in {time.perf_counter() - t0:.1f} s")
    _STATES[:] = states
    jobs = [
        (k, p, args.rollouts, args.horizon, args.seed)
        for k, (_g, _r, st) in enumerate(states)
        for p in (st.active_players() if args.all_players else [st.to_move])
    ]
    if args.workers > 1:
        with mp.get_context("fork").Pool(args.workers) as pool:
            rows = list(pool.imap(evaluate, jobs, chunksize=1))
    else:
        rows = [evaluate(j) for j in jobs]
    if args.verbose:
        for r in rows:
            h = f"{r['h']['d_p']:+.3f}/{r['h']['d_q']:+.3f}{' acc' if r['h']['accepted'] else ''}" if r["h"] else "-"
            s = f"{r['s']['d_p']:+.3f}/{r['s']['d_q']:+.3f}" if r["s"] else "-"
            print(f"game {r['game']:>3} round {r['round']:>3} {r['player']}: heuristic {h:<20} solver {r['action']} {s}")
    summarize(rows)
    print(f"{args.rollouts} rollouts, horizon {args.horizon}; wall {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
