"""The router: requests of the flow's shape go to the explicit flow, the rest to the agent.

    START -> route_request -+-> flow (a subgraph) -> record_flow_result -> END
                            +-> ask_agent -> END

A request that names a model variant (``corpora.field_service.VARIANT_RE``, ``AC-250-S``) has
the flow's shape; anything else goes to the ReAct agent over the built-in corpora (policy,
products, notes), which answers the questions that are not field-service requests at all.

The flow is added as a subgraph node, so an escalation inside it (``interrupt()``) pauses the
router's thread too, and ``Command(resume=...)`` on the router's thread resumes the flow where
it stopped. The agent runs inside ``ask_agent`` with the run's ``Context`` (model, budget).

``build_router(checkpointer=None)`` is the factory; ``graph.app.served.make_router``, the one
``langgraph.json`` names, calls it without one (the server attaches its own).
``graph.app.router_runs`` drives it from Python with a plain result dict. Importing this
module builds nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from corpora.field_service import VARIANT_RE
from graph.agent.budget import (
    DEFAULT_MAX_STEPS,
    recursion_limit_for,
    router_limit,
)
from graph.agent.context import Context
from graph.agent.graph import AgentGraph, build_agent
from graph.common.chat import answer_message
from graph.common.checked import checked
from graph.flow.graph import RECURSION_LIMIT as FLOW_RECURSION_LIMIT
from graph.flow.graph import build_flow
from graph.flow.stage_node import request_from_chat
from graph.flow.state import LogEntry, Outcome
from graph.flow.tools import FlowTools, Tool
from graph.flow.transitions import ESCALATE_NODE

Route = Literal["flow", "agent"]
"""Where a request goes."""
FLOW_NODE: Literal["flow"] = "flow"
"""The node that runs the flow subgraph."""
AGENT_NODE: Literal["ask_agent"] = "ask_agent"
"""The node that runs the agent."""
TO_FLOW = "names the model variant {variant}: the flow's shape"
TO_AGENT = "names no model variant of the form AC-250-S: the agent answers it"
FLOW_KEYS = ("reason", "fault_code", "part_no", "model_variant", "log")
"""Keys of the flow's state the router reports while the flow is paused."""


class RouterInput(TypedDict, total=False):
    """What a caller passes in: a request, or a chat panel's messages."""

    request: str
    """The request in plain text: a field-service request or any other question."""
    messages: Annotated[list[AnyMessage], add_messages]
    """The chat: a chat panel's last human message is the request; each answer is an AI message."""


class RouterState(RouterInput, total=False):
    """The router's thread: the route taken and the result of whichever graph served it."""

    route: Route | None
    """``flow`` or ``agent``; None until ``route_request`` has run."""
    route_reason: str
    """Why the request took that route, in one line."""
    outcome: Outcome | None
    """``answered``, ``escalated`` or ``aborted`` (None while the request is in progress)."""
    answer: str | None
    """The answer handed back (the flow's text, or the agent's answer); None without one."""
    reason: str
    """Why the flow failed, or the agent's error (empty when nothing failed)."""
    steps: int
    """Work done: stage runs for the flow, model calls for the agent."""
    fault_code: str | None
    """The flow's diagnosed (or human-chosen) fault code."""
    part_no: str | None
    """The part the flow chose for the variant."""
    model_variant: str | None
    """The variant the flow parsed from the request."""
    log: list[LogEntry]
    """The flow's stage log (copied from the flow when it finishes)."""
    citations: list[str]
    """Ids the agent cited that it retrieved."""
    unsupported: list[str]
    """Ids the agent cited that it never retrieved."""
    stopped: str | None
    """Why the agent's run ended: ``answer``, ``budget`` or ``error``."""


RouterGraph = CompiledStateGraph[RouterState, Context, RouterInput, RouterState]
"""The compiled router's type (state, context, input, output)."""


def choose_route(request: Any) -> tuple[Route, str]:
    """The route for a request, and why: a named variant means the flow."""
    match = VARIANT_RE.search(request) if isinstance(request, str) else None
    if match is None:
        return "agent", TO_AGENT
    return "flow", TO_FLOW.format(variant=match.group(0).upper())


def route_request(state: RouterState) -> dict[str, Any]:
    """Decide the route from the request's shape (a variant present, or not).

    A chat panel's last human message, when it just sent one, is the request.
    """
    update = request_from_chat(state)
    route, why = choose_route(update.get("request", state.get("request")))
    return {**update, "route": route, "route_reason": why}


