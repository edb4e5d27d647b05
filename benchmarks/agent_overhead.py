"""Per-step cost of this agent graph against `langchain.agents.create_agent` and a plain loop.

Every engine gets the same scripted model (N calls to a trivial tool, then a plain answer) and
the same tool; we measure CPU time per model call (process time, median over repeats), without a
checkpointer and with SQLite. Usage: python benchmarks/agent_overhead.py [--steps 10] [--runs 30]
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.sqlite import SqliteSaver

from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.models.scripted import ScriptedModel

RESULTS = Path(__file__).parent / "results" / "agent_overhead.md"


@tool
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


def script(steps: int) -> ScriptedModel:
    """`steps` calls to echo, then a plain answer: steps + 1 model calls."""
    turns: list[dict[str, Any]] = [
        {"thought": f"step {i}", "tool": "echo", "args": {"text": f"t{i}"}} for i in range(steps)
    ]
    return ScriptedModel(turns=[*turns, {"content": "done"}])


def ours(model: ScriptedModel, saver: Any, steps: int) -> Callable[[int], None]:
    """A run of this project's graph."""
    graph = build_agent(model=model, tools=[echo], checkpointer=saver)
    context = Context(max_steps=steps + 1)

    def run(i: int) -> None:
        config = run_config(steps + 1, f"ours-{i}" if saver else None)
        out = graph.invoke({"question": "go"}, config, context=context)
        assert out["stopped"] == "answer", out

    return run


def create_agent_run(model: ScriptedModel, saver: Any, steps: int) -> Callable[[int], None]:
    """A run of langchain's prebuilt `create_agent`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from langchain.agents import create_agent
    graph = create_agent(model, tools=[echo], checkpointer=saver)

    def run(i: int) -> None:
        config: dict[str, Any] = {"recursion_limit": 2 * steps + 5}
        if saver:
            config["configurable"] = {"thread_id": f"ca-{i}"}
        out = graph.invoke({"messages": [HumanMessage("go")]}, config)
        assert out["messages"][-1].content == "done"

    return run


def plain_loop(model: ScriptedModel, saver: Any, steps: int) -> Callable[[int], None]:
    """The same calls in a hand-written Python loop (no graph, no persistence)."""

    def run(i: int) -> None:
        messages: list[Any] = [HumanMessage("go")]
        for _ in range(steps + 2):
            reply = model.invoke(messages)
            messages.append(reply)
            if not reply.tool_calls:
                return
            for call in reply.tool_calls:
                messages.append(ToolMessage(echo.invoke(call["args"]), tool_call_id=call["id"]))

    return run


def measure(run: Callable[[int], None], runs: int, calls: int) -> float:
    """Median CPU milliseconds per model call over `runs` runs (after two warm-ups)."""
    run(-1)
    run(-2)
    per_step = []
    for i in range(runs):
        start = time.process_time()
        run(i)
        per_step.append((time.process_time() - start) * 1000 / calls)
    return statistics.median(per_step)


def main() -> None:
    """Measure every engine in both settings and print one table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=10, help="tool rounds per run")
    parser.add_argument("--runs", type=int, default=30, help="measured runs per engine")
    args = parser.parse_args()
    calls = args.steps + 1
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for setting in ("none", "sqlite"):
            results = {}
            for name, factory in (
                ("this graph", ours),
                ("create_agent", create_agent_run),
                ("plain loop", plain_loop),
            ):
                if setting == "sqlite" and name == "plain loop":
                    continue
                saver = None
                if setting == "sqlite":
                    conn = sqlite3.connect(Path(tmp) / f"{name}.sqlite", check_same_thread=False)
                    saver = SqliteSaver(conn)
                results[name] = measure(
                    factory(script(args.steps), saver, args.steps), args.runs, calls
                )
            for name, ms in results.items():
                ratio = ms / results["create_agent"]
                rows.append(f"| {name} | {setting} | {ms:.2f} | {ratio:.2f}x |")
    table = "\n".join(
        [
            f"Per-step CPU cost, {args.steps} tool rounds + 1 answer per run, "
            f"median of {args.runs} runs:",
            "",
            "| engine | checkpointer | CPU ms per model call | vs create_agent |",
            "|---|---|---|---|",
            *rows,
        ]
    )
    print(table)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(table + "\n")


if __name__ == "__main__":
    main()
