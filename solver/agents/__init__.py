"""Agents that play whole games, and the registry that names them.

Modules, one job each:

- :mod:`solver.agents.subgraph_agent`: ``SubgraphTradeAgent`` (``subgraph``), the decision engine in play.
- :mod:`solver.agents.value_agent`: ``ValueAgent`` (``value``), seed 002's agent.
- :mod:`solver.agents.registry`: one registry of agent specs (``name:key=value``).

The baseline ``StrategicTradeAgent`` and ``RandomAgent`` live in :mod:`engine`
(the rollout kernel and the reference engine need them).
"""
