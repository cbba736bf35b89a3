"""Tuning by self-play (issue 39 item 1): successive halving over an agent's options on paired games against a league.

    python bench/tune.py run     --agent subgraph --space SPACE [--configs 16] [--eta 2] [--games 40] [--rungs 4]
                                 [--league "strategic,strategic,strategic;value,value,value"] [--proxy OPTS]
                                 [--seed 0] [--workers 2] --out FILE [--resume]
    python bench/tune.py report  --out FILE
    python bench/tune.py confirm --out FILE [--games 400] [--seed 1000] [--workers 2] [--resume]
    python bench/tune.py confirm --chosen SPEC [--default subgraph] [--league L] --out FILE [--games 400] [--seed 1000] ...

``SPACE`` names the options searched and their ranges: ``key=lo:hi`` (integers when both ends
are integers, else reals rounded to 3 decimals) or ``key=a|b|c`` (choices), comma-separated, for
example ``answer_z=0.5:2.5,deny=0:6,hold=true|false``.

**The race.** Configuration 0 is the agent's defaults; configurations 1..``configs``-1 are drawn
uniformly from the space with ``numpy.random.default_rng(seed)``. At rung ``r`` every survivor
plays games ``0 .. games x eta^r - 1`` against every line-up of the league (the candidate in the
seat a tournament of the line-up ``candidate, opponents...`` gives it in that game,
:func:`engine.tournament.run.seat_game`: game ``g`` has the same dice, cards and seats for every
configuration, so the comparisons are paired). A configuration's score at a rung is its mean win
over those games; the best ``ceil(k / eta)`` go on (ties: the lower index). Configuration 0 plays
every rung whatever its rank, as the reference the report pairs each survivor with. With
``--proxy OPTS`` (for example ``rollouts=80,accept_rollouts=120``) every rung but the last plays
with those options on top (cheaper games, a proxy); the last rung plays the configurations as
drawn, its games counted apart, so the choice is made at full settings.

**Files.** ``--out`` is a JSON-lines file: a header (the agent, space, configurations, league,
seed, race parameters and the package version) and one row per game played (configuration,
line-up, game, proxy or not, win, CPU seconds). It is appended to as games finish (crash-safe);
``--resume`` checks the header and plays only the games missing. ``report`` prints each rung's
table (score, paired difference with configuration 0 and its 95% interval) and writes
``<out>.chosen.json``: the chosen configuration's spec with its provenance (the file, the games,
the git commit when available).

**Confirmation** (``confirm``): the chosen configuration and configuration 0 on fresh seeds
(``--seed``, default 1000, never used by ``run``'s default seed 0) against the league and against
a family kept out of the league: ``strategic`` and ``value`` opponents with options drawn
at random (seeded, per game and seat) from :data:`HELD_OUT` (ranges of plausible play, narrower
than the options' hard limits). Paired per game; the report gives each family's difference with
its 95% interval. File ``<out>.confirm.jsonl``, resumable the same way. With ``--chosen SPEC``
the same confirmation pairs ``SPEC`` with ``--default`` (``subgraph``) against ``--league``,
without a race: for a choice made by hand (from screens); ``--out`` is then the confirmation file
itself, and ``--seed`` should be one no screen of the choice used.

The cost is printed (CPU seconds per game and in all); tens of thousands of games are hours on
two cores, so runs are meant to be resumed across sessions.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.rules.game import Game  # noqa: E402
from engine.tournament.results import project_version  # noqa: E402
from engine.tournament.run import seat_game  # noqa: E402
from solver.agents.registry import UnknownAgentError, factory  # noqa: E402

MAX_ROUNDS = 1000
HEADER = "monopoly-tune/1"
CONFIRM_HEADER = "monopoly-tune-confirm/1"

HELD_OUT: dict[str, dict[str, tuple[float, float]]] = {
    "strategic": {
        "reserve": (50, 400),
        "critical_reserve": (0, 150),
        "premium": (0.0, 1.0),
        "danger": (0.0, 0.5),
        "accept_margin": (0.0, 60.0),
        "cooldown": (2, 16),
        "leave_jail_unowned": (0, 16),
    },
    "value": {"k": (2, 8), "cash_min": (50, 300), "eps": (0.0, 20.0)},
}
"""The held-out family's option ranges (integers where both ends are integers)."""


