"""Eval throughput: questions per second on hotpotqa-dev with the policy and SQLite, and where the
CPU goes.

Runs `evals.runner.run_dataset` over hotpotqa-dev (all 500 questions unless --limit) with the
offline policy and a SQLite checkpointer in a temp file, once per concurrency level (1 and 4 by
default), after a short untimed warm-up. CPU time (`time.thread_time`, summed over every thread)
is split exclusively into:

- retrieval: the search tool's run (`SearchTool._run`: query expansion, BM25, hit formatting);
- model: the policy's decisions (`PolicyModel._generate`);
- checkpointer: `put`, `put_writes`, `get_tuple`, `list` of a saver delegating to SqliteSaver;
- setup: building the session (the BM25 index of the 4,858 paragraphs) once per run;
- graph: everything else (LangGraph's loop, channels, ToolNode, Session, the runner).

Usage: python benchmarks/eval_throughput.py [--limit N] [--concurrency 1,4]
Writes benchmarks/results/eval_throughput.md.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import statistics
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
)

import evals.runner
from evals.datasets import load_dataset
from evals.metrics import summarize
from evals.runner import run_dataset
from graph.app.persistence import open_checkpointer
from graph.models.offline.model import PolicyModel
from tools.search import SearchTool

RESULTS = Path(__file__).parent / "results" / "eval_throughput.md"
CATEGORIES = (
    "retrieval",
    "model",
    "checkpointer",
    "setup",
    "graph",
)
GOAL_QPS = 25.0


class Clock:
    """Exclusive CPU and wall time per category, across threads (nested calls subtract)."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.wall: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()
        self._local = threading.local()

    def _stack(self) -> list[list[Any]]:
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    def current(self) -> str | None:
        """The category the calling thread is inside, if any."""
        stack = self._stack()
        return stack[-1][0] if stack else None

    def wrap(
        self, category: str, fn: Callable[..., Any], when: str | None = None
    ) -> Callable[..., Any]:
        """`fn` timed under `category` (only inside category `when`, if given)."""

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            stack = self._stack()
            if when is not None and (not stack or stack[-1][0] != when):
                return fn(*args, **kwargs)
            cpu0, wall0 = time.thread_time(), time.perf_counter()
            stack.append([category, 0.0, 0.0])
            try:
                return fn(*args, **kwargs)
            finally:
                _, child_cpu, child_wall = stack.pop()
                cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
                with self._lock:
                    self.cpu[category] += cpu - child_cpu
                    self.wall[category] += wall - child_wall
                    self.calls[category] += 1
                if stack:
                    stack[-1][1] += cpu
                    stack[-1][2] += wall

        return timed


class TimedSaver(BaseCheckpointSaver):
    """A checkpointer that delegates to another and times its reads and writes."""

    def __init__(self, inner: BaseCheckpointSaver, clock: Clock) -> None:
        super().__init__(serde=inner.serde)
        self.inner = inner
        self.writes = 0
        """Calls that write (and commit): put and put_writes."""
        self._get_tuple = clock.wrap("checkpointer", inner.get_tuple)
        self._list = clock.wrap("checkpointer", lambda *a, **kw: list(inner.list(*a, **kw)))
        self._put = clock.wrap("checkpointer", inner.put)
        self._put_writes = clock.wrap("checkpointer", inner.put_writes)

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return self._get_tuple(config)

    def list(self, config: RunnableConfig | None, **kwargs: Any) -> Iterator[CheckpointTuple]:
        return iter(self._list(config, **kwargs))

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        self.writes += 1
        return self._put(config, checkpoint, metadata, new_versions)

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        self.writes += 1
        self._put_writes(config, writes, task_id, task_path)

    def delete_thread(self, thread_id: str) -> None:
        self.inner.delete_thread(thread_id)

    def get_next_version(self, current: Any, channel: Any) -> Any:
        return self.inner.get_next_version(current, channel)


@contextmanager
def patched(target: Any, name: str, replacement: Any) -> Iterator[None]:
    """Set `target.name` to `replacement` for the duration."""
    original = getattr(target, name)
    setattr(target, name, replacement)
    try:
        yield
    finally:
        setattr(target, name, original)


@contextmanager
def instrumented(clock: Clock) -> Iterator[None]:
    """Wrap the tool, the model and the session setup with `clock`."""
    with ExitStack() as stack:
        stack.enter_context(patched(SearchTool, "_run", clock.wrap("retrieval", SearchTool._run)))
        stack.enter_context(
            patched(PolicyModel, "_generate", clock.wrap("model", PolicyModel._generate))
        )
        stack.enter_context(
            patched(evals.runner, "make_session", clock.wrap("setup", evals.runner.make_session))
        )
        yield


@dataclass
class Measured:
    """One timed run."""

    concurrency: int
    questions: int
    wall_s: float
    cpu_s: float
    shares: dict[str, float]
    checkpointer_wall_s: float
    checkpointer_calls: int
    commits: int
    latency_p50_ms: float
    accuracy: float
    retrieval_recall: float

    @property
    def qps(self) -> float:
        return self.questions / self.wall_s


