"""Requests per second when every model call costs a fixed latency: the seed's claim, measured.

The offline policy answers in about a millisecond, so its requests per second say little about
a hosted model. ``SleepingPolicy`` is the same policy waiting a fixed time before each answer
(as a hosted model's round trip would) and counting its calls. ``latency_rows`` runs each
system on the same requests with it, one request at a time, on a fresh checkpointer, and
reports model calls per request, CPU ms per request and requests per second.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from pydantic import Field

from evals.flow_compare.request_set import Request
from evals.flow_compare.systems import Runner, agent_runner, checkpointers, router_runner
from graph.models.offline.model import PolicyModel

SystemFactory = Callable[[BaseCheckpointSaver, PolicyModel], Runner]
"""Build a system's runner on a checkpointer, with the model it may call."""


class SleepingPolicy(PolicyModel):
    """The offline policy, sleeping ``latency_s`` before each answer and counting its calls."""

    latency_s: float = 0.0
    """Seconds each call waits before the policy answers."""
    calls: list[int] = Field(default_factory=list)
    """One item per call (shared with the copies ``bind_tools`` makes)."""

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        """Wait, count, then answer as the policy does."""
        if self.latency_s > 0:
            time.sleep(self.latency_s)
        self.calls.append(1)
        return super()._generate(*args, **kwargs)


@dataclass(frozen=True)
class LatencyRow:
    """One system at one model latency."""

    system: str
    latency_ms: float
    requests: int
    model_calls: float
    """Model calls per request."""
    cpu_ms: float
    """CPU time of this process per request."""
    rps: float
    """Requests per second, wall clock, one request at a time."""


def agent_system(saver: BaseCheckpointSaver, model: PolicyModel) -> Runner:
    """The ReAct agent with the field-service tools (as ``compare`` runs it)."""
    return agent_runner(saver, model)


def router_system(saver: BaseCheckpointSaver, model: PolicyModel) -> Runner:
    """The router: the flow for requests naming a variant, the agent for the rest."""
    return router_runner(saver, model)


def measure(
    name: str,
    factory: SystemFactory,
    requests: Sequence[Request],
    latency_ms: float,
    kind: str,
    rounds: int = 1,
) -> LatencyRow:
    """Run ``requests`` through one system with a model of ``latency_ms`` per call.

    Requests per second and CPU come from the best of ``rounds`` rounds (a busy machine only
    ever slows a round down); model calls per request from the first.
    """
    model = SleepingPolicy(latency_s=latency_ms / 1000)
    best_wall = best_cpu = float("inf")
    calls = 0
    with checkpointers(kind, [name]) as savers:  # type: ignore[arg-type]
        run = factory(savers[name], model)
        run(requests[0].request, "warm-up")
        for round_no in range(rounds):
            model.calls.clear()
            cpu, wall = time.process_time(), time.perf_counter()
            for n, request in enumerate(requests):
                run(request.request, f"{name}-{latency_ms:g}-{round_no}-{n}")
            best_wall = min(best_wall, time.perf_counter() - wall)
            best_cpu = min(best_cpu, time.process_time() - cpu)
            calls = calls or len(model.calls)
    count = len(requests)
    return LatencyRow(
        system=name,
        latency_ms=latency_ms,
        requests=count,
        model_calls=calls / count,
        cpu_ms=best_cpu * 1000 / count,
        rps=count / best_wall if best_wall > 0 else float("inf"),
    )


def latency_rows(
    systems: dict[str, SystemFactory],
    requests: Sequence[Request],
    latencies_ms: Sequence[float],
    *,
    limit_at: dict[float, int] | None = None,
    kind: str = "memory",
    rounds: int = 1,
    on_row: Callable[[LatencyRow], None] | None = None,
) -> list[LatencyRow]:
    """Every system at every latency; ``limit_at[latency]`` caps the requests run at it."""
    rows = []
    for latency in latencies_ms:
        chosen = requests[: (limit_at or {}).get(latency, len(requests))]
        for name, factory in systems.items():
            row = measure(name, factory, chosen, latency, kind, rounds)
            rows.append(row)
            if on_row is not None:
                on_row(row)
    return rows


def markdown(rows: Sequence[LatencyRow]) -> list[str]:
    """The rows as a markdown table."""
    lines = [
        "| system | model latency | requests | model calls/req | CPU ms/req | req/s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.system} | {r.latency_ms:g} ms | {r.requests} | {r.model_calls:.2f} | "
            f"{r.cpu_ms:.1f} | {r.rps:.1f} |"
        )
    return lines


def row_of(rows: Sequence[LatencyRow], system: str, latency_ms: float) -> LatencyRow:
    """The row of ``system`` at ``latency_ms`` (KeyError when not measured)."""
    for r in rows:
        if r.system == system and r.latency_ms == latency_ms:
            return r
    raise KeyError(f"{system} was not measured at {latency_ms:g} ms")


def rps_of(rows: Sequence[LatencyRow], system: str, latency_ms: float) -> float:
    """Requests per second of ``system`` at ``latency_ms`` (KeyError when not measured)."""
    return row_of(rows, system, latency_ms).rps


__all__ = [
    "LatencyRow",
    "SleepingPolicy",
    "SystemFactory",
    "agent_system",
    "latency_rows",
    "markdown",
    "measure",
    "router_system",
    "row_of",
    "rps_of",
]
