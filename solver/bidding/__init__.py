"""Bidding games and auctions (seed 003).

Modules, one job each:

- :mod:`solver.bidding.games`: Richman and Poorman costs, bids and moves on a digraph.
- :mod:`solver.bidding.auction`: the auction policy (how much to bid for a lot).
"""
