"""The pruning-validation report (seed 000, Test 3): ``monopoly-trade prune-report``.

Seed 000 asks to "track how many candidate trades survive each pruning step.
If too many survive (>100), pruning rules need tightening. If too few survive
(0 in most states), the rules are too aggressive", and expects "from ~100-200
raw candidates per opponent down to ~5-20 serious candidates total".

For each state and each active player as proposer, the explicit funnel
(:func:`solver.trades.candidates.run_funnel`) is run with the true values
(:class:`solver.trades.values.FrontierValues`: ``frontier_value + cash``) and
the default cash reserves (:func:`solver.analysis.reserve.reserves` at the settings'
``reserve_epsilon``); one row per (state, proposer) records the raw count,
the raw count per opponent, the survivors after each rule, the rule that
emptied the funnel, and the flags ``many`` (more than 100 survivors at the
end) and ``none`` (no survivor). :func:`summarize` gives the median and the
90th percentile of each stage (:func:`numpy.percentile`, its default
``linear`` method: linear interpolation between the closest ranks), and
:func:`write_report` writes ``report.md``, ``report.json`` and
``funnel.png``, each atomically (a temporary file in the same folder, then
:func:`os.replace`).

States come from files, or from games of four :class:`StrategicTradeAgent`
(:func:`sample_game_states`): game ``i`` of a run seeded ``S`` is seeded by
``SeedSequence([S, i])`` and seated exactly as game ``i`` of ``tournament
--seed S``, and the state is recorded at the start of every ``every``-th
round (rounds 10, 20, ...; round 0, where nobody owns anything, is left
out), at most ``max_states`` states in all (the games after that are not
played).
"""

from __future__ import annotations

import io
import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from engine.chains.markov import PositionChain, chain_for
from engine.rules.game import Game
from engine.rules.seeding import game_seed_sequence, game_seeds
from engine.rules.streams import SeededStream
from models.errors import ExtraNotInstalledError, InvalidArgumentError
from models.files import atomic_write
from models.state import GameState, Phase
from solver.agents.strategic import StrategicTradeAgent
from solver.analysis.reserve import cash_reserve
from solver.trades.candidates import run_funnel
from solver.trades.rules import RULES
from solver.trades.space import TradeSettings, TradeSpace
from solver.trades.values import FrontierValues

STAGES: tuple[str, ...] = ("raw", *RULES)
MANY = 100  # the seed's "too many survive"
PERCENTILE_METHOD = "numpy.percentile, method='linear' (its default: linear interpolation between the closest ranks)"
SEED_EXPECTS = {
    "raw_per_opponent": "~100-200 raw candidates per opponent",
    "final_survivors": "~5-20 serious candidates in total (one proposer, all opponents)",
    "too_many": f"more than {MANY} survivors: the rules need tightening",
    "too_few": "0 survivors in most states: the rules are too aggressive",
}


class PlotUnavailableError(ExtraNotInstalledError):
    """matplotlib (the ``plot`` extra) is not installed."""


