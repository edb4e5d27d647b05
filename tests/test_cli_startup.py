"""`agent`, `agent --version`, `agent --help` and every `agent X --help` start without LangChain.

Each is run in a fresh interpreter (as a user starts it) and must load no LangChain,
LangGraph, numpy, scipy, torch or MCP server module: the group imports a command's module only
when that command is asked for, and the command modules import their work inside the commands.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from graph.cli.main import COMMANDS, cli

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("langchain", "langgraph", "numpy", "scipy", "torch", "mcp", "starlette", "uvicorn")
"""Top-level packages that must stay unloaded (`langchain` also covers its `langchain_*`)."""
RUN_AND_REPORT = """
import json, sys
from graph.cli.main import main
try:
    main(json.loads(sys.argv[1]))
except SystemExit as done:
    code = done.code
else:
    code = 0
print(json.dumps({"code": code, "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""


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
    done = subprocess.run(
        [sys.executable, "-c", RUN_AND_REPORT, json.dumps(argv)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "AGENT_HOME": str(tmp_path / "h")},
        timeout=120,
    )
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["code"] == 0, done.stderr
    loaded = [m for m in report["modules"] if m.startswith(HEAVY)]
    assert loaded == [], f"agent {' '.join(argv)} loaded {loaded}"
    assert "Usage:" in done.stdout or "version" in done.stdout


def test_every_command_in_the_table_is_the_command_of_that_name() -> None:
    ctx = click.Context(cli)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None and command.name == name
    assert cli.get_command(ctx, "no-such-command") is None
    assert cli.list_commands(ctx) == list(COMMANDS)
