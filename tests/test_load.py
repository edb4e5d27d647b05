"""Concurrent load on one checkpoint store: every transcript complete and replayable.

SQLite: 8 concurrent runs in each of 2 processes sharing one file, 200 threads in all.
PostgreSQL: 4 processes on one database, 400 threads (needs AGENT_TEST_PG_DSN; `.ci/run`
starts a throwaway server).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from graph.app.persistence import open_checkpointer
from graph.app.render_trace import iter_turns, render_turn
from graph.app.session import Session

pytestmark = pytest.mark.slow
HERE = Path(__file__).parent
PG_DSN = os.environ.get("AGENT_TEST_PG_DSN")


def run_workers(db: str, prefix: str, processes: int, per_process: int, concurrency: int) -> None:
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                str(HERE / "load_worker.py"),
                db,
                f"{prefix}{p}",
                str(per_process),
                str(concurrency),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=HERE.parent,
        )
        for p in range(processes)
    ]
    for worker in workers:
        out, err = worker.communicate(timeout=600)
        assert worker.returncode == 0, err[-2000:]
        report = json.loads(out.strip().splitlines()[-1])
        assert report == {"stopped": {"answer": per_process}, "errors": []}, report
        assert "database is locked" not in err


def check_store(db: str, prefix: str, processes: int, per_process: int) -> None:
    with open_checkpointer(db) as saver:
        session = Session(saver)
        for p in range(processes):
            for i in range(per_process):
                thread_id = f"{prefix}{p}-{i}"
                messages = session.messages(thread_id)
                result = session.result(thread_id)
                assert result["stopped"] == "answer" and result["answer"]
                ids = [c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
                answered = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
                assert sorted(ids) == sorted(answered)
                (turn,) = list(iter_turns([m for m in messages if m.type != "system"]))
                lines = render_turn(turn, result)
                assert lines[0].startswith("GOAL: ") and any("ANSWER:" in x for x in lines)


def test_sqlite_two_processes_eight_concurrent_runs_each(tmp_path: Path) -> None:
    db = str(tmp_path / "shared.sqlite")
    run_workers(db, "sq", processes=2, per_process=100, concurrency=8)
    check_store(db, "sq", processes=2, per_process=100)


@pytest.mark.postgres
@pytest.mark.skipif(not PG_DSN, reason="no PostgreSQL server: set AGENT_TEST_PG_DSN")
def test_postgres_four_processes_on_one_database() -> None:
    assert PG_DSN is not None
    prefix = f"pg{uuid.uuid4().hex[:6]}-"
    run_workers(PG_DSN, prefix, processes=4, per_process=100, concurrency=4)
    check_store(PG_DSN, prefix, processes=4, per_process=100)
