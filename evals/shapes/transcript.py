"""Reading a stored transcript: its turns, and each turn's request and tool calls.

Messages come as LangChain objects (a checkpoint store) or as plain dicts (a LangGraph
server's JSON); both are read the same way. A tool call *failed* when its result is an error
message, or a structured result saying ``ok: false``, or a text result starting ``error:``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tools.finish import FINISH_TOOL

KINDS = {"human": "human", "ai": "ai", "tool": "tool", "AIMessageChunk": "ai"}


@dataclass(frozen=True)
class Call:
    """One tool call of a run, and what came back."""

    tool: str
    args: Mapping[str, Any]
    """The arguments as the model gave them (names in the order given)."""
    ok: bool
    """False when the result was an error (or no result was stored)."""
    result: Any
    """The structured result (the tool message's artifact), or its text when it has none."""


def field_of(message: Any, name: str, default: Any = None) -> Any:
    """A message attribute, whether the message is an object or a dict."""
    if isinstance(message, Mapping):
        return message.get(name, default)
    return getattr(message, name, default)


def kind_of_message(message: Any) -> str:
    """``human``, ``ai``, ``tool`` or ``other``."""
    return KINDS.get(str(field_of(message, "type", "")), "other")


def text_of(content: Any) -> str:
    """A message's text (the text parts of a list content joined)."""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = [p.get("text", "") if isinstance(p, Mapping) else str(p) for p in content]
        return " ".join(part for part in parts if isinstance(part, str))
    return "" if content is None else str(content)


def split_turns(messages: Sequence[Any]) -> list[list[Any]]:
    """The turns of a transcript: each from a human message up to the next one."""
    turns: list[list[Any]] = []
    for message in messages:
        if kind_of_message(message) == "human":
            turns.append([message])
        elif turns:
            turns[-1].append(message)
    return turns


def failed(message: Any) -> bool:
    """Whether a tool message reports a failure (see the module docstring)."""
    if field_of(message, "status") == "error":
        return True
    artifact = field_of(message, "artifact")
    if isinstance(artifact, Mapping) and artifact.get("ok") is False:
        return True
    return text_of(field_of(message, "content")).lstrip().lower().startswith("error:")


def calls_of(turn: Sequence[Any]) -> list[Call]:
    """The turn's tool calls in order (``finish`` left out), each with its result."""
    results = {str(field_of(m, "tool_call_id")): m for m in turn if kind_of_message(m) == "tool"}
    calls: list[Call] = []
    for message in turn:
        if kind_of_message(message) != "ai":
            continue
        for call in field_of(message, "tool_calls") or []:
            name = str(field_of(call, "name", ""))
            if name == FINISH_TOOL:
                continue
            args = field_of(call, "args")
            reply = results.get(str(field_of(call, "id")))
            artifact = field_of(reply, "artifact") if reply is not None else None
            calls.append(
                Call(
                    tool=name,
                    args=dict(args) if isinstance(args, Mapping) else {},
                    ok=reply is not None and not failed(reply),
                    result=artifact
                    if artifact is not None
                    else text_of(field_of(reply, "content")),
                )
            )
    return calls
