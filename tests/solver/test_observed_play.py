"""What each seat is seen to do (:mod:`solver.agents.observed_play`, ``trade_model="fitted"``).

The fit is checked against a brute force over every threshold; the observations the agent
collects from the events of real games are checked against what the observed seats were really
asked and answered (each opponent wrapped so that it records its own choices with the cash it
had), under the standard rules and without auctions; the fitted policies reach the rollouts of
the agent's simulations, and the memory keeps them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.rules.actions import Action, Build
from engine.rules.game import Game
from engine.rules.view import GameView
from engine.sim.rollout_policy import RolloutPolicy
from engine.tournament.run import seat_game
from models.rules import Rules
from solver.agents.observed_play import ObservedPlay, SeatPlay, fit_threshold, median_with_prior
from solver.agents.registry import factory
from solver.agents.strategic import StrategicTradeAgent
from solver.agents.subgraph_agent import SubgraphTradeAgent
from solver.decisions.memory import AgentMemory, AgentMemoryError
from solver.decisions.settings import AgentSettings
from solver.decisions.simulation import rescore_settings


def _errors(r: int, bought: list[int], declined: list[int]) -> int:
    return sum(a < r for a in bought) + sum(a >= r for a in declined)


def test_threshold_is_a_least_error_fit_nearest_the_prior() -> None:
    rng = random.Random(5)
    for _ in range(400):
        bought = [rng.randrange(0, 400) for _ in range(rng.randrange(0, 6))]
        declined = [rng.randrange(0, 400) for _ in range(rng.randrange(0, 6))]
        prior = rng.choice((0, 50, 150))
        r = fit_threshold(bought, declined, prior)
        every = range(0, 402)  # brute force: every threshold that matters
        least = min(_errors(t, bought, declined) for t in every)
        assert _errors(r, bought, declined) == least
        nearest = min(abs(t - prior) for t in every if _errors(t, bought, declined) == least)
        assert abs(r - prior) == nearest


def test_median_with_prior() -> None:
    assert median_with_prior([], 150) == 150
    assert median_with_prior([900, 100, 300], 150) == 150  # 100, 150, 300, 900: the lower middle
    assert median_with_prior([900, 100, 300, 500], 150) == 300


class Recorder(StrategicTradeAgent):
    """``strategic``, recording each choice the observer can see with the cash it had."""

    def __init__(self, seed: Any = None) -> None:
        super().__init__(seed)
        self.bought: list[int] = []
        self.declined: list[int] = []
        self.build_left: list[int] = []
        self.answers: list[bool] = []
        self._built = False

    def accept_trade(self, view: GameView, trade: Any) -> bool:
        ok = bool(super().accept_trade(view, trade))
        self.answers.append(ok)
        return ok

    def buy(self, view: GameView, square: int) -> bool:
        ok = super().buy(view, square)
        kept = view.cash(self.me) - view.board.squares[square].price
        (self.bought if ok else self.declined).append(kept)
        return ok

    def act(self, view: GameView) -> Action | None:
        cash = view.cash(self.me)
        action = super().act(view)
        if self._built and not isinstance(action, Build):  # the run of builds ended with the last one
            self.build_left.append(cash)
        self._built = isinstance(action, Build)
        return action


def _play(game_no: int, rules: Rules | None) -> tuple[SubgraphTradeAgent, list[Recorder], list[int]]:
    facs = [factory("subgraph:rollouts=40,accept_rollouts=40,trade_model=fitted,fit_accept=true"), Recorder, Recorder, Recorder]
    order, agents, state, stream = seat_game(facs, 3, game_no, rules)
    Game(state, agents, stream, max_rounds=120).play()
    me = next(i for i, a in enumerate(agents) if isinstance(a, SubgraphTradeAgent))
    return agents[me], [a for a in agents if isinstance(a, Recorder)], [i for i, a in enumerate(agents) if isinstance(a, Recorder)]


def test_observations_are_what_the_seats_chose() -> None:
    """Every purchase, refusal and run of builds the agent observed is one the seat made, with
    the same cash; nothing is missed after the agent's first question (a choice made before it,
    when no cash is known yet, is skipped). Every answer to a proposal is counted."""
    seen_buys = seen_declines = seen_runs = seen_answers = 0
    for game_no, rules in ((0, None), (1, None), (2, Rules(auctions=False))):
        agent, recorders, seats = _play(game_no, rules)
        play = agent.memory.play
        for q, rec in zip(seats, recorders):
            obs = play.seat(q)
            # the agent syncs at its first question: choices before it are skipped, so the observed
            # lists are suffixes of the recorded ones
            assert rec.bought[len(rec.bought) - len(obs.bought):] == obs.bought
            assert rec.declined[len(rec.declined) - len(obs.declined):] == obs.declined
            assert len(rec.bought) - len(obs.bought) <= 1 and len(rec.declined) - len(obs.declined) <= 1
            assert rec.build_left[len(rec.build_left) - len(obs.build_left):] == obs.build_left
            assert (obs.answers, obs.accepted) == (len(rec.answers), sum(rec.answers))
            seen_answers += obs.answers
            seen_buys += len(obs.bought)
            seen_declines += len(obs.declined)
            seen_runs += len(obs.build_left)
    assert seen_buys > 20 and seen_declines > 0 and seen_runs > 0 and seen_answers > 5  # the games exercised every kind


def test_fitted_policies_reach_the_rollouts() -> None:
    memory = AgentMemory(seat=0)
    memory.play.seats[1] = SeatPlay(bought=[400], declined=[120, 90], build_left=[600, 700])
    from models.io import load_state

    state = load_state("instances/opening.json")
    fitted = rescore_settings(state, 0, AgentSettings(trade_model="fitted", hold=False), memory, 8)
    observed = rescore_settings(state, 0, AgentSettings(hold=False), memory, 8)
    assert isinstance(fitted.policy, tuple) and isinstance(observed.policy, tuple)
    p1 = fitted.policy[1]
    assert (p1.buy_reserve, p1.build_reserve, p1.jail) == (121, 600, RolloutPolicy().jail)
    assert fitted.policy[2] == observed.policy[2] == observed.policy[1]  # no evidence: the prior
    assert fitted.policy[0] == observed.policy[0]  # its own seat is not fitted
    assert observed.policy[1].buy_reserve == RolloutPolicy().buy_reserve
    assert sorted(memory.play.seats) == [1]  # fitting reads the observations, it adds no seat


def test_fitted_acceptance_reaches_the_rollouts() -> None:
    from models.io import load_state

    memory = AgentMemory(seat=0)
    memory.play.seats[2] = SeatPlay(answers=12, accepted=2)
    state = load_state("instances/opening.json")
    rs = rescore_settings(state, 0, AgentSettings(fit_accept=True), memory, 8)
    assert isinstance(rs.policy, tuple)
    assert [p.accept for p in rs.policy] == [100, 100, 33, 100]  # (3 + 2) / (3 + 12)
    assert [p.trade for p in rs.policy] == [False, True, True, True]  # the agent holds (hold=true)
    plain = rescore_settings(state, 0, AgentSettings(), memory, 8)
    assert isinstance(plain.policy, tuple) and all(p.accept == 100 for p in plain.policy)
    low = rescore_settings(state, 0, AgentSettings(fit_accept=True, accept_prior=35), memory, 8)
    assert isinstance(low.policy, tuple)
    # seats 1 and 3 never answered: the prior; seat 2: (3 x 35 + 100 x 2) / (3 + 12) = 20.3
    assert [p.accept for p in low.policy] == [100, 35, 20, 35]


def test_the_policy_proposal_ignores_the_acceptance_model() -> None:
    """With ``hold=false`` the rollout policy's own proposal is a candidate in the real game, where
    the opponent answers for itself: the fitted ``accept`` (a model of that answer in the
    rollouts) neither changes it nor needs a game key."""
    from models.io import load_state
    from solver.trades.policy_trade import policy_candidate

    state = load_state("instances/midgame-no-monopolies.json")
    moody = [RolloutPolicy(accept=a) for a in (0, 30, 60, 90)]
    assert policy_candidate(state, 2, moody) == policy_candidate(state, 2) is not None


def test_memory_keeps_the_observations() -> None:
    memory = AgentMemory(seat=0)
    memory.play = ObservedPlay(seats={2: SeatPlay(bought=[5, 9], build_left=[40], answers=3, accepted=1)}, cash={0: 10, 2: 30}, prices=[0, 60], building=(2, 40))
    doc = memory.to_dict()
    assert AgentMemory.from_dict(doc).play == memory.play
    doc["play"]["seats"]["2"]["bought"] = [1] * 201  # a hostile file: one line naming the part
    with pytest.raises(AgentMemoryError, match="^memory: play: more than 200 observations$"):
        AgentMemory.from_dict(doc)
    del doc["play"]  # a memory written before the observed play loads with none
    assert AgentMemory.from_dict(doc).play == ObservedPlay()
