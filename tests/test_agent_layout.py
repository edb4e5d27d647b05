"""The agent package keeps one concern per module: its nodes are named for what they are.

`reason` is a `ReasonNode`, `finish` a `FinishNode` (no `nodes.Agent` beside the `agent`
package); the message helpers and the question check are modules of their own.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from graph.agent.finish_node import FinishNode
from graph.agent.graph import build_agent
from graph.agent.reason_node import ReasonNode
from tools.finish import finish

ROOT = Path(__file__).resolve().parents[1]
MOST_LINES = 300


def test_the_graphs_nodes_are_the_reason_and_finish_node_objects() -> None:
    graph = build_agent(model="policy", tools=[finish])
    assert isinstance(graph.builder.nodes["reason"].runnable.func, ReasonNode)
    assert isinstance(graph.builder.nodes["finish"].runnable.func, FinishNode)
    assert importlib.util.find_spec("graph.agent.nodes") is None


def test_no_module_of_the_agent_package_passes_the_size_of_one_concern() -> None:
    files = sorted((ROOT / "graph" / "agent").glob("*.py"))
    long = {p.name: n for p in files if (n := len(p.read_text().splitlines())) > MOST_LINES}
    assert long == {}
