"""The MCP server end to end, with the SDK's own client over stdio.

The server (``monopoly-trade mcp``, as ``python -m solver mcp``) is spawned;
the client lists the tools, calls each on a bundled instance and checks the
answer against the command's own ``--json`` output (the text content byte for
byte against a fresh ``solve --json`` process), makes ten bad calls (three of
the wrong JSON type, seven the commands refuse: each one line naming the
tool's argument) between good ones (the server keeps serving), and calls
``solve`` three times side by side on its two workers (the same answers as
one at a time), and takes a one-line position (``MPN1 ...``) as the state.
Skipped with a reason when the ``mcp`` extra is not installed.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

mcp = pytest.importorskip("mcp", reason="the mcp extra is not installed (pip install -e '.[mcp]')")

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from models.io import load_state, to_line  # noqa: E402
from solver.cli import json_answer  # noqa: E402
from solver.mcp_server import SCHEMA_OF, TOOLS  # noqa: E402
from solver.schemas import output_schema  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MIDGAME = ROOT / "instances" / "midgame-no-monopolies.json"
GRAPH = ROOT / "instances" / "graphs" / "example-game.json"
OFFERED = ROOT / "instances" / "pending-offer.json"
TRADE = {"transfers": [{"from": "Cy", "to": "Dee", "properties": ["Atlantic Avenue"], "cash": 150}, {"from": "Dee", "to": "Cy", "properties": ["Virginia Avenue"]}]}
OFFER = {"transfers": [{"from": "Dee", "to": "Cy", "properties": ["Mediterranean Avenue"]}, {"from": "Cy", "to": "Dee", "properties": ["Park Place"]}]}


def _payload(result: Any) -> Any:
    assert not result.is_error, result.content
    if getattr(result, "structured_content", None):
        doc = result.structured_content
        return doc.get("result", doc) if set(doc) == {"result"} else doc
    return json.loads(result.content[0].text)


async def _session_run() -> dict[str, Any]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "solver", "mcp", "--workers", "2"], cwd=str(ROOT))
    out: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        out["version"] = init.server_info.version
        wrong = []
        for tool, args in (("solve", {"state": 42}), ("solve", {"state": str(MIDGAME), "rollouts": "many"}), ("auction", {"state": str(MIDGAME), "property": 7})):
            try:
                r = await session.call_tool(tool, args)
                wrong.append(r.content[0].text if r.is_error else "no error")
            except Exception as err:  # the JSON-RPC invalid-params error
                wrong.append(str(err))
        out["wrong_types"] = wrong
        listed = (await session.list_tools()).tools
        out["tools"] = sorted(t.name for t in listed)
        out["schemas"] = {t.name: t.output_schema for t in listed}
        state = json.loads(MIDGAME.read_text())
        out["validate"] = _payload(await session.call_tool("validate", {"state": state}))
        raw = await session.call_tool("solve", {"state": str(MIDGAME), "rollouts": 16, "seed": 2})
        out["solve"] = _payload(raw)
        out["solve_text"] = raw.content[0].text
        out["solve_object"] = _payload(await session.call_tool("solve", {"state": state, "rollouts": 16, "seed": 2}))
        first = _payload(await session.call_tool("solve", {"state": str(OFFERED), "rollouts": 16, "agent": "subgraph"}))
        again = _payload(await session.call_tool("solve", {"state": str(OFFERED), "rollouts": 16, "agent": "subgraph", "memory": first["agent"]["memory"]}))
        out["solve_agent"] = (first, again)
        out["analyze"] = _payload(await session.call_tool("analyze", {"state": state, "player": "Ann"}))
        out["trades"] = _payload(await session.call_tool("trades", {"state": state}))
        out["odds"] = _payload(await session.call_tool("odds", {}))
        out["risk"] = _payload(await session.call_tool("risk", {"state": state}))
        out["auction"] = _payload(await session.call_tool("auction", {"state": state, "property": "Boardwalk"}))
        out["bidding_game"] = _payload(await session.call_tool("bidding_game", {"graph": str(GRAPH)}))
        out["evaluate_trade"] = _payload(await session.call_tool("evaluate_trade", {"state": state, "trade": TRADE, "rollouts": 16, "seed": 2}))
        out["respond_to_offer"] = _payload(await session.call_tool("respond_to_offer", {"state": str(MIDGAME), "offer": OFFER, "rollouts": 16, "seed": 2}))
        refused = await session.call_tool("evaluate_trade", {"state": state, "trade": {"transfers": [{"from": "Cy", "to": "Dee", "properties": ["Boardwalk"]}]}})
        out["bad_trade"] = (refused.is_error, refused.content[0].text)
        refused = await session.call_tool("solve", {"state": str(MIDGAME), "player": "Zed", "rollouts": 16})
        out["bad_player"] = (refused.is_error, refused.content[0].text)
        refused = await session.call_tool("solve", {"state": str(MIDGAME), "rollouts": 0})
        out["bad_rollouts"] = (refused.is_error, refused.content[0].text)
        refused = await session.call_tool("auction", {"state": str(MIDGAME), "property": "Boardwalc"})
        out["bad_property"] = (refused.is_error, refused.content[0].text)
        # Calls side by side (two workers): the same answers as one at a time.
        calls = [{"state": str(MIDGAME), "rollouts": 16, "seed": s, "player": p} for s, p in ((3, "Cy"), (4, "Ann"), (3, "Bob"))]
        alone = [(await session.call_tool("solve", c)).content[0].text for c in calls]
        together = await asyncio.gather(*(session.call_tool("solve", c) for c in calls))
        out["concurrent"] = (alone, [r.content[0].text for r in together])
        refused = await session.call_tool("respond_to_offer", {"state": str(MIDGAME), "offer": OFFER, "responder": "Zed", "rollouts": 16})
        out["bad_responder"] = (refused.is_error, refused.content[0].text)
        bad = dict(state)
        bad["players"] = [dict(p) for p in state["players"]]
        bad["players"][0]["cash"] = -5
        refused = await session.call_tool("validate", {"state": bad})
        out["bad"] = (refused.is_error, refused.content[0].text)
        refused = await session.call_tool("solve", {"state": bad, "rollouts": 16})
        out["bad_solve"] = (refused.is_error, refused.content[0].text)
        # A one-line position (MPN1 ...) as the state: the same answers as the object; a bad line in one line naming the column.
        line = to_line(load_state(MIDGAME))
        out["line_validate"] = _payload(await session.call_tool("validate", {"state": line}))
        out["line_risk"] = _payload(await session.call_tool("risk", {"state": line}))
        refused = await session.call_tool("risk", {"state": line.replace("Ann:420", "Ann:x")})
        out["bad_line"] = (refused.is_error, refused.content[0].text)
        out["after"] = _payload(await session.call_tool("validate", {"state": str(MIDGAME)}))
    return out


def run_command(argv: list[str]) -> Any:
    """The command's ``--json`` object, computed in this process."""
    ok, text = json_answer(argv)
    assert ok, text
    return json.loads(text)


