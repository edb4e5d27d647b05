"""The explicit field-service flow as a LangGraph ``StateGraph``: two nodes.

    START -> run_stages -+-> END           (answered, or aborted)
                         +-> escalate -+-> run_stages   (a human chose a fault code: at part)
                                       +-> END          (a human closed the request)

``run_stages`` runs parse -> history -> diagnose -> part -> stock -> compose in one loop over
``policy.TRANSITIONS``, applying the failure policy per stage, so a request costs one superstep
rather than one per stage. ``escalate`` pauses the thread with ``interrupt()``; resuming it
re-runs only ``escalate``.

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

from graph.checked import checked
from graph.flow.nodes import FlowNodes, FlowTools, Tool
from graph.flow.policy import ABORT, DONE, ESCALATE_NODE, STAGES_NODE, Stage, next_step
from graph.flow.state import FlowInput, FlowState

RECURSION_LIMIT = 8
"""Supersteps allowed per invocation; the longest (a resume that escalates again) takes 3."""
_STAGES = frozenset(s.value for s in Stage)


def route_after_stages(state: FlowState) -> Literal["escalate", "__end__"]:
    """Route after ``run_stages`` by its last log entry and run count, through the policy.

    ``escalate`` when the policy says a human must decide; END when the request was answered
    (compose succeeded) or aborted. Raises RuntimeError on anything else: an empty log, a last
    entry that is not a stage, a stage without a run count, or stages that stopped early.
    """
    log = state.get("log") or []
    if not log:
        raise RuntimeError("route_after_stages: no stage has run yet")
    last = log[-1]
    if last["stage"] not in _STAGES:
        raise RuntimeError(f"route_after_stages: last log entry is not a stage: {last['stage']!r}")
    runs = (state.get("attempts") or {}).get(last["stage"], 0)
    if runs < 1:
        raise RuntimeError(f"route_after_stages: {last['stage']} is logged but has no run count")
    after = next_step(last["stage"], last["ok"], runs)
    if after == ESCALATE_NODE:
        return "escalate"
    outcome = state.get("outcome")
    if (after == DONE and outcome == "answered") or (after == ABORT and outcome == "aborted"):
        return "__end__"
    raise RuntimeError(
        f"route_after_stages: the stages stopped after {last['stage']} (next: {after}) "
        f"with outcome {outcome!r}"
    )


def route_after_escalate(state: FlowState) -> Literal["run_stages", "__end__"]:
    """Route after a human decision: a chosen fault code goes back to the stages, a close ends.

    Raises RuntimeError when there is no decision or it is not one of those two.
    """
    decision = state.get("human_decision")
    if decision is None:
        raise RuntimeError("route_after_escalate: the escalation ended without a human decision")
    if decision["action"] == "fault_code" and decision["fault_code"]:
        return "run_stages"
    if decision["action"] == "close":
        return "__end__"
    raise RuntimeError(f"route_after_escalate: unexpected decision {decision!r}")


def build_flow(
    tools: FlowTools | Mapping[str, Tool] | Sequence[BaseTool] | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    *,
    name: str = "flow",
) -> CompiledStateGraph:
    """Compile the flow with the given tools (defaults: the domain functions) and checkpointer.

    ``tools`` overrides the default tools by name: a ``FlowTools``, a mapping
    ``{"search_tickets": ..., ...}`` or a list of LangChain tools. An escalation needs a
    checkpointer to pause and resume (the LangGraph server supplies one).
    """
    nodes = FlowNodes(FlowTools.resolve(tools))
    builder = StateGraph(FlowState, input_schema=FlowInput)
    builder.add_node(nodes.run_stages)
    builder.add_node(nodes.escalate)
    builder.add_edge(START, STAGES_NODE)
    builder.add_conditional_edges(STAGES_NODE, route_after_stages, [ESCALATE_NODE, END])
    builder.add_conditional_edges(ESCALATE_NODE, route_after_escalate, [STAGES_NODE, END])
    return checked(builder.compile(checkpointer=checkpointer, name=name))


flow = build_flow()
"""The flow with the default tools and no checkpointer (``langgraph.json``: the server adds one)."""

__all__ = ["RECURSION_LIMIT", "build_flow", "flow", "route_after_escalate", "route_after_stages"]
