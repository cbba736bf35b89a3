"""What the simulation says about each bundled trade instance's intended trade.

    python bench/instance_outcomes.py [--rollouts 4000] [--seed 1]

For ``instances/midgame-no-monopolies.json`` and every ``instances/cycle-*.json``,
with the player to move as proposer:

* the *intended* trades: the 3-cycles the instance was built around (the
  strict cycles of the linear horizon-rent estimate, ``value="linear"``; for the
  mid-game instance the bilateral top 2 under that estimate);
* the fitted generator's top 3 (bilateral and 3-cycles in one search);
* what ``solve`` decides (``solver.decide.decide`` with ``--seed``).

Each trade is re-scored as ``solve`` re-scores (paired rollouts on common
dice, every seat trading, the proposer's trade judged now
against not now (``RescoreSettings.not_now``), the horizon value scoring cut games) with
``--rollouts`` rollouts: the change in win probability of each participant
+- its standard error, and whether it is in the Nash zone (every participant
gains beyond one-sided 5% noise). Prints one markdown table per instance,
for ``instances/README.md``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engine.chains.markov import PositionChain
from models.io import load_state
from models.state import GameState
from models.trade import Trade
from solver.analysis.reserve import reserves as ruin_reserves
from solver.decide import decide
from solver.trades.cpsat import Limits, generate_trades
from solver.trades.rescore import Rescored, RescoreSettings, baseline, rescore_one
from solver.trades.space import Candidate, TradeSettings

ROOT = Path(__file__).resolve().parents[1]


def legs(state: GameState, cand: Candidate | Trade) -> str:
    parts = []
    trade = cand if isinstance(cand, Trade) else cand.to_trade(state)
    for t in trade.transfers:
        what = [*t.properties, *([f"${t.cash}"] if t.cash else [])]
        parts.append(f"{t.frm} -> {t.to}: {', '.join(what)}")
    return "; ".join(parts)


def outcome(state: GameState, r: Rescored) -> str:
    names = [state.players[i].name for i in r.candidate.players]
    deltas = ", ".join(f"{n} {r.win_delta[n]:+.3f} +- {r.win_delta_se[n]:.3f}" for n in names)
    return f"{deltas}; {'**Nash zone**' if r.nash_zone else 'not in the Nash zone'}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rollouts", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    files = [ROOT / "instances" / "midgame-no-monopolies.json", *sorted((ROOT / "instances").glob("cycle-*.json"))]
    t0 = time.perf_counter()
    for path in files:
        state = load_state(path)
        p = state.to_move
        chain = PositionChain(state.board, state.rules, "long")
        res = ruin_reserves(state, None, epsilon=TradeSettings().reserve_epsilon, chain=chain)
        rs = RescoreSettings(rollouts=args.rollouts, seed=args.seed).not_now(p, len(state.players), state.to_move)
        base = baseline(state, rs)
        mid = path.name.startswith("midgame")
        lin = generate_trades(state, p, settings=TradeSettings(value="linear", objective="proposer"), limits=Limits(top_k=2 if mid else 20), chain=chain, reserves=res, cycles=not mid, explain=False)
        intended = [g.candidate for g in lin.trades if mid or g.candidate.kind == "cycle3"][:2]
        fit = generate_trades(state, p, limits=Limits(top_k=3), chain=chain, reserves=res, cycles=True, explain=False)
        print(f"\n### `{path.name}` ({state.players[p].name} proposes)\n")
        print("| trade | source | simulated change (win probability) |")
        print("|---|---|---|")
        for src, cands in (("intended (linear estimate)", intended), ("fitted generator", [g.candidate for g in fit.trades])):
            for c in cands:
                r = rescore_one(state, c, base, rs)
                if r is not None:
                    print(f"| `{legs(state, c)}` | {src} | {outcome(state, r)} |")
        d = decide(state, state.players[p].name, seed=args.seed)
        what = d.action if d.trade is None else f"{d.action}: `{legs(state, d.trade)}` (the price after Nash bargaining)"
        print(f"\n`solve --seed {args.seed}`: {what} ({d.reason})")
    print(f"\n{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
