"""How a game moves: dice and card streams, the rules engine, agents, simulation.

Imports flow one way: ``models <- engine <- solver``.
"""
