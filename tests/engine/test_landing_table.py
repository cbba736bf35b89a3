"""The shipped simulated landing table agrees with the exact chain (two methods, one truth)."""

from __future__ import annotations

import numpy as np

from engine.chains.landing import default_landing_table, simulate_landings
from engine.chains.markov import PositionChain, columns
from models.board import standard_board
from models.rules import Rules


def exact_per_turn(policy: str = "long") -> tuple[np.ndarray, float]:
    chain = PositionChain(standard_board(), Rules(), policy)  # type: ignore[arg-type]
    lpt = chain.landings_per_turn
    cols = columns(40)
    return lpt[cols["plain"]] + lpt[cols["rr"]] + lpt[cols["ut"]], float(lpt[cols["jail"]][0])


def test_shipped_table_within_4_se_of_the_exact_chain() -> None:
    table = default_landing_table()
    assert table.n_turns == 2_000_000 and table.jail_policy == "long"
    exact, in_jail = exact_per_turn()
    se = np.array(table.se)
    mask = se > 0
    z = (np.array(table.per_turn) - exact)[mask] / se[mask]
    assert np.abs(z).max() < 4
    assert abs(table.in_jail - in_jail) < 4 * table.in_jail_se
    assert np.all(exact[~mask] == 0)  # Go To Jail is never a landing


def test_simulation_is_reproducible() -> None:
    a = simulate_landings(2000, seed=9, batches=10)
    b = simulate_landings(2000, seed=9, batches=10)
    assert a == b and a.n_turns == 2000
