"""The router: requests of the flow's shape go to the explicit flow, the rest to the agent.

    START -> route_request -+-> flow (a subgraph) -> record_flow_result -> END
                            +-> ask_agent -> END

A request that names a model variant (``corpora.field_service.VARIANT_RE``, ``AC-250-S``) has
the flow's shape; anything else goes to the ReAct agent over the built-in corpora (policy,
products, notes), which answers the questions that are not field-service requests at all.

The flow is added as a subgraph node, so an escalation inside it (``interrupt()``) pauses the
router's thread too, and ``Command(resume=...)`` on the router's thread resumes the flow where
it stopped. The agent runs inside ``ask_agent`` with the run's ``Context`` (model, budget).

``build_router(checkpointer=None)`` is the factory; ``router`` is compiled without a
checkpointer for ``langgraph.json`` (the server attaches its own). ``run_router``,
``resume_router`` and ``router_result`` drive it from Python with a plain result dict.
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
from langgraph.types import Command
from typing_extensions import TypedDict

from corpora.field_service import VARIANT_RE
from graph.budget import recursion_limit_for
from graph.chat import answer_message
from graph.checked import checked
from graph.context import DEFAULT_MAX_STEPS, Context
from graph.flow.graph import RECURSION_LIMIT as FLOW_RECURSION_LIMIT
from graph.flow.graph import build_flow
from graph.flow.human import ResumeError
from graph.flow.nodes import FlowTools, Tool
from graph.flow.policy import ESCALATE_NODE
from graph.flow.stage_node import request_from_chat
from graph.flow.state import LogEntry, Outcome
from graph.graph import AgentGraph, build_agent
from graph.models import default_model_spec
from graph.thread_settings import ThreadSettings, with_settings

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
    return checked(builder.compile(checkpointer=checkpointer, name=name))


def router_config(thread_id: str, max_steps: int = DEFAULT_MAX_STEPS) -> RunnableConfig:
    """The run config for a router thread: room for the longer of the flow and the agent."""
    limit = max(FLOW_RECURSION_LIMIT, recursion_limit_for(max_steps)) + 3
    return {"configurable": {"thread_id": thread_id}, "recursion_limit": limit}


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
    model = model or default_model_spec()
    config = with_settings(config, ThreadSettings(graph="router", model=model, max_steps=max_steps))
    graph.invoke({"request": request}, config, context=Context(model=model, max_steps=max_steps))
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
    graph.invoke(
        Command(resume=value),
        config,
        context=Context(model=model or default_model_spec(), max_steps=max_steps),
    )
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


router = build_router()
"""The router with the real tools, model per run, and no checkpointer (``langgraph.json``)."""

__all__ = [
    "AgentNode",
    "RouterInput",
    "RouterState",
    "agent_outcome",
    "build_router",
    "choose_route",
    "record_flow_result",
    "resume_router",
    "route_after_request",
    "route_request",
    "router",
    "router_config",
    "router_result",
    "run_router",
]
