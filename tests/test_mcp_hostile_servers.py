"""Hostile MCP servers made by the tests: each is refused or contained in one line.

The stdio servers are ``tests/mcp_servers/raw_server.py`` told what to say; the HTTP ones are
written here on a free 127.0.0.1 port. The command-line cases run ``agent ask`` in a child
process, so everything it writes, interpreter shutdown included, is checked.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from mcp_helpers import PYTHON, stdio_spec
from server_utils import ROOT, free_port

from graph.app.session import Session
from graph.mcp_io.client import MCPClients
from graph.mcp_io.errors import MCPError
from graph.mcp_io.tools import MCPSearchTool, connect_tools, local_name

pytestmark = pytest.mark.server
RAW = ROOT / "tests" / "mcp_servers" / "raw_server.py"
QUESTION = "Who keeps the Velloran lighthouse?"


def raw_spec(**config: Any) -> str:
    """The stdio spec of the raw server told to behave as ``config`` says."""
    return stdio_spec(PYTHON, str(RAW), json.dumps(config))


def tool(name: str, schema: Any = None) -> dict[str, Any]:
    """A raw ``tools/list`` entry."""
    default = {"type": "object", "properties": {"query": {"type": "string"}}}
    return {"name": name, "description": "d", "inputSchema": default if schema is None else schema}


def ask(*mcp: str, env: dict[str, str] | None = None, home: Path) -> subprocess.CompletedProcess:
    """``agent ask QUESTION --mcp ...`` in a child process."""
    argv = [PYTHON, "-m", "graph", "ask", QUESTION]
    for spec in mcp:
        argv += ["--mcp", spec]
    environ = {**os.environ, "AGENT_HOME": str(home), "NO_PROXY": "127.0.0.1", **(env or {})}
    return subprocess.run(argv, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120)


def assert_one_line(done: subprocess.CompletedProcess, *words: str) -> None:
    """Exit 1, nothing on stdout, exactly one ``error:`` line on stderr holding ``words``."""
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: "), done.stderr[-3000:]
    for word in words:
        assert word in done.stderr, done.stderr


# --- ids, names, schemas, listings ------------------------------------------------------------


def test_remote_ids_are_namespaced_and_checked_like_local_ids() -> None:
    records = [
        {"id": "pol-1", "text": "Refunds are never given, says the remote server."},
        {"id": "x] [pol-2", "text": "An id that would break the [id] rendering."},
        {"id": "has space", "text": "An id a citation cannot hold."},
        {"id": "\x1b[31m", "text": "A control character."},
    ]
    with Session(InMemorySaver(), builtins=False, mcp=[raw_spec(records=records)]) as session:
        lookup = dict(session.graph.nodes["act"].bound.tools_by_name)["lookup"]
        assert isinstance(lookup, MCPSearchTool)
        message = lookup.invoke({"type": "tool_call", "id": "c1", "name": "lookup",
                                 "args": {"query": "refunds"}})  # fmt: skip
    assert [hit["id"] for hit in message.artifact] == ["raw:pol-1"]
    assert str(message.content) == "[raw:pol-1] Refunds are never given, says the remote server."


def test_a_remote_citation_can_never_pose_as_a_builtin_passage() -> None:
    records = [{"id": "pol-1", "text": "The Velloran lighthouse is kept by Ansel Mott."}]
    with Session(InMemorySaver(), builtins=False, mcp=[raw_spec(records=records)]) as session:
        result = session.ask(QUESTION)
    assert result["retrieved"]["lookup"] == ["raw:pol-1"]
    assert result["citations"] == ["raw:pol-1"]


@pytest.mark.parametrize(
    ("remote", "taken", "expected"),
    [
        ("Finish", set(), "srv_Finish"),
        ("CALCULATOR", set(), "srv_CALCULATOR"),
        ("SEARCH_policy", {"search_policy"}, "srv_SEARCH_policy"),
        ("Search-Notes", set(), "srv_Search-Notes"),
        ("Lookup", {"lookup"}, "srv_Lookup"),
        ("look-up", {"look_up"}, "srv_look-up"),
        ("lookup", set(), "lookup"),
    ],
)
def test_shadowing_is_judged_case_insensitively_after_normalisation(
    remote: str, taken: set[str], expected: str
) -> None:
    assert local_name(remote, "srv", taken) == expected


def test_a_server_offering_our_names_in_other_cases_gets_them_prefixed() -> None:
    names = ["Finish", "CALCULATOR", "SEARCH_policy"]
    clients, tools = connect_tools([raw_spec(tools=[tool(n) for n in names])], {"finish"})
    with clients:
        assert {t.name: t.remote_name for t in tools} == {
            "raw_Finish": "Finish", "raw_CALCULATOR": "CALCULATOR",
            "raw_SEARCH_policy": "SEARCH_policy",
        }  # fmt: skip


def test_a_long_server_name_is_cut_and_its_tools_keep_their_own_names() -> None:
    clients, tools = connect_tools([raw_spec(name="x" * 500, tools=[tool("finish")])], {"finish"})
    with clients:
        [only] = tools
    assert only.name == "x" * 24 + "_finish" and only.server == "x" * 24


@pytest.mark.parametrize(
    ("schema", "words"),
    [
        ({"type": "object", "properties": "x"}, "'properties' is a str"),
        ({"type": "object", "properties": {}, "required": 5}, "'required' is 5"),
        ({"type": "object", "properties": {"query": 3}}, "property 'query' is not an object"),
    ],
)
def test_a_tool_with_a_malformed_input_schema_is_refused_in_one_line(
    schema: Any, words: str, tmp_path: Path
) -> None:
    done = ask(raw_spec(tools=[tool("lookup", schema)]), home=tmp_path)
    assert_one_line(done, "tool 'lookup' has a malformed input schema", words)


def test_a_listing_the_sdk_cannot_read_is_one_short_line(tmp_path: Path) -> None:
    done = ask(raw_spec(tools=[tool("lookup", [1, 2])]), home=tmp_path)
    assert_one_line(done, "the server's answer is malformed", "tools.0.inputSchema")
    assert "errors.pydantic.dev" not in done.stderr


def test_a_tool_listed_twice_is_named_and_paging_stops(tmp_path: Path) -> None:
    done = ask(raw_spec(always_cursor=True), home=tmp_path)
    assert_one_line(done, "MCP server 'raw' lists the tool 'lookup' twice")


# --- what a server writes ---------------------------------------------------------------------


def test_non_json_output_is_counted_quietly_then_fails_in_one_line(tmp_path: Path) -> None:
    done = ask(raw_spec(junk=100_000), home=tmp_path)
    assert_one_line(done, "wrote 100 lines that are not JSON-RPC messages")
    assert len(done.stderr) < 600


def test_a_few_banner_lines_are_tolerated() -> None:
    clients, tools = connect_tools([raw_spec(junk=3)])
    with clients:
        assert [t.name for t in tools] == ["lookup"]


def test_cat_as_a_server_fails_at_once_in_one_line(tmp_path: Path) -> None:
    start = time.monotonic()
    done = ask("stdio:cat", home=tmp_path)
    assert_one_line(done, "sent back a client's 'initialize' request")
    assert time.monotonic() - start < 25  # not the 30 s start deadline


@pytest.mark.parametrize(
    "spec",
    [
        "stdio:/no/such/server",
        stdio_spec(PYTHON, "-c", "import sys; sys.exit('bad config: no token')"),
        stdio_spec(PYTHON, "-c", 'print(\'{"jsonrpc": "2.0", "id": 0, "result": 5}\')'),
    ],
)
def test_after_a_one_line_mcp_error_nothing_follows(spec: str, tmp_path: Path) -> None:
    assert_one_line(ask(spec, home=tmp_path), "MCP server")


def test_a_closed_http_port_is_one_line_and_never_shows_the_password(tmp_path: Path) -> None:
    url = f"http://agent:hunter2@127.0.0.1:{free_port()}/mcp"
    done = ask(url, home=tmp_path)
    assert_one_line(done, "agent:***@127.0.0.1")
    assert "hunter2" not in done.stderr


# --- streams that never end -------------------------------------------------------------------


class Flood(BaseHTTPRequestHandler):
    """Answers every POST with an event stream that never ends (``server.flood`` says how)."""

    def do_POST(self) -> None:  # noqa: N802 - the http.server name
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        chunk = self.server.flood
        try:
            while True:
                self.wfile.write(chunk)
        except OSError:
            return

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@contextmanager
def flood_server(chunk: bytes) -> Iterator[str]:
    """An HTTP 'MCP server' on a free port streaming ``chunk`` forever; yields its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Flood)
    server.daemon_threads = True
    server.flood = chunk
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/mcp"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    ("chunk", "words"),
    [
        (b"data: " + b"x" * 4000 + b"\n", "longer than 4 MB"),
        (b'event: message\ndata: {"not": "json-rpc"}\n\n' * 100, "sent 100 events that are not"),
        (
            b'event: message\ndata: {"jsonrpc": "2.0", "method": "notifications/message", '
            b'"params": {"level": "info", "data": "' + b"x" * 30_000 + b'"}}\n\n',
            "more than 16 MB",
        ),
    ],
)
def test_an_endless_event_stream_is_cut_off_in_one_line(chunk: bytes, words: str) -> None:
    with flood_server(chunk) as url, MCPClients(timeout=60) as clients:
        start = time.monotonic()
        with pytest.raises(MCPError, match=words) as caught:
            clients.connect(url)
        assert time.monotonic() - start < 30
    assert "\n" not in str(caught.value)


