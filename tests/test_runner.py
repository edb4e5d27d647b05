from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from evals.datasets import Dataset, Question, load_dataset
from evals.metrics import RunRecord, evaluate, summarize
from evals.run_threads import compare_retrieval, read_thread, record_error, tool_calls_of
from evals.runner import make_session, run_dataset, thread_id_for
from graph.app.persistence import check_thread_id
from graph.app.session import Session
from graph.models import ModelSpecError


def without_timing(records: list[RunRecord]) -> list[dict[str, Any]]:
    """Records with the fields that legitimately differ between runs removed."""
    return [{k: v for k, v in r.items() if k not in ("latency_s", "thread_id")} for r in records]


def test_notes_with_the_policy_is_perfect(checkpointer: BaseCheckpointSaver) -> None:
    dataset = load_dataset("notes")
    records = run_dataset(dataset, checkpointer=checkpointer, run_id="t1")
    assert [r["question_id"] for r in records] == ["q1", "q2", "q3", "q4", "q5"]
    scores = evaluate([dict(r) for r in records], dataset.triples())
    assert scores["accuracy"] == 1.0
    assert scores["citation_recall"] == 1.0
    assert scores["unsupported_rate"] == 0.0
    summary = summarize(records)
    assert summary["accuracy"] == 1.0
    assert summary["citation_recall"] == 1.0
    assert summary["unsupported_rate"] == 0.0
    assert summary["retrieval_recall"] == 1.0
    assert all(r["stopped"] == "answer" and r["latency_s"] > 0 for r in records)
    assert all(record_error(r) is None for r in records)
    # the policy reports no tokens, so none are recorded
    assert all("tokens" not in r for r in records)


def test_seed_runs_use_the_required_tools() -> None:
    dataset = load_dataset("seed_runs")
    records = run_dataset(dataset, checkpointer=InMemorySaver(), run_id="t1")
    for question, record in zip(dataset.questions, records, strict=True):
        assert question.tools is not None
        assert record["tool_calls"] == list(question.tools)
        assert record["tools_ok"] is True
        assert record["correct"] is True
    assert summarize(records)["tools_ok_rate"] == 1.0


def test_every_run_is_a_thread_session_reads_back(tmp_path: Path) -> None:
    from graph.app.persistence import open_checkpointer

    dataset = load_dataset("notes")
    with open_checkpointer(str(tmp_path / "c.sqlite")) as saver:
        records = run_dataset(dataset, checkpointer=saver, run_id="r-1", concurrency=3)
        session = Session(saver, corpora=[dataset.corpus], builtins=False)
        for question, record in zip(dataset.questions, records, strict=True):
            assert record["thread_id"] == f"eval-notes-r-1-{question.id}"
            messages = session.messages(record["thread_id"])
            humans = [m for m in messages if isinstance(m, HumanMessage)]
            assert [m.content for m in humans] == [question.question]
            stored = session.result(record["thread_id"])
            assert stored["answer"] == record["answer"]
            assert stored["citations"] == record["citations"]
            turn, values = read_thread(saver, record["thread_id"])
            assert tool_calls_of(turn) == record["tool_calls"]
            assert values["steps"] == record["steps"]


def test_concurrency_does_not_change_the_records() -> None:
    dataset = load_dataset("hotpotqa-hard")
    one = run_dataset(dataset, checkpointer=InMemorySaver(), concurrency=1, limit=12, run_id="a")
    four = run_dataset(dataset, checkpointer=InMemorySaver(), concurrency=4, limit=12, run_id="a")
    assert [r["question_id"] for r in one] == [q.id for q in dataset.questions[:12]]
    assert without_timing(one) == without_timing(four)
    assert [r["thread_id"] for r in one] == [r["thread_id"] for r in four]


def test_on_record_sees_every_run_once_and_limit_cuts() -> None:
    seen: list[str] = []
    records = run_dataset(
        load_dataset("notes"),
        checkpointer=InMemorySaver(),
        limit=3,
        concurrency=2,
        on_record=lambda r: seen.append(r["question_id"]),
    )
    assert sorted(seen) == ["q1", "q2", "q3"]
    assert [r["question_id"] for r in records] == ["q1", "q2", "q3"]


