"""Agents that play whole games, and the registry that names them.

Modules, one job each:

- :mod:`solver.agents.subgraph_agent`: ``SubgraphTradeAgent`` (``subgraph``), the decision engine in play.
- :mod:`solver.agents.value_agent`: ``ValueAgent`` (``value``), seed 002's agent.
- :mod:`solver.agents.strategic`: ``StrategicTradeAgent`` (``strategic``), the heuristic baseline.
- :mod:`solver.agents.opponent_model`: each opponent's acceptance, learned online.
- :mod:`solver.agents.registry`: one registry of agent specs (``name:key=value``).

``RandomAgent`` (``random``) lives with the agent protocol in :mod:`engine.rules.agents`:
it answers every question the reference engine asks, and the engine's tests play with it.
"""
