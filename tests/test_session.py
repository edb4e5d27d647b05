"""`graph.app.session.Session`: ask, threads, result, replay, fork, resume over a checkpointer."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.transcript import current_turn
from graph.app.agent_threads import UnknownThread
from graph.app.render_trace import render_result, render_turn
from graph.app.session import Session
from tools.search import SearchTool

NOTES = Path(__file__).parents[1] / "evals" / "datasets" / "notes.jsonl"
NOTES_QUESTIONS = [
    row
    for row in map(json.loads, NOTES.read_text(encoding="utf-8").splitlines())
    if "question" in row
]
RESULT_KEYS = {
    "answer",
    "short_answer",
    "support",
    "confident",
    "doubts",
    "citations",
    "unsupported",
    "steps",
    "stopped",
    "error",
    "retrieved",
    "tokens",
    "grounded",
    "ungrounded",
    "thread_id",
}
TWO_HOP = "Who leads the team that owns the Atlas scheduler?"
ScriptFile = Callable[..., str]


@pytest.fixture
def session(checkpointer: BaseCheckpointSaver) -> Session:
    """A Session over the built-in corpora on the parametrized checkpointer."""
    return Session(checkpointer)


def lines_of(session: Session, result: dict[str, Any]) -> list[str]:
    """The step lines `render_turn` gives for the stored latest turn (no goal header)."""
    turn = current_turn(session.messages(result["thread_id"]))
    return render_turn(turn, None)[2:]


def shape(messages: list[AnyMessage]) -> list[tuple[str, str, Any]]:
    """A transcript reduced to what a resume must reproduce (no generated message ids)."""
    rows: list[tuple[str, str, Any]] = []
    for message in messages:
        if isinstance(message, AIMessage):
            rows.append(
                ("ai", str(message.content), [(c["id"], c["args"]) for c in message.tool_calls])
            )
        elif isinstance(message, ToolMessage):
            rows.append(("tool", str(message.content), message.tool_call_id))
        else:
            rows.append((message.type, str(message.content), None))
    return rows


def scripted_two_hop(script_file: ScriptFile) -> str:
    """A scripted model that answers the two-hop Atlas question in three steps."""
    return script_file(
        ("search_notes", {"query": "Atlas owner"}),
        ("search_notes", {"query": "Fleet Platform lead"}),
        ("finish", {"answer": "Priya Raman", "citations": ["d1", "d2"]}),
    )


# --- ask, result, threads ------------------------------------------------------------------


@pytest.mark.parametrize("row", NOTES_QUESTIONS, ids=[row["id"] for row in NOTES_QUESTIONS])
def test_ask_answers_the_notes_questions(session: Session, row: dict[str, Any]) -> None:
    result = session.ask(row["question"])
    assert set(result) == RESULT_KEYS
    assert result["stopped"] == "answer"
    assert any(answer.lower() in result["answer"].lower() for answer in row["answers"])
    assert set(row["supporting"]) <= set(result["citations"])
    assert result["unsupported"] == []
    assert 1 <= result["steps"] <= 6
    assert session.result(result["thread_id"]) == result
    assert result["thread_id"] in {t.thread_id for t in session.threads()}


def test_ask_saves_the_transcript(session: Session) -> None:
    result = session.ask("what's our refund window?")
    messages = session.messages(result["thread_id"])
    assert [m.type for m in messages] == ["human", "ai", "tool", "ai", "tool", "ai"]
    assert messages[0].content == "what's our refund window?"
    assert messages[-1].content == f"{result['answer']} [pol-1]"
    assert result["citations"] == ["pol-1"]


def test_threads_are_listed_newest_first(session: Session) -> None:
    questions = [
        "what's our refund window?",
        "What is 18% of a $250 order?",
        "How many times does Atlas retry a failed job?",
    ]
    ids = [session.ask(question)["thread_id"] for question in questions]
    listed = session.threads()
    assert [t.thread_id for t in listed][:3] == ids[::-1]
    newest = listed[0]
    assert newest.question == questions[-1]
    assert newest.steps == 2 and newest.stopped == "answer"
    assert newest.answer == session.result(ids[-1])["answer"]
    assert len(session.threads(limit=2)) == 2


def test_an_explicit_thread_id_is_used_and_continued(session: Session) -> None:
    first = session.ask("what's our refund window?", thread_id="support-1")
    second = session.ask("What is 18% of a $250 order?", thread_id="support-1")
    assert first["thread_id"] == second["thread_id"] == "support-1"
    assert second["steps"] == 2 and second["retrieved"] == {}
    assert [m.type for m in session.messages("support-1")].count("human") == 2
    assert [t.thread_id for t in session.threads()].count("support-1") == 1


def test_unknown_thread(session: Session) -> None:
    for read in (session.result, session.messages, session.snapshot, session.resume):
        with pytest.raises(UnknownThread, match="no thread 'never-seen'"):
            read("never-seen")
    with pytest.raises(UnknownThread):
        session.fork("never-seen", 1)


@pytest.mark.parametrize("bad", ["../etc/passwd", "a/b", "", " t1", "x" * 129, "t1\n"])
def test_bad_thread_id(session: Session, bad: str) -> None:
    with pytest.raises(ValueError, match="bad thread id"):
        session.result(bad)
    if bad:
        with pytest.raises(ValueError, match="bad thread id"):
            session.ask("what's our refund window?", thread_id=bad)


def test_a_bad_question_is_refused_before_any_run(session: Session) -> None:
    with pytest.raises(ValueError, match="the question is empty"):
        session.ask("   ")
    assert session.threads() == []


# --- replay equals live ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "max_steps"),
    [
        (TWO_HOP, 6),
        ("What is 18% of a $250 order?", 6),
        ("what's our refund window?", 6),
        (TWO_HOP, 1),
        (TWO_HOP, 2),
    ],
    ids=["two-hop", "arithmetic", "routing", "budget-1", "budget-2"],
)
def test_replay_prints_what_the_live_run_printed(
    session: Session, question: str, max_steps: int
) -> None:
    live: list[str] = []
    result = session.ask(question, max_steps=max_steps, on_lines=live.extend)
    assert live and live[0] == "  Step 1"
    assert live == lines_of(session, result)
    turn = current_turn(session.messages(result["thread_id"]))
    assert render_turn(turn, result)[-len(render_result(result, turn)) :] == render_result(
        result, turn
    )


def test_live_lines_of_a_second_question_on_a_thread_are_its_own(session: Session) -> None:
    session.ask("what's our refund window?", thread_id="two-turns")
    live: list[str] = []
    result = session.ask(
        "What is 18% of a $250 order?", thread_id="two-turns", on_lines=live.extend
    )
    assert '    Action: calculator("0.18 * 250")' in live
    assert live == lines_of(session, result)


def test_replay_of_an_errored_run_equals_live(session: Session, script_file: ScriptFile) -> None:
    model = script_file(("search_notes", {"query": "Beacon"}))
    live: list[str] = []
    result = session.ask("Who owns Beacon?", model=model, on_lines=live.extend)
    assert result["stopped"] == "error" and "ScriptExhausted" in result["error"]
    assert live == lines_of(session, result)


# --- fork ---------------------------------------------------------------------------------------


def test_fork_reruns_from_a_step_and_keeps_the_old_branch(
    session: Session, script_file: ScriptFile
) -> None:
    original = scripted_two_hop(script_file)
    shortcut = script_file(
        ("search_notes", {"query": "Atlas owner"}),
        ("finish", {"answer": "Fleet Platform", "citations": ["d1"]}),
    )
    first = session.ask(TWO_HOP, model=original)
    thread = first["thread_id"]
    assert (first["answer"], first["steps"]) == ("Priya Raman", 3)
    before = shape(session.messages(thread))

    lines: list[str] = []
    forked = session.fork(thread, 2, model=shortcut, on_lines=lines.extend)
    assert forked["thread_id"] == thread
    assert (forked["answer"], forked["citations"], forked["steps"]) == ("Fleet Platform", ["d1"], 2)
    assert lines[0] == "  Step 2"
    assert "finish" in "\n".join(lines)
    after = shape(session.messages(thread))
    assert after[:3] == before[:3]
    assert len(after) == 6  # question, search, result, finish, "Finished.", answer

    history = list(session.graph.get_state_history({"configurable": {"thread_id": thread}}))
    answers = {h.values.get("answer") for h in history if h.values.get("stopped") == "answer"}
    assert answers == {"Priya Raman", "Fleet Platform"}
    assert session.result(thread)["answer"] == "Fleet Platform"


def test_fork_at_step_one_with_the_same_model_reproduces_the_run(session: Session) -> None:
    first = session.ask(TWO_HOP)
    again = session.fork(first["thread_id"], 1)
    assert {k: again[k] for k in ("answer", "citations", "steps")} == {
        k: first[k] for k in ("answer", "citations", "steps")
    }


def test_fork_outside_the_turn_is_refused(session: Session) -> None:
    thread = session.ask("What is 18% of a $250 order?")["thread_id"]
    with pytest.raises(ValueError, match="cannot fork at 3"):
        session.fork(thread, 3)
    with pytest.raises(ValueError):
        session.fork(thread, 0)


# --- resume after a crash ---------------------------------------------------------------


def test_resume_finishes_an_interrupted_run_without_repeating_a_step(
    session: Session, script_file: ScriptFile
) -> None:
    model = scripted_two_hop(script_file)
    reference = session.ask(TWO_HOP, model=model, thread_id="reference")

    session.graph.invoke(
        {"question": TWO_HOP},
        run_config(6, "crashed"),
        context=Context(model=model),
        interrupt_before=["act"],
    )
    stopped = session.snapshot("crashed")
    assert stopped.next == ("act",) and stopped.values["steps"] == 1

    result = session.resume("crashed", model=model)
    for key in ("answer", "citations", "unsupported", "steps", "stopped", "retrieved"):
        assert result[key] == reference[key]
    assert shape(session.messages("crashed")) == shape(session.messages("reference"))


def test_resume_of_a_finished_thread_returns_its_result(session: Session) -> None:
    first = session.ask("what's our refund window?")
    assert session.resume(first["thread_id"]) == first


class Crash(BaseException):
    """A process dying mid-tool: not an Exception, so no error handler turns it into data."""


@pytest.fixture
def crash_second_search(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make the second search of the process crash once; returns the queries that ran."""
    ran: list[str] = []
    original = SearchTool._run

    def flaky(self: SearchTool, query: str, *args: Any, **kwargs: Any) -> Any:
        ran.append(query)
        if len(ran) == 2:
            raise Crash("power cut")
        return original(self, query, *args, **kwargs)

    monkeypatch.setattr(SearchTool, "_run", flaky)
    return ran


