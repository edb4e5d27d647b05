"""Hostile run inputs sent to the real `langgraph dev` with langgraph-sdk: one line each.

Each graph checks its own least recursion limit; a resume value the flow cannot use says why;
a null resume, a resume of a thread that is not paused, a context field of the wrong type and
a message whose content is a number are refused before LangGraph or a node raises.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_client
from server_utils import langgraph_dev

from graph.agent.budget import recursion_limit_for
from graph.flow.graph import RECURSION_LIMIT as FLOW_LIMIT
from graph.router import router_config

pytestmark = [pytest.mark.server, pytest.mark.slow]
VAGUE = "AC-250-B is dripping water from the indoor unit."
CLEAR = "AC-250-A in a server room: the condensate pump isn't running and the float alarm is lit."
REFUND = "what's our refund window?"
ROUTER_LIMIT = router_config("x")["recursion_limit"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = Path(tmp_path_factory.mktemp("langgraph-dev-inputs")) / "server.log"
    with langgraph_dev(log) as url:
        yield url


async def _run(url: str, graph: str, limit: int, thread: str | None = None, **run: Any) -> Any:
    """One run on a (new) thread; the SDK's answer, errors included."""
    client = get_client(url=url)
    if thread is None:
        thread = (await client.threads.create())["thread_id"]
    return await client.runs.wait(
        thread, graph, config={"recursion_limit": limit}, raise_error=False, **run
    )


def error_of(out: Any) -> str:
    """The run's error message (one line), failing when the run did not fail."""
    assert isinstance(out, dict) and "__error__" in out, out
    message = str(out["__error__"]["message"])
    assert "\n" not in message and "GraphRecursionError" not in str(out)
    assert "errors.pydantic.dev" not in str(out) and "Traceback" not in str(out)
    return message


@pytest.mark.parametrize(("graph", "request_"), [("flow", CLEAR), ("router", CLEAR)])
def test_each_graph_checks_its_own_least_recursion_limit(
    server: str, graph: str, request_: str
) -> None:
    for limit in (2, FLOW_LIMIT - 1):
        out = asyncio.run(_run(server, graph, limit, input={"request": request_}))
        message = error_of(out)
        assert f"recursion_limit must be an integer of at least {FLOW_LIMIT}" in message
        assert f"got {limit}" in message
    done = asyncio.run(_run(server, graph, FLOW_LIMIT, input={"request": request_}))
    assert done["outcome"] == "answered"


BAD_RESUMES = [
    (123, "cannot act on 123 (int)"),
    ([1, 2], "cannot act on [1, 2] (list)"),
    ({"action": "rm -rf"}, "cannot act on {'action': 'rm -rf'}"),
    ({"action": "close", "part": "PN-1"}, "unexpected keys ['part']"),
    ({"fault_code": "F-999"}, "unknown fault code F-999"),
    ("F" * 100_000, "is not a fault code like F-109"),
]


async def _refused(url: str, graph: str, limit: int) -> list[Any]:
    """Pause a thread, resume it with each bad value; its state after each."""
    client = get_client(url=url)
    thread = (await client.threads.create())["thread_id"]
    config = {"recursion_limit": limit}
    await client.runs.wait(thread, graph, input={"request": VAGUE}, config=config)
    seen = []
    for value, _ in BAD_RESUMES:
        await client.runs.wait(thread, graph, command={"resume": value}, config=config)
        seen.append(await client.threads.get_state(thread, subgraphs=True))
    return seen


@pytest.mark.parametrize(("graph", "limit"), [("flow", FLOW_LIMIT), ("router", ROUTER_LIMIT)])
def test_a_resume_value_that_cannot_be_used_says_why(server: str, graph: str, limit: int) -> None:
    for state, (value, words) in zip(
        asyncio.run(_refused(server, graph, limit)), BAD_RESUMES, strict=True
    ):
        interrupts = [
            *(state.get("interrupts") or []),
            *(i for task in state.get("tasks") or [] for i in task.get("interrupts") or []),
        ]
        assert interrupts, f"{value!r}: the thread is no longer paused"
        assert all(words in i["value"]["error"] for i in interrupts), (value, interrupts)
        values = state["values"]
        if graph == "router":  # the paused flow is the router's subgraph: its messages are there
            values = state["tasks"][0]["state"]["values"]
        last = values["messages"][-1]
        assert last["type"] == "ai" and last["content"].startswith("Resume refused: ")
        assert words in last["content"] and len(last["content"]) < 400


def test_a_null_resume_is_one_line(server: str) -> None:
    async def pause() -> str:
        client = get_client(url=server)
        thread = (await client.threads.create())["thread_id"]
        config = {"recursion_limit": FLOW_LIMIT}
        await client.runs.wait(thread, "flow", input={"request": VAGUE}, config=config)
        return str(thread)

    thread = asyncio.run(pause())
    body = {"assistant_id": "flow", "command": {"resume": None},
            "config": {"recursion_limit": FLOW_LIMIT}}  # fmt: skip
    out = httpx.post(f"{server}/threads/{thread}/runs/wait", json=body, timeout=60).json()
    assert error_of(out) == "cannot resume flow with null: send the value the pause asks for"
    state = httpx.get(f"{server}/threads/{thread}/state", timeout=60).json()
    assert any(task.get("interrupts") for task in state.get("tasks") or [])  # still paused


def test_resuming_a_fresh_agent_thread_is_one_line(server: str) -> None:
    out = asyncio.run(_run(server, "agent", recursion_limit_for(3), command={"resume": "x"}))
    assert "is not paused: there is nothing to resume" in error_of(out)
    assert "TypeError" not in str(out)


def test_a_context_field_of_the_wrong_type_is_one_line(server: str) -> None:
    out = asyncio.run(
        _run(
            server,
            "agent",
            recursion_limit_for(3),
            input={"question": REFUND},
            context={"system_prompt": 5},
        )  # fmt: skip
    )
    message = error_of(out)  # the context's own check or the checked graph's, one line either way
    assert message in ("system_prompt must be text",
                       "context field 'system_prompt' must be a string, got int 5")  # fmt: skip
    assert "AttributeError" not in str(out)


def test_a_message_whose_content_is_a_number_is_one_line(server: str) -> None:
    out = asyncio.run(
        _run(
            server,
            "agent",
            recursion_limit_for(3),
            input={"messages": [{"role": "user", "content": 12345}]},
        )  # fmt: skip
    )
    assert error_of(out) == (
        "messages[0].content must be text or a list of content blocks, got int 12345"
    )


def test_the_api_answers_any_origin_as_the_readme_says(server: str) -> None:
    """Upstream behaviour the README's Studio section warns about (and shows how to restrict)."""
    answer = httpx.get(
        f"{server}/ok", headers={"Origin": "http://evil.example", "Host": "evil.example"}
    )
    assert answer.status_code == 200
    assert answer.headers.get("access-control-allow-origin") in ("*", "http://evil.example")
