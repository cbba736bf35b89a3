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
    args = ap.parse_args()
    state = load_state(args.state)
    player = args.player or state.players[state.to_move].name
    ev = AuctionEvaluator(state, player, args.property, rollouts=PURCHASE_CHECK_ROLLOUTS, horizon=PURCHASE_CHECK_HORIZON, seed=0)
    me, square = ev.me, ev.square
    rival, _ = ev.rival()
    if rival is None:
        raise SystemExit("no rival: nothing to price against")
    cash = state.players[me].cash
    t0 = time.perf_counter()
    probes: dict[int, tuple[float, float]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        def at(p: int) -> tuple[float, float]:
            p = int(min(max(p, 0), cash))
            if p not in probes:
                probes[p] = probe(state, me, rival, square, p, args.games, args.seed, pool)
                print(f"  D(${p}) = {probes[p][0]:+.4f} (se {probes[p][1]:.4f})  [{time.perf_counter() - t0:.0f} s]", flush=True)
            return probes[p]

        a, b = 0, min(ev.list_price, cash)
        at(a), at(b)
        while len(probes) < args.probes:
            (da, _), (db, _) = probes[a], probes[b]
            if da == db:
                break
            root = a - da * (b - a) / (db - da)
            lo_hi = sorted(probes)
            bracket = [(x, y) for x, y in zip(lo_hi, lo_hi[1:]) if probes[x][0] > 0 >= probes[y][0]]
            if bracket and bracket[0][1] - bracket[0][0] <= args.tol:
                break
            nxt = int(round(min(max(root, 0), cash)))
            if nxt in probes:
                break
            at(nxt)
            a, b = b, nxt
    pts = sorted(probes)
    bracket = [(x, y) for x, y in zip(pts, pts[1:]) if probes[x][0] > 0 >= probes[y][0]]
    if bracket:
        x, y = bracket[0]
    elif probes[pts[0]][0] <= 0:
        x, y = pts[0], pts[1]
    else:
        x, y = pts[-2], pts[-1]
    (dx, sx), (dy, sy) = probes[x], probes[y]
    slope = (dy - dx) / (y - x)
    pstar = x - dx / slope if slope else float("nan")
    t = (pstar - x) / (y - x) if y != x else 0.0
    se_d = (1 - t) * sx + t * sy
    se_p = se_d / abs(slope) if slope else float("nan")
    name = state.players[me].name
    print(f"{name} for {args.property} against {state.players[rival].name}: {args.games} paired games to the end per probe (strategic agents)")
    print(f"  played-out indifference price ${pstar:.0f} (95% [{pstar - 1.96 * se_p:.0f}, {pstar + 1.96 * se_p:.0f}]; "
          f"{'bracketed' if bracket else 'extrapolated'} by ${x} and ${y})")
    sim = auction_bid(state, name, args.property, rollouts=PURCHASE_CHECK_ROLLOUTS, horizon=PURCHASE_CHECK_HORIZON, seed=0)
    game = contest_bid(state, name, args.property)
    for label, bid in (("simulation (solve's answer)", sim.max_bid), ("bidding game (diagnostic)", game.max_bid)):
        print(f"  {label:28s} max bid ${bid}: {bid - pstar:+.0f} from p*")
    print(f"  ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
