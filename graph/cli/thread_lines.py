"""`agent threads` as lines: one per thread, with its date and model, cut to the terminal's width.

Which threads are `agent eval`'s (hidden unless asked) is `graph.app.thread_heads.is_eval_thread`.
"""

from __future__ import annotations

import shutil

from graph.app.terminal import cut, safe_text
from graph.app.thread_list import ThreadSummary

ARROW = " -> "
FALLBACK_WIDTH = 100
MODEL_WIDTH = 24
"""A recorded model name longer than this is cut in the listing."""
TEXT_ROOM = 56
"""The cells kept for `question -> answer` before the date and model are left out."""


def terminal_width() -> int:
    """Columns of the terminal ($COLUMNS first; FALLBACK_WIDTH when not a terminal)."""
    return shutil.get_terminal_size((FALLBACK_WIDTH, 24)).columns


def thread_line(row: ThreadSummary, width: int) -> str:
    """`id  date  model  stopped  N steps  question -> answer`, cut to fit `width`.

    The date (UTC, to the minute) and the model are left out when the thread recorded none,
    and (the model first) when they would leave the question and answer under
    `TEXT_ROOM` cells.
    """
    from rich.cells import cell_len

    steps = f"{row.steps} step{'s' * (row.steps != 1)}"
    when = f"{row.updated[:10]} {row.updated[11:16]}  " if len(row.updated) >= 16 else ""
    model = f"{cut(safe_text(row.model, one_line=True), MODEL_WIDTH)}  " if row.model else ""
    tail = f"{(row.stopped or 'running'):<8} {steps:>8}  "
    for extra in (f"{when}{model}", when, ""):
        head = f"{row.thread_id}  {extra}{tail}"
        room = width - cell_len(head) - len(ARROW)
        if room >= TEXT_ROOM:
            break
    question = safe_text(row.question, one_line=True).strip()
    answer = safe_text(row.answer if row.answer is not None else "-", one_line=True).strip()
    if room < 2:
        return cut(head.rstrip(), width)
    question = cut(question, max(room // 2, room - cell_len(answer)))
    answer = cut(answer, room - cell_len(question))
    return f"{head}{question}{ARROW}{answer}"
