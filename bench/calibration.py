"""Is solve's "win probability now" a forecast? Calibration against games played to the end.

    python bench/calibration.py [--games 520] [--seed 0] [--workers 2] [--out bench/out/calibration.jsonl]
                                [--rollouts 800] [--horizon 30] [--sample 0.05] [--per-game 8] [--bootstrap 1000]

**States.** Game ``g`` (``g = 0 .. --games-1``) draws, from
``numpy.random.default_rng([seed, g])``: the number of players (2 to 6,
uniform), each seat's agent from the registry (``strategic``, ``value``,
``subgraph``, uniform and independent) and the rules preset
(``standard-us`` or ``house-jackpot``, even odds). The game is played to
the end (1,000-round cap, the tournament's) by :class:`engine.rules.game.Game`
on stream seed ``SeedSequence([seed, g])``. At the start of every turn the
state is kept with probability ``--sample`` (default 0.05), at most
``--per-game`` (default 8) per game, so states come from openings, middle
games and end games as they occur in play.

**Forecasts.** Each kept state is simulated as ``solve`` simulates it at its
default settings (:func:`solver.trades.rescore.baseline` with
``RescoreSettings(rollouts=800, horizon=30, seed=0)``: every seat plays the
trading rollout policy, a game still running at the horizon is scored by
the horizon model), and the horizon model is read on the state itself
(:func:`engine.sim.win_model.state_win_probabilities`: no rollouts); both are
stored. Scored: ``solve``'s forecast, ``FORECAST_BLEND`` x the simulation +
(1 - ``FORECAST_BLEND``) x the horizon model (:func:`solver.decide.forecast`);
the simulation alone; the horizon model alone; the even split (``1 /
active players``). ``--fit``: the blend weight that minimises the log loss on
the even-numbered games, scored on the odd ones, and the other way round
(the shipped weight came from this). The outcome is the game's winner (on
the round cap, the richest, as the engine scores it).

**Scores** (over every (state, active player) pair unless said):

* Brier score: the mean over states of ``sum_i (f_i - y_i)^2``;
* log loss: the mean over states of ``-log f_winner`` (``f`` clipped to
  ``[1e-6, 1]``);
* reliability: the pairs in 10 equal-width bins of ``f``; per bin the
  count, the mean forecast and the observed frequency;
* expected calibration error ``ECE = sum_b (n_b / N) |mean f_b - obs_b|``;
* per agent: the same over the pairs of that agent's seats, and its bias
  (mean forecast minus observed win rate: a forecast that cannot know an
  opponent's strength is low for strong seats and high for weak ones).

Intervals: a game-clustered bootstrap (``--bootstrap`` resamples of the
games with replacement, seeded; the 2.5% and 97.5% quantiles), since the
states of one game share its outcome.

Rows stream to ``--out`` (one JSON line per game, after a header naming
the settings; ``--resume`` checks the header and plays only the missing
games), so a run is crash-safe and memory stays flat in the number of
games. Printed: markdown tables for ``docs/evaluation.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.rules.game import Game  # noqa: E402
from engine.rules.seeding import game_seed_sequence, game_seeds  # noqa: E402
from engine.rules.streams import SeededStream  # noqa: E402
from engine.sim.win_model import state_win_probabilities  # noqa: E402
from models.rules import PRESETS  # noqa: E402
from models.state import GameState, Phase  # noqa: E402
from solver.agents.registry import factory  # noqa: E402
from solver.decide import FORECAST_BLEND  # noqa: E402
from solver.trades.rescore import RescoreSettings, baseline  # noqa: E402

AGENTS = ("strategic", "value", "subgraph")
PRESET_NAMES = ("standard-us", "house-jackpot")
MAX_ROUNDS = 1000
HEADER = "calibration/1"


def lineup(seed: int, game: int) -> tuple[list[str], str]:
    """The game's agents (one per seat) and preset, drawn from ``default_rng([seed, game])``."""
    rng = np.random.default_rng([seed, game])
    n = int(rng.integers(2, 7))
    agents = [AGENTS[int(k)] for k in rng.integers(0, len(AGENTS), n)]
    preset = PRESET_NAMES[int(rng.integers(0, 2))]
    return agents, preset