# -- the space ---------------------------------------------------------------------------------
def parse_space(text: str) -> dict[str, tuple[Any, ...]]:
    """``key=lo:hi`` or ``key=a|b`` items, comma-separated -> key -> ``(lo, hi)`` or the choices.

    >>> parse_space("deny=0:6,answer_z=0.5:2.5,hold=true|false")
    {'deny': (0, 6), 'answer_z': (0.5, 2.5), 'hold': ('true', 'false')}
    """
    out: dict[str, tuple[Any, ...]] = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        key, eq, rng = item.partition("=")
        if not eq or not key:
            raise SystemExit(f"--space: {item!r} is not key=lo:hi or key=a|b")
        if "|" in rng:
            out[key] = tuple(rng.split("|"))
            continue
        lo_s, colon, hi_s = rng.partition(":")
        try:
            lo, hi = (int(lo_s), int(hi_s)) if lo_s.lstrip("-").isdigit() and hi_s.lstrip("-").isdigit() else (float(lo_s), float(hi_s))
        except ValueError:
            raise SystemExit(f"--space: {item!r}: {rng!r} is not lo:hi") from None
        if not colon or lo > hi:
            raise SystemExit(f"--space: {item!r}: {rng!r} is not lo:hi with lo <= hi")
        out[key] = (lo, hi)
    return out


def draw(space: dict[str, tuple[Any, ...]], rng: np.random.Generator) -> dict[str, Any]:
    """One configuration drawn uniformly from ``space``."""
    out: dict[str, Any] = {}
    for key, lim in space.items():
        if isinstance(lim[0], str):
            out[key] = lim[int(rng.integers(len(lim)))]
        elif isinstance(lim[0], int) and isinstance(lim[1], int):
            out[key] = int(rng.integers(lim[0], lim[1] + 1))
        else:
            out[key] = round(float(rng.uniform(lim[0], lim[1])), 3)
    return out


def spec_of(agent: str, options: dict[str, Any]) -> str:
    """``agent:key=value,...`` (the bare name without options). ``agent`` may carry options of its
    own (``subgraph:tiebreak=worth``): the drawn ones follow them, after a comma."""
    if not options:
        return agent
    drawn = ",".join(f"{k}={v}" for k, v in options.items())
    return agent + ("," if ":" in agent else ":") + drawn


def configurations(agent: str, space: dict[str, tuple[Any, ...]], n: int, seed: int) -> list[str]:
    """Configuration 0 (the defaults) and ``n - 1`` drawn ones, as specs (each checked by the registry)."""
    rng = np.random.default_rng(seed)
    specs = [agent] + [spec_of(agent, draw(space, rng)) for _ in range(n - 1)]
    for s in specs:
        factory(s)  # refused now, in one line, not in a worker
    return specs


def with_proxy(spec: str, proxy: str) -> str:
    """``spec`` with the proxy's options on top (a key in both takes the proxy's value)."""
    if not proxy:
        return spec
    name, _, rest = spec.partition(":")
    opts = dict(x.split("=", 1) for x in rest.split(",") if x)
    opts.update(dict(x.split("=", 1) for x in proxy.split(",") if x))
    return name + ":" + ",".join(f"{k}={v}" for k, v in opts.items())


# -- games -------------------------------------------------------------------------------------
def play(job: tuple[str, list[str], int, int]) -> tuple[int, float]:
    """The candidate ``spec`` (agent 0 of the line-up) in game ``g``: (won, CPU seconds)."""
    spec, opponents, seed, g = job
    t0 = time.process_time()
    order, agents, state, stream = seat_game([factory(s) for s in [spec, *opponents]], seed, g)
    result = Game(state, agents, stream, max_rounds=MAX_ROUNDS).play()
    won = result.winner_index is not None and order[result.winner_index] == 0
    return int(won), round(time.process_time() - t0, 3)


def _pool_map(fn: Callable[[Any], Any], jobs: list[Any], workers: int) -> Iterator[Any]:
    """``fn(job)`` for every job, in order (a fork pool when ``workers > 1``)."""
    if workers <= 1 or len(jobs) <= 1:
        yield from map(fn, jobs)
        return
    with mp.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(fn, jobs, chunksize=1)