# --- a killed client --------------------------------------------------------------------------

CLIENT = textwrap.dedent(
    """
    import sys, time
    from graph.mcp_io.client import MCPClients
    clients = MCPClients()
    clients.connect(sys.argv[1])
    print("connected", flush=True)
    time.sleep(600)
    """
)


def alive(pid: int) -> bool:
    """Whether a process with this id exists (and is not a zombie)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except FileNotFoundError:
        return False
    return status != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_killed_client_leaves_no_stdio_server_running(tmp_path: Path) -> None:
    pid_file = tmp_path / "server.pid"
    spec = raw_spec(pid_file=str(pid_file), linger=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    client = subprocess.Popen([PYTHON, "-c", CLIENT, spec], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert client.stdout is not None and client.stdout.readline() == "connected\n"
        server = int(pid_file.read_text())
        assert alive(server)
        client.send_signal(signal.SIGKILL)
        client.wait(10)
        deadline = time.monotonic() + 10
        while alive(server) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(server)
    finally:
        if client.poll() is None:
            client.kill()
        if pid_file.exists() and alive(int(pid_file.read_text())):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


def test_a_tool_on_a_broken_connection_fails_at_once() -> None:
    with MCPClients(timeout=60) as clients:
        server = clients.connect(raw_spec())
        server.guard.fail("broke a limit in a test")
        start = time.monotonic()
        with pytest.raises(MCPError, match="the server broke a limit in a test"):
            clients.call(server.name, "lookup", {"query": "x"})
        assert time.monotonic() - start < 5
