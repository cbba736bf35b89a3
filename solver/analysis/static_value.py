"""A static valuation of holdings from a fixed landing table (the baseline's eyes).

Expected rent per opponent turn (EPT) of square ``s`` at building level
``l``, owned as in the state::

    EPT(s, l) = L[s] * rent(s, l)

where ``L[s]`` is the expected number of landings on ``s`` in one opponent
turn (:mod:`engine.chains.landing`) and ``rent`` is the rule-book rent: a street's
rent at level ``l`` (doubled unimproved in a monopoly), a railroad's rent for
the owner's count, a utility's multiplier times the mean dice total. The
value of one lot for its owner over a horizon of ``H`` rounds against ``n``
opponents is its rent stream plus what it would fetch as a mortgage::

    V(s) = max over reachable levels l of [ n * H * EPT(s, l) - cost to build to l ]
           + mortgage value (unmortgaged lots)
    V(s) = max(0, that stream - cost to lift the mortgage)   (mortgaged lots)

and a player's static worth is ``W = cash + sum over its lots of V(s)``.
Streets outside a buildable monopoly reach only their current level. This is
the "fixed table of expected rent per turn" of the baseline agent: it
ignores the timing and risk that the solver's Monte Carlo re-scoring sees.
"""

from __future__ import annotations

from models.board import HOTEL
from models.state import GameState


class StaticValuation:
    """EPT and static worth for one board (see the module docstring).

    Parameters
    ----------
    landings:
        Expected landings per turn per square.
    horizon:
        ``H``, rounds of rent counted.
    """

    def __init__(self, landings: tuple[float, ...], horizon: float = 30.0) -> None:
        self.landings = landings
        self.horizon = horizon

    def rent(self, state: GameState, square: int, owner: int, level: int | None = None) -> float:
        """Rule-book rent of ``square`` for ``owner`` at ``level`` (default: current), dice at their mean."""
        sq = state.board.squares[square]
        if sq.kind == "street":
            lvl = state.houses[square] if level is None else level
            if lvl:
                return float(sq.rents[lvl])
            assert sq.group is not None
            return float(sq.rents[0] * (2 if state.has_monopoly(owner, sq.group) else 1))
        count = max(1, state.count_in_group(owner, sq.kind))
        if sq.kind == "railroad":
            return float(state.board.railroad_rents[count - 1])
        dice = state.rules.dice
        mean_total = dice.count * sum((k + 1) * p for k, p in enumerate(dice.face_probabilities()))
        return state.board.utility_multipliers[count - 1] * mean_total

    def ept(self, state: GameState, square: int, owner: int, level: int | None = None) -> float:
        return self.landings[square] * self.rent(state, square, owner, level)

    def lot_value(self, state: GameState, square: int, owner: int, n_opponents: int) -> float:
        sq = state.board.squares[square]
        scale = n_opponents * self.horizon
        if sq.kind == "street":
            assert sq.group is not None
            current = state.houses[square]
            stream = scale * self.ept(state, square, owner, current)
            if state.has_monopoly(owner, sq.group):
                for level in range(current + 1, HOTEL + 1):
                    stream = max(stream, scale * self.ept(state, square, owner, level) - (level - current) * sq.house_cost)
        else:
            stream = scale * self.ept(state, square, owner)
        if state.mortgaged[square]:
            return max(0.0, stream - state.rules.unmortgage_cost(state.mortgage_value(square)))
        return stream + state.mortgage_value(square) + state.houses[square] * state.rules.sell_value(sq.house_cost)

    def worth(self, state: GameState, player: int) -> float:
        """Static worth ``W``: cash plus the value of every lot the player owns."""
        n_opp = max(1, len(state.active_players()) - 1)
        total = float(state.players[player].cash)
        owner = state.owner
        for sq in state.board.property_squares:
            if owner[sq] == player:
                total += self.lot_value(state, sq, player, n_opp)
        return total

    def worth_change(self, before: GameState, after: GameState, player: int, groups: set[str]) -> float:
        """``worth(after) - worth(before)`` when only the lots of ``groups`` changed hands.

        A lot's value depends only on its own group's ownership (and the number
        of opponents, which a trade does not change), so the other lots cancel.
        """
        n_opp = max(1, len(before.active_players()) - 1)
        delta = float(after.players[player].cash - before.players[player].cash)
        for group in groups:
            for sq in before.board.groups[group]:
                if after.owner[sq] == player:
                    delta += self.lot_value(after, sq, player, n_opp)
                if before.owner[sq] == player:
                    delta -= self.lot_value(before, sq, player, n_opp)
        return delta
