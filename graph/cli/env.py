"""The CLI's environment: a `.env` file in the working directory, and notices on stderr.

The notices: a slow model server (`graph.models.notices`), and once per folder, that the
default state directory moved away from `./.agent` (`graph.app.home`).
"""

from __future__ import annotations

import logging
from pathlib import Path

import click

from graph.app.home import legacy_home_notice
from graph.models.notices import LOGGER

DOTENV = ".env"


class _StderrNotices(logging.Handler):
    """Prints each notice as one `note: ...` line on standard error."""

    def emit(self, record: logging.LogRecord) -> None:
        """Print the record's message."""
        click.echo(f"note: {' '.join(record.getMessage().split())}", err=True)


def load_dotenv_file(directory: Path | None = None) -> None:
    """Read `.env` from `directory` (default: the working directory) into the environment.

    Variables already set win over the file. A `.env` that cannot be read is a one-line
    `click.ClickException`.
    """
    path = (directory or Path.cwd()) / DOTENV
    if not path.exists():
        return
    from dotenv import load_dotenv

    if not path.is_file():  # a folder is ignored by python-dotenv, a named pipe blocks it
        raise click.ClickException(f"{path}: cannot read the .env file: not a regular file")
    try:
        load_dotenv(path, override=False, encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise click.ClickException(f"{path}: cannot read the .env file: {error}") from None


def show_model_notices() -> None:
    """Send model notices (a slow model server) to standard error, once per process."""
    logger = logging.getLogger(LOGGER)
    if not any(isinstance(handler, _StderrNotices) for handler in logger.handlers):
        logger.addHandler(_StderrNotices())
        logger.setLevel(logging.INFO)
        logger.propagate = False


def prepare_environment() -> None:
    """What every `agent` command needs before it parses its options."""
    load_dotenv_file()
    show_model_notices()
    moved = legacy_home_notice()
    if moved is not None:
        click.echo(f"note: {moved}", err=True)
