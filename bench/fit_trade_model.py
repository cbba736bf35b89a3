"""Fit the trade value (solver/trades/value_model.py) to simulated trades, and report it.

    python bench/fit_trade_model.py --states 600 --workers 2 [--seed 11] [--rollouts 400] [--write]

Data (``bench/_trade_samples.py``). State ``i`` is drawn from game ``i`` of four
``StrategicTradeAgent``s (a round drawn in 4..40); a proposer with something
to trade is drawn; ``--random`` feasible candidates are drawn uniformly from
the explicit enumeration of its trade space (bilateral and 3-cycles, rule 1
relaxed: a completion may be handed over for $100 or more; rule 4 kept),
and the top ``--top`` trades of the CP-SAT search under ``--top-value``
(default ``linear``, the estimate the generator used before the fit; a refit
can add the fitted generator's own region) are added, bilateral and with
3-cycles. Each is simulated
with ``--rollouts`` paired rollouts, the proposer holding, as ``solve``
re-scores. Rows stream to ``bench/out/trade-samples-S.jsonl`` (``--resume``).

Fit. ``--also S...`` adds the samples of earlier runs (other seeds, e.g. a
run whose ``--top`` trades came from the fitted generator); each run's
sampling command is kept beside its samples (``.meta.json``) and copied to
the provenance. The shipped fit was made in three steps: sample seed 11 with
``--top-value linear`` and fit it (``--write``); sample seed 13 with
``--top-value fitted`` (the generator of that first fit: the region the
fitted generator searches, where its errors are exploited); refit on both
(``--seed 11 --resume --also 13 --write``). States are split
by index (every 4th held out). The four weight blocks
of :mod:`solver.trades.value_model` are fitted by least squares, weighted by
``1 / (se^2 + tau^2)`` (``tau = 0.01``: the model's own error, so that a
near-exact paired delta does not dominate), each weight bounded to its sign
(scipy ``lsq_linear``, ``bvls``). On the held-out states the script prints
the Spearman correlation between predicted and simulated change, for every
participant and by role (proposer, counterparty), for the fit and for the
old linear estimate (dollars), and the fit's weighted R^2. ``--write`` refits
on all states and stores the weights with this provenance in
``solver/data/trade-value.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _runner import peak_rss_mb, run  # noqa: E402
from _trade_samples import random_trades, sampled_space, simulate_trades  # noqa: E402

from models.files import atomic_write
from models.state import GameState  # noqa: E402
from solver.trades import value_model as vm  # noqa: E402
from solver.trades.cpsat import Limits, generate_trades  # noqa: E402
from solver.trades.space import TradeSettings  # noqa: E402

OUT_MODEL = Path(__file__).resolve().parents[1] / "solver" / "data" / "trade-value.json"
TAU = 0.01
OPTS: dict[str, Any] = {}


def play_one(seed: int, i: int) -> dict[str, Any]:
    row: dict[str, Any] = {"game": i}
    got = sampled_space(seed, i)
    if got is None:
        return row
    state, space, chain, rng = got
    cands = random_trades(space, rng, OPTS["random"])
    if OPTS["top"]:
        for cycles in (False, True):
            res = generate_trades(
                state,
                space.proposer,
                settings=TradeSettings(value=OPTS["top_value"]),
                limits=Limits(top_k=OPTS["top"]),
                chain=chain,
                reserves=space.reserves,
                cycles=cycles,
                explain=False,
            )
            cands += [g.candidate for g in res.trades if g.candidate not in cands]
    row.update(simulate_trades(space, chain, cands, OPTS["rollouts"], seed=i))
    return row


def samples(rows: list[dict[str, Any]], features: tuple[str, ...]) -> tuple[list[vm.Sample], np.ndarray]:
    """The rows' trades as :class:`value_model.Sample` s, and the old linear estimate's gain
    per (trade, participant) in :func:`value_model.design`'s row order."""
    out, lin = [], []
    for r in rows:
        for t in r["trades"]:
            ps = tuple(t["players"])
            dx = {int(j): np.array([v.get(f, 0.0) for f in features]) for j, v in t["dx"].items()}
            out.append(vm.Sample(r["proposer"], ps, dx, {i: t["sim"][str(i)] for i in ps}, {i: t["se"][str(i)] for i in ps}))
            lin += [t["linear_gain"][str(i)] for i in ps]
    return out, np.asarray(lin, float)


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    from scipy.stats import spearmanr

    if len(a) < 3:
        return float("nan")
    return float(spearmanr(a, b).statistic)


