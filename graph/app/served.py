"""The graphs `langgraph.json` serves: the agent and the router over the configured corpora.

``$AGENT_CORPORA`` (saved index names or ``NAME=PATH`` specs, comma-separated) names the
corpora, opened once when the server loads the graph; unset, the built-in corpora. Each run's
context may then narrow them by name (`Context.corpora`), never by path. The graphs are
compiled without a checkpointer: the server brings its own.
"""

from __future__ import annotations

from langchain_core.tools import BaseTool

from graph.agent.graph import AgentGraph, build_agent
from graph.app.corpus_specs import served_corpora
from graph.router import RouterGraph, build_router


def served_tools() -> list[BaseTool]:
    """The agent's tools over ``$AGENT_CORPORA`` (else the built-ins), calculator and finish."""
    from tools import default_tools

    return default_tools(corpora=served_corpora())


def make_graph() -> AgentGraph:
    """The agent the server serves: the configured corpora, model per run, no checkpointer."""
    return build_agent(tools=served_tools())


def make_router() -> RouterGraph:
    """The router the server serves: the agent over the configured corpora, and the flow."""
    return build_router(agent_tools=served_tools())
