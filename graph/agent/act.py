"""The `act` node: LangGraph's ToolNode, with the repeat rule and per-run `k` around each call."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langgraph.prebuilt import ToolNode
from langgraph.prebuilt.tool_node import ToolCallRequest
from langgraph.types import Command

from graph.agent.context import Context
from graph.agent.transcript import find_earlier_search, is_search_call, search_page
from tools.search_protocol import SearchSource, corpus_of

REPEATED_SEARCH = (
    "Not run again: {tool} was already searched for {query!r} at step {step}. "
    "Its results are above; search with different words or finish."
)
UNKNOWN_TOOL = "Error: {name!r} is not a tool here. Call one of: {names}."
TOOL_FAILED = "Error: {error} Fix the arguments or call another tool."


def format_tool_error(error: Exception) -> str:
    """The error tool message the model sees when a tool raises."""
    text = " ".join(str(error).split()) or type(error).__name__
    return TOOL_FAILED.format(error=f"{type(error).__name__}: {text[:300]}")


Execute = Callable[[ToolCallRequest], ToolMessage | Command]


def guard_tool_call(request: ToolCallRequest, execute: Execute) -> ToolMessage | Command:
    """Answer repeats and unknown tools without running anything; give searches the run's k."""
    call = request.tool_call
    context = request.runtime.context if request.runtime is not None else None
    chosen = context.corpora if isinstance(context, Context) else None
    if request.tool is None or (
        chosen is not None and corpus_of(request.tool) not in (None, *chosen)
    ):
        return ToolMessage(
            content=UNKNOWN_TOOL.format(name=call["name"], names=_tool_names(request)),
            name=call["name"],
            tool_call_id=call["id"],
            status="error",
        )
    if is_search_call(call) or _is_search_source_call(request):
        messages = request.state.get("messages", []) if isinstance(request.state, dict) else []
        args = call["args"]
        step = find_earlier_search(
            messages, call["name"], args["query"], call["id"], search_page(args)
        )
        if step is not None:
            return ToolMessage(
                content=REPEATED_SEARCH.format(
                    tool=call["name"], query=call["args"]["query"], step=step
                ),
                name=call["name"],
                tool_call_id=call["id"],
                status="error",
            )
        tool = request.tool
        if (
            isinstance(context, Context)
            and "k" in type(tool).model_fields
            and getattr(tool, "k", None) != context.k
        ):  # the run's k: ToolNode drops injected arguments, so set it on a copy of the tool
            request = request.override(tool=tool.model_copy(update={"k": context.k}))
    return execute(request)


def _is_search_source_call(request: ToolCallRequest) -> bool:
    """A query to a search tool not named `search...` (an MCP server's, for one)."""
    args = request.tool_call.get("args")
    return isinstance(request.tool, SearchSource) and isinstance(args, dict) and "query" in args


def _tool_names(request: ToolCallRequest) -> str:
    """The names of the tools the model may call, for an unknown-tool message."""
    runtime = request.runtime
    tools = getattr(runtime, "tools", None) if runtime is not None else None
    if tools:
        return ", ".join(sorted(tool.name for tool in tools))
    return "the tools listed in your instructions"


def build_act_node(tools: Sequence[BaseTool]) -> ToolNode:
    """The `act` node: tool errors come back to the model as error tool messages."""
    return ToolNode(
        list(tools),
        name="act",
        handle_tool_errors=format_tool_error,
        wrap_tool_call=guard_tool_call,
    )
