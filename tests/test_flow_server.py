"""The flow and the router served by the real `langgraph dev`, driven with langgraph-sdk.

An escalation pauses the thread on the server (`interrupt()` inside the flow, or inside the
flow as the router's subgraph) and `command={"resume": ...}` finishes it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_client
from server_utils import langgraph_dev

from graph.flow.graph import RECURSION_LIMIT
from graph.router import router_config

pytestmark = [pytest.mark.server, pytest.mark.slow]

VAGUE = "AC-250-B is dripping water from the indoor unit."
CLEAR = "AC-250-A in a server room: the condensate pump isn't running and the float alarm is lit."
OFF_TOPIC = "How long does standard shipping take?"
ROUTER_LIMIT = router_config("x")["recursion_limit"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = Path(tmp_path_factory.mktemp("langgraph-dev-flow")) / "server.log"
    with langgraph_dev(log) as url:
        yield url


def _interrupts(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Interrupts of a thread state (reported at the top level and per task), once each."""
    found: dict[str, dict[str, Any]] = {}
    for item in [
        *(state.get("interrupts") or []),
        *(i for task in state.get("tasks") or [] for i in task.get("interrupts") or []),
    ]:
        found.setdefault(str(item.get("id")), item)
    return list(found.values())


async def _pause_and_resume(url: str, graph: str, request: str, value: Any) -> dict[str, Any]:
    client = get_client(url=url)
    thread = await client.threads.create()
    limit = RECURSION_LIMIT if graph == "flow" else ROUTER_LIMIT
    config = {"recursion_limit": limit}
    first = await client.runs.wait(
        thread["thread_id"], graph, input={"request": request}, config=config
    )
    paused = await client.threads.get_state(thread["thread_id"])
    final = await client.runs.wait(
        thread["thread_id"], graph, command={"resume": value}, config=config
    )
    done = await client.threads.get_state(thread["thread_id"])
    return {"first": first, "paused": paused, "final": final, "done": done}


async def _wait(url: str, graph: str, request: str, **kwargs: Any) -> dict[str, Any]:
    client = get_client(url=url)
    thread = await client.threads.create()
    return await client.runs.wait(thread["thread_id"], graph, input={"request": request}, **kwargs)


def test_the_server_serves_agent_flow_and_router(server: str) -> None:
    async def graphs() -> set[str]:
        assistants = await get_client(url=server).assistants.search(limit=50)
        return {assistant["graph_id"] for assistant in assistants}

    assert asyncio.run(graphs()) >= {"agent", "flow", "router"}


def test_flow_answers_a_clear_request_on_the_server(server: str) -> None:
    final = asyncio.run(_wait(server, "flow", CLEAR, config={"recursion_limit": RECURSION_LIMIT}))
    assert final["outcome"] == "answered"
    assert (final["fault_code"], final["part_no"]) == ("F-109", "PN-80150")
    assert [entry["stage"] for entry in final["log"]] == [
        "parse", "history", "diagnose", "part", "stock", "compose"
    ]  # fmt: skip


def test_flow_escalation_is_paused_and_resumed_through_the_sdk(server: str) -> None:
    run = asyncio.run(_pause_and_resume(server, "flow", VAGUE, "F-110"))
    paused = run["paused"]
    assert paused["next"] == ["escalate"]
    (payload,) = [i["value"] for i in _interrupts(paused)]
    assert payload["stage"] == "diagnose"
    assert payload["candidates"] == ["F-109", "F-110"]
    final = run["final"]
    assert final["outcome"] == "answered"
    assert (final["fault_code"], final["part_no"]) == ("F-110", "PN-80310")
    assert run["done"]["next"] == []
    assert final["human_decision"]["fault_code"] == "F-110"


def test_router_escalation_is_paused_and_resumed_through_the_sdk(server: str) -> None:
    run = asyncio.run(
        _pause_and_resume(server, "router", VAGUE, {"action": "close", "note": "site visit"})
    )
    paused = run["paused"]
    assert paused["values"]["route"] == "flow"
    assert paused["next"] == ["flow"]
    (payload,) = [i["value"] for i in _interrupts(paused)]
    assert payload["candidates"] == ["F-109", "F-110"]
    final = run["final"]
    assert final["outcome"] == "escalated"
    assert "Closed by a human: site visit" in final["answer"]
    assert run["done"]["next"] == []


def test_router_sends_an_off_topic_question_to_the_agent_on_the_server(server: str) -> None:
    final = asyncio.run(
        _wait(
            server,
            "router",
            OFF_TOPIC,
            context={"model": "policy", "max_steps": 6},
            config={"recursion_limit": ROUTER_LIMIT},
        )
    )
    assert final["route"] == "agent"
    assert final["outcome"] == "answered"
    assert "3 to 5 business days" in final["answer"]
    assert final["citations"] == ["pol-4"]


def test_studio_sees_the_stages_and_can_stop_a_thread_before_one(server: str) -> None:
    async def drawn_and_stepped() -> tuple[set[str], dict[str, Any], dict[str, Any]]:
        client = get_client(url=server)
        (assistant,) = await client.assistants.search(graph_id="flow", limit=1)
        drawing = await client.assistants.get_graph(assistant["assistant_id"])
        thread = await client.threads.create()
        config = {"recursion_limit": RECURSION_LIMIT}
        await client.runs.wait(
            thread["thread_id"],
            "flow",
            input={"request": CLEAR},
            config=config,
            interrupt_before=["diagnose"],
        )
        stopped = await client.threads.get_state(thread["thread_id"])
        final = await client.runs.wait(thread["thread_id"], "flow", input=None, config=config)
        return {node["id"] for node in drawing["nodes"]}, stopped, final

    nodes, stopped, final = asyncio.run(drawn_and_stepped())
    stages = ["parse", "history", "diagnose", "part", "stock", "compose"]
    assert set(stages) | {"escalate"} <= nodes
    assert stopped["next"] == ["diagnose"]
    assert [entry["stage"] for entry in stopped["values"]["log"]] == ["parse", "history"]
    assert final["outcome"] == "answered"
    assert [entry["stage"] for entry in final["log"]] == stages
