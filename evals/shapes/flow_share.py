"""What the flow would serve of the stored traffic, and what it would save.

For every run's request, the router's own decision (``graph.router.choose_route``, the function
its ``route_request`` node calls). The requests it would send to the flow are run through the
flow offline, in memory, with no model (``evals.flow_compare.systems.flow_runner``; each
distinct request once: the flow is deterministic): how many it answers, escalates or aborts.
Where the agent answered too, the two *agree* when the agent's answer names the flow's fault
code and part and no other catalogued ones (``FLOW_FIELDS``).

The saving, as ``benchmarks/flow_vs_agent.py`` computes a request's time: model calls times
the model latency plus CPU time. The flow makes no model call and its CPU per request is
measured here; the agent's model calls are the stored ones, and its time besides them is the
mean duration of those runs from the checkpoints' timestamps (the offline policy's runs are
all CPU; a remote model's own time would be inside it, and the agent's rate is then lower).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from corpora.field_service import load
from evals.flow_compare.agreement import named
from evals.flow_compare.systems import flow_runner
from evals.shapes.runs import Run
from graph.router import choose_route

FLOW_FIELDS = ("fault_code", "part_no")
"""The fields of the flow's result an agent answer must name to agree with it."""
OUTCOMES = ("answered", "escalated", "aborted")
DEFAULT_MODEL_LATENCY_MS = 500.0


@dataclass(frozen=True)
class Saving:
    """Model calls the flow would not make, and both systems' requests per second."""

    model_calls: int
    """The agent's model calls on the requests the flow would take."""
    mean_model_calls: float
    model_latency_ms: float
    agent_other_ms: float
    """Per run, the agent's time besides its model calls (mean stored duration)."""
    flow_cpu_ms: float
    """The flow's measured CPU time per request (offline, in memory)."""
    agent_rps: float
    flow_rps: float

    @property
    def ratio(self) -> float:
        """How many times the agent's requests per second the flow serves."""
        return self.flow_rps / self.agent_rps if self.agent_rps else float("inf")


@dataclass(frozen=True)
class FlowShare:
    """The runs the router would send to the flow, the flow's outcomes on them, agreement."""

    runs: tuple[Run, ...]
    share: float
    outcomes: Mapping[str, int]
    both_answered: int
    agree: int
    results: Mapping[str, Mapping[str, Any]]
    """The flow's result per distinct request."""
    saving: Saving

    def result_of(self, run: Run) -> Mapping[str, Any]:
        """The flow's result on the run's request."""
        return self.results[run.request]


def to_flow(request: str) -> bool:
    """Whether the router would send `request` to the flow (its own decision function)."""
    return choose_route(request)[0] == "flow"


def flow_share(
    runs: Sequence[Run], model_latency_ms: float = DEFAULT_MODEL_LATENCY_MS
) -> FlowShare:
    """Route every run's request, run the flow on those it takes, compare, price the saving."""
    routed = tuple(run for run in runs if to_flow(run.request))
    results, cpu_ms = run_flow_offline([run.request for run in routed])
    outcomes = dict.fromkeys(OUTCOMES, 0)
    both = agree = 0
    for run in routed:
        result = results[run.request]
        outcome = str(result.get("outcome"))
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        if run.answered and outcome == "answered":
            both += 1
            agree += agrees_with_flow(run.answer or "", result)
    return FlowShare(
        runs=routed,
        share=len(routed) / len(runs) if runs else 0.0,
        outcomes=outcomes,
        both_answered=both,
        agree=agree,
        results=results,
        saving=saving(routed, cpu_ms, model_latency_ms),
    )


def run_flow_offline(requests: Sequence[str]) -> tuple[dict[str, Mapping[str, Any]], float]:
    """The flow's result on each distinct request, and its CPU ms per request (0 for none).

    One in-memory checkpointer (an escalation pauses on it); a warm-up run first, so loading
    the data is not counted.
    """
    from langgraph.checkpoint.memory import InMemorySaver

    distinct = list(dict.fromkeys(requests))
    if not distinct:
        return {}, 0.0
    saver = InMemorySaver()
    run = flow_runner(saver)
    run(distinct[0], "shapes-warm-up")
    results: dict[str, Mapping[str, Any]] = {}
    start = time.process_time()
    for number, request in enumerate(distinct):
        results[request] = run(request, f"shapes-{number}")
    cpu_ms = (time.process_time() - start) * 1000 / len(distinct)
    return results, cpu_ms


def agrees_with_flow(answer: str, result: Mapping[str, Any]) -> bool:
    """Whether the answer names the flow's fault code and part, and no other catalogued one."""
    data = load()
    catalogue = {"fault_code": tuple(data.faults), "part_no": tuple(data.parts)}
    return all(
        result.get(name) is not None and named(answer, catalogue[name]) == {result[name]}
        for name in FLOW_FIELDS
    )


def saving(routed: Sequence[Run], flow_cpu_ms: float, model_latency_ms: float) -> Saving:
    """Requests per second of each system on the routed runs (see the module docstring)."""
    calls = sum(run.model_calls for run in routed)
    mean_calls = calls / len(routed) if routed else 0.0
    durations = [run.duration_s * 1000 for run in routed if run.duration_s is not None]
    other_ms = statistics.fmean(durations) if durations else 0.0
    agent_ms = mean_calls * model_latency_ms + other_ms
    return Saving(
        model_calls=calls,
        mean_model_calls=mean_calls,
        model_latency_ms=model_latency_ms,
        agent_other_ms=other_ms,
        flow_cpu_ms=flow_cpu_ms,
        agent_rps=1000 / agent_ms if agent_ms > 0 else 0.0,
        flow_rps=1000 / flow_cpu_ms if flow_cpu_ms > 0 else 0.0,
    )
