"""The tools the flow calls (``FlowTools``) and how it calls one (``call_tool``).

Tools are injected (``FlowTools``), so tests can hand the flow a tool that times out. A tool
is a LangChain ``BaseTool`` (invoked with a tool call; its artifact is the result) or a plain
callable taking keyword arguments and returning the result dict. The defaults are the plain
domain functions the field-service tools wrap: the same results, without the tool-call
protocol's per-call cost (callbacks, argument validation, a ToolMessage to unpack).

The graph's nodes are built in ``graph.flow.graph`` from the stages (``graph.flow.stages``),
their node wrapper (``graph.flow.stage_node``) and the escalation (``graph.flow.escalation``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool

from tools import field_service_lookups as lookups

Tool = BaseTool | Callable[..., Any]
"""A LangChain tool or a plain callable returning the tool's structured result."""


@dataclass(frozen=True)
class FlowTools:
    """The tools the flow calls; defaults are the domain functions the real tools wrap."""

    search_tickets: Tool = field(default_factory=lambda: lookups.find_tickets)
    """``search_tickets(model_variant, symptom, limit)`` -> ``TicketSearch``."""
    check_availability: Tool = field(default_factory=lambda: lookups.lookup_availability)
    """``check_availability(part_no)`` -> ``Availability``."""
    search_manual: Tool = field(default_factory=lambda: lookups.find_manual_passages)
    """``search_manual(query, product_family, k)`` -> ``ManualSearch``."""

    @classmethod
    def resolve(
        cls, tools: FlowTools | Mapping[str, Tool] | Sequence[BaseTool] | None
    ) -> FlowTools:
        """Build the tool set from defaults overridden by name (a mapping or a list of tools)."""
        if tools is None:
            return cls()
        if isinstance(tools, FlowTools):
            return tools
        if isinstance(tools, Mapping):
            overrides = dict(tools)
        else:
            overrides = {tool.name: tool for tool in tools}
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(f"unknown flow tools {unknown}; the flow uses {sorted(known)}")
        return replace(cls(), **overrides)


def call_tool(tool: Tool, args: dict[str, Any], call_id: str) -> dict[str, Any]:
    """Call a tool and return its structured result (exceptions propagate to the stage)."""
    if isinstance(tool, BaseTool):
        call = {"name": tool.name, "args": args, "id": call_id, "type": "tool_call"}
        message = tool.invoke(call)
        if isinstance(message, ToolMessage):
            if isinstance(message.artifact, dict):
                return message.artifact
            if message.status == "error":
                return {"ok": False, "error": str(message.content)}
            message = message.content
        if isinstance(message, dict):
            return message
        try:
            parsed = json.loads(str(message))
        except json.JSONDecodeError:
            parsed = None
        if not isinstance(parsed, dict):
            raise TypeError(f"{tool.name} returned no structured result: {str(message)[:80]!r}")
        return parsed
    result = tool(**args)
    if not isinstance(result, dict):
        raise TypeError(f"tool returned {type(result).__name__}, expected a dict")
    return result


__all__ = ["FlowTools", "Tool", "call_tool"]
