"""The project's tools as an MCP server (the official SDK's FastMCP): ``agent mcp serve``.

``build_server(corpora=..., k=...)`` registers one ``search_<corpus>`` tool per corpus, the
``calculator``, and the field-service tools ``search_tickets``, ``check_availability`` and
``search_manual``. Every tool declares an input and an output schema and returns its result as
``structuredContent`` plus a text rendering (``[id] passage`` lines for a search). A failure is
an ``isError`` result whose text is one line (a bad argument, an unknown part, an empty query):
the server never crashes on what a client sends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.types import CallToolResult, ContentBlock, TextContent
from pydantic import BaseModel, Field

from corpora import Corpus
from graph.mcp_io.serving import security_for
from graph.mcp_io.session_limits import MAX_SESSIONS, SESSION_IDLE_S
from tools.search_protocol import search_tool_name

SERVER_NAME = "agentic-rag"
"""The name the server gives itself in ``initialize`` (clients prefix shadowing tools with it)."""
MAX_ERROR_CHARS = 300
"""Longest error line an ``isError`` result carries."""
MAX_K = 50
"""Most passages one search may ask for."""


class SearchRecord(BaseModel):
    """One passage a ``search_<corpus>`` tool returns."""

    id: str = Field(description="The passage id, to cite.")
    text: str = Field(description="The passage text (title first when it has one).")
    score: float = Field(description="BM25 score for the query (higher is better).")
    title: str = Field(default="", description="The passage title, if any.")
    corpus: str = Field(description="The corpus searched.")


class Ticket(BaseModel):
    """A closed service ticket ``search_tickets`` found."""

    id: str
    variant: str
    symptom: str
    fault_code: str
    resolution: str
    score: float


class TicketSearch(BaseModel):
    """What ``search_tickets`` returns."""

    ok: bool
    model_variant: str
    scope: str = Field(description="'variant' or 'family': which tickets were searched.")
    tickets: list[Ticket]
    error: str | None = None


class Availability(BaseModel):
    """What ``check_availability`` returns."""

    ok: bool
    part_no: str
    stock_qty: int | None
    lead_time_days: int | None
    error: str | None = None


class ManualPage(BaseModel):
    """A manual passage ``search_manual`` found."""

    id: str
    doc_title: str
    page: int
    product_family: str
    section: str
    fault_codes: list[str]
    text: str
    score: float


class ManualSearch(BaseModel):
    """What ``search_manual`` returns."""

    ok: bool
    product_family: str
    passages: list[ManualPage]
    error: str | None = None


class CalculatorResult(BaseModel):
    """What ``calculator`` returns."""

    expression: str
    value: str = Field(description="The result as Python prints it, e.g. '45.0'.")


def one_line(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """``text`` on one line (whitespace collapsed), cut to ``limit`` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _text(text: str) -> list[ContentBlock]:
    """One text content block."""
    return [TextContent(type="text", text=text)]


def _ok(text: str, structured: dict[str, Any]) -> CallToolResult:
    """A successful result: the structured value and its text rendering."""
    return CallToolResult(content=_text(text), structuredContent=structured)


def _error(message: str, structured: dict[str, Any]) -> CallToolResult:
    """An ``isError`` result with a one-line message (and a structure the schema accepts)."""
    return CallToolResult(
        content=_text(one_line(message)), structuredContent=structured, isError=True
    )


class ProjectServer(FastMCP):
    """FastMCP whose tool failures (bad arguments included) are always one-line errors."""

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        """Call a tool; any exception becomes a ToolError with a one-line message."""
        try:
            return await super().call_tool(name, arguments)
        except Exception as error:  # noqa: BLE001 - a client's bad call must not escape as-is
            raise ToolError(one_line(f"{name}: {error}")) from None


def search_tool(corpus: Corpus, k: int) -> Callable[..., CallToolResult]:
    """The MCP ``search_<corpus>`` function over a BM25 index of ``corpus``."""
    from tools import default_tools

    search = default_tools(k=k, corpora=[corpus])[0]

    def search_corpus(
        query: Annotated[str, Field(description="Keywords to look up, e.g. 'refund window'.")],
        k: Annotated[int, Field(ge=1, le=MAX_K, description="Most passages to return.")] = k,
    ) -> Annotated[CallToolResult, list[SearchRecord]]:
        message = search.invoke(
            {
                "type": "tool_call",
                "id": "mcp",
                "name": search.name,
                "args": {"query": query, "k": k},
            }  # fmt: skip
        )
        if message.status == "error":
            return _error(str(message.content), {"result": []})
        hits = [SearchRecord(**hit).model_dump() for hit in message.artifact]
        return _ok(str(message.content), {"result": hits})

    search_corpus.__doc__ = search.description
    return search_corpus


