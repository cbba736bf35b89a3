"""How well the rollout policy predicts what real opponents do, with and without fitting.

    python bench/observed_play.py [--games 120] [--seed 0] [--cap 300] [--lineups A,B,C,D;...]

Plays games of mixed line-ups (``tournament``'s seats, dice and agent seeds for each game number)
and, at every choice of every seat that the rollout policy also makes, compares the seat's real
choice with two predictions:

* the **prior**: the agent's rollout policy (:class:`engine.sim.rollout_policy.RolloutPolicy`
  with the ``subgraph`` defaults), the same for every seat;
* the **fitted** policy: :class:`solver.agents.observed_play.ObservedPlay`, fed with every event
  of the game so far as the ``subgraph`` agent feeds it, fitted just before the choice, so each
  prediction is of a choice the fit has not seen (held out by construction).

The choices scored:

``buy``
    Offered a lot it can afford, the seat buys or not; the policy buys when ``cash - price >=
    buy_reserve``.
``jail``
    In jail without a card, the seat pays the fine or rolls; the policy pays when ``jail ==
    "pay"`` and the cash covers the fine. The jail choice is not fitted (its "fitted" column is
    the prior); the row ``jail-majority`` scores instead the rule that was tried and dropped:
    the seat's more frequent choice so far (pay or roll; a tie keeps the prior).
``build``
    Right after one of its builds, with a lot still open to building (:func:`build_targets`), the
    seat builds again or stops; the policy builds again when ``cash - cost >= build_reserve``
    for the cheapest open lot.

``answer``
    Asked to accept a proposal (of any kind, from anyone), the seat accepts or not. Scored by
    the Brier score of a probability, not by a share right, once for each prior rate ``p`` of
    ``--accept-priors`` (row ``answer``, agent ``NAME @p``): the prior says ``p / 100`` (at
    100: the policy accepts every trade its rule accepts; the offers asked here are mostly of
    other shapes, so the rule itself cannot be scored), the fitted rate says ``accept / 100``
    (:meth:`solver.agents.observed_play.SeatPlay.accept_percent` from ``p``, from the seat's
    answers so far). Lower is better.

For each (agent, choice) the table gives the choices seen, the share each prediction gets right
(with its binomial standard error), and the paired difference fitted - prior with its standard
error (the same choices). The observer is a passive listener here (no seat's play changes).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections import defaultdict
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.rules.actions import Build, Event  # noqa: E402
from engine.rules.game import Game  # noqa: E402
from engine.rules.view import GameView  # noqa: E402
from engine.sim.rollout_policy import RolloutPolicy, build_targets  # noqa: E402
from engine.tournament.run import seat_game  # noqa: E402
from solver.agents.observed_play import ObservedPlay  # noqa: E402
from solver.agents.registry import factory  # noqa: E402
from solver.decisions.settings import AgentSettings  # noqa: E402

LINEUPS = "strategic,value,strategic,value;value,strategic,subgraph,strategic;strategic,strategic,value,value,strategic"


class Brier:
    """Brier scores of the two probabilities on the same answers."""

    def __init__(self) -> None:
        self.prior: list[float] = []
        self.fitted: list[float] = []

    def add(self, truth: bool, prior: float, fitted: float) -> None:
        self.prior.append((prior - truth) ** 2)
        self.fitted.append((fitted - truth) ** 2)

    def row(self) -> str:
        n = len(self.prior)

        def mean_se(xs: list[float]) -> tuple[float, float]:
            m = sum(xs) / n
            return m, math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, n - 1) / n)

        (a, sa), (b, sb) = mean_se(self.prior), mean_se(self.fitted)
        d, sd = mean_se([f - p for f, p in zip(self.fitted, self.prior)])
        return f"{n:6d}  {f'{a:.3f} ({sa:.3f})':>15}  {f'{b:.3f} ({sb:.3f})':>15}  {d:+.3f} ({sd:.3f})  Brier"


class Score:
    """Right/wrong counts of the two predictions on the same choices."""

    def __init__(self) -> None:
        self.n = 0
        self.prior = 0
        self.fitted = 0
        self.diffs: list[int] = []

    def add(self, truth: bool, prior: bool, fitted: bool) -> None:
        self.n += 1
        self.prior += truth == prior
        self.fitted += truth == fitted
        self.diffs.append(int(truth == fitted) - int(truth == prior))

    def row(self) -> str:
        def share(k: int) -> str:
            p = k / self.n
            return f"{p:.3f} ({math.sqrt(p * (1 - p) / self.n):.3f})"

        mean = sum(self.diffs) / self.n
        var = sum((d - mean) ** 2 for d in self.diffs) / max(1, self.n - 1)
        return f"{self.n:6d}  {share(self.prior):>15}  {share(self.fitted):>15}  {mean:+.3f} ({math.sqrt(var / self.n):.3f})"


def spy(
    agent: Any, q: int, label: str, observer: ObservedPlay, prior: RolloutPolicy, scores: dict[tuple[str, str], Any], accept_priors: tuple[int, ...] = (100,)
) -> None:
    """Wrap ``agent``'s choices so that each is scored before it is made (module docstring)."""
    buy, jail, act, answer = agent.buy, agent.jail_choice, agent.act, agent.accept_trade
    state = {"built": False, "pays": 0, "rolls": 0}

    def fitted(view: GameView) -> RolloutPolicy:
        observer.sync(view)
        return observer.seat(q).policy(prior)

    def on_buy(view: GameView, square: int) -> bool:
        pol = fitted(view)
        ok = bool(buy(view, square))
        kept = view.cash(q) - view.board.squares[square].price
        scores[label, "buy"].add(ok, kept >= prior.buy_reserve, kept >= pol.buy_reserve)
        return ok

    def on_jail(view: GameView) -> Any:
        pol = fitted(view)
        choice = jail(view)
        if choice in ("pay", "roll") and view.player(q).jail_cards == 0:
            can = view.cash(q) >= view.rules.jail_fine
            scores[label, "jail"].add(choice == "pay", prior.jail == "pay" and can, pol.jail == "pay" and can)
            pays, rolls = state["pays"], state["rolls"]
            majority = prior.jail if pays == rolls else ("pay" if pays > rolls else "roll")
            scores[label, "jail-majority"].add(choice == "pay", prior.jail == "pay" and can, majority == "pay" and can)
            state["pays" if choice == "pay" else "rolls"] += 1
        return choice

    def on_act(view: GameView) -> Any:
        pol = fitted(view)
        action = act(view)
        if state["built"]:
            targets = build_targets(view, q, prior)
            if targets:
                cost = min(view.board.squares[sq].house_cost for sq in targets)
                cash = view.cash(q)
                scores[label, "build"].add(isinstance(action, Build), cash - cost >= prior.build_reserve, cash - cost >= pol.build_reserve)
        state["built"] = isinstance(action, Build)
        return action

    def on_answer(view: GameView, trade: Any) -> bool:
        ok = bool(answer(view, trade))
        for p in accept_priors:
            briers[f"{label} @{p}"].add(ok, p / 100, observer.seat(q).accept_percent(p) / 100)
        return ok

    briers = scores.setdefault(("", "briers"), defaultdict(Brier))
    agent.buy, agent.jail_choice, agent.act, agent.accept_trade = on_buy, on_jail, on_act, on_answer


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=120, help="games per line-up")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cap", type=int, default=300, help="round cap")
    ap.add_argument("--lineups", default=LINEUPS, help="line-ups separated by ';', agents by ','")
    ap.add_argument("--accept-priors", default="100", help="the answers' prior rates to score, percent, comma-separated")
    args = ap.parse_args(argv)
    prior = AgentSettings().rollout_policy
    accept_priors = tuple(int(x) for x in args.accept_priors.split(","))
    scores: dict[tuple[str, str], Any] = defaultdict(Score)
    for lineup in args.lineups.split(";"):
        specs = lineup.split(",")
        facs = [factory(s) for s in specs]
        for g in range(args.games):
            order, agents, state, stream = seat_game(facs, args.seed, g)
            observer = ObservedPlay()
            for q, a in enumerate(agents):
                spy(a, q, specs[order[q]], observer, prior, scores, accept_priors)
            first = agents[0].notify

            def notify(event: Event, first: Any = first, observer: ObservedPlay = observer) -> None:
                observer.observe(event)
                first(event)

            agents[0].notify = notify
            Game(state, agents, stream, max_rounds=args.cap).play()
        print(f"# {lineup}: {args.games} games", flush=True)
    print(f"\nseed {args.seed}, {args.games} games per line-up, cap {args.cap} rounds; share right (se)")
    print(f"{'agent':<12} {'choice':<13} {'n':>6}  {'prior':>15}  {'fitted':>15}  fitted - prior (se)")
    briers = scores.pop(("", "briers"), {})
    rows = [((label, kind), sc) for (label, kind), sc in scores.items()] + [((label, "answer"), b) for label, b in briers.items()]
    for (label, kind), sc in sorted(rows, key=lambda r: r[0]):
        print(f"{label:<12} {kind:<13} {sc.row()}")


if __name__ == "__main__":
    main()
