"""Running the agent from Python: ask, resume, fork, and read stored threads.

from graph import Session, open_checkpointer

with open_checkpointer() as saver:
    result = Session(saver).ask("Who leads the team that owns Beacon?")
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.types import StateSnapshot, StreamMode

from corpora import Corpus
from graph.agent.budget import continue_limit, run_config, steps_left
from graph.agent.context import Context
from graph.agent.graph import AgentGraph, build_agent
from graph.agent.question import check_question
from graph.app.agent_threads import (
    agent_thread_config,
    mid_run,
    new_thread_id,
)
from graph.app.corpus_specs import configured_specs, open_configured, spec_source
from graph.app.fork_points import fork_points
from graph.app.persistence import check_thread_id
from graph.app.run_context import Resolved, RunSettings, SessionDefaults, resolve
from graph.app.step_printer import OnLines, OnToken, StepPrinter
from graph.app.thread_list import ThreadSummary, list_threads
from graph.app.thread_lock import thread_lock
from graph.app.thread_settings import (
    BUILTIN_SOURCE,
    ThreadSettings,
    needs_of,
    read_settings,
    with_settings,
)
from graph.models import as_chat_model
from tools.retrievers import IndexedCorpus

RESULT_KEYS = (
    "answer",
    "short_answer",
    "citations",
    "unsupported",
    "steps",
    "stopped",
    "grounded",
    "ungrounded",
    "support",
    "confident",
    "doubts",
)


class Session:
    """The agent over the corpora and MCP servers you name, or else the default corpora.

    The sources are `corpora` (a `Corpus`, or a saved index: `tools.index_store.open_index`)
    and `mcp` (MCP servers, `http://HOST:PORT/mcp` or `stdio:COMMAND ARGS...`, whose tools join
    the agent's, `graph.mcp_io.tools`; their sessions stay open until `close()`). With either,
    the agent searches only those (and the calculator); `builtins=True` adds the built-in
    corpora. With neither, it searches ``$AGENT_CORPORA`` when set, else the built-ins.
    `retriever` (bm25, dense, hybrid; default ``$AGENT_RETRIEVER``) is how the corpora that are
    not saved indexes are searched.

    Every run is a thread on `checkpointer` and gets its settings from one `Context`
    (`graph.app.run_context.resolve`): the value the call gives, else the session's (`model`
    as a name, `k`), else the thread's recorded one, else the default. A `BaseChatModel`
    object as `model` is fixed instead: every run uses it, its runs' `Context.model` is its
    description, a call naming another model is a ValueError, and its threads record no
    model (it cannot be loaded again by name). With `on_token`, a run that prints its steps
    also writes a streaming model's thought as the model writes it (LangGraph's `messages`
    stream), inside the trace's layout.
    """

    def __init__(
        self,
        checkpointer: BaseCheckpointSaver,
        corpora: Sequence[Corpus | IndexedCorpus] = (),
        k: int | None = None,
        model: BaseChatModel | str | None = None,
        builtins: bool | None = None,
        on_token: OnToken | None = None,
        mcp: Sequence[str] = (),
        retriever: str | None = None,
        sources: Mapping[str, str | None] | None = None,
    ) -> None:
        """Build the agent over the sources (see the class docstring).

        `sources` says where each given corpus can be loaded from again (a path, or
        `dataset:<spec>`); it is recorded with every run so a resume can restore it.
        """
        from corpora import BUILTIN_CORPORA, load_builtin
        from graph.app.corpus_specs import with_cached_vectors
        from tools import default_tools

        known: dict[str, str | None] = dict(sources or {})
        named = bool(corpora) or bool(mcp)
        if not named and builtins is None:
            configured = open_configured(retriever)
            if configured is not None:
                corpora = configured
                specs = configured_specs()
                known.update(
                    {c.name: spec_source(s) for c, s in zip(configured, specs, strict=True)}
                )
                builtins = False
        with_builtins = builtins if builtins is not None else not named
        everything: list[Corpus | IndexedCorpus] = (
            [with_cached_vectors(load_builtin(name), retriever) for name in BUILTIN_CORPORA]
            if with_builtins
            else []  # vectors kept between runs
        )
        everything += list(corpora)
        if with_builtins:
            known.update({name: BUILTIN_SOURCE for name in BUILTIN_CORPORA})
        self.corpus_needs = needs_of([c.name for c in everything], known)
        chat_model = as_chat_model(model)  # a bad name or object fails here, at once
        self.defaults = SessionDefaults(
            model=model if isinstance(model, str) else None,
            fixed_model=chat_model if not isinstance(model, str) else None,
            k=k,
        )
        self.checkpointer = checkpointer
        self.on_token = on_token
        tools = default_tools(corpora=everything, retriever=retriever)  # k comes per run
        self.mcp: Any = None
        if mcp:
            from graph.mcp_io.tools import connect_tools

            self.mcp, remote = connect_tools(mcp, taken={tool.name for tool in tools})
            tools = [*tools[:-1], *remote, tools[-1]]  # finish stays last
        try:
            self.graph: AgentGraph = build_agent(
                model=self.defaults.fixed_model,
                tools=tools,
                checkpointer=checkpointer,
                any_model=True,
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
        k: int | None = None,
        require_search: bool | None = None,
        thread_id: str | None = None,
        context: Context | None = None,
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Run one question on a thread (new, or continued) and return its result.

        A thread whose last run stopped part-way (a crash) and that was asking the same
        question is resumed from its last checkpoint instead of starting over. `model`,
        `max_steps`, `k` and `require_search` make the run's `Context` (see the class
        docstring); a `context` already resolved by `settings` is used as it is.
        """
        check_question(question)  # the entry check: a bad question touches no thread
        thread_id = thread_id or new_thread_id()
        if context is None:
            given = RunSettings(model, max_steps, k, require_search)
            context = self.settings(thread_id, given).context
        snapshot = self.agent_thread(thread_id)
        if mid_run(snapshot) and snapshot.values.get("question") == question:
            return self._continue(snapshot, context, on_lines)
        config = context.run_config(thread_id)
        printer = StepPrinter(on_lines, already=0, question=question)
        return self._drive({"question": question}, config, context, printer, thread_id)

    def resume(
        self,
        thread_id: str,
        *,
        model: str | None = None,
        max_steps: int | None = None,
        k: int | None = None,
        context: Context | None = None,
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Finish a thread's interrupted run from its last checkpoint.

        A run killed before its first step (only the question was saved) starts over; a run
        that stopped on an error retries the failed model call; a finished one is left as it
        is and its result returned (`is_finished` tells which). `context` as in `ask`.
        """
        snapshot = self.snapshot(thread_id)
        if context is None:
            context = self.settings(thread_id, RunSettings(model, max_steps, k)).context
        if mid_run(snapshot):
            return self._continue(snapshot, context, on_lines)
        if snapshot.values.get("stopped") == "error":
            points = self.fork_points(thread_id)
            if points and len(points) <= context.max_steps:
                return self.fork(thread_id, len(points), context=context, on_lines=on_lines)
        if snapshot.values.get("stopped") is None and snapshot.values.get("question"):
            inputs = {"question": snapshot.values["question"]}
            config = context.run_config(thread_id)
            return self._drive(inputs, config, context, StepPrinter(on_lines, already=0), thread_id)
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
        k: int | None = None,
        context: Context | None = None,
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Re-run the latest turn from just before model call `step`; the old branch is kept.

        `model`, `max_steps`, `k` and `context` as in `ask`.
        """
        if context is None:
            context = self.settings(thread_id, RunSettings(model, max_steps, k)).context
        point = self.check_fork(thread_id, step, context.max_steps)
        config = run_config(steps_left(context.max_steps, step - 1), None)
        config["configurable"] = dict(point.config["configurable"])
        lines = StepPrinter(on_lines, already=step - 1)
        return self._drive(None, config, context, lines, thread_id)

    def settings(self, thread_id: str | None, given: RunSettings | None = None) -> Resolved:
        """The run's `Context` and a note per thread setting it overrides.

        From what the call `given`, the session, the thread and the defaults, in that order
        (`graph.app.run_context.resolve`).
        """
        saved = read_settings(self.checkpointer, check_thread_id(thread_id)) if thread_id else None
        return resolve(given or RunSettings(), self.defaults, saved)

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
        """The checkpoints just before each model call of the thread's latest turn, in order."""
        return fork_points(self.graph, self.snapshot(thread_id))

    def agent_thread(self, thread_id: str) -> StateSnapshot:
        """The thread's state (empty for a new thread); NotAnAgentThread for another graph's."""
        return self.graph.get_state(
            agent_thread_config(self.checkpointer, thread_id, must_exist=False)
        )

    def snapshot(self, thread_id: str) -> StateSnapshot:
        """The thread's latest state; UnknownThread, or NotAnAgentThread for another graph's."""
        return self.graph.get_state(
            agent_thread_config(self.checkpointer, thread_id, must_exist=True)
        )

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

    def threads(self, limit: int = 20, include_eval: bool = True) -> list[ThreadSummary]:
        """Stored threads of every kind, newest first (`graph.app.thread_list.list_threads`)."""
        return list_threads(self.checkpointer, limit, include_eval)

    def _continue(
        self, snapshot: StateSnapshot, context: Context, on_lines: OnLines | None
    ) -> dict[str, Any]:
        """Run a thread on from its latest checkpoint, within what is left of the budget."""
        done = int(snapshot.values.get("steps") or 0)
        left = steps_left(context.max_steps, done)
        thread_id = snapshot.config["configurable"]["thread_id"]
        # No checkpoint id: addressed at a checkpoint, LangGraph re-runs (time travel) the tasks
        # whose writes were saved; at the thread's head it hands those writes back.
        config: RunnableConfig = {
            "recursion_limit": continue_limit(left),
            "configurable": {"thread_id": thread_id},
        }
        return self._drive(None, config, context, StepPrinter(on_lines, already=0), thread_id)

    def _drive(
        self,
        inputs: dict[str, Any] | None,
        config: RunnableConfig,
        context: Context,
        printer: StepPrinter,
        thread_id: str,
    ) -> dict[str, Any]:
        """Stream the graph, hand finished steps (and live tokens) to the printer; the result.

        The run holds the thread's lock (`graph.app.thread_lock`): a second writer is refused.
        """
        final: dict[str, Any] = {}
        model = None if self.defaults.fixed_model else context.model  # not loadable by name
        settings = ThreadSettings(
            model=model, max_steps=context.max_steps, k=context.k, corpora=self.corpus_needs
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


__all__ = ["RESULT_KEYS", "Session"]