def test_a_failing_model_is_recorded_not_raised(script_file: Any) -> None:
    # one search, then the script runs out: the model raises on its second call
    spec = script_file(("search_notes", {"query": "Atlas scheduler"}))
    records = run_dataset(load_dataset("notes"), model=spec, checkpointer=InMemorySaver())
    assert len(records) == 5
    for record in records:
        assert record["stopped"] == "error"
        assert record["answer"] is None and record["correct"] is False
        assert "ScriptExhausted" in (record_error(record) or "")
        assert record["tool_calls"] == ["search_notes"]
        assert "d1" in record["retrieved"]


def test_an_exception_outside_the_graph_is_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    real_ask = Session.ask

    def flaky_ask(self: Session, question: str, **kwargs: Any) -> dict[str, Any]:
        if "Beacon" in question:
            raise RuntimeError("the store went away")
        return real_ask(self, question, **kwargs)

    monkeypatch.setattr(Session, "ask", flaky_ask)
    records = run_dataset(load_dataset("notes"), checkpointer=InMemorySaver(), run_id="x")
    by_id = {r["question_id"]: r for r in records}
    assert by_id["q2"]["stopped"] == "error"
    assert record_error(by_id["q2"]) == "RuntimeError: the store went away"
    assert by_id["q2"]["retrieved"] == [] and by_id["q2"]["steps"] == 0
    assert all(by_id[q]["correct"] for q in ("q1", "q3", "q4", "q5"))


def test_bad_settings_fail_before_anything_runs() -> None:
    dataset = load_dataset("notes")
    saver = InMemorySaver()
    with pytest.raises(ModelSpecError):
        run_dataset(dataset, model="nope", checkpointer=saver)
    with pytest.raises(ValueError, match="concurrency"):
        run_dataset(dataset, concurrency=0, checkpointer=saver)
    with pytest.raises(ValueError, match="max_steps"):
        run_dataset(dataset, max_steps=0, checkpointer=saver)
    with pytest.raises(ValueError, match="limit"):
        run_dataset(dataset, limit=0, checkpointer=saver)
    assert list(saver.list(None)) == []


def test_thread_ids_are_readable_safe_and_distinct() -> None:
    assert thread_id_for("notes", "20250101-0000", "q1") == "eval-notes-20250101-0000-q1"
    odd = [thread_id_for("my data", "r1", qid) for qid in ("q 1", "q_1", "q/1", "x" * 300)]
    for tid in odd:
        assert check_thread_id(tid) == tid
        assert tid.startswith("eval-my_data-r1-")
    assert len(set(odd)) == len(odd)
    assert len(odd[-1]) == 128


def test_compare_retrieval() -> None:
    notes = load_dataset("notes")
    comparison = compare_retrieval(notes, run_dataset(notes, checkpointer=InMemorySaver()))
    assert comparison is not None
    assert comparison.agent == 1.0
    assert comparison.questions == 5
    assert comparison.line().startswith("retrieval: agent 1.000 vs single-shot BM25 ")
    assert comparison.line().endswith(" paragraphs/question)")

    seed = load_dataset("seed_runs")
    comparison = compare_retrieval(seed, run_dataset(seed, checkpointer=InMemorySaver()))
    assert comparison is not None
    assert comparison.questions == 2  # the arithmetic question has no supporting documents

    no_docs = Dataset(
        name="bare",
        questions=(Question(id="a", question="what is 2 + 2?", answers=("4",)),),
        corpus=notes.corpus,
    )
    records = run_dataset(no_docs, checkpointer=InMemorySaver())
    assert records[0]["correct"]
    assert compare_retrieval(no_docs, records) is None


def test_session_for_builtins_and_own_corpus() -> None:
    saver = InMemorySaver()
    own = make_session(load_dataset("notes"), saver)
    builtins = make_session(load_dataset("seed_runs"), saver)
    tools = {name for name in own.graph.nodes["act"].bound.tools_by_name}
    assert tools == {"search_notes", "calculator", "finish"}
    tools = {name for name in builtins.graph.nodes["act"].bound.tools_by_name}
    assert {"search_policy", "search_products", "search_notes"} <= tools
