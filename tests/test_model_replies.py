"""What a model may send: size caps (AGENT_MAX_MESSAGE_CHARS) and a finish without an answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.agent.replies import vet_reply
from graph.models.scripted import ScriptedModel

QUESTION = "What colour is the Marlow lighthouse?"
LIMIT = 2_000


def run_script(*turns: Any, max_steps: int = 6) -> tuple[dict[str, Any], list[Any]]:
    """Run scripted turns on a fresh thread; the result and the stored transcript."""
    agent = build_agent(model=ScriptedModel(turns=list(turns)), checkpointer=InMemorySaver())
    result = agent.invoke(
        {"question": QUESTION}, run_config(max_steps, "t1"), context=Context(max_steps=max_steps)
    )
    messages = agent.get_state({"configurable": {"thread_id": "t1"}}).values["messages"]
    return result, messages


def errors_seen(messages: list[Any]) -> list[str]:
    return [str(m.content) for m in messages if isinstance(m, ToolMessage) and m.status == "error"]


def stored_size(messages: list[Any]) -> int:
    return len(json.dumps([m.model_dump() for m in messages], default=str))


FINISH_OK = {"thought": "done", "tool": "finish", "args": {"answer": "White", "citations": []}}


@pytest.mark.parametrize("args", [{}, {"answer": ""}, {"answer": None, "citations": []}])
def test_finish_without_an_answer_is_a_decline(args: dict[str, Any]) -> None:
    result, messages = run_script({"thought": "t", "tool": "finish", "args": args}, FINISH_OK)
    assert result["stopped"] == "no_answer" and result["answer"] is None
    assert result["steps"] == 1 and errors_seen(messages) == []


def test_the_trace_shows_a_decline_and_quiet_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "turns.json"
    path.write_text(json.dumps([{"thought": "t", "tool": "finish", "args": {}}, FINISH_OK]))
    db = str(tmp_path / "t.sqlite")
    code, out, _ = run_cli(capsys, "ask", QUESTION, "--model", f"scripted:{path}", "--db", db)
    assert code == 0 and "Step 2" not in out
    assert "NO ANSWER:" in out and "(1 step, 0 retrievals)" in out
    code, out, err = run_cli(
        capsys, "ask", QUESTION, "--model", f"scripted:{path}", "--db", db, "-q"
    )
    assert code == 1 and out == "" and err.startswith("error: no answer")


def test_a_huge_tool_argument_is_not_run_and_not_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MAX_MESSAGE_CHARS", str(LIMIT))
    huge = {"thought": "t", "tool": "search_notes", "args": {"query": "x" * 1_000_000}}
    result, messages = run_script(huge, FINISH_OK)
    assert result["stopped"] == "answer" and result["steps"] == 2
    errors = errors_seen(messages)
    assert len(errors) == 1 and f"the limit is {LIMIT:,}" in errors[0]
    assert stored_size(messages) < 20_000


def test_a_huge_plain_answer_is_cut_and_the_model_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AGENT_MAX_MESSAGE_CHARS", str(LIMIT))
    result, messages = run_script({"content": "blah " * 200_000}, FINISH_OK)
    assert result["stopped"] == "answer" and result["answer"] == "White"
    assert any("the reply is 1,000,000 characters" in text for text in errors_seen(messages))
    assert stored_size(messages) < 20_000


def test_a_long_thought_with_a_tool_call_is_cut_with_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AGENT_MAX_MESSAGE_CHARS", str(LIMIT))
    thought = {"thought": "y" * 50_000, "tool": "calculator", "args": {"expression": "2+2"}}
    result, messages = run_script(thought, FINISH_OK)
    first = [m for m in messages if isinstance(m, AIMessage)][0]
    assert len(first.content) < LIMIT + 100 and "[cut: the message was 50,000" in first.content
    assert first.tool_calls[0]["name"] == "calculator"  # the call still runs
    assert result["stopped"] == "answer"


def test_a_bad_limit_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MAX_MESSAGE_CHARS", "lots")
    result, _ = run_script(FINISH_OK)
    assert result["stopped"] == "error"
    assert "AGENT_MAX_MESSAGE_CHARS must be a number" in result["error"]


def test_a_reply_within_the_limits_is_kept_as_is() -> None:
    reply = AIMessage(
        content="thinking",
        tool_calls=[{"name": "finish", "args": {"answer": "a"}, "id": "c1", "type": "tool_call"}],
    )
    assert vet_reply(reply, LIMIT) is reply


def test_raw_invalid_arguments_are_clipped() -> None:
    reply = AIMessage(
        content="",
        invalid_tool_calls=[
            {"name": "search_notes", "args": "{" * 10_000, "id": "c1", "error": None}
        ],
    )
    kept = vet_reply(reply, LIMIT)
    assert isinstance(kept, AIMessage) and len(str(kept.invalid_tool_calls[0]["args"])) < 300


def test_other_calls_beside_an_invalid_one_are_answered_as_not_run() -> None:
    both = AIMessage(
        content="search and finish at once",
        tool_calls=[
            {
                "name": "search_notes",
                "args": {"query": "lighthouse"},
                "id": "s1",
                "type": "tool_call",
            },
        ],
        invalid_tool_calls=[
            {
                "name": "finish",
                "args": "{not json",
                "id": "f1",
                "error": "bad JSON",
                "type": "invalid_tool_call",
            }
        ],
    )
    result, messages = run_script(both, FINISH_OK)
    assert result["stopped"] == "answer" and result["answer"] == "White"
    calls = [c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    calls += [c["id"] for m in messages if isinstance(m, AIMessage) for c in m.invalid_tool_calls]
    answered = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
    assert sorted(calls) == sorted(answered)  # every call has exactly one reply
    not_run = [m for m in messages if isinstance(m, ToolMessage) and m.tool_call_id == "s1"]
    assert "another call in the same reply could not be read" in str(not_run[0].content)
