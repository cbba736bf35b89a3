"""States from games and simulated trades, shared by ``fit_trade_model.py`` and
``generation_quality.py``.

State ``i`` of a run seeded ``S`` comes from game ``i`` of four
``StrategicTradeAgent``s seeded ``SeedSequence([S, i])`` (seats as in
``tournament --seed S``): the game is played to the start of a round drawn
uniformly from ``ROUNDS`` (by ``default_rng([S, i, 1])``); a game that ends
first gives no state. The proposer is drawn among the active players whose
trade space is not empty. A trade is simulated as ``solve`` and the agent
re-score it (:func:`solver.trades.rescore.rescore_one`): paired with the state
without the trade on common dice, the proposer holding in the rollouts (the evaluation before issue 37,
on which the shipped trade-value model was fitted; ``solve`` now judges now against not now), the
horizon value scoring cut games.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.chains.markov import chain_for
from engine.rules.game import Game
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from models.state import GameState
from solver.agents.strategic import StrategicTradeAgent
from solver.analysis.reserve import reserves as ruin_reserves
from solver.trades.candidates import bilateral_candidates, cycle_candidates
from solver.trades.rescore import RescoreSettings, baseline, rescore_one
from solver.trades.rules import new_completions
from solver.trades.space import Candidate, TradeSettings, TradeSpace, after_state
from solver.trades.value_model import context
from solver.trades.values import linear_values

ROUNDS = (4, 40)


def game_state(seed: int, i: int) -> GameState | None:
    """The state of game ``i`` at the start of its drawn round (module docstring)."""
    rng = np.random.default_rng([seed, i, 1])
    target = int(rng.integers(ROUNDS[0], ROUNDS[1] + 1))
    stream_seed, seat_seeds = game_seeds(game_seed_sequence(seed, i), 4)
    agents = [StrategicTradeAgent(seat_seeds[k]) for k in range(4)]
    game = Game(GameState.new_game([f"P{k + 1}" for k in range(4)]), agents, SeededStream(stream_seed), max_rounds=1000)
    while not game.over:
        s = game.state
        if s.phase == "start" and s.round >= target:
            return s.copy()
        game.play_turn()
    return None


def setup(state: GameState, rng: np.random.Generator) -> tuple[TradeSpace, Any] | None:
    """A proposer with a non-empty trade space, drawn by ``rng``, its space and chain."""
    chain = chain_for(state.board, state.rules)
    res = ruin_reserves(state, None, epsilon=TradeSettings().reserve_epsilon, chain=chain)
    able = [p for p in state.active_players() if TradeSpace(state, p, TradeSettings(), res).needed[p]]
    if not able or len(state.active_players()) < 2:
        return None
    p = int(rng.choice(able))
    return TradeSpace(state, p, TradeSettings(), res), chain


def sampled_space(seed: int, i: int) -> tuple[GameState, TradeSpace, Any, np.random.Generator] | None:
    """State ``i``, its drawn proposer's space and chain, and the generator that drew it
    (``default_rng([seed, i, 2])``, to draw trades next); ``None`` when the game gives no
    state or nobody has anything to trade."""
    state = game_state(seed, i)
    if state is None:
        return None
    rng = np.random.default_rng([seed, i, 2])
    got = setup(state, rng)
    if got is None:
        return None
    space, chain = got
    return state, space, chain, rng


def feasible(space: TradeSpace, cand: Candidate, relaxed: bool = True, compensation: int = 100) -> bool:
    """Rules 1 (relaxed: a completion handed over for at least ``compensation``) and 4."""
    s = space.state
    after = after_state(s, cand)
    comp = {i: new_completions(s, after, i) for i in cand.players}
    if any(comp.values()):
        for x in cand.players:
            if comp[x]:
                continue
            if not relaxed or cand.net_cash(x) < compensation:
                return False
    return all(after.players[i].cash >= space.reserves.get(i, 0) for i in cand.players)


def random_trades(space: TradeSpace, rng: np.random.Generator, k: int, cycles: bool = True, limit: int = 20000) -> list[Candidate]:
    """Up to ``k`` feasible candidates drawn uniformly (reservoir sampling over the
    first ``limit`` of the enumeration, bilateral then cycles)."""
    pool: list[Candidate] = []
    seen = 0
    gens = [bilateral_candidates(space)] + ([cycle_candidates(space)] if cycles else [])
    for gen in gens:
        for cand in gen:
            if seen >= limit:
                break
            if not feasible(space, cand):
                continue
            seen += 1
            if len(pool) < k:
                pool.append(cand)
            else:
                j = int(rng.integers(0, seen))
                if j < k:
                    pool[j] = cand
    return pool


def simulate_trades(space: TradeSpace, chain: Any, cands: list[Candidate], rollouts: int, seed: int) -> dict[str, Any]:
    """The state's constants (round, proposer, ``W``) and one
    record per candidate: participants, simulated change and SE per participant,
    the features' change per participant, the old linear estimate's gains (dollars)."""
    s = space.state
    rs = RescoreSettings(rollouts=rollouts, seed=seed).holding(space.proposer, len(s.players))
    base = baseline(s, rs)
    lin = linear_values(space, chain)
    ctx = context(s, space.proposer, lin, space.reserves)
    out = []
    names = [pl.name for pl in s.players]
    for cand in cands:
        r = rescore_one(s, cand, base, rs)
        if r is None:
            continue
        after = after_state(s, cand)
        out.append(
            {
                "kind": cand.kind,
                "players": list(cand.players),
                "moves": [list(m) for m in cand.moves],
                "cash": [list(c) for c in cand.cash],
                "sim": {str(i): r.win_delta[names[i]] for i in cand.players},
                "se": {str(i): r.win_delta_se[names[i]] for i in cand.players},
                # every active player: a bystander's one-short status can change too
                "dx": {
                    str(j): dict(zip(ctx.features, (ctx.features_of(after, j) - ctx.features_of(s, j)).tolist(), strict=True))
                    for j in s.active_players()
                },
                "linear_gain": {str(i): lin(after, i) - lin(s, i) for i in cand.players},
            }
        )
    return {
        "round": s.round,
        "proposer": space.proposer,
        "worth": ctx.worth,
        "trades": out,
    }
