"""A slow, silent or broken model server: one deadline per call, errors that name the server."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from fake_openai import fake_openai
from langgraph.checkpoint.memory import InMemorySaver
from server_utils import free_port

from graph.app.session import Session
from graph.models import deadline

QUESTION = "How many berths does the Quillon marina have?"
EMPTY_CHOICES = {"id": "c1", "object": "chat.completion", "created": 0, "model": "m", "choices": []}


@pytest.fixture
def model_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Start a scripted server and point the openai settings at it."""
    opened: list[Any] = []

    def start(script: list[dict[str, Any]], timeout: str = "5", retries: str = "0") -> Any:
        context = fake_openai(script)
        fake = context.__enter__()
        opened.append(context)
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("AGENT_MODEL_TIMEOUT", timeout)
        monkeypatch.setenv("AGENT_MODEL_RETRIES", retries)
        return fake

    yield start
    for context in opened:
        context.__exit__(None, None, None)


def ask() -> dict[str, Any]:
    return Session(InMemorySaver()).ask(QUESTION, model="openai:fake-model", max_steps=3)


def test_a_server_dripping_its_reply_is_timed_out_for_the_whole_call(model_server: Any) -> None:
    model_server([{"drip": 1.0, "answer": "Forty berths."}], timeout="2")
    result = ask()  # unbounded, the drip takes minutes (and the test times out)
    assert result["stopped"] == "error" and result["answer"] is None
    assert "no complete reply from ChatOpenAI fake-model" in result["error"]
    assert "within 2 s (AGENT_MODEL_TIMEOUT)" in result["error"]


def test_retries_of_a_silent_server_stay_within_one_deadline(model_server: Any) -> None:
    fake = model_server([{"hang": 60}] * 4, timeout="1.5", retries="3")
    result = ask()  # each attempt alone may take 1.5 s: the deadline is for all of them
    assert result["stopped"] == "error" and "within 1.5 s" in result["error"]
    assert len(fake.requests) == 1
    time.sleep(3)  # the abandoned call sends no retry after its deadline
    assert len(fake.requests) == 1


def test_the_cli_says_what_it_waits_for_then_gives_up(
    model_server: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    fake = model_server([{"hang": 30}], timeout="2")
    monkeypatch.setattr(deadline, "NOTICE_AFTER_S", 0.3)
    db = str(tmp_path / "threads.sqlite")
    code, out, err = run_cli(capsys, "ask", QUESTION, "--model", "openai:fake-model", "--db", db)
    assert code == 1
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert notes == [
        f"note: waiting for ChatOpenAI fake-model at {fake.base_url}: no reply after 0.3 s "
        "(giving up after 2 s)"
    ]
    assert "no complete reply" in out


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ({"body": EMPTY_CHOICES}, "its reply has no usable message (no choices)"),
        ({"raw": "<html>gateway error</html>"}, "its reply is not JSON"),
    ],
)
def test_a_malformed_reply_is_an_error_naming_the_server(
    model_server: Any, entry: dict[str, Any], reason: str
) -> None:
    fake = model_server([entry])
    result = ask()
    assert result["stopped"] == "error"
    assert result["error"].startswith(f"model server ChatOpenAI fake-model at {fake.base_url}: ")
    assert reason in result["error"]


def test_a_closed_port_is_a_connection_error_naming_the_url(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("AGENT_MODEL_RETRIES", "0")
    result = ask()
    assert result["stopped"] == "error"
    assert "Connection error." in result["error"] and url in result["error"]


def test_oversized_replies_from_a_real_client_go_back_as_errors(
    model_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_MAX_MESSAGE_CHARS", "5000")
    fake = model_server(
        [
            {"answer": "forty " * 100_000},
            {"tool": "search_notes", "args": {"query": "berths " * 20_000}},
            {"tool": "finish", "args": {"answer": "Forty berths.", "citations": []}},
        ]
    )
    result = ask()
    assert result["stopped"] == "answer" and result["answer"] == "Forty berths."
    last = fake.requests[-1]["messages"]
    errors = [m["content"] for m in last if m["role"] == "tool"]
    assert "the reply is 600,000 characters" in errors[0]
    assert "the arguments are" in errors[1] and "the limit is 5,000" in errors[1]
    assert len(json.dumps(last)) < 40_000  # nothing huge is sent back (or stored)
