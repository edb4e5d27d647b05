"""Where a thread can be forked: the checkpoint just before each model call of its last turn."""

from __future__ import annotations

from langgraph.types import StateSnapshot

from graph.agent.graph import AgentGraph

REASON_NODE = "reason"


def fork_points(graph: AgentGraph, latest: StateSnapshot) -> list[StateSnapshot]:
    """The checkpoints just before each model call of the latest turn, in order.

    Only the current branch counts: the chain of parents from the `latest` checkpoint back to
    the turn's input, so earlier forks never add steps.
    """
    snapshot: StateSnapshot | None = latest
    chain: list[StateSnapshot] = []
    while snapshot is not None:
        chain.append(snapshot)
        if (snapshot.metadata or {}).get("source") == "input" or not snapshot.parent_config:
            break
        snapshot = graph.get_state(snapshot.parent_config)
    points: list[StateSnapshot] = []
    for snapshot in reversed(chain):  # a fork copies its source: keep one of each
        if snapshot.next != (REASON_NODE,):
            continue
        size = len(snapshot.values.get("messages", []))
        if points and len(points[-1].values.get("messages", [])) == size:
            continue
        points.append(snapshot)
    return points
