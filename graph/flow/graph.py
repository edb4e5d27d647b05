"""The explicit field-service flow as a LangGraph ``StateGraph``.

parse -> history -> diagnose -> part -> stock -> compose, with the failure policy of
``policy.TRANSITIONS`` on every edge: ``escalate`` pauses the thread for a human (and continues
at ``part`` or ends), ``abort`` ends a request that cannot be served.

``build_flow(tools=None, checkpointer=None)`` is the factory (tests inject failing tools and a
checkpointer); ``flow`` is compiled without a checkpointer, for ``langgraph.json`` (the server
attaches its own).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from langchain_core.tools import BaseTool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graph.flow.nodes import FlowNodes, FlowTools, Tool
from graph.flow.policy import (
    ABORT_NODE,
    ESCALATE_NODE,
    RESUME_STAGE,
    Destination,
    Stage,
    destinations,
    next_step,
)
from graph.flow.state import FlowInput, FlowState

RECURSION_LIMIT = 32
"""Supersteps allowed per invocation; the longest path (both retries, then abort) takes 9."""


def route_after_stage(state: FlowState) -> Destination:
    """Route after a stage by its last log entry and run count, through the policy table.

    Raises RuntimeError when the log is empty or does not end with a stage that has run.
    """
    log = state.get("log") or []
    if not log:
        raise RuntimeError("route_after_stage: no stage has run yet")
    last = log[-1]
    if last["stage"] not in {s.value for s in Stage}:
        raise RuntimeError(f"route_after_stage: last log entry is not a stage: {last['stage']!r}")
    runs = (state.get("attempts") or {}).get(last["stage"], 0)
    if runs < 1:
        raise RuntimeError(f"route_after_stage: {last['stage']} is logged but has no run count")
    return next_step(last["stage"], last["ok"], runs)


def route_after_escalate(state: FlowState) -> Literal["part", "__end__"]:
    """Route after a human decision: a chosen fault code goes to ``part``, a close ends.

    Raises RuntimeError when there is no decision or it is not one of those two.
    """
    decision = state.get("human_decision")
    if decision is None:
        raise RuntimeError("route_after_escalate: the escalation ended without a human decision")
    if decision["action"] == "fault_code" and decision["fault_code"]:
        assert RESUME_STAGE is Stage.PART
        return "part"
    if decision["action"] == "close":
        return "__end__"
    raise RuntimeError(f"route_after_escalate: unexpected decision {decision!r}")


def build_flow(
    tools: FlowTools | Mapping[str, Tool] | Sequence[BaseTool] | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    *,
    name: str = "flow",
) -> CompiledStateGraph:
    """Compile the flow with the given tools (defaults: the real ones) and checkpointer.

    ``tools`` overrides the default tools by name: a ``FlowTools``, a mapping
    ``{"search_tickets": ..., ...}`` or a list of LangChain tools. An escalation needs a
    checkpointer to pause and resume (the LangGraph server supplies one).
    """
    nodes = FlowNodes(FlowTools.resolve(tools))
    builder = StateGraph(FlowState, input_schema=FlowInput)
    for stage_fn in (nodes.parse, nodes.history, nodes.diagnose, nodes.part, nodes.stock,
                     nodes.compose, nodes.escalate, nodes.abort):  # fmt: skip
        builder.add_node(stage_fn)
    builder.add_edge(START, Stage.PARSE.value)
    for stage in Stage:
        builder.add_conditional_edges(stage.value, route_after_stage, list(destinations(stage)))
    builder.add_conditional_edges(ESCALATE_NODE, route_after_escalate, [RESUME_STAGE.value, END])
    builder.add_edge(ABORT_NODE, END)
    return builder.compile(checkpointer=checkpointer, name=name)


flow = build_flow()
"""The flow with the real tools and no checkpointer (``langgraph.json``: the server adds one)."""

__all__ = ["RECURSION_LIMIT", "build_flow", "flow", "route_after_escalate", "route_after_stage"]
