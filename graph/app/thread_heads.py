"""Each thread's latest checkpoint, kept in a small table by the store itself.

`agent threads` must not read every checkpoint to find the newest of each thread. The SQLite
and PostgreSQL stores therefore keep `agent_thread_heads`: one row per thread (its latest
root checkpoint id, and whether `agent eval` made it), written by triggers on LangGraph's
`checkpoints` table in the same transaction as the checkpoint, so every writer keeps it
right, whatever code saved the checkpoint. `install_*` creates the table, its indexes and
triggers and fills it once from the checkpoints already stored (a store made before it).

A thread `agent eval` made has an id starting `EVAL_THREAD_PREFIX` (`evals.runner` names
them so) or an `eval` entry (not null or false) in its checkpoint metadata; the listing leaves
those out unless asked.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

HEADS_TABLE = "agent_thread_heads"
EVAL_THREAD_PREFIX = "eval-"


def is_eval_thread(thread_id: str, metadata: Mapping[str, Any] | None) -> bool:
    """Whether `agent eval` made the thread (by its id, or an `eval` entry in its metadata)."""
    return thread_id.startswith(EVAL_THREAD_PREFIX) or (metadata or {}).get("eval") not in (
        None,
        False,
    )


_SQLITE_EVAL = (
    f"(substr({{row}}.thread_id, 1, {len(EVAL_THREAD_PREFIX)}) = '{EVAL_THREAD_PREFIX}' OR "
    "coalesce(json_type(CAST({row}.metadata AS TEXT), '$.eval'), 'null') NOT IN ('null', 'false'))"
)
SQLITE_HEADS = f"""
CREATE TABLE IF NOT EXISTS {HEADS_TABLE} (
    thread_id TEXT PRIMARY KEY,
    checkpoint_id TEXT NOT NULL,
    eval INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS {HEADS_TABLE}_recent ON {HEADS_TABLE} (checkpoint_id);
CREATE INDEX IF NOT EXISTS {HEADS_TABLE}_eval_recent ON {HEADS_TABLE} (eval, checkpoint_id);
INSERT OR REPLACE INTO {HEADS_TABLE} (thread_id, checkpoint_id, eval)
    SELECT c.thread_id, c.checkpoint_id, {_SQLITE_EVAL.format(row="c")}
    FROM checkpoints AS c
    WHERE c.checkpoint_ns = '' AND c.checkpoint_id = (
        SELECT max(checkpoint_id) FROM checkpoints
        WHERE thread_id = c.thread_id AND checkpoint_ns = '');
CREATE TRIGGER IF NOT EXISTS {HEADS_TABLE}_put AFTER INSERT ON checkpoints
WHEN NEW.checkpoint_ns = ''
BEGIN
    INSERT INTO {HEADS_TABLE} (thread_id, checkpoint_id, eval)
    VALUES (NEW.thread_id, NEW.checkpoint_id, {_SQLITE_EVAL.format(row="NEW")})
    ON CONFLICT (thread_id) DO UPDATE
    SET checkpoint_id = excluded.checkpoint_id, eval = excluded.eval
    WHERE excluded.checkpoint_id >= {HEADS_TABLE}.checkpoint_id;
END;
CREATE TRIGGER IF NOT EXISTS {HEADS_TABLE}_drop AFTER DELETE ON checkpoints
WHEN OLD.checkpoint_ns = ''
BEGIN
    DELETE FROM {HEADS_TABLE}
    WHERE thread_id = OLD.thread_id AND checkpoint_id = OLD.checkpoint_id;
    INSERT OR IGNORE INTO {HEADS_TABLE} (thread_id, checkpoint_id, eval)
    SELECT c.thread_id, c.checkpoint_id, {_SQLITE_EVAL.format(row="c")}
    FROM checkpoints AS c
    WHERE c.thread_id = OLD.thread_id AND c.checkpoint_ns = ''
    ORDER BY c.checkpoint_id DESC LIMIT 1;
END;
"""
"""The table, indexes, one-time fill and triggers, for SQLite (run in one transaction)."""

_PG_EVAL = (
    f"(left({{row}}.thread_id, {len(EVAL_THREAD_PREFIX)}) = '{EVAL_THREAD_PREFIX}' OR "
    "coalesce({row}.metadata -> 'eval' NOT IN ('null'::jsonb, 'false'::jsonb), false))"
)
POSTGRES_HEADS = f"""
CREATE TABLE IF NOT EXISTS {HEADS_TABLE} (
    thread_id TEXT PRIMARY KEY,
    checkpoint_id TEXT NOT NULL,
    eval BOOLEAN NOT NULL
);
CREATE INDEX IF NOT EXISTS {HEADS_TABLE}_recent ON {HEADS_TABLE} (checkpoint_id);
CREATE INDEX IF NOT EXISTS {HEADS_TABLE}_eval_recent ON {HEADS_TABLE} (eval, checkpoint_id);
CREATE OR REPLACE FUNCTION {HEADS_TABLE}_put() RETURNS trigger AS $$
BEGIN
    IF NEW.checkpoint_ns = '' THEN
        INSERT INTO {HEADS_TABLE} AS head (thread_id, checkpoint_id, eval)
        VALUES (NEW.thread_id, NEW.checkpoint_id, {_PG_EVAL.format(row="NEW")})
        ON CONFLICT (thread_id) DO UPDATE
        SET checkpoint_id = EXCLUDED.checkpoint_id, eval = EXCLUDED.eval
        WHERE EXCLUDED.checkpoint_id >= head.checkpoint_id;
    END IF;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE OR REPLACE FUNCTION {HEADS_TABLE}_drop() RETURNS trigger AS $$
BEGIN
    IF OLD.checkpoint_ns = '' THEN
        DELETE FROM {HEADS_TABLE}
        WHERE thread_id = OLD.thread_id AND checkpoint_id = OLD.checkpoint_id;
        INSERT INTO {HEADS_TABLE} (thread_id, checkpoint_id, eval)
        SELECT c.thread_id, c.checkpoint_id, {_PG_EVAL.format(row="c")}
        FROM checkpoints AS c
        WHERE c.thread_id = OLD.thread_id AND c.checkpoint_ns = ''
        ORDER BY c.checkpoint_id DESC LIMIT 1
        ON CONFLICT (thread_id) DO NOTHING;
    END IF;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
"""
"""The table, indexes and trigger functions, for PostgreSQL."""
POSTGRES_TRIGGERS = f"""
INSERT INTO {HEADS_TABLE} (thread_id, checkpoint_id, eval)
    SELECT DISTINCT ON (c.thread_id) c.thread_id, c.checkpoint_id, {_PG_EVAL.format(row="c")}
    FROM checkpoints AS c WHERE c.checkpoint_ns = ''
    ORDER BY c.thread_id, c.checkpoint_id DESC
    ON CONFLICT (thread_id) DO NOTHING;
CREATE TRIGGER {HEADS_TABLE}_put AFTER INSERT OR UPDATE ON checkpoints
    FOR EACH ROW EXECUTE FUNCTION {HEADS_TABLE}_put();
CREATE TRIGGER {HEADS_TABLE}_drop AFTER DELETE ON checkpoints
    FOR EACH ROW EXECUTE FUNCTION {HEADS_TABLE}_drop();
"""
"""The one-time fill and the triggers (made once: when the put trigger is missing)."""


def heads_query(dialect: str, include_eval: bool) -> str:
    """The newest threads' (thread_id, checkpoint_id), newest first, at most one parameter's."""
    mark = "?" if dialect == "sqlite" else "%s"
    where = "" if include_eval else f"WHERE eval = {'0' if dialect == 'sqlite' else 'false'} "
    return (
        f"SELECT thread_id, checkpoint_id FROM {HEADS_TABLE} {where}"
        f"ORDER BY checkpoint_id DESC, thread_id LIMIT {mark}"
    )


def install_sqlite(conn: sqlite3.Connection) -> None:
    """Create the heads table and its triggers in a SQLite store (a no-op once made)."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?", (f"{HEADS_TABLE}_drop",)
    ).fetchone()
    if exists:
        return
    conn.executescript(f"BEGIN IMMEDIATE;\n{SQLITE_HEADS}\nCOMMIT;")


