"""`agent threads` reads one row per thread: the heads table the store keeps by triggers.

Checkpoints are written straight through the saver (`put`, `delete_thread`), the way any
writer would, on real SQLite and PostgreSQL stores; the listing must find each thread's newest
checkpoint from the heads table, read only the threads it shows, and leave eval threads out
in the query.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver, empty_checkpoint

from graph.app.persistence import open_checkpointer
from graph.app.thread_heads import HEADS_TABLE, head_checkpoints
from graph.app.thread_list import list_threads


def save(saver: BaseCheckpointSaver, thread_id: str, times: int = 1, **metadata: Any) -> str:
    """Write `times` checkpoints on the thread, each the child of the last; the newest id."""
    config: Any = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    latest = saver.get_tuple(config)
    if latest is not None:
        config = latest.config
    for _ in range(times):
        checkpoint = empty_checkpoint()
        checkpoint["channel_values"] = {"question": f"q for {thread_id}", "steps": 1}
        config = saver.put(config, checkpoint, {"graph": "agent", **metadata}, {})
    return str(config["configurable"]["checkpoint_id"])


def no_scan(saver: BaseCheckpointSaver, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make reading all checkpoints fail, and count the checkpoints read one by one."""
    read: list[str] = []
    original = saver.get_tuple

    def counted(config: Any) -> Any:
        read.append(str(config["configurable"]["thread_id"]))
        return original(config)

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the listing read every checkpoint")

    monkeypatch.setattr(saver, "list", refused)
    monkeypatch.setattr(saver, "get_tuple", counted)
    return read


def test_the_listing_reads_only_the_newest_threads_by_the_heads(
    database: BaseCheckpointSaver, monkeypatch: pytest.MonkeyPatch
) -> None:
    save(database, "a", 3)
    newest_b = save(database, "b", 2)
    newest_c = save(database, "c", 1)
    newest_a = save(database, "a", 1)  # a moves to the top again
    heads = head_checkpoints(database, 10, include_eval=True)
    assert heads == [("a", newest_a), ("c", newest_c), ("b", newest_b)]
    read = no_scan(database, monkeypatch)
    rows = list_threads(database, limit=2)
    assert [row.thread_id for row in rows] == ["a", "c"]
    assert read == ["a", "c"]
    assert rows[0].question == "q for a" and rows[0].updated.startswith("20")


def test_eval_threads_are_left_out_by_the_query(database: BaseCheckpointSaver) -> None:
    save(database, "t-plain")
    save(database, "eval-notes-r1-q1")
    save(database, "t-marked", eval={"dataset": "notes"})
    save(database, "t-unmarked", eval=False)
    save(database, "evaluation")  # not the prefix
    shown = {row[0] for row in head_checkpoints(database, 10, include_eval=False) or []}
    assert shown == {"t-plain", "t-unmarked", "evaluation"}
    assert len(head_checkpoints(database, 10, include_eval=True) or []) == 5
    assert [row.thread_id for row in list_threads(database, 1, include_eval=False)] == [
        "evaluation"
    ]


def test_a_deleted_thread_leaves_the_listing(database: BaseCheckpointSaver) -> None:
    save(database, "kept", 2)
    save(database, "gone", 3)
    database.delete_thread("gone")
    assert [row.thread_id for row in list_threads(database)] == ["kept"]


def test_the_model_and_date_come_from_the_latest_checkpoint(database: BaseCheckpointSaver) -> None:
    save(database, "t-1", model="policy")
    save(database, "t-1", model="openai:gpt-4o-mini")
    (row,) = list_threads(database)
    assert row.model == "openai:gpt-4o-mini" and row.updated[4] == "-"


def drop_heads(db: Path) -> None:
    """Make `db` look like a store saved before the heads table existed."""
    with closing(sqlite3.connect(db)) as conn:
        conn.executescript(
            f"DROP TRIGGER {HEADS_TABLE}_put; DROP TRIGGER {HEADS_TABLE}_drop; "
            f"DROP TABLE {HEADS_TABLE};"
        )


def test_a_store_made_before_the_heads_table_is_listed_and_then_given_one(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.sqlite"
    with open_checkpointer(str(db)) as saver:
        first = save(saver, "first", 2)
        save(saver, "eval-x")
        newest = save(saver, "second", 3)
    drop_heads(db)
    with open_checkpointer(str(db), read_only=True) as saver:
        assert head_checkpoints(saver, 5, include_eval=True) is None
        assert [row.thread_id for row in list_threads(saver, include_eval=False)] == [
            "second",
            "first",
        ]
    with open_checkpointer(str(db)) as saver:  # opened for writing: the table is filled
        assert head_checkpoints(saver, 5, include_eval=False) == [
            ("second", newest),
            ("first", first),
        ]
        save(saver, "first")
        assert [row.thread_id for row in list_threads(saver)] == ["first", "second", "eval-x"]
