"""An MCP server for AI agents: ``monopoly-trade mcp`` serves the commands as tools over stdio.

Built on the official Model Context Protocol SDK (``mcp`` 2.x, the ``mcp``
extra: ``pip install -e '.[mcp]'``). Tools, each returning the JSON object of
the matching command's ``--json`` output (``docs/cli.md``), whose JSON Schema
(``solver/data/output-*.schema.json``) is the tool's output schema in the tool
listing; the SDK's client validates the structured results against it:

``validate``, ``solve``, ``evaluate_trade``, ``respond_to_offer``, ``analyze``,
``trades``, ``odds``, ``risk``, ``auction``, ``bidding_game``.

A ``state`` argument is a state document (an object in the state format) or
the path of a state file; ``rules`` (optional) is a preset's name or the path
of a rules file, as ``--rules``; ``bidding_game`` takes a graph object or path. Each
call runs the command in this process, so the batch kernel, the chains and
every cache are loaded once per server: the first ``solve`` pays the imports
and the kernel's load, later ones cost what ``decide`` costs. Bad input is a
tool error carrying the command's one-line message in the tool's words
(each option named by the tool's argument: :func:`tool_message`; the server
keeps serving); an argument of the wrong JSON type is refused in one line
naming it (a JSON-RPC invalid-params error: :func:`_one_line_validation`);
calls are served one at a time. The server reports the package's version,
and a tool's text content is its command's stdout byte for byte.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from models.errors import InvalidStateError, MonopolyError
from models.io import load_state
from solver import jsonsafe
from solver.schemas import output_schema
from solver.version import package_version

__all__ = ["TOOLS", "build_server", "main", "run_command", "tool_message", "use_command_line"]

TOOLS = ("validate", "solve", "evaluate_trade", "respond_to_offer", "analyze", "trades", "odds", "risk", "auction", "bidding_game")
SCHEMA_OF = {"evaluate_trade": "evaluate", "respond_to_offer": "respond", "bidding_game": "bidding-game"}
"""The output schema of a tool whose name is not its command's."""
MAX_INLINE_BYTES = 4 * 1024 * 1024
"""Largest inline state or graph accepted (the same limit as a state file)."""

_lock = threading.Lock()


class CommandFailed(MonopolyError, ValueError):
    """A command refused its input; the message is its one line."""


CommandLine = Callable[[Sequence[str]], int]
"""The command line's entry point, :func:`solver.cli.main` (argv -> exit status)."""

_command_line: list[CommandLine] = []
"""The entry point the tools run, given to :func:`main` (or :func:`use_command_line`) by
``monopoly-trade mcp``: handed in, not imported, so that the command line and this server
do not import each other."""


def use_command_line(cli: CommandLine) -> None:
    """Run the tools through ``cli`` (:func:`solver.cli.main`)."""
    _command_line[:] = [cli]


def run_command(argv: list[str]) -> dict[str, Any]:
    """Run ``monopoly-trade ARGV --json`` in this process and return its JSON object.

    Raises
    ------
    CommandFailed
        The command exited non-zero; the message is the last line it wrote on stderr.
    """
    doc: dict[str, Any] = json.loads(_captured([*argv, "--json", "-q"]))
    return doc


def run_command_text(argv: list[str]) -> tuple[str, dict[str, Any]]:
    """Run ``monopoly-trade ARGV --json`` in this process: its stdout, byte for byte, and the object.

    Raises
    ------
    CommandFailed
        As :func:`run_command`.
    """
    text = _captured([*argv, "--json", "-q"])
    doc: dict[str, Any] = json.loads(text)
    return text, doc


def _captured(argv: list[str]) -> str:
    """Run ``monopoly-trade ARGV`` in this process (one at a time): its stdout, or
    :class:`CommandFailed` with the last line it wrote on stderr."""
    if not _command_line:
        raise CommandFailed("no command line to run: call use_command_line(solver.cli.main) first")
    out, err = io.StringIO(), io.StringIO()
    with _lock, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _command_line[0](argv)
    if code != 0:
        lines = [x for x in err.getvalue().splitlines() if x.strip()]
        raise CommandFailed(lines[-1] if lines else f"{argv[0]} failed with exit status {code}")
    return out.getvalue()


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
                return obj
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
            "Monopoly decision engine. Give a state (an object in the monopoly-state format, or a path) "
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
    ) -> dict[str, Any]:
        """What the player (default: the one to move) should do: build, propose a trade or hold, and why."""
        after = [*_opt("--player", player), "--rollouts", str(rollouts), "--seed", str(seed), "--mode", mode, *_opt("--rules", rules)]
        return call(state, ["solve"], after)

    @server.tool()
    def evaluate_trade(
        state: dict[str, Any] | str,
        trade: dict[str, Any],
        proposer: str | None = None,
        rollouts: int = 800,
        seed: int = 0,
        rules: str | None = None,
    ) -> dict[str, Any]:
        """Judge a given trade ({"transfers": [{"from", "to", "properties", "cash", "jail_cards"}]}): every player's
        change in win probability with its standard error, the Nash-bargained price, each participant's verdict."""
        after = [*_opt("--player", proposer), "--rollouts", str(rollouts), "--seed", str(seed), *_opt("--rules", rules)]
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
    ) -> dict[str, Any]:
        """Answer an offer for the player receiving it: accept or refuse with the reason, and a counter-offer
        the proposer is predicted to accept."""
        after = [*_opt("--from", proposer), *_opt("--player", responder), "--rollouts", str(rollouts), "--seed", str(seed), *_opt("--rules", rules)]
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
    _captured(["validate", path])


def _validate_object(doc: Any) -> None:
    if not isinstance(doc, dict):
        raise CommandFailed(f"expected a state object or a path, got {type(doc).__name__}")
    try:
        load_state(doc)
    except InvalidStateError as err:
        raise CommandFailed(str(err)) from None


def main(cli: CommandLine) -> None:
    """Serve over stdio until the client closes the connection, running the tools through ``cli``."""
    use_command_line(cli)
    build_server().run("stdio")
