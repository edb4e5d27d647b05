"""MCP failures as one line: ``MCPError`` and the words for what a transport raised."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TextIO

import anyio
import httpx
import mcp.types as types
from mcp.shared.exceptions import McpError
from pydantic import ValidationError

from graph.mcp_io.spec import redacted


class MCPError(ValueError):
    """An MCP server failed to start, answer or make sense; ``str()`` is one line.

    A ValueError, so the command line reports it as a one-line ``error:``. A URL's password
    in the message is shown as ``***``.
    """

    def __init__(self, message: str, transient: bool = True) -> None:
        super().__init__(redacted(" ".join(message.split())))
        self.transient = transient
        """True for transport trouble (exited, unreachable, timed out): worth one retry."""


def innermost(error: BaseException) -> BaseException:
    """The first leaf of an exception group (or the error itself)."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def describe(error: BaseException) -> str:
    """An error from a transport or session as one short line, in words a user can act on."""
    error = innermost(error)
    if isinstance(error, McpError) and error.error.code == types.CONNECTION_CLOSED:
        return "the server closed the connection (it exited or was killed)"
    if isinstance(error, McpError) and error.error.code == httpx.codes.REQUEST_TIMEOUT:
        return "the server did not answer in time"
    if isinstance(error, TimeoutError):
        return "the server did not answer in time"
    if isinstance(error, anyio.ClosedResourceError | anyio.BrokenResourceError):
        return "the connection is closed (the server exited or was killed)"
    if isinstance(error, ValidationError) and error.errors():
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"the server's answer is malformed ({error.title} {where}: {first['msg']})"
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:300]}" if text else type(error).__name__


def startup_problem(error: BaseException, errlog: TextIO) -> str:
    """Why a server did not start: the error, and the last line it wrote to standard error."""
    if isinstance(error, asyncio.CancelledError):
        return "did not start in time"
    last = ""
    with contextlib.suppress(Exception):
        errlog.seek(0)
        lines = [line.strip() for line in errlog.read().splitlines() if line.strip()]
        last = lines[-1] if lines else ""
    problem = describe(error)
    printable = "".join(ch if ch.isprintable() else "?" for ch in last)[:200]
    return f"{problem} (its last output: {printable})" if printable else problem


__all__ = ["MCPError", "describe", "innermost", "startup_problem"]
