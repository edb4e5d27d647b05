"""Pieces the `agent` commands share: one-line user errors, the `--db` option, a session."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from graph.agent.budget import MAX_STEPS, MIN_STEPS
from graph.app.terminal import safe_json, safe_text
from tools.search_settings import MAX_K, MIN_K, RETRIEVERS

STEPS = click.IntRange(MIN_STEPS, MAX_STEPS)
"""`--max-steps` (and `--fork`): the step budget's range, from `graph.agent.budget`."""
K = click.IntRange(MIN_K, MAX_K)
"""`--k`: passages per search, from `tools.search_settings`."""
RETRIEVER = click.Choice(RETRIEVERS)
"""`--retriever`: the retriever names, from `tools.retrievers`."""
OPTION_LABELS = {
    "model": "--model",
    "max_steps": "--max-steps",
    "k": "--k",
    "require_search": "--require-search",
}
"""How a trace note names each run setting: as the option that sets it."""


def echo_lines(lines: list[str]) -> None:
    """Print lines to standard output, control characters rendered visibly."""
    for line in lines:
        click.echo(safe_text(line))


def echo_live(text: str) -> None:
    """Write text as it streams in (no newline added), control characters rendered visibly."""
    click.echo(safe_text(text), nl=False)  # click flushes after every echo


def echo_json(value: Any) -> None:
    """Print `value` as one line of JSON, with no raw control or format characters."""
    click.echo(safe_json(value))


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the errors a user can cause into one-line `click.ClickException`s.

    PostgreSQL's errors are caught only when psycopg was loaded (a PostgreSQL store was
    opened): a SQLite command does not pay for importing it.
    """
    from corpora import CorpusError
    from graph.app.agent_threads import UnknownThread
    from graph.app.persistence import describe_store_error
    from graph.app.store_error import CheckpointerError
    from graph.models import ModelSpecError

    try:
        yield
    except (CorpusError, ModelSpecError, CheckpointerError, UnknownThread, ValueError) as error:
        message = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
        raise click.ClickException(" ".join(message.split())) from None
    except Exception as error:
        psycopg = sys.modules.get("psycopg")
        if isinstance(error, sqlite3.Error) or (psycopg and isinstance(error, psycopg.Error)):
            raise click.ClickException(describe_store_error(error)) from None
        raise


@contextmanager
def interrupted_hint(thread_id: str) -> Iterator[None]:
    """On Ctrl-C, say how to resume the thread (one line) and exit 130.

    Waits on other threads (an MCP call, a model call) end at once too (`on_ctrl_c`).
    """
    from graph.common.cancel import on_ctrl_c

    try:
        with on_ctrl_c():
            yield
    except KeyboardInterrupt:
        click.echo(f"error: interrupted; resume with: agent resume {thread_id}", err=True)
        raise SystemExit(130) from None


@contextmanager
def session(
    db: str | None,
    model: str | None = None,
    retriever: str | None = None,
    read_only: bool = False,
) -> Iterator[Any]:
    """A `Session` over the built-in corpora on the chosen checkpoint store.

    The model is checked first. A streaming model's thoughts are printed as they arrive
    (`echo_live`). `read_only` opens the store only to read it (`threads`, `replay`). The
    built-ins, not ``$AGENT_CORPORA``: `agent demo` runs the seed goals over the seed corpora,
    and reading threads needs no corpus.
    """
    from graph.app.persistence import open_checkpointer
    from graph.app.session import Session
    from graph.models import load_model

    with user_errors():
        if model is not None:
            load_model(model)
        with (
            open_checkpointer(db, read_only=read_only) as saver,
            Session(saver, on_token=echo_live, retriever=retriever, builtins=True) as agent,
        ):
            yield agent


def db_option(function: Any) -> Any:
    """The `--db` option shared by commands that read or write threads."""
    return click.option(
        "--db",
        default=None,
        metavar="PATH|URL",
        help="Checkpoint store: a SQLite file or postgresql:// URL (default: $AGENT_HOME).",
    )(function)


def quiet_option(function: Any) -> Any:
    """The `--quiet` option: print only the answer."""
    return click.option(
        "--quiet",
        "-q",
        is_flag=True,
        help="Print only the answer (no answer: one error line, exit 1).",
    )(function)


def echo_answer_only(result: dict[str, Any]) -> None:
    """Print the answer alone; a run without one is a one-line error (exit 1)."""
    if result.get("stopped") == "error":
        raise click.ClickException(str(result.get("error") or "the run stopped on an error"))
    if result.get("answer") is None:
        steps = int(result.get("steps") or 0)
        why = {
            "budget": "the step budget ran out",
            "no_answer": "the passages found do not cover the question",
        }.get(str(result.get("stopped")), "the run stopped")
        raise click.ClickException(f"no answer: {why} after {steps} model call{'s' * (steps != 1)}")
    echo_lines([str(result["answer"])])
