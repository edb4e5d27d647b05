"""Typed routers between the nodes."""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import AIMessage, ToolMessage
from langgraph.runtime import Runtime

from graph.agent.budget import can_take_another_round
from graph.agent.context import Context
from graph.agent.state import AgentState
from tools.finish import FINISH_TOOL


def route_after_reason(
    state: AgentState, runtime: Runtime[Context]
) -> Literal["act", "reason", "finish", "__end__"]:
    """Run the tool calls, ask again after garbled calls, or finish.

    Finish on an answer, an error, or an exhausted budget (the step count, or the recursion
    limit seen through `remaining_steps`). End at once when `reason` already ended the turn
    (a turn that could not start: no question, or no room under the recursion limit).
    """
    if state.get("stopped") is not None:
        return "__end__"
    if state.get("error"):
        return "finish"
    last = state["messages"][-1] if state.get("messages") else None
    if isinstance(last, AIMessage):
        if not last.tool_calls or any(call["name"] == FINISH_TOOL for call in last.tool_calls):
            return "finish"
        next_node: Literal["act", "reason"] = "act"
    elif isinstance(last, ToolMessage):  # garbled calls, already answered with errors
        next_node = "reason"
    else:
        raise ValueError(f"reason must end on an AI or tool message, not {type(last).__name__}")
    context = runtime.context if isinstance(runtime.context, Context) else Context()
    if state.get("steps", 0) >= context.max_steps:
        return "finish"
    if not can_take_another_round(state["remaining_steps"]):
        return "finish"
    return next_node
