"""Your saved index on every server: `langgraph dev` with $AGENT_CORPORA, and `agent mcp serve`.

One real `langgraph dev` on a free 127.0.0.1 port serves the agent over a saved index of a
made-up folder (`tests/wiki_docs.py`) and the built-in `notes`; it is driven with langgraph-sdk,
the official MCP client and `agent eval --server`.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from langgraph_sdk import get_client
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from server_utils import ROOT, langgraph_dev
from wiki_docs import write_wiki

from graph.agent.prompts import SYSTEM_PROMPT
from tools.index_build import build_index

pytestmark = [pytest.mark.server, pytest.mark.slow]

PILOT = "Who pilots the Beacon drone?"
CREW = "people/crew.rst"
PROMPT_START = SYSTEM_PROMPT.splitlines()[0]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An AGENT_HOME holding the made-up folder saved as index `wiki`."""
    root = tmp_path_factory.mktemp("served")
    build_index(root / "home" / "indexes", "wiki", write_wiki(root / "docs"))
    return root / "home"


@pytest.fixture(scope="module")
def server(home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("langgraph-dev") / "server.log"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AGENT_HOME", str(home))
        patch.setenv("AGENT_CORPORA", "wiki,notes")
        with langgraph_dev(log) as url:
            yield url


async def two_turns(url: str) -> dict[str, Any]:
    """A question about the saved index, then a second chat turn streamed on the same thread."""
    client = get_client(url=url)
    thread = (await client.threads.create())["thread_id"]
    context = {"model": "policy", "corpora": ["wiki"]}
    first = await client.runs.wait(
        thread, "agent", input={"question": PILOT}, context=context,
        config={"recursion_limit": 13},
    )  # fmt: skip
    events = []
    async for event in client.runs.stream(
        thread, "agent",
        input={"messages": [{"role": "user", "content": "What does Beacon map at night?"}]},
        context=context, config={"recursion_limit": 13}, stream_mode=["messages", "updates"],
    ):  # fmt: skip
        events.append({"event": event.event, "data": event.data})
    state = await client.threads.get_state(thread)
    refused = await client.runs.wait(
        None, "agent", input={"question": PILOT}, context={"corpora": ["/etc"]},
        config={"recursion_limit": 13}, raise_error=False,
    )  # fmt: skip
    return {"first": first, "events": events, "state": state, "refused": refused}


def test_the_saved_index_answers_through_langgraph_dev_and_threads_stay_clean(
    server: str,
) -> None:
    seen = asyncio.run(two_turns(server))
    first = seen["first"]
    assert first["stopped"] == "answer" and first["citations"] == [CREW]
    assert set(first["retrieved"]) == {"search_wiki"}  # narrowed by name to the saved index
    messages = seen["state"]["values"]["messages"]
    assert [m["type"] for m in messages].count("system") == 0
    assert [m["type"] for m in messages].count("human") == 2
    assert seen["state"]["values"]["stopped"] == "answer"
    streamed = json.dumps(seen["events"])
    assert '"remove"' not in streamed and "__remove_all__" not in streamed
    where = streamed.find(PROMPT_START)
    assert where < 0, streamed[max(0, where - 700) : where + 50]
    assert '"type": "system"' not in streamed
    assert any(e["event"].startswith("messages") for e in seen["events"])
    assert "bad corpus name '/etc'" in json.dumps(seen["refused"])  # a name, never a path


async def call_agent_over_mcp(url: str) -> Any:
    async with (
        streamable_http_client(f"{url}/mcp") as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        return await session.call_tool("agent", {"question": PILOT})


def test_the_dev_servers_mcp_tool_leads_with_the_answer_and_holds_no_prompt(server: str) -> None:
    result = asyncio.run(call_agent_over_mcp(server))
    assert not result.isError
    text = result.content[0].text
    assert text.startswith("{'answer': ") and f"'citations': ['{CREW}']" in text[:600]
    assert PROMPT_START not in text and "'type': 'system'" not in text


def summary(folder: Path) -> list[dict[str, Any]]:
    """Each record of an eval without what differs between runs (timing, thread ids)."""
    rows = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    return [{k: v for k, v in row.items() if k not in ("latency_s", "thread_id")} for row in rows]


def metrics(printed: str) -> list[list[str]]:
    """The metrics table's rows as cells, latency left out (the column width follows the label)."""
    rows = [line.split("│")[1:-1] for line in printed.splitlines() if line.count("│") >= 3]
    return [[cell.strip() for cell in row] for row in rows if "latency" not in row[0]]


def test_eval_on_the_server_gives_the_in_process_metrics(
    server: str, tmp_path: Path, agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ("eval", "--dataset", "notes", "--concurrency", "2")
    code, remote_out, err = run_cli(capsys, *argv, "--server", server, "--out", str(tmp_path / "r"))
    assert code == 0, err
    code, local_out, err = run_cli(capsys, *argv, "--out", str(tmp_path / "l"))
    assert code == 0, err
    remote, local = summary(tmp_path / "r"), summary(tmp_path / "l")
    assert len(remote) == 5 and remote == local
    assert metrics(remote_out) == metrics(local_out) and metrics(local_out)
    assert "search_notes" in (tmp_path / "r" / "report.html").read_text()


async def search_over_stdio(home: Path) -> tuple[set[str], Any]:
    env = {**os.environ, "AGENT_HOME": str(home), "PYTHONPATH": str(ROOT)}
    env.pop("AGENT_CORPORA", None)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "graph", "mcp", "serve", "--corpus", "wiki"],
        cwd=str(ROOT), env=env,
    )  # fmt: skip
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        names = {tool.name for tool in (await session.list_tools()).tools}
        return names, await session.call_tool("search_wiki", {"query": "Beacon pilot"})


def test_mcp_serve_corpus_name_serves_the_saved_index(home: Path) -> None:
    names, found = asyncio.run(search_over_stdio(home))
    assert "search_wiki" in names and "search_notes" not in names
    assert not found.isError
    assert CREW in [hit["id"] for hit in found.structuredContent["result"]]
