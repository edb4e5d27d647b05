"""The SQLite checkpoint store: a WAL file opened for writing, or read-only, checked first.

An existing file that changed since its last good check (`graph.app.sqlite_checked`) is
checked before anything in it is changed, so a damaged one is reported and left byte for byte;
lock waits share one deadline per command (`graph.app.sqlite_deadline`); the thread heads
table (`graph.app.thread_heads`) is made with the checkpoint tables.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from langgraph.checkpoint.sqlite import SqliteSaver

from graph.app.sqlite_checked import note_checked, unchanged_since_check
from graph.app.sqlite_deadline import DeadlineSqliteSaver, LockBudget
from graph.app.store_error import CheckpointerError
from graph.app.thread_heads import install_sqlite
from graph.common.env import env_float

SQLITE_TIMEOUT_ENV = "AGENT_SQLITE_TIMEOUT"
SQLITE_TIMEOUT_S = 10.0
"""How long a write waits for another process's lock before failing (one clear line)."""
SETUP_RETRY_S = 0.05
"""The pause before trying a store's setup again while another process sets it up."""


@contextmanager
def open_sqlite_read_only(path: Path) -> Iterator[SqliteSaver]:
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
def open_sqlite(path: Path) -> Iterator[SqliteSaver]:
    """A SqliteSaver on `path` (created if missing), in WAL mode.

    Its lock waits share one deadline (`sqlite_timeout`) for the whole command
    (`graph.app.sqlite_deadline`).

    An existing file that changed since its last good check is checked (`PRAGMA
    quick_check`) before anything in it is changed, so a damaged one is reported and left byte
    for byte as it was. Closed after a command that ended without an error, its state is
    recorded as good (`graph.app.sqlite_checked`); after an error the next open checks it.
    """
    if path.is_dir():
        raise CheckpointerError(f"{path}: is a directory, not a SQLite file")
    if path.exists() and path.stat().st_size > 0 and not unchanged_since_check(path):
        _check_integrity(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, check_same_thread=False, timeout=sqlite_timeout())
    except (OSError, sqlite3.Error) as error:
        raise CheckpointerError(f"{path}: cannot open the checkpoint database: {error}") from None
    clean = False
    try:
        try:
            saver = _set_up(conn, sqlite_timeout())
        except sqlite3.DatabaseError as error:
            raise CheckpointerError(_sqlite_problem(path, error)) from None
        yield saver
        clean = True
    finally:
        conn.close()
    if clean:
        note_checked(path)


def _set_up(conn: sqlite3.Connection, timeout: float) -> DeadlineSqliteSaver:
    """WAL mode, the checkpoint tables and the thread heads on `conn`; its saver.

    Switching a new file to WAL fails at once, without the busy timeout, while another process
    is setting the same file up (two `agent` commands started together on a new store); the
    setup is tried again until `timeout` has passed, then the error is raised.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL loses no committed checkpoint when the process dies (only a
            # power cut can take the last few); FULL would fsync every one of ~15 writes a run.
            conn.execute("PRAGMA synchronous=NORMAL")
            saver = DeadlineSqliteSaver(conn, LockBudget(max(deadline - time.monotonic(), 0.0)))
            saver.setup()
            install_sqlite(conn)
            return saver
        except sqlite3.OperationalError as error:
            locked = "locked" in str(error) or "busy" in str(error)
            if not locked or time.monotonic() >= deadline:
                raise
            conn.rollback()
            time.sleep(SETUP_RETRY_S)


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


def _sqlite_problem(path: Path, error: sqlite3.Error) -> str:
    """One line saying what is wrong with a SQLite file (nothing in it is changed)."""
    text = str(error)
    if "locked" in text or "busy" in text:
        return f"{path}: the checkpoint database is locked by another process; try again"
    if "not a database" in text or "malformed" in text:
        return f"{path}: not a valid SQLite checkpoint database (corrupted?); it was left as is"
    return f"{path}: checkpoint database error: {text}"
