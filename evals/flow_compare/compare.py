"""Run the systems on the requests in interleaved rounds and summarise them.

Each system is warmed up on one request first (data, indexes, models loaded), and rounds
interleave the systems, so a busy machine slows them alike; requests per second are taken from
the fastest round, latencies from every round, outcomes from the first. CPU time per request
(this process, all its threads) is reported too: unlike wall time, other processes on a busy
machine do not inflate it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from langchain_core.language_models import BaseChatModel

from evals.flow_compare.agreement import agrees
from evals.flow_compare.request_set import Request
from evals.flow_compare.results import Comparison, Record, summarize
from evals.flow_compare.systems import (
    SYSTEMS,
    CheckpointerKind,
    RunnerFactory,
    builtin_runner,
    checkpointers,
)
from graph.agent.budget import DEFAULT_MAX_STEPS


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
    """Run ``systems`` on ``requests`` and summarise them (see `evals.flow_compare`).

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
            else builtin_runner(name, savers[name], chat_model, max_steps)
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
