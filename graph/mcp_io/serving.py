"""Serving the MCP server over streamable HTTP: the address, its checks, its limits, its log.

- **Address**: ``bind(host, port)`` opens the listening socket itself, so ``--port 0`` gets a
  real port and the announced URL (``url_of``, brackets around IPv6) is the one served. An
  IPv4-mapped IPv6 address (``::ffff:127.0.0.1``) is refused: name the IPv4 address instead.
- **DNS rebinding**: on every loopback address (127.0.0.0/8, ::1, localhost), not only the three
  the SDK knows, the Host and Origin headers must name a loopback address (``security_for``); a
  page on ``evil.example`` that resolves to 127.0.0.2 gets 421, not a session.
- **Sessions** expire after ``SESSION_IDLE_S`` seconds without a request and at most
  ``MAX_SESSIONS`` are open at once (a new one past that gets 503), so clients that never
  delete their sessions cannot grow the server's memory.
- **Log**: every record is one line (``OneLine``); a client's mistake (invalid UTF-8, JSON
  nested too deep, a disconnect mid-request) never prints a traceback.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
import sys

import anyio
from mcp.server.fastmcp import FastMCP
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, TransportSecuritySettings
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
LOG = logging.getLogger("agent.mcp.serve")
MAPPED = "--host {host} is an IPv4-mapped IPv6 address; use --host {ipv4} instead"


def is_loopback(host: str) -> bool:
    """Whether ``host`` names only this machine (127.0.0.0/8, ::1 or localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bracketed(host: str) -> str:
    """``host`` as it goes in a URL or a Host header: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def url_of(host: str, port: int) -> str:
    """The streamable HTTP endpoint served on ``host:port``."""
    return f"http://{bracketed(host)}:{port}/mcp"


def security_for(host: str) -> TransportSecuritySettings | None:
    """Host and Origin checks for a loopback ``host`` (None elsewhere: the SDK's default)."""
    if not is_loopback(host):
        return None
    names = list(dict.fromkeys([*LOOPBACK_NAMES, bracketed(host)]))
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*names, *(f"{name}:*" for name in names)],
        allowed_origins=[*(f"http://{n}" for n in names), *(f"http://{n}:*" for n in names)],
    )


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (0: any free port); one-line ValueError if not."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        raise ValueError(MAPPED.format(host=host, ipv4=address.ipv4_mapped))
    try:
        family, kind, proto, _, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (OSError, UnicodeError) as error:
        raise ValueError(f"cannot listen on {bracketed(host)}:{port}: {error}") from None
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(where)
        listener.listen(128)
    except OSError as error:
        listener.close()
        reason = error.strerror or error
        raise ValueError(f"cannot listen on {bracketed(host)}:{port}: {reason}") from None
    return listener


class OneLine(logging.Formatter):
    """``level: message``, and an exception as ``(Type: message)`` on the same line."""

    def format(self, record: logging.LogRecord) -> str:
        """The record on one line, without a traceback."""
        line = f"{record.levelname.lower()}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line += f" ({type(error).__name__}: {str(error)[:200]})"
        return " ".join(line.split())


def _not_a_hang_up(record: logging.LogRecord) -> bool:
    """False for the SDK's record of a client that hung up its event stream (not a fault)."""
    error = record.exc_info[1] if record.exc_info else None
    return not isinstance(error, anyio.ClosedResourceError)


def one_line_log() -> None:
    """Send every log record to standard error as one line (warnings and worse).

    A client hanging up its event stream is not logged at all.
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    handler.addFilter(_not_a_hang_up)
    logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)


class ClientMistakes:
    """ASGI middleware: a POST body that is not UTF-8 JSON gets 400 and one log line.

    The SDK answers such a body (invalid UTF-8, JSON nested 100,000 deep) with 500 and a
    traceback. A client that disconnects before its body is complete is logged in one line
    and nothing is served. A body over ``max_body`` bytes is passed on for the SDK to refuse.
    """

    def __init__(self, app: ASGIApp, max_body: int = DEFAULT_MAX_REQUEST_BODY_SIZE) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check a POST's body, then hand the request (its body replayed) to the app."""
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more and size <= self.max_body:
            message = await receive()
            if message["type"] == "http.disconnect":
                LOG.warning("a client disconnected before its request was complete")
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
        body = b"".join(chunks)
        problem = None if more else _not_json(body)
        if problem is not None:
            LOG.warning(f"refused a request whose body {problem}")
            await _parse_error(problem)(scope, receive, send)
            return
        await self.app(scope, _replay(body, more, receive), send)


def _not_json(body: bytes) -> str | None:
    """What keeps ``body`` from being UTF-8 JSON (None when it is)."""
    try:
        json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        return "is not UTF-8"
    except RecursionError:
        return "is JSON nested too deep"
    except ValueError:
        return None  # not JSON at all: the SDK's own parse error answers it
    return None


def _parse_error(problem: str) -> ASGIApp:
    """A JSON-RPC parse error response (HTTP 400)."""
    error = {"jsonrpc": "2.0", "id": None,
             "error": {"code": -32700, "message": f"Parse error: the body {problem}"}}  # fmt: skip
    return JSONResponse(error, status_code=400)


def _replay(body: bytes, more: bool, receive: Receive) -> Receive:
    """A ``receive`` that first gives back the body already read, then the rest."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return replayed


def serve_http(server: FastMCP, listener: socket.socket) -> None:
    """Serve ``server``'s streamable HTTP app on ``listener`` until interrupted."""
    import uvicorn

    app = ClientMistakes(server.streamable_http_app())
    config = uvicorn.Config(app, log_config=None, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[listener])


__all__ = [
    "ClientMistakes",
    "OneLine",
    "bind",
    "bracketed",
    "is_loopback",
    "one_line_log",
    "security_for",
    "serve_http",
    "url_of",
]
