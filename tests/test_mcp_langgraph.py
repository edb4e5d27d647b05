"""`langgraph dev` serves the deployed graphs over MCP at `/mcp`, for any MCP client."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from server_utils import langgraph_dev

pytestmark = [pytest.mark.server, pytest.mark.slow]


async def list_and_call(url: str) -> tuple[dict[str, Any], Any, Any]:
    """List the server's tools, then call the agent with a question and with an empty one."""
    async with (
        streamable_http_client(f"{url}/mcp") as (read, write, _),
        ClientSession(read, write) as session,
    ):
        info = await session.initialize()
        assert info.serverInfo.name == "LangGraph"
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        answered = await session.call_tool("agent", {"question": "what is 12 * 7 + 5?"})
        refused = await session.call_tool("agent", {"question": "   "})
        return tools, answered, refused


def test_langgraph_dev_mcp_endpoint_lists_and_calls_the_agent(tmp_path: Path) -> None:
    with langgraph_dev(tmp_path / "server.log") as url:
        tools, answered, refused = asyncio.run(list_and_call(url))
    assert {"agent", "flow", "router"} <= set(tools)
    schema = tools["agent"].inputSchema
    assert schema["type"] == "object" and "question" in schema["properties"]
    assert not answered.isError
    text = answered.content[0].text
    assert "'answer':" in text and "89" in text and "'stopped': 'answer'" in text
    assert refused.isError or "'stopped': 'error'" in refused.content[0].text
