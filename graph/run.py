"""Running the agent from Python: ask, resume, fork, and read stored threads.

from graph.persistence import open_checkpointer
from graph.run import Session

with open_checkpointer() as saver:
    result = Session(saver).ask("Who leads the team that owns Beacon?")
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.types import StateSnapshot

from corpora import Corpus
from graph.budget import STEPS_PER_TOOL_ROUND, run_config
from graph.context import DEFAULT_K, DEFAULT_MAX_STEPS, Context
from graph.graph import AgentGraph, build_agent
from graph.nodes import asked_in, printable, question_problem
from graph.persistence import check_thread_id
from graph.trace import model_steps, render_step
from graph.transcript import current_turn

RESULT_KEYS = ("answer", "citations", "unsupported", "steps", "stopped")
OnLines = Callable[[list[str]], None]


class UnknownThread(LookupError):
    """A thread id the checkpointer has never seen."""


class NotAnAgentThread(ValueError):
    """A thread made by another graph (the field-service flow or the router)."""


NOT_AGENT = (
    "thread {thread!r} was made by another graph (the field-service flow or the router), "
    "not the agent; a paused flow thread is resumed with `agent resume {thread} --with VALUE`"
)


@dataclass(frozen=True)
class ThreadSummary:
    """One stored transcript, for `agent threads`."""

    thread_id: str
    question: str
    answer: str | None
    steps: int
    stopped: str | None


def is_agent_state(values: dict[str, Any]) -> bool:
    """Whether stored values are an agent thread's (it has a question), not another graph's.

    A run stopped right after its input was saved holds the question only in `__start__`, or
    nothing but the (empty) transcript channel.
    """
    started = values.get("__start__")
    only_transcript = not set(values) - {"messages"}
    return (
        "question" in values
        or (isinstance(started, dict) and "question" in started)
        or only_transcript
    )


def summarize_thread(thread_id: str, values: dict[str, Any]) -> ThreadSummary:
    """One row of `agent threads`, for an agent thread or a flow/router thread."""
    if is_agent_state(values):
        return ThreadSummary(
            thread_id=thread_id,
            question=str(values.get("question", "")),
            answer=values.get("answer"),
            steps=int(values.get("steps") or 0),
            stopped=values.get("stopped"),
        )
    return ThreadSummary(
        thread_id=thread_id,
        question=str(values.get("request", "")),
        answer=values.get("answer"),
        steps=len(values.get("log") or []),
        stopped=values.get("outcome") or "paused",
    )


def new_thread_id() -> str:
    """A fresh thread id."""
    return f"t-{uuid.uuid4().hex[:12]}"


class Session:
    """The agent over the built-in corpora (unless `builtins` is False) and any given ones.

    Every run is a thread on `checkpointer`; `model` fixes the chat model for every run.
    """

    def __init__(
        self,
        checkpointer: BaseCheckpointSaver,
        corpora: Sequence[Corpus] = (),
        k: int = DEFAULT_K,
        model: BaseChatModel | None = None,
        builtins: bool = True,
    ) -> None:
        from corpora import BUILTIN_CORPORA, load_builtin
        from tools import default_tools

        everything = [load_builtin(name) for name in BUILTIN_CORPORA] if builtins else []
        everything += list(corpora)
        self.k = k
        self.checkpointer = checkpointer
        self.graph: AgentGraph = build_agent(
            model=model, tools=default_tools(k=k, corpora=everything), checkpointer=checkpointer
        )

    def ask(
        self,
        question: str,
        *,
        model: str = "policy",
        max_steps: int = DEFAULT_MAX_STEPS,
        thread_id: str | None = None,
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Run one question on a thread (new, or continued) and return its result.

        A thread whose last run stopped part-way (a crash) and that was asking the same
        question is resumed from its last checkpoint instead of starting over.
        """
        problem = question_problem(question)
        if problem is not None:
            raise ValueError(problem)
        thread_id = check_thread_id(thread_id) if thread_id else new_thread_id()
        context = Context(model=model, max_steps=max_steps, k=self.k)
        snapshot = self.agent_thread(thread_id)
        if snapshot.next and snapshot.values.get("question") == question:
            return self._continue(snapshot, context, on_lines)
        config = run_config(max_steps, thread_id)
        printer = _Printer(on_lines, already=0, question=question)
        return self._drive({"question": question}, config, context, printer, thread_id)

    def resume(
        self,
        thread_id: str,
        *,
        model: str = "policy",
        max_steps: int = DEFAULT_MAX_STEPS,
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Finish a thread's interrupted run from its last checkpoint.

        A run killed before its first step (only the question was saved) starts over; a
        finished one is left as it is and its result returned.
        """
        snapshot = self.snapshot(thread_id)
        context = Context(model=model, max_steps=max_steps, k=self.k)
        if snapshot.next:
            return self._continue(snapshot, context, on_lines)
        if snapshot.values.get("stopped") is None and snapshot.values.get("question"):
            inputs = {"question": snapshot.values["question"]}
            config = run_config(max_steps, thread_id)
            return self._drive(inputs, config, context, _Printer(on_lines, already=0), thread_id)
        return self.result(thread_id)

    def fork(
        self,
        thread_id: str,
        step: int,
        *,
        model: str = "policy",
        max_steps: int = DEFAULT_MAX_STEPS,
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Re-run the latest turn from just before model call `step`; the old branch is kept."""
        point = self.check_fork(thread_id, step, max_steps)
        config = run_config(max_steps - step + 1, None)
        config["configurable"] = dict(point.config["configurable"])
        context = Context(model=model, max_steps=max_steps, k=self.k)
        lines = _Printer(on_lines, already=step - 1)
        return self._drive(None, config, context, lines, thread_id)

    def check_fork(self, thread_id: str, step: int, max_steps: int) -> StateSnapshot:
        """The checkpoint to fork from at `step`, or a one-line ValueError saying why not."""
        points = self.fork_points(thread_id)
        if not 1 <= step <= len(points):
            raise ValueError(
                f"thread {thread_id} has steps 1 to {len(points)}; cannot fork at {step}"
            )
        if step > max_steps:
            raise ValueError(f"cannot fork at step {step} with a budget of {max_steps} steps")
        return points[step - 1]

    def fork_points(self, thread_id: str) -> list[StateSnapshot]:
        """The checkpoints just before each model call of the thread's latest turn, in order.

        Only the current branch counts: the chain of parents from the latest checkpoint back
        to the turn's input, so earlier forks never add steps.
        """
        snapshot: StateSnapshot | None = self.snapshot(thread_id)
        chain: list[StateSnapshot] = []
        while snapshot is not None:
            chain.append(snapshot)
            if (snapshot.metadata or {}).get("source") == "input" or not snapshot.parent_config:
                break
            snapshot = self.graph.get_state(snapshot.parent_config)
        points: list[StateSnapshot] = []
        for snapshot in reversed(chain):  # a fork copies its source: keep one of each
            if snapshot.next != ("reason",):
                continue
            size = len(snapshot.values.get("messages", []))
            if points and len(points[-1].values.get("messages", [])) == size:
                continue
            points.append(snapshot)
        return points

    def agent_thread(self, thread_id: str) -> StateSnapshot:
        """The thread's state (empty for a new thread); NotAnAgentThread for another graph's."""
        config: RunnableConfig = {"configurable": {"thread_id": check_thread_id(thread_id)}}
        saved = self.checkpointer.get_tuple(config)
        if saved is not None and not is_agent_state(saved.checkpoint.get("channel_values", {})):
            raise NotAnAgentThread(NOT_AGENT.format(thread=thread_id))
        return self.graph.get_state(config)

    def snapshot(self, thread_id: str) -> StateSnapshot:
        """The thread's latest state; UnknownThread, or NotAnAgentThread for another graph's."""
        check_thread_id(thread_id)
        snapshot = self.graph.get_state({"configurable": {"thread_id": thread_id}})
        if not snapshot.values:
            raise UnknownThread(f"no thread {thread_id!r} in the checkpoint store")
        if not is_agent_state(snapshot.values):
            raise NotAnAgentThread(NOT_AGENT.format(thread=thread_id))
        return snapshot

    def result(self, thread_id: str) -> dict[str, Any]:
        """The stored result of the thread's latest turn."""
        values = self.snapshot(thread_id).values
        return {
            **{key: values.get(key) for key in RESULT_KEYS},
            "error": values.get("error"),
            "retrieved": values.get("retrieved") or {},
            "tokens": values.get("tokens", 0),
            "thread_id": thread_id,
        }

    def messages(self, thread_id: str) -> list[AnyMessage]:
        """The thread's whole stored transcript."""
        return list(self.snapshot(thread_id).values.get("messages", []))

    def threads(self, limit: int = 20) -> list[ThreadSummary]:
        """Stored threads, newest first."""
        latest: dict[str, tuple[str, dict[str, Any]]] = {}
        for saved in self.checkpointer.list(None):
            thread_id = saved.config["configurable"]["thread_id"]
            stamp = str(saved.checkpoint.get("ts", ""))
            if thread_id not in latest or stamp > latest[thread_id][0]:
                latest[thread_id] = (stamp, saved.checkpoint.get("channel_values", {}))
        newest = sorted(latest.items(), key=lambda item: item[1][0], reverse=True)[:limit]
        return [summarize_thread(thread_id, values) for thread_id, (_, values) in newest]

    def _continue(
        self, snapshot: StateSnapshot, context: Context, on_lines: OnLines | None
    ) -> dict[str, Any]:
        """Run a thread on from its latest checkpoint, within what is left of the budget."""
        done = int(snapshot.values.get("steps") or 0)
        left = max(context.max_steps - done, 0)
        config: RunnableConfig = {
            "recursion_limit": STEPS_PER_TOOL_ROUND * left + 3,
            "configurable": dict(snapshot.config["configurable"]),
        }
        thread_id = snapshot.config["configurable"]["thread_id"]
        return self._drive(None, config, context, _Printer(on_lines, already=0), thread_id)

    def _drive(
        self,
        inputs: dict[str, Any] | None,
        config: RunnableConfig,
        context: Context,
        printer: _Printer,
        thread_id: str,
    ) -> dict[str, Any]:
        """Stream the graph, hand finished steps to the printer, and return the result."""
        final: dict[str, Any] = {}
        for values in self.graph.stream(
            cast(Any, inputs), config, context=context, stream_mode="values"
        ):
            final = values
            printer.show(values.get("messages", []))
        printer.show(final.get("messages", []), final=True)
        return self.result(thread_id)


class _Printer:
    """Hands each completed step of the current turn to `on_lines`, once."""

    def __init__(self, on_lines: OnLines | None, already: int, question: str | None = None) -> None:
        self.on_lines = on_lines
        self.printed = already
        self.question = printable(question) if question is not None else None

    def show(self, messages: Sequence[AnyMessage], final: bool = False) -> None:
        """Print the steps whose tool calls all have results (or all steps, when `final`)."""
        if self.on_lines is None:
            return
        turn = current_turn(messages)
        if self.question is not None and asked_in(turn) != self.question:
            return  # the stored state from before this question reached the transcript
        results = [m for m in turn if isinstance(m, ToolMessage)]
        answered = {m.tool_call_id for m in results}
        steps = model_steps(turn)
        for number, message in enumerate(steps, start=1):
            if number <= self.printed:
                continue
            complete = all(str(call["id"]) in answered for call in message.tool_calls)
            if not (complete or final):
                break
            self.on_lines(render_step(number, message, results))
            self.printed = number
