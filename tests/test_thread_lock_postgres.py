"""The PostgreSQL run lock: a session advisory lock, taken and released on one connection.

Against a real server (AGENT_TEST_PG_DSN): a saver on one connection (what `--db postgresql://`
opens) and a saver on a connection pool, whose connections take turns between calls.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest
from conftest import PG_DSN, needs_postgres
from langgraph.checkpoint.postgres import PostgresSaver
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from graph.app.persistence import open_checkpointer
from graph.app.thread_lock import ThreadBusy, lock_key, thread_lock

pytestmark = needs_postgres


def lock_is_free(thread_id: str) -> bool:
    """Whether another session could take the thread's advisory lock now (it is let go again)."""
    assert PG_DSN is not None
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        row = conn.execute("SELECT pg_try_advisory_lock(%s)", (lock_key(thread_id),)).fetchone()
        taken = bool(row and row[0])
        if taken:
            conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key(thread_id),))
    return taken


@pytest.fixture
def schema_dsn() -> Iterator[str]:
    """A DSN whose search_path is a fresh schema, dropped afterwards."""
    assert PG_DSN is not None
    schema = f"lock_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in PG_DSN else "?"
    try:
        yield f"{PG_DSN}{separator}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def test_the_lock_on_one_connection_excludes_other_sessions(schema_dsn: str) -> None:
    thread = f"t-{uuid.uuid4().hex[:8]}"
    with open_checkpointer(schema_dsn) as saver, open_checkpointer(schema_dsn) as other:
        with thread_lock(saver, thread):
            assert not lock_is_free(thread)
            with pytest.raises(ThreadBusy, match="is being run by another"):
                with thread_lock(other, thread):
                    pass
            with thread_lock(other, f"{thread}-b"):  # another thread is not held up
                assert not lock_is_free(f"{thread}-b")
            assert lock_is_free(f"{thread}-b")
            assert list(saver.list(None, limit=1)) == []  # the saver still works meanwhile
        assert lock_is_free(thread)
        with thread_lock(other, thread):  # and the other store can have it now
            assert not lock_is_free(thread)
    assert lock_is_free(thread)


def test_the_lock_over_a_pool_is_released_by_the_connection_that_took_it(
    schema_dsn: str,
) -> None:
    thread = f"t-{uuid.uuid4().hex[:8]}"
    kwargs = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
    with ConnectionPool(schema_dsn, min_size=3, max_size=3, kwargs=kwargs) as pool:
        saver = PostgresSaver(pool)  # type: ignore[arg-type]
        saver.setup()
        for _ in range(3):
            with thread_lock(saver, thread):
                assert not lock_is_free(thread)
                for _ in range(4):  # the pool hands out its connections in turn
                    assert list(saver.list(None, limit=1)) == []
            assert lock_is_free(thread)
