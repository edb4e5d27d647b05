"""Running a dataset through the agent: one checkpointed thread per question, concurrently.

from graph.app.persistence import open_checkpointer
from evals.datasets import load_dataset
from evals.metrics import summarize
from evals.run_threads import compare_retrieval
from evals.runner import run_dataset

dataset = load_dataset("notes")
with open_checkpointer() as saver:
    records = run_dataset(dataset, checkpointer=saver)
print(summarize(records), compare_retrieval(dataset, records))

Every question runs through the same compiled graph (`graph.app.session.Session`, shared by the
worker threads, or your own graph given as `agent=`) on its own thread,
``eval-<dataset>-<run id>-<question id>``, so `agent replay` shows any run afterwards. A
question whose run fails is recorded as ``stopped="error"`` with the reason under the extra
key ``error``; it never stops the eval.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

from langchain_core.messages import AnyMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from evals.datasets import BUILTIN_DATASETS, Dataset, Question
from evals.metrics import RunRecord, make_record
from evals.report import write_report
from evals.report_data import EvalRun
from evals.run_threads import read_thread, tool_calls_of, with_error
from evals.saved_corpus import over_index
from graph.agent.context import Context
from graph.agent.graph import AgentGraph
from graph.agent.messages import one_line
from graph.app.agent_threads import UnknownThread
from graph.app.persistence import check_thread_id
from graph.app.run_context import RunSettings, SessionDefaults, resolve
from graph.app.session import RESULT_KEYS, Session
from graph.app.thread_heads import EVAL_THREAD_PREFIX
from graph.app.thread_settings import DATASET_PREFIX
from graph.models import load_model
from tools.retrievers import IndexedCorpus
from tools.saved_indexes import SAVED_PREFIX
from tools.search_settings import DEFAULT_K

OnRecord = Callable[[RunRecord], None]
MAX_THREAD_ID = 128
_UNSAFE_THREAD_CHARS = re.compile(r"[^A-Za-z0-9._:@-]")
_EMPTY_RESULT: dict[str, Any] = {"answer": None, "citations": [], "unsupported": [], "steps": 0}


def new_run_id() -> str:
    """A readable, practically unique run id: the local time and 4 random hex digits."""
    return f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}"


def thread_id_for(dataset: str, run_id: str, question_id: str) -> str:
    """The thread id of one eval run: ``eval-<dataset>-<run id>-<question id>``.

    Characters a thread id may not hold become ``_``; when anything was replaced or the id
    is longer than 128 characters, it is cut and ends in a hash of the unsanitized id, so two
    different question ids never share a thread.
    """
    raw = f"{EVAL_THREAD_PREFIX}{dataset}-{run_id}-{question_id}"
    safe = _UNSAFE_THREAD_CHARS.sub("_", raw)
    if safe != raw or len(safe) > MAX_THREAD_ID:
        digest = hashlib.sha1(raw.encode("utf-8")).hexdigest()[:10]
        safe = f"{safe[: MAX_THREAD_ID - len(digest) - 1]}-{digest}"
    return check_thread_id(safe)


def make_session(
    dataset: Dataset,
    checkpointer: BaseCheckpointSaver,
    k: int = DEFAULT_K,
    retriever: str | None = None,
    index: IndexedCorpus | None = None,
) -> Session:
    """The agent over `index`, else the dataset's corpus alone, else the built-ins.

    The corpus is recorded with each run as `saved:<index>` or `dataset:<name or file>`, so
    `agent resume` of an eval thread loads it again.
    """
    if index is not None:
        source = {index.name: f"{SAVED_PREFIX}{index.name}"}
        return Session(checkpointer, corpora=[index], k=k, builtins=False, sources=source)
    if dataset.corpus is None:
        return Session(checkpointer, k=k, retriever=retriever, builtins=True)
    spec = dataset.name if dataset.name in BUILTIN_DATASETS else (dataset.path or dataset.name)
    sources: dict[str, str | None] = {dataset.corpus.name: f"{DATASET_PREFIX}{spec}"}
    return Session(
        checkpointer,
        corpora=[dataset.corpus],
        k=k,
        builtins=False,
        sources=sources,
        retriever=retriever,
    )


def eval_context(
    model: str | None = None,
    max_steps: int | None = None,
    k: int | None = None,
    require_search: bool | None = None,
) -> Context:
    """The runs' one `Context` from the settings given (None: the default); checked once."""
    given = RunSettings(model=model, max_steps=max_steps, k=k, require_search=require_search)
    return resolve(given, SessionDefaults()).context


