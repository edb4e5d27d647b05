"""Flow vs agent vs router on the field-service request set: the measured trade-off of seed 002.

Three measurements in one run:

1. Requests of the flow's shape (they name a model variant), every system on its own
   checkpointer of one kind (memory by default, or SQLite files), driven the same way
   (``evals.flow_compare``): outcomes, agreement, requests per second and CPU ms per request
   with the offline policy. The flow runs one graph node per stage; "flow" checkpoints once
   per invocation (``FAST_DURABILITY``, what a caller that wants speed runs), "flow (sync
   checkpoints)" after every stage (``DURABILITY``, what ``run_flow`` and ``agent flow`` run,
   so a killed process resumes at its stage), and "flow (one node)" is its predecessor, all six
   stages in one node (``one_node_flow.py``, kept for this benchmark only), run like "flow".
   Goal: the stage-per-node flow within 2x the CPU per request of the one-node flow, measured
   with the three flows interleaved request by request (``interleaved_cpu``).
2. The same requests when every model call costs a fixed simulated latency (0, 50 and 500 ms:
   the offline policy behind a sleep, ``model_latency.py``): model calls per request, CPU ms
   per request and requests per second per system. Goal: at 500 ms per model call the flow
   serves at least 50x the agent's requests per second. Fewer requests at 500 ms
   (``--slow-requests``) keep the run to a few minutes.
3. The whole set: flow, agent and router, where the router must answer at least as many
   requests correctly as either alone; agreement per kind of request.

Writes benchmarks/results/flow_vs_agent.md.
Usage: python benchmarks/flow_vs_agent.py [--rounds 5] [--checkpointer memory|sqlite]
       [--model M] [--slow-requests 12]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver
from model_latency import (
    LatencyRow,
    SystemFactory,
    agent_system,
    latency_rows,
    markdown,
    router_system,
    row_of,
    rps_of,
)
from one_node_flow import build_one_node_flow
from rich.console import Console

from evals.flow_compare.compare import compare
from evals.flow_compare.request_set import Request, load_requests
from evals.flow_compare.results import Comparison, agreement_by_kind
from evals.flow_compare.systems import Runner, checkpointers, flow_record, flow_runner
from evals.flow_compare.tables import markdown_table, rich_table
from graph.app.flow_runs import DURABILITY, FAST_DURABILITY, flow_config

RESULTS = Path(__file__).parent / "results" / "flow_vs_agent.md"
SYNC = "flow (sync checkpoints)"
ONE_NODE = "flow (one node)"
CPU_GOAL = 2.0
"""The stage-per-node flow may cost at most this many times the one-node flow's CPU."""
RPS_GOAL = 50.0
"""At ``SLOW_MS`` per model call the flow must serve this many times the agent's req/s."""
LATENCIES_MS = (0.0, 50.0, 500.0)
SLOW_MS = 500.0


# -- the systems beyond compare's three ----------------------------------------------------


def sync_flow(saver: BaseCheckpointSaver) -> Runner:
    """The flow with a checkpoint after every stage (as ``run_flow`` runs it)."""
    return flow_runner(saver, durability=DURABILITY)


def one_node_flow(saver: BaseCheckpointSaver) -> Runner:
    """The flow before its stages were nodes: one ``run_stages`` node, one checkpoint per run."""
    graph = build_one_node_flow(saver)

    def run(request: str, thread_id: str) -> dict:
        values = graph.invoke({"request": request}, flow_config(thread_id), durability="exit")
        return flow_record(values)

    return run


LATENCY_SYSTEMS: dict[str, SystemFactory] = {
    "flow": lambda saver, model: flow_runner(saver),
    ONE_NODE: lambda saver, model: one_node_flow(saver),
    "agent": agent_system,
    "router": router_system,
}
"""The systems of the latency table (the flows take no model: they make no model calls)."""


# -- the goals -------------------------------------------------------------------------------


