"""A cheap screen of the target's answer variants on the adversary's judged offers (issue 39 item 3).

    python bench/answer_screen.py run --judged bench/runs/exploit-judge-....jsonl --variants "subgraph;subgraph:tiebreak=no_loss" --seeds 10 --out F [--resume]
    python bench/answer_screen.py report --out F

The judged file of ``bench/exploit.py judge`` holds a seeded uniform sample of the offers the
target accepted in the adversary's games, each with its played-out change and a harmful
verdict. A new answering rule (an option of ``subgraph``) would be measured properly by a new
1,000-game run of the adversary against it and a new judged sample: about five hours on two
cores. This screen answers the already-judged offers again, in the recorded state, with each
variant's own answer (:func:`solver.decisions.answering.offer_choice`, a fresh memory: the seed
counter set to ``0 .. seeds - 1``, no trading habits seen), and estimates what share of the
offers a variant would still accept are harmful.

**The estimate.** Let ``A_0`` be the seeds on which the first variant (the target as it played)
accepts an offer and ``A_v`` those of variant ``v``. The sample is uniform over the offers the
target accepted, so each offer stands for the accepted ones like it, and ``v`` keeps it with
probability ``w_v = |A_v & A_0| / |A_0|`` (``|A_v| / seeds`` when ``A_0`` is empty: the target
accepted on a seed the screen did not draw). The share harmful among the offers ``v`` keeps is
the ratio estimator ``sum(w_v [harmful]) / sum(w_v)`` over the judged offers, with a 95%
percentile bootstrap interval over offers (2,000 resamples, ``numpy.random.default_rng(0)``;
Efron & Tibshirani, *An Introduction to the Bootstrap*, 1993, ch. 13). Also printed: the mean
played-out change of the target over the kept offers (weighted alike).

**What it does not see.** It covers only offers the target accepted: a variant that accepts
what the target refused (on some seed, ``A_v - A_0``, counted in the report) may accept harmful
offers the sample does not hold, and an adversary searching against the variant would offer
other trades. The screen ranks rules cheaply; the run of record stays ``bench/exploit.py``.

One JSON line per judged offer under a header (``answer-screen/1``: the judged and play files'
names, the variants, the seeds); resumable (the header must match).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from engine.rules.view import GameView  # noqa: E402
from engine.tournament.results import read_results  # noqa: E402
from exploit import read_lines, resume_lines  # noqa: E402
from models.io import load_state  # noqa: E402
from models.trade import Trade  # noqa: E402
from solver.agents.registry import parse_spec  # noqa: E402
from solver.decisions.answering import offer_choice  # noqa: E402
from solver.decisions.caches import DecisionCaches  # noqa: E402
from solver.decisions.memory import AgentMemory  # noqa: E402
from solver.decisions.profile import agent_settings  # noqa: E402

HEADER = "answer-screen/1"
BOOTSTRAP = 2000
MAX_SEEDS = 100


def answers(offer: dict[str, Any], spec: str, seeds: int) -> list[bool]:
    """The answers of ``spec`` (a ``subgraph`` spec) to one recorded offer, on seeds ``0 .. seeds - 1``.

    Parameters
    ----------
    offer : dict
        A play file's accepted offer (its ``state``, ``trade`` and ``counterparty``).
    spec : str
        The answering agent's spec.
    seeds : int
        The seed counters tried (a fresh memory each).

    Returns
    -------
    list of bool
        Accepted, per seed.
    """
    state, trade, me = load_state(offer["state"]), Trade.from_dict(offer["trade"]), int(offer["counterparty"])
    settings = agent_settings(spec)
    out = []
    for seed in range(seeds):
        memory = AgentMemory()
        memory.seeds = seed
        out.append(bool(offer_choice(GameView(state, me), me, trade, settings, memory, DecisionCaches()).answer))
    return out


def keep_weights(rows: list[dict[str, Any]], v: int) -> np.ndarray:
    """``w_v`` of every row (module docstring): the chance variant ``v`` keeps an offer the first accepted.

    Parameters
    ----------
    rows : list of dict
        The screen's rows (``accepts``: one list of answers per variant).
    v : int
        The variant's index.

    Returns
    -------
    numpy.ndarray
        One weight per row, in [0, 1].

    Examples
    --------
    >>> rows = [{"accepts": [[True, True, False], [True, False, True]]}, {"accepts": [[False] * 3, [True, False, False]]}]
    >>> keep_weights(rows, 1).tolist()
    [0.5, 0.3333333333333333]
    """
    out = []
    for r in rows:
        first, mine = r["accepts"][0], r["accepts"][v]
        n0 = sum(first)
        out.append(sum(a and b for a, b in zip(mine, first)) / n0 if n0 else sum(mine) / len(mine))
    return np.asarray(out, dtype=float)


def harmful_share(weights: np.ndarray, harmful: np.ndarray, seed: int = 0) -> tuple[float, float, float]:
    """The ratio estimate of the share harmful among kept offers and its 95% percentile bootstrap interval.

    Parameters
    ----------
    weights : numpy.ndarray
        ``w_v`` per offer.
    harmful : numpy.ndarray
        The offers' verdicts (bool).
    seed : int
        The bootstrap's generator seed.

    Returns
    -------
    tuple of float
        The estimate, the interval's lower and upper ends (``nan`` when nothing is kept).

    Examples
    --------
    Two offers of four kept in full, one of them harmful, and a harmful one kept half the time:

    >>> share, lo, hi = harmful_share(np.array([1.0, 1.0, 0.5, 0.0]), np.array([True, False, True, False]))
    >>> round(share, 4)  # (1 + 0.5) / (1 + 1 + 0.5)
    0.6
    """
    total = weights.sum()
    if total <= 0:
        return float("nan"), float("nan"), float("nan")
    share = float((weights * harmful).sum() / total)
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, len(weights), size=(BOOTSTRAP, len(weights)))
    w = weights[pick]
    kept = w.sum(axis=1)
    ratios = (w * harmful[pick]).sum(axis=1)[kept > 0] / kept[kept > 0]
    lo, hi = np.quantile(ratios, [0.025, 0.975])
    return share, float(lo), float(hi)


def judged_source(judged: Path) -> tuple[Path, list[dict[str, Any]], dict[int, dict[str, Any]]]:
    """A judged file of ``bench/exploit.py judge``: its play file (named in its header, beside it),
    its verdicts, and the play file's games by number. Exits with a one-line message when the file
    is not a judged file or names its play file with a path."""
    jh, verdicts = read_lines(judged)
    if jh is None or not str(jh.get("header", "")).startswith("exploit-judge/"):
        raise SystemExit(f"{judged}: not a judged file of bench/exploit.py")
    if not isinstance(jh.get("play"), str) or Path(jh["play"]).name != jh["play"]:
        raise SystemExit(f"{judged}: its play file must be a file name beside it, got {jh.get('play')!r}")
    play = judged.parent / jh["play"]
    return play, verdicts, read_results(play).rows


def target_spec(play: Path) -> str:
    """The spec of the target in an adversary's play file: its first seat that is not the adversary."""
    agents = (read_results(play).header or {}).get("agents") or []
    for spec in agents:
        if isinstance(spec, str) and not spec.startswith("adversary"):
            return spec
    raise SystemExit(f"{play}: no target among its agents {agents!r}")


