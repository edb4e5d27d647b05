"""`resume` of finished and failed threads, and Ctrl-C during `ask` (item 20, issue 11)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.app.session import Session
from graph.models.offline.model import PolicyModel
from tools.search import SearchTool

QUESTION = "Who leads the team that owns Beacon?"


def test_resume_of_a_finished_thread_says_it_is_finished(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "ask", QUESTION, "--thread", "done-1")
    assert code == 0, err
    code, out, err = run_cli(capsys, "resume", "done-1")
    assert code == 0, err
    assert out.splitlines()[0] == "thread done-1 is finished: nothing to resume; its result:"
    assert "Tomas Ekberg" in out


def test_ctrl_c_during_ask_prints_the_thread_to_resume(
    agent_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    original = SearchTool._run
    calls: list[str] = []

    def interrupted(self: SearchTool, query: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(query)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return original(self, query, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(SearchTool, "_run", interrupted)
        code, _, err = run_cli(capsys, "ask", QUESTION)
    assert code == 130
    match = re.fullmatch(r"error: interrupted; resume with: agent resume (t-[0-9a-f]+)\n", err)
    assert match, err
    code, out, err = run_cli(capsys, "resume", match.group(1))
    assert code == 0, err
    assert "Tomas Ekberg" in out and "is finished" not in out


class FailsOnce(PolicyModel):
    """The policy, whose model call number `fail_at` raises (a server error) once."""

    fail_at: int = 2
    calls: list[int] = []

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(1)
        if len(self.calls) == self.fail_at:
            raise RuntimeError("model server said 503")
        return super()._generate(*args, **kwargs)


def test_resume_retries_the_failed_model_call(checkpointer: BaseCheckpointSaver) -> None:
    reference = Session(checkpointer).ask(QUESTION, thread_id="reference")
    session = Session(checkpointer, model=FailsOnce(calls=[]))
    failed = session.ask(QUESTION, thread_id="flaky")
    assert failed["stopped"] == "error" and "503" in failed["error"]
    assert not session.is_finished("flaky")

    result = session.resume("flaky")
    assert result["stopped"] == "answer" and result["error"] is None
    for key in ("answer", "citations", "steps", "retrieved"):
        assert result[key] == reference[key], key
    messages = session.messages("flaky")
    assert [m.type for m in messages] == [m.type for m in session.messages("reference")]
    asked = [c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    assert sorted(m.tool_call_id for m in messages if isinstance(m, ToolMessage)) == sorted(asked)
    assert session.is_finished("flaky")
