"""``monopoly-trade play``: one seeded game between registered agents, seated as game ``--game`` of a
tournament seeded ``--seed`` (so a tournament's game replays byte for byte), optionally from a state
file and saving the state at the start of every round; prints the winner, the reason the game ended
and the net worths, as text or one JSON object.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver import jsonsafe
from solver.cli.common import (
    SEED,
    UsageError,
    add_rules_option,
    int_in,
    read_state,
    rules_arg,
    rules_line,
)

if TYPE_CHECKING:  # the engine is imported when a game is played, not when the CLI parses its arguments
    from engine.rules.actions import Event
    from engine.rules.game import Game
    from models.state import GameState


def add_parser(subparsers: Any) -> None:
    """Add ``play`` to ``subparsers`` (what ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "play",
        help="play one game between agents",
        description=(
            "Play one game. Game I of a run seeded S uses SeedSequence([S, I]) for the dice, the cards "
            "and every agent's own choices, so the same arguments give the same game, byte for byte."
        ),
    )
    p.add_argument("--agents", required=True, help="comma-separated agent specs, e.g. strategic,strategic,random,random")
    p.add_argument("--seed", type=SEED, default=0, help="run seed (default 0; 0..2^63-1)")
    p.add_argument("--game", type=int_in(0, 10**9), default=0, help="game index within the run (default 0; 0..1000000000)")
    p.add_argument("--max-rounds", type=int_in(1, 100_000), default=1000, help="round cap; the richest player wins there (default 1000; 1..100000)")
    p.add_argument("--state", help="start from this state file instead of the opening (one agent per player)")
    add_rules_option(p)
    p.add_argument("--save-states", metavar="DIR", help="write the state after every round to DIR/round-NNNN.json")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def _start_state(args: argparse.Namespace, n: int) -> GameState:
    from models.state import GameState

    if args.state is None:
        from models.board import standard_board

        board = standard_board()
        rules = None if args.rules is None else rules_arg(args.rules, board)
        return GameState.new_game([f"P{i + 1}" for i in range(n)], board, rules)
    state = read_state(args.state, args.rules)
    if len(state.players) != n:
        raise UsageError(f"--agents names {n} agents but the state has {len(state.players)} players")
    return state


class _RoundSaver:
    """Observer that writes the state at the start of every round (and at the end)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.last = -1

    def save(self, state: GameState, label: str) -> None:
        from models.io import save_state

        save_state(state, self.directory / f"{label}.json")

    def __call__(self, event: Event, game: Game) -> None:
        state = game.state
        if event.kind == "turn" and state.round != self.last:
            self.last = state.round
            self.save(state, f"round-{state.round:04d}")


def run(args: argparse.Namespace) -> int:
    """Run ``play`` on the parsed ``args``: the exit status."""
    from engine.rules.game import Game
    from engine.rules.seeding import game_seed_sequence, game_seeds
    from engine.rules.streams import SeededStream
    from engine.tournament import seating
    from solver.agents.registry import parse_agents

    specs = parse_agents(args.agents)
    if not 2 <= len(specs) <= 8:
        raise UsageError(f"--agents: a game needs 2 to 8 agents, got {len(specs)}")
    state = _start_state(args, len(specs))
    # Seats as in game ``--game`` of a tournament: seat k gets agent (k + game) mod n.
    specs = [specs[a] for a in seating(args.game, len(specs))]
    stream_seed, seat_seeds = game_seeds(game_seed_sequence(args.seed, args.game), len(specs))
    agents = [make(seed) for (_, make), seed in zip(specs, seat_seeds, strict=True)]
    observers = []
    saver = None
    if args.save_states == "-":
        raise UsageError("--save-states: one file per round goes to a folder; give a folder, not -")
    if args.save_states:
        directory = Path(args.save_states)
        directory.mkdir(parents=True, exist_ok=True)
        saver = _RoundSaver(directory)
        observers.append(saver)
    game = Game(state, agents, SeededStream(stream_seed), max_rounds=args.max_rounds, observers=observers)
    result = game.play()
    if saver is not None:
        saver.save(game.state, "final")
    labels = {p.name: spec for p, (spec, _) in zip(state.players, specs, strict=True)}
    if args.json:
        out: dict[str, Any] = {"seed": args.seed, "game": args.game, "rules": state.rules.summary(), "agents": labels, **result.to_dict()}
        print(jsonsafe.dumps(out, sort_keys=True))
        return 0
    print(f"seed {args.seed}, game {args.game}: " + ", ".join(f"{n} {s}" for n, s in labels.items()))
    print(rules_line(state))
    winner = f"{result.winner} ({labels[result.winner]})" if result.winner else "none"
    print(f"winner: {winner}")
    print(f"rounds: {result.rounds} ({result.turns} turns)")
    why = {
        "bankruptcy": "bankruptcy: one player left",
        "round_cap": f"round cap of {args.max_rounds} rounds: highest net worth wins",
        "round_limit": f"the rules' limit of {state.rules.round_limit} rounds: highest net worth wins",
        "cash_target": f"a player reached the rules' cash target of ${state.rules.cash_target}: highest net worth wins",
    }.get(result.reason, result.reason)
    print(f"ended by: {why}")
    if result.bankrupt_order:
        print("bankrupt in order: " + ", ".join(result.bankrupt_order))
    print("net worth: " + ", ".join(f"{n} {w}" for n, w in result.net_worths.items()))
    return 0
