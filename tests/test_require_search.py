"""`require_search`: the first model call must be a search (tool_choice), over real HTTP.

langchain-openai talks to the scripted OpenAI-compatible server (`tests/fake_openai.py`), which
records every request, so the tests read what a real server would receive.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from cli_helpers import run_cli
from fake_openai import FakeOpenAI, fake_openai
from langgraph.checkpoint.memory import InMemorySaver

from graph import Context, build_agent
from graph.app.session import Session
from tools import default_tools

QUESTION = "Who leads the team that owns the Atlas scheduler?"
RUN = [
    {"tool": "search_notes", "args": {"query": "Atlas scheduler owner"}, "content": "Look."},
    {"tool": "finish", "args": {"answer": "Fleet Platform", "citations": ["d1"]}, "content": "."},
]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Start the scripted server for `script`; the model `openai:fake-model` talks to it."""
    contexts: list[Any] = []

    def start(script: list[dict[str, Any]]) -> FakeOpenAI:
        context = fake_openai(script)
        server = context.__enter__()
        contexts.append(context)
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("AGENT_MODEL_RETRIES", "0")
        return server

    yield start
    for context in contexts:
        context.__exit__(None, None, None)


def tool_names(request: dict[str, Any]) -> set[str]:
    return {tool["function"]["name"] for tool in request.get("tools", [])}


def test_the_first_call_binds_only_the_searches_with_tool_choice_required(fake: Any) -> None:
    server = fake(RUN)
    session = Session(InMemorySaver())
    result = session.ask(QUESTION, model="openai:fake-model", require_search=True)
    assert result["stopped"] == "answer" and result["steps"] == 2
    first, second = server.requests
    assert first["tool_choice"] == "required"  # what OpenAI-compatible servers call "any"
    assert tool_names(first) == {"search_notes", "search_policy", "search_products"}
    assert "tool_choice" not in second  # later calls may finish or use any tool
    assert {"calculator", "finish"} <= tool_names(second)


def test_without_it_the_model_chooses_freely(fake: Any) -> None:
    server = fake(RUN)
    Session(InMemorySaver()).ask(QUESTION, model="openai:fake-model")
    assert "tool_choice" not in server.requests[0]
    assert "finish" in tool_names(server.requests[0])


def test_ask_require_search_from_the_command_line(
    fake: Any, agent_home: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    server = fake(RUN)
    argv = ("ask", QUESTION, "-m", "openai:fake-model", "--require-search", "--json")
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert server.requests[0]["tool_choice"] == "required"


def test_a_graph_with_no_search_tool_says_so(fake: Any) -> None:
    fake([])
    tools = [t for t in default_tools() if not t.name.startswith("search_")]
    agent = build_agent(model="openai:fake-model", tools=tools)
    context = Context(require_search=True)
    out = agent.invoke({"question": QUESTION}, context.run_config(), context=context)
    assert out["stopped"] == "error" and "no search tool" in out["error"]


def test_the_build_time_prompt_is_sent_with_each_call_and_never_stored(fake: Any) -> None:
    server = fake([*RUN, *RUN])
    saver = InMemorySaver()
    prompt = "You answer for the Orchard team. Your tools:\n{tools}"
    agent = build_agent(model="openai:fake-model", system_prompt=prompt, checkpointer=saver)
    context = Context()
    for _ in range(2):  # two turns on one thread
        agent.invoke({"question": QUESTION}, context.run_config("orchard"), context=context)
    for request in server.requests:
        system = request["messages"][0]
        assert system["role"] == "system"
        assert system["content"].startswith("You answer for the Orchard team.")
        assert "- search_notes:" in system["content"]
        assert [m["role"] for m in request["messages"]].count("system") == 1
    stored = agent.get_state({"configurable": {"thread_id": "orchard"}}).values["messages"]
    assert [m.type for m in stored].count("system") == 0
    assert [m.type for m in stored].count("human") == 2
    own = Context(system_prompt="Per-run prompt. {tools}")
    server.script.extend(RUN)
    agent.invoke({"question": QUESTION}, own.run_config("other"), context=own)
    assert server.requests[-1]["messages"][0]["content"].startswith("Per-run prompt. - search")
