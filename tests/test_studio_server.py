"""Studio's view of the real `langgraph dev`: schemas, chat messages, live streams, bad input.

Driven with langgraph-sdk over 127.0.0.1, as Studio and Agent Chat UI drive it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_client
from server_utils import langgraph_dev

from graph.agent.budget import recursion_limit_for
from graph.flow.graph import RECURSION_LIMIT as FLOW_LIMIT
from graph.flow.stages import NO_REQUEST

pytestmark = [pytest.mark.server, pytest.mark.slow]

REFUND = "what's our refund window?"
SHIPPING = "How long does standard shipping take?"
TWO_HOP = "Who leads the team that owns Beacon?"
CONFIG = {"recursion_limit": recursion_limit_for(6)}


@pytest.fixture(scope="module")
def server_and_log(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    log = Path(tmp_path_factory.mktemp("langgraph-dev-studio")) / "server.log"
    with langgraph_dev(log) as url:
        yield url, log


@pytest.fixture
def server(server_and_log: tuple[str, Path]) -> str:
    return server_and_log[0]


def test_get_schemas_names_the_input_fields_of_every_graph(server: str) -> None:
    async def schemas() -> dict[str, dict[str, Any]]:
        client = get_client(url=server)
        found = {}
        for graph in ("agent", "flow", "router"):
            (assistant,) = await client.assistants.search(graph_id=graph, limit=1)
            found[graph] = await client.assistants.get_schemas(assistant["assistant_id"])
        return found

    found = asyncio.run(schemas())
    inputs = {"agent": {"question", "messages"}, "flow": {"request", "messages"}}
    inputs["router"] = inputs["flow"]
    for graph, fields in inputs.items():
        assert found[graph]["input_schema"] is not None, graph
        assert found[graph]["output_schema"] is not None, graph
        assert set(found[graph]["input_schema"]["properties"]) == fields
        assert "answer" in found[graph]["output_schema"]["properties"]
    assert "messages" in found["agent"]["output_schema"]["properties"]


async def _chat(url: str, *questions: str) -> list[dict[str, Any]]:
    """Each question as a chat message on one thread; the thread's messages after each turn."""
    client = get_client(url=url)
    thread = await client.threads.create()
    after = []
    for question in questions:
        await client.runs.wait(
            thread["thread_id"],
            "agent",
            input={"messages": [{"role": "user", "content": question}]},
            config=CONFIG,
        )
        state = await client.threads.get_state(thread["thread_id"])
        after.append(state["values"])
    return after


def test_a_chat_panel_reads_the_answer_as_the_last_ai_message_turn_after_turn(
    server: str,
) -> None:
    first, second = asyncio.run(_chat(server, REFUND, SHIPPING))
    last = first["messages"][-1]
    assert last["type"] == "ai" and "30 days" in last["content"]
    assert last["content"].endswith("[pol-1]") and first["question"] == REFUND
    last = second["messages"][-1]
    assert last["type"] == "ai" and "business days" in last["content"]
    assert "[pol-4]" in last["content"] and second["question"] == SHIPPING
    humans = [m["content"] for m in second["messages"] if m["type"] == "human"]
    assert humans == [REFUND, SHIPPING]


async def _stream(url: str, mode: str) -> list[tuple[str, Any]]:
    client = get_client(url=url)
    thread = await client.threads.create()
    return [
        (part.event, part.data)
        async for part in client.runs.stream(
            thread["thread_id"],
            "agent",
            input={"question": TWO_HOP},
            config=CONFIG,
            stream_mode=mode,
        )
    ]


def _tool_calls(messages: list[dict[str, Any]]) -> list[str]:
    return [c["name"] for m in messages if m.get("type") == "ai" for c in m.get("tool_calls") or []]


def test_the_updates_stream_shows_each_tool_call_and_observation_as_it_happens(
    server: str,
) -> None:
    events = [(e, d) for e, d in asyncio.run(_stream(server, "updates")) if e == "updates"]
    nodes = [next(iter(data)) for _, data in events]
    assert nodes[0] == "reason" and nodes[-1] == "finish" and "act" in nodes
    first = events[0][1]["reason"]
    assert _tool_calls(first["messages"])[0].startswith("search_")  # before the run ends
    observation = events[nodes.index("act")][1]["act"]["messages"][0]
    assert observation["type"] == "tool" and "[" in observation["content"]
    calls = [
        name
        for _, data in events
        for name in _tool_calls(data[next(iter(data))].get("messages") or [])
    ]
    assert calls[-1] == "finish" and len(calls) >= 3  # two searches (two hops), then finish


def test_the_values_stream_grows_the_transcript_step_by_step(server: str) -> None:
    values = [d for e, d in asyncio.run(_stream(server, "values")) if e == "values"]
    calls_seen = [len(_tool_calls(v.get("messages") or [])) for v in values]
    assert calls_seen[-1] >= 3 and 1 in calls_seen  # the first call was sent on its own
    assert values[-1]["stopped"] == "answer" and "Tomas Ekberg" in values[-1]["answer"]


async def _run(url: str, graph: str, payload: Any, limit: int) -> dict[str, Any]:
    client = get_client(url=url)
    thread = await client.threads.create()
    return await client.runs.wait(
        thread["thread_id"], graph, input=payload, config={"recursion_limit": limit},
        raise_error=False,
    )  # fmt: skip


@pytest.mark.parametrize("limit", [1, 2])
def test_a_tiny_recursion_limit_is_a_clear_error_not_a_graph_recursion_error(
    server: str, limit: int
) -> None:
    out = asyncio.run(_run(server, "agent", {"question": REFUND}, limit))
    text = str(out)
    assert "GraphRecursionError" not in text
    assert "recursion_limit" in text and "at least" in text


def test_a_string_input_is_a_clear_error(server: str) -> None:
    out = asyncio.run(_run(server, "agent", REFUND, 13))
    error = out["__error__"]
    assert error["error"] == "ValueError"
    assert error["message"].startswith('the input of agent must be an object with "question"')
    assert "InvalidUpdateError" not in str(out)


def test_the_flow_with_an_empty_input_says_what_it_needs(server: str) -> None:
    out = asyncio.run(_run(server, "flow", {}, FLOW_LIMIT))
    assert out["outcome"] == "aborted" and out["reason"] == NO_REQUEST
    assert "KeyError" not in str(out)


def test_the_server_log_has_no_typeddict_warning(server_and_log: tuple[str, Path]) -> None:
    url, log = server_and_log
    asyncio.run(_chat(url, REFUND))
    text = log.read_text(errors="replace")
    assert "typing_extensions.TypedDict" not in text
    assert "Traceback" not in text or "ValueError: the input of agent" in text
