"""The fixed rollout policy, as a value and as an agent of the reference engine.

The batch kernel (:mod:`engine.rollout`) plays every seat with one fixed,
deterministic policy. The same policy is an ordinary
:class:`engine.agents.Agent` here, so that the reference engine can play the
same games on the same dice and cards and the two engines can be compared turn
by turn (``tests/engine/test_rollout_differential.py``).

The policy (all amounts in dollars; "reserve" is the cash that must be left
after the payment):

``buy``
    Buy an unowned property when ``cash - price >= buy_reserve``.
``auction_max``
    ``min(price, cash - buy_reserve)`` (no bid when that is below 1): every
    player bids up to the list price while it keeps its reserve.
``jail_choice``
    Use a Get Out of Jail Free card when holding one; otherwise pay the fine
    when ``jail == "pay"`` and the cash covers it; otherwise roll for doubles.
``act``
    One action at a time, in this order: (1) lift a mortgage when ``cash -
    cost >= unmortgage_reserve``, lots of a group the player holds completely
    first, then the lowest square index; (2) build one level on a legal lot
    (:func:`engine.legal.legal_builds`) below ``max_level`` when ``cash -
    house_cost >= build_reserve``, the lowest level first (even building),
    then the highest square index (the dearer groups pay more rent per
    dollar); (3) stop.
``raise_cash``
    Nothing: the engine's fixed liquidation order (:meth:`engine.game.Game.liquidate`).
Trades, shortage auctions, lifting a received mortgage
    Never: no proposals, every proposal refused, no premium bid for a
    scarce building, interest only on a mortgaged lot received.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action, Build, JailChoice, Unmortgage
from engine.agents import BaseAgent
from engine.seeding import SeedLike
from engine.view import GameView
from models.board import HOTEL


@dataclass(frozen=True, slots=True)
class RolloutPolicy:
    """Parameters of the fixed rollout policy (see the module docstring)."""

    buy_reserve: int = 0
    build_reserve: int = 150
    unmortgage_reserve: int = 300
    jail: str = "roll"
    max_level: int = HOTEL

    def __post_init__(self) -> None:
        if self.jail not in ("roll", "pay"):
            raise ValueError(f"jail must be 'roll' or 'pay', got {self.jail!r}")
        if not 0 <= self.max_level <= HOTEL:
            raise ValueError(f"max_level must be in 0..{HOTEL}, got {self.max_level}")
        for name in ("buy_reserve", "build_reserve", "unmortgage_reserve"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0")

    def as_array(self) -> list[int]:
        """The kernel's encoding: ``[buy, build, unmortgage reserves, jail pays (0/1), max_level]``."""
        return [self.buy_reserve, self.build_reserve, self.unmortgage_reserve, int(self.jail == "pay"), self.max_level]


class PolicyAgent(BaseAgent):
    """:class:`RolloutPolicy` as an agent of the reference engine."""

    name = "rollout-policy"

    def __init__(self, seed: SeedLike = None, policy: RolloutPolicy | None = None) -> None:
        super().__init__(seed)
        self.policy = policy or RolloutPolicy()

    def buy(self, view: GameView, square: int) -> bool:
        return view.cash(self.me) - view.board.squares[square].price >= self.policy.buy_reserve

    def auction_max(self, view: GameView, square: int) -> int:
        return max(0, min(view.board.squares[square].price, view.cash(self.me) - self.policy.buy_reserve))

    def jail_choice(self, view: GameView) -> JailChoice:
        me = view.player(self.me)
        if me.jail_cards:
            return "card"
        if self.policy.jail == "pay" and me.cash >= view.rules.jail_fine:
            return "pay"
        return "roll"

    def act(self, view: GameView) -> Action | None:
        cash = view.cash(self.me)
        pol = self.policy
        lifts = [
            sq
            for sq in view.legal_unmortgages()
            if cash - view.rules.unmortgage_cost(view.mortgage_value(sq)) >= pol.unmortgage_reserve
        ]
        if lifts:
            board = view.board
            return Unmortgage(min(lifts, key=lambda q: (not view.has_monopoly(self.me, board.squares[q].group or ""), q)))
        builds = [
            sq
            for sq in view.legal_builds()
            if view.level(sq) < pol.max_level and cash - view.board.squares[sq].house_cost >= pol.build_reserve
        ]
        if builds:
            return Build(min(builds, key=lambda q: (view.level(q), -q)))
        return None


__all__ = ["PolicyAgent", "RolloutPolicy"]
