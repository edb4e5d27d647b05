"""Flow vs agent vs router on the field-service request set: the measured trade-off of seed 002.

Two measurements in one run, every system on its own checkpointer of one kind (memory by
default, or SQLite files), driven the same way (`graph.flow.compare`):

1. Requests of the flow's shape (they name a model variant): flow, agent and router, with the
   flow/agent requests-per-second ratio against the goal (flow >= 5x the agent with the offline
   policy), and the per-call model latency at which the agent would fall to 1/5 of the flow.
   An extra row, "flow (direct calls)", runs the same flow handed the domain functions instead of
   their LangChain tool wrappers (`FlowTools` accepts both): what skipping the tool-call
   protocol buys a flow, which a model-driven agent cannot skip. The ratio uses the flow as served.
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
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver
from rich.console import Console

from graph.flow.compare import (
    Comparison,
    Runner,
    agreement_by_kind,
    compare,
    flow_runner,
    load_requests,
    markdown_table,
    rich_table,
)
from tools import field_service as fs

RESULTS = Path(__file__).parent / "results" / "flow_vs_agent.md"
GOAL = 5.0
DIRECT = "flow (direct calls)"


def direct_flow(saver: BaseCheckpointSaver) -> Runner:
    """The flow handed the plain domain functions instead of the LangChain tool wrappers."""
    tools = {
        "search_tickets": fs.find_tickets,
        "check_availability": fs.lookup_availability,
        "search_manual": fs.find_manual_passages,
    }
    return flow_runner(saver, tools)


def speed_lines(shaped: Comparison) -> list[str]:
    """The ratio against the goal, and the break-even model latency."""
    flow, agent = shaped.summary("flow"), shaped.summary("agent")
    direct = shaped.summary(DIRECT)
    ratio = flow.rps / agent.rps
    verdict = "met" if ratio >= GOAL else "NOT met"
    t_flow, t_agent = 1000 / flow.rps, 1000 / agent.rps
    calls = agent.mean_steps
    break_even = max(0.0, (GOAL * t_flow - t_agent) / calls) if calls else float("nan")
    per_stage = flow.cpu_ms / flow.mean_steps if flow.mean_steps else float("nan")
    per_call = agent.cpu_ms / agent.mean_steps if agent.mean_steps else float("nan")
    return [
        f"flow / agent requests per second: {flow.rps:.1f} / {agent.rps:.1f} = {ratio:.2f}x "
        f"(goal >= {GOAL:.0f}x with the offline policy: {verdict})",
        f"flow (direct calls) / agent: {direct.rps / agent.rps:.2f}x",
        f"CPU per request (insensitive to other load): flow {flow.cpu_ms:.1f} ms, flow (direct "
        f"calls) {direct.cpu_ms:.1f} ms, agent {agent.cpu_ms:.1f} ms: the agent costs "
        f"{agent.cpu_ms / flow.cpu_ms:.2f}x the flow",
        f"where the time goes: {per_stage:.1f} ms CPU per flow stage run (a graph node and its "
        f"checkpoint) against {per_call:.1f} ms per agent model call with its tool round; the "
        "offline policy itself is cheap, so both sides pay mostly LangGraph's per-node cost and "
        "the gap is the agent's extra nodes, not a model's latency",
        f"the agent makes {calls:.2f} model calls per request; it falls to 1/{GOAL:.0f} of the "
        f"flow's rate once each call takes {break_even:.1f} ms more than the offline policy's",
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
        systems=("flow", DIRECT, "agent", "router"),
        model=args.model,
        checkpointer=args.checkpointer,
        rounds=args.rounds,
        extra={DIRECT: direct_flow},
    )
    whole = compare(requests, model=args.model, checkpointer=args.checkpointer, rounds=args.rounds)
    console.print(
        rich_table(shaped, title=f"requests of the flow's shape ({len(shaped_requests)})")
    )
    lines = speed_lines(shaped)
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
