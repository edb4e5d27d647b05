"""What a comparison produces: a record per run, one summary row per system, agreement by kind."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evals.flow_compare.request_set import Request


@dataclass(frozen=True)
class Record:
    """One system's run on one request."""

    system: str
    request: Request
    outcome: str | None
    answer: str
    steps: int
    ms: float
    agrees: bool
    detail: Mapping[str, Any] = field(default_factory=dict)
    """The plain result the agreement was judged on (fault code, interrupt, citations ...)."""


@dataclass(frozen=True)
class Summary:
    """One system's row of the table."""

    system: str
    requests: int
    answered: int
    escalated: int
    aborted: int
    agree: int
    mean_steps: float
    rps: float
    """Requests per second, wall clock, in the fastest round (sequential)."""
    p50_ms: float
    p95_ms: float
    cpu_ms: float
    """CPU time of this process per request, in the round that used the least (load-proof)."""


@dataclass
class Comparison:
    """The summaries, every record, and how the run was set up."""

    summaries: list[Summary]
    records: list[Record]
    checkpointer: str
    model: str
    rounds: int

    def summary(self, system: str) -> Summary:
        """The row of one system (KeyError if it was not run)."""
        for row in self.summaries:
            if row.system == system:
                return row
        raise KeyError(system)


def summarize(
    system: str,
    records: Sequence[Record],
    latencies_ms: Sequence[float],
    best_round_s: float,
    best_round_cpu_s: float = 0.0,
) -> Summary:
    """One system's row: counts from its records, speed from its timings."""
    count = len(records)
    return Summary(
        system=system,
        requests=count,
        answered=sum(r.outcome == "answered" for r in records),
        escalated=sum(r.outcome == "escalated" for r in records),
        aborted=sum(r.outcome == "aborted" for r in records),
        agree=sum(r.agrees for r in records),
        mean_steps=sum(r.steps for r in records) / count if count else 0.0,
        rps=count / best_round_s if best_round_s > 0 else math.inf,
        p50_ms=percentile(latencies_ms, 50),
        p95_ms=percentile(latencies_ms, 95),
        cpu_ms=best_round_cpu_s * 1000 / count if count else 0.0,
    )


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile with linear interpolation (0.0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def agreement_by_kind(comparison: Comparison) -> dict[str, dict[str, tuple[int, int]]]:
    """``{kind: {system: (agree, requests)}}`` in the order kinds first appear."""
    table: dict[str, dict[str, tuple[int, int]]] = {}
    for record in comparison.records:
        row = table.setdefault(record.request.kind, {})
        agree, total = row.get(record.system, (0, 0))
        row[record.system] = (agree + record.agrees, total + 1)
    return table