def check_first_variant(variants: list[str], play: Path) -> None:
    """Exit in one line unless the first variant plays as the target did (same settings, whatever
    their spelling): the keep weights are relative to its answers (module docstring)."""
    target = target_spec(play)
    if agent_settings(variants[0]) != agent_settings(target):
        raise SystemExit(f"--variants: the first, {variants[0]!r}, is not the target as it played in {play.name} ({target!r})")


def offer_of(rows: dict[int, dict[str, Any]], key: str) -> dict[str, Any]:
    """The offer ``G:K`` (game ``G``'s offer ``K``) of a play file's games."""
    g, k = (int(x) for x in key.split(":"))
    return dict(rows[g]["offers"][k])


def cmd_run(args: argparse.Namespace) -> int:
    judged, out = Path(args.judged), Path(args.out)
    variants = [v.strip() for v in args.variants.split(";") if v.strip()]
    if not variants or not 1 <= args.seeds <= MAX_SEEDS:
        raise SystemExit(f"--variants: at least one; --seeds: 1 to {MAX_SEEDS}")
    for v in variants:
        if parse_spec(v)[0].name != "subgraph":
            raise SystemExit(f"--variants: {v!r} is not a subgraph spec")
    play, verdicts, rows = judged_source(judged)
    check_first_variant(variants, play)
    header = {"header": HEADER, "judged": judged.name, "play": play.name, "variants": variants, "seeds": args.seeds}
    seen = {r["offer"] for r in resume_lines(out, header, args.resume)}
    with out.open("a", encoding="utf-8") as fh:
        for v in verdicts:
            if v["offer"] in seen:
                continue
            offer = offer_of(rows, v["offer"])
            row = {"offer": v["offer"], "target": v["target"], "target_se": v["target_se"], "harmful": v["harmful"]}
            row["accepts"] = [answers(offer, spec, args.seeds) for spec in variants]
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            print(f"  {v['offer']}: {' '.join(str(sum(a)) for a in row['accepts'])} of {args.seeds}", file=sys.stderr, flush=True)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    out = Path(args.out)
    header, rows = read_lines(out)
    if header is None or header.get("header") != HEADER or not rows:
        raise SystemExit(f"{out}: not a screen of bench/answer_screen.py, or empty")
    harmful = np.array([r["harmful"] for r in rows], dtype=bool)
    change = np.array([r["target"] for r in rows], dtype=float)
    print(f"{out.name}: {len(rows)} judged offers of {header['judged']} ({int(harmful.sum())} harmful), {header['seeds']} seeds each")
    for v, spec in enumerate(header["variants"]):
        w = keep_weights(rows, v)
        share, lo, hi = harmful_share(w, harmful)
        extra = sum(a and not b for r in rows for a, b in zip(r["accepts"][v], r["accepts"][0]))
        mean = float((w * change).sum() / w.sum()) if w.sum() > 0 else float("nan")
        print(
            f"  {spec}: keeps {w.sum():.1f} of {len(rows)}; harmful {share:.1%} [{lo:.1%}, {hi:.1%}]; "
            f"target's mean played-out change {mean:+.4f}; accepts {extra} answer(s) the first refuses"
        )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("run", "report"))
    ap.add_argument("--judged", help="run: a judged file of bench/exploit.py (its play file beside it)")
    ap.add_argument("--variants", default="subgraph", help="run: ';'-separated subgraph specs; the first is the target as it played")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--out", required=True)
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    if args.command == "run" and not args.judged:
        raise SystemExit("run: --judged is required")
    return cmd_run(args) if args.command == "run" else cmd_report(args)


if __name__ == "__main__":
    raise SystemExit(main())
