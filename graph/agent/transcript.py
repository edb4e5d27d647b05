"""Reading a transcript: the current turn, what it retrieved, which queries it already ran."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

SEARCH_PREFIX = "search"


def current_turn(messages: Sequence[AnyMessage]) -> Sequence[AnyMessage]:
    """The messages from the last question on (a thread may hold several turns)."""
    for index in range(len(messages) - 1, -1, -1):
        if isinstance(messages[index], HumanMessage):
            return messages[index:]
    return messages


def is_search_call(call: Mapping[str, Any]) -> bool:
    """Whether a tool call is a search (a `search...` tool given a `query`)."""
    args = call.get("args")
    return (
        str(call.get("name", "")).startswith(SEARCH_PREFIX)
        and isinstance(args, dict)
        and "query" in args
    )


def normalize_query(query: Any) -> str:
    """A query compared for repeats: the same words, ignoring case and spacing."""
    return " ".join(str(query).casefold().split())


def search_page(args: Mapping[str, Any]) -> Any:
    """Which page of a query's ranking a search call reads (1 when not given)."""
    return args.get("page", 1)


def find_earlier_search(
    messages: Sequence[AnyMessage],
    tool_name: str,
    query: Any,
    call_id: str | None,
    page: Any = 1,
) -> int | None:
    """The step (1-based model call) of an earlier search of `tool_name` for the same query.

    The same query on another page (further down its ranking) is not a repeat. Looks only at
    the current turn, and only at calls made before `call_id`.
    """
    wanted = normalize_query(query)
    step = 0
    for message in current_turn(messages):
        if not isinstance(message, AIMessage):
            continue
        step += 1
        for call in message.tool_calls:
            if call.get("id") == call_id:
                return None
            if (
                call["name"] == tool_name
                and isinstance(call.get("args"), dict)
                and "query" in call["args"]
                and normalize_query(call["args"]["query"]) == wanted
                and search_page(call["args"]) == page
            ):
                return step
    return None


def hits_of(message: ToolMessage) -> list[dict[str, Any]]:
    """The records with an `id` a tool message carries as its artifact (or none).

    A search returns a list of hits; a structured tool may return an object holding lists of
    records (`{"tickets": [{"id": ...}, ...]}`): both count as retrieved documents.
    """
    artifact = message.artifact
    if message.status == "error":
        return []
    if isinstance(artifact, dict):
        artifact = [
            item for value in artifact.values() if isinstance(value, list) for item in value
        ]
    if not isinstance(artifact, list):
        return []
    return [hit for hit in artifact if isinstance(hit, dict) and "id" in hit]


def retrieved_by_tool(messages: Sequence[AnyMessage]) -> dict[str, list[str]]:
    """Document ids retrieved in the current turn, by tool name, in first-seen order."""
    retrieved: dict[str, list[str]] = {}
    for message in current_turn(messages):
        if isinstance(message, ToolMessage):
            for hit in hits_of(message):
                ids = retrieved.setdefault(message.name or "tool", [])
                if hit["id"] not in ids:
                    ids.append(str(hit["id"]))
    return retrieved


def all_ids(retrieved: dict[str, list[str]]) -> set[str]:
    """Every retrieved id, whichever tool found it."""
    return {doc_id for ids in retrieved.values() for doc_id in ids}
