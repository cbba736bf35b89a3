"""The reference rules engine: how a game moves, readable and complete.

Modules, one job each:

- :mod:`engine.rules.game`: :class:`~engine.rules.game.Game`, the turn loop and every rule
  (its docstring lists each rule and each choice the rule book leaves open).
- :mod:`engine.rules.legal`: what may be built, sold, mortgaged, lifted or traded now.
- :mod:`engine.rules.actions`: the actions an agent takes and the events a game emits.
- :mod:`engine.rules.agents`: the agent protocol, :class:`~engine.rules.agents.BaseAgent`
  and :class:`~engine.rules.agents.RandomAgent` (the protocol's reference answerer).
- :mod:`engine.rules.view`: the read-only view of a game that an agent sees.
- :mod:`engine.rules.streams`, :mod:`engine.rules.seeding`: chance as explicit, seeded
  streams of dice and cards; the one seeding helper.
- :mod:`engine.rules.invariants`: the invariants every state of a game keeps.

The lowest room of :mod:`engine`: it imports only :mod:`models`.
"""