def horizon_model(state: GameState) -> list[float]:
    """The horizon model's probabilities on ``state`` itself (no rollouts)."""
    return [float(x) for x in state_win_probabilities(state)]


def play_game(args: tuple[int, int, int, int, float, int]) -> dict[str, Any]:
    """Play game ``g``, keep states, forecast them: the game's row."""
    seed, g, rollouts, horizon, sample, per_game = args
    agents, preset = lineup(seed, g)
    n = len(agents)
    stream_seed, seat_seeds = game_seeds(game_seed_sequence(seed, g), n)
    players = [factory(spec)(s) for spec, s in zip(agents, seat_seeds)]
    state = GameState.new_game([f"P{k + 1}" for k in range(n)], rules=PRESETS[preset])
    game = Game(state, players, SeededStream(stream_seed), max_rounds=MAX_ROUNDS)
    pick = np.random.default_rng([seed, g, 1])
    kept: list[GameState] = []
    while not game.over:
        if state.phase == Phase.START and len(kept) < per_game and pick.random() < sample:
            kept.append(state.copy())
        game.play_turn()
    assert game.result is not None
    winner = game.result.winner_index
    settings = RescoreSettings(rollouts=rollouts, horizon=horizon, seed=0, threads=1)
    states = []
    for s in kept:
        fc = baseline(s, settings)
        names = [p.name for p in s.players]
        states.append({
            "round": s.round,
            "active": [not p.bankrupt for p in s.players],
            "forecast": [float(fc.win_prob[nm]) for nm in names],
            "horizon_model": horizon_model(s),
        })
    return {"game": g, "agents": agents, "preset": preset, "winner": winner, "rounds": game.result.rounds, "reason": str(game.result.reason), "states": states}


# ---------------------------------------------------------------------------
# scores
# ---------------------------------------------------------------------------
def pairs(rows: list[dict[str, Any]], key: str) -> Iterator[tuple[int, float, int, str]]:
    """``(game, forecast, won, agent)`` for every active player of every kept state."""
    for r in rows:
        for st in r["states"]:
            n_act = sum(st["active"])
            for i, act in enumerate(st["active"]):
                if not act:
                    continue
                yield r["game"], _f(st, key, i, n_act), int(r["winner"] == i), r["agents"][i]


def _f(st: dict[str, Any], key: str, i: int, n_act: int) -> float:
    """Player ``i``'s forecast under ``key``: ``even``, ``forecast`` (the simulation), ``horizon_model``
    or ``blend:W`` (W x the simulation + (1 - W) x the horizon model)."""
    if key == "even":
        return 1.0 / n_act
    if key.startswith("blend:"):
        w = float(key[6:])
        return float(w * st["forecast"][i] + (1 - w) * st["horizon_model"][i])
    return float(st[key][i])


def brier_logloss(rows: list[dict[str, Any]], key: str) -> tuple[float, float]:
    b, ll, n = 0.0, 0.0, 0
    for r in rows:
        for st in r["states"]:
            n_act = sum(st["active"])
            fs = [_f(st, key, i, n_act) if a else 0.0 for i, a in enumerate(st["active"])]
            b += sum((f - (r["winner"] == i)) ** 2 for i, f in enumerate(fs) if st["active"][i])
            ll += -math.log(min(1.0, max(1e-6, fs[r["winner"]]))) if r["winner"] is not None else 0.0
            n += 1
    return b / max(n, 1), ll / max(n, 1)


def reliability(fs: np.ndarray, ys: np.ndarray, bins: int = 10) -> tuple[list[tuple[float, float, float, int]], float]:
    """Per bin ``(lo, mean forecast, observed, count)`` and the ECE."""
    idx = np.minimum((fs * bins).astype(int), bins - 1)
    table, ece = [], 0.0
    for b in range(bins):
        m = idx == b
        k = int(m.sum())
        if k == 0:
            continue
        mf, ob = float(fs[m].mean()), float(ys[m].mean())
        table.append((b / bins, mf, ob, k))
        ece += k / len(fs) * abs(mf - ob)
    return table, ece


