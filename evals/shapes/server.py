"""The checkpoints of a running LangGraph server, through langgraph-sdk's threads API.

Threads are listed with ``threads.search`` (a page at a time) and each thread's checkpoints read
with ``threads.get_history``; a router thread's agent run lives in a subgraph namespace
(``ask_agent:<task id>``), read by asking for the history of that namespace. The thread's kind
is the graph it was made by (``graph_id`` in its metadata). Messages arrive as JSON dicts.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from evals.shapes.saved import SavedThreads, Skip
from graph.app.thread_settings import KINDS, ROUTER
from graph.router import AGENT_NODE

PAGE = 100
"""Threads per ``threads.search`` call."""
HISTORY_PAGE = 1000
"""Checkpoints per ``threads.get_history`` call (the server's maximum)."""


class ServerError(RuntimeError):
    """The server could not be read (one line)."""


def read_server(url: str, skip: Skip | None = None) -> SavedThreads:
    """Every thread's checkpoints on the server at `url` (``http://HOST:PORT``)."""
    import httpx
    from langgraph_sdk import get_sync_client
    from langgraph_sdk.errors import APIError

    threads = SavedThreads(skip)
    try:
        client = get_sync_client(url=url, api_key=None)
        offset = 0
        while True:
            page = client.threads.search(limit=PAGE, offset=offset)
            for thread in page:
                read_thread(client, thread, threads)
            if len(page) < PAGE:
                break
            offset += PAGE
    except (httpx.HTTPError, APIError, OSError) as error:
        text = " ".join(str(error).split())[:200]
        raise ServerError(f"cannot read the LangGraph server at {url}: {text}") from None
    return threads


def read_thread(client: Any, thread: Mapping[str, Any], threads: SavedThreads) -> None:
    """Add one thread's checkpoints (and its agent subgraph's, for a router thread)."""
    thread_id = str(thread["thread_id"])
    graph_id = (thread.get("metadata") or {}).get("graph_id")
    kind = graph_id if graph_id in KINDS else None
    tasks: list[str] = []
    for state in history(client, thread_id):
        add_state(threads, thread_id, state, kind)
        for task in state.get("tasks") or []:
            if task.get("name") == AGENT_NODE and task.get("id"):
                tasks.append(f"{AGENT_NODE}:{task['id']}")
    if kind != ROUTER:
        return
    for ns in dict.fromkeys(tasks):
        for state in history(client, thread_id, {"thread_id": thread_id, "checkpoint_ns": ns}):
            add_state(threads, thread_id, state, kind, ns)


def history(
    client: Any, thread_id: str, checkpoint: Mapping[str, Any] | None = None
) -> Iterator[Mapping[str, Any]]:
    """A thread's checkpoints (in one namespace), newest first, a page at a time."""
    before: Any = None
    while True:
        page = client.threads.get_history(
            thread_id, limit=HISTORY_PAGE, before=before, checkpoint=checkpoint
        )
        yield from page
        if len(page) < HISTORY_PAGE:
            return
        before = page[-1]["checkpoint"]


def add_state(
    threads: SavedThreads,
    thread_id: str,
    state: Mapping[str, Any],
    kind: str | None,
    ns: str | None = None,
) -> None:
    """Record one history entry as a checkpoint."""
    checkpoint = state.get("checkpoint") or {}
    parent = state.get("parent_checkpoint") or {}
    threads.add(
        thread_id,
        ns if ns is not None else str(checkpoint.get("checkpoint_ns") or ""),
        str(checkpoint.get("checkpoint_id") or ""),
        str(parent["checkpoint_id"]) if parent.get("checkpoint_id") else None,
        str(state.get("created_at") or ""),
        state.get("metadata") or {},
        state.get("values") or {},
        kind=kind,
    )
