"""Agent runs assembled from the saved checkpoints, one per turn.

A run is a turn of an agent thread, or the agent side of a router thread that sent its
request to the agent. A turn is one invocation: it starts at a checkpoint whose source is
``input`` and ends at the last checkpoint before the next one. Its result (answer, stopped,
steps, citations) is that last checkpoint's; its tool calls are read from the newest
transcript; its duration is the time between its first and last checkpoint. Flow threads,
and router threads that went to the flow, are not agent runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from evals.shapes.saved import Saved, SavedThreads, Stream
from evals.shapes.transcript import Call, calls_of, field_of, split_turns, text_of
from graph.app.thread_settings import AGENT, ROUTER
from graph.router import AGENT_NODE


@dataclass(frozen=True)
class Run:
    """One agent run as the store saw it."""

    thread_id: str
    turn: int
    """1 for a thread's first turn (a router thread's agent run is its turn 1)."""
    via: str
    """``agent`` (an agent thread) or ``router`` (the agent side of a router thread)."""
    request: str
    calls: tuple[Call, ...]
    stopped: str | None
    answer: str | None
    model_calls: int
    citations: tuple[str, ...]
    duration_s: float | None
    """From the turn's first checkpoint to its last; None when the timestamps do not say."""

    @property
    def answered(self) -> bool:
        """Stopped on an answer, and the answer is not empty."""
        return self.stopped == "answer" and bool((self.answer or "").strip())

    @property
    def ref(self) -> str:
        """``thread#turn``: which run this is."""
        return f"{self.thread_id}#{self.turn}"


def read_runs(threads: SavedThreads) -> list[Run]:
    """Every agent run in the saved threads, by thread id and turn."""
    by_thread: dict[str, dict[str, Stream]] = {}
    for (thread_id, ns), stream in threads.streams.items():
        by_thread.setdefault(thread_id, {})[ns] = stream
    runs: list[Run] = []
    for thread_id in sorted(by_thread):
        streams = by_thread[thread_id]
        root = streams.get("")
        kind = root.thread_kind() if root is not None else None
        if kind == AGENT and root is not None:
            runs += agent_runs(root, "agent")
        elif kind == ROUTER:
            for ns in sorted(streams):
                if ns.split(":", 1)[0] == AGENT_NODE:
                    runs += agent_runs(streams[ns], "router")[-1:]
    return runs


def agent_runs(stream: Stream, via: str) -> list[Run]:
    """The runs of one agent stream: its turns, paired with its invocations from the end.

    A human message that came without an invocation of its own (earlier messages a chat client
    sent in the same input as its question) is conversation, not a run.
    """
    turns = split_turns(stream.state().get("messages") or [])
    segments = invocations(stream.chain())
    runs = []
    count = min(len(turns), len(segments)) or len(turns)
    first = len(turns) - count
    for offset in range(count):
        number = first + offset
        segment = segments[len(segments) - count + offset] if segments else []
        last = number == len(turns) - 1
        result = stream.state() if last or not segment else stream.result_at(segment[-1])
        runs.append(build_run(stream.thread_id, number + 1, via, turns[number], result, segment))
    return runs


def invocations(chain: Sequence[Saved]) -> list[list[Saved]]:
    """The chain cut where each invocation starts (a checkpoint whose source is ``input``)."""
    segments: list[list[Saved]] = []
    for saved in chain:
        if saved.source == "input" or not segments:
            segments.append([saved])
        else:
            segments[-1].append(saved)
    return segments


def build_run(
    thread_id: str,
    turn: int,
    via: str,
    messages: Sequence[Any],
    result: Mapping[str, Any],
    segment: Sequence[Saved],
) -> Run:
    """One run from its turn's messages, its result fields and its checkpoints."""
    steps = result.get("steps")
    answer = result.get("answer")
    stopped = result.get("stopped")
    return Run(
        thread_id=thread_id,
        turn=turn,
        via=via,
        request=text_of(field_of(messages[0], "content")) if messages else "",
        calls=tuple(calls_of(messages)),
        stopped=stopped if isinstance(stopped, str) else None,
        answer=answer if isinstance(answer, str) else None,
        model_calls=steps if isinstance(steps, int) and not isinstance(steps, bool) else 0,
        citations=tuple(str(c) for c in result.get("citations") or [] if isinstance(c, str)),
        duration_s=duration(segment),
    )


def duration(segment: Sequence[Saved]) -> float | None:
    """Seconds from the first checkpoint to the last (None without two readable stamps)."""
    if len(segment) < 2:
        return None
    try:
        start = datetime.fromisoformat(segment[0].ts)
        end = datetime.fromisoformat(segment[-1].ts)
    except (TypeError, ValueError):
        return None
    seconds = (end - start).total_seconds()
    return seconds if seconds >= 0 else None