class NoReserveError(InvalidArgumentError, KeyError):
    """A cash reserve asked of :class:`_LazyReserves` for a player who is not active.

    A :class:`KeyError` as well, as a dict's missing key is (``_LazyReserves``
    reads as the dict of the active players' reserves); its message is the
    player, unquoted.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if len(self.args) == 1 else super().__str__()


# ---------------------------------------------------------------------------
# rows
# ---------------------------------------------------------------------------
class _LazyReserves(dict[int, int]):
    """The default cash reserves (:func:`solver.analysis.reserve.cash_reserve`, as
    :func:`solver.analysis.reserve.reserves` computes them), each computed the first time
    rule 4 asks for it: most candidates never reach rule 4, so most reserves are
    never needed. Reads as the full ``{player: reserve}`` dict of the active players."""

    def __init__(self, state: GameState, epsilon: float, chain: PositionChain) -> None:
        super().__init__()
        self._state = state
        self._epsilon = epsilon
        self._chain = chain
        self._active = frozenset(state.active_players())

    def __missing__(self, player: int) -> int:
        if player not in self._active:
            raise NoReserveError(player)
        value = cash_reserve(self._state, player, epsilon=self._epsilon, chain=self._chain)
        self[player] = value
        return value

    def get(self, player: int, default: Any = None) -> Any:
        return self[player] if player in self._active else default


def funnel_rows(
    states: Iterable[tuple[str, GameState]],
    *,
    cycles: bool = False,
    settings: TradeSettings | None = None,
    progress: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """One row per (state, active proposer): the funnel with the true values and default reserves.

    A row: ``label``, ``proposer`` (name), ``raw``, ``per_opponent_raw``
    (opponent name -> raw candidates that involve it, 0 included),
    ``stages`` (``raw`` and the survivors after each rule of
    :data:`solver.trades.rules.RULES`), ``final`` (after domination),
    ``emptied_by`` (the rule after which nothing survived, or ``None``),
    ``many`` (``final`` > 100), ``none`` (``final`` == 0) and ``reserves``
    (player name -> cash reserve, for the players whose reserve rule 4
    needed: a reserve is computed only when a candidate reaches rule 4).

    Parameters
    ----------
    states:
        ``(label, state)`` pairs; a state with fewer than two active players gives no row.
    cycles:
        Also 3-cycles.
    settings:
        The trade space and the rules (default :class:`~solver.trades.space.TradeSettings`).
    progress:
        Called after each state.

    Returns
    -------
    list[dict[str, Any]]

    Examples
    --------
    >>> from models.io import load_state
    >>> rows = funnel_rows([("mid", load_state("instances/midgame-no-monopolies.json"))])
    >>> row = rows[0]
    >>> row["proposer"], row["per_opponent_raw"]
    ('Ann', {'Bob': 184, 'Cy': 40, 'Dee': 0})
    >>> row["stages"]
    {'raw': 224, 'completion': 104, 'proposer': 27, 'counterparty': 6, 'cash': 6, 'domination': 4}
    """
    st = settings or TradeSettings()
    rows: list[dict[str, Any]] = []
    for label, state in states:
        chain = chain_for(state.board, state.rules)
        active = state.active_players()
        if len(active) < 2:
            continue
        names = [p.name for p in state.players]
        res = _LazyReserves(state, st.reserve_epsilon, chain)
        # frontier_value of a player depends only on its holdings and cash (the rest of the
        # state is fixed), so the proposers of one state share one cache.
        values = FrontierValues(state, st, chain)
        mine: list[dict[str, Any]] = []
        for p in active:
            space = TradeSpace(state, p, st, res)
            f = run_funnel(space, values, cycles=cycles)
            stages = f.stages()
            final = stages["domination"]
            rows.append(
                {
                    "label": label,
                    "proposer": names[p],
                    "raw": f.raw,
                    "per_opponent_raw": {names[q]: f.per_opponent_raw.get(q, 0) for q in space.opponents},
                    "stages": {k: stages[k] for k in STAGES},
                    "final": final,
                    "emptied_by": f.emptied_by(),
                    "many": final > MANY,
                    "none": final == 0,
                }
            )
            mine.append(rows[-1])
        for row in mine:  # the reserves rule 4 asked for, over every proposer of the state
            row["reserves"] = {names[q]: int(v) for q, v in sorted(res.items())}
        if progress is not None:
            progress()
    return rows


# ---------------------------------------------------------------------------
# states from games
# ---------------------------------------------------------------------------
def sample_game_states(
    n_games: int,
    seed: int,
    *,
    every: int = 10,
    max_states: int = 500,
    max_rounds: int = 1000,
    info: dict[str, Any] | None = None,
    progress: Callable[[], None] | None = None,
) -> list[tuple[str, GameState]]:
    """States from games ``0..n_games-1`` of four :class:`StrategicTradeAgent` seeded ``seed``.

    Game ``i`` is game ``i`` of ``tournament --seed seed`` (``SeedSequence([seed, i])``,
    seats rotated by ``i``). The state is copied at the start of rounds
    ``every, 2 every, ...`` (before the first turn of the round), at most
    ``max_states`` states in all: the game that reaches that stops there and
    later games are not played. Returns ``("game I round R", state)`` pairs.
    ``info``, when given, receives ``games_played`` and ``states_per_game``.

    Raises
    ------
    InvalidArgumentError
        When ``n_games``, ``every``, ``max_states`` or ``max_rounds`` is below 1.
    """
    if n_games < 1 or every < 1 or max_states < 1 or max_rounds < 1:
        raise InvalidArgumentError("n_games, every, max_states and max_rounds must be at least 1")
    n = 4
    out: list[tuple[str, GameState]] = []
    per_game: list[int] = []
    for i in range(n_games):
        if len(out) >= max_states:
            break
        stream_seed, seat_seeds = game_seeds(game_seed_sequence(seed, i), n)
        # The tournament seats agent (k + i) mod n at seat k with seat k's seed; the four
        # agents are alike, so seat k simply gets a StrategicTradeAgent with seat k's seed.
        agents = [StrategicTradeAgent(seat_seeds[k]) for k in range(n)]
        state = GameState.new_game([f"P{k + 1}" for k in range(n)])
        game = Game(state, agents, SeededStream(stream_seed), max_rounds=max_rounds)
        taken = 0
        last = -1
        while not game.over and len(out) < max_states:
            s = game.state
            if s.phase == Phase.START and s.round != last:
                last = s.round
                if s.round > 0 and s.round % every == 0:
                    out.append((f"game {i} round {s.round}", s.copy()))
                    taken += 1
                    if len(out) >= max_states:
                        break
            game.play_turn()
        per_game.append(taken)
        if progress is not None:
            progress()
    if info is not None:
        info["games_played"] = len(per_game)
        info["states_per_game"] = per_game
    return out


# ---------------------------------------------------------------------------
# summary
# ---------------------------------------------------------------------------
def _stats(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0, "median": None, "p90": None, "mean": None, "min": None, "max": None}
    a = np.asarray(values, dtype=float)
    return {
        "n": len(values),
        "median": float(np.percentile(a, 50)),
        "p90": float(np.percentile(a, 90)),
        "mean": float(a.mean()),
        "min": float(a.min()),
        "max": float(a.max()),
    }


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Median and p90 of the survivors after each stage, over the rows, and the seed's checks.

    ``raw_per_opponent``: over the (proposer, opponent) pairs with at least
    one raw candidate (``raw_per_opponent_all``: every pair, zeros included);
    ``final_survivors``: one proposer's survivors over all its opponents
    (the seed's "total"); ``flagged``: rows with more than 100 survivors
    (``many``), with none (``none``; ``none_with_raw``: none although there
    were raw candidates); ``emptied_by``: rows per rule that emptied the
    funnel. Percentiles: :data:`PERCENTILE_METHOD`.
    """
    pairs = [c for r in rows for c in r["per_opponent_raw"].values()]
    emptied: dict[str, int] = {r: 0 for r in RULES}
    for r in rows:
        if r["emptied_by"] is not None:
            emptied[r["emptied_by"]] += 1
    n = len(rows)
    none = sum(1 for r in rows if r["none"])
    return {
        "rows": n,
        "states": len({r["label"] for r in rows}),
        "percentile_method": PERCENTILE_METHOD,
        "stages": {k: _stats([r["stages"][k] for r in rows]) for k in STAGES},
        "raw_per_opponent": _stats([c for c in pairs if c > 0]),
        "raw_per_opponent_all": _stats(pairs),
        "final_survivors": _stats([r["final"] for r in rows]),
        "flagged": {
            "many": sum(1 for r in rows if r["many"]),
            "none": none,
            "none_with_raw": sum(1 for r in rows if r["none"] and r["raw"] > 0),
            "no_raw": sum(1 for r in rows if r["raw"] == 0),
            "none_share": none / n if n else None,
        },
        "emptied_by": emptied,
        "seed_expects": dict(SEED_EXPECTS),
    }


