"""Running the router on a checkpointed thread: route a request, resume a paused one, read it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.types import Command

from graph.agent.budget import DEFAULT_MAX_STEPS
from graph.agent.context import Context
from graph.app.thread_settings import ROUTER, ThreadSettings, with_settings
from graph.flow.human import ResumeError
from graph.models import default_model_spec
from graph.router import FLOW_KEYS, FLOW_NODE, RouterGraph, record_flow_result, router_config


def with_kind(config: RunnableConfig, context: Context) -> RunnableConfig:
    """`config` recording the thread's kind (router), model and budget in its checkpoints."""
    settings = ThreadSettings(graph=ROUTER, model=context.model, max_steps=context.max_steps)
    return with_settings(config, settings)


def run_router(
    graph: RouterGraph,
    request: str,
    *,
    thread_id: str,
    model: str | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> dict[str, Any]:
    """Route one request on a new thread of ``graph`` (compiled with a checkpointer)."""
    config = router_config(thread_id, max_steps)
    if graph.get_state(config).values:
        raise ValueError(f"thread {thread_id!r} already exists; use a new thread id")
    context = Context(model=model or default_model_spec(), max_steps=max_steps)
    graph.invoke({"request": request}, with_kind(config, context), context=context)
    return router_result(graph, thread_id)


def resume_router(
    graph: RouterGraph,
    thread_id: str,
    value: Any,
    *,
    model: str | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> dict[str, Any]:
    """Resume a router thread paused by the flow's escalation with a human decision.

    ``value`` is what ``resume_flow`` takes (a fault code, or a close decision). Raises
    ``ResumeError`` when the thread is unknown or not paused; a value the flow cannot act on
    pauses it again, with the error in the interrupt payload.
    """
    config = router_config(thread_id, max_steps)
    snapshot = graph.get_state(config)
    if not snapshot.values:
        raise ResumeError(f"unknown thread {thread_id!r}")
    if not snapshot.interrupts:
        raise ResumeError(f"thread {thread_id!r} is not waiting for a human decision")
    context = Context(model=model or default_model_spec(), max_steps=max_steps)
    graph.invoke(Command(resume=value), with_kind(config, context), context=context)
    return router_result(graph, thread_id)


def router_result(graph: RouterGraph, thread_id: str) -> dict[str, Any]:
    """A router thread's state as a plain result dict (a paused thread is "escalated").

    While the flow is paused its state lives in the subgraph, so the steps, fault code,
    variant and part of a paused thread are read from there.
    """
    config = router_config(thread_id)
    snapshot = graph.get_state(config)
    values = dict(snapshot.values)
    interrupt = snapshot.interrupts[-1].value if snapshot.interrupts else None
    if interrupt is not None:
        for task in graph.get_state(config, subgraphs=True).tasks:
            inner = getattr(task.state, "values", None)
            if task.name == FLOW_NODE and isinstance(inner, Mapping):
                values.update({key: inner.get(key) for key in FLOW_KEYS})
                values["steps"] = record_flow_result(inner)["steps"]  # type: ignore[arg-type]
    outcome = "escalated" if interrupt is not None else values.get("outcome")
    return {
        "route": values.get("route"),
        "route_reason": values.get("route_reason", ""),
        "outcome": outcome,
        "answer": values.get("answer"),
        "reason": values.get("reason", ""),
        "steps": int(values.get("steps") or 0),
        "fault_code": values.get("fault_code"),
        "part_no": values.get("part_no"),
        "model_variant": values.get("model_variant"),
        "citations": list(values.get("citations") or []),
        "unsupported": list(values.get("unsupported") or []),
        "interrupt": interrupt,
        "thread_id": thread_id,
    }
