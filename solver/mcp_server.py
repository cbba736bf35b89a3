"""An MCP server for AI agents: ``monopoly-trade mcp`` serves the commands as tools over stdio.

Built on the official Model Context Protocol SDK (``mcp`` 2.x, the ``mcp``
extra: ``pip install -e '.[mcp]'``). Tools, each returning the JSON object of
the matching command's ``--json`` output (``docs/cli.md``), whose JSON Schema
(``solver/data/output-*.schema.json``) is the tool's output schema in the tool
listing; the SDK's client validates the structured results against it:

``validate``, ``solve``, ``evaluate_trade``, ``respond_to_offer``, ``analyze``,
``trades``, ``odds``, ``risk``, ``auction``, ``bidding_game``.

A ``state`` argument is a state document (an object in the state format),
the path of a state file, or a one-line position (a string ``"MPN1 ..."``,
:mod:`models.io.line`; told from a path by its tag); ``rules`` (optional) is a preset's name or the path
of a rules file, as ``--rules``; ``bidding_game`` takes a graph object or path. The
calls run side by side in worker processes (:class:`ToolRunner`; ``monopoly-trade mcp
--workers N``, default one per core): each worker imports the library and warms it once
(:func:`solver.warm_up`: the batch kernel, CP-SAT, the chains) when the server starts, then
answers one call at a time through :func:`solver.cli.json_answer` (the command's own
parser and ``document`` function, nothing printed), its simulations on one thread while
another call is in flight. Bad input is a tool error carrying the command's one-line message in the
tool's words (each option named by the tool's argument: :func:`tool_message`; the server
keeps serving); an argument of the wrong JSON type is refused in one line naming it (a
JSON-RPC invalid-params error: :func:`_one_line_validation`). The server reports the
package's version, and a tool's text content is its command's stdout byte for byte.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from models.errors import InvalidArgumentError, InvalidStateError, MonopolyError, NotReadyError
from models.io import load_state
from solver import jsonsafe
from solver.schemas import output_schema
from solver.version import package_version

__all__ = ["TOOLS", "ToolRunner", "build_server", "default_workers", "main", "run_command", "run_command_text", "tool_message", "use_runner"]

TOOLS = ("validate", "solve", "evaluate_trade", "respond_to_offer", "analyze", "trades", "odds", "risk", "auction", "bidding_game")
SCHEMA_OF = {"evaluate_trade": "evaluate", "respond_to_offer": "respond", "bidding_game": "bidding-game"}
"""The output schema of a tool whose name is not its command's."""
MAX_INLINE_BYTES = 4 * 1024 * 1024
"""Largest inline state or graph accepted (the same limit as a state file)."""

class CommandFailed(MonopolyError, ValueError):
    """A command refused its input; the message is its one line."""


Answer = Callable[[Sequence[str]], tuple[bool, str]]
"""A command's ``--json`` text or its one-line error (:func:`solver.cli.json_answer`, handed in
by ``monopoly-trade mcp`` so that the server and the command line do not import each other)."""


def _answer(answer: Answer, argv: Sequence[str]) -> tuple[bool, str]:
    """``answer(argv)`` in a worker."""
    return answer(argv)


def _warm_worker(answer: Answer, in_flight: Any) -> None:
    """A worker's start: the imports (``answer``'s module, imported when it is unpickled here),
    :func:`solver.warm_up` (the kernel, CP-SAT, the chains), so that its first call costs what
    a warm one costs, and the thread limit: every simulation of this worker plays on one
    thread while more than one call is in flight (``in_flight``, the runner's shared count, read
    as each simulation starts: :func:`engine.sim.rollout.set_thread_limit`)."""
    from engine.sim.rollout import MAX_THREADS, set_thread_limit
    from solver.api import warm_up

    del answer  # its module is loaded: that was the point
    set_thread_limit(lambda: 1 if in_flight.value > 1 else MAX_THREADS)
    warm_up()


def _ready() -> int:
    return os.getpid()


def default_workers() -> int:
    """The server's worker processes unless told: the cores it may run on."""
    from engine.sim.rollout import default_threads

    return default_threads()


