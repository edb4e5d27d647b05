"""Running a dataset through the agent: one checkpointed thread per question, concurrently.

from graph.app.persistence import open_checkpointer
from evals.datasets import load_dataset
from evals.metrics import summarize
from evals.runner import compare_retrieval, run_dataset

dataset = load_dataset("notes")
with open_checkpointer() as saver:
    records = run_dataset(dataset, checkpointer=saver)
print(summarize(records), compare_retrieval(dataset, records))

Every question runs through the same compiled graph (`graph.app.session.Session`, shared by the
worker threads) on its own thread, ``eval-<dataset>-<run id>-<question id>``, so `agent replay`
shows any run afterwards. A question whose run fails is recorded as ``stopped="error"`` with the
reason under the extra key ``error``; it never stops the eval.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.base import BaseCheckpointSaver

from evals.baselines import budgets_from_records, single_shot_recall_at_budgets
from evals.datasets import BUILTIN_DATASETS, Dataset, Question
from evals.metrics import RunRecord, make_record, micro_recall
from evals.saved_corpus import over_index
from graph.agent.context import Context
from graph.agent.messages import one_line
from graph.agent.transcript import hits_of
from graph.app.agent_threads import UnknownThread
from graph.app.persistence import check_thread_id
from graph.app.render_trace import iter_turns
from graph.app.session import Session
from graph.app.thread_heads import EVAL_THREAD_PREFIX
from graph.app.thread_settings import DATASET_PREFIX
from graph.models import default_model_spec, load_model
from tools.finish import FINISH_TOOL
from tools.retrievers import IndexedCorpus
from tools.saved_indexes import SAVED_PREFIX

OnRecord = Callable[[RunRecord], None]
MAX_THREAD_ID = 128
_UNSAFE_THREAD_CHARS = re.compile(r"[^A-Za-z0-9._:@-]")
_EMPTY_RESULT: dict[str, Any] = {"answer": None, "citations": [], "unsupported": [], "steps": 0}


@dataclass(frozen=True)
class RetrievalComparison:
    """The agent's retrieval recall against single-shot BM25 given the same paragraphs."""

    agent: float
    """Micro recall of the supporting documents the agent retrieved at any step."""
    single_shot: float
    """Micro recall of single-shot BM25 (the question as the query) at the agent's budgets."""
    budget: float
    """Mean distinct documents the agent retrieved per question (the budget both get)."""
    questions: int
    """Questions compared: those with supporting documents."""

    def line(self) -> str:
        """The one-line summary the CLI and the reports print."""
        return (
            f"retrieval: agent {self.agent:.3f} vs single-shot BM25 {self.single_shot:.3f} "
            f"at equal budget ({self.budget:.1f} paragraphs/question)"
        )


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
    k: int = 3,
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
        return Session(checkpointer, k=k, retriever=retriever)
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


