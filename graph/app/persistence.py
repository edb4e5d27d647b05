"""Checkpointers: a SQLite file in the state directory by default, PostgreSQL by URL."""

from __future__ import annotations

import math
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from graph.app.sqlite_deadline import DeadlineSqliteSaver, LockBudget
from graph.common.env import env_float

HOME_ENV = "AGENT_HOME"
DEFAULT_HOME = ".agent"
DB_FILE = "checkpoints.sqlite"
SQLITE_TIMEOUT_ENV = "AGENT_SQLITE_TIMEOUT"
SQLITE_TIMEOUT_S = 10.0
"""How long a write waits for another process's lock before failing (one clear line)."""
DB_TIMEOUT_ENV = "AGENT_DB_TIMEOUT"
DB_TIMEOUT_S = 30.0
"""PostgreSQL: the most a connection attempt, a statement or a lock wait may take."""
THREAD_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}")


class CheckpointerError(RuntimeError):
    """A checkpoint store that cannot be opened or used (one line, for the user)."""


def agent_home() -> Path:
    """The state directory: `$AGENT_HOME`, or `./.agent/`."""
    return Path(os.environ.get(HOME_ENV) or DEFAULT_HOME)


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
        with _postgres(db) as saver:
            yield saver
        return
    path = Path(db) if db else agent_home() / DB_FILE
    opener = _sqlite_read_only if read_only else _sqlite
    with opener(path) as saver:
        yield saver


@contextmanager
def _sqlite_read_only(path: Path) -> Iterator[SqliteSaver]:
    """A SqliteSaver that only reads `path` (an empty in-memory store when it is missing)."""
    if path.is_dir():
        raise CheckpointerError(f"{path}: is a directory, not a SQLite file")
    folder = next((p for p in path.parents if p.exists()), None)
    if folder is not None and not folder.is_dir():
        raise CheckpointerError(f"{folder}: is a file, not a folder for the checkpoint database")
    if not path.exists():
        conn = sqlite3.connect(":memory:", check_same_thread=False)
    else:
        conn = _connect_read_only(path)
    try:
        saver = SqliteSaver(conn)
        if path.exists():
            _check_tables(path, conn)
            saver.is_setup = True  # its setup writes (journal mode, tables)
        yield saver
    finally:
        conn.close()


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection; `immutable` when even the WAL index cannot be opened."""
    location = quote(str(path.resolve()))
    try:
        conn = sqlite3.connect(
            f"file:{location}?mode=ro", uri=True, check_same_thread=False, timeout=sqlite_timeout()
        )
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error) or "malformed" in str(error):
            raise CheckpointerError(_sqlite_problem(path, error)) from None
    try:  # a WAL database in a folder we may not write: no -shm can be made
        return sqlite3.connect(f"file:{location}?immutable=1", uri=True, check_same_thread=False)
    except sqlite3.Error as error:
        raise CheckpointerError(f"{path}: cannot open the checkpoint database: {error}") from None


def _check_tables(path: Path, conn: sqlite3.Connection) -> None:
    """Refuse a SQLite file that is not a checkpoint store."""
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    except sqlite3.DatabaseError as error:
        raise CheckpointerError(_sqlite_problem(path, error)) from None
    tables = {row[0] for row in rows}
    if tables and not {"checkpoints", "writes"} <= tables:
        raise CheckpointerError(f"{path}: a SQLite file, but not a checkpoint database")


@contextmanager
def _sqlite(path: Path) -> Iterator[SqliteSaver]:
    """A SqliteSaver on `path` (created if missing), in WAL mode.

    Its lock waits share one deadline (`sqlite_timeout`) for the whole command
    (`graph.app.sqlite_deadline`).

    An existing file is checked (`PRAGMA quick_check`) before anything in it is changed, so a
    damaged one is reported and left byte for byte as it was.
    """
    if path.is_dir():
        raise CheckpointerError(f"{path}: is a directory, not a SQLite file")
    if path.exists() and path.stat().st_size > 0:
        _check_integrity(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, check_same_thread=False, timeout=sqlite_timeout())
    except (OSError, sqlite3.Error) as error:
        raise CheckpointerError(f"{path}: cannot open the checkpoint database: {error}") from None
    try:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL loses no committed checkpoint when the process dies (only a
            # power cut can take the last few); FULL would fsync every one of ~15 writes a run.
            conn.execute("PRAGMA synchronous=NORMAL")
            saver = DeadlineSqliteSaver(conn, LockBudget(sqlite_timeout()))
            saver.setup()
        except sqlite3.DatabaseError as error:
            raise CheckpointerError(_sqlite_problem(path, error)) from None
        yield saver
    finally:
        conn.close()


def _check_integrity(path: Path) -> None:
    """A one-line CheckpointerError when an existing SQLite file is damaged.

    Nothing is written: with no WAL content the file is read as `immutable` (no -wal or -shm
    is made beside it); a failure then is confirmed by an ordinary read-only check only if a
    writer has started meanwhile (its -wal file is there).
    """
    wal = Path(f"{path}-wal")
    problem = "unchecked"
    if not wal.exists() or wal.stat().st_size == 0:
        location = quote(str(path.resolve()))
        problem = _quick_check(sqlite3.connect(f"file:{location}?immutable=1", uri=True))
    if problem != "ok" and wal.exists():
        problem = _quick_check(_connect_read_only(path))
    if problem != "ok":
        detail = " ".join(problem.split())[:120]
        raise CheckpointerError(
            f"{path}: the checkpoint database is damaged ({detail}); it was left as is"
        )


def _quick_check(conn: sqlite3.Connection) -> str:
    """SQLite's `quick_check` verdict ("ok", or the first problem), closing `conn`."""
    try:
        row = conn.execute("PRAGMA quick_check(1)").fetchone()
        return str(row[0]) if row else "no result"
    except sqlite3.DatabaseError as error:
        return str(error)
    finally:
        conn.close()


