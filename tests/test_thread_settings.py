"""Settings live with the thread: model, budget, k, corpora and kind in checkpoint metadata.

`resume`, `replay --fork` and `ask --thread` reuse them (the override notes are tested in
test_cli); an eval thread's corpus is loaded again on resume, or the resume is refused; an eval
re-run with the same run id skips finished questions unless `--rerun`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from fake_openai import fake_openai
from langgraph.checkpoint.memory import InMemorySaver

from evals.datasets import load_dataset
from evals.runner import run_dataset, thread_id_for
from graph.app.persistence import open_checkpointer
from graph.app.session import Session
from graph.app.thread_settings import BUILTIN_SOURCE, CorpusNeed, read_settings
from tools.search import SearchTool

QUESTION = "Who leads the team that owns the Atlas scheduler?"


class Killed(BaseException):
    """The process dying: not an Exception, so nothing turns it into data."""


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Count the searches that ran; `kill_at` makes search number N kill the run."""
    state: dict[str, Any] = {"ran": [], "kill_at": None}
    original = SearchTool._run

    def counted(self: SearchTool, query: str, *args: Any, **kwargs: Any) -> Any:
        state["ran"].append(query)
        if state["kill_at"] == len(state["ran"]):
            state["kill_at"] = None
            raise Killed("SIGKILL")
        return original(self, query, *args, **kwargs)

    monkeypatch.setattr(SearchTool, "_run", counted)
    yield state


def test_a_run_records_its_settings_in_the_checkpoint(script_file: Any) -> None:
    saver = InMemorySaver()
    model = script_file(("finish", {"answer": "x", "citations": []}))
    Session(saver, k=2).ask("anything at all?", model=model, max_steps=4, thread_id="rec")
    settings = read_settings(saver, "rec")
    assert settings is not None
    assert (settings.graph, settings.model, settings.max_steps, settings.k) == (
        "agent",
        model,
        4,
        2,
    )
    assert CorpusNeed("notes", BUILTIN_SOURCE) in settings.corpora
    assert read_settings(saver, "unknown") is None


def test_resume_of_a_killed_openai_run_keeps_its_model(
    agent_home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    searches: dict[str, Any],
) -> None:
    script = [
        {"tool": "search_notes", "args": {"query": "Atlas scheduler owner"}, "content": ""},
        {"tool": "search_notes", "args": {"query": "Fleet Platform lead"}, "content": "next"},
        {"tool": "finish", "args": {"answer": "Priya Raman (served)", "citations": ["d2"]}},
    ]
    with fake_openai(script) as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        searches["kill_at"] = 2
        with pytest.raises(Killed):
            run_cli(capsys, "ask", QUESTION, "--model", "openai:x-model", "--thread", "paid")
        assert len(fake.requests) == 2
        code, out, err = run_cli(capsys, "resume", "paid")
        assert code == 0, err
        assert "Priya Raman (served)" in out  # the scripted server answered, not the policy
        assert len(fake.requests) == 3
        assert all(request["model"] == "x-model" for request in fake.requests)


