"""Pieces the `agent` commands share: one-line user errors, the `--db` option, a session."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from graph.context import DEFAULT_K


def echo_lines(lines: list[str]) -> None:
    """Print lines to standard output."""
    for line in lines:
        click.echo(line)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the errors a user can cause into one-line `click.ClickException`s."""
    import psycopg

    from corpora import CorpusError
    from graph.models import ModelSpecError
    from graph.persistence import CheckpointerError, describe_store_error
    from graph.run import UnknownThread

    try:
        yield
    except (CorpusError, ModelSpecError, CheckpointerError, UnknownThread, ValueError) as error:
        message = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
        raise click.ClickException(" ".join(message.split())) from None
    except (sqlite3.Error, psycopg.Error) as error:
        raise click.ClickException(describe_store_error(error)) from None


@contextmanager
def interrupted_hint(thread_id: str) -> Iterator[None]:
    """On Ctrl-C, say how to resume the thread (one line) and exit 130."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo(f"error: interrupted; resume with: agent resume {thread_id}", err=True)
        raise SystemExit(130) from None


@contextmanager
def session(
    db: str | None,
    corpus_specs: tuple[str, ...] = (),
    k: int = DEFAULT_K,
    model: str | None = None,
    read_only: bool = False,
) -> Iterator[Any]:
    """A `Session` on the chosen checkpoint store, with user corpora, checking the model.

    `read_only` opens the store only to read it (`threads`, `replay`).
    """
    from corpora import parse_corpus_spec
    from graph.models import load_model
    from graph.persistence import open_checkpointer
    from graph.run import Session

    with user_errors():
        corpora = [parse_corpus_spec(spec) for spec in corpus_specs]
        if model is not None:
            load_model(model)
        with open_checkpointer(db, read_only=read_only) as saver:
            yield Session(saver, corpora=corpora, k=k)


def db_option(function: Any) -> Any:
    """The `--db` option shared by commands that read or write threads."""
    return click.option(
        "--db",
        default=None,
        metavar="PATH|URL",
        help="Checkpoint store: a SQLite file or postgresql:// URL (default: $AGENT_HOME).",
    )(function)
