"""The explicit field-service flow as a LangGraph ``StateGraph``: one node per stage.

    START -> parse -> history -> diagnose -> part -> stock -> compose -> END
    (a failed stage: ABORT -> END; ESCALATE or a second RETRY_ONCE failure -> escalate)
    escalate -+-> part   (a human chose a fault code)
              +-> END    (a human closed the request)

The graph is generated from ``graph.flow.transitions``: a node per row of ``TRANSITIONS``, the edges
from ``targets``, a router per stage that asks ``next_step`` (and raises on a state it does not
expect), and LangGraph's ``RetryPolicy`` on the RETRY_ONCE stages. Studio shows the state
machine; a thread can be stepped through (``interrupt_before=["diagnose"]``), and with a
checkpoint per stage (``graph.app.flow_runs.DURABILITY``) a killed process resumes at its stage.

``build_flow(tools=None, checkpointer=None)`` is the factory (tests inject failing tools and a
checkpointer); ``make_flow`` is the factory ``langgraph.json`` names (no checkpointer: the
server attaches its own). Importing this module builds nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from langchain_core.tools import BaseTool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graph.common.checked import checked
from graph.flow.escalation import EscalateNode
from graph.flow.retry import FailedRuns, retry_policy_for
from graph.flow.stage_node import StageNode
from graph.flow.stages import FlowStages
from graph.flow.state import FlowInput, FlowState
from graph.flow.tools import FlowTools, Tool
from graph.flow.transitions import (
    ABORT,
    DONE,
    ESCALATE_NODE,
    FIRST_STAGE,
    RESUME_STAGE,
    TRANSITIONS,
    Stage,
    Target,
    next_step,
    node_of,
    targets,
)

RECURSION_LIMIT = len(TRANSITIONS) + 1
"""LangGraph's recursion limit per invocation: the longest runs six nodes (every stage, or five
and the escalation), which needs one more than that; ``tests/test_flow.py`` holds it tight."""

StageRouter = Callable[[FlowState], Target]
"""A router after one stage: the node that follows it."""


def route_after(stage: Stage) -> StageRouter:
    """Build the router that follows ``stage``: its last run's result, through ``next_step``.

    The router returns the next stage, ``escalate``, or END (the request was answered, or
    aborted). It raises RuntimeError on anything else: an empty log, a last entry from another
    stage, a stage without a run count, or an end without the outcome the table implies.
    """

    def route(state: FlowState) -> Target:
        name = f"route_after_{stage.value}"
        log = state.get("log") or []
        if not log:
            raise RuntimeError(f"{name}: no stage has run yet")
        last = log[-1]
        if last["stage"] != stage.value:
            raise RuntimeError(f"{name}: the last log entry is {last['stage']!r}, not {stage}")
        if (state.get("attempts") or {}).get(stage.value, 0) < 1:
            raise RuntimeError(f"{name}: {stage} is logged but has no run count")
        after = next_step(stage, last["ok"])
        if after not in (DONE, ABORT):
            return after
        outcome = state.get("outcome")
        if (after, outcome) in ((DONE, "answered"), (ABORT, "aborted")):
            return DONE
        raise RuntimeError(f"{name}: the table says {after} but the outcome is {outcome!r}")

    route.__name__ = route.__qualname__ = f"route_after_{stage.value}"
    return route


def route_after_escalate(state: FlowState) -> Target:
    """Route after a human decision: a chosen fault code goes to the part stage, a close ends.

    A refused resume value escalates again (the pause then says why). Raises RuntimeError
    when there is no decision or it is not one of those two.
    """
    decision = state.get("human_decision")
    if decision is None and state.get("resume_error"):
        return ESCALATE_NODE
    if decision is None:
        raise RuntimeError("route_after_escalate: the escalation ended without a human decision")
    if decision["action"] == "fault_code" and decision["fault_code"]:
        return node_of(RESUME_STAGE)
    if decision["action"] == "close":
        return DONE
    raise RuntimeError(f"route_after_escalate: unexpected decision {decision!r}")


def build_flow(
    tools: FlowTools | Mapping[str, Tool] | Sequence[BaseTool] | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    *,
    name: str = "flow",
    mcp: str | None = None,
) -> CompiledStateGraph:
    """Compile the flow with the given tools (defaults: the domain functions) and checkpointer.

    ``tools`` overrides the default tools by name: a ``FlowTools``, a mapping
    ``{"search_tickets": ..., ...}`` or a list of LangChain tools. ``mcp`` (an MCP server spec,
    ``http://HOST:PORT/mcp`` or ``stdio:COMMAND ARGS...``) calls all three over MCP instead,
    on this process's pooled session (``graph.mcp_io.flow``). An escalation needs a
    checkpointer to pause and resume (the LangGraph server supplies one).
    """
    if mcp is not None:
        if tools is not None:
            raise ValueError("build_flow takes tools or mcp, not both")
        from graph.mcp_io.flow import remote_flow_tools

        tools = remote_flow_tools(mcp)
    stages = FlowStages(FlowTools.resolve(tools))
    failed_runs = FailedRuns()
    builder = StateGraph(FlowState, input_schema=FlowInput)
    for stage in TRANSITIONS:
        node = StageNode(stage, stages.functions[stage], failed_runs)
        builder.add_node(node_of(stage), node, retry_policy=retry_policy_for(stage))
    builder.add_node(ESCALATE_NODE, EscalateNode(lambda: stages.data))
    builder.add_edge(START, node_of(FIRST_STAGE))
    for stage in TRANSITIONS:
        builder.add_conditional_edges(node_of(stage), route_after(stage), list(targets(stage)))
    after_escalate: list[str] = [node_of(RESUME_STAGE), ESCALATE_NODE, END]
    builder.add_conditional_edges(ESCALATE_NODE, route_after_escalate, after_escalate)
    flow_rule = f"the flow's longest run needs {RECURSION_LIMIT}"
    compiled = builder.compile(checkpointer=checkpointer, name=name)
    return checked(compiled, least_limit=RECURSION_LIMIT, limit_rule=flow_rule)


def make_flow() -> CompiledStateGraph:
    """The flow ``langgraph.json`` serves: default tools, no checkpointer (the server adds one)."""
    return build_flow()


__all__ = [
    "RECURSION_LIMIT",
    "StageRouter",
    "build_flow",
    "make_flow",
    "route_after",
    "route_after_escalate",
]
