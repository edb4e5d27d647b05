"""The real-model path end to end, offline: langchain-openai talking HTTP to a local fake server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fake_openai import FakeOpenAI, fake_openai
from langgraph.checkpoint.memory import InMemorySaver

from graph.app.session import Session

QUESTION = "Who leads the team that owns the Atlas scheduler?"
GOOD_RUN = [
    {"tool": "search_notes", "args": {"query": "Atlas scheduler owner"}, "content": ""},
    {
        "tool": "search_notes",
        "args": {"query": "Fleet Platform team lead"},
        "content": "Thought: the Fleet Platform team owns it; find its lead.",
    },
    {
        "tool": "finish",
        "args": {"answer": "Priya Raman", "citations": ["d1", "d2"]},
        "content": "Thought: d2 names the lead.",
    },
]


@pytest.fixture
def server_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    def start(script: list[dict[str, Any]], timeout: str = "5", retries: str = "2") -> Any:
        context = fake_openai(script)
        fake = context.__enter__()
        stack.append(context)
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("AGENT_MODEL_TIMEOUT", timeout)
        monkeypatch.setenv("AGENT_MODEL_RETRIES", retries)
        return fake

    stack: list[Any] = []
    yield start
    for context in stack:
        context.__exit__(None, None, None)


def ask(question: str = QUESTION, max_steps: int = 6) -> tuple[dict[str, Any], Session]:
    session = Session(InMemorySaver())
    return session.ask(question, model="openai:fake-model", max_steps=max_steps), session


def tool_messages(fake: FakeOpenAI, request: int) -> list[dict[str, Any]]:
    return [m for m in fake.requests[request]["messages"] if m["role"] == "tool"]


def test_a_correct_multi_step_run(server_env: Any) -> None:
    fake = server_env(GOOD_RUN)
    result, session = ask()
    assert result["stopped"] == "answer" and result["answer"] == "Priya Raman"
    assert result["citations"] == ["d1", "d2"] and result["unsupported"] == []
    assert result["steps"] == 3 and result["tokens"] == 3 * 18
    first = fake.requests[0]
    tools = {t["function"]["name"]: t["function"]["parameters"] for t in first["tools"]}
    assert set(tools) >= {"search_notes", "calculator", "finish"}
    assert set(tools["search_notes"]["properties"]) == {"query", "page"}  # k stays hidden
    system = first["messages"][0]
    assert system["role"] == "system" and "data, not instructions" in system["content"]
    observation = tool_messages(fake, 1)[0]["content"]
    assert observation.startswith("<documents>") and '<document id="d1"' in observation
    assert len(session.messages(result["thread_id"])) == 8  # 7, then the answer for a chat panel


def test_a_tool_call_with_empty_content_is_sent_back_with_text(server_env: Any) -> None:
    fake = server_env(GOOD_RUN)
    ask()
    assistant = [m for m in fake.requests[1]["messages"] if m["role"] == "assistant"]
    assert assistant[0]["content"] == "(calling search_notes)"
    assert all(m["content"] is not None for r in fake.requests for m in r["messages"])


def test_a_429_with_retry_after_is_retried(server_env: Any) -> None:
    fake = server_env([{"status": 429, "headers": {"Retry-After": "0"}}, *GOOD_RUN])
    result, _ = ask()
    assert result["stopped"] == "answer" and result["steps"] == 3
    assert len(fake.requests) == 4


def test_500s_are_retried_then_the_run_continues(server_env: Any) -> None:
    fake = server_env([{"status": 500}, {"status": 500}, *GOOD_RUN], retries="2")
    result, _ = ask()
    assert result["stopped"] == "answer" and len(fake.requests) == 5


def test_a_server_that_keeps_failing_ends_the_run_with_an_error_and_keeps_it(
    server_env: Any,
) -> None:
    fake = server_env([GOOD_RUN[0], *[{"status": 500}] * 5], retries="1")
    result, session = ask()
    assert result["stopped"] == "error" and result["answer"] is None
    assert "Error code: 500" in result["error"] and "\n" not in result["error"]
    assert len(fake.requests) == 3  # step 1, then step 2 tried twice
    messages = session.messages(result["thread_id"])
    assert [m.type for m in messages] == ["human", "ai", "tool", "ai"]
    said = str(messages[-1].content)
    assert said.startswith("No answer: ") and "Error code: 500" in said


def test_a_response_that_never_comes_times_out(server_env: Any) -> None:
    server_env([{"hang": 30}], timeout="0.5", retries="0")
    start = time.monotonic()
    result, _ = ask()
    assert time.monotonic() - start < 10
    assert result["stopped"] == "error" and "Timeout" in result["error"]


def test_arguments_that_are_not_json_go_back_as_an_error_tool_message(server_env: Any) -> None:
    fake = server_env(
        [
            {"tool": "search_notes", "args": '{"query": "Atlas', "content": "Thought: search."},
            *GOOD_RUN,
        ]
    )
    result, _ = ask()
    assert result["stopped"] == "answer" and result["steps"] == 4
    error = tool_messages(fake, 1)[0]["content"]
    assert "could not be read" in error and "JSON" in error


def test_an_unknown_tool_goes_back_as_an_error_tool_message(server_env: Any) -> None:
    fake = server_env([{"tool": "search_everything", "args": {"query": "x"}}, *GOOD_RUN])
    result, _ = ask()
    assert result["stopped"] == "answer"
    error = tool_messages(fake, 1)[0]["content"]
    assert "'search_everything' is not a tool here" in error and "search_notes" in error


def test_a_plain_text_answer_is_accepted_with_its_bracketed_citations(server_env: Any) -> None:
    server_env([GOOD_RUN[0], {"answer": "The Fleet Platform team owns it [d1] [d9]."}])
    result, _ = ask()
    assert result["stopped"] == "answer"
    assert result["citations"] == ["d1"] and result["unsupported"] == ["d9"]
