"""Does the trade generator propose what the simulation confirms? Precision and rank agreement.

    python bench/generation_quality.py --states 300 --workers 2 [--seed 12] [--top 5] [--rollouts 800]

States (``bench/_trade_samples.py``): state ``i`` from game ``i`` of four
``StrategicTradeAgent``s seeded ``SeedSequence([seed, i])`` at a round drawn
in 4..40, with a proposer drawn among the players that have something to
trade. The default seed (12) differs from the fit's (11), so no game is in
both.

For each state and each generator (``linear``: as it was before the fit, the
horizon-rent estimate in dollars and the proposer's gain as objective;
``fitted``: the product's defaults, the prediction of
:mod:`solver.trades.value_model` with its margins and balanced objective),
the top ``--top`` trades of the strict
CP-SAT search (bilateral and 3-cycles in one model, no relaxed fallback, as
the agent searches) are re-scored as ``solve`` re-scores them: paired
rollouts on common dice, every seat trading, the proposer's trade judged now
against not now (``RescoreSettings.not_now``), the horizon value scoring cut
games. ``--random`` feasible trades drawn uniformly from the explicit
enumeration are re-scored too: the base rate, and an unselected sample on
which both values' predictions are compared with the simulation.

Printed per value: proposals, states with at least one proposal, states with
at least one proposal in the Nash zone, precision (the share of proposals in
the Nash zone: every participant gains beyond one-sided 5% noise), the share
where some participant loses more than 0.05, and Spearman's rho between the
model's gain and the simulated gain (every participant of every proposal;
and by role). Rows stream to ``bench/out/generation-quality-S.jsonl``
(``--resume``); the summary goes to ``bench/out/generation-quality-S.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _runner import peak_rss_mb, run  # noqa: E402
from _trade_samples import random_trades, sampled_space  # noqa: E402

from models.files import atomic_write  # noqa: E402
from solver.trades.cpsat import Limits, generate_trades  # noqa: E402
from solver.trades.rescore import RescoreSettings, baseline, rescore_one  # noqa: E402
from solver.trades.space import TradeSettings, TradeSpace, after_state
from solver.trades.value_model import trade_values  # noqa: E402

VALUES = ("linear", "fitted")
OPTS: dict[str, Any] = {}


def play_one(seed: int, i: int) -> dict[str, Any]:
    row: dict[str, Any] = {"game": i}
    got = sampled_space(seed, i)
    if got is None:
        return row
    state, space, chain, rng = got
    p = space.proposer
    names = [pl.name for pl in state.players]
    rs = RescoreSettings(rollouts=OPTS["rollouts"], seed=i).not_now(p, len(state.players), state.to_move)
    base = baseline(state, rs)
    row["proposer"] = p

    def score(cand: Any, model_gain: dict[int, float] | None) -> dict[str, Any] | None:
        r = rescore_one(state, cand, base, rs)
        if r is None:
            return None
        return {
            "players": list(cand.players),
            "sim": [r.win_delta[names[j]] for j in cand.players],
            "se": [r.win_delta_se[names[j]] for j in cand.players],
            "model": None if model_gain is None else [model_gain[j] for j in cand.players],
            "nash": r.nash_zone,
        }

    for value in VALUES:
        # "linear" is the generator as it was before the fit: the dollar value, the proposer's objective
        settings = TradeSettings(value=value) if value == "fitted" else TradeSettings(value=value, objective="proposer")
        if value == "fitted" and OPTS["margins"] is not None:
            settings = dataclasses.replace(settings, min_win_gain=OPTS["margins"][0], min_own_win_gain=OPTS["margins"][1])
        if value == "fitted" and OPTS["objective"] is not None:
            settings = dataclasses.replace(settings, objective=OPTS["objective"])
        res = generate_trades(
            state, p, settings=settings, limits=Limits(top_k=OPTS["top"]), chain=chain, reserves=space.reserves, cycles=True, explain=False
        )
        scale = 1e-6 if value == "fitted" else 1.0
        row[value] = [x for g in res.trades if (x := score(g.candidate, {j: v * scale for j, v in g.gains.items()})) is not None]
    # the random trades, with both values' predictions (an unselected sample: the fit's own measure)
    preds = {}
    for value in VALUES:
        vspace = TradeSpace(state, p, TradeSettings(value=value), space.reserves)
        vals = trade_values(vspace, chain)
        preds[value] = (vals, {j: vals(state, j) for j in state.active_players()})
    row["random"] = []
    for c in random_trades(space, rng, OPTS["random"]):
        x = score(c, None)
        if x is None:
            continue
        after = after_state(state, c)
        for value, (vals, before) in preds.items():
            x[f"model_{value}"] = [(vals(after, j) - before[j]) * vals.scale for j in c.players]
        row["random"].append(x)
    return row


def spearman(a: list[float], b: list[float]) -> float | None:
    from scipy.stats import spearmanr

    if len(a) < 3:
        return None
    return float(spearmanr(a, b).statistic)


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    rows = [r for r in rows if "proposer" in r]
    out: dict[str, Any] = {"states": len(rows)}
    for key in (*VALUES, "random"):
        props = [t for r in rows for t in r[key]]
        n = len(props)
        hits = sum(t["nash"] for t in props)
        loses = sum(min(t["sim"]) < -0.05 for t in props)
        prec = hits / n if n else float("nan")
        se = (prec * (1 - prec) / n) ** 0.5 if n else float("nan")
        d: dict[str, Any] = {
            "proposals": n,
            "states_with_proposal": sum(bool(r[key]) for r in rows),
            "states_with_nash_proposal": sum(any(t["nash"] for t in r[key]) for r in rows),
            "precision": prec,
            "precision_se": se,
            "someone_loses_0.05": loses / n if n else float("nan"),
        }
        if key != "random":
            allm = [m for t in props for m in t["model"]]
            alls = [s for t in props for s in t["sim"]]
            prop_m = [t["model"][0] for t in props]
            prop_s = [t["sim"][0] for t in props]
            cp_m = [m for t in props for m in t["model"][1:]]
            cp_s = [s for t in props for s in t["sim"][1:]]
            d.update(
                spearman_all=spearman(allm, alls),
                spearman_proposer=spearman(prop_m, prop_s),
                spearman_counterparty=spearman(cp_m, cp_s),
                mean_proposer_gain=float(np.mean(prop_s)) if prop_s else None,
            )
        if key == "random":
            for value in VALUES:
                m = [v for t in props for v in t[f"model_{value}"]]
                sims = [v for t in props for v in t["sim"]]
                d[f"spearman_all_{value}"] = spearman(m, sims)
                d[f"spearman_proposer_{value}"] = spearman([t[f"model_{value}"][0] for t in props], [t["sim"][0] for t in props])
                d[f"spearman_counterparty_{value}"] = spearman(
                    [v for t in props for v in t[f"model_{value}"][1:]], [v for t in props for v in t["sim"][1:]]
                )
        out[key] = d
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=300)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--random", type=int, default=5)
    ap.add_argument("--rollouts", type=int, default=800)
    ap.add_argument(
        "--margins",
        type=lambda t: tuple(float(x) for x in t.split(",")),
        default=None,
        help="Q,P: the fitted generator's least predicted gain for counterparties and for the proposer (default: the product's)",
    )
    ap.add_argument("--objective", choices=("proposer", "balanced"), default=None, help="the fitted generator's objective (default: the product's)")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    OPTS.update(top=args.top, random=args.random, rollouts=args.rollouts, margins=args.margins, objective=args.objective)
    tag = "" if args.margins is None else "-m" + "_".join(f"{x:g}" for x in args.margins)
    tag += "" if args.objective is None else f"-{args.objective}"
    out = Path(__file__).resolve().parent / "out" / f"generation-quality-{args.seed}{tag}.jsonl"
    rows, wall = run(play_one, games=args.states, seed=args.seed, workers=args.workers, out=out, resume=args.resume, progress_every=50)
    summary = summarize(rows)
    summary.update(command=" ".join(["python", "bench/generation_quality.py", *sys.argv[1:]]), wall_s=round(wall, 1), peak_rss_mb=round(peak_rss_mb()))
    atomic_write(out.with_suffix(".json"), json.dumps(summary, indent=1) + "\n")
    print(f"{summary['states']} states with a proposer that can trade; {wall:.0f} s; peak RSS {peak_rss_mb():.0f} MB")
    hdr = f"{'value':8s} {'proposals':>9s} {'states+':>7s} {'nash st':>7s} {'precision':>13s} {'loses>.05':>9s} {'rho all':>7s} {'rho P':>6s} {'rho Q':>6s}"
    print(hdr)
    for key in (*VALUES, "random"):
        d = summary[key]

        def f(x: Any) -> str:
            return "   -" if x is None else f"{x:6.2f}"

        print(
            f"{key:8s} {d['proposals']:9d} {d['states_with_proposal']:7d} {d['states_with_nash_proposal']:7d} "
            f"{d['precision']:7.1%} +-{d['precision_se']:4.1%} {d['someone_loses_0.05']:9.1%} "
            f"{f(d.get('spearman_all')):>7s} {f(d.get('spearman_proposer')):>6s} {f(d.get('spearman_counterparty')):>6s}"
        )
    d = summary["random"]
    for value in VALUES:
        print(
            f"random trades, the {value} value's prediction against the simulation: Spearman rho "
            f"{d[f'spearman_all_{value}']:.2f} (proposer {d[f'spearman_proposer_{value}']:.2f}, "
            f"counterparties {d[f'spearman_counterparty_{value}']:.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
