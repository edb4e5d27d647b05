"""The `agent` command line (also `python -m graph`): the group, its commands, and `main`.

Each command lives in the module of its concern and is added to the group here. `main` runs
click in non-standalone mode so that every user error, usage errors included, prints one line
(`error: ...`, rendered safe for the terminal) instead of click's usage block, and so that the
`.env` file is read first.
"""

from __future__ import annotations

import sys

import click

from graph.app.terminal import safe_text
from graph.cli.ask import ask, demo
from graph.cli.env import prepare_environment
from graph.cli.evals import eval_command
from graph.cli.flow import compare_flow, flow
from graph.cli.index import corpora_command, index_command
from graph.cli.mcp import mcp_group
from graph.cli.shapes import shapes
from graph.cli.threads import replay, resume, threads


@click.group()
@click.version_option(package_name="agentic-rag", prog_name="agent")
def cli() -> None:
    """A ReAct agentic-RAG agent on LangGraph: BM25 tools, an offline policy, saved threads."""


for command in (
    demo,
    ask,
    threads,
    replay,
    resume,
    eval_command,
    flow,
    compare_flow,
    shapes,
    mcp_group,
    index_command,
    corpora_command,
):
    cli.add_command(command)


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