def _close(a: Any, b: Any) -> bool:
    """Equal JSON, floats to 1e-9 relative (two processes may differ in the last bit of a sum)."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return bool(a == b)


def test_the_server_serves_every_tool_over_stdio() -> None:
    got = asyncio.run(_session_run())
    assert got["tools"] == sorted(TOOLS)
    # Each tool's output schema is its command's JSON Schema (the client validated every result against it).
    for name in TOOLS:
        if name != "validate":
            assert got["schemas"][name] == output_schema(SCHEMA_OF.get(name, name)), name
    assert got["schemas"]["validate"]["required"] == ["valid"]
    assert got["validate"] == {"valid": True} and got["after"] == {"valid": True} and got["line_validate"] == {"valid": True}
    assert got["line_risk"] == got["risk"]
    is_error, text = got["bad_line"]
    assert is_error and "notation: column 10: expected a cash amount" in text and "\n" not in text.strip(), text
    # The same JSON as the commands themselves.
    assert got["solve"] == got["solve_object"]
    # the text content is `solve --json`'s stdout byte for byte (a fresh CLI process)
    cli = subprocess.run([sys.executable, "-m", "solver", "solve", str(MIDGAME), "--rollouts", "16", "--seed", "2", "--json"], cwd=ROOT, capture_output=True, check=True)
    assert got["solve_text"].encode() == cli.stdout
    # as the agent, with the memory its first answer returned: the second answer draws the next seed
    # (an answer draws one seed, and one more for its second evaluation when that ran: answer_check)
    first, again = got["solve_agent"]
    assert first["agent"]["question"] == again["agent"]["question"] == "offer"
    drawn = [1 + ("check" in a["agent"]["details"]) for a in (first, again)]
    assert (first["agent"]["memory"]["seeds"], again["agent"]["memory"]["seeds"]) == (drawn[0], drawn[0] + drawn[1])
    assert again["agent"]["details"]["seed"] == first["agent"]["memory"]["seeds"] + 1  # the seed after the first answer's last
    assert _close(first, run_command(["solve", str(OFFERED), "--rollouts", "16", "--agent", "subgraph"]))
    alone, together = got["concurrent"]
    assert together == alone and len(set(alone)) == 3
    assert _close(got["solve"], run_command(["solve", str(MIDGAME), "--rollouts", "16", "--seed", "2"]))
    assert _close(got["analyze"], run_command(["analyze", str(MIDGAME), "--player", "Ann"]))
    assert _close(got["trades"], run_command(["trades", str(MIDGAME)]))
    assert _close(got["odds"], run_command(["odds"]))
    assert _close(got["risk"], run_command(["risk", str(MIDGAME)]))
    assert _close(got["auction"], run_command(["auction", str(MIDGAME), "--property", "Boardwalk", "--method", "game"]))
    assert _close(got["bidding_game"], run_command(["bidding-game", str(GRAPH), "--kind", "richman"]))
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        trade, offer = Path(tmp) / "trade.json", Path(tmp) / "offer.json"
        trade.write_text(json.dumps(TRADE)), offer.write_text(json.dumps(OFFER))
        assert _close(got["evaluate_trade"], run_command(["evaluate", str(MIDGAME), "--trade", str(trade), "--rollouts", "16", "--seed", "2"]))
        assert _close(got["respond_to_offer"], run_command(["respond", str(MIDGAME), "--offer", str(offer), "--rollouts", "16", "--seed", "2"]))
    assert got["respond_to_offer"]["responder"] == "Cy" and got["respond_to_offer"]["verdict"] in ("accept", "refuse")
    is_error, text = got["bad_trade"]
    assert is_error and "Boardwalk" in text and "\n" not in text.strip()
    from importlib import metadata

    assert got["version"] == metadata.version("monopoly-trade")  # the server reports the package version
    # wrong JSON types: one line naming the argument (not the SDK's multi-line pydantic report)
    for text, arg in zip(got["wrong_types"], ("state", "rollouts", "property")):
        assert text.startswith(f"{arg}: ") and "\n" not in text and "pydantic" not in text, text
    # errors name the tool's arguments, not command-line flags, in one line
    for key, arg in (("bad_player", "player"), ("bad_rollouts", "rollouts"), ("bad_responder", "responder"), ("bad_property", "property")):
        is_error, text = got[key]
        said = re.sub(r"^Error executing tool \w+: ", "", text)  # the SDK's prefix
        assert is_error and said.startswith(f"{arg}: ") and "--" not in said and "\n" not in said.strip(), (key, text)
    # Bad input: a tool error naming the field, in one line; the server goes on serving.
    for is_error, text in (got["bad"], got["bad_solve"]):
        assert is_error and "cash" in text and "\n" not in text.strip()
