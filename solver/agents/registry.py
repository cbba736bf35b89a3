"""One registry of agents, resolved by name: ``name`` or ``name:key=value[,key=value]``.

Later agents (``subgraph``, ``value``, ...) join with :func:`register`. The
engine never imports this module: tournaments and games receive factories
``f(seed) -> Agent`` built here.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.rules.agents import RandomAgent
from engine.rules.protocol import Agent
from engine.rules.seeding import SeedLike
from models.errors import UnknownNameError
from solver.agents.strategic import StrategicTradeAgent

AgentFactory = Callable[[SeedLike], Agent]


class UnknownAgentError(UnknownNameError):
    """An agent name or option the registry does not know, or an option value it refuses (one line)."""


Limit = tuple[float, float] | tuple[str, ...]
"""An option's allowed values: ``(lowest, highest)`` for a number, the choices for a string."""


@dataclass(frozen=True)
class AgentEntry:
    """One registered agent: its name, its class and a one-line summary.

    Attributes
    ----------
    name : str
        The name ``--agents`` uses.
    cls : type
        The agent's class, built as ``cls(seed, **options)``.
    summary : str
        What ``monopoly-trade agents`` prints for it.

    Examples
    --------
    >>> entry, _ = parse_spec("random")
    >>> entry.options(), entry.limits()
    ({'p_stop': 0.6, 'p_trade': 0.15}, {'p_stop': (0.0, 1.0), 'p_trade': (0.0, 1.0)})
    >>> entry.describe_options()
    'p_stop=0.6 [0.0..1.0], p_trade=0.15 [0.0..1.0]'
    """

    name: str
    cls: type
    summary: str

    def options(self) -> dict[str, Any]:
        """Keyword options with their defaults (those of simple types only).

        Returns
        -------
        dict of str to object
            Option -> default, read from the class's signature (``seed`` left out).
        """
        out = {}
        for p in inspect.signature(self.cls).parameters.values():
            if p.name != "seed" and p.default is not p.empty and isinstance(p.default, (bool, int, float, str)):
                out[p.name] = p.default
        return out

    def limits(self) -> dict[str, Limit]:
        """The allowed values of each non-boolean option (the class's ``OPTION_LIMITS``, enforced by its constructor).

        Returns
        -------
        dict of str to Limit
            Option -> ``(lowest, highest)`` or its choices.
        """
        return dict(getattr(self.cls, "OPTION_LIMITS", {}))

    def describe_options(self) -> str:
        """``name=default [lo..hi]`` or ``name=default {a|b}`` for every option, for listings.

        Returns
        -------
        str
            The options, comma-separated.
        """
        limits = self.limits()
        parts = []
        for key, default in self.options().items():
            lim = limits.get(key)
            if lim is None:
                parts.append(f"{key}={default}")
            elif isinstance(lim[0], str):
                parts.append(f"{key}={default} {{{'|'.join(str(x) for x in lim)}}}")
            else:
                parts.append(f"{key}={default} [{lim[0]}..{lim[1]}]")
        return ", ".join(parts)


_REGISTRY: dict[str, AgentEntry] = {}


def register(name: str, cls: type, summary: str) -> None:
    """Register an agent class under ``name`` (a name registered again is replaced).

    Parameters
    ----------
    name : str
        The name ``--agents`` and :func:`parse_spec` use.
    cls : type
        The class, built as ``cls(seed, **options)``; its keyword options of simple types are
        the spec's options, its ``OPTION_LIMITS`` their ranges.
    summary : str
        One line for listings.

    Examples
    --------
    >>> from engine.rules.agents import RandomAgent
    >>> before = parse_spec("random")[0]
    >>> register("random", RandomAgent, before.summary)  # the same entry again: it replaces itself
    >>> parse_spec("random")[0] == before
    True
    """
    _REGISTRY[name] = AgentEntry(name, cls, summary)


register("random", RandomAgent, "random legal choices (shakes the engine)")
register("strategic", StrategicTradeAgent, "heuristic baseline: reserves, static values, set-completing swaps")


