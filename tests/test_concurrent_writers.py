"""Two writers on one thread: the second is refused with one line, and no turn is lost.

In-process (two sessions on one store, every checkpointer) and across two real processes (a
slow policy in a worker, the `agent` CLI beside it) on one SQLite file.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.app.agent_threads import UnknownThread
from graph.app.persistence import open_checkpointer
from graph.app.session import Session
from graph.app.thread_lock import ThreadBusy, lock_key
from graph.models.offline.model import PolicyModel

HERE = Path(__file__).parent
FIRST = "Who leads the team that owns Beacon?"
SECOND = "what's our refund window?"


class GatedPolicy(PolicyModel):
    """The policy, holding its first decision until the test opens the gate."""

    entered: Any
    gate: Any

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        self.entered.set()
        assert self.gate.wait(30)
        return super()._generate(*args, **kwargs)


def test_a_second_writer_on_a_running_thread_is_refused(
    checkpointer: BaseCheckpointSaver,
) -> None:
    entered, gate = threading.Event(), threading.Event()
    slow = Session(checkpointer, model=GatedPolicy(entered=entered, gate=gate))
    results: list[dict[str, Any]] = []
    runner = threading.Thread(target=lambda: results.append(slow.ask(FIRST, thread_id="shared")))
    runner.start()
    try:
        assert entered.wait(30)
        with pytest.raises(ThreadBusy, match="'shared' is being run by another"):
            Session(checkpointer).ask(SECOND, thread_id="shared")
        other = Session(checkpointer).ask(SECOND, thread_id="elsewhere")  # other threads run
        assert other["citations"] == ["pol-1"]
    finally:
        gate.set()
        runner.join(60)
    assert results and "Tomas Ekberg" in results[0]["answer"]

    after = Session(checkpointer).ask(SECOND, thread_id="shared")  # free again
    assert after["citations"] == ["pol-1"]
    questions = [m.content for m in Session(checkpointer).messages("shared") if m.type == "human"]
    assert questions == [FIRST, SECOND]


def test_lock_keys_are_stable_and_distinct() -> None:
    assert lock_key("shared") == lock_key("shared")
    assert len({lock_key(f"t-{n}") for n in range(2000)}) == 2000
    assert all(0 <= lock_key(f"t-{n}") < 2**62 for n in range(100))


@pytest.mark.slow
def test_two_processes_on_one_thread_never_lose_a_turn(tmp_path: Path) -> None:
    db, gate = tmp_path / "shared.sqlite", tmp_path / "go"
    worker = subprocess.Popen(
        [
            sys.executable,
            str(HERE / "crash_worker.py"),
            str(db),
            "shared",
            FIRST,
            "0",
            f"gate={gate}",
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=HERE.parent,
    )
    try:
        assert worker.stdout is not None and worker.stdout.readline().strip() == "READY"
        wait_for_thread(db, "shared")
        second = agent_cli("ask", SECOND, "--thread", "shared", "--db", str(db))
        assert second.returncode == 1
        assert second.stderr.count("\n") == 1 and "Traceback" not in second.stderr
        assert second.stderr.startswith("error: thread 'shared' is being run by another")
        gate.touch()
        assert worker.stdout.readline().strip() == "DONE"
    finally:
        worker.kill()
        worker.wait()
    again = agent_cli("ask", SECOND, "--thread", "shared", "--db", str(db))
    assert again.returncode == 0, again.stderr
    replay = agent_cli("replay", "shared", "--db", str(db))
    assert FIRST in replay.stdout and SECOND in replay.stdout


def wait_for_thread(db: Path, thread_id: str) -> None:
    """Wait until the worker's run has saved its first checkpoint (it holds the lock then)."""
    for _ in range(600):
        if db.exists():
            with open_checkpointer(str(db)) as saver:
                try:
                    Session(saver, builtins=False).snapshot(thread_id)
                    return
                except UnknownThread:
                    pass
        time.sleep(0.05)
    raise AssertionError("the worker never started its run")


def agent_cli(*argv: str) -> subprocess.CompletedProcess[str]:
    """Run the `agent` command line in its own process."""
    return subprocess.run(
        [sys.executable, "-m", "graph", *argv],
        capture_output=True,
        text=True,
        cwd=HERE.parent,
        timeout=120,
    )
