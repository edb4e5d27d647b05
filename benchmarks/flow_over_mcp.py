"""The field-service flow with its tools in-process, over MCP stdio and over MCP streamable HTTP.

One run, the same requests (those of the flow's shape in the request set), each transport in
turn per round so a busy machine slows them alike:

- `in-process`: the flow calls the domain functions directly (as `agent flow` does);
- `MCP stdio`: the three tools on `agent mcp serve`, started by the client over stdio;
- `MCP HTTP`: the same server over streamable HTTP on a free 127.0.0.1 port.

Per transport: requests per second (fastest round, sequential), p50/p95 latency per request,
CPU ms per request of this process (the client) and of the server process, and the latency of
each tool call with p50/p95 added per call against the in-process call.

Writes benchmarks/results/flow_over_mcp.md.
Usage: python benchmarks/flow_over_mcp.py [--rounds 3] [--limit N]
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from langgraph.checkpoint.memory import InMemorySaver

from evals.flow_compare.request_set import load_requests
from evals.flow_compare.systems import Runner, flow_runner
from graph.flow.tools import FlowTools
from graph.mcp_io.client import MCPClients
from graph.mcp_io.flow import remote_flow_tools

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).parent / "results" / "flow_over_mcp.md"
SERVE = [sys.executable, "-m", "graph", "mcp", "serve"]
THREADS = itertools.count()


@dataclass
class Timed:
    """A tool wrapped to record how long each call takes."""

    tool: Callable[..., dict[str, Any]]
    calls: list[float] = field(default_factory=list)

    def __call__(self, **arguments: Any) -> dict[str, Any]:
        start = time.perf_counter()
        try:
            return self.tool(**arguments)
        finally:
            self.calls.append((time.perf_counter() - start) * 1000)


@dataclass
class Row:
    """One transport's measurements."""

    name: str
    rps: float = 0.0
    latencies: list[float] = field(default_factory=list)
    client_cpu: float = float("inf")
    server_cpu: float | None = None
    tool_calls: list[float] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) of values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def http_server() -> Iterator[tuple[str, psutil.Process]]:
    """`agent mcp serve --transport http` on a free port; yields its URL and process."""
    port = free_port()
    process = subprocess.Popen(
        [*SERVE, "--transport", "http", "--port", str(port)], cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp", psutil.Process(process.pid)
    finally:
        process.terminate()
        process.wait(timeout=20)


def server_cpu(process: psutil.Process | None) -> float:
    """CPU seconds used so far by the server process (0 when there is none)."""
    if process is None:
        return 0.0
    times = process.cpu_times()
    return times.user + times.system


def stdio_child(before: set[int]) -> psutil.Process | None:
    """The server process the stdio client started (a new child of this process)."""
    children = [p for p in psutil.Process().children(recursive=True) if p.pid not in before]
    return children[0] if children else None


def one_round(row: Row, requests: list[str], run: Runner, server: psutil.Process | None) -> None:
    """Run every request once on a new thread; keep the best rate and CPU, all latencies."""
    outcomes = []
    cpu0, server0, wall0 = time.process_time(), server_cpu(server), time.perf_counter()
    for request in requests:
        start = time.perf_counter()
        result = run(request, f"t-{next(THREADS)}")
        row.latencies.append((time.perf_counter() - start) * 1000)
        outcomes.append(str(result["outcome"]))
    wall = time.perf_counter() - wall0
    cpu = (time.process_time() - cpu0) * 1000 / len(requests)
    row.rps = max(row.rps, len(requests) / wall)
    row.client_cpu = min(row.client_cpu, cpu)
    if server is not None:
        used = (server_cpu(server) - server0) * 1000 / len(requests)
        row.server_cpu = used if row.server_cpu is None else min(row.server_cpu, used)
    row.outcomes = outcomes


def timed_tools(tools: Any) -> tuple[dict[str, Timed], Runner]:
    """Wrap each of the flow's tools so its calls are timed; the flow compiled once over them."""
    resolved = FlowTools.resolve(tools)
    wrapped = {
        "search_tickets": Timed(resolved.search_tickets),  # type: ignore[arg-type]
        "check_availability": Timed(resolved.check_availability),  # type: ignore[arg-type]
        "search_manual": Timed(resolved.search_manual),  # type: ignore[arg-type]
    }
    return wrapped, flow_runner(InMemorySaver(), FlowTools.resolve(wrapped))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    requests = [r.request for r in load_requests() if r.flow_shaped][: args.limit]
    rows = [Row("in-process"), Row("MCP stdio"), Row("MCP HTTP")]
    console_err = sys.stderr
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    with http_server() as (url, http_process), MCPClients() as clients:
        stdio_tools = remote_flow_tools("stdio:" + shlex.join(SERVE), clients)
        stdio_process = stdio_child(before | {http_process.pid})
        http_tools = remote_flow_tools(url, clients)
        setups: list[tuple[Row, Any, psutil.Process | None]] = []
        for row, tools, process in (
            (rows[0], None, None),
            (rows[1], stdio_tools, stdio_process),
            (rows[2], http_tools, http_process),
        ):
            wrapped, flow_tools = timed_tools(tools)
            one_round(Row("warm-up"), requests[:3], flow_tools, process)  # load data, indexes
            for timed in wrapped.values():
                timed.calls.clear()
            setups.append((row, (wrapped, flow_tools), process))
        for number in range(args.rounds):
            print(f"round {number + 1}/{args.rounds}", file=console_err)
            for row, (_, flow_tools), process in setups:
                one_round(row, requests, flow_tools, process)
        for row, (wrapped, _), _ in setups:
            row.tool_calls = [ms for timed in wrapped.values() for ms in timed.calls]
    write(rows, requests, args.rounds)


def write(rows: list[Row], requests: list[str], rounds: int) -> None:
    """Print the table and save it with its setup."""
    base = rows[0]
    assert all(row.outcomes == base.outcomes for row in rows), "transports disagree on outcomes"
    lines = [
        "| tools | req/s | vs in-process | p50 ms/req | p95 ms/req | client CPU ms/req "
        "| server CPU ms/req | tool calls | p50 ms/call | p95 ms/call | added p50 | added p95 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    b50, b95 = pct(base.tool_calls, 50), pct(base.tool_calls, 95)
    for row in rows:
        c50, c95 = pct(row.tool_calls, 50), pct(row.tool_calls, 95)
        server = "-" if row.server_cpu is None else f"{row.server_cpu:.1f}"
        added = ("-", "-") if row is base else (f"+{c50 - b50:.2f}", f"+{c95 - b95:.2f}")
        lines.append(
            f"| {row.name} | {row.rps:.1f} | {row.rps / base.rps:.2f}x | "
            f"{pct(row.latencies, 50):.1f} | {pct(row.latencies, 95):.1f} | {row.client_cpu:.1f} "
            f"| {server} | {len(row.tool_calls)} | {c50:.2f} | {c95:.2f} "
            f"| {added[0]} | {added[1]} |"
        )
    load = os.getloadavg()[0]
    header = (
        f"`python benchmarks/flow_over_mcp.py --rounds {rounds}`; Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, load average {load:.1f} at the end. "
        f"{len(requests)} requests of the flow's shape (the same outcomes on every transport: "
        f"{sorted(set(base.outcomes))}); in-memory checkpointer; req/s from the fastest round, "
        "latencies from every round; the flow compiled once per transport (as `flow_runner` in "
        "`evals/flow_compare/systems.py`); CPU ms/req from the round that used least (client: this "
        "process, its MCP event-loop thread included; server: the `agent mcp serve` process). "
        "'added' is the transport's per-call latency percentile minus the in-process one."
    )
    text = "\n".join(["# The flow's tools in-process vs over MCP", "", header, "", *lines, ""])
    RESULTS.write_text(text, encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
