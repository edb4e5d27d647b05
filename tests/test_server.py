"""The agent served by the real `langgraph dev`, driven with langgraph-sdk over 127.0.0.1."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from langgraph_sdk import get_client
from server_utils import langgraph_dev

from graph.agent.budget import recursion_limit_for

pytestmark = [pytest.mark.server, pytest.mark.slow]

GOAL = "what is the warranty on the earbuds made by the company that acquired Acme?"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = Path(tmp_path_factory.mktemp("langgraph-dev")) / "server.log"
    with langgraph_dev(log) as url:
        yield url


async def _run_goal(url: str, question: str, max_steps: int) -> tuple[dict, dict, list]:
    client = get_client(url=url)
    thread = await client.threads.create()
    final = await client.runs.wait(
        thread["thread_id"],
        "agent",
        input={"question": question},
        context={"model": "policy", "max_steps": max_steps},
        config={"recursion_limit": recursion_limit_for(max_steps)},
    )
    state = await client.threads.get_state(thread["thread_id"])
    history = await client.threads.get_history(thread["thread_id"], limit=50)
    return final, state, history


def test_a_seed_goal_runs_on_the_server_with_its_state_and_history(server: str) -> None:
    final, state, history = asyncio.run(_run_goal(server, GOAL, 6))
    assert final["stopped"] == "answer"
    assert "Globex" in final["answer"] and "2-year" in final["answer"]
    assert final["citations"] == ["prod-1", "prod-3"] and final["unsupported"] == []
    values = state["values"]
    calls = [
        m["tool_calls"][0] for m in values["messages"] if m["type"] == "ai" and m["tool_calls"]
    ]
    assert [c["name"] for c in calls] == ["search_products", "search_products", "finish"]
    said = values["messages"][-1]  # the answer a chat panel shows, with its citations
    assert said["type"] == "ai" and said["content"] == f"{final['answer']} [prod-1] [prod-3]"
    assert calls[0]["args"] == {"query": "who acquired Acme"}
    assert "Globex" in calls[1]["args"]["query"]
    assert values["steps"] == 3 and state["next"] == []
    assert len(history) >= 7  # input, start, reason x3, act x2, finish
    assert {tuple(h["next"]) for h in history} >= {("reason",), ("act",), ("finish",)}


def test_the_server_honours_the_step_budget_from_the_context(server: str) -> None:
    final, state, _ = asyncio.run(_run_goal(server, GOAL, 1))
    # one step leaves no room to search: the policy read the budget and declines at once
    assert final["stopped"] == "no_answer" and final["answer"] is None
    assert state["values"]["steps"] == 1 and final["citations"] == []
