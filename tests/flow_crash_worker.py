"""A flow run or resume to be killed: SIGKILLs itself inside a tool or between two stages.

Usage: python flow_crash_worker.py DB ACTION THREAD TEXT WHERE DURABILITY

ACTION is ``run`` (TEXT is the request) or ``resume`` (TEXT is the human's decision). WHERE is
``tool:NAME`` (the tool NAME kills the process when the stage calls it) or ``before:STAGE``
(the process dies right after the checkpoint that schedules STAGE is written, before STAGE
starts). DURABILITY is the run's checkpoint durability (``sync``, ``async`` or ``exit``), or
``default`` to leave it to ``run_flow`` / ``resume_flow``.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any, cast, get_args

from langgraph.types import Durability

from graph.app.flow_runs import resume_flow, run_flow
from graph.app.persistence import open_checkpointer


def die(**kwargs: Any) -> dict[str, Any]:
    """Kill this process at once, as a crash or an OOM kill would."""
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def die_after_scheduling(saver: Any, stage: str) -> None:
    """Make ``saver`` kill the process once it has written the checkpoint that runs ``stage``."""
    put = saver.put

    def put_then_die(config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        saved = put(config, checkpoint, metadata, new_versions)
        if f"branch:to:{stage}" in (checkpoint.get("updated_channels") or ()):
            die()
        return saved

    saver.put = put_then_die


def main() -> None:
    """Run or resume the flow as told, and die where told."""
    db, action, thread, text, where, mode = sys.argv[1:]
    if mode != "default" and mode not in get_args(Durability):
        raise SystemExit(f"unknown durability {mode!r}")
    options: dict[str, Any] = {} if mode == "default" else {"durability": cast(Durability, mode)}
    kind, _, name = where.partition(":")
    tools = {name: die} if kind == "tool" else None
    with open_checkpointer(db) as saver:
        if kind == "before":
            die_after_scheduling(saver, name)
        if action == "run":
            run_flow(text, checkpointer=saver, thread_id=thread, tools=tools, **options)
        else:
            resume_flow(thread, text, checkpointer=saver, tools=tools, **options)
    print("FINISHED", flush=True)


if __name__ == "__main__":
    main()
