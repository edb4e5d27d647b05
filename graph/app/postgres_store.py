"""The PostgreSQL checkpoint store: a PostgresSaver whose waits are all bounded.

`AGENT_DB_TIMEOUT` bounds the connect, every statement and every lock wait, and the schema
migrations (LangGraph's, then the thread heads table of `graph.app.thread_heads`) run once
under an advisory lock even when processes start together.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.app.store_error import CheckpointerError, first_line
from graph.app.thread_heads import install_postgres
from graph.common.env import env_float

DB_TIMEOUT_ENV = "AGENT_DB_TIMEOUT"
DB_TIMEOUT_S = 30.0
"""PostgreSQL: the most a connection attempt, a statement or a lock wait may take."""


@contextmanager
def open_postgres(url: str) -> Iterator[BaseCheckpointSaver]:
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
        raise CheckpointerError(f"cannot connect to PostgreSQL: {first_line(error)}") from None
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
        raise CheckpointerError(f"bad PostgreSQL URL: {first_line(error)}") from None
    millis = max(1, int(seconds * 1000))
    limits = f"-c statement_timeout={millis} -c lock_timeout={millis}"
    options = f"{params.get('options') or ''} {limits}".strip()
    return make_conninfo(url, connect_timeout=max(2, math.ceil(seconds)), options=options)


SETUP_LOCK_KEY = 0x6167656E74  # "agent": one advisory lock for the schema migrations
SETUP_WAIT_S = 60.0


def _setup_once(url: str, saver: BaseCheckpointSaver) -> None:
    """Run the saver's migrations, and make the heads table, while holding an advisory lock.

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
            install_postgres(conn)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK_KEY,))


def _try_lock(conn: Any) -> bool:
    """Take the setup advisory lock if it is free (never waits)."""
    row = conn.execute("SELECT pg_try_advisory_lock(%s)", (SETUP_LOCK_KEY,)).fetchone()
    return bool(row and row[0])