def summary(rows: list[dict[str, Any]], key: str, agent: str | None = None) -> dict[str, float]:
    ps = [(f, y) for _, f, y, a in pairs(rows, key) if agent is None or a == agent]
    if not ps:
        return {"n": 0}
    fs = np.array([p[0] for p in ps])
    ys = np.array([p[1] for p in ps], float)
    _, ece = reliability(fs, ys)
    out = {"n": len(ps), "ece": ece, "mean_forecast": float(fs.mean()), "observed": float(ys.mean())}
    if agent is None:
        out["brier"], out["log_loss"] = brier_logloss(rows, key)
    return out


def bootstrap(rows: list[dict[str, Any]], key: str, reps: int, seed: int, agent: str | None = None) -> dict[str, tuple[float, float]]:
    """Game-clustered bootstrap 95% intervals of the summary's figures."""
    rng = np.random.default_rng([seed, 7])
    draws: dict[str, list[float]] = {}
    for _ in range(reps):
        sample = [rows[int(i)] for i in rng.integers(0, len(rows), len(rows))]
        for k, v in summary(sample, key, agent).items():
            if k != "n":
                draws.setdefault(k, []).append(v)
    return {k: (float(np.quantile(v, 0.025)), float(np.quantile(v, 0.975))) for k, v in draws.items()}


# ---------------------------------------------------------------------------
# the run
# ---------------------------------------------------------------------------
def _header(args: argparse.Namespace) -> dict[str, Any]:
    return {"header": HEADER, "seed": args.seed, "rollouts": args.rollouts, "horizon": args.horizon, "sample": args.sample, "per_game": args.per_game}