# ---------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------
def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailableError("the funnel plot needs matplotlib: pip install 'monopoly-trade[plot]'") from None
    return plt


def require_plot() -> None:
    """Raise :class:`PlotUnavailableError` now if the funnel plot cannot be drawn.

    Raises
    ------
    PlotUnavailableError
        matplotlib (the ``plot`` extra) is not installed.
    """
    _pyplot()


def project_version() -> str:
    """The installed package's version (:func:`solver.version.package_version`)."""
    from solver.version import package_version

    return package_version()


def default_meta(settings: TradeSettings | None = None, **extra: Any) -> dict[str, Any]:
    """The ``meta`` of a report: version, settings, and what the caller adds (seed, sampling, timing)."""
    st = settings or TradeSettings()
    return {"version": project_version(), "settings": asdict(st), "many_threshold": MANY, **extra}


def _fmt(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def _verdict(summary: dict[str, Any]) -> list[str]:
    out = []
    rpo = summary["raw_per_opponent"]
    if rpo["n"]:
        lo, hi = 100, 200
        where = "within" if lo <= rpo["median"] <= hi else ("below" if rpo["median"] < lo else "above")
        out.append(f"- Raw per opponent: median {_fmt(rpo['median'])}, p90 {_fmt(rpo['p90'])} ({where} the seed's 100-200).")
    fin = summary["final_survivors"]
    if fin["n"]:
        lo, hi = 5, 20
        where = "within" if lo <= fin["median"] <= hi else ("below" if fin["median"] < lo else "above")
        out.append(f"- Final survivors per proposer: median {_fmt(fin['median'])}, p90 {_fmt(fin['p90'])} ({where} the seed's 5-20).")
    fl = summary["flagged"]
    n = summary["rows"]
    if n:
        out.append(f"- More than {MANY} survivors: {fl['many']} of {n} rows ({'rules need tightening' if fl['many'] else 'never'}).")
        share = fl["none_share"]
        most = share > 0.5
        out.append(
            f"- No survivor: {fl['none']} of {n} rows ({100 * share:.0f}%; {fl['no_raw']} had no raw candidate at all, "
            f"{fl['none_with_raw']} were pruned to nothing) - "
            + ("most rows: by the seed's test the rules look too aggressive." if most else "not most rows.")
        )
    return out


def render_markdown(rows: Sequence[dict[str, Any]], summary: dict[str, Any], meta: dict[str, Any], *, max_listed: int = 60) -> str:
    """The text of ``report.md``."""
    lines = ["# Pruning validation (seed 000, Test 3)", ""]
    lines.append(f"monopoly-trade {meta.get('version', '?')}. {meta.get('sampling', '')}".rstrip())
    lines.append("")
    lines.append(
        f"{summary['states']} states, {summary['rows']} (state, proposer) rows: for each active player as proposer, "
        "the explicit funnel (`solver.trades.candidates.run_funnel`) with the true values (`frontier_value + cash`) and "
        "the default cash reserves. Survivors are counted after each rule, in order."
    )
    games = meta.get("games")
    if games and games.get("states_per_game"):
        per = games["states_per_game"]
        top = max(range(len(per)), key=lambda i: per[i])
        lines.append("")
        lines.append(
            f"States per game: median {_fmt(float(np.median(per)))}, most {per[top]} (game {top}); a game that runs "
            "to the round cap gives up to one state per sampled round, so long games weigh more."
        )
    if meta.get("cycles"):
        lines.append("")
        lines.append("3-cycles are included in the candidates.")
    lines += ["", "## The seed's expectations", ""]
    lines.append(
        "Seed 000 expects \"from ~100-200 raw candidates per opponent down to ~5-20 serious candidates total\", and "
        "flags a state when more than 100 survive (the rules need tightening) or when none survive in most states "
        "(the rules are too aggressive). What was found, whatever it is:"
    )
    lines.append("")
    lines += _verdict(summary)
    lines += ["", "## Survivors after each stage", ""]
    lines.append(f"Over the rows; percentiles by {summary['percentile_method']}.")
    lines += ["", "| stage | median | p90 | mean | max |", "|---|---:|---:|---:|---:|"]
    for k in STAGES:
        s = summary["stages"][k]
        lines.append(f"| {k} | {_fmt(s['median'])} | {_fmt(s['p90'])} | {_fmt(s['mean'])} | {_fmt(s['max'])} |")
    rpo, rall, fin = summary["raw_per_opponent"], summary["raw_per_opponent_all"], summary["final_survivors"]
    lines += ["", "| quantity | seed expects | median | p90 | n |", "|---|---|---:|---:|---:|"]
    lines.append(f"| raw per opponent (pairs with any candidate) | ~100-200 | {_fmt(rpo['median'])} | {_fmt(rpo['p90'])} | {rpo['n']} |")
    lines.append(f"| raw per opponent (every pair) | ~100-200 | {_fmt(rall['median'])} | {_fmt(rall['p90'])} | {rall['n']} |")
    lines.append(f"| final survivors per proposer | ~5-20 | {_fmt(fin['median'])} | {_fmt(fin['p90'])} | {fin['n']} |")
    lines += ["", "Rule that emptied the funnel (rows with raw candidates and no survivor):", ""]
    lines += [f"- {r}: {c}" for r, c in summary["emptied_by"].items()]
    lines += ["", "![funnel](funnel.png)", "", "## Flagged states", ""]
    flagged = [r for r in rows if r["many"] or (r["none"] and r["raw"] > 0)]
    fl = summary["flagged"]
    lines.append(
        f"{fl['many']} rows with more than {MANY} survivors, {fl['none']} with none ({fl['no_raw']} of them without any raw "
        "candidate, not listed). Every row is in `report.json`."
    )
    if flagged:
        lines += ["", "| state | proposer | flag | " + " | ".join(STAGES) + " | emptied by |", "|---|---|---|" + "---:|" * len(STAGES) + "---|"]
        for r in flagged[:max_listed]:
            flag = "many" if r["many"] else "none"
            counts = " | ".join(str(r["stages"][k]) for k in STAGES)
            lines.append(f"| {r['label']} | {r['proposer']} | {flag} | {counts} | {r['emptied_by'] or '-'} |")
        if len(flagged) > max_listed:
            lines.append(f"\n... and {len(flagged) - max_listed} more (see `report.json`).")
    lines += ["", "## Settings", "", "```json", json.dumps(meta.get("settings", {}), sort_keys=True), "```", ""]
    timing = meta.get("timing")
    if timing:
        lines.append("Timing (s): " + ", ".join(f"{k} {v:.1f}" for k, v in timing.items()))
        lines.append("")
    return "\n".join(lines)


def plot_funnel(summary: dict[str, Any], title: str = "Pruning funnel") -> bytes:
    """PNG of the median and p90 survivors per stage (symmetric log scale, so 0 shows)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    try:
        xs = list(range(len(STAGES)))
        for key, style in (("median", "o-"), ("p90", "s--")):
            ys = [summary["stages"][k][key] for k in STAGES]
            ax.plot(xs, [np.nan if y is None else y for y in ys], style, label=key)
        ax.axhline(MANY, color="tab:red", lw=0.8, ls=":", label=f"> {MANY}: too many")
        ax.axhspan(5, 20, color="tab:green", alpha=0.12, label="seed: 5-20 at the end")
        ax.set_yscale("symlog", linthresh=1)
        ax.set_xticks(xs)
        ax.set_xticklabels(["raw", *(f"after {r}" for r in RULES)], rotation=20)
        ax.set_ylabel("candidates per (state, proposer)\n(log scale, linear below 1)")
        ax.set_title(f"{title} ({summary['rows']} rows)")
        ax.legend(fontsize=8)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110)
    finally:
        plt.close(fig)
    return buf.getvalue()


def write_report(rows: Sequence[dict[str, Any]], summary: dict[str, Any], out_dir: str | os.PathLike[str], *, meta: dict[str, Any]) -> dict[str, Path]:
    """Write ``report.md``, ``report.json`` and ``funnel.png`` to ``out_dir`` (created), each atomically.

    The plot is drawn first: without matplotlib nothing is written.

    Parameters
    ----------
    rows, summary:
        :func:`funnel_rows`'s rows and :func:`summarize`'s summary of them.
    out_dir:
        The folder (created when missing).
    meta:
        The report's ``meta`` (:func:`default_meta`).

    Returns
    -------
    dict[str, Path]
        The paths written, by kind (``json``, ``md``, ``png``).

    Raises
    ------
    PlotUnavailableError
        matplotlib (the ``plot`` extra) is not installed.
    """
    png = plot_funnel(summary)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    doc = {"meta": meta, "summary": summary, "rows": list(rows)}
    text = json.dumps(doc, indent=1, allow_nan=False) + "\n"
    paths = {"json": out / "report.json", "md": out / "report.md", "png": out / "funnel.png"}
    atomic_write(paths["json"], text.encode("utf-8"))
    atomic_write(paths["md"], render_markdown(rows, summary, meta).encode("utf-8"))
    atomic_write(paths["png"], png)
    return paths


class Timer:
    """Wall-clock sections for ``meta["timing"]``."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self._t0 = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.times[name] = round(now - self._t0, 3)
        self._t0 = now


__all__ = [
    "MANY",
    "PERCENTILE_METHOD",
    "SEED_EXPECTS",
    "STAGES",
    "NoReserveError",
    "PlotUnavailableError",
    "Timer",
    "default_meta",
    "funnel_rows",
    "plot_funnel",
    "render_markdown",
    "require_plot",
    "sample_game_states",
    "summarize",
    "write_report",
]
