"""Runs killed with SIGKILL at random points resume from their last checkpoint and complete,
with no completed step lost or repeated in the transcript. Every fourth trial kills the worker
in the window between `act`'s saved writes and the next checkpoint.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from graph.app.agent_threads import UnknownThread
from graph.app.persistence import open_checkpointer
from graph.app.session import Session

pytestmark = pytest.mark.slow

HERE = Path(__file__).parent
QUESTIONS = [
    "Which company builds the charging docks in the office where the Fleet Platform team sits?",
    "what is the warranty on the earbuds made by the company that acquired Acme?",
    "Who leads the team that owns Beacon?",
]
TRIALS = 24
DELAY_S = 0.1
WINDOW_EVERY = 4


def calls_of(messages: list) -> list[tuple[str, str]]:
    """The (tool, arguments) of every model step, in order."""
    return [
        (call["name"], repr(sorted(call["args"].items())))
        for message in messages
        if isinstance(message, AIMessage)
        for call in message.tool_calls
    ]


def assert_well_formed(messages: list) -> None:
    """Every tool call answered exactly once, right after its step; no step twice."""
    answered: dict[str, int] = {}
    for message in messages:
        if isinstance(message, ToolMessage):
            answered[message.tool_call_id] = answered.get(message.tool_call_id, 0) + 1
    ids = [c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    assert len(ids) == len(set(ids)), "a step was repeated"
    assert all(answered.get(i) == 1 for i in ids), answered


def reference(tmp_path: Path) -> dict[str, tuple[list, dict]]:
    """Each question run once without interruption."""
    with open_checkpointer(str(tmp_path / "reference.sqlite")) as saver:
        session = Session(saver)
        out = {}
        for question in QUESTIONS:
            result = session.ask(question)
            out[question] = (calls_of(session.messages(result["thread_id"])), result)
        return out


def test_killed_runs_resume_and_complete(tmp_path: Path) -> None:
    expected = reference(tmp_path)
    rng = random.Random(20261129)
    db = tmp_path / "crash.sqlite"
    outcomes = {"killed_mid_run": 0, "finished_before_kill": 0, "killed_before_start": 0}
    in_window = 0
    for trial in range(TRIALS):
        question = QUESTIONS[trial % len(QUESTIONS)]
        thread_id = f"crash-{trial}"
        window = trial % WINDOW_EVERY == WINDOW_EVERY - 1
        worker = subprocess.Popen(
            [
                sys.executable,
                str(HERE / "crash_worker.py"),
                str(db),
                thread_id,
                question,
                str(DELAY_S),
                *(["act-writes"] if window else []),
            ],
            stdout=subprocess.PIPE,
            text=True,
            cwd=HERE.parent,
        )
        assert worker.stdout is not None
        assert worker.stdout.readline().strip() == "READY"
        if window:
            assert worker.wait(timeout=60) == -signal.SIGKILL
        else:
            time.sleep(rng.uniform(0.02, 0.4))
            os.kill(worker.pid, signal.SIGKILL)
            worker.wait()
        with open_checkpointer(str(db)) as saver:
            session = Session(saver)
            try:
                snapshot = session.snapshot(thread_id)
            except UnknownThread:
                outcomes["killed_before_start"] += 1
                result = session.ask(question, thread_id=thread_id)
            else:
                if window:
                    assert snapshot.next == () and [t.name for t in snapshot.tasks] == ["act"]
                    in_window += 1
                if snapshot.tasks or snapshot.values.get("stopped") is None:
                    outcomes["killed_mid_run"] += 1
                    result = session.resume(thread_id)
                else:
                    outcomes["finished_before_kill"] += 1
                    result = session.result(thread_id)
            messages = session.messages(thread_id)
        want_calls, want = expected[question]
        assert_well_formed(messages)
        assert calls_of(messages) == want_calls
        assert result["stopped"] == "answer" and result["answer"] == want["answer"]
        assert result["citations"] == want["citations"] and result["steps"] == want["steps"]
    assert outcomes["killed_mid_run"] >= TRIALS // 2, outcomes
    assert in_window == TRIALS // WINDOW_EVERY


def test_the_cli_continues_a_killed_run(tmp_path: Path) -> None:
    db = tmp_path / "cli.sqlite"
    question = QUESTIONS[0]
    worker = subprocess.Popen(
        [sys.executable, str(HERE / "crash_worker.py"), str(db), "cli-crash", question, "0.2"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=HERE.parent,
    )
    assert worker.stdout is not None and worker.stdout.readline().strip() == "READY"
    time.sleep(0.45)  # inside the second or third step
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()
    with open_checkpointer(str(db)) as saver:
        assert Session(saver).snapshot("cli-crash").values.get("stopped") is None
    for command in (["ask", question, "--thread", "cli-crash"], ["resume", "cli-crash"]):
        done = subprocess.run(
            [sys.executable, "-m", "graph", *command, "--db", str(db)],
            capture_output=True,
            text=True,
            cwd=HERE.parent,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "Voltline" in done.stdout
    with open_checkpointer(str(db)) as saver:
        messages = Session(saver).messages("cli-crash")
    assert_well_formed(messages)
    assert len([m for m in messages if m.type == "human"]) == 1
