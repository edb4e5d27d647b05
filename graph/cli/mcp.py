"""``agent mcp serve``: the project's tools over the Model Context Protocol.

``graph.cli.main`` adds it to the group. Over stdio, standard output is the protocol
channel, so nothing else is printed there; messages go to standard error. Over HTTP the
address, its checks and the session limits are ``graph.mcp_io.serving``'s.
"""

from __future__ import annotations

import click

from graph.cli.support import K, user_errors
from graph.mcp_io.session_limits import MAX_SESSIONS, SESSION_IDLE_S
from tools.search_settings import DEFAULT_K

LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8765
EXPOSED = (
    "warning: serving {n} tools on {host}:{port} without authentication: anyone who can reach "
    "this address can search the corpora and call every tool"
)


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
    help="Port for --transport http (0: any free port).",
)  # fmt: skip
@click.option(
    "--corpus",
    "corpus_specs",
    multiple=True,
    metavar="NAME[=PATH]",
    help="Serve a saved index NAME, or a corpus (.jsonl or folder) as search_NAME, instead of "
    "$AGENT_CORPORA or the built-ins; repeatable.",
)
@click.option("--builtins", is_flag=True, help="Serve the built-in corpora beside --corpus.")
@click.option("--k", type=K, default=DEFAULT_K, show_default=True)
@click.option(
    "--max-sessions", type=click.IntRange(1, 100_000), default=MAX_SESSIONS, show_default=True,
    help="Most HTTP sessions open at once (a new one past that gets 503).",
)  # fmt: skip
@click.option(
    "--session-idle", type=click.FloatRange(0.1, 86_400), default=SESSION_IDLE_S,
    show_default=True, help="Seconds without a request before an HTTP session is closed.",
)  # fmt: skip
def serve(
    transport: str,
    host: str | None,
    port: int,
    corpus_specs: tuple[str, ...],
    builtins: bool,
    k: int,
    max_sessions: int,
    session_idle: float,
) -> None:
    """Serve the search tools, calculator and field-service tools over MCP."""
    from graph.app.corpus_specs import served_corpora
    from graph.mcp_io.server import build_server
    from graph.mcp_io.serving import bind, bracketed, is_loopback, one_line_log, serve_http, url_of

    with user_errors():
        if transport == "stdio" and host is not None:
            raise ValueError("--host applies to --transport http only")
        address = host or LOOPBACK
        corpora = served_corpora(corpus_specs, builtins)
        if transport == "http":
            one_line_log()
            listener = bind(address, port)
            port = int(listener.getsockname()[1])
        server = build_server(
            corpora, k=k, host=address, port=port, session_idle_s=session_idle,
            max_sessions=max_sessions,
        )  # fmt: skip
    if transport == "stdio":
        server.run("stdio")
        return
    if not is_loopback(address):
        import asyncio

        tools = len(asyncio.run(server.list_tools()))
        click.echo(EXPOSED.format(n=tools, host=bracketed(address), port=port), err=True)
    click.echo(f"MCP server (streamable HTTP) at {url_of(address, port)}", err=True)
    serve_http(server, listener)


__all__ = ["mcp_group", "serve"]