class ToolRunner:
    """Runs the tools' commands: in ``workers`` worker processes (``spawn``; each warmed once
    and answering one call at a time), or in this process one call at a time (``workers=0``).

    Calls run side by side up to the number of workers; while more than one is in flight, every
    simulation the workers start plays on one thread (a count shared with the workers, read as
    each simulation starts: :func:`engine.sim.rollout.set_thread_limit`), so that the calls
    share the cores instead of each playing a thread per core, and a call that began alone
    gives up its second thread as soon as another arrives (the answer is the same for any
    number of threads). A worker that dies (killed, out of memory) fails its call with a
    one-line error and the runner starts new workers; the server keeps serving.
    """

    def __init__(self, workers: int, answer: Answer) -> None:
        if not 0 <= workers <= 256:
            raise InvalidArgumentError(f"workers: {workers} is outside 0..256")
        self.workers = workers
        self.answer = answer
        self._count = threading.Lock()
        self._serial = threading.Lock()
        self._in_flight = 0
        import multiprocessing as mp

        self._shared = mp.get_context("spawn").Value("i", 0)  # the in-flight count the workers read
        self._pool: ProcessPoolExecutor | None = self._start() if workers else None

    def _start(self) -> ProcessPoolExecutor:
        import multiprocessing as mp

        pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=mp.get_context("spawn"), initializer=_warm_worker, initargs=(self.answer, self._shared)
        )
        for _ in range(self.workers):  # one job each, so that every worker starts (and warms) now
            pool.submit(_ready)
        return pool

    def text(self, argv: Sequence[str]) -> str:
        """``monopoly-trade ARGV --json``'s standard output, byte for byte.

        Raises
        ------
        CommandFailed
            The command's one-line error (or a worker's end).
        """
        with self._count:
            self._in_flight += 1
            self._shared.value = self._in_flight
        try:
            if self._pool is None:
                with self._serial:
                    ok, out = _answer(self.answer, list(argv))
            else:
                ok, out = self._submit(list(argv))
        finally:
            with self._count:
                self._in_flight -= 1
                self._shared.value = self._in_flight
        if not ok:
            raise CommandFailed(out)
        return out

    def _submit(self, argv: list[str]) -> tuple[bool, str]:
        pool = self._pool
        assert pool is not None
        try:
            return pool.submit(_answer, self.answer, argv).result()
        except BrokenProcessPool:
            with self._count:
                if self._pool is pool:  # the first call to see it restarts the workers
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = self._start()
            return False, f"{argv[0]}: the worker answering this call stopped unexpectedly; the server started new workers: call again"

    def close(self) -> None:
        """Stop the workers."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


_runner: list[ToolRunner] = []
"""The runner the tools use (:func:`main` or :func:`use_runner` sets it)."""


def use_runner(runner: ToolRunner) -> None:
    """Make ``runner`` the one the tools (and :func:`run_command`) use."""
    _runner[:] = [runner]


def _runner_now() -> ToolRunner:
    if not _runner:
        raise NotReadyError("the MCP tools have no runner: serve with main(), or call use_runner(ToolRunner(0, solver.cli.json_answer))")
    return _runner[0]


def run_command(argv: list[str]) -> dict[str, Any]:
    """``monopoly-trade ARGV --json``'s JSON object, computed as the tools compute it.

    Raises
    ------
    CommandFailed
        The command's one-line error.
    """
    return run_command_text(argv)[1]


def run_command_text(argv: list[str]) -> tuple[str, dict[str, Any]]:
    """``monopoly-trade ARGV --json``'s stdout, byte for byte, and its object.

    Raises
    ------
    CommandFailed
        As :func:`run_command`.
    """
    text = _runner_now().text(argv)
    doc: dict[str, Any] = json.loads(text)
    return text, doc


def _with_file(
    value: dict[str, Any] | str, argv_before: list[str], argv_after: list[str], files: dict[str, Any] | None = None
) -> tuple[str, dict[str, Any]]:
    """Run a command on ``value`` (a path as given, an object written to a temporary file first):
    its stdout and its object (:func:`run_command_text`). ``files`` maps more options to objects
    (or lists) written to temporary files the same way (a trade, an offer) and passed as
    ``OPTION PATH``."""
    with tempfile.TemporaryDirectory() as tmp:
        def as_path(obj: Any, stem: str, what: str) -> str:
            if isinstance(obj, str) and what == "state":
                if obj == "-":
                    raise CommandFailed("state: '-' (standard input) is the server's own channel: give an object, a path or a line")
                return obj  # a path, or a one-line position: the command tells them apart
            if not isinstance(obj, (dict, list)):
                raise CommandFailed(f"{what}: expected an object{' or a path' if what == 'state' else ''}, got {type(obj).__name__}")
            text = jsonsafe.dumps(obj)
            if len(text) > MAX_INLINE_BYTES:
                raise CommandFailed(f"{what}: the object is larger than {MAX_INLINE_BYTES} bytes")
            path = Path(tmp) / f"{stem}.json"
            path.write_text(text, encoding="utf-8")
            return str(path)

        extra = [x for k, (opt, obj) in enumerate((files or {}).items()) for x in (opt, as_path(obj, f"extra{k}", opt.lstrip("-")))]
        return run_command_text([*argv_before, as_path(value, "input", "state"), *argv_after, *extra])


FLAG_NAMES = {
    "--rollouts": "rollouts",
    "--seed": "seed",
    "--mode": "mode",
    "--rules": "rules",
    "--property": "property",
    "--method": "method",
    "--top": "top",
    "--turns": "turns",
    "--jail": "jail",
    "--kind": "kind",
    "--player": "player",
    "--trade": "trade",
    "--offer": "offer",
    "--from": "proposer",
    "--agent": "agent",
    "--memory": "memory",
}
"""The tools' argument for each command-line option (a tool may rename one: :func:`tool_message`)."""

