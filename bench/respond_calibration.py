"""Counter-offers against the agents that would receive them: is the predicted acceptance right?

    python bench/respond_calibration.py [--offers 100] [--seed 0] [--agents strategic,strategic,value,value] [--rollouts 800]

Offers are collected from games of the given line-up (seats rotated by game, stream seed
``SeedSequence([seed, g])``): every time an agent proposes a trade, the state, the trade, the
proposer and the counterparty are kept (two-player offers only), until ``--offers`` are found.
Each offer is answered by :func:`solver.evaluate.respond` for the counterparty. When it
counters, the proposer's real answer is asked white-box: a fresh agent of the proposer's spec
(the same seed) is asked ``accept_trade`` on the counter-offer in that state. (The bundled
agents' acceptance does not depend on their memory of the game: ``strategic`` and ``value``
judge a trade by the state alone.)

Printed: how many offers were accepted or refused by ``respond``, how many got a counter,
and for those the predicted acceptance (the opponent model's prior) against the real answers:
mean predicted, observed rate, Brier score, and a reliability table; and, independently, whether
the counter was better than the offer for the responder (by construction: always).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.rules.actions import ProposeTrade  # noqa: E402
from engine.rules.game import Game  # noqa: E402
from engine.rules.seeding import game_seed_sequence, game_seeds  # noqa: E402
from engine.rules.streams import SeededStream  # noqa: E402
from engine.rules.view import GameView  # noqa: E402
from models.state import GameState  # noqa: E402
from models.trade import Trade  # noqa: E402
from solver.agents.registry import factory  # noqa: E402
from solver.evaluate import respond  # noqa: E402


def collect(
    specs: list[str], seed: int, wanted: int, cap: int = 300, per_game: int | None = None
) -> list[tuple[GameState, Trade, int, int, str, int]]:
    """``(state, trade, proposer, responder, proposer's spec, proposer's seat seed)`` of the first ``wanted`` offers
    (at most ``per_game`` from one game when given: offers of one game share its course)."""
    found: list[tuple[GameState, Trade, int, int, str, int]] = []
    g = 0
    while len(found) < wanted and g < 500:
        limit = len(found) + (per_game if per_game is not None else wanted)
        n = len(specs)
        rot = (-g) % n
        order = specs[-rot:] + specs[:-rot] if rot else list(specs)
        stream_seed, seats = game_seeds(game_seed_sequence(seed, g), n)
        agents = [factory(s)(x) for s, x in zip(order, seats)]
        for i, agent in enumerate(agents):
            original = agent.act

            def spy(view: Any, __orig: Any = original, __i: int = i) -> Any:
                action = __orig(view)
                if isinstance(action, ProposeTrade) and len(found) < min(wanted, limit):
                    parts = action.trade.participants()
                    if len(parts) == 2:
                        other = next(p for p in parts if p != view.player(__i).name)
                        st = view.copy()
                        found.append((st, action.trade, __i, st.player_index(other), order[__i], seats[__i]))
                return action

            agent.act = spy  # type: ignore[method-assign]
        state = GameState.new_game([f"P{k + 1}" for k in range(n)])
        Game(state, agents, SeededStream(stream_seed), max_rounds=cap).play()
        g += 1
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--offers", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agents", default="strategic,strategic,value,value")
    ap.add_argument("--rollouts", type=int, default=800)
    args = ap.parse_args()
    t0 = time.perf_counter()
    offers = collect(args.agents.split(","), args.seed, args.offers)
    print(f"{len(offers)} two-player offers from games of {args.agents} (seed {args.seed}), {time.perf_counter() - t0:.0f} s")
    verdicts = {"accept": 0, "refuse": 0}
    pred, real, better = [], [], []
    for state, trade, p, r, spec, seat_seed in offers:
        res = respond(state, trade, proposer=p, responder=r, rollouts=args.rollouts, seed=args.seed)
        verdicts[res.verdict] += 1
        if res.counter is None:
            continue
        agent = factory(spec)(seat_seed)
        agent.start_game(p, tuple(pl.name for pl in state.players))
        said = bool(agent.accept_trade(GameView(state, p), res.counter.trade))
        pred.append(res.counter.acceptance)
        real.append(float(said))
        better.append(res.counter.win_delta[res.responder] > res.evaluation.win_delta[res.responder])
    print(f"respond: accept {verdicts['accept']}, refuse {verdicts['refuse']}; counters {len(pred)}; "
          f"every counter better for the responder than the offer: {all(better)} ({sum(better)}/{len(better)})")
    if pred:
        pa, ra = np.array(pred), np.array(real)
        print(f"predicted acceptance {pa.mean():.3f}, accepted {ra.mean():.3f} ({int(ra.sum())}/{len(ra)}), Brier {np.mean((pa - ra) ** 2):.3f}")
        print("| predicted | counters | mean predicted | accepted |")
        print("|---|---|---|---|")
        for lo in (0.5, 0.6, 0.7, 0.8, 0.9):
            m = (pa >= lo) & (pa < lo + 0.1 + (1e-9 if lo == 0.9 else 0))
            if m.any():
                print(f"| {lo:.1f}-{lo + 0.1:.1f} | {int(m.sum())} | {pa[m].mean():.3f} | {ra[m].mean():.3f} |")
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
