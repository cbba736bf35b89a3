"""The parts of the visual report of ``monopoly-trade solve --html`` (the page itself: :mod:`solver.html_report`).

- :mod:`solver.report.markup`: escaping, numbers as text, the player and group colours;
- :mod:`solver.report.board`: the board's SVG and the player cards;
- :mod:`solver.report.action`: the recommended trade's arrows, the build plan, the reason to hold;
- :mod:`solver.report.charts`: the win-probability bars, the pruning funnel, the ruin curve;
- :mod:`solver.report.words`: the answer's words, shared with the text output of ``solve``.

Each part returns a fragment of HTML (inline SVG included) as a string;
:func:`solver.html_report.render_report` puts them in the page.
"""
