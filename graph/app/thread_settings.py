"""Settings live with the thread: what a run was started with, kept in checkpoint metadata.

Every run writes its graph kind, model, step budget, k and the corpora it searched into the
metadata of each checkpoint it saves (LangGraph copies scalar `config["metadata"]` values
there). `resume`, `replay --fork` and the next `ask --thread` read them back from the thread's
latest checkpoint and reuse them unless the caller overrides one (`graph.app.run_context`).

The kind (`agent`, `flow` or `router`) is written by every run and resume of each graph
(`graph.app.session`, `flow_runs`, `router_runs`) and read by `kind_of`, so no layer guesses a
thread's graph from its state. Threads saved before kinds were recorded have none: for them
(only), `legacy_kind` guesses it from the stored channels, as this project did before.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple

AGENT = "agent"
"""The kind of a thread the ReAct agent made."""
FLOW = "flow"
"""The kind of a thread the field-service flow made."""
ROUTER = "router"
"""The kind of a thread the router made."""
KINDS = (AGENT, FLOW, ROUTER)
BUILTIN_SOURCE = "builtin"
"""The source recorded for a built-in corpus (re-loaded by name)."""
DATASET_PREFIX = "dataset:"
"""The source prefix of an eval dataset's corpus (`dataset:<name or path>`)."""


@dataclass(frozen=True)
class CorpusNeed:
    """A corpus a thread searched: its name and where it can be loaded from again."""

    name: str
    source: str | None
    """`builtin`, `dataset:<spec>`, a file or folder path, or None (given in memory)."""


@dataclass(frozen=True)
class ThreadSettings:
    """The settings a thread's latest run was started with."""

    graph: str = AGENT
    """The thread's kind: agent, flow or router."""
    model: str | None = None
    max_steps: int | None = None
    k: int | None = None
    corpora: tuple[CorpusNeed, ...] = field(default=())

    def metadata(self) -> dict[str, Any]:
        """The flat `config["metadata"]` that records these settings in each checkpoint."""
        data: dict[str, Any] = {"graph": self.graph}
        for key in ("model", "max_steps", "k"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.corpora:
            data["corpora"] = json.dumps([[c.name, c.source] for c in self.corpora])
        return data


def with_settings(config: RunnableConfig, settings: ThreadSettings) -> RunnableConfig:
    """`config` with the settings added to its metadata (other metadata kept)."""
    metadata = {**(config.get("metadata") or {}), **settings.metadata()}
    return {**config, "metadata": metadata}


def read_settings(checkpointer: BaseCheckpointSaver, thread_id: str) -> ThreadSettings | None:
    """The settings in the thread's latest checkpoint.

    None for an unknown thread, or one saved before settings were recorded.
    """
    saved = checkpointer.get_tuple({"configurable": {"thread_id": thread_id}})
    if saved is None or "graph" not in (saved.metadata or {}):
        return None
    return parse_settings(saved.metadata)


def kind_of(saved: CheckpointTuple | None) -> str | None:
    """The kind of the thread whose latest checkpoint is `saved` (None: no such thread).

    The kind recorded in the checkpoint's metadata decides; a checkpoint without one was saved
    before kinds were recorded, and `legacy_kind` guesses it.
    """
    if saved is None:
        return None
    kind = (saved.metadata or {}).get("graph")
    if kind in KINDS:
        return str(kind)
    return legacy_kind(saved.checkpoint.get("channel_values", {}))


def legacy_kind(values: Mapping[str, Any]) -> str | None:
    """The kind of a thread saved before kinds were recorded, from its stored channels.

    The agent's threads hold a `question` (a run killed right after its input was saved holds
    it only in `__start__`, or nothing but the empty transcript); the router's a `route`; the
    flow's a `request`. None when the channels say nothing (a flow or router run killed before
    its first node).
    """
    started = values.get("__start__")
    if (
        "question" in values
        or (isinstance(started, dict) and "question" in started)
        or not set(values) - {"messages"}
    ):
        return AGENT
    if "route" in values:
        return ROUTER
    return FLOW if "request" in values else None


def parse_settings(metadata: Mapping[str, Any]) -> ThreadSettings:
    """Settings from checkpoint metadata; values of the wrong type are ignored."""
    graph = metadata.get("graph")
    model = metadata.get("model")
    return ThreadSettings(
        graph=graph if isinstance(graph, str) else AGENT,
        model=model if isinstance(model, str) and model.strip() else None,
        max_steps=_int(metadata.get("max_steps")),
        k=_int(metadata.get("k")),
        corpora=_corpora(metadata.get("corpora")),
    )


def needs_of(names: Sequence[str], sources: Mapping[str, str | None]) -> tuple[CorpusNeed, ...]:
    """The corpora a session searches, each with its source when known."""
    return tuple(CorpusNeed(name, sources.get(name)) for name in names)


def _int(value: Any) -> int | None:
    """An int setting, or None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _corpora(raw: Any) -> tuple[CorpusNeed, ...]:
    """The recorded corpora (a JSON list of [name, source]); nothing when unreadable."""
    try:
        items = json.loads(raw) if isinstance(raw, str) else []
    except ValueError:
        return ()
    return tuple(
        CorpusNeed(str(item[0]), item[1] if isinstance(item[1], str) else None)
        for item in items
        if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
    )
