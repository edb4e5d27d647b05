"""Simulating a process that dies after a node's writes were saved, before the next checkpoint.

`die_after_writes_of(saver, "act", die)` wraps one checkpointer instance of a fresh thread: the
first checkpoint saved after `node` ran waits until that node's writes are stored, then calls
`die()` instead of saving (a test raises, the SIGKILL worker kills its own process), so the
store holds exactly that window. Once dead, nothing more reaches the store, even from
LangGraph's background writer threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

WAIT_S = 30.0


def die_after_writes_of(saver: BaseCheckpointSaver, node: str, die: Callable[[], Any]) -> None:
    """Make `saver` call `die()` at the first checkpoint after `node`'s writes are stored."""
    put, put_writes = saver.put, saver.put_writes
    stored, dead = threading.Event(), threading.Event()

    def writes_then_mark(config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
        if dead.is_set():
            return
        put_writes(config, writes, task_id, task_path)
        if task_path.split(", ")[-1] == node:  # a pull task's path: "~__pregel_pull, act"
            stored.set()

    def put_or_die(config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        if dead.is_set():
            return config
        if node in checkpoint.get("versions_seen", {}):  # the step in which `node` ran
            stored.wait(WAIT_S)
            dead.set()
            die()
        return put(config, checkpoint, metadata, new_versions)

    saver.put = put_or_die  # type: ignore[method-assign]
    saver.put_writes = writes_then_mark  # type: ignore[method-assign]
