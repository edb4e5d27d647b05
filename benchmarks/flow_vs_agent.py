"""Flow vs agent vs router on the field-service request set: the measured trade-off of seed 002.

Two measurements in one run, every system on its own checkpointer of one kind (memory by
default, or SQLite files), driven the same way (`graph.flow.compare`):

1. Requests of the flow's shape (they name a model variant): flow, agent and router, with the
   flow/agent requests-per-second ratio against the goal (flow >= 5x the agent with the offline
   policy), and the per-call model latency at which the agent would fall to 1/5 of the flow.
   The flow runs its six stages in one node (one superstep and one checkpoint per request) and
   calls the domain functions directly. An extra row, "flow (tool calls)", runs the same flow
   handed the LangChain tools instead (`FlowTools` accepts both): what the tool-call protocol
   would cost it. Another, "flow (async checkpoints)", runs it with LangGraph's default
   durability, a checkpoint after every superstep, instead of the flow's one checkpoint per
   invocation: what that choice buys. The ratio uses the flow as served (`run_flow`, `agent flow`).
   A last line measures LangGraph's floor: a one-node graph that does nothing, invoked the same
   way on the same kind of checkpointer, so the flow's cost splits into that floor and its work.
2. The whole set: flow, agent and router, where the router must answer at least as many
   requests correctly as either alone; agreement per kind of request.

Writes benchmarks/results/flow_vs_agent.md.
Usage: python benchmarks/flow_vs_agent.py [--rounds 5] [--checkpointer memory|sqlite] [--model M]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, TypedDict

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from rich.console import Console

from graph.flow.compare import (
    Comparison,
    Runner,
    agreement_by_kind,
    checkpointers,
    compare,
    flow_runner,
    load_requests,
    markdown_table,
    rich_table,
)
from graph.flow.run import DURABILITY, flow_config
from tools import field_service as fs

RESULTS = Path(__file__).parent / "results" / "flow_vs_agent.md"
GOAL = 5.0
SLOW_CALL_MS = 500.0
"""A hosted chat model's latency per call, for the what-if line."""
TOOLS = "flow (tool calls)"
ASYNC = "flow (async checkpoints)"


def tool_flow(saver: BaseCheckpointSaver) -> Runner:
    """The flow handed the LangChain tools instead of the domain functions they wrap."""
    tools = {
        "search_tickets": fs.search_tickets,
        "check_availability": fs.check_availability,
        "search_manual": fs.search_manual,
    }
    return flow_runner(saver, tools)


def async_flow(saver: BaseCheckpointSaver) -> Runner:
    """The flow checkpointing after every superstep (LangGraph's default durability)."""
    return flow_runner(saver, durability="async")


class Empty(TypedDict, total=False):
    """The state of the do-nothing graph: a request and one value written."""

    request: str
    done: bool


def do_nothing(state: Empty) -> dict[str, Any]:
    """A node that does no work."""
    return {"done": True}


def floor_ms(kind: str, invocations: int = 300) -> float:
    """CPU ms of one invoke of a one-node graph that does nothing, invoked as the flow is."""
    builder = StateGraph(Empty)
    builder.add_node(do_nothing)
    builder.add_edge(START, "do_nothing")
    builder.add_edge("do_nothing", END)
    with checkpointers(kind, ["floor"]) as savers:  # type: ignore[arg-type]
        graph = builder.compile(checkpointer=savers["floor"])
        graph.invoke({"request": "warm-up"}, flow_config("warm-up"), durability=DURABILITY)
        best = float("inf")
        for round_no in range(3):
            start = time.process_time()
            for n in range(invocations):
                config = flow_config(f"floor-{round_no}-{n}")
                graph.invoke({"request": "x"}, config, durability=DURABILITY)
            best = min(best, time.process_time() - start)
    return best * 1000 / invocations


