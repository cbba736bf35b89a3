"""Seeded head-to-head tournaments on local processes or Ray, resumable from their results file.

Modules: :mod:`engine.tournament.run` (seating, one game, the run and its
standings), :mod:`engine.tournament.results` (the results file: header,
reading, resuming, rewriting) and :mod:`engine.tournament.backends` (this
process, a process pool, Ray). The names below are the package's API.

Game ``i`` of a run seeded ``S`` is seeded by ``SeedSequence([S, i])``
(:func:`engine.rules.seeding.game_seed_sequence`) and seats the agents rotated by
``i`` (:func:`seating`): seat ``k`` gets agent ``(k + i) mod n``, so every
agent sits in every seat equally often over ``n`` consecutive games. Results
therefore do not depend on the number of workers or on the order in which
games finish, and ``monopoly-trade play --seed S --game i`` replays game
``i``.

Games run on local processes (``backend="local"``: in this process, or a
pool of ``workers`` processes) or as Ray tasks (``backend="ray"``: the
cluster at ``RAY_ADDRESS`` when set, else a local Ray instance with
``workers`` CPUs, shut down at the end if this run started it). Ray is an
optional dependency (the ``ray`` extra), imported only when asked for.

Each finished game is appended to the results file as one JSON line and
flushed at once: killing a run loses no finished game, and ``resume``
completes it without replaying or double-counting any game (a torn last line
is dropped). The file starts with a header line (:func:`results_header`:
the format, the agents as given, the seed, the round cap and the project's
version), and ``resume`` continues only a file whose header matches the run
(:func:`resumable_rows`): another run's file, a file without a header, or one
holding games at or beyond the requested count is refused with one line
(:class:`ResumeError`), so no row is ever mixed in or deleted. Lines that are
not a game (not UTF-8, not JSON, not an object with a game number) are
dropped and counted (:func:`read_results`). Agents reach the runner as picklable factories ``f(seed) ->
Agent``; the names of agents are resolved in :mod:`solver.agents.registry`, so this
module never imports ``solver``.

Win rates come with 95% Wilson score intervals (E. B. Wilson, "Probable
inference, the law of succession, and statistical inference", JASA 22, 1927).
"""

from engine.tournament.backends import (
    BACKENDS,
    BackendUnavailableError,
    UnknownBackendError,
    parallel_map,
)
from engine.tournament.results import (
    MAX_GAME,
    RESULTS_FORMAT,
    ResultsFile,
    ResumeError,
    project_version,
    read_results,
    read_rows,
    results_header,
    resumable_rows,
    rewrite_rows,
)
from engine.tournament.run import (
    AgentFactory,
    Standing,
    TournamentError,
    TournamentResult,
    play_one,
    run_tournament,
    seating,
    summarize,
    wilson,
)

__all__ = [
    "BACKENDS",
    "MAX_GAME",
    "RESULTS_FORMAT",
    "AgentFactory",
    "BackendUnavailableError",
    "ResultsFile",
    "ResumeError",
    "Standing",
    "TournamentError",
    "TournamentResult",
    "UnknownBackendError",
    "parallel_map",
    "play_one",
    "project_version",
    "read_results",
    "read_rows",
    "results_header",
    "resumable_rows",
    "rewrite_rows",
    "run_tournament",
    "seating",
    "summarize",
    "wilson",
]
