"""``agent mcp serve``: the project's tools over the Model Context Protocol.

``graph.cli.main`` adds it to the group. Over stdio, standard output is the protocol
channel, so nothing else is printed there; messages go to standard error.
"""

from __future__ import annotations

import ipaddress
import logging
import socket

import click

from graph.agent.budget import DEFAULT_K
from graph.cli.support import K, user_errors

LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8765
EXPOSED = (
    "warning: serving {n} tools on {host}:{port} without authentication: anyone who can reach "
    "this address can search the corpora and call every tool"
)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names only this machine (127.0.0.0/8, ::1 or localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_port_free(host: str, port: int) -> None:
    """Raise a one-line ValueError when ``host:port`` cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise ValueError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


class DropClosedStreams(logging.Filter):
    """Drops the SDK's traceback for a client that hung up its event stream (not a fault)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record except a ClosedResourceError logged by the stream writer."""
        import anyio

        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, anyio.ClosedResourceError)


def quiet_disconnects() -> None:
    """Install ``DropClosedStreams`` on the SDK's streamable HTTP logger (once)."""
    sdk = logging.getLogger("mcp.server.streamable_http")
    if not any(isinstance(f, DropClosedStreams) for f in sdk.filters):
        sdk.addFilter(DropClosedStreams())


@click.group("mcp")
def mcp_group() -> None:
    """The Model Context Protocol: serve this project's tools to any MCP client."""


@mcp_group.command("serve")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio (a client starts this command) or http (streamable HTTP at /mcp).",
)
@click.option(
    "--host",
    default=None,
    help=f"Address to bind with --transport http (default {LOOPBACK}; anything else is "
    "reachable from other machines).",
)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
    help="Port for --transport http.",
)  # fmt: skip
@click.option(
    "--corpus",
    "corpus_specs",
    multiple=True,
    metavar="NAME=PATH",
    help="Add a corpus (.jsonl or folder) as a search_NAME tool; repeatable.",
)
@click.option("--k", type=K, default=DEFAULT_K, show_default=True)
def serve(
    transport: str, host: str | None, port: int, corpus_specs: tuple[str, ...], k: int
) -> None:
    """Serve the search tools, calculator and field-service tools over MCP."""
    from corpora import BUILTIN_CORPORA, load_builtin, parse_corpus_spec
    from graph.mcp_io.server import build_server

    with user_errors():
        if transport == "stdio" and host is not None:
            raise ValueError("--host applies to --transport http only")
        bind = host or LOOPBACK
        corpora = [load_builtin(name) for name in BUILTIN_CORPORA]
        corpora += [parse_corpus_spec(spec) for spec in corpus_specs]
        server = build_server(corpora, k=k, host=bind, port=port)
        if transport == "http":
            check_port_free(bind, port)
    if transport == "stdio":
        server.run("stdio")
        return
    if not is_loopback(bind):
        import asyncio

        tools = len(asyncio.run(server.list_tools()))
        click.echo(EXPOSED.format(n=tools, host=bind, port=port), err=True)
    click.echo(f"MCP server (streamable HTTP) at http://{bind}:{port}/mcp", err=True)
    quiet_disconnects()
    server.run("streamable-http")


__all__ = ["check_port_free", "is_loopback", "mcp_group", "serve"]
