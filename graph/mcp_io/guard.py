"""What one MCP server may send this client, and the one line when it sends more.

A ``Guard`` belongs to one server's connection. The transports report to it: a stdio line that
is not a JSON-RPC message a server sends (counted quietly; ``MAX_JUNK_LINES`` of them break the
connection), a message longer than ``MAX_MESSAGE_BYTES``, or one HTTP response to a call longer
than ``MAX_CALL_BYTES`` (a hostile server streaming endless ``data:`` lines). Once broken, the
guard holds the one line saying why, and every wait on the server (``guarded``) ends with it at
once instead of at the deadline.

``capped_http_client`` is the httpx client whose responses are counted this way.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar

import anyio
import httpx
import mcp.types as types
from pydantic import ValidationError

from graph.mcp_io.errors import MCPError

MAX_MESSAGE_BYTES = 4 * 1024 * 1024
"""Longest single message a server may send (an SSE event, a JSON body, a stdio line)."""
MAX_CALL_BYTES = 16 * 1024 * 1024
"""Most bytes one HTTP response to one request may carry (all its events together)."""
MAX_JUNK_LINES = 100
"""Lines on a stdio server's output that are not its JSON-RPC messages, before giving up."""
TOO_LONG = "sent a message longer than {limit} MB (the limit for one message)"
TOO_MUCH = "sent more than {limit} MB in answer to one request (the limit for one call)"
JUNK = (
    "wrote {n} lines that are not JSON-RPC messages to its standard output (first: {first}); "
    "a stdio server may write only protocol messages there"
)
BAD_EVENTS = "sent {n} events that are not JSON-RPC messages (first: {first}): is it an MCP server?"
ECHO = "sent back a client's {method!r} request (is it an MCP server? `cat` echoes what it is sent)"
_CLIENT_ONLY = frozenset({"initialize", "notifications/initialized"})
_BREAKS = (b"\n\n", b"\r\n\r\n", b"\r\r")
T = TypeVar("T")


class Guard:
    """One server connection's limits and, once one is passed, the reason it is broken."""

    def __init__(self) -> None:
        self.problem: str | None = None
        """Why the connection is broken (one line), or None while it is sound."""
        self.junk = 0
        """Lines counted that were not JSON-RPC messages."""
        self.first_junk = ""
        self.broken = asyncio.Event()

    def fail(self, problem: str) -> None:
        """Break the connection with ``problem`` (the first reason wins)."""
        if self.problem is None:
            self.problem = problem
        self.broken.set()

    def message(self, line: bytes) -> types.JSONRPCMessage | None:
        """The JSON-RPC message on one stdio line; None (counted) when it is not one."""
        if not line.strip():
            return None
        try:
            message = types.JSONRPCMessage.model_validate_json(line)
        except (ValidationError, ValueError):
            self._junk(line)
            return None
        root = message.root
        if isinstance(root, types.JSONRPCRequest | types.JSONRPCNotification):
            if root.method in _CLIENT_ONLY:
                self.fail(ECHO.format(method=root.method))
                return None
        return message

    def _junk(self, line: bytes | str, template: str = JUNK) -> None:
        """Count a line that is not a message; break after ``MAX_JUNK_LINES``."""
        self.junk += 1
        if not self.first_junk:
            text = line[:80].decode("utf-8", "replace") if isinstance(line, bytes) else line[:80]
            self.first_junk = repr("".join(ch if ch.isprintable() else "?" for ch in text))
        if self.junk >= MAX_JUNK_LINES:
            self.fail(template.format(n=self.junk, first=self.first_junk))

    async def relay(self, source: Any, sink: Any) -> None:
        """Forward a transport's messages to ``sink``, counting the errors it sends instead.

        The MCP SDK's HTTP transport hands an exception to the session for each event it
        cannot parse (and the session ignores it); counted here, too many break the
        connection.
        """
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            async with sink:
                async for item in source:
                    if isinstance(item, Exception):
                        self._junk(" ".join(str(item).split()), BAD_EVENTS)
                    else:
                        await sink.send(item)


async def guarded(coroutine: Awaitable[T], guard: Guard | None) -> T:
    """Await ``coroutine``; MCPError with the guard's reason as soon as the guard breaks."""
    if guard is None:
        return await coroutine
    task = asyncio.ensure_future(coroutine)
    broken = asyncio.ensure_future(guard.broken.wait())
    try:
        await asyncio.wait({task, broken}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        broken.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
    if task.done() and not task.cancelled() and task.exception() is None:
        return task.result()
    if guard.problem is not None:
        raise MCPError(f"the server {guard.problem}", transient=False)
    return task.result()


class _CappedStream(httpx.AsyncByteStream):
    """A response body that breaks the guard past a message or a call limit."""

    def __init__(self, inner: httpx.AsyncByteStream, guard: Guard, per_call: bool) -> None:
        self.inner = inner
        self.guard = guard
        self.per_call = per_call

    async def __aiter__(self) -> AsyncIterator[bytes]:
        """The body's chunks, counted: total (for a call) and since the last event's end."""
        total = since_break = 0
        tail = b""
        async for chunk in self.inner:
            total += len(chunk)
            window = tail + chunk
            ends = [window.rfind(mark) + len(mark) for mark in _BREAKS if mark in window]
            since_break = len(window) - max(ends) if ends else since_break + len(chunk)
            tail = window[-3:]
            if since_break > MAX_MESSAGE_BYTES:
                self.guard.fail(TOO_LONG.format(limit=MAX_MESSAGE_BYTES // 2**20))
            elif self.per_call and total > MAX_CALL_BYTES:
                self.guard.fail(TOO_MUCH.format(limit=MAX_CALL_BYTES // 2**20))
            if self.guard.problem is not None:
                raise httpx.ReadError(self.guard.problem)
            yield chunk

    async def aclose(self) -> None:
        """Close the underlying stream."""
        await self.inner.aclose()


class _CappedTransport(httpx.AsyncBaseTransport):
    """An HTTP transport whose response bodies are capped (see ``_CappedStream``)."""

    def __init__(self, guard: Guard) -> None:
        self.guard = guard
        self.inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send the request; cap its response (per call too, except the long-lived GET)."""
        response = await self.inner.handle_async_request(request)
        stream = response.stream
        assert isinstance(stream, httpx.AsyncByteStream)
        response.stream = _CappedStream(stream, self.guard, per_call=request.method != "GET")
        return response

    async def aclose(self) -> None:
        """Close the underlying transport."""
        await self.inner.aclose()


def capped_http_client(guard: Guard, timeout: float) -> httpx.AsyncClient:
    """An httpx client (as the MCP SDK makes one) whose responses ``guard`` caps."""
    return httpx.AsyncClient(timeout=httpx.Timeout(timeout), transport=_CappedTransport(guard))


__all__ = [
    "MAX_CALL_BYTES",
    "MAX_JUNK_LINES",
    "MAX_MESSAGE_BYTES",
    "Guard",
    "capped_http_client",
    "guarded",
]