def read_file(path: Path, header: dict[str, Any], resume: bool) -> list[dict[str, Any]]:
    """The rows of ``path`` a run with ``header`` may keep (refused in one line otherwise); the file
    is rewritten with its header and the whole rows (a line torn by a kill is dropped)."""
    rows: list[dict[str, Any]] = []
    if path.exists():
        if not resume:
            raise SystemExit(f"{path} exists: --resume to complete it (or remove it)")
        lines = path.read_text().splitlines()
        found = json.loads(lines[0]) if lines else None
        if found != header:
            diff = sorted(k for k in set(header) | set(found or {}) if (found or {}).get(k) != header.get(k))
            raise SystemExit(f"--resume: {path} was written by another run (differs in {', '.join(diff)})")
        for line in lines[1:]:
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in [header, *rows]))
    tmp.replace(path)
    return rows


# -- the race ----------------------------------------------------------------------------------
def rung_games(games: int, eta: int, r: int) -> int:
    """Games per line-up at rung ``r``."""
    return games * eta**r


def scores(rows: Iterable[dict[str, Any]], configs: Iterable[int], n_games: int, proxy: bool, n_lineups: int) -> dict[int, list[int]]:
    """Configuration -> its wins on games ``< n_games`` of every line-up (in (line-up, game) order)
    with that proxy flag; a configuration missing any of those games is left out."""
    want = set(configs)
    got: dict[tuple[int, int, int], int] = {}
    for row in rows:
        if row["c"] in want and row["g"] < n_games and bool(row["proxy"]) == proxy:
            got[row["c"], row["l"], row["g"]] = row["win"]
    out = {}
    for c in want:
        keys = [(c, lu, g) for lu in range(n_lineups) for g in range(n_games)]
        if all(k in got for k in keys):
            out[c] = [got[k] for k in keys]
    return out


def survivors(race: dict[int, list[int]], keep: int) -> list[int]:
    """The ``keep`` best configurations by mean win (ties: the lower index)."""
    return sorted(sorted(race), key=lambda c: (-sum(race[c]) / len(race[c]), c))[:keep]


def race_plan(header: dict[str, Any], rows: list[dict[str, Any]]) -> Iterator[tuple[int, list[int], bool, dict[int, list[int]] | None]]:
    """Each rung in turn: ``(r, configurations playing it, proxy, their wins or None while incomplete)``;
    stops after the first incomplete rung."""
    alive = list(range(len(header["configs"])))
    n_l = len(header["league"])
    for r in range(header["rungs"]):
        proxy = bool(header["proxy"]) and r < header["rungs"] - 1
        playing = sorted(set(alive) | {0})
        race = scores(rows, playing, rung_games(header["games"], header["eta"], r), proxy, n_l)
        if len(race) < len(playing):
            yield r, playing, proxy, None
            return
        yield r, playing, proxy, race
        alive = survivors({c: race[c] for c in alive}, max(1, math.ceil(len(alive) / header["eta"])))


def parse_league(text: str) -> list[list[str]]:
    """The line-ups of ``--league``: ``;``-separated, each a ``,``-separated list of opponent specs.

    >>> parse_league("strategic,strategic;value,value")
    [['strategic', 'strategic'], ['value', 'value']]
    """
    return [x.split(",") for x in text.split(";") if x]


