"""The ReAct agent graph: `reason` -> `act` -> `reason` ... -> `finish`.

`build_agent` is the factory: the CLI, the tests and your application attach a checkpointer;
`graph.app.served.make_graph`, the one `langgraph.json` names, calls it without one (the server
adds its own). Importing this module builds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graph.agent.act import build_act_node
from graph.agent.budget import LEAST_RECURSION_LIMIT, LIMIT_RULE
from graph.agent.context import Context
from graph.agent.edges import route_after_reason
from graph.agent.finish_node import FinishNode
from graph.agent.prompts import SYSTEM_PROMPT
from graph.agent.reason_node import ReasonNode
from graph.agent.state import AgentState, InputState, OutputState
from graph.common.checked import checked
from graph.models import as_chat_model

AgentGraph = CompiledStateGraph[AgentState, Context, InputState, OutputState]


def build_agent(
    model: BaseChatModel | str | None = None,
    tools: Sequence[BaseTool] | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    name: str = "agent",
    *,
    system_prompt: str = SYSTEM_PROMPT,
    any_model: bool = False,
) -> AgentGraph:
    """Compile the agent over `tools` (default: the built-in corpora, calculator, finish).

    `model` (a model name or a `BaseChatModel`) fixes the chat model, and `Context.model` is
    then not read (callers that take a model per run refuse a conflicting one, see
    `graph.app.run_context`); without it each run picks one through `Context.model`, from
    `AGENT_ALLOWED_MODELS` unless `any_model` (the CLI and the Python API trust their caller;
    a server's clients are not). A search tool's `k` is the run's `Context.k` (`graph.agent.act`).
    `system_prompt` (`{tools}` lists the tools) is sent with every model call unless the run's
    `Context.system_prompt` gives another; it is never stored in the thread.
    """
    chat_model = as_chat_model(model)
    if tools is None:
        from tools import default_tools

        tools = default_tools()
    reason = ReasonNode(tools, chat_model, any_model=any_model, system_prompt=system_prompt)
    builder = StateGraph(
        AgentState, context_schema=Context, input_schema=InputState, output_schema=OutputState
    )
    builder.add_node("reason", reason)
    builder.add_node("act", build_act_node(reason.tools))
    builder.add_node("finish", FinishNode(reason.tools, reason.run_tools))
    builder.add_edge(START, "reason")
    builder.add_conditional_edges("reason", route_after_reason)
    builder.add_edge("act", "reason")
    builder.add_edge("finish", END)
    compiled = builder.compile(checkpointer=checkpointer, name=name)
    rule = f"the agent needs {LIMIT_RULE}"
    return checked(compiled, least_limit=LEAST_RECURSION_LIMIT, limit_rule=rule)
