"""``python -m solver`` runs the ``monopoly-trade`` command line."""

from solver.cli import main

raise SystemExit(main())
