"""Bidding games and auctions (seed 003).

Modules, one job each:

- :mod:`solver.bidding.graph`: the game on a digraph (validation, the shared preparation, the
  optimal moves for given costs, the JSON form, :class:`~solver.bidding.graph.BiddingGameError`).
- :mod:`solver.bidding.richman`: exact, certified Richman costs, finite-horizon costs and bids.
- :mod:`solver.bidding.poorman`: Poorman costs and bids.
- :mod:`solver.bidding.auction`: the auction policy (how much to bid for a lot).
"""
