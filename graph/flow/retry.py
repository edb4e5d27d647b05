"""RETRY_ONCE as LangGraph's own ``RetryPolicy``, retrying only transient errors.

A stage that calls a tool turns the tool's exception into data (a failed run) unless the error
is transient (``is_transient``: a timeout, a dropped connection, a 408/429/5xx); then it raises
``TransientStageError`` with the one-line detail it would have logged. The stage's node
(``graph.flow.stage_node``) records that failed run and re-raises while the policy allows
another run, and ``RetryPolicy(retry_on=retries_stage)`` runs the node again; on the last
allowed run the node logs the failure instead of raising, so the table escalates.

LangGraph clears a failed attempt's writes before it retries (the next attempt sees the same
input state), so the failed run's log entry cannot travel in the state: ``FailedRuns`` keeps
it in memory, keyed by the task id the retry shares, until the next attempt picks it up. A
process killed between the attempts loses it along with the attempt count, and the stage
starts again from its first run, which is what its log then says.
"""

from __future__ import annotations

import threading

from langgraph.types import RetryPolicy

from graph.flow.state import LogEntry
from graph.flow.transitions import MAX_RUNS, POLICY, Failure, Stage

TRANSIENT_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})
"""HTTP statuses worth one more try (timeouts, rate limits, a server briefly unavailable)."""
RETRY_INTERVAL_S = 0.05
"""Seconds LangGraph waits before the retry (no jitter: a run's timing stays reproducible)."""


class TransientStageError(Exception):
    """A stage failed on a transient error; ``str(e)`` is the one-line detail it logs."""


def is_transient(exc: BaseException) -> bool:
    """Whether ``exc`` is worth one more try: a timeout, a dropped connection, 408/429/5xx.

    Also true for an exception that says so itself (``exc.transient = True``), so a tool
    transport can mark its own errors, and for an exception group whose members all are.
    """
    if isinstance(exc, TimeoutError | ConnectionError):
        return True
    if getattr(exc, "transient", False) is True:
        return True
    for name in ("status_code", "status"):
        status = getattr(exc, name, None)
        if isinstance(status, int) and status in TRANSIENT_STATUS:
            return True
    if isinstance(exc, BaseExceptionGroup):
        return all(is_transient(inner) for inner in exc.exceptions)
    return False


def retries_stage(exc: Exception) -> bool:
    """``retry_on`` for the stages' ``RetryPolicy``: only a stage's transient failure."""
    return isinstance(exc, TransientStageError)


def retry_policy_for(stage: Stage) -> RetryPolicy | None:
    """The ``RetryPolicy`` for a stage's node: one retry for RETRY_ONCE, None otherwise."""
    if POLICY[stage] is not Failure.RETRY_ONCE:
        return None
    return RetryPolicy(
        initial_interval=RETRY_INTERVAL_S,
        backoff_factor=1.0,
        max_interval=RETRY_INTERVAL_S,
        max_attempts=MAX_RUNS[Failure.RETRY_ONCE],
        jitter=False,
        retry_on=retries_stage,
    )


class FailedRuns:
    """Log entries of failed attempts, kept across LangGraph's retry of the same task."""

    def __init__(self) -> None:
        self._entries: dict[str, list[LogEntry]] = {}
        self._lock = threading.Lock()

    def add(self, task_id: str, entry: LogEntry) -> None:
        """Keep the entry of a failed attempt of ``task_id`` for its next attempt."""
        with self._lock:
            self._entries.setdefault(task_id, []).append(entry)

    def take(self, task_id: str) -> list[LogEntry]:
        """Return and forget the failed attempts kept for ``task_id`` (oldest first)."""
        with self._lock:
            return self._entries.pop(task_id, [])

    def __len__(self) -> int:
        """How many tasks have failed attempts waiting for a retry."""
        return len(self._entries)


__all__ = [
    "FailedRuns",
    "RETRY_INTERVAL_S",
    "TRANSIENT_STATUS",
    "TransientStageError",
    "is_transient",
    "retries_stage",
    "retry_policy_for",
]
