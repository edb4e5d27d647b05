"""What an eval reads back from a run: its thread, its error, its retrieval against BM25.

`read_thread` reads a run's latest turn straight from the checkpoint store (no graph or index
needed), `tool_calls_of` and `search_hops` what the turn did, `record_error` the error a record
carries (`with_error`), and `compare_retrieval` the agent's recall against single-shot BM25 at
the same per-question budget. The runner, the server runner and the reports share them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.base import BaseCheckpointSaver

from evals.baselines import budgets_from_records, single_shot_recall_at_budgets
from evals.datasets import Dataset
from evals.metrics import RunRecord, micro_recall
from graph.agent.transcript import hits_of
from graph.app.render_trace import iter_turns
from tools.finish import FINISH_TOOL


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
