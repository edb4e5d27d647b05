"""Checking a model's reply before it is stored: size caps.

Whatever a model sends is untrusted. A message longer than `AGENT_MAX_MESSAGE_CHARS` is cut
(with a note the model sees), and a tool call whose arguments are longer is not run but becomes
an invalid call: the `reason` node answers invalid calls with error tool messages, so the model
sees each problem and can correct itself. A `finish` call without an answer is not a problem
but a decline (`tools.finish`): the run ends with ``stopped: "no_answer"``.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, InvalidToolCall, ToolCall

from graph.common.env import env_float

MAX_MESSAGE_ENV = "AGENT_MAX_MESSAGE_CHARS"
DEFAULT_MAX_MESSAGE_CHARS = 50_000
CUT_NOTE = "\n[cut: the message was {size:,} characters; the limit is {limit:,}]"
ARGS_TOO_LONG = "the arguments are {size:,} characters; the limit is {limit:,}"
REPLY_TOO_LONG = (
    "the reply is {size:,} characters; the limit is {limit:,}: answer briefly, or call finish"
)
SHOWN_ARGS = 200
"""Characters of an invalid call's arguments kept in the transcript."""


def max_message_chars() -> int:
    """The most characters a model message or a tool call's arguments may have."""
    return int(env_float(MAX_MESSAGE_ENV, DEFAULT_MAX_MESSAGE_CHARS, 1_000, 10_000_000))


def vet_reply(response: BaseMessage, limit: int) -> BaseMessage:
    """The reply as it may be stored: its text and every call's arguments within `limit`."""
    if not isinstance(response, AIMessage):
        return response
    calls: list[ToolCall] = []
    invalid: list[InvalidToolCall] = [_short(call) for call in response.invalid_tool_calls]
    changed = invalid != response.invalid_tool_calls
    for call in response.tool_calls:
        size = _size(call.get("args"))
        if size > limit:
            invalid.append(_invalid(call, ARGS_TOO_LONG.format(size=size, limit=limit)))
        else:
            calls.append(call)
    changed = changed or len(calls) < len(response.tool_calls)
    content: Any = response.content
    size = len(content) if isinstance(content, str) else _size(content)
    if size > limit:
        changed = True
        text = content if isinstance(content, str) else json.dumps(content, default=str)
        content = text[:limit] + CUT_NOTE.format(size=size, limit=limit)
        if not calls and not invalid:  # a plain answer too long to keep: the model is told
            error = REPLY_TOO_LONG.format(size=size, limit=limit)
            invalid.append(
                InvalidToolCall(
                    name="reply",
                    args="",
                    id="reply-too-long",
                    error=error,
                    type="invalid_tool_call",
                )
            )
    if not changed:
        return response
    return AIMessage(
        content=content,
        tool_calls=calls,
        invalid_tool_calls=invalid,
        id=response.id,
        name=response.name,
        usage_metadata=response.usage_metadata,
        response_metadata=_within(response.response_metadata, limit),
        additional_kwargs=_within(
            {k: v for k, v in response.additional_kwargs.items() if k != "tool_calls"}, limit
        ),
    )


def _invalid(call: ToolCall, error: str) -> InvalidToolCall:
    """An invalid call standing for a tool call that will not run, and why."""
    args = json.dumps(call.get("args"), ensure_ascii=False, default=str)
    return InvalidToolCall(
        name=call["name"],
        args=_clip(args),
        id=call.get("id"),
        error=error,
        type="invalid_tool_call",
    )


def _short(call: InvalidToolCall) -> InvalidToolCall:
    """An invalid call with its raw arguments clipped (they may be huge)."""
    args = call.get("args")
    if isinstance(args, str) and len(args) > SHOWN_ARGS:
        return InvalidToolCall(**{**call, "args": _clip(args)})
    return call


def _clip(text: str) -> str:
    """At most SHOWN_ARGS characters of `text`, marked when cut."""
    return text if len(text) <= SHOWN_ARGS else text[:SHOWN_ARGS] + " ..."


def _within(data: dict[str, Any], limit: int) -> dict[str, Any]:
    """`data` without the entries whose JSON is longer than `limit`."""
    return {key: value for key, value in data.items() if _size(value) <= limit}


def _size(value: Any) -> int:
    """The length of a value as JSON text."""
    return len(json.dumps(value, ensure_ascii=False, default=str))
