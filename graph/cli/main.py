"""The `agent` command line (also `python -m graph`): the group, its command table, and `main`.

Each command lives in the module of its concern; `COMMANDS` names it, and the group imports
a command's module only when that command is asked for (its help included), so `agent`,
`agent --version` and `agent --help` load no LangChain, LangGraph or numpy: the command
modules import their work inside the commands (`tests/test_cli_startup.py` checks this).
`main` runs click in non-standalone mode so that every user error, usage errors included,
prints one line (`error: ...`, rendered safe for the terminal) instead of click's usage
block, and so that the `.env` file is read first.
"""

from __future__ import annotations

import importlib
import sys

import click

from graph.app.terminal import safe_text
from graph.cli.env import prepare_environment

COMMANDS = {
    "demo": ("graph.cli.ask", "demo"),
    "ask": ("graph.cli.ask", "ask"),
    "threads": ("graph.cli.threads", "threads"),
    "replay": ("graph.cli.threads", "replay"),
    "resume": ("graph.cli.threads", "resume"),
    "eval": ("graph.cli.evals", "eval_command"),
    "flow": ("graph.cli.flow", "flow"),
    "compare-flow": ("graph.cli.flow", "compare_flow"),
    "shapes": ("graph.cli.shapes", "shapes"),
    "mcp": ("graph.cli.mcp", "mcp_group"),
    "index": ("graph.cli.index", "index_command"),
    "corpora": ("graph.cli.index", "corpora_command"),
}
"""Command name -> (module, attribute) of its click command, in the order `--help` lists them."""


class LazyGroup(click.Group):
    """A click group whose commands are imported from `COMMANDS` when first asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The command names, in `COMMANDS` order."""
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Import the command's module and return its command (None: no such command)."""
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attribute = target
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command) or command.name != cmd_name:
            raise TypeError(f"COMMANDS[{cmd_name!r}] is not the command {cmd_name!r}: {target}")
        return command


@click.group(cls=LazyGroup)
@click.version_option(package_name="agentic-rag", prog_name="agent")
def cli() -> None:
    """A ReAct agentic-RAG agent on LangGraph: BM25 tools, an offline policy, saved threads."""


def _say_error(message: str) -> None:
    """Print `error: ...` on one line of standard error, rendered safe for the terminal."""
    click.echo(f"error: {' '.join(safe_text(message, one_line=True).split())}", err=True)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; user errors print one line (`error: ...`) and exit non-zero."""
    try:
        prepare_environment()
        cli.main(args=argv, prog_name="agent", standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.exceptions.NoArgsIsHelpError as asked:  # bare `agent`: the help, as is
        click.echo(asked.format_message())
        sys.exit(0)
    except click.UsageError as error:
        _say_error(error.format_message())
        sys.exit(2)
    except click.ClickException as error:
        _say_error(error.format_message())
        sys.exit(1)
    except click.Abort:
        click.echo("error: aborted", err=True)
        sys.exit(130)