def _register_solver_agents() -> None:
    from solver.agents.subgraph_agent import SubgraphTradeAgent

    register("subgraph", SubgraphTradeAgent, "the solver: CP-SAT trade search re-scored by simulation, strategic habits otherwise")
    from solver.agents.value_agent import ValueAgent

    register("value", ValueAgent, "seed 002's agent: argmax of the state value V(s') over moves passing the two bankruptcy conditions")
    from solver.agents.adversary import AdversaryAgent

    register("adversary", AdversaryAgent, "white-box exploit search: offers its target's own acceptance code accepts and a larger simulation says hurt it")


_register_solver_agents()


def entries() -> list[AgentEntry]:
    """Every registered agent, in registration order.

    Returns
    -------
    list of AgentEntry
        The entries.

    Examples
    --------
    >>> [e.name for e in entries()]
    ['random', 'strategic', 'subgraph', 'value', 'adversary']
    """
    return list(_REGISTRY.values())


def listing() -> str:
    """What ``monopoly-trade agents`` prints: each agent's name and summary, and its options with
    their defaults and ranges.

    Returns
    -------
    str
        The text, one agent per line and its options on the next.

    Examples
    --------
    >>> listing().splitlines()[0]
    'random: random legal choices (shakes the engine)'
    """
    lines = []
    for entry in entries():
        lines.append(f"{entry.name}: {entry.summary}")
        opts = entry.describe_options()
        if opts:
            lines.append(f"  options: {opts}")
    return "\n".join(lines) + "\n"


MAX_OPTION_CHARS = 256
"""Longest option value read (longer text is refused before any conversion). 256: the
``adversary``'s ``target=`` carries a whole agent spec, and the kept runs' specs grow as
defaults change (``bench/relabel.py`` spells out the old ones): the longest, 152 characters,
``subgraph:tiebreak=no_loss/answer_check=trading/answer_sets=any/check_pricing=answer/check_mortgage=answer/check_horizon=0/check_z=1.645/check_margin=0.0``."""


def _convert(value: str, default: Any, where: str) -> Any:
    """``value`` as the type of ``default`` (one-line errors naming ``where``); the option's range is checked
    by the agent's constructor (:func:`engine.rules.agents.check_options`), which :func:`parse_spec` calls."""
    shown = value if len(value) <= 20 else value[:20] + "..."
    if len(value) > MAX_OPTION_CHARS:
        raise UnknownAgentError(f"{where}: {shown!r} is longer than {MAX_OPTION_CHARS} characters")
    if isinstance(default, bool):
        if value.lower() in ("1", "true", "yes", "on"):
            return True
        if value.lower() in ("0", "false", "no", "off"):
            return False
        raise UnknownAgentError(f"{where}: {shown!r} is not a valid {type(default).__name__}")
    try:
        if isinstance(default, int):
            return int(value)
        if not isinstance(default, float):
            return value
        number = float(value)
    except ValueError:
        raise UnknownAgentError(f"{where}: {shown!r} is not a valid {type(default).__name__}") from None
    if not math.isfinite(number):
        raise UnknownAgentError(f"{where}: {shown!r} is not a finite number")
    return number


def parse_spec(spec: str) -> tuple[AgentEntry, dict[str, Any]]:
    """``strategic:reserve=200,premium=0.3`` -> (entry, {"reserve": 200, "premium": 0.3}).

    Each value is converted to its default's type, and the class is built once with the
    options so that its constructor checks their ranges now, not in a worker.

    Parameters
    ----------
    spec : str
        ``name`` or ``name:key=value,key=value``.

    Returns
    -------
    tuple of (AgentEntry, dict)
        The entry and the options.

    Raises
    ------
    UnknownAgentError
        An unknown agent or option, a value that does not convert, or one the agent refuses.

    Examples
    --------
    >>> entry, options = parse_spec("random:p_stop=0.5")
    >>> entry.name, options
    ('random', {'p_stop': 0.5})
    >>> parse_spec("random:p_stop=2")
    Traceback (most recent call last):
    ...
    solver.agents.registry.UnknownAgentError: agent 'random': option 'p_stop': 2.0 is outside 0.0..1.0
    >>> parse_spec("greedy")
    Traceback (most recent call last):
    ...
    solver.agents.registry.UnknownAgentError: unknown agent 'greedy' (known: adversary, random, strategic, subgraph, value)
    """
    name, _, rest = spec.strip().partition(":")
    if name not in _REGISTRY:
        raise UnknownAgentError(f"unknown agent {name!r} (known: {', '.join(sorted(_REGISTRY))})")
    entry = _REGISTRY[name]
    options = entry.options()
    kwargs: dict[str, Any] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or key not in options:
                raise UnknownAgentError(
                    f"agent {name!r}: unknown option {key!r} (options: {', '.join(sorted(options)) or 'none'})"
                )
            kwargs[key] = _convert(value.strip(), options[key], f"agent {name!r} option {key!r}")
    try:  # the constructor checks every option's range (and combinations), now rather than in a worker
        entry.cls(0, **kwargs)
    except ValueError as err:
        raise UnknownAgentError(f"agent {name!r}: {str(err).splitlines()[0] if str(err) else 'refused its options'}") from None
    return entry, kwargs


