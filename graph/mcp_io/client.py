"""MCP client sessions for synchronous code: one background event loop owns them all.

The agent graph runs synchronously (``graph.stream``) while the MCP SDK and
langchain-mcp-adapters are async. ``MCPClients`` starts one daemon thread running an asyncio
event loop; each server gets one long-lived task on that loop that opens the transport and the
``ClientSession``, lists the tools, and holds them open until ``close()`` (anyio requires the
task that opened a transport to close it). Synchronous callers submit coroutines to that loop
and wait on the result with a deadline, so one session per server serves every call of a run.

Every failure comes out as ``MCPError`` with one line: a server that cannot start (its last
line of standard error is quoted), one that exits mid-call, one that does not answer a call
within ``AGENT_MCP_TIMEOUT`` seconds (default 30; starting may take at least 30 s, since a cold
Python start on a busy machine is slow), or one that returns something malformed, or one that
sends more than its ``Guard`` allows (too many non-JSON lines, a message or a call too long:
the wait ends at once, with that reason). A stdio server (``stdio``) gets the MCP SDK's minimal
environment, never this process's secrets, dies with this process, and its standard error goes
to a temporary file, not the terminal.
``MCPError.transient`` tells transport trouble (worth one retry) from a server's answer.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import tempfile
import threading
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TextIO, TypeVar, cast

import anyio
import httpx
import mcp.types as types
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import McpError

from graph.common.cancel import Cancelled, wait_future
from graph.common.env import env_float
from graph.mcp_io.errors import MCPError, describe, startup_problem
from graph.mcp_io.guard import Guard, capped_http_client, guarded
from graph.mcp_io.spec import ServerSpec, parse_spec, server_name
from graph.mcp_io.stdio import stdio_streams

TIMEOUT_ENV = "AGENT_MCP_TIMEOUT"
"""Seconds to wait for a server to start or answer one call (default 30)."""
DEFAULT_TIMEOUT = 30.0
START_FLOOR = 30.0
"""Starting a server may take at least this long (a cold Python start on a busy machine)."""
GRACE = 2.0
"""Extra seconds the caller waits beyond the session's own timeout before giving up on it."""
CLOSE_WAIT = 5.0
"""Most seconds ``close()`` waits for the sessions to shut down."""
SDK_LOGGERS = ("mcp.client.streamable_http", "client")
"""The SDK loggers a client silences (``client`` is ``ClientSession``'s): what they report
comes out as one ``MCPError``."""
MAX_PAGES = 20
"""Most ``tools/list`` pages followed."""
NO_ANSWER = "no answer within {s:g} s (" + TIMEOUT_ENV + ")"
T = TypeVar("T")


def mcp_timeout() -> float:
    """``AGENT_MCP_TIMEOUT`` in seconds (0.05 to 3600), default 30; ValueError when bad."""
    return env_float(TIMEOUT_ENV, DEFAULT_TIMEOUT, 0.05, 3600.0)


