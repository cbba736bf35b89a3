"""The examples that end each command's ``--help``: real command lines on the bundled
instances (``tests/solver/test_cli_examples.py`` parses every one and checks its files)."""

from __future__ import annotations

import argparse

EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    "validate": (
        ("check a bundled state", "monopoly-trade validate instances/midgame-no-monopolies.json"),
        ("check a state piped in", "cat instances/near-ruin.json | monopoly-trade validate -"),
    ),
    "convert": (
        ("a bundled state in one line", "monopoly-trade convert instances/two-player.json"),
        ("a line to its JSON document", "monopoly-trade convert 'MPN1 Ann:1500 Bob:1500 br=A- to=Bob' --to json --out /tmp/state.json"),
    ),
    "play": (
        ("four baseline agents from the opening", "monopoly-trade play --agents strategic,strategic,random,random --seed 7"),
        ("continue a saved game", "monopoly-trade play --state instances/midgame-no-monopolies.json --agents strategic,strategic,strategic,strategic"),
    ),
    "tournament": (
        ("a short paired run", "monopoly-trade tournament --agents random,strategic --games 2 --max-rounds 30"),
        ("the solver against three baselines", "monopoly-trade tournament --agents subgraph,strategic,strategic,strategic --games 100 --workers 2 --out /tmp/h2h.jsonl"),
    ),
    "agents": (("the registry", "monopoly-trade agents"),),
    "odds": (
        ("landing shares and EPT on the standard board", "monopoly-trade odds"),
        ("under a state's own rules (loaded dice)", "monopoly-trade odds instances/novelty-rules.json --json"),
    ),
    "risk": (("ruin odds of a player close to ruin", "monopoly-trade risk instances/near-ruin.json --turns 5"),),
    "analyze": (("one player's sets and build frontier", "monopoly-trade analyze instances/midgame-no-monopolies.json --player Ann"),),
    "solve": (
        ("what the player to move should do", "monopoly-trade solve instances/midgame-no-monopolies.json --seed 1"),
        ("as the agent plays (gain x acceptance), as JSON", "monopoly-trade solve instances/midgame-no-monopolies.json --mode best --json"),
    ),
    "trades": (
        ("trade candidates with 3-way cycles", "monopoly-trade trades instances/cycle-four-partial-piece.json --cycles --top 2"),
        ("the dollar value the generator used before", "monopoly-trade trades instances/midgame-no-monopolies.json --value linear"),
    ),
    "evaluate": (
        ("judge a swap Cy might offer Dee", 'monopoly-trade evaluate instances/midgame-no-monopolies.json --give "Atlantic Avenue,$150" --to Dee --get "Virginia Avenue"'),
    ),
    "respond": (
        ("Cy answers Dee's offer of Mediterranean Avenue for Park Place", 'monopoly-trade respond instances/midgame-no-monopolies.json --from Dee --give "Mediterranean Avenue" --to Cy --get "Park Place"'),
    ),
    "bidding-game": (("a bidding game on a small graph", "monopoly-trade bidding-game instances/graphs/example-game.json --kind richman"),),
    "auction": (("how much to bid for Boardwalk", "monopoly-trade auction instances/midgame-no-monopolies.json --property Boardwalk"),),
    "prune-report": (("the pruning funnel on two bundled states", "monopoly-trade prune-report instances/midgame-no-monopolies.json instances/mortgaged.json --out /tmp/prune"),),
    "mcp": (("serve the tools to an MCP client (it starts this command)", "monopoly-trade mcp"),),
    "trial": (
        ("the novelty catalogue", "monopoly-trade trial --list"),
        ("one short trial", "monopoly-trade trial --agent strategic --novelty rent-cut --games 10 --out /tmp/trial.jsonl"),
    ),
}


class ExampleFormatter(argparse.HelpFormatter):
    """The default help layout (descriptions wrapped), with the examples block kept line by line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def epilog(command: str) -> str:
    """The ``examples:`` block for ``command``'s ``--help``."""
    lines = ["examples:"]
    for what, line in EXAMPLES.get(command, ()):
        lines += [f"  # {what}", f"  {line}"]
    return "\n".join(lines)


__all__ = ["EXAMPLES", "ExampleFormatter", "epilog"]
