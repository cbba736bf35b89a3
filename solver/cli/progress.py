"""Progress bars for long jobs (``tournament``, ``trial``, ``prune-report``, the benches).

A :class:`GameBar` is a ``tqdm`` bar on stderr: games done, games per second,
time left, and, from each finished game's row (its ``winner`` label), the win
rate of the leading agents with their 95% Wilson intervals. It is off when
stderr is not a terminal (a log file, a pipe, captured output) or with ``-q``,
and it never writes to stdout, so ``--json`` and ``--out -`` output is
unchanged. A resumed run starts the bar at the games already done (their rows
are counted too).
"""

from __future__ import annotations

import logging
import sys
from collections import Counter
from collections.abc import Iterable
from typing import Any

log = logging.getLogger(__name__)


def bar_enabled(quiet: bool = False) -> bool:
    """Bars are drawn only on a terminal, and never with ``-q``."""
    return not quiet and sys.stderr.isatty()


class GameBar:
    """``bar(done, total, row)`` after each finished game (module docstring)."""

    def __init__(self, total: int, desc: str, *, quiet: bool = False, done_rows: Iterable[dict[str, Any]] = (), show: int = 2) -> None:
        from tqdm import tqdm  # imported here: commands without a bar do not pay for it

        self.wins: Counter[str] = Counter()
        self.games = 0
        self.show = show
        for row in done_rows:
            self._count(row)
        self.bar = tqdm(
            total=total,
            initial=self.games,
            desc=desc,
            unit="game",
            file=sys.stderr,
            disable=not bar_enabled(quiet),
            dynamic_ncols=True,
            mininterval=0.5,
            smoothing=0.1,
        )

    def _count(self, row: dict[str, Any]) -> None:
        self.games += 1
        if row.get("winner") is not None:
            self.wins[str(row["winner"])] += 1

    def postfix(self) -> str:
        """The leading agents' win rates with their 95% intervals, e.g. ``subgraph 0.53 [0.49, 0.57]``."""
        from engine.tournament import wilson

        parts = []
        for label, w in self.wins.most_common(self.show):
            lo, hi = wilson(w, self.games)
            parts.append(f"{label} {w / self.games:.2f} [{lo:.2f}, {hi:.2f}]")
        return "; ".join(parts)

    def __call__(self, done: int, total: int, row: dict[str, Any] | None = None) -> None:
        if row is not None:
            self._count(row)
            log.debug("game %s done (%d/%d): winner %s", row.get("game"), done, total, row.get("winner"))
        self.bar.set_postfix_str(self.postfix(), refresh=False)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        self.bar.close()

    def __enter__(self) -> GameBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def bar(total: int, desc: str, unit: str, *, quiet: bool = False) -> Any:
    """A plain ``tqdm`` bar on stderr (states, trials): same rules as :class:`GameBar`."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=not bar_enabled(quiet), dynamic_ncols=True, mininterval=0.5)


__all__ = ["GameBar", "bar", "bar_enabled"]
