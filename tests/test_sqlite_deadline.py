"""SQLite lock waits share one deadline per command instead of adding up statement by statement."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from graph.app.persistence import open_checkpointer
from graph.app.session import Session
from graph.app.sqlite_deadline import FREE_S, LockBudget

QUESTION = "what's our refund window?"


def test_the_budget_is_spent_by_waits_only() -> None:
    budget = LockBudget(2.0)
    budget.spend(FREE_S / 2)  # ordinary work
    assert budget.millis() == 2000
    budget.spend(0.5)
    assert budget.millis() == 1500
    budget.exhaust()
    assert budget.millis() == 0


def test_after_one_failed_wait_no_statement_waits_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "c.sqlite"
    monkeypatch.setenv("AGENT_SQLITE_TIMEOUT", "0.3")
    with open_checkpointer(str(db)) as saver:
        Session(saver).ask(QUESTION, thread_id="before")
        with closing(sqlite3.connect(db, isolation_level=None)) as holder:
            holder.execute("BEGIN IMMEDIATE")  # another process's write lock
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                Session(saver).ask(QUESTION, thread_id="blocked")
            budget = saver.budget  # type: ignore[attr-defined]
            assert budget.millis() == 0
            with saver.cursor() as cur:  # later statements get no wait at all
                assert cur.execute("PRAGMA busy_timeout").fetchone()[0] == 0
            holder.execute("ROLLBACK")
        assert Session(saver).result("before")["citations"] == ["pol-1"]
