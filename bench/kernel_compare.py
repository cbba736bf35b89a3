"""This checkout's batch kernel against another checkout's: the same games, and the speed, paired.

    python bench/kernel_compare.py --base PATH [--what games|speed|both] [--games N] [--reps R]

``PATH`` is the root of another checkout of this repository (a git worktree
of an older commit, say). Both kernels (``engine/sim/_kernel.py`` with its
``engine/sim/rollout_tables.py``) are loaded into this one process under their own
module names, from copies in a cache folder named by their contents (so that
numba's on-disk cache of the real module is never written under another
name, which would break it; the first run compiles each copy, about a minute).

``games``: every bundled instance and the opening with 2, 4 and 6 players,
under every rule preset, with seven rollout policies (the default, four
variants and two per-seat mixes), ``--games`` games each (default 300,
horizon 60 rounds), the same keys for both kernels. Every output of
:func:`engine.sim._kernel.run_batch` (player-turns, winners, net worths, turns,
rounds, end reasons and end states) is compared; the script prints the
configurations that differ and exits 1 if any does. A kernel change meant to
change no game must pass this, beside the differential test against the
reference engine.

``speed``: the same 4,000 games (``--games`` sets it) from the opening and
from ``instances/midgame-no-monopolies.json`` (horizon 100, default policy,
one thread), the two kernels alternating (ABBA), ``--reps`` times each (default 8);
prints the fastest run of each in M player-turns/s (CPU time), their ratio,
and the median of the ratios of the runs paired round by round.
Alternating in one process is what makes the figure mean something on a
machine whose speed drifts.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.rules.streams import stream_keys  # noqa: E402
from engine.sim.rollout_policy import RolloutPolicy  # noqa: E402
from models.io import load_state  # noqa: E402
from models.rules import PRESETS  # noqa: E402
from models.state import GameState  # noqa: E402


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def load_kernel(tree: Path, tag: str) -> tuple[ModuleType, ModuleType]:
    """``(kernel, tables)`` of the checkout at ``tree``, as modules ``kernel_<tag>`` and
    ``tables_<tag>`` loaded from copies in a folder named by the kernel's contents."""
    # engine/sim/ since 0.2; engine/ before: both layouts load, their imports of the kernel's
    # helper (_nowrap) and of the kernel itself pointed at this process's modules.
    sim = tree / "engine" / "sim"
    folder_of = sim if (sim / "_kernel.py").exists() else tree / "engine"
    src = (folder_of / "_kernel.py").read_text().replace("from engine import _nowrap", "from engine.sim import _nowrap")
    tables_src = (folder_of / "rollout_tables.py").read_text().replace("from engine import _kernel as k", "from engine.sim import _kernel as k")
    if "from engine.sim import _kernel as k" not in tables_src:
        raise SystemExit(f"{tree}: rollout_tables.py does not import the kernel as expected")
    digest = hashlib.sha256((src + tables_src).encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / "kernel-compare" / digest
    folder.mkdir(parents=True, exist_ok=True)
    kpath, tpath = folder / f"kernel_{tag}.py", folder / f"tables_{tag}.py"
    if not kpath.exists() or kpath.read_text() != src:
        kpath.write_text(src)
    tsrc = tables_src.replace("from engine.sim import _kernel as k", f"import kernel_{tag} as k")
    if not tpath.exists() or tpath.read_text() != tsrc:
        tpath.write_text(tsrc)
    sys.path.insert(0, str(folder))
    return _load(f"kernel_{tag}", kpath), _load(f"tables_{tag}", tpath)


def _play(kernel: ModuleType, tables_mod: ModuleType, state: GameState, policy: object, keys: np.ndarray, horizon: int) -> tuple[object, ...]:
    tables = tables_mod.encode(state, policy, state.round + horizon)
    n, p, s = len(keys), tables.n_players, state.board.size
    w, worths, info = np.empty(n, np.int64), np.empty((n, p), np.int64), np.empty((n, 3), np.int64)
    final = np.empty((n, 2 * p + 3 * s), np.int64)
    t = time.process_time()
    turns = kernel.run_batch(tables.B, tables.X0, tables.work(), keys, w, worths, info, np.zeros((0, 1), np.int64), final)
    return time.process_time() - t, int(turns), w, worths, info, final


def _states() -> list[tuple[str, GameState]]:
    out = [(f"opening-{n}", GameState.new_game([chr(65 + i) for i in range(n)])) for n in (2, 4, 6)]
    out += [(path.stem, load_state(path)) for path in sorted((ROOT / "instances").glob("*.json"))]
    return out


POLICIES: tuple[object, ...] = (
    None,
    RolloutPolicy(sell_premium=0, build_reserve=0),
    RolloutPolicy(mortgage_to_build=False, jail="pay"),
    RolloutPolicy(trade=False),
    RolloutPolicy(max_level=3, unmortgage_reserve=0),
    "mixed-a",
    "mixed-b",
)


def _policy(spec: object, n_players: int) -> object:
    if spec == "mixed-a":  # a held seat among trading ones
        return tuple(RolloutPolicy(trade=q != 0) for q in range(n_players))
    if spec == "mixed-b":
        return tuple(RolloutPolicy(sell_premium=30 * q, mortgage_to_build=q % 2 == 0) for q in range(n_players))
    return spec


def configurations(games: int) -> Iterator[tuple[str, GameState, object, np.ndarray]]:
    """The 504 configurations: ``(label, state, policy, keys)`` for every start of
    :func:`_states`, every rule preset and every policy of :data:`POLICIES`, with
    ``games`` keys of its own."""
    for name, state0 in _states():
        for preset, rules in PRESETS.items():
            state = state0.copy()
            state.rules = rules
            state.pot = rules.free_parking_seed
            state.bank_cash = rules.bank_cash
            for i, spec in enumerate(POLICIES):
                keys = stream_keys(int(hashlib.sha256(f"{name}/{preset}/{i}".encode()).hexdigest()[:8], 16), games)
                yield f"{name}, {preset}, policy {i}", state, _policy(spec, len(state.players)), keys


def same_games(base: tuple[ModuleType, ModuleType], here: tuple[ModuleType, ModuleType], games: int) -> int:
    configs = differ = 0
    for label, state, policy, keys in configurations(games):
        a = _play(*base, state, policy, keys, 60)[1:]
        b = _play(*here, state, policy, keys, 60)[1:]
        configs += 1
        if a[0] != b[0] or not all(np.array_equal(x, y) for x, y in zip(a[1:], b[1:])):
            differ += 1
            print(f"DIFFERENT: {label}: {a[0]} against {b[0]} player-turns")
    print(f"{configs} configurations x {games} games: {differ} differ")
    return differ


def speed(base: tuple[ModuleType, ModuleType], here: tuple[ModuleType, ModuleType], games: int, reps: int) -> None:
    keys = stream_keys(1, games)
    starts = [("opening", GameState.new_game(["A", "B", "C", "D"])), ("mid-game", load_state(ROOT / "instances" / "midgame-no-monopolies.json"))]
    secs: dict[tuple[str, str], list[float]] = {}
    turns: dict[tuple[str, str], int] = {}
    for r in range(reps):
        for label, state in starts:
            order = (("base", base), ("this", here)) if r % 2 == 0 else (("this", here), ("base", base))  # ABBA
            for who, k in order:
                t, n = _play(*k, state, None, keys, 100)[:2]
                secs.setdefault((label, who), []).append(t)
                turns[(label, who)] = n
    for label, _ in starts:
        a, b = secs[(label, "base")], secs[(label, "this")]
        ta, tb = turns[(label, "base")], turns[(label, "this")]
        ratio = float(np.median(np.array(a) / np.array(b)))  # each run against its partner of the same round
        print(
            f"{label:9s} base {ta / min(a) / 1e6:5.2f} M player-turns/s, this {tb / min(b) / 1e6:5.2f} M/s: "
            f"{min(a) / min(b):.2f}x fastest, {ratio:.3f}x median of pairs ({games} games, {reps} runs each, ABBA)"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="root of the other checkout")
    ap.add_argument("--what", choices=("games", "speed", "both"), default="both")
    ap.add_argument("--games", type=int, default=None, help="games per configuration (300) or per speed run (4000)")
    ap.add_argument("--reps", type=int, default=8)
    args = ap.parse_args(argv)
    if not any((args.base / "engine" / sub / "_kernel.py").is_file() for sub in ("sim", "")):
        print(f"{args.base}: no engine/sim/_kernel.py (nor engine/_kernel.py) there", file=sys.stderr)
        return 2
    base, here = load_kernel(args.base.resolve(), "base"), load_kernel(ROOT, "this")
    differ = 0
    if args.what in ("games", "both"):
        differ = same_games(base, here, args.games or 300)
    if args.what in ("speed", "both"):
        speed(base, here, args.games or 4000, args.reps)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
