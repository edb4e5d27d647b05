"""Running the agent from Python: ask, resume, fork, and read stored threads.

from graph.app.persistence import open_checkpointer
from graph.app.session import Session

with open_checkpointer() as saver:
    result = Session(saver).ask("Who leads the team that owns Beacon?")
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessageChunk, AnyMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple
from langgraph.types import StateSnapshot, StreamMode

from corpora import Corpus
from graph.agent.budget import STEPS_PER_TOOL_ROUND, run_config
from graph.agent.context import DEFAULT_K, DEFAULT_MAX_STEPS, Context
from graph.agent.graph import AgentGraph, build_agent
from graph.agent.nodes import asked_in, message_text, printable, question_problem
from graph.agent.transcript import current_turn
from graph.app.persistence import check_thread_id
from graph.app.render_trace import INDENT, model_steps, render_step
from graph.app.thread_lock import thread_lock
from graph.app.thread_settings import (
    BUILTIN_SOURCE,
    ThreadSettings,
    needs_of,
    read_settings,
    with_settings,
)
from graph.models import default_model_spec
from tools.retrievers import IndexedCorpus

RESULT_KEYS = ("answer", "citations", "unsupported", "steps", "stopped", "grounded", "ungrounded")
OnLines = Callable[[list[str]], None]
OnToken = Callable[[str], None]
"""Writes text as it comes, adding no newline (a model's content chunks, live)."""
REASON_NODE = "reason"


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


def is_agent_checkpoint(saved: CheckpointTuple) -> bool:
    """Whether a stored checkpoint is an agent thread's.

    The kind recorded in its metadata decides (`graph.app.thread_settings`); for threads saved
    before kinds were recorded, the stored channels (not a snapshot's values: a run killed
    right after its input was saved holds the question only in `__start__`).
    """
    kind = (saved.metadata or {}).get("graph")
    if kind is not None:
        return kind == "agent"
    return is_agent_state(saved.checkpoint.get("channel_values", {}))


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


def mid_run(snapshot: StateSnapshot) -> bool:
    """Whether the thread stopped inside a step: a task is still due, or done but not merged.

    A process killed after a node's writes were saved but before the next checkpoint leaves
    the step's tasks with their saved writes (`next` is then empty): continuing the run from
    the thread's head (`stream(None, config)`) applies those writes instead of losing them.
    """
    return bool(snapshot.next) or bool(snapshot.tasks)


def new_thread_id() -> str:
    """A fresh thread id."""
    return f"t-{uuid.uuid4().hex[:12]}"


class Session:
    """The agent over the built-in corpora (unless `builtins` is False) and any given ones.

    A corpus may be a saved index (`tools.index_store.open_index`); `retriever` (bm25, dense,
    hybrid; default ``$AGENT_RETRIEVER``) is how the other corpora are searched.

    Every run is a thread on `checkpointer`; `model` (a name or a `BaseChatModel`) fixes the
    chat model for every run, else each call names one (default: `AGENT_MODEL` or the policy).
    With `on_token`, a run that prints its steps also writes a streaming model's thought
    as the model writes it (LangGraph's `messages` stream), inside the trace's layout.
    `mcp` lists MCP servers (`http://HOST:PORT/mcp` or `stdio:COMMAND ARGS...`) whose tools
    join the agent's (`graph.mcp_io.tools`); their sessions stay open until `close()`.
    """

    def __init__(
        self,
        checkpointer: BaseCheckpointSaver,
        corpora: Sequence[Corpus | IndexedCorpus] = (),
        k: int = DEFAULT_K,
        model: BaseChatModel | str | None = None,
        builtins: bool = True,
        on_token: OnToken | None = None,
        mcp: Sequence[str] = (),
        retriever: str | None = None,
        sources: Mapping[str, str | None] | None = None,
    ) -> None:
        """Build the agent over the corpora.

        `sources` says where each given corpus can be loaded from again (a path, or
        `dataset:<spec>`); it is recorded with every run so a resume can restore it.
        """
        from corpora import BUILTIN_CORPORA, load_builtin
        from tools import default_tools

        everything: list[Corpus | IndexedCorpus] = (
            [load_builtin(name) for name in BUILTIN_CORPORA] if builtins else []
        )
        everything += list(corpora)
        known = {name: BUILTIN_SOURCE for name in BUILTIN_CORPORA} if builtins else {}
        self.corpus_needs = needs_of([c.name for c in everything], {**known, **(sources or {})})
        self.k = k
        self.checkpointer = checkpointer
        self.on_token = on_token
        tools = default_tools(k=k, corpora=everything, retriever=retriever)
        self.mcp: Any = None
        if mcp:
            from graph.mcp_io.tools import connect_tools

            self.mcp, remote = connect_tools(mcp, taken={tool.name for tool in tools})
            tools = [*tools[:-1], *remote, tools[-1]]  # finish stays last
        try:
            self.graph: AgentGraph = build_agent(
                model=model, tools=tools, checkpointer=checkpointer, any_model=True
            )
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Close the MCP sessions (stopping stdio servers); the session needs no other cleanup."""
        if self.mcp is not None:
            self.mcp.close()
            self.mcp = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ask(
        self,
        question: str,
        *,
        model: str | None = None,
        max_steps: int | None = None,
        thread_id: str | None = None,
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Run one question on a thread (new, or continued) and return its result.

        A thread whose last run stopped part-way (a crash) and that was asking the same
        question is resumed from its last checkpoint instead of starting over. `model` and
        `max_steps` default to the thread's (see `graph.app.thread_settings`), else the defaults.
        """
        problem = question_problem(question)
        if problem is not None:
            raise ValueError(problem)
        thread_id = check_thread_id(thread_id) if thread_id else new_thread_id()
        context = self._context(thread_id, model, max_steps)
        snapshot = self.agent_thread(thread_id)
        if mid_run(snapshot) and snapshot.values.get("question") == question:
            return self._continue(snapshot, context, on_lines)
        config = run_config(context.max_steps, thread_id)
        printer = _Printer(on_lines, already=0, question=question)
        return self._drive({"question": question}, config, context, printer, thread_id)

    def resume(
        self,
        thread_id: str,
        *,
        model: str | None = None,
        max_steps: int | None = None,
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Finish a thread's interrupted run from its last checkpoint.

        A run killed before its first step (only the question was saved) starts over; a run
        that stopped on an error retries the failed model call; a finished one is left as it
        is and its result returned (`is_finished` tells which).
        """
        snapshot = self.snapshot(thread_id)
        context = self._context(thread_id, model, max_steps)
        if mid_run(snapshot):
            return self._continue(snapshot, context, on_lines)
        if snapshot.values.get("stopped") == "error":
            points = self.fork_points(thread_id)
            if points and len(points) <= context.max_steps:
                return self.fork(
                    thread_id,
                    len(points),
                    model=context.model,
                    max_steps=context.max_steps,
                    on_lines=on_lines,
                )
        if snapshot.values.get("stopped") is None and snapshot.values.get("question"):
            inputs = {"question": snapshot.values["question"]}
            config = run_config(context.max_steps, thread_id)
            return self._drive(inputs, config, context, _Printer(on_lines, already=0), thread_id)
        return self.result(thread_id)

    def is_finished(self, thread_id: str) -> bool:
        """Whether the thread's latest turn ended (answer or budget): `resume` has nothing to do.

        A turn that stopped on an error is not finished: `resume` retries its failed step.
        """
        snapshot = self.snapshot(thread_id)
        return not mid_run(snapshot) and snapshot.values.get("stopped") in ("answer", "budget")

    def fork(
        self,
        thread_id: str,
        step: int,
        *,
        model: str | None = None,
        max_steps: int | None = None,
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Re-run the latest turn from just before model call `step`; the old branch is kept.

        `model` and `max_steps` default to the thread's, as in `ask`.
        """
        context = self._context(thread_id, model, max_steps)
        point = self.check_fork(thread_id, step, context.max_steps)
        config = run_config(context.max_steps - step + 1, None)
        config["configurable"] = dict(point.config["configurable"])
        lines = _Printer(on_lines, already=step - 1)
        return self._drive(None, config, context, lines, thread_id)

    def _context(self, thread_id: str, model: str | None, max_steps: int | None) -> Context:
        """The run's settings: those given, else the thread's recorded ones, else defaults."""
        saved = read_settings(self.checkpointer, thread_id) or ThreadSettings()
        if max_steps is None:
            max_steps = saved.max_steps if saved.max_steps is not None else DEFAULT_MAX_STEPS
        if model is None:
            model = saved.model or default_model_spec()
        return Context(model=model, max_steps=max_steps, k=self.k)

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
        if saved is not None and not is_agent_checkpoint(saved):
            raise NotAnAgentThread(NOT_AGENT.format(thread=thread_id))
        return self.graph.get_state(config)

    def snapshot(self, thread_id: str) -> StateSnapshot:
        """The thread's latest state; UnknownThread, or NotAnAgentThread for another graph's."""
        config: RunnableConfig = {"configurable": {"thread_id": check_thread_id(thread_id)}}
        saved = self.checkpointer.get_tuple(config)
        if saved is None:
            raise UnknownThread(f"no thread {thread_id!r} in the checkpoint store")
        if not is_agent_checkpoint(saved):
            raise NotAnAgentThread(NOT_AGENT.format(thread=thread_id))
        return self.graph.get_state(config)

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

    def threads(
        self, limit: int = 20, skip: Callable[[str, Mapping[str, Any]], bool] | None = None
    ) -> list[ThreadSummary]:
        """Stored threads, newest first; `skip(thread_id, metadata)` leaves threads out."""
        latest: dict[str, tuple[str, dict[str, Any]]] = {}
        for saved in self.checkpointer.list(None):
            thread_id = saved.config["configurable"]["thread_id"]
            if skip is not None and skip(thread_id, saved.metadata or {}):
                continue
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
        thread_id = snapshot.config["configurable"]["thread_id"]
        # No checkpoint id: addressed at a checkpoint, LangGraph re-runs (time travel) the tasks
        # whose writes were saved; at the thread's head it hands those writes back.
        config: RunnableConfig = {
            "recursion_limit": STEPS_PER_TOOL_ROUND * left + 3,
            "configurable": {"thread_id": thread_id},
        }
        return self._drive(None, config, context, _Printer(on_lines, already=0), thread_id)

    def _drive(
        self,
        inputs: dict[str, Any] | None,
        config: RunnableConfig,
        context: Context,
        printer: _Printer,
        thread_id: str,
    ) -> dict[str, Any]:
        """Stream the graph, hand finished steps (and live tokens) to the printer; the result.

        The run holds the thread's lock (`graph.app.thread_lock`): a second writer is refused.
        """
        final: dict[str, Any] = {}
        settings = ThreadSettings(
            model=context.model, max_steps=context.max_steps, k=self.k, corpora=self.corpus_needs
        )
        config = with_settings(config, settings)
        live = self.on_token if printer.on_lines is not None else None
        modes: list[StreamMode] = ["values", "messages"] if live is not None else ["values"]
        with thread_lock(self.checkpointer, thread_id):
            stream = self.graph.stream(
                cast(Any, inputs), config, context=context, stream_mode=modes
            )
            try:
                for mode, chunk in cast(Iterator[tuple[str, Any]], stream):
                    if mode == "messages":
                        message, metadata = chunk
                        printer.token(message, metadata, live)
                        continue
                    final = chunk
                    printer.show(chunk.get("messages", []))
            finally:
                printer.end_live_line()
        printer.show(final.get("messages", []), final=True)
        return self.result(thread_id)


class _Printer:
    """Hands each completed step of the current turn to `on_lines`, once."""

    def __init__(self, on_lines: OnLines | None, already: int, question: str | None = None) -> None:
        self.on_lines = on_lines
        self.printed = already
        self.question = printable(question) if question is not None else None
        self.live: OnToken | None = None  # the writer of an open streamed Thought line
        self.streamed: set[int] = set()  # steps whose header and Thought were streamed

    def token(self, message: Any, metadata: dict[str, Any], write: OnToken | None) -> None:
        """Write a streaming model's content chunk live, opening the step's Thought line."""
        if write is None or self.on_lines is None or metadata.get("langgraph_node") != REASON_NODE:
            return
        text = message_text(message) if isinstance(message, AIMessageChunk) else ""
        if not text:
            return
        step = self.printed + 1
        if step not in self.streamed:
            self.end_live_line()
            self.on_lines([f"  Step {step}"])
            write(f"{INDENT}Thought: ")
            self.streamed.add(step)
        self.live = write
        write(text.replace("\n", " "))  # a Thought stays on its line

    def end_live_line(self) -> None:
        """Close an open streamed Thought line."""
        if self.live is not None:
            self.live("\n")
            self.live = None

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
            lines = render_step(number, message, results)
            if number in self.streamed:  # its header and Thought are on the screen already
                self.end_live_line()
                lines = lines[2:]
            self.on_lines(lines)
            self.printed = number
