"""Run and resume the flow on a checkpointed thread, returning a plain result dict.

``run_flow(request, checkpointer=..., thread_id=...)`` and ``resume_flow(thread_id, value,
checkpointer=...)`` both return ``{outcome, answer, reason, fault_code, part_no, log,
interrupt, thread_id}`` plus ``model_variant``, ``citation``, ``availability``, ``sourcing``,
``top_faults``, ``diagnosis_margin``, ``human_decision`` and ``steps`` (stage runs logged).
A thread paused for a human has ``outcome == "escalated"`` and its payload in ``interrupt``.

Every invocation checkpoints once, when it ends or pauses (``DURABILITY``). The stages run
as one superstep, so the only checkpoints LangGraph's default ("async") would add are the
input, before any stage has run, and on a resume the human decision, before the stages
continue. Without them a process killed mid-request leaves no thread (run the request again
under the same id) and one killed mid-resume leaves the thread paused at its escalation
(resume it again), rather than a thread stopped half-way that neither ``run_flow`` nor
``resume_flow`` accepts.
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
from graph.flow.graph import RECURSION_LIMIT, build_flow
from graph.flow.human import ResumeError, parse_decision
from graph.flow.nodes import FlowTools, Tool
from graph.flow.policy import ESCALATE_NODE
from graph.thread_settings import ThreadSettings, with_settings

FlowToolsArg = FlowTools | Mapping[str, Tool] | Sequence[BaseTool] | None
DURABILITY: Durability = "exit"
"""When a flow invocation writes its checkpoint: once, as it ends or pauses (see above)."""

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


def run_flow(
    request: str,
    *,
    checkpointer: BaseCheckpointSaver | None,
    thread_id: str,
    tools: FlowToolsArg = None,
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
    config = with_settings(config, ThreadSettings(graph="flow"))  # the thread's kind
    graph.invoke({"request": request}, config, durability=DURABILITY)
    return result_of(graph, thread_id)


def resume_flow(
    thread_id: str,
    value: Any,
    *,
    checkpointer: BaseCheckpointSaver,
    tools: FlowToolsArg = None,
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
    graph.invoke(Command(resume=value), config, durability=DURABILITY)
    return result_of(graph, thread_id)


def result_of(graph: CompiledStateGraph, thread_id: str) -> dict[str, Any]:
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
    }


__all__ = ["DURABILITY", "flow_config", "flow_for", "result_of", "resume_flow", "run_flow"]