def measure(concurrency: int, limit: int | None) -> Measured:
    """Run hotpotqa-dev once at `concurrency` and split its CPU time."""
    dataset = load_dataset("hotpotqa-dev")
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp, open_checkpointer(str(Path(tmp) / "c.sqlite")) as db:
        saver = TimedSaver(db, clock)
        with instrumented(Clock()):  # warm-up: imports, model, caches
            run_dataset(dataset, checkpointer=saver, limit=8, concurrency=1, run_id="warm")
        saver.writes = 0
        with instrumented(clock):
            cpu0, wall0 = time.process_time(), time.perf_counter()
            records = run_dataset(
                dataset, checkpointer=saver, limit=limit, concurrency=concurrency, run_id="timed"
            )
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    shares = {c: clock.cpu[c] / cpu for c in CATEGORIES if c != "graph"}
    shares["graph"] = max(0.0, 1.0 - sum(shares.values()))
    summary = summarize(records)
    return Measured(
        concurrency=concurrency,
        questions=len(records),
        wall_s=wall,
        cpu_s=cpu,
        shares=shares,
        checkpointer_wall_s=clock.wall["checkpointer"],
        checkpointer_calls=clock.calls["checkpointer"],
        commits=saver.writes,
        latency_p50_ms=statistics.median(r["latency_s"] for r in records) * 1000,
        accuracy=float(summary["accuracy"] or 0.0),
        retrieval_recall=float(summary["retrieval_recall"] or 0.0),
    )


def throughput_table(rows: Sequence[Measured]) -> list[str]:
    """Questions per second and where the wall time went."""
    lines = [
        "| concurrency | questions | wall s | questions/s | p50 latency | CPU s "
        "| CPU s / wall s | time inside checkpointer calls (wall s, all threads) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for m in rows:
        lines.append(
            f"| {m.concurrency} | {m.questions} | {m.wall_s:.1f} "
            f"| **{m.qps:.1f}** | {m.latency_p50_ms:.0f} ms | {m.cpu_s:.1f} "
            f"| {m.cpu_s / m.wall_s:.2f} | {m.checkpointer_wall_s:.1f} "
            f"({m.checkpointer_calls} calls) |"
        )
    return lines


def share_table(rows: Sequence[Measured]) -> list[str]:
    """Exclusive CPU shares per category."""
    lines = [
        "| concurrency | " + " | ".join(CATEGORIES) + " |",
        "|---|" + "---|" * len(CATEGORIES),
    ]
    for m in rows:
        shares = " | ".join(f"{m.shares[c]:.0%}" for c in CATEGORIES)
        lines.append(f"| {m.concurrency} | {shares} |")
    return lines


def records_line(rows: Sequence[Measured]) -> str:
    """Accuracy and recall, and whether every run agreed on them."""
    first = rows[0]
    same = all(
        (m.accuracy, m.retrieval_recall) == (first.accuracy, first.retrieval_recall) for m in rows
    )
    agree = "the same in every run" if same else "NOT the same in every run"
    return (
        f"Accuracy {first.accuracy:.3f} and retrieval recall {first.retrieval_recall:.3f}, {agree}."
    )


def bottleneck(rows: Sequence[Measured]) -> str:
    """One sentence naming the bottleneck: the largest measured share of the CPU."""
    base = (
        next(m for m in rows if m.concurrency == 1)
        if any(m.concurrency == 1 for m in rows)
        else rows[0]
    )
    name, share = max(base.shares.items(), key=lambda item: item[1])
    where = {
        "graph": "LangGraph's own loop (channels, task scheduling, ToolNode, state copies)",
        "checkpointer": "the SQLite checkpointer",
        "model": "the policy's decisions",
        "retrieval": "BM25 retrieval",
        "setup": "building the session",
    }.get(name, name)
    return (
        f"Bottleneck: {where}, {share:.0%} of the CPU at concurrency {base.concurrency} "
        f"({base.cpu_s / base.wall_s:.2f} CPUs busy; {base.commits / base.questions:.0f} "
        "checkpoint writes per question). Threads add no throughput: the work is CPU-bound "
        "Python under one interpreter lock."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N questions (default all)")
    parser.add_argument("--concurrency", default="1,4", help="comma-separated levels")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    levels = [int(c) for c in args.concurrency.split(",")]
    load_before = os.getloadavg()[0]
    rows: list[Measured] = []
    for level in levels:
        m = measure(level, args.limit)
        rows.append(m)
        print(f"concurrency {level}: {m.qps:.1f} questions/s", flush=True)
    load_after = os.getloadavg()[0]
    lines = [
        "# Eval throughput: hotpotqa-dev, policy model, SQLite checkpointer",
        "",
        f"{rows[0].questions} questions over 4,858 pooled paragraphs, k=3, max 6 steps, the "
        "SQLite checkpointer on a temp file (WAL, as `graph.app.persistence.open_checkpointer` "
        f"opens it), {os.cpu_count()} CPUs, Python {platform.python_version()}. Load average "
        f"{load_before:.1f} before and {load_after:.1f} after: other work on this machine "
        f"competes for the CPUs and inflates wall time. Goal: {GOAL_QPS:.0f} questions/s.",
        "",
        *throughput_table(rows),
        "",
        "Exclusive shares of the process CPU time (all threads); 'graph' is the remainder "
        "(LangGraph's loop and channels, ToolNode, Session, the runner):",
        "",
        *share_table(rows),
        "",
        records_line(rows),
        "",
        bottleneck(rows),
    ]
    text = "\n".join(lines) + "\n"
    print()
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
