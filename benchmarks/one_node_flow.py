"""The flow as it was before its stages became nodes: all six in one ``run_stages`` node.

Kept for the benchmark only (``flow_vs_agent.py``), so the stage-per-node flow's cost is
measured against its predecessor in the same run. It runs the same stage functions
(``graph.flow.stages``) over the same table (``policy.next_step``), with the retry as a loop
inside the node; the escalation is the same node, routed back to ``run_stages`` at the part
stage. Not a product: the CLI, the server and the router use ``graph.flow.graph``.

    START -> run_stages -+-> END
                         +-> escalate -+-> run_stages (at part) | END
"""

from __future__ import annotations

import time
from typing import Any, Literal

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graph.flow.escalation import EscalateNode
from graph.flow.retry import TransientStageError
from graph.flow.stage_node import ABORTED, BLANK
from graph.flow.stages import FlowStages
from graph.flow.state import FlowInput, FlowState, LogEntry
from graph.flow.transitions import (
    DONE,
    ESCALATE_NODE,
    FIRST_STAGE,
    MAX_RUNS,
    POLICY,
    RESUME_STAGE,
    Stage,
    next_step,
)

MAX_STAGE_RUNS = len(Stage) * max(MAX_RUNS.values())
"""More stage runs than the table allows in one ``run_stages`` call (a guard against a cycle)."""


class OneNodeFlow:
    """``run_stages``: the stages in a loop over the table, in one superstep."""

    def __init__(self, stages: FlowStages) -> None:
        self.stages = stages

    def run_stages(self, state: FlowState) -> dict[str, Any]:
        """Run stages from parse (a new request) or the part stage (after a human's code)."""
        resumed = state.get("human_decision") is not None and state.get("outcome") is None
        stage = RESUME_STAGE if resumed else FIRST_STAGE
        update: dict[str, Any] = {}
        if stage is FIRST_STAGE:
            update.update({key: BLANK[key] for key in BLANK if state.get(key) is not None})
        attempts = {} if stage is FIRST_STAGE else dict(state.get("attempts") or {})
        view: dict[str, Any] = {**state, **update}
        log: list[LogEntry] = []
        for _ in range(MAX_STAGE_RUNS):
            run = attempts.get(stage.value, 0) + 1
            attempts[stage.value] = run
            start, transient = time.perf_counter(), False
            try:
                ok, detail, changes = self.stages.functions[stage](view, run)
            except TransientStageError as exc:
                ok, detail, changes, transient = False, str(exc), {}, True
            ms = round((time.perf_counter() - start) * 1000, 1)
            detail = f"retry {run - 1}: {detail}" if run > 1 else detail
            log.append({"stage": stage.value, "ok": ok, "detail": detail, "ms": ms})
            changes = changes if ok else {**changes, "reason": detail}
            view.update(changes)
            update.update(changes)
            if transient and run < MAX_RUNS[POLICY[stage]]:
                continue  # the retry of a transient failure, inside the node
            after = next_step(stage, ok)
            if after == "abort":
                update.update(outcome="aborted", answer=ABORTED.format(reason=view["reason"]))
                break
            if after in (DONE, ESCALATE_NODE):
                break
            stage = Stage(after)
        update["attempts"] = attempts
        update["log"] = log
        return update


def route_after_stages(state: FlowState) -> Literal["escalate", "__end__"]:
    """END when the request was answered or aborted, else the escalation."""
    return "__end__" if state.get("outcome") in ("answered", "aborted") else "escalate"


def route_after_escalate(state: FlowState) -> Literal["run_stages", "__end__"]:
    """Back to the stages when a human chose a fault code, else END."""
    decision = state.get("human_decision") or {}
    return "run_stages" if decision.get("action") == "fault_code" else "__end__"


def build_one_node_flow(checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:
    """Compile the one-node flow with the default tools."""
    stages = FlowStages()
    nodes = OneNodeFlow(stages)
    builder = StateGraph(FlowState, input_schema=FlowInput)
    builder.add_node("run_stages", nodes.run_stages)
    builder.add_node(ESCALATE_NODE, EscalateNode(lambda: stages.data))
    builder.add_edge(START, "run_stages")
    builder.add_conditional_edges("run_stages", route_after_stages, ["escalate", END])
    builder.add_conditional_edges(ESCALATE_NODE, route_after_escalate, ["run_stages", END])
    return builder.compile(checkpointer=checkpointer, name="flow-one-node")
