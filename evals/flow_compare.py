"""Flow, agent and router over the field-service request set: outcomes, agreement, speed.

``compare(requests, ...)`` runs each system on every request, on a new thread of its own
checkpointer (one kind for all: in memory or SQLite files), and returns one ``Summary`` per
system: answered, escalated, aborted, answers that agree with the expected ones, mean steps,
requests per second and p50/p95 latency. ``rich_table`` and ``markdown_table`` print it.

Every system is driven the same way: ``invoke`` of its compiled graph on a new thread, the
result read from what ``invoke`` returns (a paused router thread also reads its subgraph's
state). Each system is warmed up on one request first (data, indexes, models loaded), and
rounds interleave the systems, so a busy machine slows them alike; requests per second are
taken from the fastest round, latencies from every round, outcomes from the first. CPU time per
request (this process, all its threads) is reported too: unlike wall time, other processes on a
busy machine do not inflate it.

- ``flow``: the explicit flow (``graph.flow``), one node per stage, with one checkpoint per
  invocation (``FAST_DURABILITY``; ``run_flow`` writes one per stage); escalations stay paused.
- ``agent``: the ReAct agent with the field-service tools and ``finish``; it never escalates,
  so an agent run is ``answered`` when it stops on an answer citing something it looked up and
  ``aborted`` otherwise (``graph.router.agent_outcome``).
- ``router``: the flow for requests that name a variant, the agent over the built-in corpora
  for the rest.

An answer *agrees* with the request set when the outcome is the expected one and: for an
expected answer, it names the expected fault code and part and no other catalogued fault code
or part (or, for an off-topic question, contains the expected text and cites the expected
documents); for an expected escalation, the flow paused on the expected candidates, or at the
part stage with the expected fault code.
"""

from __future__ import annotations

import json
import math
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.types import Durability

from corpora.field_service import VARIANT_RE, load
from graph.agent.context import DEFAULT_MAX_STEPS

DATASET = Path(__file__).resolve().parent / "datasets" / "field_service_requests.jsonl"
"""The field-service request set with expected outcomes."""
SYSTEMS: tuple[str, ...] = ("flow", "agent", "router")
"""The systems compared, in table order."""
CheckpointerKind = Literal["memory", "sqlite"]


@dataclass(frozen=True)
class Request:
    """One request of the set, with what should come of it."""

    id: str
    request: str
    expected: Mapping[str, Any]
    kind: str
    """clear, vague, no_variant, no_part, no_manual or off_topic."""

    @property
    def flow_shaped(self) -> bool:
        """Whether the request names a model variant (the router sends it to the flow)."""
        return VARIANT_RE.search(self.request) is not None


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


# -- the request set ------------------------------------------------------------------------


def load_requests(path: str | Path = DATASET) -> list[Request]:
    """Read the request set (one JSON object a line: id, request, expected, kind)."""
    requests = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            requests.append(Request(row["id"], row["request"], row["expected"], row["kind"]))
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise ValueError(f"{path}:{number}: not a request row ({error})") from None
    return requests


def spread(requests: Sequence[Request], limit: int | None) -> list[Request]:
    """At most ``limit`` requests, taken in turn from each kind so every kind is represented."""
    if limit is None or limit >= len(requests):
        return list(requests)
    by_kind: dict[str, list[Request]] = {}
    for request in requests:
        by_kind.setdefault(request.kind, []).append(request)
    chosen: list[Request] = []
    queues = [list(reversed(rows)) for rows in by_kind.values()]
    while len(chosen) < limit:
        for queue in queues:
            if queue and len(chosen) < limit:
                chosen.append(queue.pop())
    order = {request.id: index for index, request in enumerate(requests)}
    return sorted(chosen, key=lambda r: order[r.id])


# -- agreement ------------------------------------------------------------------------------


