"""`agent`, `agent --version`, `agent --help` and every `agent X --help` start without LangChain.

Each is run in a fresh interpreter (as a user starts it) and must load no LangChain,
LangGraph, numpy, scipy, torch or MCP server module: the group imports a command's module only
when that command is asked for, and the command modules import their work inside the commands.
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from fresh_cli import run_fresh

from graph.cli.main import COMMANDS, cli

HEAVY = ("langchain", "langgraph", "numpy", "scipy", "torch", "mcp", "starlette", "uvicorn")
"""Top-level packages that must stay unloaded (`langchain` also covers its `langchain_*`)."""


def help_invocations() -> list[list[str]]:
    """The bare group, --version, --help, and --help of every command and subcommand."""
    found: list[list[str]] = [[], ["--version"], ["--help"]]
    for name in COMMANDS:
        found.append([name, "--help"])
        command = cli.get_command(click.Context(cli), name)
        if isinstance(command, click.Group):
            found += [[name, sub, "--help"] for sub in command.commands]
    return found


@pytest.mark.parametrize("argv", help_invocations(), ids=lambda argv: " ".join(argv) or "agent")
def test_help_and_version_load_no_langchain(argv: list[str], tmp_path: Path) -> None:
    report, out, err = run_fresh(argv, tmp_path, timeout=120)
    assert report["code"] == 0, err
    loaded = [m for m in report["modules"] if m.startswith(HEAVY)]
    assert loaded == [], f"agent {' '.join(argv)} loaded {loaded}"
    assert "Usage:" in out or "version" in out


def test_every_command_in_the_table_is_the_command_of_that_name() -> None:
    ctx = click.Context(cli)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None and command.name == name
    assert cli.get_command(ctx, "no-such-command") is None
    assert cli.list_commands(ctx) == list(COMMANDS)