def write_dataset(folder: Path) -> Path:
    """A made-up dataset with its own corpus file beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    passages = [
        {"id": "k1", "text": "The Quillmoor ferry is run by the Harbor Ops crew."},
        {"id": "k2", "text": "The Harbor Ops crew is captained by Odile Brask."},
        {"id": "k3", "text": "Quillmoor bakeries open at dawn."},
    ]
    (folder / "isle.jsonl").write_text("\n".join(map(json.dumps, passages)) + "\n")
    rows = [
        {"dataset": "isle", "description": "made-up isles", "corpus": "isle=isle.jsonl"},
        {
            "id": "i1",
            "question": "Who captains the crew that runs the Quillmoor ferry?",
            "answers": ["Odile Brask"],
            "supporting": ["k1", "k2"],
        },
        {
            "id": "i2",
            "question": "When do Quillmoor bakeries open?",
            "answers": ["dawn"],
            "supporting": ["k3"],
        },
    ]
    path = folder / "isle-eval.jsonl"
    path.write_text("\n".join(map(json.dumps, rows)) + "\n")
    return path


def test_resume_of_an_eval_thread_restores_the_datasets_corpus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], searches: dict[str, Any]
) -> None:
    db = str(tmp_path / "evals.sqlite")
    dataset = load_dataset(write_dataset(tmp_path / "data"))
    searches["kill_at"] = 1
    with open_checkpointer(db) as saver, pytest.raises(Killed):
        run_dataset(dataset, checkpointer=saver, run_id="r1", concurrency=1, limit=1)
    thread = thread_id_for("isle", "r1", "i1")
    code, out, err = run_cli(capsys, "resume", thread, "--db", db)
    assert code == 0, err
    assert "Odile Brask" in out and "search_isle" in out

    searches["kill_at"] = len(searches["ran"]) + 1
    with open_checkpointer(db) as saver, pytest.raises(Killed):
        run_dataset(dataset, checkpointer=saver, run_id="r2", concurrency=1, limit=1)
    (tmp_path / "data" / "isle.jsonl").unlink()
    code, out, err = run_cli(capsys, "resume", thread_id_for("isle", "r2", "i1"), "--db", db)
    assert code == 1 and out == ""
    assert err.startswith("error: thread eval-isle-r2-i1 needs corpus 'isle' from dataset:")
    assert err.count("\n") == 1


def test_an_eval_rerun_skips_finished_questions_unless_asked(
    tmp_path: Path, searches: dict[str, Any]
) -> None:
    dataset = load_dataset(write_dataset(tmp_path / "data"))
    with open_checkpointer(str(tmp_path / "e.sqlite")) as saver:
        first = run_dataset(dataset, checkpointer=saver, run_id="same", concurrency=1)
        ran = len(searches["ran"])
        assert ran >= 2 and all(r["correct"] for r in first)
        again = run_dataset(dataset, checkpointer=saver, run_id="same", concurrency=1)
        assert len(searches["ran"]) == ran  # nothing asked again
        keys = ("question_id", "answer", "citations", "retrieved", "steps", "correct")
        assert [[r[k] for k in keys] for r in again] == [[r[k] for k in keys] for r in first]
        run_dataset(dataset, checkpointer=saver, run_id="same", concurrency=1, rerun=True)
        assert len(searches["ran"]) == 2 * ran


def test_each_graph_records_its_kind_and_the_agent_reads_it() -> None:
    from graph.app.agent_threads import NotAnAgentThread
    from graph.app.flow_runs import run_flow
    from graph.app.router_runs import run_router
    from graph.router import build_router

    saver = InMemorySaver()
    request = "AC-250-A leaking water, pump not running"
    run_flow(request, checkpointer=saver, thread_id="f1")
    run_router(build_router(saver), request, thread_id="r1")
    Session(saver).ask("what's our refund window?", thread_id="a1")
    kinds = {t: getattr(read_settings(saver, t), "graph", None) for t in ("f1", "r1", "a1")}
    assert kinds == {"f1": "flow", "r1": "router", "a1": "agent"}
    for thread in ("f1", "r1"):
        with pytest.raises(NotAnAgentThread):
            Session(saver).snapshot(thread)


def test_agent_eval_reuses_finished_questions_of_a_run_id_unless_rerun(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], searches: dict[str, Any]
) -> None:
    spec = str(write_dataset(tmp_path / "data"))
    for argv, searched in (([], True), ([], False), (["--rerun"], True)):
        before = len(searches["ran"])
        out = tmp_path / f"out-{len(argv)}-{before}"
        code, _, err = run_cli(
            capsys, "eval", "--dataset", spec, "--run-id", "fixed", "--out", str(out), *argv
        )
        assert code == 0, err
        assert (len(searches["ran"]) > before) == searched
        rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
        assert [row["correct"] for row in rows] == [True, True]