_ARGPARSE = re.compile(r"^monopoly-trade [\w-]+: (?:error: )?argument (--[\w-]+)(?:/-\w)?: ")


def tool_message(message: str, renames: dict[str, str] | None = None) -> str:
    """A command's one-line error in the tool's words: each option named by the tool's argument.

    Examples
    --------
    >>> tool_message("monopoly-trade solve: argument --rollouts: 0 is outside [1, 100000]")
    'rollouts: 0 is outside [1, 100000]'
    >>> tool_message("--player: no player named 'Zed' (closest: Dee)", {"--player": "responder"})
    "responder: no player named 'Zed' (closest: Dee)"
    """
    names = {**FLAG_NAMES, **(renames or {})}
    line = " ".join(message.split())
    m = _ARGPARSE.match(line)
    if m:
        line = f"{m.group(1)}: {line[m.end():]}"
    return re.sub(r"--[a-z][\w-]*", lambda f: names.get(f.group(0), f.group(0)), line)


def _opt(name: str, value: Any) -> list[str]:
    return [] if value is None else [name, str(value)]


def build_server() -> Any:
    """The MCP server with the tools of :data:`TOOLS`."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer(
        "monopoly-trade",
        version=package_version(),
        instructions=(
            "Monopoly decision engine. Give a state (an object in the monopoly-state format, a path, or a "
            "one-line position such as 'MPN1 Ann:1500@5 Bob:1320j1 br=AA2 rr=B--- to=Bob round=3') "
            "and a player name; solve says whether to build, propose a trade or hold, and why. "
            "rules (optional): a preset (standard-us, house-jackpot, no-doubles, short-game) or a rules file's path."
        ),
    )

    from mcp.types import CallToolResult, TextContent

    def call(
        value: dict[str, Any] | str,
        before: list[str],
        after: list[str],
        files: dict[str, Any] | None = None,
        renames: dict[str, str] | None = None,
    ) -> Any:
        # The text content is the command's stdout byte for byte; the structured content its object.
        try:
            text, doc = _with_file(value, before, after, files)
        except CommandFailed as err:
            raise ToolError(tool_message(str(err), renames)) from None
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=doc)

    @server.tool()
    def validate(state: dict[str, Any] | str) -> dict[str, Any]:
        """Check a state against the format and the rules: {"valid": true}, or an error naming the field."""
        try:
            if isinstance(state, str):
                _validate_path(state)
            else:
                _validate_object(state)
        except CommandFailed as err:
            raise ToolError(str(err)) from None
        return {"valid": True}

    @server.tool()
    def solve(
        state: dict[str, Any] | str,
        player: str | None = None,
        rollouts: int = 800,
        seed: int = 0,
        mode: str = "fair",
        rules: str | None = None,
        agent: str | None = None,
        memory: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """What the player (default: the one to move) should do: build, propose a trade or hold, and why. With agent
        (a spec: "subgraph", "subgraph:hold=false", ...), the subgraph agent's answer to the question the state poses,
        given its memory (the object a previous answer returned under agent.memory; default a fresh one)."""
        after = [
            *_opt("--player", player), "--rollouts", str(rollouts), "--seed", str(seed), "--mode", mode, *_opt("--rules", rules), *_opt("--agent", agent),
        ]
        return call(state, ["solve"], after, {"--memory": memory} if memory is not None else None)

    @server.tool()
    def evaluate_trade(
        state: dict[str, Any] | str,
        trade: dict[str, Any],
        proposer: str | None = None,
        rollouts: int = 800,
        seed: int = 0,
        rules: str | None = None,
        players: str = "trading",
    ) -> dict[str, Any]:
        """Judge a given trade ({"transfers": [{"from", "to", "properties", "cash", "jail_cards"}]}): every player's
        change in win probability with its standard error, the Nash-bargained price, each participant's verdict.
        players: how every player plays in the simulations, "trading" (trades, builds by mortgaging) or "cautious"
        (no trades; builds only with $600 to spare, like rule-of-thumb players)."""
        after = [*_opt("--player", proposer), "--rollouts", str(rollouts), "--seed", str(seed), "--players", players, *_opt("--rules", rules)]
        return call(state, ["evaluate"], after, {"--trade": trade}, {"--player": "proposer"})

    @server.tool()
    def respond_to_offer(
        state: dict[str, Any] | str,
        offer: dict[str, Any],
        proposer: str | None = None,
        responder: str | None = None,
        rollouts: int = 800,
        seed: int = 0,
        rules: str | None = None,
        players: str = "trading",
    ) -> dict[str, Any]:
        """Answer an offer for the player receiving it: accept or refuse with the reason, and a counter-offer
        the proposer is predicted to accept. players: as evaluate_trade."""
        after = [
            *_opt("--from", proposer), *_opt("--player", responder), "--rollouts", str(rollouts), "--seed", str(seed), "--players", players,
            *_opt("--rules", rules),
        ]
        return call(state, ["respond"], after, {"--offer": offer}, {"--player": "responder"})

    @server.tool()
    def analyze(state: dict[str, Any] | str, player: str | None = None, rules: str | None = None) -> dict[str, Any]:
        """Each player's sets, position, build frontier, property values and funded build plan."""
        return call(state, ["analyze"], [*_opt("--player", player), *_opt("--rules", rules)])

    @server.tool()
    def trades(
        state: dict[str, Any] | str, player: str | None = None, top: int = 20, cycles: bool = False, rules: str | None = None
    ) -> dict[str, Any]:
        """The proposer's top trades from the CP-SAT model, before any simulation."""
        after = [*_opt("--player", player), "--top", str(top), *(["--cycles"] if cycles else []), *_opt("--rules", rules)]
        return call(state, ["trades"], after)

    @server.tool()
    def odds(state: dict[str, Any] | str | None = None, jail: str = "long", rules: str | None = None) -> dict[str, Any]:
        """The exact long-run landing table and the expected rent per opponent turn (standard game without a state)."""
        if state is None:
            try:
                return run_command(["odds", "--jail", jail, *_opt("--rules", rules)])
            except CommandFailed as err:
                raise ToolError(str(err)) from None
        return call(state, ["odds"], ["--jail", jail, *_opt("--rules", rules)])

    @server.tool()
    def risk(state: dict[str, Any] | str, player: str | None = None, turns: int = 20, rules: str | None = None) -> dict[str, Any]:
        """The player's probability of ruin on each of the next turns."""
        return call(state, ["risk"], [*_opt("--player", player), "--turns", str(turns), *_opt("--rules", rules)])

    @server.tool()
    def auction(
        state: dict[str, Any] | str,
        property: str,
        player: str | None = None,
        method: str = "game",
        rollouts: int = 300,
        rules: str | None = None,
    ) -> dict[str, Any]:
        """How much to bid for an unowned lot (the bidding game, the simulation, or both) and whether to buy it."""
        after = ["--property", property, *_opt("--player", player), "--method", method, "--rollouts", str(rollouts), *_opt("--rules", rules)]
        return call(state, ["auction"], after)

    @server.tool()
    def bidding_game(graph: dict[str, Any] | str, kind: str = "richman") -> dict[str, Any]:
        """Richman or Poorman costs and bids of a bidding game on a directed graph."""
        return call(graph, ["bidding-game"], ["--kind", kind])

    _publish_output_schemas(server)
    return server


VALIDATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"valid": {"const": True}},
    "required": ["valid"],
    "additionalProperties": False,
}
"""The output schema of the ``validate`` tool (the command itself prints no JSON)."""


def _publish_output_schemas(server: Any) -> None:
    """Make each command's JSON Schema its tool's output schema.

    The SDK derives an output schema from the return annotation (here a bare object); the
    tool's metadata is given the command's schema instead. The tool manager is reached
    through ``_tool_manager``, a private attribute of ``MCPServer`` in ``mcp`` 2.x (the
    version the extra pins); ``tests/solver/test_mcp_server.py`` checks the listing, so a
    change in the SDK shows there.
    """
    manager = server._tool_manager
    for name in TOOLS:
        schema = VALIDATE_SCHEMA if name == "validate" else output_schema(SCHEMA_OF.get(name, name))
        meta = manager.get_tool(name).fn_metadata
        meta.output_schema = schema
        # FuncMetadata is a pydantic model without that field: set the instance attribute directly.
        object.__setattr__(meta, "validate_arguments", _one_line_validation(meta.validate_arguments))


def _one_line_validation(validate: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], Any]:
    """The SDK's argument validation, its pydantic report (several lines, a URL) turned into one
    line naming each bad argument, raised as a JSON-RPC "invalid params" error (-32602)."""
    from mcp.shared.exceptions import MCPError
    from pydantic import ValidationError

    def checked(arguments: dict[str, Any]) -> Any:
        try:
            return validate(arguments)
        except ValidationError as exc:
            seen: dict[str, list[str]] = {}
            for e in exc.errors():
                arg = str(e["loc"][0]) if e.get("loc") else "arguments"
                seen.setdefault(arg, []).append(str(e["msg"]).rstrip("."))
            parts = [f"{arg}: {' or '.join(dict.fromkeys(msgs))} (got {type(arguments.get(arg)).__name__})" for arg, msgs in seen.items()]
            raise MCPError(-32602, "; ".join(parts)) from None

    return checked


