"""The agent's settings from a registry spec, for ``solve --agent SPEC`` (a named profile of ``subgraph``).

``subgraph`` is the default profile; ``subgraph:hold=false`` and any other spec of the agent's
options (``monopoly-trade agents`` lists them) name others. Only ``subgraph`` answers as modules
(:mod:`solver.decisions`).
"""

from __future__ import annotations

from solver.agents.registry import UnknownAgentError, parse_spec
from solver.decisions.settings import AgentSettings


def agent_settings(spec: str) -> AgentSettings:
    """The settings of a registry spec of the ``subgraph`` agent (``subgraph``, ``subgraph:hold=false``, ...).

    Parameters
    ----------
    spec : str
        The spec (:func:`solver.agents.registry.parse_spec`).

    Returns
    -------
    AgentSettings

    Raises
    ------
    UnknownAgentError
        An unknown agent or option, a value it refuses, or an agent other than ``subgraph``.

    Examples
    --------
    >>> agent_settings("subgraph:hold=false").hold
    False
    >>> agent_settings("strategic")
    Traceback (most recent call last):
    ...
    solver.agents.registry.UnknownAgentError: agent 'strategic': solve answers as the subgraph agent only (its decisions are modules: solver.decisions)
    """
    entry, options = parse_spec(spec)
    if entry.name != "subgraph":
        raise UnknownAgentError(f"agent {entry.name!r}: solve answers as the subgraph agent only (its decisions are modules: solver.decisions)")
    return AgentSettings(**options)


__all__ = ["agent_settings"]
