"""Listing stored threads: one summary per thread, newest first, whatever graph made it.

A SQLite or PostgreSQL store answers from its heads table (`graph.app.thread_heads`): the
newest `limit` threads come from an index and only their latest checkpoints are read, so the
listing costs the same at ten threads or ten thousand. Other savers (in memory, a SQLite file
made before the table and opened read-only) are read checkpoint by checkpoint.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple

from graph.app.thread_heads import head_checkpoints, is_eval_thread
from graph.app.thread_settings import AGENT, kind_of


@dataclass(frozen=True)
class ThreadSummary:
    """One stored transcript, for `agent threads`."""

    thread_id: str
    question: str
    answer: str | None
    steps: int
    stopped: str | None
    updated: str = ""
    """When its latest checkpoint was saved (ISO 8601, UTC), or "" when unknown."""
    model: str | None = None
    """The model its latest run was started with, when one was recorded."""


def summarize_thread(thread_id: str, kind: str | None, values: Mapping[str, Any]) -> ThreadSummary:
    """One row of `agent threads`: an agent thread's question, or a flow/router request."""
    if kind == AGENT:
        return ThreadSummary(
            thread_id=thread_id,
            question=str(values.get("question", "")),
            answer=values.get("answer"),
            steps=int(values.get("steps") or 0),
            stopped=values.get("stopped"),
        )
    return ThreadSummary(
        thread_id=thread_id,
        question=str(values.get("request", "")),
        answer=values.get("answer"),
        steps=len(values.get("log") or []),
        stopped=values.get("outcome") or "paused",
    )


def summary_of(saved: CheckpointTuple) -> ThreadSummary:
    """The summary of a thread whose latest checkpoint is `saved`, with its date and model."""
    thread_id = str(saved.config["configurable"]["thread_id"])
    row = summarize_thread(thread_id, kind_of(saved), saved.checkpoint.get("channel_values", {}))
    model = (saved.metadata or {}).get("model")
    return replace(
        row,
        updated=str(saved.checkpoint.get("ts", "")),
        model=model if isinstance(model, str) else None,
    )


def list_threads(
    checkpointer: BaseCheckpointSaver, limit: int = 20, include_eval: bool = True
) -> list[ThreadSummary]:
    """Stored threads, newest first; `include_eval=False` leaves out those `agent eval` made.

    Each thread is summarised from its latest checkpoint, its kind read from there
    (`graph.app.thread_settings.kind_of`).
    """
    heads = head_checkpoints(checkpointer, limit, include_eval)
    if heads is None:
        return _scan_threads(checkpointer, limit, include_eval)
    found = []
    for thread_id, checkpoint_id in heads:
        place = {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}
        saved = checkpointer.get_tuple(RunnableConfig(configurable=place))
        if saved is not None:
            found.append(summary_of(saved))
    return found


def _scan_threads(
    checkpointer: BaseCheckpointSaver, limit: int, include_eval: bool
) -> list[ThreadSummary]:
    """`list_threads` for a saver without a heads table: every checkpoint is read."""
    latest: dict[str, tuple[str, CheckpointTuple]] = {}
    for saved in checkpointer.list(None):
        thread_id = saved.config["configurable"]["thread_id"]
        if not include_eval and is_eval_thread(thread_id, saved.metadata):
            continue
        stamp = str(saved.checkpoint.get("ts", ""))
        if thread_id not in latest or stamp > latest[thread_id][0]:
            latest[thread_id] = (stamp, saved)
    newest = sorted(latest.values(), key=lambda item: item[0], reverse=True)[:limit]
    return [summary_of(saved) for _, saved in newest]