@dataclass
class Server:
    """One connected server: its session, its name and its tools."""

    spec: ServerSpec
    name: str
    """The server's own name (from ``initialize``), made safe and unique in this pool."""
    session: ClientSession
    tools: list[types.Tool]
    closing: asyncio.Event = field(repr=False)
    guard: Guard = field(default_factory=Guard, repr=False)
    """What the server may send; broken (with its reason) once it sent more."""
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class MCPClients:
    """MCP client sessions owned by a background event loop, used from synchronous code.

    Use as a context manager (or call ``close()``): sessions are closed and stdio servers
    stopped on exit.
    """

    def __init__(self, timeout: float | None = None) -> None:
        self.timeout = mcp_timeout() if timeout is None else timeout
        quiet_sdk_logs()
        self.servers: dict[str, Server] = {}
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-io", daemon=True)
        self._thread.start()
        self._closed = False

    def __enter__(self) -> MCPClients:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- running coroutines on the loop --------------------------------------------------------

    def run(
        self,
        coroutine: Coroutine[Any, Any, T],
        what: str,
        timeout: float | None = None,
        guard: Guard | None = None,
    ) -> T:
        """Run ``coroutine`` on the loop and wait; MCPError on failure or past the deadline.

        With the server's ``guard``, the wait ends as soon as the server breaks its limits.
        """
        if self._closed:
            coroutine.close()
            raise MCPError(f"{what}: the MCP clients are closed")
        future = asyncio.run_coroutine_threadsafe(guarded(coroutine, guard), self._loop)
        limit = (self.timeout if timeout is None else timeout) + GRACE
        try:
            return wait_future(future, limit)
        except Cancelled:  # Ctrl-C: stop waiting now, not at the deadline
            future.cancel()
            raise
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise MCPError(f"{what}: {NO_ANSWER.format(s=limit - GRACE)}") from None
        except MCPError as error:
            raise MCPError(f"{what}: {error}", error.transient) from None
        except McpError as error:
            if error.error.code == httpx.codes.REQUEST_TIMEOUT:  # the session's own deadline
                raise MCPError(f"{what}: {NO_ANSWER.format(s=limit - GRACE)}") from None
            transient = error.error.code == types.CONNECTION_CLOSED
            raise MCPError(f"{what}: {describe(error)}", transient=transient) from None
        except Exception as error:  # noqa: BLE001 - anything a transport raises is one line
            raise MCPError(f"{what}: {describe(error)}") from None

    # -- connecting ----------------------------------------------------------------------------

    def connect(self, spec: ServerSpec | str) -> Server:
        """Start (stdio) or reach (http) a server, initialize it and list its tools."""
        spec = parse_spec(spec) if isinstance(spec, str) else spec
        start = max(self.timeout, START_FLOOR)
        return self.run(self._open(spec, start), f"MCP server {spec.label}", timeout=start)

    def connect_all(self, specs: Sequence[ServerSpec | str]) -> list[Server]:
        """Connect to each server in turn (closing everything if one fails)."""
        try:
            return [self.connect(spec) for spec in specs]
        except BaseException:
            self.close()
            raise

    async def _open(self, spec: ServerSpec, start: float) -> Server:
        """Start the server's owner task and wait until it is connected (or has failed)."""
        ready: asyncio.Future[Server] = self._loop.create_future()
        guard = Guard()
        task = asyncio.ensure_future(self._own(spec, start, ready, guard))
        try:
            server = await asyncio.wait_for(guarded(asyncio.shield(ready), guard), start)
        except BaseException:
            task.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, CLOSE_WAIT)
            if ready.done() and not ready.cancelled():
                ready.exception()  # reported by this raise, not as "never retrieved"
            raise
        server.task = task
        return server

    async def _own(
        self, spec: ServerSpec, start: float, ready: asyncio.Future[Server], guard: Guard
    ) -> None:
        """Open the transport and session, hand them over, hold them until closing."""
        errlog = cast(TextIO, tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace"))
        try:
            async with contextlib.AsyncExitStack() as stack:
                read, write = await self._transport(stack, spec, errlog, guard)
                session = await stack.enter_async_context(
                    ClientSession(read, write, read_timeout_seconds=timedelta(seconds=start))
                )
                info = await session.initialize()
                tools = await _list_tools(session)
                name = self._unique(server_name(info.serverInfo.name))
                server = Server(spec, name, session, tools, asyncio.Event(), guard)
                self.servers[name] = server
                ready.set_result(server)
                await server.closing.wait()
        except BaseException as error:  # noqa: BLE001 - reported through `ready`
            if not ready.done():
                problem = f"the server {guard.problem}" if guard.problem else None
                ready.set_exception(MCPError(problem or startup_problem(error, errlog)))
            if isinstance(error, asyncio.CancelledError):
                raise
        finally:
            errlog.close()

    async def _transport(
        self, stack: contextlib.AsyncExitStack, spec: ServerSpec, errlog: TextIO, guard: Guard
    ) -> tuple[Any, Any]:
        """Open the stdio or streamable HTTP transport; return its read and write streams."""
        if spec.transport == "stdio":
            streams = stdio_streams(spec.command, errlog, guard)
            read, write = await stack.enter_async_context(streams)
            return read, write
        http = capped_http_client(guard, self.timeout)
        await stack.enter_async_context(http)
        raw, write, _ = await stack.enter_async_context(
            streamable_http_client(spec.url, http_client=http)
        )
        relay = await stack.enter_async_context(anyio.create_task_group())
        stack.callback(relay.cancel_scope.cancel)
        sink, read = anyio.create_memory_object_stream[Any](0)
        relay.start_soon(guard.relay, raw, sink)
        return read, write

    def _unique(self, name: str) -> str:
        """``name``, or ``name_2``, ``name_3`` ... when another server already has it."""
        candidate, number = name, 1
        while candidate in self.servers:
            number += 1
            candidate = f"{name}_{number}"
        return candidate

    # -- calling -------------------------------------------------------------------------------

    def call(self, server: str, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
        """Call a tool and return the raw result (``isError`` results are returned, not raised)."""
        if server not in self.servers:
            raise MCPError(f"no MCP server named {server!r}", transient=False)
        session = self.servers[server].session
        deadline = timedelta(seconds=self.timeout)
        return self.run(
            session.call_tool(tool, arguments, read_timeout_seconds=deadline),
            f"MCP {server}.{tool}",
            guard=self.servers[server].guard,
        )

    # -- closing -------------------------------------------------------------------------------

    def close(self) -> None:
        """Close every session (stopping stdio servers) and the loop; safe to call twice."""
        if self._closed:
            return
        self._closed = True

        async def shut() -> None:
            tasks = []
            for server in self.servers.values():
                server.closing.set()
                if server.task is not None:
                    tasks.append(server.task)
            if tasks:
                _, pending = await asyncio.wait(tasks, timeout=CLOSE_WAIT)
                for task in pending:
                    task.cancel()
                if pending:
                    await asyncio.wait(pending, timeout=CLOSE_WAIT)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(shut(), self._loop).result(3 * CLOSE_WAIT)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(CLOSE_WAIT)
        if not self._thread.is_alive():
            self._loop.close()
        self.servers.clear()


class _Drop(logging.Filter):
    """Drops the SDK's records: its client logs are replaced by this module's one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep a record only when the SDK's shared session did not log it on the root logger.

        (On the named SDK loggers nothing is kept.)
        """
        if record.name != "root":
            return False
        return not record.pathname.replace("\\", "/").endswith("mcp/shared/session.py")


def quiet_sdk_logs() -> None:
    """Silence the MCP SDK's client-side logs (a traceback per bad message), once.

    The SDK's shared session logs on the root logger; only its records are dropped there.
    """
    for logger in [*map(logging.getLogger, SDK_LOGGERS), logging.getLogger()]:
        if not any(isinstance(f, _Drop) for f in logger.filters):
            logger.addFilter(_Drop())


async def _list_tools(session: ClientSession) -> list[types.Tool]:
    """Every tool the server lists, following pagination.

    Paging stops after ``MAX_PAGES`` pages or at a cursor already followed (a server whose
    ``tools/list`` always returns ``nextCursor``); what was listed is kept, repeats included,
    for ``check_listing`` to name.
    """
    tools: list[types.Tool] = []
    cursor: str | None = None
    followed: set[str] = set()
    for _ in range(MAX_PAGES):
        page = await session.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.nextCursor
        if not cursor or cursor in followed:
            break
        followed.add(cursor)
    return tools


__all__ = ["DEFAULT_TIMEOUT", "MCPClients", "Server", "TIMEOUT_ENV", "mcp_timeout"]