def test_asking_again_after_a_crash_resumes_from_the_last_checkpoint(
    checkpointer: BaseCheckpointSaver, crash_second_search: list[str]
) -> None:
    session = Session(checkpointer)
    question = "Who leads the team that owns Beacon?"
    with pytest.raises(Crash):
        session.ask(question, thread_id="crash-1")
    assert session.snapshot("crash-1").next == ("act",)
    assert session.snapshot("crash-1").values["steps"] == 2

    result = session.ask(question, thread_id="crash-1")
    assert result["stopped"] == "answer" and "Tomas Ekberg" in result["answer"]
    assert result["steps"] == 3
    messages = session.messages("crash-1")
    assert [m.type for m in messages] == ["human", *["ai", "tool"] * 3, "ai"]
    calls = [c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    assert len(set(calls)) == 3
    assert [m.tool_call_id for m in messages if isinstance(m, ToolMessage)] == calls
    first, second = crash_second_search[0], crash_second_search[1]
    assert crash_second_search == [first, second, second]


def test_a_different_question_on_an_interrupted_thread_starts_a_new_turn(
    session: Session,
) -> None:
    session.graph.invoke(
        {"question": "Who leads the team that owns Beacon?"},
        run_config(6, "half-done"),
        context=Context(),
        interrupt_before=["act"],
    )
    result = session.ask("what's our refund window?", thread_id="half-done")
    assert result["citations"] == ["pol-1"]
    messages = session.messages("half-done")
    assert messages[-6].type == "human" and messages[-6].content == "what's our refund window?"
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    asked = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
    assert asked == answered


def test_session_k_reaches_the_searches() -> None:
    narrow = Session(InMemorySaver(), k=1).ask("what's our refund window?")
    wide = Session(InMemorySaver(), k=2).ask("what's our refund window?")
    assert narrow["retrieved"] == {"search_policy": ["pol-1"]}
    assert wide["retrieved"] == {"search_policy": ["pol-1", "pol-2"]}
