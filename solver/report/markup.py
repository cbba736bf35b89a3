"""The markup helpers of the report page (:mod:`solver.html_report`): escaping, numbers as text, colours.

Every name from the state (players, squares, groups) goes through :func:`esc`
where it is written, in element text and in quoted attributes alike: a state
file is hostile input. Numbers in SVG coordinates go through :func:`num` (two
decimals, no exponent, so that the page is the same on every machine).
Seats take the eight :data:`PLAYER_COLOURS` (cards, tokens, owner discs, bars,
arrows); groups their :data:`GROUP_COLOURS` band, or a colour hashed from the
name (:func:`group_colour`).
"""

from __future__ import annotations

import html
import math
import zlib
from collections.abc import Mapping
from typing import Any

from models.board import HOTEL

__all__ = [
    "ACTION_TITLES",
    "GROUP_COLOURS",
    "PLAYER_COLOURS",
    "Z95",
    "esc",
    "group_colour",
    "initial",
    "level_text",
    "num",
    "pct",
    "player_colour",
    "plus_minus",
    "short",
    "signed",
]

Z95 = 1.96
"""Half-width of the error bars in standard errors (a 95% normal interval)."""

PLAYER_COLOURS = ("#c0392b", "#1f6fb2", "#1e8449", "#7d3c98", "#d35400", "#117a8b", "#6e4b2a", "#b0306f")
"""One colour per seat (a state has at most 8 players); seat ``k`` takes ``PLAYER_COLOURS[k % 8]``."""

GROUP_COLOURS: Mapping[str, str] = {
    "brown": "#8b4513",
    "light_blue": "#9fd8f5",
    "pink": "#d93a96",
    "orange": "#f7941d",
    "red": "#e0201b",
    "yellow": "#f5e000",
    "green": "#1fa855",
    "dark_blue": "#0060a8",
    "railroad": "#3a3a3a",
    "utility": "#a8b3b8",
    "purple": "#7b3fa0",
    "blue": "#1f5fbf",
    "grey": "#8e8e8e",
    "gray": "#8e8e8e",
    "gold": "#d4a017",
    "black": "#222222",
    "white": "#eeeeee",
}
"""Band colours of the standard groups (and a few common names); other groups get :func:`group_colour`'s hash colour."""

ACTION_TITLES: Mapping[str, str] = {"propose_trade": "PROPOSE A TRADE", "build": "BUILD", "hold": "HOLD"}
"""The badge of each decision action."""


def esc(value: Any) -> str:
    """``value`` as text, HTML-escaped for element content and quoted attributes."""
    return html.escape(str(value), quote=True)


def num(x: float) -> str:
    """A coordinate for SVG: two decimals, no exponent."""
    return f"{x:.2f}".rstrip("0").rstrip(".") if math.isfinite(x) else "0"


def pct(p: float | None, digits: int = 1) -> str:
    """A probability as a percentage with ``digits`` decimals (``n/a`` when missing)."""
    return "n/a" if p is None else f"{100 * p:.{digits}f}%"


def signed(x: float | None, digits: int = 3) -> str:
    """A change with its sign and ``digits`` decimals (``n/a`` when missing)."""
    return "n/a" if x is None else f"{x:+.{digits}f}"


def short(name: str, width: int) -> str:
    """``name`` on one line of at most ``width`` characters (cut with an ellipsis)."""
    return name if len(name) <= width else name[: width - 1] + "\u2026"


def plus_minus(se: float | None) -> str:
    """`` ± 1.96 se`` (three decimals), or nothing when the standard error is missing."""
    return "" if se is None else f" \u00b1 {Z95 * se:.3f}"


def group_colour(group: str | None) -> str:
    """The band colour of ``group``: :data:`GROUP_COLOURS`, else a hue from a hash of its name (the same on every run).

    Parameters
    ----------
    group
        The group's name (any case); ``None`` for a square in no group.

    Returns
    -------
    str
        A CSS colour: ``#rrggbb`` for a known group and white for none, else ``hsl(h, 62%, 48%)``
        with ``h`` the CRC-32 of the name modulo 360.

    Examples
    --------
    >>> group_colour("Orange"), group_colour(None), group_colour("tangerine")
    ('#f7941d', '#ffffff', 'hsl(347, 62%, 48%)')
    """
    if group is None:
        return "#ffffff"
    known = GROUP_COLOURS.get(group.lower())
    if known is not None:
        return known
    hue = zlib.crc32(group.encode("utf-8")) % 360
    return f"hsl({hue}, 62%, 48%)"


def player_colour(seat: int) -> str:
    """The colour of seat ``seat`` (:data:`PLAYER_COLOURS`, cycled)."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def initial(name: str) -> str:
    """The first character of a name (a whole surrogate-free code point), upper-cased."""
    return name[:1].upper() or "?"


def level_text(level: int) -> str:
    """A building level in words (``2 houses``, ``a hotel``)."""
    return "a hotel" if level == HOTEL else f"{level} house" + ("" if level == 1 else "s")
