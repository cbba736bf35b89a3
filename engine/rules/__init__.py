"""The reference rules engine: how a game moves, readable and complete.

Modules, one job each:

- :mod:`engine.rules.game`: :class:`~engine.rules.game.Game`, the turn loop and the end of
  the game (its docstring lists each rule and each choice the rule book leaves open, and
  which module holds it).
- The rules by job, functions of the game that ``Game`` binds as its methods:
  :mod:`engine.rules.movement` (dice, moves, Go, jail), :mod:`engine.rules.squares`
  (what a square does, rent, the Free Parking pot), :mod:`engine.rules.cards` (the decks,
  the cards, held Get Out of Jail Free cards), :mod:`engine.rules.auctions` (buying,
  auctions, the second-price rule), :mod:`engine.rules.money` (payments, raising cash,
  liquidation, bankruptcy, mortgaged lots received), :mod:`engine.rules.building`
  (building, the shortage auction, selling back, evening out), :mod:`engine.rules.trading`
  (trades) and :mod:`engine.rules.phases` (the agents' action phases and their budget).
- :mod:`engine.rules.legal`: what may be built, sold, mortgaged, lifted or traded now.
- :mod:`engine.rules.actions`: the actions an agent takes and the events a game emits.
- :mod:`engine.rules.protocol`: the agent protocol, :class:`~engine.rules.protocol.Agent`
  (what a seat is asked) and :data:`~engine.rules.protocol.EVENT_KINDS` (what it is told).
- :mod:`engine.rules.agents`: :class:`~engine.rules.agents.BaseAgent`,
  :class:`~engine.rules.agents.RandomAgent` (the protocol's reference answerer) and the
  check of an agent's options.
- :mod:`engine.rules.view`: the read-only view of a game that an agent sees.
- :mod:`engine.rules.streams`, :mod:`engine.rules.seeding`: chance as explicit, seeded
  streams of dice and cards; the one seeding helper.
- :mod:`engine.rules.invariants`: the invariants every state of a game keeps.

The lowest room of :mod:`engine`: it imports only :mod:`models`.
"""
