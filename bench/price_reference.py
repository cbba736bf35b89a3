"""The played-out indifference price of a lot: the reference the auction answer is judged against.

    python bench/price_reference.py [--state instances/midgame-no-monopolies.json] [--player Cy]
                                    [--property "Water Works"] [--games 1000] [--seed 21] [--workers 2]

For a price ``p`` let ``M(p)`` be the state with the lot the bidder's at
``p`` and ``R(p)`` the state with it the rival's at ``p`` (the rival pays
``min(p, its cash)``; the rival is the simulation's most dangerous rival,
:meth:`solver.bidding.auction.AuctionEvaluator.rival`, so both methods
answer the same contest). ``D(p)`` is the bidder's wins in ``M(p)`` minus
its wins in ``R(p)``, in ``--games`` paired games played to the end (1,000
rounds) by :class:`~solver.agents.strategic.StrategicTradeAgent` in every
seat, game ``g`` of every branch on stream seed ``SeedSequence([seed, g])``
(the same dice and cards). The indifference price ``p*`` solves ``D(p) = 0``.

``D`` falls in ``p`` (both branches' cash moves by ``p``, in opposite
seats). Rather than bisect (each probe costs ``2 x --games`` games), the
secant method runs on common dice: probes at ``p0 = 0`` and ``p1 = list
price``, then at the root of the line through the last two probes (kept
in ``[0, cash]``), until two probes bracket a root less than ``--tol``
dollars wide or ``--probes`` probes are made. ``p*`` is the root of the
line through the bracketing probes, and its standard error the delta
method's: ``se(p*) = se(D(p*)) / |slope|`` with ``se(D)`` interpolated the same way.

Printed: every probe (``D`` and its standard error), ``p*`` with its 95%
interval, and beside it the two answers (:func:`solver.bidding.auction.auction_bid`
at ``solve``'s purchase settings, 200 games of 20 rounds, and the bidding game's
:func:`solver.bidding.contest.contest_bid`) with their distance to ``p*``.

``--situations N`` does the same for ``N`` purchase questions met in games of
four ``strategic`` agents (:func:`bench.auction_validation.situations`, one in
every ``--every``), one JSON line per situation to ``--out`` as it finishes
(``--resume`` keeps the finished ones), and prints, for each method, Spearman's
rank correlation of its maximum bid with ``p*`` (censored to ``[0, cash]``)
and the median absolute difference in dollars.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.played_out import _play  # noqa: E402
from models.io import load_state  # noqa: E402
from models.state import GameState  # noqa: E402
from solver.bidding.auction import AuctionEvaluator, auction_bid  # noqa: E402
from solver.bidding.contest import contest_bid  # noqa: E402
from solver.decide import PURCHASE_CHECK_HORIZON, PURCHASE_CHECK_ROLLOUTS  # noqa: E402


def with_owner(state: GameState, square: int, owner: int, price: int) -> GameState:
    s = state.copy()
    s.owner[square] = owner
    s.mortgaged[square] = False
    s.players[owner].cash -= min(price, s.players[owner].cash)
    return s


def probe(state: GameState, me: int, rival: int, square: int, price: int, games: int, seed: int, pool: ProcessPoolExecutor) -> tuple[float, float]:
    """``D(price)`` and its standard error over ``games`` paired games to the end."""
    mine, theirs = with_owner(state, square, me, price), with_owner(state, square, rival, price)
    jobs = [(s, seed, g) for s in (mine, theirs) for g in range(games)]
    winners = list(pool.map(_play, jobs, chunksize=25))
    d = np.array([(winners[g] == me) - (winners[games + g] == me) for g in range(games)], float)
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(games))


def played_out_price(
    state: GameState, me: int, rival: int, square: int, games: int, seed: int, pool: ProcessPoolExecutor, probes_max: int, tol: int, say: bool = True
) -> tuple[float, float, bool, dict[int, tuple[float, float]]]:
    """``(p*, se, bracketed, probes)`` by the secant method on common dice (module docstring)."""
    cash = state.players[me].cash
    probes: dict[int, tuple[float, float]] = {}
    t0 = time.perf_counter()

    def at(p: int) -> tuple[float, float]:
        p = int(min(max(p, 0), cash))
        if p not in probes:
            probes[p] = probe(state, me, rival, square, p, games, seed, pool)
            if say:
                print(f"  D(${p}) = {probes[p][0]:+.4f} (se {probes[p][1]:.4f})  [{time.perf_counter() - t0:.0f} s]", flush=True)
        return probes[p]

    a, b = 0, min(state.board.squares[square].price, cash)
    at(a)
    if b != a:
        at(b)
    while len(probes) < probes_max and len(probes) >= 2:
        (da, _), (db, _) = probes[a], probes[b]
        if da == db:
            break
        root = a - da * (b - a) / (db - da)
        pts = sorted(probes)
        bracket = [(x, y) for x, y in zip(pts, pts[1:]) if probes[x][0] > 0 >= probes[y][0]]
        if bracket and bracket[0][1] - bracket[0][0] <= tol:
            break
        nxt = int(round(min(max(root, 0), cash)))
        if nxt in probes:
            break
        at(nxt)
        a, b = b, nxt
    pts = sorted(probes)
    if len(pts) < 2:
        d0 = probes[pts[0]][0]
        return (0.0 if d0 <= 0 else float(cash)), 0.0, False, probes
    bracket = [(x, y) for x, y in zip(pts, pts[1:]) if probes[x][0] > 0 >= probes[y][0]]
    if bracket:
        x, y = bracket[0]
    elif probes[pts[0]][0] <= 0:
        x, y = pts[0], pts[1]
    else:
        x, y = pts[-2], pts[-1]
    (dx, sx), (dy, sy) = probes[x], probes[y]
    slope = (dy - dx) / (y - x)
    if slope >= 0:  # no fall in the probed range: p* at an end
        return (0.0 if dx <= 0 else float(cash)), float("nan"), False, probes
    pstar = x - dx / slope
    t = (pstar - x) / (y - x)
    se_p = ((1 - t) * sx + t * sy) / abs(slope)
    return float(min(max(pstar, 0.0), cash)), float(se_p), bool(bracket), probes


def one(args: argparse.Namespace) -> int:
    state = load_state(args.state)
    player = args.player or state.players[state.to_move].name
    ev = AuctionEvaluator(state, player, args.property, rollouts=PURCHASE_CHECK_ROLLOUTS, horizon=PURCHASE_CHECK_HORIZON, seed=0)
    rival, _ = ev.rival()
    if rival is None:
        raise SystemExit("no rival: nothing to price against")
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        pstar, se_p, bracketed, probes = played_out_price(state, ev.me, rival, ev.square, args.games, args.seed, pool, args.probes, args.tol)
    name = state.players[ev.me].name
    pts = sorted(probes)
    print(f"{name} for {args.property} against {state.players[rival].name}: {args.games} paired games to the end per probe (strategic agents)")
    print(f"  played-out indifference price ${pstar:.0f} (95% [{pstar - 1.96 * se_p:.0f}, {pstar + 1.96 * se_p:.0f}]; "
          f"{'bracketed' if bracketed else 'not bracketed'} by the probes at {', '.join(f'${p}' for p in pts)})")
    sim = auction_bid(state, name, args.property, rollouts=PURCHASE_CHECK_ROLLOUTS, horizon=PURCHASE_CHECK_HORIZON, seed=0)
    game = contest_bid(state, name, args.property)
    for label, bid in (("simulation (solve's answer)", sim.max_bid), ("bidding game (diagnostic)", game.max_bid)):
        print(f"  {label:28s} max bid ${bid}: {bid - pstar:+.0f} from p*")
    print(f"  ({time.perf_counter() - t0:.0f} s)")
    return 0


def many(args: argparse.Namespace) -> int:
    import json

    from scipy.stats import spearmanr  # type: ignore[import-untyped]

    from bench.auction_validation import situations

    out = Path(args.out)
    header = {"header": "price-reference/1", "seed": args.seed, "games": args.games, "situations": args.situations, "every": args.every}
    rows: list[dict[str, object]] = []
    if out.exists():
        if not args.resume:
            raise SystemExit(f"{out} exists: pass --resume to complete it, or another --out")
        lines = out.read_text(encoding="utf-8").splitlines()
        if not lines or json.loads(lines[0]) != header:
            raise SystemExit(f"{out}: not this run's file")
        for line in lines[1:]:
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                break
        out.write_text("\n".join([json.dumps(header), *map(json.dumps, rows)]) + "\n", encoding="utf-8")
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(header) + "\n", encoding="utf-8")
    found = situations(args.seed, args.situations, args.every)
    with ProcessPoolExecutor(args.workers) as pool, out.open("a", encoding="utf-8") as fh:
        for k, (state, me, square, game) in enumerate(found):
            if k < len(rows):
                continue
            name = state.players[me].name
            lot = state.board.squares[square].name
            ev = AuctionEvaluator(state, name, lot, rollouts=PURCHASE_CHECK_ROLLOUTS, horizon=PURCHASE_CHECK_HORIZON, seed=0)
            rival, _ = ev.rival()
            if rival is None:
                continue
            pstar, se_p, bracketed, _ = played_out_price(state, me, rival, square, args.games, args.seed + 1 + k, pool, args.probes, args.tol, say=False)
            sim = ev.bid()
            g = contest_bid(state, name, lot)
            row = {"k": k, "game": game, "player": name, "lot": lot, "cash": state.players[me].cash, "list": ev.list_price,
                   "pstar": pstar, "pstar_se": se_p, "bracketed": bracketed, "simulation": sim.max_bid, "bidding_game": g.max_bid}
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            rows.append(row)
            print(f"  {k}: {name} for {lot} (cash ${row['cash']}): p* ${pstar:.0f} (se {se_p:.0f}); simulation ${sim.max_bid}, bidding game ${g.max_bid}", flush=True)
    ps = np.array([float(r["pstar"]) for r in rows])  # type: ignore[arg-type]
    print(f"{len(rows)} situations; {args.games} paired games to the end per probe")
    for key in ("simulation", "bidding_game"):
        bids = np.array([float(r[key]) for r in rows])  # type: ignore[arg-type]
        rho = spearmanr(bids, ps).statistic if len(rows) > 2 else float("nan")
        print(f"  {key:13s} Spearman {rho:.2f}, median |bid - p*| ${np.median(np.abs(bids - ps)):.0f}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--state", default=str(ROOT / "instances" / "midgame-no-monopolies.json"))
    ap.add_argument("--player", default=None, help="the bidder (default: to move)")
    ap.add_argument("--property", default="Water Works")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--probes", type=int, default=4)
    ap.add_argument("--tol", type=int, default=40)
    ap.add_argument("--situations", type=int, default=0, help="price N purchase questions from strategic games instead")
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "price-reference.jsonl"))
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    return many(args) if args.situations else one(args)


if __name__ == "__main__":
    raise SystemExit(main())
