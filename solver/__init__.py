"""What to do: analysis, valuation, trade generation, re-scoring, bidding, decisions, CLI."""
