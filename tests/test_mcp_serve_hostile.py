"""``agent mcp serve --transport http`` against hostile clients and awkward addresses.

Real servers on free 127.0.0.1 ports; the other loopback addresses are checked through the
settings the server is built with, never bound.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from cli_helpers import run_cli
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.server.transport_security import TransportSecurityMiddleware
from mcp_helpers import AGENT, http_server, project_http
from server_utils import ROOT

from graph.mcp_io.server import build_server
from graph.mcp_io.serving import security_for, url_of
from graph.mcp_io.session_limits import MAX_SESSIONS, SESSION_IDLE_S

pytestmark = pytest.mark.server
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "t", "version": "1"}},
}  # fmt: skip


def initialize(url: str, **headers: str) -> httpx.Response:
    """One raw ``initialize`` POST."""
    return httpx.post(url, json=INITIALIZE, headers={**HEADERS, **headers}, timeout=30)


@pytest.mark.parametrize("host", ["127.0.0.2", "127.5.6.7", "::1", "localhost", "127.0.0.1"])
def test_every_loopback_address_gets_host_and_origin_checks(host: str) -> None:
    settings = build_server([], host=host).settings.transport_security
    assert settings is not None and settings.enable_dns_rebinding_protection
    checks = TransportSecurityMiddleware(settings)
    named = f"[{host}]" if ":" in host else host
    assert checks._validate_host(f"{named}:8765") and checks._validate_host("127.0.0.1:8765")
    assert not checks._validate_host("evil.example") and not checks._validate_host("evil:8765")
    assert checks._validate_origin(f"http://{named}:8765")
    assert not checks._validate_origin("http://evil.example")


def test_a_non_loopback_host_is_left_to_the_sdk() -> None:
    assert security_for("0.0.0.0") is None and security_for("192.168.1.4") is None


def test_a_rebinding_request_gets_no_session(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    command, port = project_http(log)
    with http_server(command, port, log) as url:
        refused = initialize(url, Host="evil.example")
        origin = initialize(url, Origin="http://evil.example")
        allowed = initialize(url)
    assert refused.status_code == 421 and origin.status_code == 403
    assert "mcp-session-id" not in refused.headers
    assert allowed.status_code == 200 and allowed.headers["mcp-session-id"]


@pytest.mark.parametrize(
    ("host", "port", "url"),
    [("::1", 8765, "http://[::1]:8765/mcp"), ("127.0.0.1", 9, "http://127.0.0.1:9/mcp")],
)
def test_announced_urls_bracket_ipv6(host: str, port: int, url: str) -> None:
    assert url_of(host, port) == url


def test_port_zero_announces_the_port_it_serves(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    argv = [*AGENT, "mcp", "serve", "--transport", "http", "--port", "0"]
    with log.open("wb") as out:
        server = subprocess.Popen(argv, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while not (found := re.search(r"at (http://127\.0\.0\.1:(\d+)/mcp)", log.read_text())):
            assert time.monotonic() < deadline and server.poll() is None, log.read_text()
            time.sleep(0.2)
        url, port = found.group(1), int(found.group(2))
        assert port != 0

        async def tools() -> list[str]:
            async with (
                streamable_http_client(url) as (read, write, _),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return [tool.name for tool in (await session.list_tools()).tools]

        assert "calculator" in asyncio.run(tools())
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)


@pytest.mark.parametrize("host", ["::ffff:127.0.0.1", "::ffff:10.0.0.1"])
def test_an_ipv4_mapped_host_is_refused_in_one_line(
    host: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "mcp", "serve", "--transport", "http", "--host", host)
    assert (code, out) == (1, "")
    assert (
        err
        == f"error: --host {host} is an IPv4-mapped IPv6 address; use --host {host[7:]} instead\n"
    )


def test_sessions_are_capped_and_expire(tmp_path: Path) -> None:
    assert build_server([]).settings.max_sessions == MAX_SESSIONS == 100
    assert build_server([]).settings.session_idle_timeout == SESSION_IDLE_S == 600
    log = tmp_path / "server.log"
    command, port = project_http(log, "--max-sessions", "3", "--session-idle", "1")
    with http_server(command, port, log) as url:
        opened = [initialize(url) for _ in range(3)]
        refused = initialize(url)
        assert [r.status_code for r in opened] == [200, 200, 200] and refused.status_code == 503
        time.sleep(3)
        session = opened[0].headers["mcp-session-id"]
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        gone = httpx.post(url, json=ping, timeout=30,
                          headers={**HEADERS, "mcp-session-id": session})  # fmt: skip
        again = initialize(url)
    assert gone.status_code == 404  # expired
    assert again.status_code == 200  # the expired sessions made room


def raw_post(port: int, head: bytes, body: bytes, close_after: bool = False) -> bytes:
    """Send one POST over a plain socket; return what came back (nothing when hung up)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head + body)
        if close_after:
            time.sleep(0.3)
            return b""
        return sock.recv(65536)


def test_client_mistakes_are_one_line_each_in_the_log(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    command, port = project_http(log)
    deep = b"[" * 100_000 + b"]" * 100_000
    with http_server(command, port, log) as url:
        bad_utf8 = httpx.post(url, content=b'\xff\xfe{"a": 1}', headers=HEADERS, timeout=30)
        nested = httpx.post(url, content=deep, headers=HEADERS, timeout=30)
        head = (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json"
            "\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n"
        ).encode()
        for _ in range(3):
            raw_post(port, head, b'{"jsonrpc": "2.0", ', close_after=True)
        still = initialize(url)
        time.sleep(0.5)
    text = log.read_text()
    assert bad_utf8.status_code == 400 and "not UTF-8" in bad_utf8.json()["error"]["message"]
    assert nested.status_code == 400 and "nested too deep" in nested.json()["error"]["message"]
    assert still.status_code == 200
    assert "Traceback" not in text
    lines = text.splitlines()[1:]  # after the announcement
    assert lines.count("warning: refused a request whose body is not UTF-8") == 1
    assert lines.count("warning: refused a request whose body is JSON nested too deep") == 1
    assert lines.count("warning: a client disconnected before its request was complete") == 3
    assert len(lines) == 5, lines


def test_an_honest_large_request_still_reaches_the_server(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    command, port = project_http(log)
    call: dict[str, Any] = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                            "params": {"name": "calculator", "arguments": {"expression": "1+1"},
                                       "_meta": {"pad": "x" * 200_000}}}  # fmt: skip
    with http_server(command, port, log) as url:
        session = initialize(url).headers["mcp-session-id"]
        headers = {**HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18"}
        httpx.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                   headers=headers, timeout=30)  # fmt: skip
        answer = httpx.post(url, content=json.dumps(call), headers=headers, timeout=30)
    assert answer.status_code == 200 and '"value":"2"' in answer.text.replace(" ", "")