def agreement(pred: np.ndarray, y: np.ndarray, role: np.ndarray) -> dict[str, float]:
    return {
        "spearman_all": spearman(pred, y),
        "spearman_proposer": spearman(pred[role == 0], y[role == 0]),
        "spearman_counterparty": spearman(pred[role == 1], y[role == 1]),
    }


def report(rows: list[dict[str, Any]], features: tuple[str, ...]) -> dict[str, Any]:
    test = [r for r in rows if r["game"] % 4 == 3]
    train = [r for r in rows if r["game"] % 4 != 3]
    X, y, w, _ = vm.design(samples(train, features)[0], TAU)
    weights = vm.fit_weights(X, y, w)
    test_samples, lin = samples(test, features)
    Xt, yt, wt, is_p = vm.design(test_samples, TAU)
    role = np.where(is_p, 0, 1)
    pred = vm.predict_rows(Xt, weights)
    r2 = 1 - np.sum(wt * (yt - pred) ** 2) / np.sum(wt * (yt - np.average(yt, weights=wt)) ** 2)
    return {
        "train_states": len(train),
        "test_states": len(test),
        "test_rows": len(yt),
        "fitted": {**agreement(pred, yt, role), "weighted_r2": float(r2)},
        "linear_estimate": agreement(lin, yt, role),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=600)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rollouts", type=int, default=400)
    ap.add_argument("--random", type=int, default=8)
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--top-value", choices=("linear", "fitted"), default="linear", help="the generator value of the --top trades")
    ap.add_argument("--also", type=int, nargs="*", default=[], help="seeds of earlier runs whose samples join the fit")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    OPTS.update(random=args.random, top=args.top, rollouts=args.rollouts, top_value=args.top_value)
    out = Path(__file__).resolve().parent / "out" / f"trade-samples-{args.seed}.jsonl"
    meta = out.with_suffix(".meta.json")
    if not (args.resume and meta.exists()):
        sampled = {"seed": args.seed, "command": " ".join(["python", "bench/fit_trade_model.py", *sys.argv[1:]])}
        atomic_write(meta, json.dumps(sampled) + "\n")
    rows, wall = run(play_one, games=args.states, seed=args.seed, workers=args.workers, out=out, resume=args.resume, progress_every=50)
    sampling = [json.loads(meta.read_text(encoding="utf-8"))]
    for other in args.also:
        extra = Path(__file__).resolve().parent / "out" / f"trade-samples-{other}.jsonl"
        rows += [json.loads(line) for line in extra.read_text(encoding="utf-8").splitlines() if line.strip()]
        extra_meta = extra.with_suffix(".meta.json")
        sampling.append(json.loads(extra_meta.read_text(encoding="utf-8")) if extra_meta.exists() else {"seed": other})
    rows = [r for r in rows if r.get("trades")]
    n_trades = sum(len(r["trades"]) for r in rows)
    print(f"{len(rows)} states with trades, {n_trades} simulated trades, {wall:.0f} s, peak RSS {peak_rss_mb():.0f} MB")
    features = vm.standard_features(GameState.new_game(["a", "b"]))  # the states' board: the standard one
    rep = report(rows, features)
    print(json.dumps(rep, indent=1))
    if args.write:
        X, y, w, _ = vm.design(samples(rows, features)[0], TAU)
        model = vm.TradeValueModel(
            features,
            vm.fit_weights(X, y, w),
            {
                "script": "bench/fit_trade_model.py",
                "command": " ".join(["python", "bench/fit_trade_model.py", *sys.argv[1:]]),
                "date": date.today().isoformat(),
                "seed": args.seed,
                "sampling": sampling,
                "states": len(rows),
                "trades": n_trades,
                "rollouts": args.rollouts,
                "tau": TAU,
                "held_out": rep,
            },
        )
        OUT_MODEL.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(OUT_MODEL, json.dumps(model.to_dict(), indent=1) + "\n")
        print(f"wrote {OUT_MODEL}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
