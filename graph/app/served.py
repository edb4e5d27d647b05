"""The graphs `langgraph.json` serves: the agent and the router over the configured corpora.

``$AGENT_CORPORA`` (saved index names or ``NAME=PATH`` specs, comma-separated) names the
corpora, opened once when the server loads the graph; unset, the built-in corpora. Each run's
context may then narrow them by name (`Context.corpora`), never by path. The graphs are
compiled without a checkpointer: the server brings its own.
"""

from __future__ import annotations

import asyncio
import os
from functools import cache

from langchain_core.tools import BaseTool

from graph.agent.graph import AgentGraph, build_agent
from graph.app.corpus_specs import CORPORA_ENV, served_corpora
from graph.app.persistence import HOME_ENV
from graph.router import RouterGraph, build_router


def served_tools() -> list[BaseTool]:
    """The agent's tools over ``$AGENT_CORPORA`` (else the built-ins), calculator and finish.

    The corpora are opened once per value of ``$AGENT_CORPORA`` and ``$AGENT_HOME``: the
    server calls the graph factories for every run, inside its event loop, where opening an
    index (file reads) would block every other request.
    """
    return list(_tools_for(os.environ.get(CORPORA_ENV, ""), os.environ.get(HOME_ENV, "")))


@cache
def _tools_for(corpora: str, home: str) -> tuple[BaseTool, ...]:
    """The tools over the corpora these settings name (the arguments are the cache key)."""
    from tools import default_tools

    return tuple(default_tools(corpora=served_corpora()))


async def make_graph() -> AgentGraph:
    """The agent the server serves: the configured corpora, model per run, no checkpointer.

    Async because the server calls it inside its event loop for every run: the corpora are
    opened (the first time) in a worker thread, never blocking the loop.
    """
    return build_agent(tools=await asyncio.to_thread(served_tools))


async def make_router() -> RouterGraph:
    """The router the server serves: the agent over the configured corpora, and the flow."""
    return build_router(agent_tools=await asyncio.to_thread(served_tools))
