"""The project's MCP server with one tool made faulty, for the flow-over-MCP tests.

``python tests/mcp_servers/flow_server.py TOOL FAULT [--http PORT]``: TOOL is one of the flow's
tools (or ``none``); FAULT is ``die`` (the process exits mid-call), ``hang`` (never answers),
``error`` (an isError result) or ``malformed`` (no structured result).
"""

from __future__ import annotations

import argparse
import os
import time

from mcp.types import CallToolResult, TextContent

from graph.mcp_io.server import build_server


def main() -> None:
    """Parse the arguments, break one tool, and serve."""
    parser = argparse.ArgumentParser()
    parser.add_argument("tool")
    parser.add_argument("fault")
    parser.add_argument("--http", type=int, default=0)
    args = parser.parse_args()
    server = build_server([], port=args.http or 8000)
    if args.tool != "none":
        server.remove_tool(args.tool)

        def broken(**arguments: object) -> CallToolResult:
            if args.fault == "die":
                os._exit(4)
            if args.fault == "hang":
                time.sleep(3600)
            if args.fault == "error":
                return CallToolResult(content=[TextContent(type="text", text="db offline")],
                                      isError=True)  # fmt: skip
            return CallToolResult(content=[TextContent(type="text", text="not json at all")])

        def tool(
            model_variant: str = "", symptom: str = "", limit: int = 8, part_no: str = "",
            query: str = "", product_family: str = "", k: int = 1,
        ) -> CallToolResult:  # fmt: skip
            """A broken tool."""
            return broken()

        server.add_tool(tool, name=args.tool)
    server.run("streamable-http" if args.http else "stdio")


if __name__ == "__main__":
    main()
