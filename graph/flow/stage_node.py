"""One stage as one graph node: run it, time it, log it, count it, apply its failure policy.

``StageNode(stage, function, failed_runs)`` is what ``graph.flow.graph`` adds for each row of
the transition table. A visit to the node runs the stage once, or twice when its policy is
RETRY_ONCE and the first run failed on a transient error (LangGraph's ``RetryPolicy`` runs the
node again; ``graph.flow.retry``). Every run is a log entry ``{stage, ok, detail, ms}`` (a retry's
detail starts ``retry 1:``) and counts in ``attempts``. A failure whose policy is ABORT writes
the refusal here, so the run can end; the graph's router (``next_step``) decides everything else.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from langgraph.runtime import Runtime

from graph.agent.messages import message_text
from graph.agent.question import printable
from graph.common.chat import closing_message, sent_question
from graph.flow.retry import FailedRuns, TransientStageError
from graph.flow.stages import StageFunction
from graph.flow.state import FlowState, LogEntry
from graph.flow.transitions import ABORT, FIRST_STAGE, MAX_RUNS, POLICY, Stage, next_step

ABORTED = "Cannot serve this request: {reason}."
"""The answer of a request the policy aborts."""
BLANK: Mapping[str, Any] = {
    "model_variant": None,
    "symptom": None,
    "tickets": [],
    "fault_code": None,
    "diagnosis_margin": None,
    "top_faults": [],
    "part_no": None,
    "availability": None,
    "sourcing": None,
    "citation": None,
    "answer": "",
    "outcome": None,
    "reason": "",
    "human_decision": None,
}
"""What a new request on a used thread resets (nothing of an earlier request carries over)."""


def request_from_chat(state: Mapping[str, Any]) -> dict[str, Any]:
    """``{"request": text}`` when a chat panel just sent a human message, else nothing."""
    sent = sent_question(state.get("messages") or [])
    if sent is None:
        return {}
    return {"request": printable(message_text(sent))}


class StageNode:
    """The graph node of one stage (callable as ``node(state, runtime)``)."""

    def __init__(self, stage: Stage, function: StageFunction, failed_runs: FailedRuns) -> None:
        self.stage = stage
        self.function = function
        self.failed_runs = failed_runs
        self.__name__ = stage.value

    def __call__(self, state: FlowState, runtime: Runtime) -> dict[str, Any]:
        """Run the stage once (this attempt) and return its state update.

        Raises ``TransientStageError`` after logging the run in ``failed_runs`` when the stage
        failed on a transient error and its policy allows another run; the retry then returns
        that entry in its own update, before its own.
        """
        update: dict[str, Any] = {}
        if self.stage is FIRST_STAGE:  # a new request: forget whatever an earlier one left
            update.update({key: BLANK[key] for key in BLANK if state.get(key) is not None})
            update.update(request_from_chat(state))
            before = 0
        else:
            before = (state.get("attempts") or {}).get(self.stage.value, 0)
        info = runtime.execution_info
        task_id = info.task_id if info is not None else ""
        attempt = info.node_attempt if info is not None else 1
        run = before + attempt
        earlier = self.failed_runs.take(task_id) if attempt > 1 else []
        view: dict[str, Any] = {**state, **update}
        start = time.perf_counter()
        try:
            ok, detail, changes = self.function(view, run)
        except TransientStageError as exc:
            ok, detail, changes = False, str(exc), {}
            if attempt < MAX_RUNS[POLICY[self.stage]]:
                entry = self._entry(run, ok, detail, start)
                self.failed_runs.add(task_id, entry)
                raise
        entry = self._entry(run, ok, detail, start)
        if not ok:
            changes = {**changes, "reason": entry["detail"]}
        update.update(changes)
        if not ok and next_step(self.stage, ok) == ABORT:
            reason = changes.get("reason") or "the request cannot be served"
            update.update(outcome="aborted", answer=ABORTED.format(reason=reason))
        attempts = {} if self.stage is FIRST_STAGE else dict(state.get("attempts") or {})
        attempts[self.stage.value] = run
        update["attempts"] = attempts
        update["log"] = [*earlier, entry]
        if update.get("outcome") in ("answered", "aborted") and update.get("answer"):
            update["messages"] = [closing_message(update["answer"])]  # what a chat panel shows
        return update

    def _entry(self, run: int, ok: bool, detail: str, start: float) -> LogEntry:
        """The log entry of one run that started at ``start`` (``time.perf_counter``)."""
        ms = round((time.perf_counter() - start) * 1000, 1)
        if run > 1:
            detail = f"retry {run - 1}: {detail}"
        return {"stage": self.stage.value, "ok": ok, "detail": detail, "ms": ms}


__all__ = ["ABORTED", "BLANK", "StageNode"]
