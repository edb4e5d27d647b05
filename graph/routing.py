"""Typed routers between the nodes."""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from graph.budget import can_take_another_round
from graph.context import Context
from graph.state import AgentState
from graph.transcript import FINISH_TOOL


def route_after_reason(state: AgentState, runtime: Runtime[Context]) -> Literal["act", "finish"]:
    """Run the tool calls, or finish: on an answer, an error, or an exhausted budget."""
    if state.get("error"):
        return "finish"
    last = state["messages"][-1] if state.get("messages") else None
    if not isinstance(last, AIMessage):
        raise ValueError(f"reason must end on an AI message, not {type(last).__name__}")
    if not last.tool_calls or any(call["name"] == FINISH_TOOL for call in last.tool_calls):
        return "finish"
    context = runtime.context if isinstance(runtime.context, Context) else Context()
    if state.get("steps", 0) >= context.max_steps:
        return "finish"
    if not can_take_another_round(state["remaining_steps"]):
        return "finish"
    return "act"
