"""Tokens stream to the terminal as a real model writes them, inside the Thought/Action layout.

The model is langchain-openai talking to the local scripted server in streaming mode.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from fake_openai import FakeOpenAI, fake_openai
from langgraph.checkpoint.memory import InMemorySaver

from graph.app.session import Session

QUESTION = "Who leads the team that owns the Atlas scheduler?"
THOUGHT_2 = "Thought: the Fleet Platform team owns it; find its lead."
THOUGHT_3 = "Thought: d2 names the lead."
RUN = [
    {"tool": "search_notes", "args": {"query": "Atlas scheduler owner"}, "content": ""},
    {"tool": "search_notes", "args": {"query": "Fleet Platform team lead"}, "content": THOUGHT_2},
    {
        "tool": "finish",
        "args": {"answer": "Priya Raman", "citations": ["d1", "d2"]},
        "content": THOUGHT_3,
    },
]


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    """The scripted OpenAI-compatible server (two runs' worth), with the client pointed at it."""
    with fake_openai(RUN * 2) as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("AGENT_MODEL_TIMEOUT", "10")
        monkeypatch.setenv("AGENT_MODEL_RETRIES", "0")
        yield fake


def test_thought_chunks_are_written_while_the_run_goes_on(server: FakeOpenAI) -> None:
    events: list[tuple[str, Any, int]] = []
    session = Session(
        InMemorySaver(),
        on_token=lambda text: events.append(("token", text, len(server.requests))),
    )
    result = session.ask(
        QUESTION,
        model="openai:fake-model",
        on_lines=lambda lines: events.append(("lines", lines, len(server.requests))),
    )
    assert result["answer"] == "Priya Raman"
    assert all(request.get("stream") for request in server.requests)  # the model streamed

    # each thought arrived in several chunks, while its own model call was the latest one:
    # the chunks of step 2 were written before step 3 was even asked for
    tokens = [(text, seen) for kind, text, seen in events if kind == "token"]
    step2 = [text for text, seen in tokens if seen == 2 and text.strip()]
    assert len(step2) > 3 and "".join(step2).strip() == f"Thought: {THOUGHT_2}"
    assert all(seen <= 3 for _, seen in tokens)

    # the screen reads as the usual trace: a step header, the Thought streamed, then the rest
    screen = ""
    for kind, payload, _ in events:
        screen += payload if kind == "token" else "".join(line + "\n" for line in payload)
    lines = screen.splitlines()
    assert lines[lines.index("  Step 2") + 1] == f"    Thought: {THOUGHT_2}"
    assert lines[lines.index("  Step 2") + 2].startswith('    Action: search_notes("Fleet')
    assert screen.count(THOUGHT_2) == 1 and screen.count("  Step 2") == 1
    assert lines[lines.index("  Step 1") + 1] == "    Thought: "  # no content: nothing streamed


def test_the_cli_streams_the_same_trace_replay_prints(
    server: FakeOpenAI, agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, live, err = run_cli(capsys, "ask", QUESTION, "-m", "openai:fake-model")
    assert code == 0, err
    assert all(request.get("stream") for request in server.requests)
    thread = live.rstrip().split()[-1]
    code, replayed, err = run_cli(capsys, "replay", thread)
    assert code == 0, err
    assert replayed.splitlines() == live.splitlines()[:-1]
    assert f"    Thought: {THOUGHT_3}" in replayed.splitlines()


def test_json_and_quiet_print_no_tokens(
    server: FakeOpenAI, agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "ask", QUESTION, "-m", "openai:fake-model", "--json")
    assert code == 0, err
    assert json.loads(out)["answer"] == "Priya Raman"
    assert len(out.splitlines()) == 1 and "Thought" not in out
    code, out, err = run_cli(capsys, "ask", QUESTION, "-m", "openai:fake-model", "--quiet")
    assert (code, out, err) == (0, "Priya Raman\n", "")
    assert len(server.requests) == 6
