"""How well the answer's two evaluations agree with games played to the end, by the rollouts' asking premium (issue 39 item 3).

    python bench/answer_agree.py run --judged A.jsonl [--judged B.jsonl ...] --premiums 100,400,1000 --rollouts 2000 --out F [--resume]
    python bench/answer_agree.py run --judged A.jsonl ... --variants "subgraph:rollout_pricing=value;subgraph:rollout_pricing=value,rollout_mortgage=false" ...
    python bench/answer_agree.py report --out F
    python bench/answer_agree.py levels --judged A.jsonl --offer G:K [--games 400] [--rollouts 4000] [--workers 2] [--pricing value]

The judged files of ``bench/exploit.py judge`` hold offers the target accepted from the
``adversary``, each with the target's change in win probability measured on up to 4,000 paired
games played to the end by ``strategic`` agents in every seat (the reference; its standard error
beside it). For every judged offer and every premium ``p`` this script computes the change the
agent's answer sees in its two evaluations (:mod:`solver.decisions.answering`), with the other
seats of its rollouts asking ``p`` percent over the printed price for a lot that completes a
group (``AgentSettings(sell_premium=p)``, the answer's ``answer_premium``), or with ``p =
value`` pricing such lots as the baseline ``strategic`` does, by the split of the static surplus
(``AgentSettings(rollout_pricing="value")``, :mod:`engine.sim.rollout_values`). ``--variants``
takes ``subgraph`` specs instead (``;``-separated), each evaluation run with that spec's settings
(the spec is the row's label):

``hold``
    the first evaluation: the agent's seat holding in the rollouts (``hold=True``);
``check``
    the second: the seat trading, "not now" refusing offers while it waits
    (``wait_declines=True``, ``hold=False``).

Each is ``--rollouts`` games of the agent's ``horizon`` (20) on the seed counter's first seed
(``AgentMemory().seeds = 0``: seed 1), the same for every premium (common random numbers), so
the premiums differ only by the premium.

**Report.** Per evaluation and premium, over the offers: Pearson's correlation ``r`` of the
estimate with the reference, the root mean square difference, the mean difference (the bias:
positive, the evaluation sees more gain than the games played to the end), and the mean estimate
over the offers judged harmful beside their mean reference. The reference is itself a noisy
estimate (its se is 0.00-0.03), so ``r`` is bounded below 1 even for a perfect evaluation.

**Levels.** ``levels`` shows where the two models of play part for one judged offer: every seat's
win probability before and after the trade, in games played to the end by four ``strategic``
(``--games`` games per branch, the judge's seed 11 and streams, the trade barred in the branch
without it, as :func:`played_out.paired_block_ends` plays them) and in the rollout policy played to the end
(``--rollouts`` games of at most 1,000 rounds, every seat trading at the default premium, seed 0;
with ``--pricing value`` pricing by static value as well).

One JSON line per judged offer under a header (``answer-agree/1``: the judged files, the
premiums, the rollouts); resumable (the header must match).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from engine.sim.rollout import simulate  # noqa: E402
from engine.sim.rollout_policy import RolloutPolicy  # noqa: E402
from answer_screen import judged_source, offer_of  # noqa: E402
from exploit import read_lines, resume_lines  # noqa: E402
from models.errors import InvalidArgumentError  # noqa: E402
from models.io import load_state  # noqa: E402
from solver.agents.registry import parse_spec  # noqa: E402
from models.trade import Trade  # noqa: E402
from solver.decisions.memory import AgentMemory  # noqa: E402
from solver.decisions.settings import AgentSettings  # noqa: E402
from solver.decisions.simulation import rescore_settings  # noqa: E402
from played_out import _play_ended  # noqa: E402
from solver.evaluate import judge  # noqa: E402
from solver.trades.rescore import trade_after  # noqa: E402

HEADER = "answer-agree/1"
EVALUATIONS = ("hold", "check")
MAX_ROLLOUTS = 20_000


def settings_of(premium: int | str) -> AgentSettings:
    """The agent's settings for one column: a premium in percent, ``"value"``, or a ``subgraph`` spec.

    Examples
    --------
    >>> settings_of(400).sell_premium, settings_of("value").rollout_pricing
    (400, 'value')
    >>> settings_of("subgraph:rollout_pricing=value,rollout_mortgage=false").rollout_mortgage
    False
    """
    if isinstance(premium, str) and premium != "value" and not premium.isdigit():
        entry, options = parse_spec(premium)
        if entry.name != "subgraph":
            raise SystemExit(f"--variants: {premium!r} is not a subgraph spec")
        return AgentSettings(**options)
    return AgentSettings(rollout_pricing="value") if premium == "value" else AgentSettings(sell_premium=int(premium))


def estimates(offer: dict[str, Any], premium: int | str, rollouts: int) -> dict[str, float]:
    """The target's change in win probability in the answer's two evaluations of one recorded offer.

    Parameters
    ----------
    offer : dict
        A play file's accepted offer (its ``state``, ``trade`` and ``counterparty``).
    premium : int or str
        The rollout policy's asking premium, in percent, ``"value"`` (its seats price by static
        value, ``AgentSettings(rollout_pricing="value")``) or a ``subgraph`` spec
        (:func:`settings_of`).
    rollouts : int
        Games per evaluation.

    Returns
    -------
    dict
        ``hold`` and ``check``: the change (the seat's paired mean).
    """
    state, trade, me = load_state(offer["state"]), Trade.from_dict(offer["trade"]), int(offer["counterparty"])
    name = state.players[me].name
    base = settings_of(premium)
    out = {}
    for kind in EVALUATIONS:
        memory = AgentMemory()
        if kind == "hold":
            rs = rescore_settings(state, me, base, memory, rollouts, hold=True)
        else:
            rs = rescore_settings(state, me, dataclasses.replace(base, wait_declines=True), memory, rollouts, hold=False)
        out[kind] = float(judge(state, trade, me, rs).win_delta[name])
    return out


def agreement(estimate: np.ndarray, reference: np.ndarray) -> tuple[float, float, float]:
    """Pearson's r, the root mean square difference and the mean difference of ``estimate`` against ``reference``.

    Examples
    --------
    >>> r, rmse, bias = agreement(np.array([0.1, 0.2, 0.4]), np.array([0.0, 0.1, 0.3]))
    >>> round(r, 6), round(rmse, 6), round(bias, 6)
    (1.0, 0.1, 0.1)
    """
    r = float(np.corrcoef(estimate, reference)[0, 1])
    diff = estimate - reference
    return r, float(np.sqrt(np.mean(diff**2))), float(diff.mean())


def cmd_levels(args: argparse.Namespace) -> int:
    if not 1 <= args.games <= 4000 or not 1 <= args.rollouts <= MAX_ROLLOUTS:
        raise SystemExit(f"--games: 1 to 4000; --rollouts: 1 to {MAX_ROLLOUTS}")
    play, _, rows = judged_source(Path(args.judged[0]))
    try:
        offer = offer_of(rows, args.offer)
    except (ValueError, KeyError, IndexError):
        raise SystemExit(f"--offer: {args.offer!r} is not an offer G:K of {play.name}") from None
    state, trade = load_state(offer["state"]), Trade.from_dict(offer["trade"])
    after = trade_after(state, trade)
    names = [p.name for p in state.players]
    print(f"{args.offer}: target {names[int(offer['counterparty'])]}; {trade.to_dict()['transfers']}")
    print("model                  branch  " + "  ".join(f"{n:>6}" for n in names))
    for pricing in ("premium", "value") if args.pricing == "value" else ("premium",):
        for label, s in (("before", state), ("after", after)):
            r = simulate(s, args.rollouts, 1000, 0, policy=RolloutPolicy(pricing=pricing))
            print(f"{'rollout policy, ' + pricing:<21}  {label:>6}  " + "  ".join(f"{r.win_prob[n]:6.3f}" for n in names))
    jobs = [(state, 11, i, trade) for i in range(args.games)] + [(after, 11, i) for i in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        ends = list(pool.map(_play_ended, jobs, chunksize=20))
    for label, part in (("before", ends[: args.games]), ("after", ends[args.games :])):
        rates = np.bincount([w for w, _ in part if w >= 0], minlength=len(names)) / args.games
        print(f"{'strategic, ' + str(args.games):<21}  {label:>6}  " + "  ".join(f"{x:6.3f}" for x in rates))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    judged = [Path(j) for j in args.judged]
    out = Path(args.out)
    premiums: list[int | str]
    if args.variants:
        premiums = [v.strip() for v in args.variants.split(";") if v.strip()]
        try:
            for v in premiums:
                settings_of(v)
        except (InvalidArgumentError, ValueError) as err:
            raise SystemExit(f"--variants: {err}") from None
    else:
        try:
            premiums = [p.strip() if p.strip() == "value" else int(p) for p in args.premiums.split(",") if p.strip()]
        except ValueError:
            premiums = []
        if not premiums or any(p != "value" and not 0 <= int(p) <= 100_000 for p in premiums):
            raise SystemExit("--premiums: whole percentages 0 to 100000 or 'value'")
    if not premiums or not 1 <= args.rollouts <= MAX_ROLLOUTS:
        raise SystemExit(f"--variants: one spec at least; --rollouts: 1 to {MAX_ROLLOUTS}")
    sources = []
    for j in judged:
        _, verdicts, rows = judged_source(j)
        sources.append((j, verdicts, rows))
    header = {"header": HEADER, "judged": [j.name for j in judged], "premiums": premiums, "rollouts": args.rollouts}
    seen = {(r["judged"], r["offer"]) for r in resume_lines(out, header, args.resume)}
    with out.open("a", encoding="utf-8") as fh:
        for j, verdicts, rows in sources:
            for v in verdicts:
                if (j.name, v["offer"]) in seen:
                    continue
                offer = offer_of(rows, v["offer"])
                row: dict[str, Any] = {"judged": j.name, "offer": v["offer"], "target": v["target"], "target_se": v["target_se"], "harmful": v["harmful"]}
                per = [estimates(offer, p, args.rollouts) for p in premiums]
                for kind in EVALUATIONS:
                    row[kind] = [e[kind] for e in per]
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                print(f"  {j.name} {v['offer']}: {v['target']:+.3f} hold {' '.join(f'{x:+.3f}' for x in row['hold'])}", file=sys.stderr, flush=True)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    out = Path(args.out)
    header, rows = read_lines(out)
    if header is None or header.get("header") != HEADER or len(rows) < 3:
        raise SystemExit(f"{out}: not a file of bench/answer_agree.py, or fewer than 3 offers")
    reference = np.array([r["target"] for r in rows], dtype=float)
    harmful = np.array([r["harmful"] for r in rows], dtype=bool)
    print(
        f"{out.name}: {len(rows)} judged offers of {len(header['judged'])} file(s) ({int(harmful.sum())} harmful, "
        f"their played-out mean {reference[harmful].mean():+.3f}), {header['rollouts']} rollouts per evaluation"
    )
    print("evaluation  premium      r   rmse    bias  harmful mean")
    for kind in EVALUATIONS:
        est = np.array([r[kind] for r in rows], dtype=float)
        for i, p in enumerate(header["premiums"]):
            r, rmse, bias = agreement(est[:, i], reference)
            print(f"{kind:>10}  {p:>7}  {r:5.2f}  {rmse:.3f}  {bias:+.3f}  {est[harmful, i].mean():+.3f}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("run", "report", "levels"))
    ap.add_argument("--judged", action="append", default=[], help="run: a judged file of bench/exploit.py (its play file beside it); repeatable")
    ap.add_argument("--premiums", default="100,400,1000", help="run: ','-separated asking premiums, in percent, or 'value' (static-value pricing)")
    ap.add_argument("--variants", help="run: ';'-separated subgraph specs, in place of --premiums")
    ap.add_argument("--rollouts", type=int, default=2000)
    ap.add_argument("--offer", help="levels: the judged offer, G:K")
    ap.add_argument("--games", type=int, default=400, help="levels: games per branch played to the end")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--pricing", choices=("premium", "value"), default="premium", help="levels: also the rollout policy pricing by static value")
    ap.add_argument("--out", help="run, report: the agreement file")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    if args.command != "levels" and not args.out:
        raise SystemExit(f"{args.command}: --out is required")
    if args.command in ("run", "levels") and not args.judged:
        raise SystemExit(f"{args.command}: --judged is required")
    if args.command == "levels":
        if not args.offer:
            raise SystemExit("levels: --offer is required")
        return cmd_levels(args)
    return cmd_run(args) if args.command == "run" else cmd_report(args)


if __name__ == "__main__":
    raise SystemExit(main())