def speed_lines(shaped: Comparison, floor: float) -> list[str]:
    """The ratio against the goal, the break-even model latency, and where the time goes."""
    flow, agent = shaped.summary("flow"), shaped.summary("agent")
    tools, every_step = shaped.summary(TOOLS), shaped.summary(ASYNC)
    ratio = flow.rps / agent.rps
    verdict = "met" if ratio >= GOAL else "NOT met"
    t_flow, t_agent = 1000 / flow.rps, 1000 / agent.rps
    calls = agent.mean_steps
    break_even = (GOAL * t_flow - t_agent) / calls if calls else float("nan")
    slow_model = (t_agent + calls * SLOW_CALL_MS) / t_flow
    per_call = agent.cpu_ms / agent.mean_steps if agent.mean_steps else float("nan")
    return [
        f"flow / agent requests per second: {flow.rps:.1f} / {agent.rps:.1f} = {ratio:.2f}x "
        f"(goal >= {GOAL:.0f}x with the offline policy: {verdict})",
        f"flow (tool calls) / agent: {tools.rps / agent.rps:.2f}x; flow (async checkpoints) / "
        f"agent: {every_step.rps / agent.rps:.2f}x",
        f"CPU per request (insensitive to other load): flow {flow.cpu_ms:.1f} ms, flow (tool "
        f"calls) {tools.cpu_ms:.1f} ms, flow (async checkpoints) {every_step.cpu_ms:.1f} ms, "
        f"agent {agent.cpu_ms:.1f} ms: the agent costs {agent.cpu_ms / flow.cpu_ms:.2f}x the flow",
        f"where the time goes: LangGraph's floor (one do-nothing node, one checkpoint, durability "
        f"{DURABILITY!r}) is {floor:.1f} ms CPU per invoke; the flow adds "
        f"{max(0.0, flow.cpu_ms - floor):.1f} ms for its {flow.mean_steps:.2f} stage runs and, "
        f"for the {flow.escalated / flow.requests:.0%} of requests that escalate, a second "
        "superstep (the interrupt); the agent pays "
        f"{per_call:.1f} ms CPU per model call with its tool round",
        (
            f"the agent makes {calls:.2f} model calls per request; it falls to 1/{GOAL:.0f} of "
            f"the flow's rate once each call takes {break_even:.1f} ms more than the offline "
            "policy's"
            if break_even > 0
            else f"the agent makes {calls:.2f} model calls per request and is below 1/{GOAL:.0f} "
            "of the flow's rate already with the offline policy; a real model only widens the "
            f"gap: at {SLOW_CALL_MS:.0f} ms a call the flow serves {slow_model:.0f}x the agent's "
            "requests per second"
        ),
    ]


def main() -> None:
    """Run both measurements, print the tables, write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (best one counts)")
    parser.add_argument("--checkpointer", choices=["memory", "sqlite"], default="memory")
    parser.add_argument("--model", default="policy", help="the agent's model")
    args = parser.parse_args()
    console = Console(width=130)
    requests = load_requests()
    shaped_requests = [r for r in requests if r.flow_shaped]

    shaped = compare(
        shaped_requests,
        systems=("flow", TOOLS, ASYNC, "agent", "router"),
        model=args.model,
        checkpointer=args.checkpointer,
        rounds=args.rounds,
        extra={TOOLS: tool_flow, ASYNC: async_flow},
    )
    whole = compare(requests, model=args.model, checkpointer=args.checkpointer, rounds=args.rounds)
    console.print(
        rich_table(shaped, title=f"requests of the flow's shape ({len(shaped_requests)})")
    )
    lines = speed_lines(shaped, floor_ms(args.checkpointer))
    for line in lines:
        console.print(line)
    console.print(rich_table(whole, title=f"the whole request set ({len(requests)})"))
    correct = {name: whole.summary(name).agree for name in ("flow", "agent", "router")}
    router_ok = correct["router"] >= max(correct["flow"], correct["agent"])
    verdict = (
        f"router answers {correct['router']} correctly, flow {correct['flow']}, agent "
        f"{correct['agent']}: the router is {'at least as good as' if router_ok else 'WORSE than'} "
        "either alone"
    )
    console.print(verdict)

    kinds = agreement_by_kind(whole)
    kind_rows = ["| kind | flow | agent | router |", "|---|---:|---:|---:|"]
    for kind, row in kinds.items():
        cells = [f"{row[name][0]}/{row[name][1]}" for name in ("flow", "agent", "router")]
        kind_rows.append(f"| {kind} | " + " | ".join(cells) + " |")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    text = "\n".join(
        [
            "# Flow vs agent vs router (seed 002)",
            "",
            f"`python benchmarks/flow_vs_agent.py --rounds {args.rounds} --checkpointer "
            f"{args.checkpointer} --model {args.model}`; Python {platform.python_version()}, "
            f"{os.cpu_count()} CPUs, load average {load:.1f} at the end of the run. Each system "
            "runs every request on a new thread of its own checkpointer; req/s from the fastest "
            "round, latencies from all rounds.",
            "",
            "The flow is two graph nodes: `run_stages` runs the six stages in a loop over the "
            "transition table (one superstep per request), `escalate` pauses for a human; it "
            "calls the domain functions directly and checkpoints once per invocation "
            f"(durability {DURABILITY!r}, `graph/flow/run.py`). The agent is unchanged.",
            "",
            f"## Requests of the flow's shape ({len(shaped_requests)}: they name a model variant)",
            "",
            markdown_table(shaped),
            "",
            *[f"- {line}" for line in lines],
            "",
            f"## The whole request set ({len(requests)})",
            "",
            markdown_table(whole),
            "",
            f"- {verdict}",
            "",
            "Answers that agree with the expected ones, by kind of request:",
            "",
            *kind_rows,
            "",
        ]
    )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(text, encoding="utf-8")
    console.print(f"wrote {RESULTS}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