def cmd_run(args: argparse.Namespace) -> int:
    space = parse_space(args.space)
    league = parse_league(args.league)
    header = {
        "header": HEADER, "agent": args.agent, "space": args.space, "configs": configurations(args.agent, space, args.configs, args.seed),
        "league": league, "seed": args.seed, "games": args.games, "eta": args.eta, "rungs": args.rungs, "proxy": args.proxy,
        "max_rounds": MAX_ROUNDS, "version": project_version(),
    }
    for lineup in league:
        for s in lineup:
            factory(s)
    out = Path(args.out)
    rows = read_file(out, header, args.resume)
    t0, cpu = time.perf_counter(), 0.0
    with out.open("a") as fh:
        while True:
            plan = list(race_plan(header, rows))
            r, playing, proxy, race = plan[-1]
            if race is not None:  # every rung complete
                break
            done = {(x["c"], x["l"], x["g"], bool(x["proxy"])) for x in rows}
            n = rung_games(args.games, args.eta, r)
            todo = [(c, lu, g) for c in playing for lu in range(len(league)) for g in range(n) if (c, lu, g, proxy) not in done]
            jobs = [(with_proxy(header["configs"][c], args.proxy) if proxy else header["configs"][c], league[lu], args.seed, g) for c, lu, g in todo]
            print(f"rung {r}: {len(playing)} configurations x {len(league)} line-ups x {n} games ({len(todo)} to play){' [proxy]' if proxy else ''}", file=sys.stderr, flush=True)
            for (c, lu, g), (win, cpu_s) in zip(todo, _pool_map(play, jobs, args.workers), strict=True):
                row = {"c": c, "l": lu, "g": g, "proxy": proxy, "win": win, "cpu_s": cpu_s}
                fh.write(json.dumps(row, sort_keys=True) + "\n")
                fh.flush()
                rows.append(row)
                cpu += cpu_s
    print(f"{out}: race complete; this call {time.perf_counter() - t0:.0f} s, {cpu:.0f} CPU s", file=sys.stderr)
    return cmd_report(args)


def _interval(diff: list[float]) -> tuple[float, float]:
    n = len(diff)
    mean = sum(diff) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diff) / max(1, n - 1))
    return mean, 1.959963984540054 * sd / math.sqrt(n)


def _git_commit() -> str | None:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def cmd_report(args: argparse.Namespace) -> int:
    out = Path(args.out)
    lines = out.read_text().splitlines()
    header = json.loads(lines[0])
    if header.get("header") != HEADER:
        raise SystemExit(f"{out} is not a tuning file")
    rows = [json.loads(x) for x in lines[1:] if x.strip()]
    cpu = sum(x["cpu_s"] for x in rows)
    print(f"{out.name}: {header['agent']} over {header['space']}; {len(header['configs'])} configurations, eta {header['eta']}, "
          f"league {' ; '.join(','.join(x) for x in header['league'])}; {len(rows)} games, {cpu / max(1, len(rows)):.2f} CPU s per game, {cpu / 3600:.2f} CPU h")
    chosen = None
    for r, playing, proxy, race in race_plan(header, rows):
        n = rung_games(header["games"], header["eta"], r)
        if race is None:
            print(f"rung {r}: incomplete ({n} games per line-up{', proxy' if proxy else ''})")
            break
        print(f"rung {r}: {n} games per line-up{' (proxy ' + header['proxy'] + ')' if proxy else ''}")
        for c in sorted(race, key=lambda c: (-sum(race[c]), c)):
            mean, half = _interval([a - b for a, b in zip(race[c], race[0], strict=True)])
            print(f"  {c:3d} {sum(race[c]) / len(race[c]):.4f}  vs 0: {mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}]  {header['configs'][c]}")
        if r == header["rungs"] - 1:
            best = survivors(race, 1)[0]  # configuration 0 plays the last rung too, and wins ties: the defaults stay unless beaten
            chosen = {"spec": header["configs"][best], "config": best, "file": out.name, "games_per_lineup": n, "league": header["league"],
                      "seed": header["seed"], "commit": _git_commit(), "version": header["version"]}
    if chosen is not None:
        path = out.with_name(out.name + ".chosen.json")
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(chosen, indent=1) + "\n")
        tmp.replace(path)
        print(f"chosen: {chosen['spec']} ({path.name})")
    return 0


# -- confirmation ------------------------------------------------------------------------------
def held_out_lineup(seed: int, g: int, n_opponents: int) -> list[str]:
    """Game ``g``'s held-out opponents: each ``strategic`` or ``value`` with options drawn from :data:`HELD_OUT`."""
    rng = np.random.default_rng([seed, g, 7])
    out = []
    for _ in range(n_opponents):
        name = sorted(HELD_OUT)[int(rng.integers(len(HELD_OUT)))]
        out.append(spec_of(name, draw(dict(HELD_OUT[name]), rng)))
    return out


