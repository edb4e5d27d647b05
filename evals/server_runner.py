"""Running a dataset on a LangGraph server: the threads and runs there, the same records here.

`agent eval --server URL` (and `run_on_server`) sends each question as a run of the server's
`assistant` (the agent graph, by default) on a thread of its own, up to `concurrency` at once,
through langgraph-sdk. A deployed server (PostgreSQL and Redis behind it) spreads the runs over
its workers, so an eval grows past one machine. Each run's output is read back into a local
in-memory checkpoint store, so the records, metrics and reports are the ones an in-process eval
writes (`evals.runner.record_of`, `evals.report.write_report`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import convert_to_messages
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from evals.datasets import Dataset, Question
from evals.metrics import RunRecord
from evals.runner import error_record, record_of, thread_id_for
from graph.agent.context import Context
from graph.agent.messages import one_line
from graph.agent.state import OutputState

DEFAULT_ASSISTANT = "agent"
"""The graph `langgraph.json` registers for the agent."""
THREADS = uuid.UUID("6f1c2a8e-5b3d-4c7e-9a10-2d4b6e8f0a1c")
"""Namespace of the server thread ids: one stable UUID per eval thread name."""
COPIED = "copied"
"""The node a run's output is recorded as, in the local copy of its thread."""
FINISHED = ("answer", "budget")
UNREACHABLE = "cannot reach a LangGraph server at {url}: {error}"


def server_thread_id(name: str) -> str:
    """The server's thread id for eval thread `name` (servers take UUIDs; stable per name)."""
    return str(uuid.uuid5(THREADS, name))


def run_context(context: Context) -> dict[str, Any]:
    """The run context sent to the server: the settings that are set (JSON values only)."""
    return {k: v for k, v in dataclasses.asdict(context).items() if v is not None}


def local_store() -> tuple[CompiledStateGraph[Any, Any, Any, Any], BaseCheckpointSaver]:
    """A one-node graph on an in-memory store, to keep the runs' outputs as local threads."""
    saver = InMemorySaver()
    builder = StateGraph(OutputState)
    builder.add_node(COPIED, lambda state: {})
    builder.add_edge(START, COPIED)
    return builder.compile(checkpointer=saver), saver


def run_on_server(
    dataset: Dataset,
    url: str,
    *,
    context: Context,
    assistant: str = DEFAULT_ASSISTANT,
    concurrency: int = 4,
    limit: int | None = None,
    run_id: str,
    rerun: bool = False,
    on_record: Callable[[RunRecord], None] | None = None,
) -> tuple[list[RunRecord], BaseCheckpointSaver]:
    """Run the dataset's questions on the server at `url`; the records and their local copies.

    Each question is a run of `assistant` on the server thread `server_thread_id` of its eval
    thread name, with `context` as the run context and its recursion limit; a dataset with a
    corpus of its own searches only the server's corpus of that name (`Context.corpora`). A
    thread that already finished under `run_id` is read back unless `rerun`. A failing run is
    an error record; it never stops the eval. The records are in dataset order, and their
    ``thread_id`` is the server's; the returned store holds a copy of each run's output, for
    `evals.report.write_report`.
    """
    questions = list(dataset.questions[:limit] if limit is not None else dataset.questions)
    if dataset.corpus is not None and context.corpora is None:  # the dataset's own corpus
        context = dataclasses.replace(context, corpora=[dataset.corpus.name])
    copier, saver = local_store()
    return asyncio.run(
        _run_all(dataset, questions, url, context, assistant, concurrency, run_id, rerun,
                 copier, on_record)
    ), saver  # fmt: skip


async def _run_all(
    dataset: Dataset,
    questions: Sequence[Question],
    url: str,
    context: Context,
    assistant: str,
    concurrency: int,
    run_id: str,
    rerun: bool,
    copier: CompiledStateGraph[Any, Any, Any, Any],
    on_record: Callable[[RunRecord], None] | None,
) -> list[RunRecord]:
    """Every question's run, at most `concurrency` at once; records in question order."""
    from langgraph_sdk import get_client

    client = get_client(url=url)
    try:  # one line before anything runs, rather than an error record per question
        await client.assistants.search(limit=1)
    except Exception as error:
        raise ValueError(UNREACHABLE.format(url=url, error=one_line(error))) from None
    gate = asyncio.Semaphore(concurrency)

    async def one(question: Question) -> RunRecord:
        thread_id = server_thread_id(thread_id_for(dataset.name, run_id, question.id))
        async with gate:
            record = await _run_one(client, question, thread_id, assistant, context, rerun, copier)
        if on_record is not None:
            on_record(record)
        return record

    return list(await asyncio.gather(*(one(question) for question in questions)))


async def _run_one(
    client: Any,
    question: Question,
    thread_id: str,
    assistant: str,
    context: Context,
    rerun: bool,
    copier: CompiledStateGraph[Any, Any, Any, Any],
) -> RunRecord:
    """One question's run on the server, copied into the local store, as its record."""
    start = time.perf_counter()
    try:
        await client.threads.create(thread_id=thread_id, if_exists="do_nothing")
        values = (await client.threads.get_state(thread_id)).get("values") or {}
        ran = rerun or not isinstance(values, dict) or values.get("stopped") not in FINISHED
        if ran:
            values = await client.runs.wait(
                thread_id,
                assistant,
                input={"question": question.question},
                context=run_context(context),
                config={"recursion_limit": context.run_config()["recursion_limit"]},
                raise_error=True,
            )
        if not isinstance(values, dict):
            raise ValueError(f"the server returned {type(values).__name__}, not the run's output")
    except Exception as error:  # one failing question must not end the eval
        return error_record(question, thread_id, time.perf_counter() - start, one_line(error))
    latency = time.perf_counter() - start if ran else 0.0
    copy = {**values, "messages": convert_to_messages(values.get("messages") or [])}
    config: RunnableConfig = {"configurable": {"thread_id": thread_id}}
    await asyncio.to_thread(copier.update_state, config, copy, as_node=COPIED)
    assert isinstance(copier.checkpointer, BaseCheckpointSaver)
    return record_of(question, copier.checkpointer, thread_id, latency)
