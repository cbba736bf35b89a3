"""Why do verdicts and games played to the end disagree? The verdict reference's trades judged again under other rollout policies.

    python bench/verdict_policies.py [--file bench/runs/verdict-reference-5-0-4000.jsonl]
                                     [--rollouts 800] [--seed 0] [--show]

``bench/verdict_reference.py`` compares each participant's verdict (``evaluate``: every seat
playing the trading rollout policy, :class:`engine.sim.rollout_policy.RolloutPolicy`, 30 rounds
scored by the horizon model) with the sign of its change in games played to the end by four
``strategic`` agents. Where the two disagree, the cause can be the policy the evaluation assumes
every player will follow after the trade, or what the reference's games are (a game without
the trade that stalls to the 1,000-round cap is won on net worth). This script judges every
finished trade of the file again, on the same state, trade, deciding seat and seed
(:func:`solver.evaluate.judge` with the deciding seat waiting until its next turn, as
``evaluate``), under each of these policies for every seat:

``default``
    ``evaluate``'s (:class:`RolloutPolicy` as it is).
``no-trade``
    ``default`` without trades in the rollouts: the branch without the trade is then "never
    this trade" (the reference's, where every seat refuses the exchange for the rest of the
    game) rather than ``evaluate``'s "not now" (the rollout policy may make it, or another,
    later).
``cautious``
    builds only with $600 to spare and never mortgages to build
    (``build_reserve=600, mortgage_to_build=False``): closer to ``strategic``, which keeps
    ``reserve`` + ``danger`` x the dearest rent it may face and mortgages only to pay.
``cautious-no-trade``
    the same, and no trades in the rollouts.
``long``
    ``default`` with a 100-round horizon.

and counts, per policy, the participants whose played-out change is beyond 2 standard errors
and whose verdict (accept when the change is a gain beyond one-sided 5% noise) agrees with its
sign, over all trades and apart for the trades whose games without the trade end at the round
cap in half or more of the reference's games. ``--show`` prints every participant's figures.
A diagnosis, not a new reference: the issue's reference stays ``strategic`` agents in every seat.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from engine.sim.rollout_policy import RolloutPolicy  # noqa: E402
from models.io import load_state  # noqa: E402
from models.trade import Trade  # noqa: E402
from solver.evaluate import judge  # noqa: E402
from solver.trades.rescore import RescoreSettings  # noqa: E402
from verdict_reference import read_rows, summarize  # noqa: E402

POLICIES: dict[str, dict[str, Any]] = {
    "default": {},
    "no-trade": {"policy": RolloutPolicy(trade=False)},
    "cautious": {"policy": RolloutPolicy(build_reserve=600, mortgage_to_build=False)},
    "cautious-no-trade": {"policy": RolloutPolicy(build_reserve=600, mortgage_to_build=False, trade=False)},
    "long": {"horizon": 100},
}
"""The rollout settings each trade is judged under (module docstring)."""


def finished(path: Path) -> list[dict[str, Any]]:
    """The file's finished trades, as ``bench/verdict_reference.py`` sums its blocks and stops
    (:func:`verdict_reference.summarize` with the file's own settings): ``k``, ``n``, ``capped``,
    the evaluation and per participant ``reference`` as (mean change, its standard error)."""
    header, rows = read_rows(path)
    if header is None:
        raise SystemExit(f"{path}: empty")
    settings = argparse.Namespace(**{key: v for key, v in header.items() if key != "header"})
    out = []
    for k, t in sorted(summarize(rows, settings).items()):
        if t.get("done") and "verdicts" in t:
            out.append({**t, "k": k, "reference": {name: (m, t["reference_se"][name]) for name, m in t["reference"].items()}})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", type=Path, default=ROOT / "bench" / "runs" / "verdict-reference-5-0-4000.jsonl")
    ap.add_argument("--rollouts", type=int, default=800)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args()
    trades = finished(args.file)
    counts = {name: {"all": [0, 0], "capped": [0, 0], "open": [0, 0]} for name in POLICIES}
    for t in trades:
        state = load_state(t["state"])
        trade = Trade.from_dict(t["trade"])
        decider = state.player_index(t["proposer"])
        part = "capped" if 2 * t["capped"][0] >= t["n"] else "open"
        lines = []
        for name, kw in POLICIES.items():
            rs = RescoreSettings(rollouts=args.rollouts, seed=args.seed, **kw).not_now(decider, len(state.players), state.to_move)
            ev = judge(state, trade, decider, rs)
            for who, (m, se) in t["reference"].items():
                if abs(m) <= 2 * se:
                    continue
                agree = (ev.verdicts[who].verdict == "accept") == (m > 0)
                for key in ("all", part):
                    counts[name][key][0] += 1
                    counts[name][key][1] += agree
            lines.append(f"    {name:18s} " + ", ".join(f"{w} {ev.win_delta[w]:+.3f} (se {ev.win_delta_se[w]:.3f}) {ev.verdicts[w].verdict}" for w in t["reference"]))
        if args.show:
            ref = ", ".join(f"{w} {m:+.3f} (se {se:.3f})" for w, (m, se) in t["reference"].items())
            print(f"offer {t['k'] + 1}: {t['n']} pairs, capped without {t['capped'][0]}; played out: {ref}")
            print("\n".join(lines))
    print(f"{len(trades)} trades of {args.file.name}; participants beyond 2 se in the games played out, verdicts agreeing with its sign:")
    print("| rollout policy | all | games without the trade capped (half or more) | not capped |")
    print("|---|---|---|---|")
    for name, c in counts.items():
        cells = [f"{a}/{n}" + (f" ({a / n:.0%})" if n else "") for n, a in (c["all"], c["capped"], c["open"])]
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