@cache
def _catalogue() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every catalogued fault code and part number (to see which ones an answer names)."""
    data = load()
    return tuple(data.faults), tuple(data.parts)


def named(text: str, names: Sequence[str]) -> set[str]:
    """The names from ``names`` that occur in ``text`` as whole tokens."""
    return {n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)}


def agrees(expected: Mapping[str, Any], result: Mapping[str, Any]) -> bool:
    """Whether a plain result agrees with the expected outcome (see the module docstring)."""
    outcome = result.get("outcome")
    if outcome != expected.get("outcome"):
        return False
    answer = str(result.get("answer") or "")
    if outcome == "answered":
        if "fault_code" in expected:
            codes, parts = _catalogue()
            return named(answer, codes) == {expected["fault_code"]} and named(answer, parts) == {
                expected["part_no"]
            }
        contains = str(expected.get("answer_contains", ""))
        cited = set(result.get("citations") or [])
        return (
            contains.casefold() in answer.casefold() and set(expected.get("doc_ids", [])) <= cited
        )
    if outcome == "escalated":
        payload = result.get("interrupt") or {}
        if "candidates" in expected:
            return set(payload.get("candidates") or []) == set(expected["candidates"])
        if "fault_code" in expected:
            return (
                payload.get("stage") == "part"
                and payload.get("fault_code") == expected["fault_code"]
            )
        return True
    return True


# -- the systems ----------------------------------------------------------------------------

Runner = Callable[[str, str], dict[str, Any]]
"""Run one request on a new thread: ``runner(request, thread_id) -> plain result``."""
RunnerFactory = Callable[[BaseCheckpointSaver], Runner]
"""Build a runner on a checkpointer (for systems beyond the three built in)."""


def flow_runner(
    checkpointer: BaseCheckpointSaver, tools: Any = None, durability: Durability | None = None
) -> Runner:
    """The explicit flow, with its default tools unless ``tools`` overrides them by name.

    ``durability`` defaults to the fast setting (``graph.app.flow_runs.FAST_DURABILITY``: one
    checkpoint per invocation), what a caller that wants speed runs; ``run_flow`` writes one
    per stage (``DURABILITY``).
    """
    from graph.app.flow_runs import FAST_DURABILITY, flow_config
    from graph.flow.graph import build_flow

    graph = build_flow(tools, checkpointer)
    mode = durability or FAST_DURABILITY

    def run(request: str, thread_id: str) -> dict[str, Any]:
        config = flow_config(thread_id)
        return flow_record(graph.invoke({"request": request}, config, durability=mode))

    return run


def flow_record(values: dict[str, Any]) -> dict[str, Any]:
    """What a comparison keeps of one flow invocation's output (``invoke``'s values)."""
    from graph.flow.transitions import ESCALATE_NODE

    interrupts = values.get("__interrupt__") or []
    log = values.get("log") or []
    return {
        "outcome": "escalated" if interrupts else values.get("outcome"),
        "answer": values.get("answer", ""),
        "fault_code": values.get("fault_code"),
        "part_no": values.get("part_no"),
        "interrupt": interrupts[-1].value if interrupts else None,
        "steps": sum(1 for entry in log if entry["stage"] != ESCALATE_NODE),
    }


def agent_runner(
    checkpointer: BaseCheckpointSaver, model: BaseChatModel, max_steps: int = DEFAULT_MAX_STEPS
) -> Runner:
    """The ReAct agent with the field-service tools and ``finish``."""
    from graph.agent.budget import run_config
    from graph.agent.context import Context
    from graph.agent.graph import build_agent
    from graph.router import agent_outcome
    from tools.field_service import field_service_tools
    from tools.finish import finish

    graph = build_agent(
        model=model, tools=[*field_service_tools(), finish], checkpointer=checkpointer
    )
    context = Context(max_steps=max_steps)

    def run(request: str, thread_id: str) -> dict[str, Any]:
        result = graph.invoke(
            {"question": request}, run_config(max_steps, thread_id), context=context
        )
        return {
            "outcome": agent_outcome(result),
            "answer": result.get("answer") or "",
            "citations": list(result.get("citations") or []),
            "unsupported": list(result.get("unsupported") or []),
            "stopped": result.get("stopped"),
            "interrupt": None,
            "steps": int(result.get("steps") or 0),
        }

    return run


def router_runner(
    checkpointer: BaseCheckpointSaver, model: BaseChatModel, max_steps: int = DEFAULT_MAX_STEPS
) -> Runner:
    """The router: the flow for requests naming a variant, the agent over the built-ins else."""
    from graph.agent.context import Context
    from graph.app.router_runs import router_result
    from graph.router import build_router, router_config

    graph = build_router(checkpointer, model=model)
    context = Context(max_steps=max_steps)

    def run(request: str, thread_id: str) -> dict[str, Any]:
        config = router_config(thread_id, max_steps)
        values = graph.invoke({"request": request}, config, context=context)
        if values.get("__interrupt__"):
            return router_result(graph, thread_id)
        return {
            "route": values.get("route"),
            "outcome": values.get("outcome"),
            "answer": values.get("answer") or "",
            "fault_code": values.get("fault_code"),
            "part_no": values.get("part_no"),
            "citations": list(values.get("citations") or []),
            "unsupported": list(values.get("unsupported") or []),
            "interrupt": None,
            "steps": int(values.get("steps") or 0),
        }

    return run


@contextmanager
def checkpointers(kind: CheckpointerKind, names: Sequence[str]) -> Iterator[dict[str, Any]]:
    """One fresh checkpointer per system, all of one kind (SQLite files in a temp dir)."""
    if kind == "memory":
        from langgraph.checkpoint.memory import InMemorySaver

        yield {name: InMemorySaver() for name in names}
        return
    if kind != "sqlite":
        raise ValueError(f"checkpointer must be 'memory' or 'sqlite', got {kind!r}")
    from graph.app.persistence import open_checkpointer

    with tempfile.TemporaryDirectory(prefix="compare-flow-") as tmp, ExitStack() as stack:
        yield {
            name: stack.enter_context(open_checkpointer(str(Path(tmp) / f"{name}.sqlite")))
            for name in names
        }


# -- the comparison -------------------------------------------------------------------------


def compare(
    requests: Sequence[Request],
    *,
    systems: Sequence[str] = SYSTEMS,
    model: str | BaseChatModel | None = None,
    checkpointer: CheckpointerKind = "memory",
    rounds: int = 1,
    max_steps: int = DEFAULT_MAX_STEPS,
    on_record: Callable[[Record], None] | None = None,
    extra: Mapping[str, RunnerFactory] | None = None,
) -> Comparison:
    """Run ``systems`` on ``requests`` and summarise them (see the module docstring).

    ``model`` is the agent's chat model (a spec for ``graph.models.load_model`` or a model);
    ``on_record`` sees every record as it is made (for progress); ``extra`` adds systems by
    name (a factory building a runner on the system's checkpointer).
    """
    from graph.models import default_model_spec, load_model

    if not requests:
        raise ValueError("no requests to compare")
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    extra = dict(extra or {})
    unknown = [name for name in systems if name not in SYSTEMS and name not in extra]
    if unknown:
        known = ", ".join([*SYSTEMS, *extra])
        raise ValueError(f"unknown systems {unknown}; choose from {known}")
    model = model if model is not None else default_model_spec()
    chat_model = load_model(model) if isinstance(model, str) else model
    model_name = model if isinstance(model, str) else type(model).__name__
    records: list[Record] = []
    latencies: dict[str, list[float]] = {name: [] for name in systems}
    round_seconds: dict[str, list[float]] = {name: [] for name in systems}
    round_cpu: dict[str, list[float]] = {name: [] for name in systems}
    first: dict[str, list[Record]] = {name: [] for name in systems}
    with checkpointers(checkpointer, systems) as savers:
        runners = {
            name: extra[name](savers[name])
            if name in extra
            else _runner(name, savers[name], chat_model, max_steps)
            for name in systems
        }
        for name, run in runners.items():
            run(requests[0].request, f"{name}-warmup")
        for round_no in range(rounds):
            for name, run in runners.items():
                spent = 0.0
                cpu_start = time.process_time()
                for request in requests:
                    start = time.perf_counter()
                    result = run(request.request, f"{name}-{round_no}-{request.id}")
                    seconds = time.perf_counter() - start
                    spent += seconds
                    latencies[name].append(seconds * 1000)
                    if round_no == 0:
                        record = Record(
                            system=name,
                            request=request,
                            outcome=result.get("outcome"),
                            answer=str(result.get("answer") or ""),
                            steps=int(result.get("steps") or 0),
                            ms=round(seconds * 1000, 2),
                            agrees=agrees(request.expected, result),
                            detail=result,
                        )
                        first[name].append(record)
                        records.append(record)
                        if on_record is not None:
                            on_record(record)
                round_seconds[name].append(spent)
                round_cpu[name].append(time.process_time() - cpu_start)
    summaries = [
        summarize(
            name, first[name], latencies[name], min(round_seconds[name]), min(round_cpu[name])
        )
        for name in systems
    ]
    return Comparison(summaries, records, checkpointer, model_name, rounds)


def _runner(name: str, saver: BaseCheckpointSaver, model: BaseChatModel, max_steps: int) -> Runner:
    """The runner for a system name."""
    if name == "flow":
        return flow_runner(saver)
    if name == "agent":
        return agent_runner(saver, model, max_steps)
    return router_runner(saver, model, max_steps)


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


# -- rendering ------------------------------------------------------------------------------

COLUMNS = (
    "system",
    "requests",
    "answered",
    "escalated",
    "aborted",
    "agree",
    "mean steps",
    "req/s",
    "p50 ms",
    "p95 ms",
    "CPU ms/req",
)


def rows(comparison: Comparison) -> list[list[str]]:
    """The table's cells, one row per system, formatted."""
    cells = []
    for s in comparison.summaries:
        share = f"{s.agree}/{s.requests} ({s.agree / s.requests:.0%})" if s.requests else "0/0"
        cells.append(
            [
                s.system,
                str(s.requests),
                str(s.answered),
                str(s.escalated),
                str(s.aborted),
                share,
                f"{s.mean_steps:.2f}",
                f"{s.rps:.1f}",
                f"{s.p50_ms:.1f}",
                f"{s.p95_ms:.1f}",
                f"{s.cpu_ms:.1f}",
            ]
        )
    return cells


def caption(comparison: Comparison) -> str:
    """One line saying how the table was measured."""
    rounds = f"best of {comparison.rounds} rounds" if comparison.rounds > 1 else "one round"
    return (
        f"model {comparison.model}; {comparison.checkpointer} checkpointer for every system; "
        f"req/s from {rounds}, sequential"
    )


def rich_table(comparison: Comparison, title: str = "flow vs agent vs router") -> Any:
    """The comparison as a ``rich.table.Table``."""
    from rich.table import Table

    table = Table(title=title, caption=caption(comparison))
    for index, column in enumerate(COLUMNS):
        table.add_column(column, justify="left" if index == 0 else "right")
    for cells in rows(comparison):
        table.add_row(*cells)
    return table


def markdown_table(comparison: Comparison) -> str:
    """The comparison as a Markdown table (with its caption as a last line)."""
    lines = [
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(COLUMNS) - 1)) + "|",
    ]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows(comparison)]
    return "\n".join([*lines, "", f"({caption(comparison)})"])


__all__ = [
    "COLUMNS",
    "DATASET",
    "SYSTEMS",
    "Comparison",
    "Record",
    "Request",
    "Runner",
    "RunnerFactory",
    "Summary",
    "agreement_by_kind",
    "agent_runner",
    "agrees",
    "compare",
    "flow_runner",
    "load_requests",
    "markdown_table",
    "percentile",
    "rich_table",
    "router_runner",
    "spread",
    "summarize",
]
