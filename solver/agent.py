"""``SubgraphTradeAgent``: the decision engine playing whole games.

It keeps the baseline's sound habits for the routine decisions (buying with a
reserve, premium bids for set-completing lots, even building, liquidation
order: :class:`engine.strategic.StrategicTradeAgent`) and replaces its trade
logic with the solver's:

proposing
    when ownership or buildings changed, or its cash moved by more than
    ``cash_step``, since its last search: the CP-SAT candidates
    (:func:`solver.tradegen.generate_trades`, top ``candidates``, bilateral,
    then 3-cycles when no bilateral trade survives) re-scored on common dice
    with a small budget (``rollouts`` games of ``horizon`` rounds); it
    proposes the best trade in the Nash zone with a positive risk-adjusted
    gain, never one already refused, and not one that makes another player
    the leader at 55% or more (with ``balance_self`` also not one that makes
    itself that leader, the seed's stricter rule; off by default, since the
    baseline opponents do not gang up on a leader). Otherwise nothing (no
    search is repeated on an unchanged position).
answering
    an offer is accepted when its simulated win delta for the agent is
    positive beyond the noise (one-sided z-test at 5%).
reserves
    the ruin-chain reserves (:func:`solver.reserve.reserves`, $200 buckets,
    grid up to $2,000 in play) are cached by ownership, buildings and
    mortgages (they do not depend on a player's own cash).

The per-decision work is a few tens of milliseconds: a search runs only when
the position changed, and most positions have no partial set to complete.
"""

from __future__ import annotations

from engine.markov import PositionChain
from engine.rollout import paired_delta, simulate
from engine.rollout_policy import RolloutPolicy
from engine.seeding import SeedLike
from engine.strategic import StrategicTradeAgent, _trade_key
from engine.view import GameView
from models.errors import InvalidTradeError
from models.state import GameState
from models.trade import Trade
from solver.rescore import RescoreSettings, Rescored, baseline, rescore_one
from solver.trade_space import TradeSettings, TradeSpace
from solver.tradegen import Limits, generate_trades


class SubgraphTradeAgent(StrategicTradeAgent):
    name = "subgraph"

    def __init__(
        self,
        seed: SeedLike = None,
        *,
        rollouts: int = 160,
        horizon: int = 20,
        candidates: int = 4,
        cash_step: int = 150,
        accept_rollouts: int = 240,
        cycles: bool = True,
        reserve: int = 150,
        balance_self: bool = False,
    ) -> None:
        super().__init__(seed, reserve=reserve)
        self.rollouts = rollouts
        self.sim_horizon = horizon
        self.candidates = candidates
        self.cash_step = cash_step
        self.accept_rollouts = accept_rollouts
        self.cycles = cycles
        self.balance_self = balance_self
        self._seed_counter = 0
        self._last_sig: tuple[object, ...] | None = None
        self._chain: tuple[object, PositionChain] | None = None
        self._reserves: dict[tuple[object, ...], dict[int, int]] = {}
        self.searches = 0

    # -- helpers ---------------------------------------------------------------
    def _chain_for(self, state: GameState) -> PositionChain:
        key = (id(state.board), id(state.rules))
        if self._chain is None or self._chain[0] != key:
            self._chain = (key, PositionChain(state.board, state.rules, "long"))
        return self._chain[1]

    def _reserves_for(self, state: GameState) -> dict[int, int]:
        from solver.reserve import reserves

        key = (tuple(state.owner), tuple(state.houses), tuple(state.mortgaged), tuple(p.bankrupt for p in state.players))
        hit = self._reserves.get(key)
        if hit is None:
            if len(self._reserves) > 64:
                self._reserves.clear()
            hit = reserves(
                state, None, epsilon=TradeSettings().reserve_epsilon, bucket=200, max_cash=2000, chain=self._chain_for(state)
            )
            self._reserves[key] = hit
        return hit

    def _settings(self, rollouts: int) -> RescoreSettings:
        self._seed_counter += 1
        return RescoreSettings(rollouts=rollouts, horizon=self.sim_horizon, seed=self._seed_counter, policy=RolloutPolicy())

    # -- proposing -------------------------------------------------------------
    def find_trade(self, view: GameView) -> Trade | None:
        state = view.copy()
        me = self.me
        sig = (tuple(state.owner), tuple(state.houses), tuple(state.mortgaged), state.players[me].cash // self.cash_step)
        if sig == self._last_sig:
            return None
        self._last_sig = sig
        space = TradeSpace(state, me)
        if not space.needed[me] and not self.cycles:
            return None
        if not space.needed[me] and not any(space.needed[q] for q in space.opponents):
            return None
        self.searches += 1
        best = self._search(state, cycles=False) or (self._search(state, cycles=True) if self.cycles else None)
        return best.trade if best is not None else None

    def _search(self, state: GameState, cycles: bool) -> Rescored | None:
        chain = self._chain_for(state)
        res = generate_trades(
            state,
            self.me,
            cycles=cycles,
            limits=Limits(top_k=self.candidates),
            chain=chain,
            reserves=self._reserves_for(state),
            explain=False,
        )
        cands = [g.candidate for g in res.trades if not res.relaxed and (cycles or g.candidate.kind == "bilateral")]
        if cycles:
            cands = [c for c in cands if c.kind == "cycle3"]
        if not cands:
            return None
        rs = self._settings(self.rollouts)
        base = baseline(state, rs)
        best: Rescored | None = None
        for c in cands:
            trade = c.to_trade(state)
            if _trade_key(trade) in self._refused:
                continue
            r = rescore_one(state, c, base, rs)
            if r is None or not r.nash_zone or r.risk_adjusted_ev <= 0:
                continue
            if not r.balanced and (self.balance_self or r.leader != state.players[self.me].name):
                continue
            if best is None or r.risk_adjusted_ev > best.risk_adjusted_ev:
                best = r
        return best

    # -- answering ---------------------------------------------------------------
    def accept_trade(self, view: GameView, trade: Trade) -> bool:
        state = view.copy()
        rs = self._settings(self.accept_rollouts)
        try:
            after = state.copy()
            trade.apply(after)
        except InvalidTradeError:  # an offer the engine would refuse anyway
            return False
        base = baseline(state, rs)
        res = simulate(after, rs.rollouts, rs.horizon, rs.seed, policy=rs.policy)
        delta, se = paired_delta(base, res, state.players[self.me].name)
        return delta > rs.z * se if se > 0 else delta > 0


__all__ = ["SubgraphTradeAgent"]