def run_dataset(
    dataset: Dataset,
    *,
    agent: AgentGraph | None = None,
    model: str | None = None,
    max_steps: int | None = None,
    k: int | None = None,
    require_search: bool | None = None,
    concurrency: int = 4,
    limit: int | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    run_id: str | None = None,
    on_record: OnRecord | None = None,
    retriever: str | None = None,
    rerun: bool = False,
    index: IndexedCorpus | None = None,
    out: str | Path | None = None,
) -> list[RunRecord]:
    """Run the dataset's questions (the first `limit`, if given) and return their records.

    The questions run through `agent` when given: any compiled graph that takes the agent's
    input (`{"question": ...}`) and returns its output (`answer`, `citations`, `steps`,
    `stopped`, `messages`, ...), such as `build_agent(model=your_model, tools=your_tools)`;
    its threads are kept on its own checkpointer, else on `checkpointer`, else in memory.
    Without it, through a `Session` over `index` (a saved index,
    `tools.saved_indexes.open_saved`, which must hold every supporting document of the
    questions run: `over_index`), else the dataset's corpus, else the built-ins.

    `model`, `max_steps`, `k` and `require_search` make every run's `Context` (None: the
    default). Up to `concurrency` questions run at once on worker threads; each is a thread
    named by `thread_id_for` (`run_id` defaults to `new_run_id`). `on_record` is called on the
    calling thread as each run completes (completion order); the returned records are in
    dataset order. A question whose thread already finished under this run id is not asked
    again (its stored result is the record) unless `rerun`; an interrupted one continues from
    its checkpoint. With `out`, the records, `report.md` and `report.html` are written there
    (`evals.report.write_report`). Raises ModelSpecError for an unknown model and ValueError
    for settings no run can honour, before anything runs.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    context = eval_context(model, max_steps, k, require_search)
    run_id = run_id or new_run_id()
    questions = dataset.questions[:limit] if limit is not None else dataset.questions
    if agent is not None:
        graph = with_checkpointer(agent, checkpointer)
        saver = graph.checkpointer
        assert isinstance(saver, BaseCheckpointSaver)

        def run(question: Question) -> RunRecord:
            thread_id = thread_id_for(dataset.name, run_id, question.id)
            return run_on_graph(graph, question, context, thread_id, rerun)

    else:
        load_model(context.model)
        if index is not None:
            over_index(dataset, index, limit)  # refuses an index lacking supporting documents
        saver = checkpointer if checkpointer is not None else InMemorySaver()
        session = make_session(dataset, saver, context.k, retriever, index)

        def run(question: Question) -> RunRecord:
            thread_id = thread_id_for(dataset.name, run_id, question.id)
            if not rerun and finished(session, thread_id):
                return stored_record(session, question, thread_id)
            return run_question(session, question, context=context, thread_id=thread_id)

    records = run_all(questions, run, concurrency, on_record)
    if out is not None:
        label = context.model if agent is None else f"{agent.get_name()} ({context.model})"
        eval_run = EvalRun(
            dataset=dataset,
            model=label,
            run_id=run_id,
            records=records,
            max_steps=context.max_steps,
            k=context.k,
            concurrency=concurrency,
        )
        write_report(eval_run, out, saver)
    return records


def run_all(
    questions: Sequence[Question],
    run: Callable[[Question], RunRecord],
    concurrency: int,
    on_record: OnRecord | None,
) -> list[RunRecord]:
    """`run` over the questions, `concurrency` at once; the records in question order."""
    records: list[RunRecord | None] = [None] * len(questions)
    executor = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="eval")
    try:
        pending: dict[Future[RunRecord], int] = {
            executor.submit(run, question): i for i, question in enumerate(questions)
        }
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                position = pending.pop(future)
                record = records[position] = future.result()
                if on_record is not None:
                    on_record(record)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    return [record for record in records if record is not None]


def with_checkpointer(agent: AgentGraph, checkpointer: BaseCheckpointSaver | None) -> AgentGraph:
    """`agent` itself when it keeps threads, else a copy on `checkpointer` (or in memory)."""
    if isinstance(agent.checkpointer, BaseCheckpointSaver):
        return agent
    saver = checkpointer if checkpointer is not None else InMemorySaver()
    return agent.copy(update={"checkpointer": saver})


def run_on_graph(
    graph: AgentGraph, question: Question, context: Context, thread_id: str, rerun: bool
) -> RunRecord:
    """Run one question through `graph` on `thread_id`; its record, read from the thread.

    A thread that already finished is read back unless `rerun`; a failure is an error record.
    """
    saver = graph.checkpointer
    assert isinstance(saver, BaseCheckpointSaver)
    _turn, stored = read_thread(saver, thread_id)
    if not rerun and stored.get("stopped") in ("answer", "budget"):
        return record_of(question, saver, thread_id, 0.0)
    start = time.perf_counter()
    try:
        graph.invoke(
            {"question": question.question}, context.run_config(thread_id), context=context
        )
    except Exception as error:  # one failing question must not end the eval
        return error_record(question, thread_id, time.perf_counter() - start, one_line(error))
    return record_of(question, saver, thread_id, time.perf_counter() - start)


def record_of(
    question: Question, checkpointer: BaseCheckpointSaver, thread_id: str, latency_s: float
) -> RunRecord:
    """The record of a run, from the output values stored on its thread."""
    turn, values = read_thread(checkpointer, thread_id)
    return record_from_output(question, values, turn, thread_id, latency_s)


def record_from_output(
    question: Question,
    values: Mapping[str, Any],
    turn: Sequence[AnyMessage],
    thread_id: str,
    latency_s: float,
) -> RunRecord:
    """The record of a run from its output values and its latest turn's messages."""
    result = {key: values.get(key) for key in (*RESULT_KEYS, "error")}
    result.update(
        citations=result["citations"] or [],
        unsupported=result["unsupported"] or [],
        steps=result["steps"] or 0,
    )
    retrieved = [doc_id for ids in (values.get("retrieved") or {}).values() for doc_id in ids]
    record = make_record(
        question,
        result,
        retrieved=retrieved,
        latency_s=latency_s,
        thread_id=thread_id,
        tokens=int(values.get("tokens") or 0) or None,
        tool_calls=tool_calls_of(turn),
    )
    return with_error(record, result.get("error"))


