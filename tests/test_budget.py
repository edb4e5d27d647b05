"""`graph.agent.budget` owns every limit: the defaults, the ranges and the recursion limits.

The CLI's ranges, `Context`'s checks and the graphs' recursion-limit errors all come from it,
and no other module writes a range or a recursion-limit formula of its own.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from graph.agent import budget
from graph.agent.context import Context
from graph.cli.main import cli
from graph.flow.graph import RECURSION_LIMIT, build_flow

ROOT = Path(__file__).resolve().parents[1]
RANGES = {
    "max_steps": (budget.MIN_STEPS, budget.MAX_STEPS),
    "fork_step": (budget.MIN_STEPS, budget.MAX_STEPS),
    "k": (budget.MIN_K, budget.MAX_K),
}


def commands(group: click.Group) -> Iterator[click.Command]:
    """Every command of the group, its subgroups' included (a lazy group's loaded by name)."""
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        yield command
        if isinstance(command, click.Group):
            yield from commands(command)


def test_every_budget_option_of_the_cli_takes_budgets_range() -> None:
    seen = 0
    for command in commands(cli):
        for param in command.params:
            if param.name in RANGES:
                assert isinstance(param.type, click.IntRange), (command.name, param.name)
                bounds = (param.type.min, param.type.max)
                assert bounds == RANGES[param.name], (command.name, param.name)
                seen += 1
    assert seen >= 6  # ask, replay, resume, eval, mcp serve ... all have one


def test_context_checks_the_ranges_budget_declares(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "MAX_STEPS", 7)
    monkeypatch.setattr(budget, "MAX_K", 4)
    assert Context(max_steps=7, k=4).max_steps == 7
    with pytest.raises(ValueError, match="max_steps must be between 1 and 7, got 8"):
        Context(max_steps=8)
    with pytest.raises(ValueError, match="k must be an integer between 1 and 4, got 5"):
        Context(k=5)


def test_the_limits_follow_from_the_step_formula() -> None:
    assert budget.recursion_limit_for(4) == 9
    assert budget.least_useful_limit() == 3
    assert budget.continue_limit(2) == budget.recursion_limit_for(2) + 2
    assert budget.continue_limit(-1) == budget.continue_limit(0)  # overspent: room to finish
    assert budget.router_limit(20, 4) == 23 and budget.router_limit(2, 4) == 12


@pytest.mark.parametrize("limit", [1, 2, RECURSION_LIMIT - 1])
def test_the_flow_names_its_own_limit_when_refusing_a_tiny_one(limit: int) -> None:
    with pytest.raises(ValueError) as error:
        build_flow().invoke({"request": "AC-250-A leaking"}, {"recursion_limit": limit})
    message = str(error.value)
    assert f"at least {RECURSION_LIMIT} (the flow's longest run needs {RECURSION_LIMIT})" in message
    assert "agent" not in message


def _budget_option_with_own_range(call: ast.Call) -> bool:
    """Whether `call` is a `click.option("--max-steps" | "--k" | "--fork", type=IntRange(...))`."""
    if getattr(call.func, "attr", "") != "option":
        return False
    names = {arg.value for arg in call.args if isinstance(arg, ast.Constant)}
    if not names & {"--max-steps", "--k", "--fork"}:
        return False
    return any(
        keyword.arg == "type"
        and isinstance(keyword.value, ast.Call)
        and getattr(keyword.value.func, "attr", "") == "IntRange"
        for keyword in call.keywords
    )


def _sources() -> Iterator[tuple[Path, ast.AST]]:
    """Every module under graph/ but budget.py, parsed."""
    for path in sorted((ROOT / "graph").rglob("*.py")):
        if path.name != "budget.py" or path.parent.name != "agent":
            yield path, ast.parse(path.read_text(), str(path))


def test_no_module_but_budget_writes_a_range_or_a_limit_formula() -> None:
    found: list[str] = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _budget_option_with_own_range(node):
                found.append(f"{path.name}:{node.lineno} a budget option with its own IntRange")
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    is_limit = isinstance(key, ast.Constant) and key.value == "recursion_limit"
                    if is_limit and isinstance(value, ast.BinOp):
                        found.append(f"{path.name}:{node.lineno} inline recursion_limit formula")
    assert found == []