def sqlite_has_heads(conn: sqlite3.Connection) -> bool:
    """Whether a SQLite store keeps the heads table (a store made before it does not)."""
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?", (f"{HEADS_TABLE}_put",)
    ).fetchone()
    return row is not None


def install_postgres(conn: Any) -> None:
    """Create the heads table and its triggers in a PostgreSQL store (under the setup lock)."""
    with conn.transaction():
        conn.execute(POSTGRES_HEADS)
        made = conn.execute(
            "SELECT 1 FROM pg_trigger WHERE tgname = %s AND tgrelid = 'checkpoints'::regclass",
            (f"{HEADS_TABLE}_put",),
        ).fetchone()
        if not made:
            conn.execute(POSTGRES_TRIGGERS)


def head_checkpoints(
    checkpointer: Any, limit: int, include_eval: bool
) -> list[tuple[str, str]] | None:
    """The newest threads' (thread_id, latest checkpoint id) from the heads table, by index.

    None when the store keeps no heads table (in memory, or a SQLite file made before it
    and opened read-only): the caller then reads the checkpoints themselves.
    """
    conn, lock = getattr(checkpointer, "conn", None), getattr(checkpointer, "lock", None)
    if conn is None or lock is None:
        return None
    with lock:
        if isinstance(conn, sqlite3.Connection):
            if not sqlite_has_heads(conn):
                return None
            rows = conn.execute(heads_query("sqlite", include_eval), (limit,)).fetchall()
            return [(str(row[0]), str(row[1])) for row in rows]
        if type(checkpointer).__module__.startswith("langgraph.checkpoint.postgres"):
            found = conn.execute(heads_query("postgres", include_eval), (limit,)).fetchall()
            return [_pair(row) for row in found]
    return None


def _pair(row: Any) -> tuple[str, str]:
    """(thread_id, checkpoint_id) from a PostgreSQL row (a dict, or a tuple)."""
    if isinstance(row, Mapping):
        return str(row["thread_id"]), str(row["checkpoint_id"])
    return str(row[0]), str(row[1])
