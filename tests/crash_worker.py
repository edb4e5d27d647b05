"""A run to be killed: the offline policy made slow (a pause per model call), on a SQLite file.

Usage: python crash_worker.py DB THREAD QUESTION DELAY_S [act-writes | gate=PATH]. Prints
READY when the graph is built (so the parent can time its SIGKILL into the run), then DONE
when the run finishes. With `act-writes` the worker SIGKILLs itself once the first `act`
writes are saved, before the checkpoint after them (`crash_window`): the window a timed kill
rarely hits. With `gate=PATH` each model call waits until PATH exists.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from crash_window import die_after_writes_of

from graph.app.persistence import open_checkpointer
from graph.app.session import Session
from graph.models.offline.model import PolicyModel


class SlowPolicy(PolicyModel):
    """The policy, pausing before each decision so a kill can land inside a step."""

    delay_s: float = 0.05
    gate: str = ""

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        time.sleep(self.delay_s)
        while self.gate and not Path(self.gate).exists():
            time.sleep(0.02)
        return super()._generate(*args, **kwargs)


def main() -> None:
    db, thread_id, question, delay = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    with open_checkpointer(db) as saver:
        option = sys.argv[5] if len(sys.argv) > 5 else ""
        if option == "act-writes":
            die_after_writes_of(saver, "act", lambda: os.kill(os.getpid(), signal.SIGKILL))
        gate = option.removeprefix("gate=") if option.startswith("gate=") else ""
        session = Session(saver, model=SlowPolicy(delay_s=delay, gate=gate))
        print("READY", flush=True)
        session.ask(question, thread_id=thread_id)
        print("DONE", flush=True)


if __name__ == "__main__":
    main()
