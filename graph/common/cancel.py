"""Ctrl-C for waits on other threads: a run stops within a second, not at a call's deadline.

Python raises KeyboardInterrupt only in the main thread. A tool call LangGraph runs on a worker
thread (an MCP call waiting for its server) or a model call waiting on its own thread would
otherwise go on until its deadline, and LangGraph waits for it before the interrupt can end
the run. ``on_ctrl_c()`` (the command line enters it around a run) records Ctrl-C in a flag
before raising KeyboardInterrupt as usual; ``wait_future`` and ``wait_event`` wait in slices
of ``SLICE_S`` seconds and raise ``Cancelled`` (a KeyboardInterrupt) on any thread once it is
set, so the whole run unwinds at once and the command line prints its resume line.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType
from typing import Any, TypeVar

SLICE_S = 0.1
"""Longest a wait goes without looking at the flag."""
T = TypeVar("T")
_CTRL_C = threading.Event()


class Cancelled(KeyboardInterrupt):
    """Ctrl-C was pressed while this thread waited."""


@contextlib.contextmanager
def on_ctrl_c() -> Iterator[None]:
    """Within the block, Ctrl-C also sets the flag every wait here looks at (main thread only).

    The flag is cleared on entry, and stays set after a Ctrl-C: threads still waiting when
    the block unwinds end too.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)

    def interrupt(signum: int, frame: FrameType | None) -> Any:
        _CTRL_C.set()
        # A worker thread that ends with Cancelled after the run's executor shut down makes
        # concurrent.futures log "exception calling callback" with a traceback: the run is
        # over by then, so that is noise on the terminal, never news.
        logging.getLogger("concurrent.futures").disabled = True
        if callable(previous):
            return previous(signum, frame)
        raise KeyboardInterrupt

    _CTRL_C.clear()
    signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def wait_future(future: concurrent.futures.Future[T], timeout: float) -> T:
    """``future.result(timeout)``, raising Cancelled as soon as Ctrl-C is pressed."""
    end = time.monotonic() + timeout
    while True:
        if _CTRL_C.is_set():
            raise Cancelled
        left = end - time.monotonic()
        try:
            return future.result(max(0.0, min(SLICE_S, left)))
        except concurrent.futures.TimeoutError:
            if left <= SLICE_S:
                raise


def wait_event(event: threading.Event, timeout: float) -> bool:
    """``event.wait(timeout)``, raising Cancelled as soon as Ctrl-C is pressed."""
    end = time.monotonic() + timeout
    while not event.is_set():
        if _CTRL_C.is_set():
            raise Cancelled
        left = end - time.monotonic()
        if left <= 0:
            return False
        event.wait(min(SLICE_S, left))
    return True


__all__ = ["SLICE_S", "Cancelled", "on_ctrl_c", "wait_event", "wait_future"]
