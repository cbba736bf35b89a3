"""``python -m solver`` runs the ``monopoly-trade`` command line."""

from solver.cli import run

run()
