"""Landing frequencies estimated by simulation (movement-only mode of the engine).

For each square ``s`` we estimate ``L[s]``, the expected number of rolls per
turn that end with the token on ``s`` (after any card or Go-To-Jail movement;
a roll that ends in jail counts for the jail square's ``in_jail`` entry, not
for Just Visiting). A turn with doubles can land several times, so ``L`` sums
to the mean number of rolls per turn (about 1.2), not to 1. The count is the
exact chain's (:mod:`engine.chains.markov`, "Landings"), made by
:class:`RollLandings` from the engine's events: one landing per roll; a turn
sat out in jail (``jail_doubles`` off) has no roll and lands nowhere; the
failed roll of the last jail turn under ``jail_release="free"`` counts in
jail (the engine releases the player after it, without moving).

The estimator plays the reference engine in movement-only mode (no money,
cards drawn with replacement) for ``n_turns`` turns of one token and counts
landings. Standard errors come from batch means (consecutive turns are
correlated through the position): the turns are cut into ``batches`` equal
batches, and SE = sd(batch means) / sqrt(batches) (Law & Kelton, *Simulation
Modeling and Analysis*, batch-means method).

The exact chain of :mod:`engine.chains.markov` supersedes these numbers; they
exist so that the baseline agent has a landing table before that chain does,
and as an independent check of it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from engine.rules.actions import Event, JailChoice
from engine.rules.agents import BaseAgent
from engine.rules.game import Game
from engine.rules.streams import SeededStream
from engine.rules.view import GameView
from models.board import Board, standard_board
from models.errors import InvalidArgumentError
from models.files import atomic_write
from models.rules import Rules
from models.state import GameState, Phase


class JailPolicyAgent(BaseAgent):
    """Movement-only player: ``long`` stays in jail and rolls for doubles;
    ``short`` pays at once (money does not move in movement-only mode)."""

    name = "jail-policy"

    def __init__(self, policy: str = "long") -> None:
        super().__init__(0)
        if policy not in ("long", "short"):
            raise InvalidArgumentError("jail policy is 'long' or 'short'")
        self.policy = policy

    def jail_choice(self, view: GameView) -> JailChoice:
        return "roll" if self.policy == "long" else "pay"


class RollLandings:
    """An engine observer that counts ``player``'s landings the way the exact chain does.

    Each roll that moves the token or is thrown in jail (``roll`` events, a
    utility card's fresh roll aside) is one landing, counted at its
    ``roll_end``: on the square, or in jail (index ``n``) when the roll ended
    there; a ``roll_end`` without a roll (a jail turn sat out) is not a
    landing, and the failed roll of a last jail turn that releases the player
    free (``leave_jail`` ``served`` after a jail roll) counts in jail. Counts
    go into ``row`` (length ``n + 1``), which the caller may swap between
    batches.
    """

    def __init__(self, board: Board, player: int = 0, row: np.ndarray | None = None) -> None:
        self.n = board.size
        self.player = player
        self.row = row if row is not None else np.zeros(self.n + 1)
        self._rolled = self._jail_roll = self._served = False

    def __call__(self, event: Event, game: Game) -> None:
        if event.player != self.player:
            return
        kind, data = event.kind, event.data
        if kind == "roll" and data.get("why") in ("move", "jail"):
            self._rolled, self._jail_roll = True, data.get("why") == "jail"
        elif kind == "leave_jail" and data.get("how") == "served":
            self._served = True
        elif kind == "roll_end":
            if self._rolled:
                in_jail = data["in_jail"] or (self._served and self._jail_roll)
                self.row[self.n if in_jail else data["position"]] += 1
            self._rolled = self._jail_roll = self._served = False


@dataclass(frozen=True)
class LandingTable:
    """Expected landings per turn, per square (``in_jail`` apart), with standard errors."""

    board_name: str
    jail_policy: str
    per_turn: tuple[float, ...]
    se: tuple[float, ...]
    in_jail: float
    in_jail_se: float
    n_turns: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "board": self.board_name,
            "jail_policy": self.jail_policy,
            "n_turns": self.n_turns,
            "seed": self.seed,
            "per_turn": list(self.per_turn),
            "se": list(self.se),
            "in_jail": self.in_jail,
            "in_jail_se": self.in_jail_se,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LandingTable:
        return cls(
            d["board"], d["jail_policy"], tuple(d["per_turn"]), tuple(d["se"]), d["in_jail"], d["in_jail_se"], d["n_turns"], d["seed"]
        )


def simulate_landings(
    n_turns: int,
    seed: int,
    *,
    board: Board | None = None,
    rules: Rules | None = None,
    jail_policy: str = "long",
    batches: int = 50,
) -> LandingTable:
    """Estimate landings per turn by playing ``n_turns`` movement-only turns (see module docstring)."""
    board = board or standard_board()
    state = GameState.new_game(["token", "idle"], board, rules)
    # The second seat never moves: it is bankrupt-free but skipped by giving the
    # token every turn (we drive ``play_turn`` for the token only).
    counts = np.zeros((batches, board.size + 1))
    per_batch = max(1, n_turns // batches)
    n_turns = per_batch * batches
    observe = RollLandings(board, 0, counts[0])
    game = Game(
        state,
        [JailPolicyAgent(jail_policy), JailPolicyAgent(jail_policy)],
        SeededStream(seed),
        movement_only=True,
        max_rounds=10**12,
        observers=[observe],
    )
    for b in range(batches):
        observe.row = counts[b]
        for _ in range(per_batch):
            state.to_move = 0
            state.phase = Phase.START
            game.play_turn()
    means = counts / per_batch
    mean = means.mean(axis=0)
    se = means.std(axis=0, ddof=1) / np.sqrt(batches)
    return LandingTable(
        board.name,
        jail_policy,
        tuple(float(x) for x in mean[:-1]),
        tuple(float(x) for x in se[:-1]),
        float(mean[-1]),
        float(se[-1]),
        n_turns,
        seed,
    )


@cache
def default_landing_table() -> LandingTable:
    """The shipped table for ``standard-us`` (long jail policy), made by
    ``python -m engine.chains.landing`` (2,000,000 turns, seed 2024)."""
    text = resources.files("engine.chains").joinpath("data", "landing-standard-us.json").read_text(encoding="utf-8")
    return LandingTable.from_dict(json.loads(text))


def main() -> None:  # pragma: no cover - a data-generation script
    import argparse
    import pathlib

    parser = argparse.ArgumentParser(description="Regenerate engine/chains/data/landing-standard-us.json")
    parser.add_argument("--turns", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    table = simulate_landings(args.turns, args.seed)
    out = pathlib.Path(__file__).parent / "data" / "landing-standard-us.json"
    atomic_write(out, json.dumps(table.to_dict(), indent=1) + "\n")
    print(f"wrote {out}: {table.n_turns} turns, rolls per turn {sum(table.per_turn) + table.in_jail:.4f}")


if __name__ == "__main__":  # pragma: no cover
    main()
