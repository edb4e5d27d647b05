"""The application: LangGraph graphs, in layers that import only downwards, and its Python API.

``common`` < ``mcp_io`` < ``models`` < ``agent`` (the ReAct graph) < ``flow`` < ``router`` <
``app`` (sessions, stores, traces) < ``cli``; ``tests/test_architecture.py`` holds the order.
Importing any module builds nothing: graphs are made by factories.

The public API is importable from here::

    from graph import build_agent, Context, Session, open_checkpointer, run_dataset

Each name is imported from its module on first use, so ``import graph`` stays cheap (it loads
neither LangGraph nor LangChain).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evals.metrics import evaluate
    from evals.runner import run_dataset
    from graph.agent.context import Context
    from graph.agent.graph import build_agent
    from graph.app.persistence import open_checkpointer
    from graph.app.session import Session
    from graph.app.takehome import run_agent
    from graph.models import load_model
    from tools import default_tools
    from tools.search import make_search_tool

API = {
    "build_agent": "graph.agent.graph",
    "Context": "graph.agent.context",
    "Session": "graph.app.session",
    "open_checkpointer": "graph.app.persistence",
    "default_tools": "tools",
    "make_search_tool": "tools.search",
    "load_model": "graph.models",
    "run_agent": "graph.app.takehome",
    "run_dataset": "evals.runner",
    "evaluate": "evals.metrics",
}
"""Each public name and the module that defines it."""

__all__ = [
    "Context",
    "Session",
    "build_agent",
    "default_tools",
    "evaluate",
    "load_model",
    "make_search_tool",
    "open_checkpointer",
    "run_agent",
    "run_dataset",
]


def __getattr__(name: str) -> Any:
    """The public name `name`, imported from its module the first time it is asked for."""
    module = API.get(name)
    if module is None:
        raise AttributeError(f"module 'graph' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's names, the lazy public ones included."""
    return sorted({*globals(), *__all__})
