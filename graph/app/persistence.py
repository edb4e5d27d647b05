"""Checkpointers: a SQLite file in the state directory by default, PostgreSQL by URL.

This module picks the store (`open_checkpointer`) and checks what names it (`--db`, thread ids);
the stores themselves are `graph.app.sqlite_store` and `graph.app.postgres_store`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.app.home import agent_home
from graph.app.postgres_store import DB_TIMEOUT_ENV, db_timeout, open_postgres
from graph.app.sqlite_store import open_sqlite, open_sqlite_read_only
from graph.app.store_error import CheckpointerError

DB_FILE = "checkpoints.sqlite"
THREAD_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}")


def check_thread_id(thread_id: str) -> str:
    """`thread_id` if it is a safe id (letters, digits, `._:@-`, at most 128), else an error."""
    if not isinstance(thread_id, str) or not THREAD_ID_RE.fullmatch(thread_id):
        raise ValueError(
            f"bad thread id {thread_id!r}: use up to 128 letters, digits and . _ : @ -"
        )
    return thread_id


POSTGRES_SCHEMES = ("postgres://", "postgresql://")
URL_LIKE_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
PASSWORD_RE = re.compile(r"(//[^/:@]*:)[^/@]*@")


def check_db(db: str | None) -> None:
    """Refuse a `--db` that looks like a URL but is not a PostgreSQL one (nothing is created).

    `postgresq://...` (a typo) or `file:x.sqlite?mode=ro` would otherwise become a SQLite
    file under a folder named after the scheme.
    """
    if not db or db.startswith(POSTGRES_SCHEMES) or not URL_LIKE_RE.match(db):
        return
    shown = PASSWORD_RE.sub(r"\1***@", db)
    raise CheckpointerError(
        f"--db {shown!r} looks like a URL but only postgresql:// URLs are supported; "
        "give a SQLite file as a plain path"
    )


@contextmanager
def open_checkpointer(
    db: str | None = None, *, read_only: bool = False
) -> Iterator[BaseCheckpointSaver]:
    """The checkpointer for `db`: None (the state directory's SQLite file), a path, or a URL.

    `read_only` opens a SQLite store for reading only: nothing is created or changed, so a
    read-only file or folder can be read (a missing file reads as an empty store).
    """
    check_db(db)
    if db and db.startswith(POSTGRES_SCHEMES):
        with open_postgres(db) as saver:
            yield saver
        return
    path = Path(db) if db else agent_home() / DB_FILE
    opener = open_sqlite_read_only if read_only else open_sqlite
    with opener(path) as saver:
        yield saver


def describe_store_error(error: Exception) -> str:
    """One line for an error the checkpoint store raised during a run."""
    text = " ".join(str(error).split())
    if "locked" in text or "busy" in text:
        return "the checkpoint database is locked by another process; try again"
    if "not a database" in text or "malformed" in text:
        return "the checkpoint database is corrupted; it was left as is"
    if "statement timeout" in text or "lock timeout" in text:
        return (
            f"the checkpoint database did not answer within {DB_TIMEOUT_ENV}="
            f"{db_timeout():g}s ({text[:120]})"
        )
    return f"checkpoint store error: {type(error).__name__}: {text[:200]}"