def _validate_path(path: str) -> None:
    """Load the state a string names, as ``monopoly-trade validate`` does (a path or a one-line position; the state's
    load and its checks; no simulation, so in this process)."""
    from solver.cli.common import UsageError, read_state

    if path == "-":
        raise CommandFailed("state: '-' (standard input) is the server's own channel: give an object, a path or a line")
    try:
        read_state(path)
    except (MonopolyError, UsageError) as err:
        raise CommandFailed(" ".join(str(err).split())) from None
    except OSError as err:
        raise CommandFailed(f"{err.filename or path}: {err.strerror or err}") from None


def _validate_object(doc: Any) -> None:
    if not isinstance(doc, dict):
        raise CommandFailed(f"expected a state object or a path, got {type(doc).__name__}")
    try:
        load_state(doc)
    except InvalidStateError as err:
        raise CommandFailed(str(err)) from None


def main(workers: int | None, answer: Answer) -> None:
    """Serve over stdio until the client closes the connection, the tools' commands answered by
    ``answer`` (:func:`solver.cli.json_answer`) in ``workers`` worker processes (None:
    :func:`default_workers`; 0: in this process)."""
    runner = ToolRunner(default_workers() if workers is None else workers, answer)
    use_runner(runner)
    try:
        build_server().run("stdio")
    finally:
        runner.close()
