"""Where an agent's games are won and lost: who completes the first set, how, and what follows (issue 39).

    python bench/loss_anatomy.py run --agents subgraph,strategic,strategic,strategic --games 600 [--start 0] [--seed 0] [--workers 2] --out F [--resume]
    python bench/loss_anatomy.py report --out F

``run`` plays games ``start .. start + games - 1`` of ``--seed`` exactly as ``monopoly-trade
tournament --agents ...`` does (:func:`engine.tournament.run.seat_game`: the same seats, dice and
agents' seeds, so its games are the tournament's games, and its wins the tournament's wins), with
an observer that records every *completion*: the moment a seat comes to hold every lot of a street
group, with the round, the group and what made it:

``buy``
    a purchase at the printed price;
``auction``
    an auction won;
``trade``
    an accepted trade (with the other seats of the trade);
``bankrupt``
    the lots of a bankrupt seat passing to its creditor.

Only these four events move a lot between seats and the bank in the reference engine (the test
replays a game checking after every event), so the record is complete. One JSON line per game
under a header (``loss-anatomy/1``: the agents, the seed, the round cap); resumable (the header
must match).

``report`` studies the first agent of ``--agents`` (the *agent*; the others are its opponents):

* its wins, with a 95% Wilson interval;
* the games by the first completion of the game that was not a bankruptcy's (who, how), each
  with the agent's win rate [95%] and its share of the agent's losses;
* the games where the agent never completes a set before the game ends (other than by a
  bankruptcy's lots);
* the groups opponents completed first by buying them outright.

A game's first completion is the earliest in play order; a trade in which the agent takes part is
``... trades with the agent``, one between opponents ``opponents trade``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from engine.rules.actions import Event, EventKind  # noqa: E402
from engine.rules.game import Game  # noqa: E402
from engine.tournament import wilson  # noqa: E402
from engine.tournament.run import seat_game  # noqa: E402
from exploit import read_lines, resume_lines  # noqa: E402
from solver.agents.registry import factory  # noqa: E402

HEADER = "loss-anatomy/1"
MOVES = {EventKind.BUY: "buy", EventKind.AUCTION: "auction", EventKind.TRADE: "trade", EventKind.BANKRUPT: "bankrupt"}
"""The events that move a lot to a seat, and the name of each as a cause."""


class Completions:
    """An observer of one game: every completion (module docstring), in play order.

    Attributes
    ----------
    rows : list of list
        ``[round, seat, group, how, partners]``; ``partners`` the other seats of a trade (else
        empty).
    """

    def __init__(self, n_seats: int) -> None:
        self.held: list[set[str]] = [set() for _ in range(n_seats)]
        self.rows: list[list[Any]] = []

    def __call__(self, event: Event, game: Game) -> None:
        how = MOVES.get(event.kind)
        if how is None or (how == "trade" and not event.data.get("accepted")):
            return
        state = game.state
        partners: list[int] = []
        if how == "trade":
            names = set(event.data["trade"].participants())
            partners = [i for i, p in enumerate(state.players) if p.name in names]
        for seat in range(len(state.players)):
            now = set(state.complete_groups(seat))
            for group in sorted(now - self.held[seat]):
                self.rows.append([state.round, seat, group, how, [q for q in partners if q != seat]])
            self.held[seat] = now


def play(args: tuple[list[str], int, int, int]) -> dict[str, Any]:
    """Game ``game`` of the run: its result and completions (one row of the file)."""
    agents, seed, game, max_rounds = args
    order, seated, state, stream = seat_game([factory(a) for a in agents], seed, game)
    seen = Completions(len(agents))
    result = Game(state, seated, stream, max_rounds=max_rounds, observers=[seen]).play()
    return {
        "game": game, "seats": [agents[a] for a in order], "agent_seat": order.index(0),
        "winner_seat": result.winner_index, "rounds": result.rounds, "reason": str(result.reason),
        "completions": seen.rows,
    }


def first_completion(row: dict[str, Any]) -> str:
    """The category of a game by its first completion not by bankruptcy (module docstring).

    Parameters
    ----------
    row : dict
        A game's row.

    Returns
    -------
    str

    Examples
    --------
    >>> row = {"agent_seat": 1, "completions": [[3, 2, "brown", "bankrupt", []], [5, 0, "pink", "trade", [1]]]}
    >>> first_completion(row)
    'an opponent, trading with the agent'
    >>> first_completion({"agent_seat": 0, "completions": []})
    'no set completed'
    """
    me = row["agent_seat"]
    for _, seat, _, how, partners in row["completions"]:
        if how == "bankrupt":
            continue
        who = "the agent" if seat == me else "an opponent"
        if how != "trade":
            return f"{who}, {'buying' if how == 'buy' else 'at auction'}"
        if seat == me:
            return "the agent, trading"
        return f"{who}, {'trading with the agent' if me in partners else 'opponents trading'}"
    return "no set completed"


def agent_completes(row: dict[str, Any]) -> bool:
    """Whether the agent completes a set in the game other than by a bankruptcy's lots.

    Parameters
    ----------
    row : dict
        A game's row.

    Returns
    -------
    bool

    Examples
    --------
    >>> agent_completes({"agent_seat": 1, "completions": [[3, 1, "brown", "bankrupt", []], [5, 0, "pink", "trade", [1]]]})
    False
    """
    return any(seat == row["agent_seat"] and how != "bankrupt" for _, seat, _, how, _ in row["completions"])


def report(header: dict[str, Any], rows: list[dict[str, Any]]) -> list[str]:
    """The report's lines (module docstring).

    Parameters
    ----------
    header : dict
        The file's header.
    rows : list of dict
        Its games.

    Returns
    -------
    list of str
    """
    n = len(rows)
    won = [r["winner_seat"] == r["agent_seat"] for r in rows]
    wins = sum(won)
    losses = n - wins
    lo, hi = wilson(wins, n)
    agents = header["agents"]
    out = [f"{n} games of {','.join(agents)} (seed {header['seed']}); {agents[0]} wins {wins}: {wins / n:.4f} [{lo:.4f}, {hi:.4f}]"]
    out.append("the first set of the game (not by bankruptcy) completed by | games | the agent wins [95%] | share of its losses")
    firsts = [first_completion(r) for r in rows]
    cats: Counter[str] = Counter()
    cat_wins: Counter[str] = Counter()
    for c, w in zip(firsts, won, strict=True):
        cats[c] += 1
        cat_wins[c] += w
    for c, k in sorted(cats.items(), key=lambda kv: -kv[1]):
        a, b = wilson(cat_wins[c], k)
        out.append(f"  {c:36s} {k:5d} ({k / n:5.1%})  {cat_wins[c] / k:.3f} [{a:.3f}, {b:.3f}]  {(k - cat_wins[c]) / max(losses, 1):5.1%}")
    never = [w for r, w in zip(rows, won, strict=True) if not agent_completes(r)]
    if never:
        a, b = wilson(sum(never), len(never))
        out.append(
            f"the agent completes no set: {len(never)} games ({len(never) / n:.1%}), wins {sum(never) / len(never):.3f} [{a:.3f}, {b:.3f}], "
            f"{(len(never) - sum(never)) / max(losses, 1):.1%} of its losses"
        )
    bought: Counter[str] = Counter()
    for r, c in zip(rows, firsts, strict=True):
        if c == "an opponent, buying":
            bought[next(g for _, s, g, how, _ in r["completions"] if how != "bankrupt")] += 1
    if bought:
        out.append("groups an opponent completed first by buying: " + ", ".join(f"{g} {k}" for g, k in bought.most_common()))
    return out


def cmd_run(args: argparse.Namespace) -> int:
    agents = [a.strip() for a in args.agents.split(",")]
    if len(agents) < 2 or args.games < 1 or args.start < 0 or args.workers < 1 or args.max_rounds < 1:
        raise SystemExit("--agents needs two or more specs; --games, --workers and --max-rounds >= 1, --start >= 0")
    for a in agents:
        try:
            factory(a)  # a bad spec: one line, before any game
        except ValueError as e:
            raise SystemExit(f"--agents: {e}") from None
    header = {"header": HEADER, "agents": agents, "seed": args.seed, "max_rounds": args.max_rounds}
    out = Path(args.out)
    done = {r["game"] for r in resume_lines(out, header, args.resume)}
    todo = [(agents, args.seed, g, args.max_rounds) for g in range(args.start, args.start + args.games) if g not in done]
    with out.open("a", encoding="utf-8") as fh, ProcessPoolExecutor(max_workers=args.workers) as pool:
        for row in pool.map(play, todo, chunksize=1):
            fh.write(json.dumps(row) + "\n")
            fh.flush()
    return cmd_report(args)


def cmd_report(args: argparse.Namespace) -> int:
    header, rows = read_lines(Path(args.out))
    if header is None or header.get("header") != HEADER or not rows:
        raise SystemExit(f"{args.out}: not a loss-anatomy file with games")
    print("\n".join(report(header, sorted(rows, key=lambda r: r["game"]))))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--agents", required=True)
    r.add_argument("--games", type=int, default=600)
    r.add_argument("--start", type=int, default=0)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--max-rounds", type=int, default=1000)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--out", required=True)
    r.add_argument("--resume", action="store_true")
    p = sub.add_parser("report")
    p.add_argument("--out", required=True)
    args = ap.parse_args()
    return cmd_run(args) if args.cmd == "run" else cmd_report(args)


if __name__ == "__main__":
    raise SystemExit(main())
