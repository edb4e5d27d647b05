"""Opening a stored thread as the agent's: its kind checked, unknown ones refused in one line."""

from __future__ import annotations

import uuid

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.types import StateSnapshot

from graph.app.persistence import check_thread_id
from graph.app.thread_settings import AGENT, kind_of


class UnknownThread(LookupError):
    """A thread id the checkpointer has never seen."""


class NotAnAgentThread(ValueError):
    """A thread made by another graph (the field-service flow or the router)."""


NOT_AGENT = (
    "thread {thread!r} was made by another graph (the field-service flow or the router), "
    "not the agent; a paused flow thread is resumed with `agent resume {thread} --with VALUE`"
)


def agent_thread_config(
    checkpointer: BaseCheckpointSaver, thread_id: str, *, must_exist: bool
) -> RunnableConfig:
    """The config that reads the thread, once it is known to be the agent's.

    UnknownThread when `must_exist` and the store has no such thread; NotAnAgentThread when
    its recorded kind (`graph.app.thread_settings.kind_of`) is another graph's.
    """
    config: RunnableConfig = {"configurable": {"thread_id": check_thread_id(thread_id)}}
    saved = checkpointer.get_tuple(config)
    if saved is None and must_exist:
        raise UnknownThread(f"no thread {thread_id!r} in the checkpoint store")
    if saved is not None and kind_of(saved) != AGENT:
        raise NotAnAgentThread(NOT_AGENT.format(thread=thread_id))
    return config


def mid_run(snapshot: StateSnapshot) -> bool:
    """Whether the thread stopped inside a step: a task is still due, or done but not merged.

    A process killed after a node's writes were saved but before the next checkpoint leaves
    the step's tasks with their saved writes (`next` is then empty): continuing the run from
    the thread's head (`stream(None, config)`) applies those writes instead of losing them.
    """
    return bool(snapshot.next) or bool(snapshot.tasks)


def new_thread_id() -> str:
    """A fresh thread id."""
    return f"t-{uuid.uuid4().hex[:12]}"