@dataclass(frozen=True)
class AgentMaker:
    """A picklable factory ``f(seed) -> Agent`` (it crosses process boundaries in tournaments).

    Attributes
    ----------
    cls : type
        The agent's class.
    kwargs : tuple of (str, object) pairs
        Its options, sorted.

    Examples
    --------
    >>> from engine.rules.agents import RandomAgent
    >>> make = AgentMaker(RandomAgent, (("p_stop", 0.5),))
    >>> agent = make(7)
    >>> type(agent).__name__, agent.p_stop
    ('RandomAgent', 0.5)
    """

    cls: type
    kwargs: tuple[tuple[str, Any], ...] = ()

    def __call__(self, seed: SeedLike) -> Agent:
        agent: Agent = self.cls(seed, **dict(self.kwargs))
        return agent


def factory(spec: str) -> AgentFactory:
    """A factory ``f(seed) -> Agent`` for an agent spec (checked now, built later).

    Parameters
    ----------
    spec : str
        As :func:`parse_spec`.

    Returns
    -------
    AgentFactory
        An :class:`AgentMaker`.

    Examples
    --------
    >>> factory("random:p_stop=0.5")
    AgentMaker(cls=<class 'engine.rules.agents.RandomAgent'>, kwargs=(('p_stop', 0.5),))
    """
    entry, kwargs = parse_spec(spec)
    return AgentMaker(entry.cls, tuple(sorted(kwargs.items())))


def split_agents(specs: str) -> list[str]:
    """``--agents`` text split into agent specs, without resolving them.

    Commas separate agents, except inside a ``name:key=value,key=value`` option list: an item
    containing ``=`` and no ``:`` continues the options of the agent before it. Items are
    stripped; an empty item stays (as ``""``) for the caller to refuse.

    Parameters
    ----------
    specs : str
        The ``--agents`` text.

    Returns
    -------
    list of str
        The specs, in order.

    Examples
    --------
    >>> split_agents("strategic,random:p_stop=0.5,p_trade=0.1,random")
    ['strategic', 'random:p_stop=0.5,p_trade=0.1', 'random']
    """
    items: list[str] = []
    for part in specs.split(","):
        part = part.strip()
        if part and "=" in part and ":" not in part and items:
            items[-1] += "," + part
        else:
            items.append(part)
    return items


def parse_agents(specs: str) -> list[tuple[str, AgentFactory]]:
    """``"strategic,random:p_stop=0.5,random"`` -> [(spec, factory), ...].

    The specs as :func:`split_agents` splits them, each resolved by :func:`factory`.

    Parameters
    ----------
    specs : str
        The ``--agents`` text.

    Returns
    -------
    list of (str, AgentFactory)
        Each agent's spec and factory, in order.

    Raises
    ------
    UnknownAgentError
        An empty name, or any error of :func:`parse_spec`.

    Examples
    --------
    >>> [spec for spec, _ in parse_agents("strategic,random:p_stop=0.5,p_trade=0.1,random")]
    ['strategic', 'random:p_stop=0.5,p_trade=0.1', 'random']
    >>> parse_agents("strategic,,random")
    Traceback (most recent call last):
    ...
    solver.agents.registry.UnknownAgentError: empty agent name in --agents
    """
    items = split_agents(specs)
    if "" in items:
        raise UnknownAgentError("empty agent name in --agents")
    return [(item, factory(item)) for item in items]


def _resolve_adversary_targets() -> None:
    from solver.agents.adversary import use_resolver

    use_resolver(factory)  # the adversary resolves its target's spec here (it cannot import this module)


_resolve_adversary_targets()
