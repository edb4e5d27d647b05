"""The stdio transport: start a server, exchange JSON-RPC lines with it, stop it.

Like the MCP SDK's ``stdio_client``, with three differences a hostile or broken server needs:

- the server dies with this process: on Linux it is started through a two-line launcher that
  sets ``PR_SET_PDEATHSIG`` (SIGKILL) before it becomes the server, so even a SIGKILLed client
  leaves nothing running; everywhere it gets its own process group, stopped on close;
- lines that are not JSON-RPC messages are counted by the connection's ``Guard``, never
  logged one traceback each; too many break the connection in one line;
- a line longer than ``MAX_MESSAGE_BYTES`` breaks the connection instead of growing a buffer.

The server gets the SDK's minimal environment (PATH, HOME ...), never this process's secrets.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import AsyncIterator, Sequence
from typing import Any, TextIO

import anyio
from anyio.abc import ByteReceiveStream
from mcp.client.stdio import get_default_environment
from mcp.os.posix.utilities import terminate_posix_process_tree
from mcp.shared.message import SessionMessage

from graph.mcp_io.guard import MAX_MESSAGE_BYTES, TOO_LONG, Guard

STOP_WAIT = 0.5
"""Seconds a server gets to exit once its input is closed, before it is terminated."""
_LAUNCHER = (
    "import ctypes,os,signal,sys\n"
    "ctypes.CDLL(None).prctl(1, signal.SIGKILL)\n"  # PR_SET_PDEATHSIG
    "os.getppid() == int(sys.argv[1]) or os._exit(1)\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n"
)
"""Set the parent-death signal, check the parent is still there, become the server."""


def launch_command(command: Sequence[str]) -> list[str]:
    """The argv that starts ``command`` so that it dies with this process.

    Raises FileNotFoundError when the program is not found.
    """
    program = shutil.which(command[0])
    if program is None:
        raise FileNotFoundError(f"no such program {command[0]!r}")
    if not sys.platform.startswith("linux"):
        return [program, *command[1:]]
    launcher = [sys.executable, "-I", "-S", "-c", _LAUNCHER, str(os.getpid())]
    return [*launcher, program, *command[1:]]


async def _lines(stream: ByteReceiveStream, guard: Guard) -> AsyncIterator[bytes]:
    """The stream's lines; breaks ``guard`` (and stops) at a line longer than the limit."""
    buffer = bytearray()
    async for chunk in stream:
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            buffer += chunk[start:end]
            yield bytes(buffer)
            buffer.clear()
            start = end + 1
        buffer += chunk[start:]
        if len(buffer) > MAX_MESSAGE_BYTES:
            guard.fail(TOO_LONG.format(limit=MAX_MESSAGE_BYTES // 2**20))
            return


@contextlib.asynccontextmanager
async def stdio_streams(
    command: Sequence[str], errlog: TextIO, guard: Guard
) -> AsyncIterator[tuple[Any, Any]]:
    """Start the server; yield its read and write streams; stop it on exit."""
    process = await anyio.open_process(
        launch_command(command), env=get_default_environment(), stderr=errlog,
        start_new_session=True,
    )  # fmt: skip
    read_writer, read = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write, write_reader = anyio.create_memory_object_stream[SessionMessage](0)

    async def pump_out() -> None:
        assert process.stdout is not None
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            async with read_writer:
                async for line in _lines(process.stdout, guard):
                    message = guard.message(line)
                    if guard.problem is not None:
                        return
                    if message is not None:
                        await read_writer.send(SessionMessage(message))

    async def pump_in() -> None:
        assert process.stdin is not None
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            async with write_reader:
                async for item in write_reader:
                    text = item.message.model_dump_json(by_alias=True, exclude_none=True)
                    await process.stdin.send((text + "\n").encode())

    async with anyio.create_task_group() as tasks, process:
        tasks.start_soon(pump_out)
        tasks.start_soon(pump_in)
        try:
            yield read, write
        finally:
            with contextlib.suppress(Exception):
                await process.stdin.aclose()  # type: ignore[union-attr]
            try:
                with anyio.fail_after(STOP_WAIT):
                    await process.wait()
            except TimeoutError:
                await terminate_posix_process_tree(process)
            except ProcessLookupError:
                pass
            for stream in (read, write, read_writer, write_reader):
                await stream.aclose()
            tasks.cancel_scope.cancel()


__all__ = ["launch_command", "stdio_streams"]
