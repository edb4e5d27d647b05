"""One writer per thread: a run holds its thread's lock in the store while it runs.

Two processes running the same thread at once would both write children of the same
checkpoint; the later one becomes the thread's head and the other turn is lost on a side
branch nothing shows. A run therefore takes its thread's lock first and a second writer is
refused with one line (`ThreadBusy`) instead.

- SQLite: a POSIX byte-range lock (`fcntl.lockf`) on `<db>.locks`, one byte per thread
  (placed by a hash of its id). The kernel drops it when the process dies, SIGKILL included.
- PostgreSQL: a session advisory lock keyed by the same hash, on the saver's connection (or,
  for a saver on a pool, one pool connection held for the run); it goes with the connection
  when the process dies.
- Within one process (any store), a registry of held threads, since POSIX and advisory
  locks do not exclude two holders in the same process.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.app.store_error import CheckpointerError

LOCK_SUFFIX = ".locks"
BUSY = (
    "thread {thread!r} is being run by another process or session; "
    "wait for it to finish, then try again"
)
_HELD: set[tuple[int, str]] = set()
_HELD_GUARD = threading.Lock()
_FILES: dict[str, tuple[int, int]] = {}  # lock file path -> (fd, holders), one fd per process


class ThreadBusy(CheckpointerError):
    """Another run holds the thread (one line, for the user)."""


def lock_key(thread_id: str) -> int:
    """A stable 62-bit number for a thread id (a byte offset, or an advisory lock key)."""
    digest = hashlib.sha256(thread_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 2


@contextmanager
def thread_lock(checkpointer: BaseCheckpointSaver, thread_id: str) -> Iterator[None]:
    """Hold `thread_id`'s run lock in `checkpointer`'s store; ThreadBusy if someone has it."""
    with ExitStack() as stack:
        stack.enter_context(_in_process(checkpointer, thread_id))
        path = _sqlite_path(checkpointer)
        if path is not None:
            stack.enter_context(_file_lock(path + LOCK_SUFFIX, thread_id))
        elif _is_postgres(checkpointer):
            stack.enter_context(_advisory_lock(checkpointer, thread_id))
        yield


@contextmanager
def _in_process(checkpointer: BaseCheckpointSaver, thread_id: str) -> Iterator[None]:
    """Refuse a second run of the thread from this process."""
    key = (id(checkpointer), thread_id)
    store = _sqlite_path(checkpointer)
    if store is not None:
        key = (0, f"{store}\0{thread_id}")
    with _HELD_GUARD:
        if key in _HELD:
            raise ThreadBusy(BUSY.format(thread=thread_id))
        _HELD.add(key)
    try:
        yield
    finally:
        with _HELD_GUARD:
            _HELD.discard(key)


def _sqlite_path(checkpointer: BaseCheckpointSaver) -> str | None:
    """The file behind a SqliteSaver (None for other stores and in-memory SQLite)."""
    conn = getattr(checkpointer, "conn", None)
    if not isinstance(conn, sqlite3.Connection):
        return None
    lock = getattr(checkpointer, "lock", None)
    with lock if lock is not None else threading.Lock():
        rows = conn.execute("PRAGMA database_list").fetchall()
    path = next((str(row[2]) for row in rows if row[1] == "main"), "")
    return os.path.realpath(path) if path else None


@contextmanager
def _file_lock(path: str, thread_id: str) -> Iterator[None]:
    """A non-blocking exclusive lock on the thread's byte of `path`."""
    offset = lock_key(thread_id)
    fd = _open_lock_file(path)
    try:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset, os.SEEK_SET)
        except OSError:
            raise ThreadBusy(BUSY.format(thread=thread_id)) from None
        try:
            yield
        finally:
            fcntl.lockf(fd, fcntl.LOCK_UN, 1, offset, os.SEEK_SET)
    finally:
        _close_lock_file(path)


def _open_lock_file(path: str) -> int:
    """The one descriptor this process keeps on the lock file (closing another drops locks)."""
    with _HELD_GUARD:
        fd, holders = _FILES.get(path, (-1, 0))
        if fd < 0:
            fd = _open_regular(path)
        _FILES[path] = (fd, holders + 1)
        return fd


def _open_regular(path: str) -> int:
    """Open (or create) the lock file, never through a link; one-line error if it is not a file."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError as e:
        what = "a link" if os.path.islink(path) else (e.strerror or str(e)).lower()
        problem = f"cannot use the thread lock file ({what}); remove it"
        raise CheckpointerError(f"{path}: {problem}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise CheckpointerError(f"{path}: the thread lock file is not a regular file; remove it")
    return fd


def _close_lock_file(path: str) -> None:
    """Close the lock file once no lock of this process is on it."""
    with _HELD_GUARD:
        fd, holders = _FILES[path]
        if holders <= 1:
            del _FILES[path]
            os.close(fd)
        else:
            _FILES[path] = (fd, holders - 1)


def _is_postgres(checkpointer: BaseCheckpointSaver) -> bool:
    """Whether the saver is langgraph's PostgresSaver."""
    return type(checkpointer).__module__.startswith("langgraph.checkpoint.postgres")


@contextmanager
def _advisory_lock(checkpointer: Any, thread_id: str) -> Iterator[None]:
    """A session advisory lock for the thread, taken and released on one connection."""
    key = lock_key(thread_id)
    with _lock_connection(checkpointer) as ask:
        if not ask("SELECT pg_try_advisory_lock(%s)", key):
            raise ThreadBusy(BUSY.format(thread=thread_id))
        try:
            yield
        finally:
            ask("SELECT pg_advisory_unlock(%s)", key)


Ask = Callable[[str, int], bool]
"""Runs one advisory-lock query with its key; the query's boolean result."""


@contextmanager
def _lock_connection(checkpointer: Any) -> Iterator[Ask]:
    """The connection a PostgresSaver's run lock lives on, for as long as the lock is held.

    A saver on one connection (what `open_checkpointer` makes) lends it through its public
    `conn`, under its own `lock` so no query of the saver's interleaves; a saver on a pool gets
    one of the pool's connections, held until the lock is released (a session lock belongs
    to the connection that took it).
    """
    from psycopg_pool import ConnectionPool

    conn, guard = checkpointer.conn, checkpointer.lock
    if isinstance(conn, ConnectionPool):
        with conn.connection() as held:
            yield lambda query, key: _ask(held, query, key)
        return
    yield lambda query, key: _ask(conn, query, key, guard)


def _ask(conn: Any, query: str, key: int, guard: AbstractContextManager[Any] | None = None) -> bool:
    """Run one advisory-lock query on `conn` (inside `guard` if given); its boolean result."""
    with guard if guard is not None else nullcontext():
        row = conn.execute(query, (key,)).fetchone()
    if isinstance(row, dict):
        return bool(next(iter(row.values()), False))
    return bool(row and row[0])