def calculator(
    expression: Annotated[str, Field(description="Arithmetic only, e.g. '0.18 * 250'.")],
) -> Annotated[CallToolResult, CalculatorResult]:
    """Evaluate an arithmetic expression (numbers, + - * / // % ** and parentheses)."""
    from tools.calculator import evaluate_expression

    value = evaluate_expression(expression)
    structured = {"expression": expression, "value": value}
    return _error(value, structured) if value.startswith("error") else _ok(value, structured)


def _field_service(tool: Any) -> Callable[..., CallToolResult]:
    """An MCP function around one field-service LangChain tool (same arguments and docstring)."""

    def run(**arguments: Any) -> CallToolResult:
        message = tool.invoke({"type": "tool_call", "id": "mcp", "name": tool.name,
                               "args": arguments})  # fmt: skip
        result = message.artifact if isinstance(message.artifact, dict) else None
        if result is None or message.status == "error":
            raise ToolError(one_line(str(message.content)))
        if not result.get("ok", False):
            return _error(f"error: {result.get('error')}", result)
        return _ok(str(message.content), result)

    return run


def search_tickets(
    model_variant: Annotated[str, Field(description="The exact variant, e.g. AC-250-S.")],
    symptom: Annotated[str, Field(description="The fault as described, in plain words.")],
    limit: Annotated[int, Field(ge=1, le=MAX_K, description="Most tickets, best first.")] = 8,
    include_family: Annotated[bool, Field(description="Search the whole family too.")] = False,
) -> Annotated[CallToolResult, TicketSearch]:
    """Search closed service tickets whose symptoms match, for one model variant."""
    from tools import field_service as fs

    return _field_service(fs.search_tickets)(
        model_variant=model_variant, symptom=symptom, limit=limit, include_family=include_family
    )


def check_availability(
    part_no: Annotated[str, Field(description="The catalogue part number, e.g. PN-80150.")],
) -> Annotated[CallToolResult, Availability]:
    """Check stock on hand and the lead time in days for a part number."""
    from tools import field_service as fs

    return _field_service(fs.check_availability)(part_no=part_no)


def search_manual(
    query: Annotated[str, Field(description="What to look for, e.g. a fault code and a part.")],
    product_family: Annotated[str, Field(description="The family, e.g. AC-250.")],
    k: Annotated[int, Field(ge=1, le=MAX_K, description="Most passages, best first.")] = 1,
) -> Annotated[CallToolResult, ManualSearch]:
    """Search the service manual of one product family for a procedure."""
    from tools import field_service as fs

    return _field_service(fs.search_manual)(query=query, product_family=product_family, k=k)


def build_server(
    corpora: Sequence[Corpus] | None = None,
    k: int = 3,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    session_idle_s: float = SESSION_IDLE_S,
    max_sessions: int = MAX_SESSIONS,
) -> FastMCP:
    """The server with every tool registered (corpora default to the built-ins).

    ``host``, ``port`` and the session limits matter only for the streamable HTTP transport
    (see ``graph.mcp_io.serving``: a loopback host gets Host and Origin checks). Raises
    ValueError when two corpora share a name.
    """
    from corpora import BUILTIN_CORPORA, load_builtin

    if corpora is None:
        corpora = [load_builtin(name) for name in BUILTIN_CORPORA]
    names = [corpus.name for corpus in corpora]
    if len(set(names)) != len(names):
        raise ValueError(f"two corpora share a name among {sorted(names)}")
    server = ProjectServer(
        SERVER_NAME, host=host, port=port, log_level="WARNING",
        transport_security=security_for(host), session_idle_timeout=session_idle_s,
        max_sessions=max_sessions,
    )  # fmt: skip
    for corpus in corpora:
        function = search_tool(corpus, k)
        server.add_tool(function, name=search_tool_name(corpus.name), description=function.__doc__)
    for function in (calculator, search_tickets, check_availability, search_manual):
        server.add_tool(function, name=function.__name__, description=function.__doc__)
    return server


__all__ = ["MAX_K", "SERVER_NAME", "SearchRecord", "build_server", "one_line"]