def sqlite_timeout() -> float:
    """The lock wait for SQLite writes: $AGENT_SQLITE_TIMEOUT seconds, or 10."""
    try:
        return env_float(SQLITE_TIMEOUT_ENV, SQLITE_TIMEOUT_S, 0.001, 3600)
    except ValueError as error:
        raise CheckpointerError(str(error)) from None


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


def _sqlite_problem(path: Path, error: sqlite3.Error) -> str:
    """One line saying what is wrong with a SQLite file (nothing in it is changed)."""
    text = str(error)
    if "locked" in text or "busy" in text:
        return f"{path}: the checkpoint database is locked by another process; try again"
    if "not a database" in text or "malformed" in text:
        return f"{path}: not a valid SQLite checkpoint database (corrupted?); it was left as is"
    return f"{path}: checkpoint database error: {text}"


@contextmanager
def _postgres(url: str) -> Iterator[BaseCheckpointSaver]:
    """A PostgresSaver on `url`, with its tables set up."""
    try:
        from langgraph.checkpoint.postgres import PostgresSaver
    except ImportError:  # pragma: no cover - a dependency of the project
        raise CheckpointerError("PostgreSQL needs langgraph-checkpoint-postgres") from None
    conninfo = postgres_conninfo(url)
    try:
        manager = PostgresSaver.from_conn_string(conninfo)
        saver = manager.__enter__()
    except Exception as error:
        raise CheckpointerError(f"cannot connect to PostgreSQL: {_first_line(error)}") from None
    try:
        _setup_once(conninfo, saver)
        yield saver
    finally:
        manager.__exit__(None, None, None)


def db_timeout() -> float:
    """$AGENT_DB_TIMEOUT seconds (default 30): PostgreSQL's connect, statement, lock waits."""
    try:
        return env_float(DB_TIMEOUT_ENV, DB_TIMEOUT_S, 0.1, 3600)
    except ValueError as error:
        raise CheckpointerError(str(error)) from None


def postgres_conninfo(url: str) -> str:
    """`url` with a connect timeout and statement and lock timeouts (`db_timeout`).

    A server that accepts and never replies, or a table lock held elsewhere, then ends in
    one line instead of a hang. Options already in the URL are kept.
    """
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    seconds = db_timeout()
    try:
        params = conninfo_to_dict(url)
    except Exception as error:
        raise CheckpointerError(f"bad PostgreSQL URL: {_first_line(error)}") from None
    millis = max(1, int(seconds * 1000))
    limits = f"-c statement_timeout={millis} -c lock_timeout={millis}"
    options = f"{params.get('options') or ''} {limits}".strip()
    return make_conninfo(url, connect_timeout=max(2, math.ceil(seconds)), options=options)


SETUP_LOCK_KEY = 0x6167656E74  # "agent": one advisory lock for the schema migrations
SETUP_WAIT_S = 60.0


def _setup_once(url: str, saver: BaseCheckpointSaver) -> None:
    """Run the saver's migrations while holding an advisory lock.

    Processes starting together would otherwise race on the migrations (CREATE INDEX
    CONCURRENTLY deadlocks). The lock is polled, not waited on, so a waiting process holds no
    snapshot that the migrating one must wait for.
    """
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        deadline = time.monotonic() + SETUP_WAIT_S
        while not _try_lock(conn):
            if time.monotonic() > deadline:
                raise CheckpointerError("PostgreSQL: timed out waiting for another process's setup")
            time.sleep(0.05)
        try:
            saver.setup()  # type: ignore[attr-defined]
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK_KEY,))


def _try_lock(conn: Any) -> bool:
    """Take the setup advisory lock if it is free (never waits)."""
    row = conn.execute("SELECT pg_try_advisory_lock(%s)", (SETUP_LOCK_KEY,)).fetchone()
    return bool(row and row[0])


def _first_line(error: BaseException) -> str:
    """The first line of an error message."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0]