def interleaved_cpu(requests: list[Request], kind: str, rounds: int) -> dict[str, float]:
    """CPU ms per request of the three flows, interleaved request by request.

    Each request runs through "flow", "flow (sync checkpoints)" and "flow (one node)" in turn,
    so a load that comes and goes on a shared machine weighs on all three alike; the best of
    ``rounds`` rounds counts.
    """
    factories = {"flow": flow_runner, SYNC: sync_flow, ONE_NODE: one_node_flow}
    best = dict.fromkeys(factories, float("inf"))
    with checkpointers(kind, list(factories)) as savers:  # type: ignore[arg-type]
        runners = {name: make(savers[name]) for name, make in factories.items()}
        for name, run in runners.items():
            run(requests[0].request, f"{name}-warm-up")
        for round_no in range(rounds):
            spent = dict.fromkeys(factories, 0.0)
            for n, request in enumerate(requests):
                for name, run in runners.items():
                    start = time.process_time()
                    run(request.request, f"cpu-{round_no}-{n}")
                    spent[name] += time.process_time() - start
            best = {name: min(best[name], spent[name]) for name in best}
    return {name: seconds * 1000 / len(requests) for name, seconds in best.items()}


def cpu_lines(cpu: dict[str, float], rounds: int) -> list[str]:
    """The CPU goal: the stage-per-node flow against the one-node flow, in the same run."""
    flow, one, sync = cpu["flow"], cpu[ONE_NODE], cpu[SYNC]
    ratio = flow / one
    verdict = "met" if ratio <= CPU_GOAL else "NOT met"
    return [
        f"CPU per request, the flows interleaved request by request (best of {rounds} rounds): "
        f"flow (a node per stage) {flow:.2f} ms, flow (one node) {one:.2f} ms = {ratio:.2f}x "
        f"(goal <= {CPU_GOAL:.0f}x: {verdict}); both checkpoint once per invocation "
        f"({FAST_DURABILITY!r})",
        f"a checkpoint after every stage ({DURABILITY!r}, the default of `agent flow`) costs "
        f"{sync:.2f} ms CPU per request, {sync / flow:.2f}x the flow with one checkpoint per "
        "invocation: the price of resuming a killed request at its stage",
    ]


def latency_lines(rows: list[LatencyRow]) -> list[str]:
    """The requests-per-second goal at ``SLOW_MS``, and the ratio at every latency.

    Wall-clock rates on a busy machine mostly measure the machine, so the goal line also gives
    the ratio from load-proof figures: each system's time per request as its model calls times
    the latency plus its CPU time (what one idle core would take, one request at a time).
    """
    lines = []
    for latency in LATENCIES_MS:
        ratio = rps_of(rows, "flow", latency) / rps_of(rows, "agent", latency)
        head = f"flow / agent requests per second at {latency:g} ms a call: {ratio:.1f}x measured"
        if latency != SLOW_MS:
            lines.append(head)
            continue
        flow, agent = row_of(rows, "flow", latency), row_of(rows, "agent", latency)
        flow_ms = flow.model_calls * latency + flow.cpu_ms
        agent_ms = agent.model_calls * latency + agent.cpu_ms
        idle = agent_ms / flow_ms
        lines.append(
            f"{head} (goal >= {RPS_GOAL:.0f}x: {'met' if ratio >= RPS_GOAL else 'NOT met'} on "
            f"this machine); from model calls and CPU time, {agent_ms:.0f} ms per request for the "
            f"agent against {flow_ms:.1f} ms for the flow: {idle:.0f}x on an idle core (goal "
            f"{'met' if idle >= RPS_GOAL else 'NOT met'})"
        )
    return lines


def router_verdict(whole: Comparison) -> str:
    """Whether the router answers at least as many requests correctly as either alone."""
    correct = {name: whole.summary(name).agree for name in ("flow", "agent", "router")}
    router_ok = correct["router"] >= max(correct["flow"], correct["agent"])
    return (
        f"router answers {correct['router']} correctly, flow {correct['flow']}, agent "
        f"{correct['agent']}: the router is {'at least as good as' if router_ok else 'WORSE than'} "
        "either alone"
    )


def kind_rows(whole: Comparison) -> list[str]:
    """Agreement per kind of request, as a markdown table."""
    rows = ["| kind | flow | agent | router |", "|---|---:|---:|---:|"]
    for kind, row in agreement_by_kind(whole).items():
        cells = [f"{row[name][0]}/{row[name][1]}" for name in ("flow", "agent", "router")]
        rows.append(f"| {kind} | " + " | ".join(cells) + " |")
    return rows


# -- the run ---------------------------------------------------------------------------------


