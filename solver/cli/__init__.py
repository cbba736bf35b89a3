"""The ``monopoly-trade`` command line (also ``python -m solver``).

Commands built so far: ``validate``, ``play``, ``tournament``, ``agents``, ``odds``, ``risk``, ``analyze``, ``bidding-game``. Every command
takes ``--help``. Bad input (a state that breaks the format or a rule, an
unknown agent, a file that cannot be read) prints one line on stderr and exits
with status 2, without a traceback; files are written to a temporary name
and renamed.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from engine.actions import Event
from engine.game import Game
from engine.seeding import game_seed_sequence, game_seeds
from engine.streams import SeededStream
from engine.tournament import BackendUnavailableError, run_tournament, seating
from models.errors import MonopolyError
from models.files import atomic_write
from models.io import load_state, save_state
from models.state import GameState
from models.trade import Transfer
from solver.agents.registry import UnknownAgentError, entries, parse_agents

PROG = "monopoly-trade"


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _nonneg_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def _pos_int(text: str) -> int:
    value = _nonneg_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="A Monopoly decision engine: rules, odds, trades, decisions.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("validate", help="check a state file", description="Check a state file: prints ok, or the error (exit 2).")
    p.add_argument("state", help="a state file (monopoly-state/1)")

    p = sub.add_parser(
        "play",
        help="play one game between agents",
        description=(
            "Play one game. Game I of a run seeded S uses SeedSequence([S, I]) for the dice, the cards "
            "and every agent's own choices, so the same arguments give the same game, byte for byte."
        ),
    )
    p.add_argument("--agents", required=True, help="comma-separated agent specs, e.g. strategic,strategic,random,random")
    p.add_argument("--seed", type=_nonneg_int, default=0, help="run seed (default 0)")
    p.add_argument("--game", type=_nonneg_int, default=0, help="game index within the run (default 0)")
    p.add_argument("--max-rounds", type=_pos_int, default=1000, help="round cap; the richest player wins there (default 1000)")
    p.add_argument("--state", help="start from this state file instead of the opening (one agent per player)")
    p.add_argument("--save-states", metavar="DIR", help="write the state after every round to DIR/round-NNNN.json")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")

    p = sub.add_parser(
        "tournament",
        help="seeded head-to-head games with win rates",
        description=(
            "Play games 0..N-1 of a run seeded S; game i uses SeedSequence([S, i]) and seats the agents "
            "rotated by i, so results do not depend on --workers and `play --seed S --game i` replays game i. "
            "One JSON line per finished game goes to --out; --resume completes an interrupted run."
        ),
    )
    p.add_argument("--agents", required=True, help="comma-separated agent specs, 2 to 8")
    p.add_argument("--games", type=_pos_int, required=True, help="number of games")
    p.add_argument("--seed", type=_nonneg_int, default=0, help="run seed (default 0)")
    p.add_argument("--workers", type=_pos_int, default=1, help="local worker processes (default 1)")
    p.add_argument("--backend", choices=("local", "ray"), default="local", help="where games run (default local)")
    p.add_argument("--max-rounds", type=_pos_int, default=1000, help="round cap per game (default 1000)")
    p.add_argument("--out", help="results file, one JSON line per game")
    p.add_argument("--resume", action="store_true", help="skip the games already in --out")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")

    sub.add_parser("agents", help="list the agents and their options", description="List the registered agents and their options.")

    p = sub.add_parser(
        "odds",
        help="long-run landing table and expected rent per turn",
        description=(
            "Exact long-run landing shares (fraction of rolls ending on each square; 'in jail' apart) and "
            "expected rent per opponent turn (EPT) for the board and rules of STATE (standard when omitted)."
        ),
    )
    p.add_argument("state", nargs="?", help="a state file (only its board and rules are used)")
    p.add_argument("--jail", choices=("short", "long"), default="long", help="jail policy (default long: stay and roll)")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser(
        "risk",
        help="ruin probability over the next turns",
        description=(
            "Probability that the player is ruined (owes more than its liquidation value) at each of the next "
            "turns, by the exact (cash x position) chain of engine.state_risk."
        ),
    )
    p.add_argument("state", help="a state file")
    p.add_argument("--player", help="player name (default: the state's to_move)")
    p.add_argument("--turns", type=_pos_int, default=20, help="turns ahead (default 20)")
    p.add_argument("--jail", choices=("short", "long"), default="long", help="jail policy (default long)")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser(
        "analyze",
        help="subgraph, position, build frontier and property values",
        description=(
            "For each player (or one): complete/partial/isolated sets, the position (GROWING, CAPPED or LOSING) "
            "with its numbers, the exact build frontier (best rent per round for each budget) and the "
            "position-aware value of the properties it holds or needs."
        ),
    )
    p.add_argument("state", help="a state file")
    p.add_argument("--player", help="one player (default: every active player)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="draw the frontier curves (needs matplotlib)")

    p = sub.add_parser(
        "solve",
        help="the main job: what to do now and why",
        description=(
            "Decide for the player (default: to_move): build, propose a trade (CP-SAT candidates re-scored by "
            "simulation on common dice, Nash-bargained, checked for what they do to the others) or hold cash. "
            "The same seed gives the same answer; --budget is a wall-clock cap (a decision it cuts says truncated)."
        ),
    )
    p.add_argument("state", help="a state file")
    p.add_argument("--player", help="the player (default: the state's to_move)")
    p.add_argument("--seed", type=_nonneg_int, default=0, help="seed of the rollouts (default 0)")
    p.add_argument("--budget", type=float, default=1.0, help="wall-clock cap in seconds (default 1)")
    p.add_argument("--rollouts", type=_pos_int, default=800, help="games per simulated state (default 800)")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser(
        "trades",
        help="trade candidates from the CP-SAT model, before any simulation",
        description=(
            "The proposer's best trades by the model's linear value estimate (solver.trades.cpsat): bilateral, "
            "and 3-way cycles with --cycles; top K distinct, minimal trades. Deterministic: fixed seed, one "
            "worker, a deterministic time limit per solve."
        ),
    )
    p.add_argument("state", help="a state file")
    p.add_argument("--player", help="the proposer (default: the state's to_move)")
    p.add_argument("--top", type=_pos_int, default=20, help="how many trades (default 20)")
    p.add_argument("--cycles", action="store_true", help="also search 3-way cycles")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser(
        "bidding-game",
        help="Richman or Poorman bidding game on a digraph: costs and bids",
        description=(
            "Costs and optimal bids of a bidding game (solver.bidding). FILE is "
            '{"blue": "b", "red": "r", "edges": {"v": ["w", ...], ...}}. A vertex\'s cost is Blue\'s share of '
            "the money above which Blue (who wants the token on blue) wins: of the total money under "
            "Richman rules (the winner of a bid pays the loser; exact fractions), of the money in play under "
            "Poorman rules (the winner pays the bank). Bids are shares of the same money."
        ),
    )
    p.add_argument("file", metavar="FILE.json", help="the game: blue, red and the successors of each vertex")
    p.add_argument("--kind", choices=("richman", "poorman"), required=True, help="who receives the winning bid")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser(
        "auction",
        help="how much to bid for an unowned lot, and whether to buy it at list price",
        description=(
            "Auction policy (solver.bidding.auction): the indifference price p* (winning the lot at p against the most "
            "dangerous rival winning it at p, equal in simulated win probability on common dice; bisection over "
            "[0, cash]), the liquidity cap (cash + mortgage values of mortgageable lots), the risk cap (cash - the "
            "ruin reserve after buying) and max bid = min of the three; buy at list price when list <= p*."
        ),
    )
    p.add_argument("state", help="a state file")
    p.add_argument("--property", required=True, metavar="NAME", help="the unowned lot")
    p.add_argument("--player", help="the bidder (default: the state's to_move)")
    p.add_argument("--rollouts", type=_pos_int, default=300, help="games per simulated state (default 300)")
    p.add_argument("--horizon", type=_pos_int, default=20, help="rounds per simulated game (default 20)")
    p.add_argument("--seed", type=_nonneg_int, default=0, help="seed of the rollouts (default 0)")
    p.add_argument("--epsilon", type=float, default=0.05, help="ruin probability allowed within 20 turns (default 0.05)")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser(
        "prune-report",
        help="the pruning funnel over many states (seed Test 3)",
        description=(
            "Run the explicit trade funnel (solver.trades.candidates) for every active player of every state, with the "
            "true values and the default reserves, and count the survivors after each pruning rule. States come "
            "from files and/or from games 0..N-1 of four strategic agents seeded S (as tournament --seed S), "
            "taken at the start of every 10th round, at most 500. Writes DIR/report.md, DIR/report.json and "
            "DIR/funnel.png (needs matplotlib)."
        ),
    )
    p.add_argument("states", nargs="*", metavar="STATE", help="state files")
    p.add_argument("--from-games", type=_pos_int, metavar="N", help="sample states from N games of four strategic agents")
    p.add_argument("--seed", type=_nonneg_int, default=0, help="run seed of the games (default 0)")
    p.add_argument("--every", type=_pos_int, default=10, help="take a state every this many rounds (default 10)")
    p.add_argument("--max-states", type=_pos_int, default=500, help="at most this many states from games (default 500)")
    p.add_argument("--max-rounds", type=_pos_int, default=1000, help="round cap of the games (default 1000)")
    p.add_argument("--cycles", action="store_true", help="also generate 3-way cycles")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for report.md, report.json and funnel.png")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")

    p = sub.add_parser(
        "trial",
        help="novelty trials (seed 002): PNWP, NDA, NRP",
        description=(
            "Play a trial of games in which a novelty (a hidden change of board or rules) is injected at a seeded "
            "game and persists; the tested agent carries one novelty monitor through the trial. Reports the "
            "pre-novelty win percentage (PNWP), whether the novelty was detected after the injection with no false "
            "alarm before it (NDA), and the win rate after it over the strategic baseline's rate before it (NRP). "
            "--list shows the catalogue. --novelty all (or --seeds K > 1) runs many trials, --workers at a time, "
            "and summarizes them per class and difficulty; --novelty none runs novelty-free control trials."
        ),
    )
    p.add_argument("--list", action="store_true", help="list the novelty catalogue")
    p.add_argument("--agent", help="the tested agent (a registry spec, e.g. subgraph or value)")
    p.add_argument("--novelty", help="a catalogue name, 'all', or 'none' (control trials)")
    p.add_argument("--games", type=_pos_int, default=100, help="games per trial (default 100)")
    p.add_argument("--seed", type=_nonneg_int, default=0, help="seed of the (first) trial (default 0)")
    p.add_argument("--seeds", type=_pos_int, default=1, help="trials per novelty, seeds S..S+K-1 (default 1)")
    p.add_argument("--opponents", default="strategic,strategic,strategic", help="comma-separated opponent specs (default three strategic)")
    p.add_argument("--no-adapt", action="store_true", help="detect but keep playing on the standard board and rules")
    p.add_argument("--workers", type=_pos_int, default=1, help="trials played at once (default 1)")
    p.add_argument("--max-rounds", type=_pos_int, default=1000, help="round cap per game (default 1000)")
    p.add_argument("--out", help="one trial: its results file (JSON lines); many: a folder with one file per trial")
    p.add_argument("--resume", action="store_true", help="continue the trials in --out where they stopped")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def cmd_validate(args: argparse.Namespace) -> int:
    load_state(args.state)
    print("ok")
    return 0


def _start_state(args: argparse.Namespace, n: int) -> GameState:
    if args.state is None:
        return GameState.new_game([f"P{i + 1}" for i in range(n)])
    state = load_state(args.state)
    if len(state.players) != n:
        raise UsageError(f"--agents names {n} agents but the state has {len(state.players)} players")
    return state


class _RoundSaver:
    """Observer that writes the state at the start of every round (and at the end)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.last = -1

    def save(self, state: GameState, label: str) -> None:
        save_state(state, self.directory / f"{label}.json")

    def __call__(self, event: Event, game: Game) -> None:
        state = game.state
        if event.kind == "turn" and state.round != self.last:
            self.last = state.round
            self.save(state, f"round-{state.round:04d}")


