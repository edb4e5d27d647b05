"""The checkpoints of a store in one pass, reduced to what reading the runs needs.

Every checkpoint keeps its ids, timestamp, source (``input`` starts an invocation) and the few
small result fields (answer, stopped, steps, citations ...); only the newest checkpoint of
each thread and namespace keeps its whole state (the transcript). A router thread's agent runs
in its own checkpoint namespace (``ask_agent:<task>``), so it is read as a stream of its own.

A SQLite store is read without deserialising every checkpoint (`read_sqlite`): one query for
the ids, parents and metadata of all of them (a checkpoint's time is in its id, a UUIDv6), and
the state of only the checkpoints a run is read from, loaded when asked for. Any other saver
is read through ``list(None)``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

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
UUID_EPOCH = datetime(1582, 10, 15, tzinfo=UTC)
"""Where the 100-ns ticks of a UUIDv1/v6 timestamp count from."""

Skip = Callable[[str, Mapping[str, Any]], bool]
"""`skip(thread_id, metadata)`: True leaves the thread's checkpoint out (eval threads)."""
Loader = Callable[[str, str, str], Mapping[str, Any]]
"""`load(thread_id, ns, checkpoint_id)`: one checkpoint's state, read when needed."""


@dataclass(frozen=True, slots=True)
class Saved:
    """One checkpoint: where it sits in its thread, when it was written, its result fields."""

    checkpoint_id: str
    parent_id: str | None
    ts: str
    source: str | None
    """``input`` for the checkpoint an invocation starts with, ``loop`` for a step's."""
    result: Mapping[str, Any] | None
    """None until loaded (a store read without every state)."""


def result_fields(values: Mapping[str, Any]) -> dict[str, Any]:
    """The `RESULT_FIELDS` a state holds."""
    return {key: values[key] for key in RESULT_FIELDS if key in values}


@dataclass
class Stream:
    """The checkpoints of one thread in one namespace, and the newest one's whole state."""

    thread_id: str
    ns: str
    saved: dict[str, Saved] = field(default_factory=dict)
    newest: Saved | None = None
    values: Mapping[str, Any] | None = None
    """The newest checkpoint's state (None until loaded)."""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    """The newest checkpoint's metadata."""
    kind: str | None = None
    """The graph that made the thread (agent, flow, router), when the source says so."""
    load: Loader | None = None

    def add(
        self, saved: Saved, values: Mapping[str, Any] | None, metadata: Mapping[str, Any]
    ) -> None:
        """Keep `saved`; keep its whole state only while it is the newest seen."""
        self.saved[saved.checkpoint_id] = saved
        newest = self.newest
        if newest is None or (saved.ts, saved.checkpoint_id) > (newest.ts, newest.checkpoint_id):
            self.newest, self.values, self.metadata = saved, values, metadata

    def state(self) -> Mapping[str, Any]:
        """The newest checkpoint's state (loaded now if it was not read with the list)."""
        if self.values is None:
            newest = self.newest
            loaded = None
            if newest is not None and self.load is not None:
                loaded = self.load(self.thread_id, self.ns, newest.checkpoint_id)
            self.values = loaded or {}
        return self.values

    def result_at(self, saved: Saved) -> Mapping[str, Any]:
        """The result fields of one checkpoint of the stream (loaded now if need be)."""
        if saved.result is not None:
            return saved.result
        if self.load is None:
            return {}
        return result_fields(self.load(self.thread_id, self.ns, saved.checkpoint_id))

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
        return str(recorded) if recorded in KINDS else legacy_kind(self.state())


class SavedThreads:
    """Streams by (thread id, namespace), filled one checkpoint at a time."""

    def __init__(self, skip: Skip | None = None, load: Loader | None = None) -> None:
        self.skip = skip
        self.load = load
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
        """Record one checkpoint (left out when `skip` says so); `values` None: not read."""
        metadata = metadata if isinstance(metadata, Mapping) else {}
        if self.skip is not None and self.skip(thread_id, metadata):
            return
        source = metadata.get("source")
        result = result_fields(values) if isinstance(values, Mapping) else None
        saved = Saved(checkpoint_id, parent_id, ts, source if isinstance(source, str) else None,
                      result)  # fmt: skip
        stream = self.streams.get((thread_id, ns))
        if stream is None:
            stream = Stream(thread_id, ns, kind=kind, load=self.load)
            self.streams[(thread_id, ns)] = stream
        stream.add(saved, values if isinstance(values, Mapping) else None, metadata)


def read_store(checkpointer: BaseCheckpointSaver, skip: Skip | None = None) -> SavedThreads:
    """Every checkpoint of the store: `read_sqlite` for SQLite, else one `list` pass."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    if isinstance(checkpointer, SqliteSaver):
        return read_sqlite(checkpointer, skip)
    return read_listed(checkpointer, skip)


def read_listed(checkpointer: BaseCheckpointSaver, skip: Skip | None = None) -> SavedThreads:
    """Every checkpoint of any saver, in one ``list(None)`` pass (every state deserialised)."""
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
            saved.checkpoint.get("channel_values") or {},
        )
    return threads


def time_of(checkpoint_id: str) -> str:
    """When a checkpoint was written, from its UUIDv6 id (ISO 8601; "" for another kind)."""
    try:
        value = UUID(checkpoint_id)
    except ValueError:
        return ""
    if value.version != 6:
        return ""
    ticks = ((value.int >> 80) << 12) | ((value.int >> 64) & 0x0FFF)
    return (UUID_EPOCH + timedelta(microseconds=ticks // 10)).isoformat()


def read_sqlite(saver: Any, skip: Skip | None = None) -> SavedThreads:
    """A SQLite store's checkpoints: ids and metadata of all, states only when asked for."""
    conn: sqlite3.Connection = saver.conn

    def load(thread_id: str, ns: str, checkpoint_id: str) -> Mapping[str, Any]:
        row = conn.execute(
            "SELECT type, checkpoint FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? "
            "AND checkpoint_id = ?",
            (thread_id, ns, checkpoint_id),
        ).fetchone()
        if row is None:
            return {}
        checkpoint = saver.serde.loads_typed((row[0], row[1]))
        values = checkpoint.get("channel_values") if isinstance(checkpoint, Mapping) else None
        return values if isinstance(values, Mapping) else {}

    threads = SavedThreads(skip, load)
    tables = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'"
    if conn.execute(tables).fetchone() is None:  # a file that does not exist reads as empty
        return threads
    query = "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, metadata "
    for thread_id, ns, checkpoint_id, parent, metadata in conn.execute(query + "FROM checkpoints"):
        try:
            meta = json.loads(metadata) if metadata is not None else {}
        except ValueError:
            meta = {}
        threads.add(str(thread_id), str(ns or ""), str(checkpoint_id),
                    str(parent) if parent else None, time_of(str(checkpoint_id)), meta,
                    None)  # fmt: skip
    return threads
