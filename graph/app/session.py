"""Running the agent from Python: ask, resume, fork, and read stored threads.

from graph.app.persistence import open_checkpointer
from graph.app.session import Session

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
from graph.agent.budget import check_k, continue_limit, run_config, steps_left
from graph.agent.context import Context
from graph.agent.graph import AgentGraph, build_agent
from graph.agent.question import check_question
from graph.app.agent_threads import (
    agent_thread_config,
    mid_run,
    new_thread_id,
)
from graph.app.fork_points import fork_points
from graph.app.persistence import check_thread_id
from graph.app.run_context import SessionDefaults, run_context
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

RESULT_KEYS = ("answer", "citations", "unsupported", "steps", "stopped", "grounded", "ungrounded")


class Session:
    """The agent over the built-in corpora (unless `builtins` is False) and any given ones.

    A corpus may be a saved index (`tools.index_store.open_index`); `retriever` (bm25, dense,
    hybrid; default ``$AGENT_RETRIEVER``) is how the other corpora are searched.

    Every run is a thread on `checkpointer` and gets its settings from one `Context` (model,
    `max_steps`, `k`), chosen per call: the value the call gives, else the session's (`model`
    as a name, `k`), else the thread's recorded one, else the default (`AGENT_MODEL` or the
    policy; `graph.agent.budget`). A `BaseChatModel` object as `model` is fixed instead: every
    run uses it, its runs' `Context.model` is its description, a call naming another model is
    a ValueError, and its threads record no model (it cannot be loaded again by name).
    With `on_token`, a run that prints its steps also writes a streaming model's thought
    as the model writes it (LangGraph's `messages` stream), inside the trace's layout.
    `mcp` lists MCP servers (`http://HOST:PORT/mcp` or `stdio:COMMAND ARGS...`) whose tools
    join the agent's (`graph.mcp_io.tools`); their sessions stay open until `close()`.
    """

    def __init__(
        self,
        checkpointer: BaseCheckpointSaver,
        corpora: Sequence[Corpus | IndexedCorpus] = (),
        k: int | None = None,
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
        chat_model = as_chat_model(model)  # a bad name or object fails here, at once
        self.defaults = SessionDefaults(
            model=model if isinstance(model, str) else None,
            fixed_model=chat_model if not isinstance(model, str) else None,
            k=check_k(k) if k is not None else None,
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
        thread_id: str | None = None,
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Run one question on a thread (new, or continued) and return its result.

        A thread whose last run stopped part-way (a crash) and that was asking the same
        question is resumed from its last checkpoint instead of starting over. `model`,
        `max_steps` and `k` make the run's `Context` (see the class docstring for defaults).
        """
        check_question(question)  # the entry check: a bad question touches no thread
        thread_id = check_thread_id(thread_id) if thread_id else new_thread_id()
        context = self._context(thread_id, model, max_steps, k)
        snapshot = self.agent_thread(thread_id)
        if mid_run(snapshot) and snapshot.values.get("question") == question:
            return self._continue(snapshot, context, on_lines)
        config = run_config(context.max_steps, thread_id)
        printer = StepPrinter(on_lines, already=0, question=question)
        return self._drive({"question": question}, config, context, printer, thread_id)

    def resume(
        self,
        thread_id: str,
        *,
        model: str | None = None,
        max_steps: int | None = None,
        k: int | None = None,
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Finish a thread's interrupted run from its last checkpoint.

        A run killed before its first step (only the question was saved) starts over; a run
        that stopped on an error retries the failed model call; a finished one is left as it
        is and its result returned (`is_finished` tells which).
        """
        snapshot = self.snapshot(thread_id)
        context = self._context(thread_id, model, max_steps, k)
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
                    k=context.k,
                    on_lines=on_lines,
                )
        if snapshot.values.get("stopped") is None and snapshot.values.get("question"):
            inputs = {"question": snapshot.values["question"]}
            config = run_config(context.max_steps, thread_id)
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
        on_lines: OnLines | None = None,
    ) -> dict[str, Any]:
        """Re-run the latest turn from just before model call `step`; the old branch is kept.

        `model`, `max_steps` and `k` default as in `ask`.
        """
        context = self._context(thread_id, model, max_steps, k)
        point = self.check_fork(thread_id, step, context.max_steps)
        config = run_config(steps_left(context.max_steps, step - 1), None)
        config["configurable"] = dict(point.config["configurable"])
        lines = StepPrinter(on_lines, already=step - 1)
        return self._drive(None, config, context, lines, thread_id)

    def _context(
        self, thread_id: str, model: str | None, max_steps: int | None, k: int | None = None
    ) -> Context:
        """The run's one `Context` (`graph.app.run_context`)."""
        saved = read_settings(self.checkpointer, thread_id) or ThreadSettings()
        return run_context(self.defaults, saved, model=model, max_steps=max_steps, k=k)

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
