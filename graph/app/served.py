"""The graphs `langgraph.json` serves: the agent and the router over the configured corpora.

``$AGENT_CORPORA`` (saved index names, built-in names or ``NAME=PATH`` specs, comma-separated)
names the corpora; unset, the built-in corpora. The LangGraph server calls a factory for every
run, on its event loop: these factories are async and build their graph once per process, in a
worker thread (opening an index reads files, which must not block the loop), so the corpora are
opened once. Each run's context may then narrow them by name (`Context.corpora`), never by
path. The graphs are compiled without a checkpointer: the server brings its own.
"""

from __future__ import annotations

import asyncio
import functools

from langchain_core.tools import BaseTool

from graph.agent.graph import AgentGraph, build_agent
from graph.app.corpus_specs import served_corpora
from graph.router import RouterGraph, build_router


@functools.cache
def served_tools() -> tuple[BaseTool, ...]:
    """The agent's tools over ``$AGENT_CORPORA`` (else the built-ins), calculator and finish."""
    from tools import default_tools

    return tuple(default_tools(corpora=served_corpora()))


@functools.cache
def served_agent() -> AgentGraph:
    """The served agent, built on first use: configured corpora, model per run."""
    return build_agent(tools=served_tools())


@functools.cache
def served_router() -> RouterGraph:
    """The served router: the agent over the configured corpora, and the flow."""
    return build_router(agent_tools=served_tools())


async def make_graph() -> AgentGraph:
    """The agent the server serves (built once, off the event loop), with no checkpointer."""
    return await asyncio.to_thread(served_agent)


async def make_router() -> RouterGraph:
    """The router the server serves (built once, off the event loop), with no checkpointer."""
    return await asyncio.to_thread(served_router)
