"""The field-service flow calling its three tools over MCP: outcomes and failure policy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from langgraph.checkpoint.memory import InMemorySaver
from mcp_helpers import PYTHON, ROOT, http_server, project_http, project_server_spec, stdio_spec

from graph.app.flow_runs import run_flow
from graph.flow.graph import build_flow
from graph.mcp_io.client import MCPClients
from graph.mcp_io.flow import remote_flow_tools

pytestmark = pytest.mark.server

CLEAR = "AC-250-A: condensate pump not running and the pump float alarm is lit."
VAGUE = "AC-250-B is dripping water from the indoor unit."
NO_VARIANT = "the indoor unit is dripping water again"
REQUESTS = [CLEAR, VAGUE, NO_VARIANT]
FLOW_SERVER = ROOT / "tests" / "mcp_servers" / "flow_server.py"
KEYS = ("outcome", "answer", "reason", "fault_code", "part_no", "citation", "availability")


def faulty(tool: str, fault: str) -> str:
    """The stdio spec of the project's server with one tool broken."""
    return stdio_spec(PYTHON, str(FLOW_SERVER), tool, fault)


def outcome(result: dict[str, Any]) -> dict[str, Any]:
    """What must match between in-process and MCP runs (timings aside)."""
    stages = [(entry["stage"], entry["ok"], entry["detail"]) for entry in result["log"]]
    payload = result.get("interrupt") or {}
    return {**{key: result.get(key) for key in KEYS}, "stages": stages,
            "candidates": payload.get("candidates")}  # fmt: skip


def run(request: str, tools: Any = None, thread: str = "t") -> dict[str, Any]:
    """One request on a fresh in-memory thread."""
    return run_flow(request, checkpointer=InMemorySaver(), thread_id=thread, tools=tools)


def expected() -> list[dict[str, Any]]:
    """The in-process results of the requests, to compare MCP runs against."""
    found = [outcome(run(request)) for request in REQUESTS]
    assert [f["outcome"] for f in found] == ["answered", "escalated", "aborted"]
    return found


def test_flow_over_mcp_stdio_answers_escalates_and_aborts_as_in_process() -> None:
    want = expected()
    with MCPClients() as clients:
        tools = remote_flow_tools(project_server_spec(), clients)
        got = [outcome(run(request, tools)) for request in REQUESTS]
    assert got == want
    assert want[0]["citation"] and want[0]["availability"]["stock_qty"] is not None


def test_flow_over_mcp_http_answers_escalates_and_aborts_as_in_process(tmp_path: Path) -> None:
    want = expected()
    log = tmp_path / "serve.log"
    command, port = project_http(log)
    with http_server(command, port, log) as url, MCPClients() as clients:
        tools = remote_flow_tools(url, clients)
        got = [outcome(run(request, tools)) for request in REQUESTS]
    assert got == want


def test_build_flow_with_mcp_uses_the_server() -> None:
    graph = build_flow(mcp=faulty("search_tickets", "error"), checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "b"}, "recursion_limit": 8}
    graph.invoke({"request": CLEAR}, config)
    values = graph.get_state(config).values
    history = [entry for entry in values["log"] if entry["stage"] == "history"]
    # an isError result is a stage failure, not a transient one: no retry, straight to the policy
    assert [entry["ok"] for entry in history] == [False]
    assert "search_tickets returned an error: db offline" in history[0]["detail"]
    with pytest.raises(ValueError, match="tools or mcp, not both"):
        build_flow(tools={}, mcp="http://127.0.0.1:1/mcp")


def test_a_server_killed_mid_request_is_retried_then_escalated() -> None:
    with MCPClients() as clients:
        result = run(CLEAR, remote_flow_tools(faulty("search_tickets", "die"), clients))
    history = [entry for entry in result["log"] if entry["stage"] == "history"]
    assert len(history) == 2 and not any(entry["ok"] for entry in history)
    assert "closed the connection" in history[0]["detail"]
    assert history[1]["detail"].startswith("retry 1: search_tickets failed: MCPError")
    assert result["outcome"] == "escalated"
    assert result["interrupt"]["stage"] == "history"


def test_a_hanging_server_times_out_then_escalates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MCP_TIMEOUT", "1")
    with MCPClients() as clients:
        assert clients.timeout == 1.0
        result = run(CLEAR, remote_flow_tools(faulty("search_tickets", "hang"), clients))
    history = [entry for entry in result["log"] if entry["stage"] == "history"]
    assert len(history) == 2 and not any(entry["ok"] for entry in history)
    assert "no answer within 1 s (AGENT_MCP_TIMEOUT)" in history[0]["detail"]
    assert result["outcome"] == "escalated" and result["interrupt"]["stage"] == "history"


def test_a_malformed_result_is_a_stage_failure() -> None:
    with MCPClients() as clients:
        result = run(CLEAR, remote_flow_tools(faulty("check_availability", "malformed"), clients))
    stock = [entry for entry in result["log"] if entry["stage"] == "stock"]
    assert "returned no structured result" in stock[0]["detail"]
    assert result["outcome"] == "escalated"


def test_a_failing_manual_search_degrades_the_answer_not_the_flow() -> None:
    with MCPClients() as clients:
        result = run(CLEAR, remote_flow_tools(faulty("search_manual", "die"), clients))
    assert result["outcome"] == "answered"
    assert result["answer"].endswith("No manual citation available.")
    assert "answer without citation (search_manual failed" in result["log"][-1]["detail"]


def test_a_server_without_the_flow_tools_is_refused() -> None:
    with MCPClients() as clients, pytest.raises(ValueError, match="lacks the flow's tools"):
        remote_flow_tools(
            stdio_spec(PYTHON, str(ROOT / "tests/mcp_servers/notes_server.py")), clients
        )


def test_flow_command_over_mcp(agent_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "flow", CLEAR, "--mcp", project_server_spec())
    assert code == 0, err
    assert "ANSWERED:" in out and "F-10" in out


def test_flow_command_with_an_unreachable_server_is_one_line(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "flow", CLEAR, "--mcp", "http://127.0.0.1:9/mcp")
    assert code == 1 and out == ""
    assert err.startswith("error: MCP server http://127.0.0.1:9/mcp: ") and err.count("\n") == 1
