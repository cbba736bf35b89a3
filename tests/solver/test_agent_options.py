"""Every option of every registered agent is checked where it is parsed (hostile values refused in one line).

Table-driven: for each option of each agent, a list of hostile or edge values
is parsed; each is either accepted with a value inside the option's declared
range (or choices), or refused with :class:`UnknownAgentError` in one line
naming the agent and the option. The defaults themselves must lie inside the
declared ranges, and every non-boolean option must declare one.
"""

from __future__ import annotations

import math

import pytest

from solver.agents.registry import UnknownAgentError, entries, parse_spec
from tests.solver.cli_helpers import run_cli

HOSTILE = ("0", "-1", "nan", "inf", "-inf", "text", "1e400", "9" * 5000, "", "1.5", "2")
OPTIONS = [(e.name, key, default) for e in entries() for key, default in e.options().items()]


@pytest.mark.parametrize(("agent", "key", "default"), OPTIONS, ids=[f"{a}.{k}" for a, k, _ in OPTIONS])
def test_every_option_refuses_or_bounds_hostile_values(agent: str, key: str, default: object) -> None:
    entry = next(e for e in entries() if e.name == agent)
    limit = entry.limits().get(key)
    spec_option = key in getattr(entry.cls, "SPEC_OPTIONS", ())  # an agent spec, checked by the registry itself
    if not isinstance(default, bool) and not spec_option:
        assert limit is not None, f"{agent}.{key} declares no range"
        if isinstance(limit[0], str):
            assert default in limit
        else:
            assert limit[0] <= default <= limit[1]
    for raw in HOSTILE:
        try:
            _, kwargs = parse_spec(f"{agent}:{key}={raw}")
        except UnknownAgentError as err:
            text = str(err)
            assert "\n" not in text and repr(agent) in text and repr(key) in text, text
            continue
        value = kwargs[key]
        if spec_option:
            assert raw == value and parse_spec(value.replace("/", ","))  # a valid spec
        elif isinstance(default, bool):
            assert isinstance(value, bool)
        elif isinstance(limit[0], str):  # type: ignore[index]
            assert value in limit  # type: ignore[operator]
        else:
            assert math.isfinite(value) and limit[0] <= value <= limit[1]  # type: ignore[index]


def test_play_refuses_a_bad_option_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for spec, needle in (
        ("subgraph:auction=nosuch", "not one of"),
        ("subgraph:rollouts=0", "outside 1..100000"),
        ("strategic:horizon=nan", "not a finite number"),
    ):
        code, out, err = run_cli(capsys, "play", "--agents", f"{spec},strategic", "--max-rounds", "3")
        assert code == 2 and out == "" and needle in err and err.count("\n") == 1


def test_an_option_value_is_bounded_at_256_characters() -> None:
    """The ``adversary``'s ``target=`` holds a whole agent spec: the kept runs' longest (152
    characters) is read; a value longer than ``MAX_OPTION_CHARS`` is refused before conversion."""
    from solver.agents.registry import MAX_OPTION_CHARS

    kept = "subgraph:tiebreak=no_loss/answer_check=trading/answer_sets=any/check_pricing=answer/check_mortgage=answer/check_horizon=0/check_z=1.645/check_margin=0.0"
    assert len(kept) == 152
    assert parse_spec(f"adversary:target={kept}")[1]["target"] == kept
    long = "subgraph:" + "/".join(["answer_sets=any"] * 16)
    assert len(long) > MAX_OPTION_CHARS == 256
    with pytest.raises(UnknownAgentError, match="longer than 256 characters"):
        parse_spec(f"adversary:target={long}")
    with pytest.raises(UnknownAgentError, match="longer than 256 characters"):
        parse_spec("subgraph:answer_sets=" + "x" * 257)
