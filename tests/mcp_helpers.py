"""Real MCP servers for the tests: stdio commands and streamable HTTP on free 127.0.0.1 ports."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from server_utils import ROOT, free_port

PYTHON = sys.executable
TEST_SERVER = ROOT / "tests" / "mcp_servers" / "notes_server.py"
AGENT = [PYTHON, "-m", "graph"]


def stdio_spec(*command: str) -> str:
    """``stdio:`` followed by the command, quoted for the spec parser."""
    import shlex

    return "stdio:" + shlex.join(command)


def quill_spec(mode: str = "ok") -> str:
    """The stdio spec of the test-only server (see ``tests/mcp_servers/notes_server.py``)."""
    return stdio_spec(PYTHON, str(TEST_SERVER), "--mode", mode)


def project_server_spec(*extra: str) -> str:
    """The stdio spec of ``agent mcp serve`` (run from the repository root)."""
    return stdio_spec(PYTHON, "-m", "graph", "mcp", "serve", *extra)


@contextmanager
def http_server(command: list[str], port: int, log: Path, timeout_s: float = 90.0) -> Iterator[str]:
    """Run ``command`` (a server listening on ``port``); yield its ``/mcp`` URL, then stop it."""
    env = {**os.environ, "NO_PROXY": "127.0.0.1,localhost"}
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        try:
            _wait_for_port(port, process, timeout_s, log)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()


def project_http(log: Path, *extra: str) -> tuple[list[str], int]:
    """The command and port of ``agent mcp serve --transport http`` on a free port."""
    port = free_port()
    return [*AGENT, "mcp", "serve", "--transport", "http", "--port", str(port), *extra], port


def quill_http(log: Path, mode: str = "ok") -> tuple[list[str], int]:
    """The command and port of the test-only server over streamable HTTP."""
    port = free_port()
    return [PYTHON, str(TEST_SERVER), "--http", str(port), "--mode", mode], port


def _wait_for_port(
    port: int, process: subprocess.Popen[bytes], timeout_s: float, log: Path
) -> None:
    """Wait until something accepts connections on the port; fail with the log otherwise."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early:\n{log.read_text()[-3000:]}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"server did not listen in {timeout_s}s:\n{log.read_text()[-3000:]}")
