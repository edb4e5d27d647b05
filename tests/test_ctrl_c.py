"""Ctrl-C during a blocked call stops ``agent ask`` at once, with the resume line.

The call's deadline is set long (120 s); the resume line must come within a few seconds of
SIGINT (the process then exits; the interpreter's own shutdown can take tens of seconds on a
busy machine, so that is bounded at half the deadline). ``agent ask`` runs in a child process,
so the signal reaches it as a terminal's would.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from fake_openai import fake_openai
from mcp_helpers import AGENT, PYTHON, stdio_spec
from server_utils import ROOT

pytestmark = pytest.mark.server
QUESTION = "Who keeps the Velloran lighthouse?"
RESUME = "error: interrupted; resume with: agent resume "


def interrupt_when(ready: object, argv: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Start ``agent ask``; once ``ready()`` holds, SIGINT it.

    Returns the seconds until the resume line came, and everything on standard error.
    """
    environ = {**os.environ, **env}
    child = subprocess.Popen([*AGENT, *argv], cwd=ROOT, env=environ, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not ready():  # type: ignore[operator]
            assert time.monotonic() < deadline and child.poll() is None, "never got to the call"
            time.sleep(0.1)
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        start = time.monotonic()
        assert child.stderr is not None
        lines = []
        for line in child.stderr:
            lines.append(line)
            if line.startswith(RESUME):
                break
        seconds = time.monotonic() - start
        lines.append(child.stderr.read())
        assert child.wait(timeout=60) == 130
        assert time.monotonic() - start < 60
        return seconds, "".join(lines)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_ctrl_c_during_a_blocked_mcp_call(tmp_path: Path) -> None:
    called = tmp_path / "called"
    raw = ROOT / "tests" / "mcp_servers" / "raw_server.py"
    spec = stdio_spec(PYTHON, str(raw), json.dumps({"hang_calls": str(called)}))
    env = {"AGENT_HOME": str(tmp_path / "home"), "AGENT_MCP_TIMEOUT": "120"}
    seconds, err = interrupt_when(called.exists, ["ask", QUESTION, "--mcp", spec], env)
    assert seconds < 3, f"took {seconds:.1f} s: {err}"
    assert err.splitlines()[-1].startswith(RESUME) and "Traceback" not in err


def test_ctrl_c_while_a_model_server_stays_silent(tmp_path: Path) -> None:
    with fake_openai([{"hang": 300}]) as fake:
        env = {
            "AGENT_HOME": str(tmp_path / "home"), "OPENAI_BASE_URL": fake.base_url,
            "OPENAI_API_KEY": "test-key", "AGENT_MODEL_TIMEOUT": "120",
            "AGENT_MODEL_RETRIES": "0", "NO_PROXY": "127.0.0.1",
        }  # fmt: skip
        argv = ["ask", QUESTION, "--model", "openai:fake-model"]
        seconds, err = interrupt_when(lambda: bool(fake.requests), argv, env)
    assert seconds < 3, f"took {seconds:.1f} s: {err}"
    assert err.splitlines()[-1].startswith(RESUME) and "Traceback" not in err
