"""Database hangs: a PostgreSQL that accepts and never replies, and a table lock held elsewhere.

Each ends in one line within `AGENT_DB_TIMEOUT` instead of waiting forever (the subprocess
timeouts here only catch a hang; no test measures time).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PG_DSN, needs_postgres

from graph.app.postgres_store import postgres_conninfo

HERE = Path(__file__).parent


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A TCP server on 127.0.0.1 that accepts connections and never sends a byte."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join(5)
    for conn in held:
        conn.close()
    listener.close()


@pytest.mark.parametrize("command", [["threads"], ["ask", "what's our refund window?"]])
def test_a_postgresql_that_never_replies_is_one_line(
    silent_server: int, command: list[str], tmp_path: Path
) -> None:
    url = f"postgresql://agent:pw@127.0.0.1:{silent_server}/agent"
    done = subprocess.run(
        [sys.executable, "-m", "graph", *command, "--db", url],
        capture_output=True,
        text=True,
        cwd=HERE.parent,
        env={**os.environ, "AGENT_DB_TIMEOUT": "2", "AGENT_HOME": str(tmp_path)},
        timeout=120,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("error: cannot connect to PostgreSQL: ")
    assert done.stderr.count("\n") == 1 and "pw" not in done.stderr.replace("pw@", "")


def test_timeouts_are_added_to_the_url_and_keep_its_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AGENT_DB_TIMEOUT", "1.5")
    info = postgres_conninfo("postgresql://u@h/db?options=-c%20search_path%3Dx")
    assert "connect_timeout=2" in info
    assert "search_path=x" in info
    assert "statement_timeout=1500" in info and "lock_timeout=1500" in info


@needs_postgres
@pytest.mark.postgres
def test_a_table_lock_held_elsewhere_ends_in_one_line(tmp_path: Path) -> None:
    import psycopg

    assert PG_DSN is not None
    first = subprocess.run(
        [sys.executable, "-m", "graph", "ask", "what's our refund window?", "--db", PG_DSN],
        capture_output=True,
        text=True,
        cwd=HERE.parent,
        timeout=120,
    )
    assert first.returncode == 0, first.stderr
    with psycopg.connect(PG_DSN) as holder:
        holder.execute("LOCK TABLE checkpoints IN ACCESS EXCLUSIVE MODE")
        done = subprocess.run(
            [sys.executable, "-m", "graph", "threads", "--db", PG_DSN],
            capture_output=True,
            text=True,
            cwd=HERE.parent,
            env={**os.environ, "AGENT_DB_TIMEOUT": "2"},
            timeout=120,
        )
        holder.rollback()
    assert done.returncode == 1 and done.stderr.startswith("error: ")
    assert done.stderr.count("\n") == 1
    assert "did not answer within AGENT_DB_TIMEOUT=2s" in done.stderr