def error_record(question: Question, thread_id: str, latency_s: float, error: str) -> RunRecord:
    """The record of a run that raised: no answer, `stopped="error"` and the error line."""
    record = make_record(
        question,
        {**_EMPTY_RESULT, "stopped": "error"},
        retrieved=[],
        latency_s=latency_s,
        thread_id=thread_id,
    )
    return with_error(record, error)


def run_question(
    session: Session, question: Question, *, context: Context, thread_id: str
) -> RunRecord:
    """Ask one question on `thread_id` and build its record; a failure becomes an error record."""
    start = time.perf_counter()
    try:
        session.ask(question.question, context=context, thread_id=thread_id)
    except Exception as error:  # one failing question must not end the eval
        return error_record(question, thread_id, time.perf_counter() - start, one_line(error))
    return record_of(question, session.checkpointer, thread_id, time.perf_counter() - start)


def finished(session: Session, thread_id: str) -> bool:
    """Whether the thread exists and its latest turn ended (an answer or the budget)."""
    try:
        return session.is_finished(thread_id)
    except (UnknownThread, ValueError):
        return False


def stored_record(session: Session, question: Question, thread_id: str) -> RunRecord:
    """The record of a finished thread, read back without running anything (latency 0)."""
    return record_of(question, session.checkpointer, thread_id, 0.0)