def report(
    args: argparse.Namespace,
    shaped: Comparison,
    cpu: dict[str, float],
    latency: list[LatencyRow],
    whole: Comparison,
    shaped_requests: list[Request],
    requests: list[Request],
) -> str:
    """The results file."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return "\n".join(
        [
            "# Flow vs agent vs router (seed 002)",
            "",
            f"`python benchmarks/flow_vs_agent.py --rounds {args.rounds} --checkpointer "
            f"{args.checkpointer} --model {args.model} --slow-requests {args.slow_requests} "
            f"--latency-rounds {args.latency_rounds}`; "
            f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
            f"{load:.1f} at the end of the run. Each system runs every request on a new thread "
            "of its own checkpointer; req/s from the fastest round, latencies from all rounds, "
            "CPU from the round that used the least.",
            "",
            "The flow is one graph node per stage (parse, history, diagnose, part, stock, "
            "compose) plus `escalate`, its edges generated from the transition table; "
            f"'flow' checkpoints once per invocation ({FAST_DURABILITY!r}), '{SYNC}' after "
            f"every stage ({DURABILITY!r}, what `agent flow` runs), '{ONE_NODE}' is the earlier "
            "flow with all stages in one node (`benchmarks/one_node_flow.py`).",
            "",
            f"## Requests of the flow's shape ({len(shaped_requests)}: they name a model variant)",
            "",
            markdown_table(shaped),
            "",
            *[f"- {line}" for line in cpu_lines(cpu, args.rounds)],
            "",
            "## With a model that takes time",
            "",
            "Every model call waits a fixed time before the offline policy answers; one request "
            f"at a time; {args.slow_requests} requests at {SLOW_MS:g} ms, all "
            f"{len(shaped_requests)} otherwise; req/s and CPU from the best of "
            f"{args.latency_rounds} rounds.",
            "",
            *markdown(latency),
            "",
            *[f"- {line}" for line in latency_lines(latency)],
            "",
            f"## The whole request set ({len(requests)})",
            "",
            markdown_table(whole),
            "",
            f"- {router_verdict(whole)}",
            "",
            "Answers that agree with the expected ones, by kind of request:",
            "",
            *kind_rows(whole),
            "",
        ]
    )


def main() -> None:
    """Run the three measurements, print the tables, write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (best one counts)")
    parser.add_argument("--checkpointer", choices=["memory", "sqlite"], default="memory")
    parser.add_argument("--model", default="policy", help="the agent's model in tables 1 and 3")
    parser.add_argument(
        "--slow-requests", type=int, default=12, help=f"requests run at {SLOW_MS:g} ms a call"
    )
    parser.add_argument(
        "--latency-rounds", type=int, default=3, help="rounds per row of the latency table"
    )
    args = parser.parse_args()
    console = Console(width=130)
    requests = load_requests()
    shaped_requests = [r for r in requests if r.flow_shaped]

    shaped = compare(
        shaped_requests,
        systems=("flow", SYNC, ONE_NODE, "agent", "router"),
        model=args.model,
        checkpointer=args.checkpointer,
        rounds=args.rounds,
        extra={SYNC: sync_flow, ONE_NODE: one_node_flow},
    )
    title = f"requests of the flow's shape ({len(shaped_requests)})"
    console.print(rich_table(shaped, title=title))
    cpu = interleaved_cpu(shaped_requests, args.checkpointer, args.rounds)
    for line in cpu_lines(cpu, args.rounds):
        console.print(line)
    latency = latency_rows(
        LATENCY_SYSTEMS,
        shaped_requests,
        LATENCIES_MS,
        limit_at={SLOW_MS: args.slow_requests},
        kind=args.checkpointer,
        rounds=args.latency_rounds,
        on_row=lambda row: console.print(
            f"  {row.system} at {row.latency_ms:g} ms: {row.model_calls:.2f} calls/req, "
            f"{row.cpu_ms:.1f} ms CPU/req, {row.rps:.1f} req/s"
        ),
    )
    for line in latency_lines(latency):
        console.print(line)
    whole = compare(requests, model=args.model, checkpointer=args.checkpointer, rounds=args.rounds)
    console.print(rich_table(whole, title=f"the whole request set ({len(requests)})"))
    console.print(router_verdict(whole))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    text = report(args, shaped, cpu, latency, whole, shaped_requests, requests)
    RESULTS.write_text(text, encoding="utf-8")
    console.print(f"wrote {RESULTS}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
