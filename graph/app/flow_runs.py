"""Run and resume the flow on a checkpointed thread, returning a plain result dict.

``run_flow(request, checkpointer=..., thread_id=...)``, ``resume_flow(thread_id, value,
checkpointer=...)`` and ``continue_flow(thread_id, checkpointer=...)`` all return ``{outcome,
answer, reason, fault_code, part_no, log, interrupt, thread_id}`` plus ``model_variant``,
``citation``, ``availability``, ``sourcing``, ``top_faults``, ``diagnosis_margin``,
``human_decision``, ``steps`` (stage runs logged) and ``next`` (the stage a stopped thread
continues at, else None). A thread paused for a human has ``outcome == "escalated"`` and its
payload in ``interrupt``.

Checkpoint durability is a run setting (``durability=``). The default, ``DURABILITY``
("sync"), writes a checkpoint after every stage before the next one starts, so a process
killed mid-request leaves the thread at the stage it was in and ``continue_flow`` (``agent
resume THREAD``) runs it from there. ``FAST_DURABILITY`` ("exit") writes once, when the
invocation ends or pauses: cheaper, for callers that want speed (``agent compare-flow``, the
benchmark); a process killed mid-request then leaves no thread (run the request again).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, Durability

from corpora.field_service import load
from graph.app.thread_settings import FLOW, ThreadSettings, with_settings
from graph.flow.graph import RECURSION_LIMIT, build_flow
from graph.flow.human import RESUME_HELP, ResumeError, parse_decision
from graph.flow.tools import FlowTools, Tool
from graph.flow.transitions import ESCALATE_NODE

FlowToolsArg = FlowTools | Mapping[str, Tool] | Sequence[BaseTool] | None
DURABILITY: Durability = "sync"
"""The default: a checkpoint after every stage, written before the next stage starts."""
FAST_DURABILITY: Durability = "exit"
"""For speed: one checkpoint per invocation, as it ends or pauses (see above)."""

_COMPILED: weakref.WeakKeyDictionary[BaseCheckpointSaver, CompiledStateGraph] = (
    weakref.WeakKeyDictionary()
)


def flow_for(checkpointer: BaseCheckpointSaver, tools: FlowToolsArg = None) -> CompiledStateGraph:
    """Return the flow compiled with ``checkpointer`` (cached per checkpointer for the defaults)."""
    if tools is not None:
        return build_flow(tools, checkpointer)
    graph = _COMPILED.get(checkpointer)
    if graph is None:
        graph = _COMPILED[checkpointer] = build_flow(None, checkpointer)
    return graph


def flow_config(thread_id: str) -> RunnableConfig:
    """Return the run config for a thread, with the recursion limit passed explicitly."""
    return {"configurable": {"thread_id": thread_id}, "recursion_limit": RECURSION_LIMIT}


def with_kind(config: RunnableConfig) -> RunnableConfig:
    """`config` recording the thread's kind (flow) in every checkpoint the run writes."""
    return with_settings(config, ThreadSettings(graph=FLOW))


def run_flow(
    request: str,
    *,
    checkpointer: BaseCheckpointSaver | None,
    thread_id: str,
    tools: FlowToolsArg = None,
    durability: Durability = DURABILITY,
) -> dict[str, Any]:
    """Run one request on a new thread and return the plain result dict.

    ``checkpointer=None`` uses a private in-memory saver: the run works, but a paused thread
    cannot be resumed later. Pass the same checkpointer to ``resume_flow`` to resume.
    """
    saver = checkpointer if checkpointer is not None else InMemorySaver()
    graph = flow_for(saver, tools)
    config = flow_config(thread_id)
    if graph.get_state(config).values:
        raise ValueError(f"thread {thread_id!r} already exists; use a new thread id")
    graph.invoke({"request": request}, with_kind(config), durability=durability)
    return flow_result(graph, thread_id)


