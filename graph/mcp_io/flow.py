"""The field-service flow's three tools over MCP (seed 002's ``call_tool(endpoint, name, args)``).

``remote_flow_tools(spec, clients)`` connects to one server that offers ``search_tickets``,
``check_availability`` and ``search_manual`` (``agent mcp serve`` does) and returns them as the
plain callables the flow's stages take (``graph.flow.tools.FlowTools``): each calls the tool on
the server's one session and returns its ``structuredContent``.

How a result meets the flow's failure policy:

- an ``isError`` result is returned as ``{"ok": False, "error": <its one line>}``: a stage
  failure, handled by the stage's policy like any tool error;
- a transport error, a server that exited, or no answer within ``AGENT_MCP_TIMEOUT`` raises
  ``MCPError`` (transient): the stage fails and its RETRY_ONCE policy runs it once more, then
  escalates;
- a result without a structured object raises ``MCPError`` too (malformed).

``search_manual`` failing only costs the answer its citation (the compose stage degrades).
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable, Mapping
from typing import Any

from mcp import types

from graph.mcp_io.client import MCPClients
from graph.mcp_io.errors import MCPError
from graph.mcp_io.spec import ServerSpec, clean, parse_spec

FLOW_TOOLS = ("search_tickets", "check_availability", "search_manual")
"""The tools the flow calls, by name."""
MISSING = "MCP server {server} lacks the flow's tools {missing}; it offers {offered}"

_SHARED: MCPClients | None = None
_SHARED_LOCK = threading.Lock()


class RemoteTool:
    """One flow tool on an MCP server, called like the in-process domain function."""

    def __init__(self, clients: MCPClients, server: str, name: str) -> None:
        self.clients = clients
        self.server = server
        self.name = name

    def __call__(self, **arguments: Any) -> dict[str, Any]:
        """Call the tool; return its structured result (see the module docstring)."""
        result = self.clients.call(self.server, self.name, arguments)
        if result.isError:
            return {"ok": False, "error": error_line(result)}
        if not isinstance(result.structuredContent, dict):
            raise MCPError(
                f"MCP {self.server}.{self.name} returned no structured result", transient=False
            )
        return dict(clean(result.structuredContent))


def error_line(result: types.CallToolResult) -> str:
    """The text of an ``isError`` result, on one line (at most 300 characters)."""
    text = " ".join(
        " ".join(block.text.split())
        for block in result.content
        if isinstance(block, types.TextContent)
    )
    return (text or "the tool reported an error")[:300]


def remote_flow_tools(
    spec: ServerSpec | str, clients: MCPClients | None = None
) -> Mapping[str, Callable[..., dict[str, Any]]]:
    """The flow's tools on the server at ``spec`` (``clients``: default, this process's pool).

    Raises MCPError when the server cannot be reached and ValueError when it lacks a tool.
    """
    spec = parse_spec(spec) if isinstance(spec, str) else spec
    clients = clients if clients is not None else shared_clients()
    server = clients.connect(spec)
    offered = {tool.name for tool in server.tools}
    missing = [name for name in FLOW_TOOLS if name not in offered]
    if missing:
        raise ValueError(
            MISSING.format(server=spec.label, missing=missing, offered=sorted(offered) or "none")
        )
    return {name: RemoteTool(clients, server.name, name) for name in FLOW_TOOLS}


def shared_clients() -> MCPClients:
    """Return the pool of MCP sessions this process shares (made on first use, closed at exit)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = MCPClients()
            atexit.register(_SHARED.close)
        return _SHARED


__all__ = ["FLOW_TOOLS", "RemoteTool", "error_line", "remote_flow_tools", "shared_clients"]
