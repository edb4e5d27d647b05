"""``agent mcp serve``: listed and called by the MCP SDK's own client, over stdio and HTTP."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_helpers import http_server, project_http
from server_utils import ROOT

from graph.mcp_io.serving import is_loopback

pytestmark = pytest.mark.server

PASSAGES = [
    {"id": "orb-1", "text": "The Velloran ferry leaves Kesk harbour at dawn on Thursdays."},
    {"id": "orb-2", "text": "Tickets for the Velloran ferry are sold at the lighthouse kiosk."},
    {"id": "orb-3", "text": "Kesk harbour freezes over in the coldest weeks of winter."},
    {"id": "orb-4", "text": "The lighthouse keeper of Kesk paints the tower red each summer."},
    {"id": "orb-5", "text": "Fishing boats from Dunmarra unload herring on the north quay."},
    {"id": "orb-6", "text": "The market square hosts a lantern fair in the autumn."},
]


def corpus_file(tmp_path: Path) -> Path:
    """A made-up corpus as JSONL."""
    path = tmp_path / "ferries.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in PASSAGES) + "\n", encoding="utf-8")
    return path


async def exercise(session: ClientSession) -> dict[str, Any]:
    """List the tools and make the calls the tests check; return what came back."""
    await session.initialize()
    listed = {tool.name: tool for tool in (await session.list_tools()).tools}
    found = await session.call_tool("search_ferries", {"query": "Velloran ferry tickets", "k": 2})
    empty = await session.call_tool("search_ferries", {"query": "   "})
    bad_k = await session.call_tool("search_ferries", {"query": "ferry", "k": "many"})
    unknown_part = await session.call_tool("check_availability", {"part_no": "PN-NOPE"})
    calc = await session.call_tool("calculator", {"expression": "0.18 * 250"})
    after = await session.call_tool("calculator", {"expression": "2 ** 10"})
    return {"listed": listed, "found": found, "empty": empty, "bad_k": bad_k,
            "unknown_part": unknown_part, "calc": calc, "after": after}  # fmt: skip


def check(results: dict[str, Any]) -> None:
    """What both transports must show: schemas, structured results, one-line isError."""
    listed = results["listed"]
    expected = {"search_ferries", "search_notes", "search_policy", "search_products",
                "calculator", "search_tickets", "check_availability", "search_manual"}  # fmt: skip
    assert expected <= set(listed)
    for tool in listed.values():
        assert tool.inputSchema["type"] == "object" and tool.inputSchema["properties"]
        assert tool.outputSchema is not None, tool.name
        assert tool.description
    assert listed["search_ferries"].inputSchema["required"] == ["query"]
    assert set(listed["search_tickets"].inputSchema["required"]) == {"model_variant", "symptom"}

    found = results["found"]
    assert not found.isError
    records = found.structuredContent["result"]
    assert [r["id"] for r in records] == ["orb-2", "orb-1"]
    assert records[0]["text"] == PASSAGES[1]["text"] and records[0]["corpus"] == "ferries"
    assert found.content[0].text.splitlines()[0] == f"[orb-2] {PASSAGES[1]['text']}"

    for key in ("empty", "bad_k", "unknown_part"):
        result = results[key]
        assert result.isError, key
        text = result.content[0].text
        assert "\n" not in text and 0 < len(text) <= 300, (key, text)
    assert "empty query" in results["empty"].content[0].text
    assert "PN-NOPE" in results["unknown_part"].content[0].text

    assert results["calc"].structuredContent == {"expression": "0.18 * 250", "value": "45.0"}
    assert results["calc"].content[0].text == "45.0"
    assert results["after"].structuredContent["value"] == "1024"  # still serving after errors


def test_stdio_server_listed_and_called_by_the_sdk_client(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "graph",
            "mcp",
            "serve",
            "--corpus",
            f"ferries={corpus_file(tmp_path)}",
            "--builtins",
        ],
        cwd=str(ROOT),
    )

    async def main() -> dict[str, Any]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            return await exercise(session)

    check(asyncio.run(main()))


def test_http_server_listed_and_called_by_the_sdk_client(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    command, port = project_http(log, "--corpus", f"ferries={corpus_file(tmp_path)}", "--builtins")

    async def main(url: str) -> dict[str, Any]:
        async with (
            streamable_http_client(url) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            return await exercise(session)

    with http_server(command, port, log) as url:
        check(asyncio.run(main(url)))
    assert "Traceback" not in log.read_text()


def test_field_service_tools_return_structured_results_over_mcp() -> None:
    from graph.mcp_io.server import build_server

    server = build_server([])

    async def main() -> Any:
        return await server.call_tool("search_manual", {"query": "x", "product_family": "ZZ-1"})

    result = asyncio.run(main())
    assert result.isError and "unknown product family" in result.content[0].text
    assert result.structuredContent["ok"] is False


def test_serve_refuses_host_with_stdio(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "mcp", "serve", "--host", "0.0.0.0")
    assert code == 1 and out == ""
    assert err == "error: --host applies to --transport http only\n"


def test_serve_reports_a_busy_port_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, _, err = run_cli(capsys, "mcp", "serve", "--transport", "http", "--port", str(port))
    assert code == 1
    assert err.startswith(f"error: cannot listen on 127.0.0.1:{port}:") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.5.0.1", True), ("::1", True), ("localhost", True),
     ("0.0.0.0", False), ("192.168.1.4", False), ("example.org", False)],
)  # fmt: skip
def test_only_loopback_hosts_count_as_local(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