def resume_flow(
    thread_id: str,
    value: Any,
    *,
    checkpointer: BaseCheckpointSaver,
    tools: FlowToolsArg = None,
    durability: Durability = DURABILITY,
) -> dict[str, Any]:
    """Resume a paused thread with a human decision and return the plain result dict.

    ``value`` is a fault code (``"F-109"`` or ``{"fault_code": "F-109"}``) or ``{"action":
    "close", "note": ...}``. Raises ``ResumeError`` (one line) when the thread is unknown, not
    waiting for a human, or the value is not a decision the flow can act on; the thread is not
    touched then.
    """
    graph = flow_for(checkpointer, tools)
    config = flow_config(thread_id)
    snapshot = graph.get_state(config)
    if not snapshot.values:
        raise ResumeError(f"unknown thread {thread_id!r}")
    if ESCALATE_NODE not in snapshot.next or not snapshot.interrupts:
        raise ResumeError(f"thread {thread_id!r} is not waiting for a human decision")
    payload = snapshot.interrupts[-1].value
    parse_decision(
        value,
        stage=str(payload.get("stage", "")),
        model_variant=snapshot.values.get("model_variant"),
        data=load(),
    )
    graph.invoke(Command(resume=value), with_kind(config), durability=durability)
    return flow_result(graph, thread_id)


def continue_flow(
    thread_id: str,
    *,
    checkpointer: BaseCheckpointSaver,
    tools: FlowToolsArg = None,
    durability: Durability = DURABILITY,
) -> dict[str, Any]:
    """Run a thread that stopped between stages on from the stage it stopped at.

    Such a thread was killed mid-request (with a checkpoint per stage) or stopped by
    ``interrupt_before``. Raises ``ResumeError`` (one line) when the thread is unknown, paused
    for a human (resume it with a decision) or finished; the thread is not touched then.
    """
    graph = flow_for(checkpointer, tools)
    config = flow_config(thread_id)
    snapshot = graph.get_state(config)
    if not snapshot.values:
        raise ResumeError(f"unknown thread {thread_id!r}")
    if snapshot.interrupts:
        raise ResumeError(f"thread {thread_id!r} is waiting for a human decision; {RESUME_HELP}")
    if not snapshot.next:
        raise ResumeError(f"thread {thread_id!r} has finished; there is nothing to continue")
    graph.invoke(None, with_kind(config), durability=durability)
    return flow_result(graph, thread_id)


def flow_result(graph: CompiledStateGraph, thread_id: str) -> dict[str, Any]:
    """Read a thread's state into the plain result dict (a paused thread is "escalated")."""
    snapshot = graph.get_state(flow_config(thread_id))
    values = snapshot.values
    interrupt = snapshot.interrupts[-1].value if snapshot.interrupts else None
    outcome = values.get("outcome")
    if interrupt is not None:
        outcome = "escalated"
    log = list(values.get("log") or [])
    return {
        "outcome": outcome,
        "answer": values.get("answer", ""),
        "reason": values.get("reason", ""),
        "fault_code": values.get("fault_code"),
        "part_no": values.get("part_no"),
        "log": log,
        "interrupt": interrupt,
        "thread_id": thread_id,
        "model_variant": values.get("model_variant"),
        "citation": values.get("citation"),
        "availability": values.get("availability"),
        "sourcing": values.get("sourcing"),
        "top_faults": [list(pair) for pair in values.get("top_faults") or []],
        "diagnosis_margin": values.get("diagnosis_margin"),
        "human_decision": values.get("human_decision"),
        "steps": sum(1 for entry in log if entry["stage"] != ESCALATE_NODE),
        "next": None if interrupt is not None or not snapshot.next else snapshot.next[0],
    }


__all__ = [
    "DURABILITY",
    "FAST_DURABILITY",
    "continue_flow",
    "flow_config",
    "flow_for",
    "flow_result",
    "resume_flow",
    "run_flow",
]
