"""The checkpoints of a store in one pass, reduced to what reading the runs needs.

Every checkpoint keeps its ids, timestamp, source (``input`` starts an invocation) and the few
small result fields (answer, stopped, steps, citations ...); only the newest checkpoint of
each thread and namespace keeps its whole state (the transcript). A router thread's agent runs
in its own checkpoint namespace (``ask_agent:<task>``), so it is read as a stream of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.app.thread_settings import KINDS, legacy_kind

RESULT_FIELDS = (
    "question",
    "request",
    "route",
    "answer",
    "stopped",
    "steps",
    "citations",
    "unsupported",
    "error",
    "outcome",
)
"""The state fields kept from every checkpoint (the end of a turn holds that turn's result)."""

Skip = Callable[[str, Mapping[str, Any]], bool]
"""`skip(thread_id, metadata)`: True leaves the thread's checkpoint out (eval threads)."""


@dataclass(frozen=True, slots=True)
class Saved:
    """One checkpoint: where it sits in its thread, when it was written, its result fields."""

    checkpoint_id: str
    parent_id: str | None
    ts: str
    source: str | None
    """``input`` for the checkpoint an invocation starts with, ``loop`` for a step's."""
    result: Mapping[str, Any]


@dataclass
class Stream:
    """The checkpoints of one thread in one namespace, and the newest one's whole state."""

    thread_id: str
    ns: str
    saved: dict[str, Saved] = field(default_factory=dict)
    newest: Saved | None = None
    values: Mapping[str, Any] = field(default_factory=dict)
    """The newest checkpoint's state."""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    """The newest checkpoint's metadata."""
    kind: str | None = None
    """The graph that made the thread (agent, flow, router), when the source says so."""

    def add(self, saved: Saved, values: Mapping[str, Any], metadata: Mapping[str, Any]) -> None:
        """Keep `saved`; keep its whole state only while it is the newest seen."""
        self.saved[saved.checkpoint_id] = saved
        newest = self.newest
        if newest is None or (saved.ts, saved.checkpoint_id) > (newest.ts, newest.checkpoint_id):
            self.newest, self.values, self.metadata = saved, values, metadata

    def chain(self) -> list[Saved]:
        """The newest checkpoint's history, oldest first (a fork's abandoned branch left out)."""
        found: list[Saved] = []
        current = self.newest
        while current is not None and len(found) <= len(self.saved):
            found.append(current)
            current = self.saved.get(current.parent_id) if current.parent_id else None
        return found[::-1]

    def thread_kind(self) -> str | None:
        """The kind recorded in the newest checkpoint's metadata, else guessed from its state."""
        if self.kind is not None:
            return self.kind
        recorded = self.metadata.get("graph")
        return str(recorded) if recorded in KINDS else legacy_kind(self.values)


class SavedThreads:
    """Streams by (thread id, namespace), filled one checkpoint at a time."""

    def __init__(self, skip: Skip | None = None) -> None:
        self.skip = skip
        self.streams: dict[tuple[str, str], Stream] = {}

    def add(
        self,
        thread_id: str,
        ns: str,
        checkpoint_id: str,
        parent_id: str | None,
        ts: str,
        metadata: Mapping[str, Any] | None,
        values: Mapping[str, Any] | None,
        kind: str | None = None,
    ) -> None:
        """Record one checkpoint (left out when `skip` says so)."""
        metadata = metadata or {}
        if self.skip is not None and self.skip(thread_id, metadata):
            return
        values = values if isinstance(values, Mapping) else {}
        source = metadata.get("source")
        result = {key: values[key] for key in RESULT_FIELDS if key in values}
        saved = Saved(checkpoint_id, parent_id, ts, source if isinstance(source, str) else None,
                      result)  # fmt: skip
        stream = self.streams.get((thread_id, ns))
        if stream is None:
            stream = self.streams[(thread_id, ns)] = Stream(thread_id, ns, kind=kind)
        stream.add(saved, values, metadata)


def read_store(checkpointer: BaseCheckpointSaver, skip: Skip | None = None) -> SavedThreads:
    """Every checkpoint of the store, in one `list` pass."""
    threads = SavedThreads(skip)
    for saved in checkpointer.list(None):
        config = saved.config["configurable"]
        parent = (saved.parent_config or {}).get("configurable", {}).get("checkpoint_id")
        threads.add(
            str(config["thread_id"]),
            str(config.get("checkpoint_ns") or ""),
            str(config["checkpoint_id"]),
            str(parent) if parent else None,
            str(saved.checkpoint.get("ts", "")),
            saved.metadata,
            saved.checkpoint.get("channel_values"),
        )
    return threads
