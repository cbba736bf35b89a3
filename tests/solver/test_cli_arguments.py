"""Every numeric argument of every command refuses hostile values in one line, exit 2, before any work.

Table-driven from the parsers themselves: every option of every subcommand
whose type is a bounded integer or number (:func:`solver.cli.common.int_in`,
:func:`~solver.cli.common.float_in`) gets zero, a negative, NaN, infinity,
text, a huge number and a 5,000-digit integer. Each either parses to a value
inside the option's declared range, or is refused with one line on stderr
and exit status 2 (the parsing happens before any state is read or any
simulation runs, so a refusal costs nothing). No numeric option may be left
unbounded.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from solver.cli import build_parser
from solver.cli.common import UsageError
from tests.solver.cli_helpers import run_cli

HOSTILE = ("0", "-1", "nan", "inf", "-inf", "text", "1e400", "10000000000000", "9" * 5000, "0.5")


def _numeric_options() -> list[tuple[str, str, argparse.Action]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    out = []
    for name, p in sorted(sub.choices.items()):
        for action in p._actions:  # noqa: SLF001
            if action.type is not None and action.option_strings and action.type not in (str,):
                out.append((name, action.option_strings[-1], action))
    return out


OPTIONS = _numeric_options()


def test_no_numeric_option_is_unbounded() -> None:
    assert OPTIONS, "no numeric options found"
    for name, opt, action in OPTIONS:
        assert action.type not in (int, float), f"{name} {opt} uses a bare {action.type.__name__}"
        label = getattr(action.type, "__name__", "")
        assert label.startswith(("integer ", "number ")), f"{name} {opt}: type {label!r} is not a bounded type"


@pytest.mark.parametrize(("command", "option", "action"), OPTIONS, ids=[f"{c}{o}" for c, o, _ in OPTIONS])
def test_hostile_values_are_bounded_or_refused(command: str, option: str, action: argparse.Action) -> None:
    for raw in HOSTILE:
        try:
            value = action.type(raw)  # type: ignore[misc]
        except argparse.ArgumentTypeError as err:
            assert "\n" not in str(err)
            continue
        lo, hi = (float(x) for x in action.type.__name__.split(" ")[1].split(".."))  # type: ignore[union-attr]
        assert lo <= value <= hi, (command, option, raw, value)


def test_the_cli_refuses_in_one_line_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        ("solve", "instances/opening.json", "--rollouts", "0"),
        ("solve", "instances/opening.json", "--budget", "nan"),
        ("auction", "instances/opening.json", "--property", "Boardwalk", "--epsilon", "inf"),
        ("tournament", "--agents", "strategic,random", "--games", "9" * 5000),
        ("play", "--agents", "strategic,random", "--seed", "-1"),
        ("risk", "instances/opening.json", "--turns", "text"),
    ]
    for argv in cases:
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)
    with pytest.raises(UsageError):
        build_parser().parse_args(["solve", "x.json", "--rollouts", "100001"])


def test_names_match_without_regard_to_case_and_suggest_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    """``--property boardwalk`` is Boardwalk; a misspelt name is refused with the closest names; a
    bankrupt ``--player`` is refused by every command that takes one, as ``solve`` refuses it."""
    root = Path(__file__).resolve().parents[2] / "instances"
    mid, ruin = str(root / "midgame-no-monopolies.json"), str(root / "near-ruin.json")
    a = run_cli(capsys, "auction", mid, "--property", "boardwalk", "--method", "game", "--json")
    b = run_cli(capsys, "auction", mid, "--property", "Boardwalk", "--method", "game", "--json")
    assert a[0] == 0 and a[1] == b[1]
    code, _, err = run_cli(capsys, "auction", mid, "--property", "Bordwalk")
    assert code == 2 and err.strip() == "--property: no property named 'Bordwalk' (closest: Boardwalk)"
    code, _, err = run_cli(capsys, "trades", mid, "--player", "Dea")
    assert code == 2 and "(closest: Dee)" in err
    for argv in (["risk", ruin], ["analyze", ruin], ["trades", ruin], ["solve", ruin, "--rollouts", "4"]):
        code, out, err = run_cli(capsys, *argv, "--player", "cy")
        assert code == 2 and out == "" and err.strip() == "--player: Cy is bankrupt", argv
