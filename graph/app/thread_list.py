"""Listing stored threads: one summary per thread, newest first, whatever graph made it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple

from graph.app.thread_settings import AGENT, kind_of

Skip = Callable[[str, Mapping[str, Any]], bool]
"""`skip(thread_id, metadata)`: True leaves a thread out of the list."""


@dataclass(frozen=True)
class ThreadSummary:
    """One stored transcript, for `agent threads`."""

    thread_id: str
    question: str
    answer: str | None
    steps: int
    stopped: str | None


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


def list_threads(
    checkpointer: BaseCheckpointSaver, limit: int = 20, skip: Skip | None = None
) -> list[ThreadSummary]:
    """Stored threads, newest first; `skip(thread_id, metadata)` leaves threads out.

    Each thread is summarised from its latest checkpoint, its kind read from there
    (`graph.app.thread_settings.kind_of`).
    """
    latest: dict[str, tuple[str, CheckpointTuple]] = {}
    for saved in checkpointer.list(None):
        thread_id = saved.config["configurable"]["thread_id"]
        if skip is not None and skip(thread_id, saved.metadata or {}):
            continue
        stamp = str(saved.checkpoint.get("ts", ""))
        if thread_id not in latest or stamp > latest[thread_id][0]:
            latest[thread_id] = (stamp, saved)
    newest = sorted(latest.items(), key=lambda item: item[1][0], reverse=True)[:limit]
    return [
        summarize_thread(thread_id, kind_of(saved), saved.checkpoint.get("channel_values", {}))
        for thread_id, (_, saved) in newest
    ]