def route_after_request(state: RouterState) -> Literal["flow", "ask_agent"]:
    """Send the request to the node of its route; raise on a state without one."""
    route = state.get("route")
    if route == "flow":
        return FLOW_NODE
    if route == "agent":
        return AGENT_NODE
    raise RuntimeError(f"route_after_request: no route decided (route={route!r})")


def record_flow_result(state: RouterState) -> dict[str, Any]:
    """Count the flow's stage runs as its steps (a human decision is not a step)."""
    log = state.get("log") or []
    return {"steps": sum(1 for entry in log if entry["stage"] != ESCALATE_NODE)}


def agent_outcome(result: Mapping[str, Any]) -> Outcome:
    """How an agent run ended, in the flow's terms (the agent never escalates).

    ``answered`` when it stopped on an answer that cites at least one record it looked up
    (counting ids the transcript did not register as retrieved, see ``unsupported``);
    ``aborted`` otherwise: no answer, the budget ran out, an error, or an answer that rests
    on nothing it retrieved (e.g. "cannot act on this request").
    """
    cited = [*(result.get("citations") or []), *(result.get("unsupported") or [])]
    if result.get("stopped") == "answer" and result.get("answer") and cited:
        return "answered"
    return "aborted"


class AgentNode:
    """The ``ask_agent`` node: the agent over the built-in corpora, with the run's context."""

    def __init__(self, agent: AgentGraph) -> None:
        self.agent = agent

    def __call__(self, state: RouterState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Ask the agent the request; map its result onto the router's state."""
        context = runtime.context if isinstance(runtime.context, Context) else Context()
        result = self.agent.invoke(
            {"question": state.get("request", "")},
            {"recursion_limit": recursion_limit_for(context.max_steps)},
            context=context,
        )
        return {
            "outcome": agent_outcome(result),
            "answer": result.get("answer"),
            "reason": result.get("error") or "",
            "steps": int(result.get("steps") or 0),
            "citations": list(result.get("citations") or []),
            "unsupported": list(result.get("unsupported") or []),
            "stopped": result.get("stopped"),
            "messages": [answer_message(result)],
        }


def build_router(
    checkpointer: BaseCheckpointSaver | None = None,
    *,
    model: BaseChatModel | None = None,
    agent_tools: Sequence[BaseTool] | None = None,
    flow_tools: FlowTools | Mapping[str, Tool] | Sequence[BaseTool] | None = None,
    name: str = "router",
) -> RouterGraph:
    """Compile the router over the flow and the agent.

    ``agent_tools`` defaults to the built-in corpora tools (``tools.default_tools()``);
    ``model`` fixes the agent's chat model (default: chosen per run through ``Context``);
    ``flow_tools`` overrides the flow's tools by name. The flow and the agent inherit the
    router's checkpointer, so an escalation pauses the router's thread.
    """
    if agent_tools is None:
        from tools import default_tools

        agent_tools = default_tools()
    agent = build_agent(model=model, tools=agent_tools, name="agent")
    builder = StateGraph(RouterState, context_schema=Context, input_schema=RouterInput)
    builder.add_node(route_request)
    builder.add_node(FLOW_NODE, build_flow(flow_tools, name=FLOW_NODE))
    builder.add_node(record_flow_result)
    builder.add_node(AGENT_NODE, AgentNode(agent))
    builder.add_edge(START, "route_request")
    builder.add_conditional_edges("route_request", route_after_request, [FLOW_NODE, AGENT_NODE])
    builder.add_edge(FLOW_NODE, "record_flow_result")
    builder.add_edge("record_flow_result", END)
    builder.add_edge(AGENT_NODE, END)
    compiled = builder.compile(checkpointer=checkpointer, name=name)
    rule = f"the flow it may call needs {FLOW_RECURSION_LIMIT}; the agent runs under its own"
    return checked(compiled, least_limit=FLOW_RECURSION_LIMIT, limit_rule=rule)


def router_config(thread_id: str, max_steps: int = DEFAULT_MAX_STEPS) -> RunnableConfig:
    """The run config for a router thread: room for the longer of the flow and the agent."""
    limit = router_limit(FLOW_RECURSION_LIMIT, max_steps)
    return {"configurable": {"thread_id": thread_id}, "recursion_limit": limit}


__all__ = [
    "AgentNode",
    "FLOW_KEYS",
    "RouterInput",
    "RouterState",
    "agent_outcome",
    "build_router",
    "choose_route",
    "record_flow_result",
    "route_after_request",
    "route_request",
    "router_config",
]