def _read(path: Path, header: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        first = json.loads(fh.readline())
        if first != header:
            raise SystemExit(f"{path}: not this run's file (header {first}, expected {header}); use another --out")
        for line in fh:
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError:
                    break  # a torn last line of an interrupted run: that game is played again
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=520)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--rollouts", type=int, default=800)
    ap.add_argument("--horizon", type=int, default=30)
    ap.add_argument("--sample", type=float, default=0.05)
    ap.add_argument("--per-game", type=int, default=8)
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "calibration.jsonl"))
    ap.add_argument("--resume", action="store_true", help="keep the games already in --out (same settings) and play the rest")
    ap.add_argument("--fit", action="store_true", help="also fit the blend weight on half the games and score it on the other half")
    args = ap.parse_args()
    out = Path(args.out)
    header = _header(args)
    rows: list[dict[str, Any]] = []
    if out.exists():
        if not args.resume:
            raise SystemExit(f"{out} exists: pass --resume to complete it, or another --out")
        rows = _read(out, header)
        with out.open("w", encoding="utf-8") as fh:  # rewrite without a torn last line
            fh.write(json.dumps(header) + "\n")
            for r in rows:
                fh.write(json.dumps(r) + "\n")
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(header) + "\n", encoding="utf-8")
    done = {r["game"] for r in rows}
    todo = [(args.seed, g, args.rollouts, args.horizon, args.sample, args.per_game) for g in range(args.games) if g not in done]
    t0 = time.perf_counter()
    with out.open("a", encoding="utf-8") as fh, ProcessPoolExecutor(args.workers) as pool:
        for k, row in enumerate(pool.map(play_game, todo, chunksize=1), 1):
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            rows.append(row)
            if k % 20 == 0:
                print(f"  {k}/{len(todo)} games, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    rows = sorted((r for r in rows if r["game"] < args.games), key=lambda r: r["game"])
    report(rows, args)
    if args.fit:
        fit_blend(rows)
    return 0


def fit_blend(rows: list[dict[str, Any]]) -> None:
    """The blend weight by log loss on the even games, scored on the odd ones, and the other way round."""
    halves = {"even": [r for r in rows if r["game"] % 2 == 0], "odd": [r for r in rows if r["game"] % 2 == 1]}
    grid = [k / 20 for k in range(21)]
    print("\nBlend weight fitted on one half of the games (log loss), scored on the other:\n")
    print("| fitted on | weight | held-out ECE | held-out Brier | held-out log loss |")
    print("|---|---|---|---|---|")
    for fit_on, score_on in (("even", "odd"), ("odd", "even")):
        w = min(grid, key=lambda g: brier_logloss(halves[fit_on], f"blend:{g}")[1])
        s = summary(halves[score_on], f"blend:{w}")
        print(f"| {fit_on} games | {w:.2f} | {s['ece']:.4f} | {s['brier']:.4f} | {s['log_loss']:.4f} |")


def report(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    n_states = sum(len(r["states"]) for r in rows)
    sizes = sorted({len(r["agents"]) for r in rows})
    print(f"{len(rows)} games ({', '.join(PRESET_NAMES)}; {min(sizes)}-{max(sizes)} players), {n_states} states; "
          f"forecast: {args.rollouts} rollouts of {args.horizon} rounds (solve's defaults); {args.bootstrap} game-clustered bootstrap resamples\n")
    blend = f"blend:{FORECAST_BLEND}"
    print("| forecast | Brier | log loss | ECE (10 bins) |")
    print("|---|---|---|---|")
    for key, label in (
        (blend, f"solve: {FORECAST_BLEND:g} x simulation + {1 - FORECAST_BLEND:g} x horizon model"),
        ("forecast", "the simulation alone (all-trading rollouts)"),
        ("horizon_model", "horizon model alone"),
        ("even", "even split"),
    ):
        s = summary(rows, key)
        ci = bootstrap(rows, key, args.bootstrap, args.seed)
        print(f"| {label} | {s['brier']:.4f} [{ci['brier'][0]:.4f}, {ci['brier'][1]:.4f}] | {s['log_loss']:.4f} "
              f"[{ci['log_loss'][0]:.4f}, {ci['log_loss'][1]:.4f}] | {s['ece']:.4f} [{ci['ece'][0]:.4f}, {ci['ece'][1]:.4f}] |")
    tables = {}
    for key in (blend, "forecast"):
        fs = np.array([f for _, f, _, _ in pairs(rows, key)])
        ys = np.array([y for _, _, y, _ in pairs(rows, key)], float)
        tables[key] = reliability(fs, ys)[0]
    print("\nReliability (every active player of every state): solve's forecast, and the simulation alone:\n")
    print("| forecast bin | pairs | mean forecast | observed | simulation alone: pairs | mean | observed |")
    print("|---|---|---|---|---|---|---|")
    sim = {lo: (mf, ob, k) for lo, mf, ob, k in tables["forecast"]}
    for lo, mf, ob, k in tables[blend]:
        s_mf, s_ob, s_k = sim.get(lo, (float("nan"), float("nan"), 0))
        print(f"| {lo:.1f}-{lo + 0.1:.1f} | {k} | {mf:.3f} | {ob:.3f} | {s_k} | {s_mf:.3f} | {s_ob:.3f} |")
    print("\nBy table size and preset (ECE of solve's forecast; the simulation alone in brackets):\n")
    print("| games | n | ECE |")
    print("|---|---|---|")
    for label, sub in [(f"{n} players", [r for r in rows if len(r["agents"]) == n]) for n in range(2, 7)] + [
        (p, [r for r in rows if r["preset"] == p]) for p in PRESET_NAMES
    ]:
        if sub:
            print(f"| {label} | {len(sub)} | {summary(sub, blend)['ece']:.4f} ({summary(sub, 'forecast')['ece']:.4f}) |")
    print("\nBy agent (the seats it played; solve's forecast):\n")
    print("| agent | pairs | mean forecast | observed win rate | bias | ECE |")
    print("|---|---|---|---|---|---|")
    for a in AGENTS:
        s = summary(rows, blend, a)
        if s["n"] == 0:
            continue
        ci = bootstrap(rows, blend, max(200, args.bootstrap // 5), args.seed, a)
        bias = s["mean_forecast"] - s["observed"]
        print(f"| `{a}` | {s['n']} | {s['mean_forecast']:.3f} | {s['observed']:.3f} | {bias:+.3f} | {s['ece']:.4f} [{ci['ece'][0]:.4f}, {ci['ece'][1]:.4f}] |")


if __name__ == "__main__":
    raise SystemExit(main())