def run_dataset(
    dataset: Dataset,
    *,
    model: str | None = None,
    max_steps: int = 6,
    k: int = 3,
    concurrency: int = 4,
    limit: int | None = None,
    checkpointer: BaseCheckpointSaver,
    run_id: str | None = None,
    on_record: OnRecord | None = None,
    retriever: str | None = None,
    rerun: bool = False,
    index: IndexedCorpus | None = None,
) -> list[RunRecord]:
    """Run the dataset's questions (the first `limit`, if given) and return their records.

    With `index` (a saved index, `tools.saved_indexes.open_saved`), the questions search it
    instead of the dataset's corpus, with the retriever it was opened for; it must hold every
    supporting document of the questions run (`over_index`).

    Up to `concurrency` questions run at once on worker threads sharing one `Session`; each
    is a thread on `checkpointer` named by `thread_id_for` (`run_id` defaults to
    `new_run_id`). `on_record` is called on the calling thread as each run completes
    (completion order); the returned records are in dataset order. A question whose thread
    already finished under this run id is not asked again (its stored result is the record)
    unless `rerun`; an interrupted one continues from its checkpoint. Raises ModelSpecError for
    an unknown model and ValueError for settings no run can honour, before anything runs.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    model = model or default_model_spec()
    Context(model=model, max_steps=max_steps, k=k)  # raises ValueError on bad settings
    load_model(model)
    run_id = run_id or new_run_id()
    questions = dataset.questions[:limit] if limit is not None else dataset.questions
    if index is not None:
        over_index(dataset, index, limit)  # refuses an index lacking supporting documents
    session = make_session(dataset, checkpointer, k, retriever, index)

    def run(question: Question) -> RunRecord:
        thread_id = thread_id_for(dataset.name, run_id, question.id)
        if not rerun and finished(session, thread_id):
            return stored_record(session, question, thread_id)
        return run_question(
            session, question, model=model, max_steps=max_steps, thread_id=thread_id
        )

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


def run_question(
    session: Session, question: Question, *, model: str, max_steps: int, thread_id: str
) -> RunRecord:
    """Ask one question on `thread_id` and build its record; a failure becomes an error record."""
    start = time.perf_counter()
    try:
        result = session.ask(
            question.question, model=model, max_steps=max_steps, thread_id=thread_id
        )
    except Exception as error:  # one failing question must not end the eval
        latency = time.perf_counter() - start
        record = make_record(
            question,
            {**_EMPTY_RESULT, "stopped": "error"},
            retrieved=[],
            latency_s=latency,
            thread_id=thread_id,
        )
        return with_error(record, one_line(error))
    latency = time.perf_counter() - start
    turn, _values = read_thread(session.checkpointer, thread_id)
    retrieved = [doc_id for ids in (result.get("retrieved") or {}).values() for doc_id in ids]
    tokens = int(result.get("tokens") or 0)
    record = make_record(
        question,
        result,
        retrieved=retrieved,
        latency_s=latency,
        thread_id=thread_id,
        tokens=tokens or None,
        tool_calls=tool_calls_of(turn),
    )
    return with_error(record, result.get("error"))


def finished(session: Session, thread_id: str) -> bool:
    """Whether the thread exists and its latest turn ended (an answer or the budget)."""
    try:
        return session.is_finished(thread_id)
    except (UnknownThread, ValueError):
        return False


def stored_record(session: Session, question: Question, thread_id: str) -> RunRecord:
    """The record of a finished thread, read back without running anything (latency 0)."""
    result = session.result(thread_id)
    turn, _values = read_thread(session.checkpointer, thread_id)
    retrieved = [doc_id for ids in (result.get("retrieved") or {}).values() for doc_id in ids]
    record = make_record(
        question,
        result,
        retrieved=retrieved,
        latency_s=0.0,
        thread_id=thread_id,
        tokens=int(result.get("tokens") or 0) or None,
        tool_calls=tool_calls_of(turn),
    )
    return with_error(record, result.get("error"))


def with_error(record: RunRecord, error: str | None) -> RunRecord:
    """The record with ``error`` set when there is one."""
    if error:
        record["error"] = str(error)
    return record


def record_error(record: Mapping[str, Any]) -> str | None:
    """The error that stopped a run, if any (see `with_error`)."""
    error = record.get("error")
    return str(error) if error else None


# -- reading a run back from its thread ----------------------------------------------------


def read_thread(
    checkpointer: BaseCheckpointSaver, thread_id: str
) -> tuple[list[AnyMessage], dict[str, Any]]:
    """The latest turn's messages (system prompt left out) and the thread's stored values.

    Reads the latest checkpoint straight from `checkpointer`, so no graph (and no index) is
    needed; an unknown thread gives ``([], {})``.
    """
    saved = checkpointer.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}})
    if saved is None:
        return [], {}
    values = dict(saved.checkpoint.get("channel_values") or {})
    messages = [m for m in values.get("messages") or [] if not isinstance(m, SystemMessage)]
    turns = list(iter_turns(messages))
    return (turns[-1] if turns else []), values


def tool_calls_of(turn: Sequence[AnyMessage]) -> list[str]:
    """Names of the tools the turn's model calls asked for, in order, ``finish`` excluded."""
    return [
        str(call["name"])
        for message in turn
        if isinstance(message, AIMessage)
        for call in message.tool_calls
        if call["name"] != FINISH_TOOL
    ]


def search_hops(turn: Sequence[AnyMessage]) -> list[list[str]]:
    """The document ids each search of the turn returned, one list per search that ran."""
    return [
        [str(hit["id"]) for hit in hits_of(message)]
        for message in turn
        if isinstance(message, ToolMessage)
        and message.status != "error"
        and isinstance(message.artifact, list)
    ]


# -- the agent against single-shot BM25 ---------------------------------------------------


def compare_retrieval(dataset: Dataset, records: Sequence[RunRecord]) -> RetrievalComparison | None:
    """Compare the agent's retrieval with single-shot BM25 at equal per-question budget.

    Over the records whose question has supporting documents, each question gives single-shot
    BM25 as many documents as the agent retrieved for it (`evals.baselines`); both recalls
    are micro-averaged. None when no record has supporting documents.
    """
    scored = [r for r in records if r["supporting"]]
    if not scored:
        return None
    budgets = budgets_from_records(scored)
    agent = micro_recall((r["retrieved"] for r in scored), (r["supporting"] for r in scored))
    return RetrievalComparison(
        agent=agent,
        single_shot=single_shot_recall_at_budgets(dataset, budgets),
        budget=sum(budgets.values()) / len(budgets),
        questions=len(scored),
    )
