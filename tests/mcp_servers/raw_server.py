"""A hand-written stdio MCP server for the hostile tests: it says exactly what it is told to.

Run as ``python tests/mcp_servers/raw_server.py CONFIG_JSON``. The config (all keys optional):
``name`` (the server's name), ``tools`` (the raw ``tools/list`` entries), ``records`` (what
every ``tools/call`` returns as ``structuredContent.result``), ``junk`` (lines of non-JSON
written to standard output before anything else), ``always_cursor`` (every ``tools/list`` page
says there is a next one), ``pid_file`` (write the process id there), ``linger`` (ignore
the end of standard input and sleep instead of exiting) and ``hang_calls`` (a file to create
when a ``tools/call`` arrives, which then never gets an answer). No MCP SDK: nothing is validated.
"""

from __future__ import annotations

import json
import os
import sys
import time

SEARCH = {
    "name": "lookup",
    "description": "Search the archive.",
    "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
                    "required": ["query"]},
}  # fmt: skip


def send(message: dict) -> None:
    """Write one JSON-RPC message line."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(config: dict, request: dict) -> dict | None:
    """The result for one request (None for a notification)."""
    method = request.get("method")
    if method == "initialize":
        return {
            "protocolVersion": request["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": config.get("name", "raw"), "version": "1"},
        }
    if method == "tools/list":
        page = {"tools": config.get("tools", [SEARCH])}
        if config.get("always_cursor"):
            page["nextCursor"] = "again"
        return page
    if method == "tools/call":
        records = config.get("records", [])
        text = "\n".join(f"[{r.get('id')}] {r.get('text')}" for r in records)
        return {"content": [{"type": "text", "text": text}],
                "structuredContent": {"result": records}}  # fmt: skip
    if method == "ping":
        return {}
    return None


def main() -> None:
    """Serve the config given as the first argument."""
    config = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    if config.get("pid_file"):
        with open(config["pid_file"], "w") as out:
            out.write(str(os.getpid()))
    for _ in range(config.get("junk", 0)):
        sys.stdout.write("starting up... not a protocol message\n")
    sys.stdout.flush()
    for line in sys.stdin:
        request = json.loads(line)
        if "id" not in request:
            continue
        if request.get("method") == "tools/call" and config.get("hang_calls"):
            with open(config["hang_calls"], "w") as out:
                out.write("called")
            time.sleep(3600)
        send({"jsonrpc": "2.0", "id": request["id"], "result": answer(config, request) or {}})
    if config.get("linger"):
        time.sleep(3600)


if __name__ == "__main__":
    main()
