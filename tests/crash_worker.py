"""A run to be killed: the offline policy made slow (a pause per model call), on a SQLite file.

Usage: python crash_worker.py DB THREAD QUESTION DELAY_S. Prints READY when the graph is built
(so the parent can time its SIGKILL into the run), then DONE when the run finishes.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from graph.models.policy import PolicyModel
from graph.persistence import open_checkpointer
from graph.run import Session


class SlowPolicy(PolicyModel):
    """The policy, pausing before each decision so a kill can land inside a step."""

    delay_s: float = 0.05

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        time.sleep(self.delay_s)
        return super()._generate(*args, **kwargs)


def main() -> None:
    db, thread_id, question, delay = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    with open_checkpointer(db) as saver:
        session = Session(saver, model=SlowPolicy(delay_s=delay))
        print("READY", flush=True)
        session.ask(question, thread_id=thread_id)
        print("DONE", flush=True)


if __name__ == "__main__":
    main()
