"""Starting and stopping a real `langgraph dev` server on a free 127.0.0.1 port, for tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OFFLINE_ENV = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    "LANGGRAPH_NO_VERSION_CHECK": "true",
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
    "NO_PROXY": "127.0.0.1,localhost",
}


def free_port() -> int:
    """A TCP port nobody listens on right now (never 2024)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def langgraph_dev(log: Path, timeout_s: float = 90.0, cwd: Path = ROOT) -> Iterator[str]:
    """Run `langgraph dev` in `cwd` (default: the repo root); yields its base URL, then stops it."""
    port = free_port()
    env = {**os.environ, **OFFLINE_ENV}
    env.pop("OPENAI_API_KEY", None)
    cli = Path(sys.executable).parent / "langgraph"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                str(cli),
                "dev",
                "--no-browser",
                "--no-reload",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            cwd=cwd,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_until_up(url, process, timeout_s, log)
            yield url
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _wait_until_up(url: str, process: subprocess.Popen[bytes], timeout_s: float, log: Path) -> None:
    """Poll `/ok` until the server answers; fail with its log if it dies or times out."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"langgraph dev exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/ok", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"langgraph dev did not come up in {timeout_s}s:\n{log.read_text()[-3000:]}")
