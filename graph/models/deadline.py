"""One deadline for a whole model call, and a notice while it is slow.

HTTP clients time out each read, so a server dripping one byte a second is never timed out,
and retries multiply the wait. `call_within` bounds the whole call (retries included) and
logs one line on the `agent.model` logger when no reply has come after `NOTICE_AFTER_S`;
`bounded_http_client` stops reading a reply once the deadline has passed and sends no retry
after it, so an abandoned call does not go on in the background.
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import httpx

from graph.common.cancel import wait_event
from graph.models.notices import LOGGER

NOTICE_AFTER_S = 5.0
"""Seconds without a reply before the wait is announced."""
WAITING = "waiting for {label}: no reply after {after:g} s (giving up after {timeout:g} s)"
TIMED_OUT = "no complete reply from {label} within {timeout:g} s (AGENT_MODEL_TIMEOUT)"

T = TypeVar("T")
_CALL_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "model_call_deadline", default=None
)
"""When the model call being made must be over (`time.monotonic()`), for the transport."""


class ModelTimeout(TimeoutError):
    """The model call did not finish within its deadline."""


def call_within(fn: Callable[[], T], timeout_s: float, label: str) -> T:
    """Run `fn` (a model call) and return its result, or raise ModelTimeout after `timeout_s`.

    The call runs on a daemon thread with the caller's context (so LangGraph's callbacks and
    config follow it); after NOTICE_AFTER_S one line says what is being waited for. Ctrl-C
    ends the wait at once (`graph.common.cancel`), on whichever thread waits.
    """
    done = threading.Event()
    outcome: dict[str, Any] = {}
    context = contextvars.copy_context()

    def bounded() -> T:
        _CALL_DEADLINE.set(time.monotonic() + timeout_s)
        return fn()

    def run() -> None:
        try:
            outcome["value"] = context.run(bounded)
        except BaseException as error:  # handed to the caller as is
            outcome["error"] = error
        finally:
            done.set()

    threading.Thread(target=run, name="model-call", daemon=True).start()
    notice_after = min(NOTICE_AFTER_S, timeout_s)
    if not wait_event(done, notice_after) and notice_after < timeout_s:
        logging.getLogger(LOGGER).warning(
            WAITING.format(label=label, after=notice_after, timeout=timeout_s)
        )
        wait_event(done, timeout_s - notice_after)
    if not done.is_set():
        raise ModelTimeout(TIMED_OUT.format(label=label, timeout=timeout_s))
    if "error" in outcome:
        raise outcome["error"]
    result: T = outcome["value"]
    return result


class _DeadlineStream(httpx.SyncByteStream):
    """A response body that stops with a ReadTimeout once its deadline has passed."""

    def __init__(self, inner: httpx.SyncByteStream, deadline: float, request: httpx.Request):
        self.inner = inner
        self.deadline = deadline
        self.request = request

    def __iter__(self) -> Iterator[bytes]:
        """The body's chunks, while the deadline holds."""
        for chunk in self.inner:
            if time.monotonic() > self.deadline:
                raise httpx.ReadTimeout("the reply took too long", request=self.request)
            yield chunk

    def close(self) -> None:
        """Close the underlying stream."""
        self.inner.close()


class _DeadlineTransport(httpx.BaseTransport):
    """An HTTP transport whose replies must be complete within `total_s` of the request."""

    def __init__(self, total_s: float) -> None:
        self.total_s = total_s
        self.inner = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send the request; its body stream enforces the deadline.

        Within a bounded model call, a request (a retry) after the call's deadline is not sent.
        """
        deadline = time.monotonic() + self.total_s
        call_deadline = _CALL_DEADLINE.get()
        if call_deadline is not None:
            if time.monotonic() >= call_deadline:
                raise httpx.ConnectTimeout("the model call's deadline has passed", request=request)
            deadline = min(deadline, call_deadline)
        response = self.inner.handle_request(request)
        stream = response.stream
        assert isinstance(stream, httpx.SyncByteStream)
        response.stream = _DeadlineStream(stream, deadline, request)
        return response

    def close(self) -> None:
        """Close the underlying transport."""
        self.inner.close()


def bounded_http_client(timeout_s: float) -> httpx.Client:
    """An httpx client whose requests (body included) end within `timeout_s` each."""
    return httpx.Client(transport=_DeadlineTransport(timeout_s), timeout=timeout_s)
