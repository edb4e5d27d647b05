"""Message helpers the nodes share: text of a message, the model's view, tool-call closing.

Pure functions over LangChain messages: nothing here holds state or calls a model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    ToolCall,
    ToolMessage,
)

from graph.agent.prompts import fence_hits
from graph.agent.transcript import current_turn, hits_of
from tools.finish import FINISH_TOOL, normalize_citations

NOT_RUN = "Not run: {reason}."
INVALID_CALL = (
    "Error: the call to {name} could not be read ({error}); its arguments must be a JSON "
    "object matching the tool's schema, got: {args}"
)
NOT_RUN_BESIDE_INVALID = "another call in the same reply could not be read; call it again"
EMPTY_CONTENT = "(calling {names})"
CITATION_RE = re.compile(r"\[([^\[\]\s]{1,200})\]")


def message_text(message: BaseMessage) -> str:
    """The text of a message whose content may be a string or a list of blocks."""
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(
        block.get("text", "") if isinstance(block, dict) else str(block) for block in content
    )


def asked_in(messages: Sequence[AnyMessage]) -> str | None:
    """The question of the transcript's current turn (None before the first)."""
    turn = current_turn(messages)
    if turn and isinstance(turn[0], HumanMessage):
        return message_text(turn[0])
    return None


def model_view(messages: Sequence[AnyMessage]) -> list[AnyMessage]:
    """The transcript as a model sees it.

    Search results are fenced as <document> data, and an AI message that only calls tools
    gets a short text, since langchain-openai sends an empty one as `null`.
    """
    view: list[AnyMessage] = []
    for message in messages:
        if isinstance(message, AIMessage) and not message.content:
            calls = [*message.tool_calls, *message.invalid_tool_calls]
            if calls:  # strict servers reject the null content an empty string becomes
                names = ", ".join(str(call.get("name")) for call in calls)
                message = message.model_copy(update={"content": EMPTY_CONTENT.format(names=names)})
        if isinstance(message, ToolMessage) and isinstance(message.artifact, list):
            hits = hits_of(message)
            if hits or message.status != "error":
                message = message.model_copy(update={"content": fence_hits(hits)})
        view.append(message)
    return view


def reject_invalid_calls(response: BaseMessage) -> list[ToolMessage]:
    """Error tool messages for tool calls the model garbled (arguments that are not JSON).

    They go back to the model like any tool error, so it can correct itself next step; the
    reply's other calls are answered as not run, so no call is left without a reply.
    """
    if not isinstance(response, AIMessage):
        return []
    errors = [
        ToolMessage(
            INVALID_CALL.format(
                name=call.get("name") or "?",
                error=call.get("error") or "",
                args=str(call.get("args") or "")[:200],
            ),
            name=call.get("name") or "invalid",
            tool_call_id=call.get("id") or f"invalid-{index}",
            status="error",
        )
        for index, call in enumerate(response.invalid_tool_calls)
    ]
    if not errors:
        return []
    return [*errors, *(not_run(call, NOT_RUN_BESIDE_INVALID) for call in response.tool_calls)]


def finish_call(message: AIMessage) -> dict[str, Any] | None:
    """The message's call to `finish`, if it made one."""
    for call in message.tool_calls:
        if call["name"] == FINISH_TOOL:
            return dict(call)
    return None


@dataclass(frozen=True)
class FinishArgs:
    """What a `finish` call says: the answer (None: a decline), its short form, the cited ids."""

    answer: str | None
    short_answer: str | None
    citations: list[str]


def read_finish_args(args: Any) -> FinishArgs:
    """The answer, short answer and cited ids of `finish` arguments, tolerating loose shapes.

    A blank or missing answer is None (the call declines, `tools.finish`); a short answer
    without an answer is dropped with it.
    """
    args = args if isinstance(args, dict) else {}
    answer = _text(args.get("answer"))
    cited = args.get("citations") or []
    if isinstance(cited, str):
        cited = [part for part in re.split(r"[,\s]+", cited) if part]
    if not isinstance(cited, list):
        cited = [cited]
    short = _text(args.get("short_answer")) if answer else None
    return FinishArgs(answer, short, normalize_citations(str(item) for item in cited))


def _text(value: Any) -> str | None:
    """A stripped string argument, None when absent or blank."""
    text = str(value).strip() if value is not None else ""
    return text or None


def split_citations(cited: Sequence[str], retrieved: set[str]) -> dict[str, list[str]]:
    """Cited ids split into those the run retrieved and those it never saw (deduplicated)."""
    unique = list(dict.fromkeys(cited))
    return {
        "citations": [doc_id for doc_id in unique if doc_id in retrieved],
        "unsupported": [doc_id for doc_id in unique if doc_id not in retrieved],
    }


def close_calls(
    message: AnyMessage | None, reason: str, skip: str | None = None
) -> list[ToolMessage]:
    """Tool messages answering the calls that will never run, so the transcript stays valid."""
    if not isinstance(message, AIMessage):
        return []
    return [not_run(call, reason) for call in message.tool_calls if call["id"] != skip]


def not_run(call: ToolCall, reason: str) -> ToolMessage:
    """The error tool message for a call that was not run, and why."""
    return ToolMessage(
        NOT_RUN.format(reason=reason), name=call["name"], tool_call_id=call["id"], status="error"
    )


def usage_tokens(message: BaseMessage) -> int:
    """Total tokens the model reported for this call (0 if it reports none)."""
    usage = getattr(message, "usage_metadata", None)
    return int(usage.get("total_tokens", 0)) if usage else 0


def one_line(error: BaseException) -> str:
    """An exception as one short line: its type and first words."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:300]}" if text else type(error).__name__
