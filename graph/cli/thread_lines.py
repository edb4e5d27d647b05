"""`agent threads` as lines: one per thread, cut to the terminal's width, eval threads apart.

A thread `agent eval` made has an id starting ``eval-`` (see `evals.runner.thread_id_for`)
or an ``"eval"`` marker in its checkpoint metadata; the listing hides those unless asked.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from typing import Any

from graph.app.terminal import cut, safe_text
from graph.app.thread_list import ThreadSummary

EVAL_THREAD_PREFIX = "eval-"
ARROW = " -> "
FALLBACK_WIDTH = 100


def is_eval_thread(thread_id: str, metadata: Mapping[str, Any] | None) -> bool:
    """Whether `agent eval` made the thread (by its id, or an `eval` marker in its metadata)."""
    return thread_id.startswith(EVAL_THREAD_PREFIX) or bool((metadata or {}).get("eval"))


def terminal_width() -> int:
    """Columns of the terminal ($COLUMNS first; FALLBACK_WIDTH when not a terminal)."""
    return shutil.get_terminal_size((FALLBACK_WIDTH, 24)).columns


def thread_line(row: ThreadSummary, width: int) -> str:
    """`id  stopped  N steps  question -> answer`, question and answer cut to fit `width`."""
    from rich.cells import cell_len

    steps = f"{row.steps} step{'s' * (row.steps != 1)}"
    head = f"{row.thread_id}  {(row.stopped or 'running'):<8} {steps:>8}  "
    question = safe_text(row.question, one_line=True).strip()
    answer = safe_text(row.answer if row.answer is not None else "-", one_line=True).strip()
    room = width - cell_len(head) - len(ARROW)
    if room < 2:
        return cut(head.rstrip(), width)
    question = cut(question, max(room // 2, room - cell_len(answer)))
    answer = cut(answer, room - cell_len(question))
    return f"{head}{question}{ARROW}{answer}"