def cmd_play(args: argparse.Namespace) -> int:
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
        out: dict[str, Any] = {"seed": args.seed, "game": args.game, "agents": labels, **result.to_dict()}
        print(json.dumps(out, sort_keys=True))
        return 0
    print(f"seed {args.seed}, game {args.game}: " + ", ".join(f"{n} {s}" for n, s in labels.items()))
    winner = f"{result.winner} ({labels[result.winner]})" if result.winner else "none"
    print(f"winner: {winner}")
    print(f"rounds: {result.rounds} ({result.turns} turns)")
    why = {
        "bankruptcy": "bankruptcy: one player left",
        "round_cap": f"round cap of {args.max_rounds} rounds: highest net worth wins",
    }.get(result.reason, result.reason)
    print(f"ended by: {why}")
    if result.bankrupt_order:
        print("bankrupt in order: " + ", ".join(result.bankrupt_order))
    print("net worth: " + ", ".join(f"{n} {w}" for n, w in result.net_worths.items()))
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    specs = parse_agents(args.agents)
    if not 2 <= len(specs) <= 8:
        raise UsageError(f"--agents: a tournament needs 2 to 8 agents, got {len(specs)}")
    if args.resume and not args.out:
        raise UsageError("--resume needs --out")
    out = Path(args.out) if args.out else None

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty() and (done == total or done % max(1, total // 50) == 0):
            width = 30
            filled = width * done // total
            print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="", file=sys.stderr, flush=True)
            if done == total:
                print(file=sys.stderr)

    try:
        result = run_tournament(
            [make for _, make in specs],
            [spec for spec, _ in specs],
            args.games,
            args.seed,
            workers=args.workers,
            max_rounds=args.max_rounds,
            out=out,
            resume=args.resume,
            progress=progress,
            backend=args.backend,
        )
    except BackendUnavailableError as err:  # --backend ray without the ray extra
        raise UsageError(f"--backend {args.backend}: {err}") from None
    if args.json:
        print(json.dumps({"seed": args.seed, **result.to_dict()}))
        return 0
    print(f"tournament: {len(result.rows)} games, seed {args.seed}, seats rotated, cap {args.max_rounds} rounds")
    for st in result.standings:
        lo, hi = st.interval
        print(f"  {st.label:<30} wins {st.wins:5d}  rate {st.rate:.3f}  95% [{lo:.3f}, {hi:.3f}]")
    if result.draws:
        print(f"  no winner: {result.draws}")
    return 0


def cmd_agents(args: argparse.Namespace) -> int:
    for entry in entries():
        opts = ", ".join(f"{k}={v}" for k, v in entry.options().items())
        print(f"{entry.name}: {entry.summary}")
        if opts:
            print(f"  options: {opts}")
    return 0


def cmd_odds(args: argparse.Namespace) -> int:
    from engine.ept import ept_table
    from engine.markov import PositionChain
    from models.board import standard_board
    from models.rules import Rules

    if args.state:
        state = load_state(args.state)
        board, rules = state.board, state.rules
    else:
        board, rules = standard_board(), Rules()
    chain = PositionChain(board, rules, args.jail)
    shares = chain.long_run_landing()
    table = ept_table(chain)
    if args.json:
        out = {
            "jail": args.jail,
            "squares": [
                {"index": sq.index, "name": sq.name, "probability": float(shares[sq.index])} for sq in board.squares
            ],
            "in_jail": float(shares[board.size]),
            "ept": table,
        }
        print(json.dumps(out))
        return 0
    print(f"board {board.name}, jail policy {args.jail}: long-run share of rolls ending on each square")
    for sq in board.squares:
        line = f"{sq.index:3d} {sq.name:<24} {100 * shares[sq.index]:6.3f}%"
        if sq.name in table:
            line += "   EPT " + " ".join(f"{v:7.2f}" for v in table[sq.name])
        print(line)
    print(f"    {'In jail':<24} {100 * shares[board.size]:6.3f}%")
    print("EPT: dollars per opponent turn; streets at levels 0..5 (group complete), railroads/utilities by number held")
    for group in board.street_groups:
        print(f"    {group:<24} " + " ".join(f"{v:7.2f}" for v in table[group]))
    return 0


def _player_arg(state: GameState, name: str | None) -> int:
    if name is None:
        return state.to_move
    try:
        return state.player_index(name)
    except KeyError:
        raise UsageError(f"--player: no player named {name!r} in the state") from None


def cmd_risk(args: argparse.Namespace) -> int:
    from engine.state_risk import state_ruin_pmf

    state = load_state(args.state)
    player = _player_arg(state, args.player)
    pmf = state_ruin_pmf(state, player, args.turns, jail=args.jail)
    cumulative = pmf.cumsum()
    name = state.players[player].name
    if args.json:
        print(
            json.dumps(
                {
                    "player": name,
                    "turns": args.turns,
                    "liquidation_value": state.liquidation_value(player),
                    "pmf": [float(v) for v in pmf],
                    "cumulative": [float(v) for v in cumulative],
                }
            )
        )
        return 0
    print(f"{name}: liquidation value ${state.liquidation_value(player)}, ruin within {args.turns} turns {cumulative[-1]:.4f}")
    print("turn  P(ruin at turn)  P(ruined by then)")
    for t in range(1, args.turns + 1):
        print(f"{t:4d}  {pmf[t]:15.4f}  {cumulative[t]:17.4f}")
    return 0


def _analysis(state: GameState, player: int, chain: Any) -> dict[str, Any]:
    from solver.analysis.frontier import build_frontier
    from solver.analysis.position import assess_position, frontier_value, property_value
    from solver.analysis.subgraph import analyze

    graph = analyze(state, player)
    frontier = build_frontier(state, player, chain)
    position = assess_position(state, player, chain=chain, frontier=frontier)
    step = max(frontier.unit, 100 // frontier.unit * frontier.unit or frontier.unit)
    table = [
        {"cash": int(b), "rent_gain": float(frontier.gains[i])}
        for i, b in enumerate(frontier.budgets)
        if int(b) % step == 0 or i == len(frontier.budgets) - 1
    ]
    names = state.board.squares
    candidates = [sq for sq in graph.properties if not state.group_has_buildings(state.group_of(sq))]
    candidates += [sq for p in graph.partial_sets for sq in p.needed if not state.group_has_buildings(state.group_of(sq))]
    base = frontier_value(state, player, chain=chain)
    values = {names[sq].name: round(property_value(state, player, sq, base, chain=chain), 2) for sq in candidates}
    return {
        "subgraph": graph.to_dict(state),
        "position": position.to_dict(),
        "frontier": {"unit": frontier.unit, "current_rent": frontier.current, "table": table},
        "property_values": values,
        "_frontier": frontier,
    }


def cmd_analyze(args: argparse.Namespace) -> int:
    from engine.markov import PositionChain

    state = load_state(args.state)
    players = [_player_arg(state, args.player)] if args.player else state.active_players()
    if args.plot:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise UsageError("--plot needs matplotlib: pip install 'monopoly-trade[plot]'") from None
    chain = PositionChain(state.board, state.rules, "long")
    results = {state.players[p].name: _analysis(state, p, chain) for p in players}
    if args.plot:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for name, r in results.items():
            fr = r["_frontier"]
            ax.step(fr.budgets, fr.current + fr.gains, where="post", label=name)
        ax.set_xlabel("cash spent on building ($)")
        ax.set_ylabel("expected rent per round ($)")
        ax.set_title(f"Build frontier: {Path(args.state).name}")
        ax.legend()
        fig.tight_layout()
        png = io.BytesIO()
        fig.savefig(png, format="png")
        atomic_write(args.plot, png.getvalue())
    for r in results.values():
        del r["_frontier"]
    if args.json:
        print(json.dumps({"players": results}))
        return 0
    for name, r in results.items():
        g, pos = r["subgraph"], r["position"]
        print(f"{name}: {pos['state']}  cash ${g['cash']}")
        print(f"  complete: {', '.join(g['complete_sets']) or '-'}")
        for ps in g["partial_sets"]:
            held = ", ".join(f"{k} ({v})" for k, v in ps["held_by"].items())
            print(f"  partial {ps['group']}: owns {', '.join(ps['owned'])}; needs {ps['missing']} of {held}")
        if g["isolated"]:
            print(f"  isolated: {', '.join(g['isolated'])}")
        ttd = "-" if pos["turns_to_max_dev"] is None else f"{pos['turns_to_max_dev']:.1f}"
        print(
            f"  rent/round now {pos['current_rent']:.1f}, ceiling {pos['ceiling']:.1f}, build ROI {pos['build_roi']:.4f}/$, "
            f"net flow {pos['net_flow']:.1f}/round, rounds to full development {ttd}, ruin in 20 turns {pos['ruin_20']:.3f}"
        )
        table = r["frontier"]["table"]
        if len(table) > 1:
            print("  frontier: " + ", ".join(f"${row['cash']}: +{row['rent_gain']:.1f}" for row in table[:12]))
        if r["property_values"]:
            print("  values: " + ", ".join(f"{k} {v:.0f}" for k, v in r["property_values"].items()))
    return 0


def _transfer_dict(t: Transfer) -> dict[str, Any]:
    out: dict[str, Any] = {"from": t.frm, "to": t.to, "properties": list(t.properties), "cash": t.cash}
    if t.jail_cards:
        out["jail_cards"] = t.jail_cards
    return out


def cmd_trades(args: argparse.Namespace) -> int:
    from solver.trades.cpsat import Limits, generate_trades

    state = load_state(args.state)
    player = _player_arg(state, args.player)
    if state.players[player].bankrupt:
        raise UsageError(f"--player: {state.players[player].name} is bankrupt")
    result = generate_trades(state, player, cycles=args.cycles, limits=Limits(top_k=args.top))
    names = [p.name for p in state.players]
    trades: list[dict[str, Any]] = [
        {
            "kind": g.candidate.kind,
            "transfers": [_transfer_dict(t) for t in g.candidate.to_trade(state).transfers],
            "estimated_gain": {names[i]: g.gains[i] for i in g.candidate.players},
        }
        for g in result.trades
    ]
    if args.json:
        doc = {"trades": trades, "empty_reason": result.empty_reason, "relaxed": result.relaxed, "truncated": result.truncated}
        print(json.dumps(doc))
        return 0
    print(f"trades proposed by {names[player]} ({'bilateral and 3-way cycles' if args.cycles else 'bilateral'}), "
          "ranked by the model's estimated gain (dollars of value over 20 rounds):")
    if result.empty_reason:
        print(f"  strict rules: {result.empty_reason}")
    if result.relaxed:
        print("  RELAXED search (rule 1 waived for a counterparty paid at least $100):")
    for k, t in enumerate(trades, 1):
        legs = "; ".join(
            f"{x['from']} -> {x['to']}: " + ", ".join([*x["properties"], *([f"${x['cash']}"] if x["cash"] else [])])
            for x in t["transfers"]
        )
        gains = ", ".join(f"{n} {v:+d}" for n, v in t["estimated_gain"].items())
        print(f"  {k:2d}. [{t['kind']}] {legs}  (gain {gains})")
    if not trades:
        print("  none")
    if result.truncated:
        print("  (search truncated by the wall-clock cap)")
    return 0


def cmd_bidding_game(args: argparse.Namespace) -> int:
    from fractions import Fraction

    from solver.bidding.games import (
        BiddingGameError,
        graph_from_json,
        optimal_moves,
        poorman_bids,
        poorman_costs,
        richman_bids,
        richman_costs,
    )

    try:
        doc = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except UnicodeDecodeError as err:
        raise UsageError(f"{args.file}: not UTF-8 text: {err.reason}") from None
    except json.JSONDecodeError as err:
        raise UsageError(f"{args.file}: not valid JSON: {err}") from None
    try:
        graph, blue, red = graph_from_json(doc)
        if args.kind == "richman":
            costs: dict[Any, Any] = richman_costs(graph, blue, red)
            bids: dict[Any, Any] = richman_bids(graph, blue, red, costs)
        else:
            costs = poorman_costs(graph, blue, red)
            bids = poorman_bids(graph, blue, red, costs)
        moves = optimal_moves(graph, blue, red, costs)
    except BiddingGameError as err:
        raise UsageError(f"{args.file}: {err}") from None
    if args.json:
        out: dict[str, Any] = {
            "costs": {v: float(c) for v, c in costs.items()},
            "bids": {v: float(b) for v, b in bids.items()},
        }
        if args.kind == "richman":
            out["costs_exact"] = {v: str(c) for v, c in costs.items()}
        print(json.dumps(out))
        return 0

    def show(value: Any) -> str:
        if isinstance(value, Fraction) and value.denominator != 1:
            return f"{value} = {float(value):.6f}"
        return str(value) if isinstance(value, Fraction) else f"{value:.9f}"

    money = "the total money" if args.kind == "richman" else "the money in play"
    print(f"{args.kind.capitalize()} game, {graph.number_of_nodes()} vertices, Blue wants {blue}, Red wants {red}")
    print(f"cost: Blue's share of {money} above which Blue wins; bid: share of {money}, the same for both players")
    rows = [("vertex", "cost", "bid", "Blue moves to", "Red moves to")]
    for v, c in costs.items():
        if v in bids:
            rows.append((str(v), show(c), show(bids[v]), str(moves[v].blue), str(moves[v].red)))
        else:
            rows.append((str(v), show(c), "-", "(blue)" if v == blue else "(red)", ""))
    widths = [max(len(row[k]) for row in rows) for k in range(5)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return 0


def cmd_auction(args: argparse.Namespace) -> int:
    from solver.bidding.auction import AuctionError, auction_bid

    state = load_state(args.state)
    player = _player_arg(state, args.player)
    if args.property not in state.board.property_index:
        raise UsageError(f"--property: no property named {args.property!r} on the board")
    if not 0.0 <= args.epsilon <= 1.0:
        raise UsageError("--epsilon must be in [0, 1]")
    try:
        bid = auction_bid(
            state, player, args.property, rollouts=args.rollouts, horizon=args.horizon, seed=args.seed, epsilon=args.epsilon
        )
    except AuctionError as err:
        raise UsageError(f"--property: {err}") from None
    if args.json:
        print(json.dumps(bid.to_dict()))
        return 0
    print(f"{bid.player} bidding for {bid.property} (list price ${bid.list_price})")
    print(f"  max bid            ${bid.max_bid}")
    more = " (censored: still better at its cash)" if bid.censored else ""
    print(f"  indifference price ${bid.indifference_price}{more}")
    print(f"  liquidity cap      ${bid.liquidity_cap}")
    print(f"  risk cap           ${bid.risk_cap} (reserve ${bid.reserve})")
    rival = f"{bid.rival} (win probability +{bid.rival_gain:.3f} with the lot at list price)" if bid.rival else "none"
    print(f"  rival              {rival}")
    print(f"  buy at list        {'yes' if bid.buy_at_list else 'no'}")
    return 0


def _json_safe(x: Any) -> Any:
    """Infinite or undefined numbers as ``null``."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _json_safe(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_json_safe(v) for v in x]
    return x


def cmd_solve(args: argparse.Namespace) -> int:
    from solver.decide import decide

    state = load_state(args.state)
    player = _player_arg(state, args.player)
    if state.players[player].bankrupt:
        raise UsageError(f"--player: {state.players[player].name} is bankrupt")
    if not args.budget > 0:
        raise UsageError("--budget must be positive")
    d = decide(state, state.players[player].name, budget_s=args.budget, rollouts=args.rollouts, seed=args.seed)
    doc = d.to_dict(state)
    if args.json:
        print(json.dumps(_json_safe(doc)))
        return 0
    print(_solve_text(doc))
    return 0


def _solve_text(doc: dict[str, Any]) -> str:
    pos = doc["position"]
    dec = doc["decision"]
    ttm = pos["turns_to_max_dev"]
    lines = [
        (
            f"{doc['player']}: position {pos['state']} (best building returns {pos['build_roi']:.1%} of its cost per round; "
            f"ceiling ${pos['ceiling']:.0f} rent per round; {'never' if ttm is None else f'{ttm:.0f} rounds'} to full "
            f"development; ruin within 20 turns {pos['ruin_20']:.1%})"
        ),
        "win probability now (simulated): " + ", ".join(f"{n} {p:.1%}" for n, p in doc["win_prob"].items()),
        "",
        f"DECISION: {dec['action'].upper().replace('_', ' ')}: {dec['reason']}",
    ]
    if "build" in dec:
        b = dec["build"]
        lots = ", ".join(f"{n} to {'a hotel' if lv == 5 else f'{lv} house(s)'}" for n, lv in b["levels"].items())
        lines.append(f"  build: {lots}; cost ${b['cost']}; win probability {b['win_delta']:+.3f} (se {b['win_delta_se']:.3f})")
    if "trade" in dec:
        lines.append("  trade: " + _legs(dec["trade"]["transfers"]))
    if doc["trades"]:
        lines += ["", "trades re-scored (win-probability change for each player, +- one standard error):"]
        for k, t in enumerate(doc["trades"], 1):
            deltas = ", ".join(f"{n} {v:+.3f}+-{t['win_delta_se'][n]:.3f}" for n, v in t["win_delta"].items())
            flags = f"nash zone {'yes' if t['nash_zone'] else 'no'}, leader {t['leader']} {t['leader_win_prob']:.0%}"
            flags += f" ({'balanced' if t['balanced'] else 'unbalanced'}), acceptance {t['acceptance']:.0%}"
            lines.append(f"  {k}. [{t['kind']}] {_legs(t['transfers'])}")
            lines.append(f"     {deltas}; {flags}; risk-adjusted {t['risk_adjusted_ev']:+.3f}")
    if doc["pruning"]:
        lines += ["", "funnel: " + " -> ".join(f"{k} {v}" for k, v in doc["pruning"].items())]
    if doc["truncated"]:
        lines.append("(truncated by the time budget)")
    return "\n".join(lines)


def _legs(transfers: list[dict[str, Any]]) -> str:
    return "; ".join(
        f"{x['from']} gives {x['to']} " + (", ".join([*x["properties"], *([f'${x["cash"]}'] if x["cash"] else [])]) or "nothing")
        for x in transfers
    )


def cmd_prune_report(args: argparse.Namespace) -> int:
    from solver.trades.prune_report import (
        STAGES,
        PlotUnavailableError,
        Timer,
        default_meta,
        funnel_rows,
        require_plot,
        sample_game_states,
        summarize,
        write_report,
    )

    if not args.states and args.from_games is None:
        raise UsageError("prune-report: give STATE files or --from-games N")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out: {args.out} exists and is not a folder")
    try:
        require_plot()  # before the work, not after
    except PlotUnavailableError as err:
        raise UsageError(f"prune-report: {err}") from None
    timer = Timer()
    states = [(path, load_state(path)) for path in args.states]
    sampling: list[str] = []
    extra: dict[str, Any] = {"cycles": args.cycles, "seed": None}
    if args.states:
        sampling.append(f"{len(args.states)} state file(s)")
        extra["state_files"] = list(args.states)
    if args.from_games is not None:
        info: dict[str, Any] = {}
        sampled = sample_game_states(
            args.from_games, args.seed, every=args.every, max_states=args.max_states, max_rounds=args.max_rounds, info=info
        )
        states += sampled
        extra["seed"] = args.seed
        extra["games"] = {
            "agents": ["strategic"] * 4,
            "requested": args.from_games,
            "played": info["games_played"],
            "every": args.every,
            "max_states": args.max_states,
            "max_rounds": args.max_rounds,
            "states": len(sampled),
            "states_per_game": info["states_per_game"],
        }
        sampling.append(
            f"States sampled from games 0..{args.from_games - 1} of four strategic agents, seed {args.seed} (game i seeded "
            f"SeedSequence([{args.seed}, i]), as in tournament --seed {args.seed}), at the start of every {args.every}th round "
            f"(rounds {args.every}, {2 * args.every}, ...), at most {args.max_states} states: {len(sampled)} states from "
            f"{info['games_played']} games played (round cap {args.max_rounds})"
        )
    extra["sampling"] = "; ".join(sampling) + "."
    timer.lap("states_s")
    rows = funnel_rows(states, cycles=args.cycles)
    timer.lap("funnel_s")
    summary = summarize(rows)
    meta = default_meta(timing=timer.times, **extra)
    paths = write_report(rows, summary, out, meta=meta)
    if args.json:
        print(json.dumps({"out": str(out), "files": {k: str(v) for k, v in paths.items()}, "summary": summary, "meta": meta}))
        return 0

    def fmt(x: float | None) -> str:
        return "-" if x is None else f"{x:g}"

    print(f"prune-report: {summary['states']} states, {summary['rows']} (state, proposer) rows. {extra['sampling']}")
    print(f"  {'stage':<14} {'median':>7} {'p90':>7}")
    for k in STAGES:
        s = summary["stages"][k]
        print(f"  {k:<14} {fmt(s['median']):>7} {fmt(s['p90']):>7}")
    rpo, fin, fl = summary["raw_per_opponent"], summary["final_survivors"], summary["flagged"]
    print(f"  raw per opponent: median {fmt(rpo['median'])}, p90 {fmt(rpo['p90'])} (seed expects ~100-200)")
    print(f"  final survivors per proposer: median {fmt(fin['median'])}, p90 {fmt(fin['p90'])} (seed expects ~5-20)")
    print(f"  flagged: more than 100 survivors {fl['many']}, none {fl['none']} of {summary['rows']} ({fl['none_with_raw']} pruned to nothing)")
    print(f"wrote {paths['md']}, {paths['json']}, {paths['png']}")
    return 0


def cmd_trial(args: argparse.Namespace) -> int:
    from engine import novelty_catalogue as catalogue
    from solver.novelty import trial as trials

    if args.list:
        rows = [
            {"name": n.name, "class": n.klass, "difficulty": n.difficulty, "hidden": n.hidden, "tags": list(n.tags), "summary": n.summary}
            for n in catalogue.CATALOGUE
        ]
        if args.json:
            print(json.dumps({"novelties": rows}))
        else:
            for r in rows:
                print(f"{r['name']:<15} {r['class']:<15} {r['difficulty']:<7} {'hidden ' if r['hidden'] else 'visible'}  {r['summary']}")
        return 0
    if not args.agent or not args.novelty:
        raise UsageError("trial: give --list, or --agent NAME and --novelty NAME|all|none")
    if args.resume and not args.out:
        raise UsageError("--resume needs --out")
    if args.novelty == "all":
        novelties: list[str | None] = list(catalogue.names())
    elif args.novelty == "none":
        novelties = [None]
    else:
        try:
            novelties = [catalogue.get(args.novelty).name]
        except catalogue.UnknownNoveltyError as err:
            raise UsageError(f"--novelty: {err}") from None
    opponents = tuple(spec for spec, _ in parse_agents(args.opponents))
    try:
        specs = [
            trials.TrialSpec(args.agent, nov, args.games, args.seed + k, opponents, not args.no_adapt, args.max_rounds)
            for nov in novelties
            for k in range(args.seeds)
        ]
    except ValueError as err:
        raise UsageError(f"trial: {err}") from None
    if len(specs) == 1:
        spec = specs[0]
        try:
            res = trials.play_trial(spec, out=Path(args.out) if args.out else None, resume=args.resume)
        except ValueError as err:
            raise UsageError(str(err)) from None
        doc = res.to_dict()
        if args.json:
            print(json.dumps(_json_safe(doc)))
        else:
            print(_trial_text(doc))
        return 0
    outdir = Path(args.out) if args.out else None
    done: list[dict[str, Any]] = []
    for doc in trials.run_trials(specs, workers=args.workers, outdir=outdir, resume=args.resume):
        done.append(doc)
        if not args.json:
            m = doc["metrics"]
            nrp = "-" if m["nrp"] is None else f"{m['nrp']:.2f}"
            print(f"  {doc['spec']['novelty'] or 'none':<15} seed {doc['spec']['seed']:<4} detected {str(m['detected']):<5} NRP {nrp:>5}  ({doc['seconds']:.0f} s)", flush=True)
    done.sort(key=lambda d: (d["spec"]["novelty"] or "", d["spec"]["seed"]))
    summary = trials.summarize(done)
    if outdir is not None:
        outdir.mkdir(parents=True, exist_ok=True)
        atomic_write(outdir / "summary.json", json.dumps(_json_safe({"trials": done, "summary": summary}), indent=1))
    if args.json:
        print(json.dumps(_json_safe({"trials": done, "summary": summary})))
        return 0
    print(f"trials: {len(done)}, agent {args.agent}, {args.games} games each, adaptation {'off' if args.no_adapt else 'on'}")
    print(f"  {'cell':<24} {'trials':>6} {'NDA':>6} {'PNWP':>6} {'post':>6} {'base':>6} {'NRP':>6}")
    for cell, c in summary.items():
        def f(x: float | None) -> str:
            return "-" if x is None else f"{x:.3f}"
        print(f"  {cell:<24} {c['trials']:>6} {f(c['nda']):>6} {f(c['pnwp']):>6} {f(c['post_rate']):>6} {f(c['baseline_pre_rate']):>6} {f(c['nrp']):>6}")
    return 0


def _trial_text(doc: dict[str, Any]) -> str:
    spec, m = doc["spec"], doc["metrics"]
    nov = spec["novelty"]
    lines = [
        f"trial: {spec['agent']} vs {','.join(spec['opponents'])}; seed {spec['seed']}; {spec['games']} games; "
        f"adaptation {'on' if spec['adapt'] else 'off'}",
    ]
    if nov is None:
        lines.append("  novelty: none (a control trial)")
    else:
        lines.append(f"  novelty: {nov}, injected at game {doc['injected_at']}")

    def rate(k: int, n: int) -> str:
        return f"{k / n:.3f} ({k}/{n})" if n else "- (0 games)"

    lo, hi = m["pnwp_95"] or (0.0, 1.0)
    lines.append(f"  PNWP  {rate(m['pre_wins'], m['pre_games'])}  95% [{lo:.3f}, {hi:.3f}]")
    if m["detection"] is not None:
        d = m["detection"]
        lines.append(f"  NDA   detected {m['detection_delay_games']} game(s) after the injection, round {d['round']}: {d['tag']}: {d['detail']}")
    if m["false_alarms"]:
        d = m["first_false_alarm"]
        lines.append(f"  NDA   FALSE ALARM before the injection ({m['false_alarms']}): game {d['game']} {d['tag']}: {d['detail']}")
    lines.append(f"  NDA   {'correct' if m['detected'] else 'wrong'} (tags seen after the injection: {', '.join(m['tags_seen']) or 'none'})")
    if nov is not None:
        base = rate(m["baseline_pre_wins"], m["baseline_pre_seats"])
        nrp = "-" if m["nrp"] is None else f"{m['nrp']:.2f}"
        lines.append(f"  NRP   {nrp} = win rate after {rate(m['post_wins'], m['post_games'])} / strategic before {base}")
    lines.append(f"  ({doc['seconds']:.0f} s)")
    return "\n".join(lines)


COMMANDS = {
    "validate": cmd_validate,
    "play": cmd_play,
    "tournament": cmd_tournament,
    "agents": cmd_agents,
    "odds": cmd_odds,
    "risk": cmd_risk,
    "analyze": cmd_analyze,
    "bidding-game": cmd_bidding_game,
    "auction": cmd_auction,
    "trades": cmd_trades,
    "solve": cmd_solve,
    "prune-report": cmd_prune_report,
    "trial": cmd_trial,
}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except (UsageError, UnknownAgentError) as err:
        print(str(err), file=sys.stderr)
        return 2
    except MonopolyError as err:
        print(str(err), file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        sys.stderr.close()
        return 0
    except OSError as err:
        print(f"{err.filename or ''}: {err.strerror or err}".lstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
