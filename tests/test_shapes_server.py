"""`agent shapes --server` on a real `langgraph dev`: threads and history through langgraph-sdk.

Agent threads (one with two turns) and router threads (one the router sends to its agent, one
to the flow) are sent over HTTP with the offline policy; what each agent run called is read
from the values the run returned (for the router's agent, from the same question asked of a
local agent: the offline policy is deterministic).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from langgraph_sdk import get_sync_client
from server_utils import langgraph_dev

from graph.agent.budget import DEFAULT_MAX_STEPS, recursion_limit_for
from graph.router import router_config

pytestmark = [pytest.mark.server, pytest.mark.slow]

AGENT_TURNS = (
    ("How long does standard shipping take?",),
    ("Who acquired Acme Corp?", "What is 12 * 7?"),
    ("What is 15 * 4?",),
)
TO_AGENT = "What warranty do electronics have?"
TO_FLOW = "AC-250-S compressor rattles loudly at startup and trips the breaker."


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = Path(tmp_path_factory.mktemp("langgraph-dev")) / "server.log"
    with langgraph_dev(log) as url:
        yield url


def tools_of(values: dict[str, Any]) -> tuple[str, ...]:
    """The shape of the last turn in a returned state (dict messages)."""
    turn: list[dict[str, Any]] = []
    for message in values.get("messages") or []:
        turn = [message] if message["type"] == "human" else [*turn, message]
    names: list[str] = []
    for message in turn:
        for call in message.get("tool_calls") or [] if message["type"] == "ai" else []:
            if call["name"] != "finish" and (not names or names[-1] != call["name"]):
                names.append(call["name"])
    return tuple(names)


def local_shape(question: str) -> tuple[str, ...]:
    """The shape the offline policy's agent gives `question` here, in process."""
    from graph.agent.budget import run_config
    from graph.agent.graph import build_agent
    from graph.models import load_model

    result = build_agent(model=load_model("policy")).invoke(
        {"question": question}, run_config(DEFAULT_MAX_STEPS)
    )
    calls = [c["name"] for m in result["messages"] if m.type == "ai" for c in m.tool_calls]
    names: list[str] = []
    for name in calls:
        if name != "finish" and (not names or names[-1] != name):
            names.append(name)
    return tuple(names)


def test_shapes_reads_the_servers_threads(server: str, capsys: pytest.CaptureFixture[str]) -> None:
    client = get_sync_client(url=server)
    for old in client.threads.search(limit=1000):  # a dev server keeps threads between runs
        client.threads.delete(old["thread_id"])
    context = {"model": "policy", "max_steps": DEFAULT_MAX_STEPS}
    expected: Counter[tuple[str, ...]] = Counter()
    for turns in AGENT_TURNS:
        thread = client.threads.create()
        for question in turns:
            values = client.runs.wait(
                thread["thread_id"], "agent", input={"question": question}, context=context,
                config={"recursion_limit": recursion_limit_for(DEFAULT_MAX_STEPS)},
            )  # fmt: skip
            assert isinstance(values, dict) and values["stopped"] == "answer"
            expected[tools_of(values)] += 1
    for request in (TO_AGENT, TO_FLOW):
        thread = client.threads.create()
        limit = router_config(thread["thread_id"])["recursion_limit"]
        values = client.runs.wait(
            thread["thread_id"], "router", input={"request": request}, context=context,
            config={"recursion_limit": limit},
        )  # fmt: skip
        assert isinstance(values, dict)
        assert values["route"] == ("agent" if request == TO_AGENT else "flow")
    expected[local_shape(TO_AGENT)] += 1
    code, out, err = run_cli(capsys, "shapes", "--server", server, "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["runs"] == sum(len(turns) for turns in AGENT_TURNS) + 1
    assert {tuple(row["tools"]): row["runs"] for row in document["shapes"]} == dict(expected)
    assert document["flow"]["runs"] == 0
    assert all(row["median_duration_s"] is not None for row in document["shapes"])