def cmd_confirm(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if args.chosen is not None:  # a choice made outside a race (by hand, from screens): --out is the confirmation file
        for spec in (args.chosen, args.default):
            try:
                factory(spec)
            except UnknownAgentError as exc:  # the registry's one-line error
                raise SystemExit(f"confirm: {spec!r}: {exc}") from None
        chosen_spec, default_spec, path = args.chosen, args.default, out
        league = parse_league(args.league)
    else:
        chosen = json.loads(out.with_name(out.name + ".chosen.json").read_text())
        header_run = json.loads(out.read_text().splitlines()[0])
        if args.seed == header_run["seed"]:
            raise SystemExit(f"confirm: --seed {args.seed} is the tuning run's; fresh seeds are the point")
        chosen_spec, default_spec, path = chosen["spec"], header_run["configs"][0], out.with_name(out.name + ".confirm.jsonl")
        league = header_run["league"]
    families = [*(",".join(x) for x in league), "held-out"]
    header = {"header": CONFIRM_HEADER, "chosen": chosen_spec, "default": default_spec, "league": league,
              "seed": args.seed, "games": args.games, "max_rounds": MAX_ROUNDS, "version": project_version()}
    rows = read_file(path, header, args.resume)
    done = {(x["who"], x["family"], x["g"]) for x in rows}
    n_opp = len(league[0])
    jobs, keys = [], []
    for fam, name in enumerate(families):
        for g in range(args.games):
            opponents = league[fam] if name != "held-out" else held_out_lineup(args.seed, g, n_opp)
            for who, spec in (("chosen", chosen_spec), ("default", default_spec)):
                if (who, fam, g) not in done:
                    jobs.append((spec, opponents, args.seed, g))
                    keys.append((who, fam, g))
    with path.open("a") as fh:
        for (who, fam, g), (win, cpu_s) in zip(keys, _pool_map(play, jobs, args.workers), strict=True):
            row = {"who": who, "family": fam, "g": g, "win": win, "cpu_s": cpu_s}
            fh.write(json.dumps(row, sort_keys=True) + "\n")
            fh.flush()
            rows.append(row)
    wins = {(x["who"], x["family"], x["g"]): x["win"] for x in rows}
    print(f"confirm: {chosen_spec} against {default_spec}, seed {args.seed}, {args.games} games per family")
    for fam, name in enumerate(families):
        gs = [g for g in range(args.games) if ("chosen", fam, g) in wins and ("default", fam, g) in wins]
        if len(gs) < 2:
            continue
        diff = [wins["chosen", fam, g] - wins["default", fam, g] for g in gs]
        mean, half = _interval(diff)
        a = sum(wins["chosen", fam, g] for g in gs) / len(gs)
        print(f"  {name}: {len(gs)} games, chosen {a:.4f}, paired difference {mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}]")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("run", "report", "confirm"))
    ap.add_argument("--agent", default="subgraph")
    ap.add_argument("--space", default="")
    ap.add_argument("--configs", type=int, default=16)
    ap.add_argument("--eta", type=int, default=2)
    ap.add_argument("--games", type=int, default=None, help="run: games per line-up at rung 0 (40); confirm: games per family (400)")
    ap.add_argument("--rungs", type=int, default=4)
    ap.add_argument("--league", default="strategic,strategic,strategic;value,value,value")
    ap.add_argument("--proxy", default="")
    ap.add_argument("--seed", type=int, default=None, help="run: 0; confirm: 1000")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--chosen", default=None, help="confirm: this spec instead of a race's choice (--out is then the confirmation file)")
    ap.add_argument("--default", default="subgraph", help="confirm with --chosen: the spec it is paired with (subgraph)")
    args = ap.parse_args(argv)
    if args.command == "run":
        args.games = args.games or 40
        args.seed = 0 if args.seed is None else args.seed
        if args.configs < 1 or args.eta < 2 or args.rungs < 1 or args.games < 1:
            raise SystemExit("run: --configs >= 1, --eta >= 2, --rungs >= 1 and --games >= 1")
        return cmd_run(args)
    if args.command == "report":
        return cmd_report(args)
    args.games = args.games or 400
    args.seed = 1000 if args.seed is None else args.seed
    return cmd_confirm(args)


if __name__ == "__main__":
    raise SystemExit(main())
