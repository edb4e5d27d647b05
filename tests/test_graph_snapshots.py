"""Mermaid snapshots of the agent, the flow and the router, so a rewiring shows in a diff.

A missing snapshot is written and the test fails once, so a new drawing is checked in on
purpose. The router is drawn with ``xray`` so the flow's stages inside it are part of its
snapshot too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.agent.graph import build_agent
from graph.flow.graph import build_flow
from graph.models.scripted import ScriptedModel
from graph.router import build_router

SNAPSHOTS = Path(__file__).parent / "snapshots"


def matches_snapshot(drawing: str, name: str) -> None:
    """Assert ``drawing`` equals the checked-in snapshot ``name`` (write it when missing)."""
    path = SNAPSHOTS / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(drawing, encoding="utf-8")
        pytest.fail(f"wrote a new snapshot {path}; check it in and re-run")
    assert drawing == path.read_text(encoding="utf-8")


def test_agent_drawing_matches_the_snapshot() -> None:
    drawing = build_agent(model=ScriptedModel(turns=[])).get_graph().draw_mermaid()
    matches_snapshot(drawing, "agent_graph.mmd")


def test_flow_drawing_matches_the_snapshot() -> None:
    drawing = build_flow().get_graph().draw_mermaid()
    for stage in ("parse", "history", "diagnose", "part", "stock", "compose", "escalate"):
        assert f"\t{stage}({stage})" in drawing
    matches_snapshot(drawing, "flow_graph.mmd")


def test_router_drawing_matches_the_snapshot() -> None:
    router = build_router(model=ScriptedModel(turns=[]), agent_tools=[])
    drawing = router.get_graph(xray=True).draw_mermaid()
    assert "\tflow\\3adiagnose(diagnose)" in drawing  # the flow's stages, inside the router
    matches_snapshot(drawing, "router_graph.mmd")
