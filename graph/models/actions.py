"""What the in-process controllers observe (`Observation`) and decide (`Action`), from a transcript.

Shared by the offline search policy (`graph.models.offline`) and the structured controller
(`graph.models.structured`); it imports neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

Hit = dict[str, Any]
"""One search result from a tool artifact as a plain dict (`tools.search_protocol.SearchHit`)."""


@dataclass
class Observation:
    """One tool round of the current turn: the call and what came back."""

    tool: str
    args: dict[str, Any]
    content: str = ""
    hits: list[Hit] = field(default_factory=list)
    ok: bool = True
    artifact: Any = None


@dataclass(frozen=True)
class Action:
    """The policy's decision for this turn: one tool call, and the Thought that explains it."""

    thought: str
    tool: str
    args: dict[str, Any]


def read_transcript(messages: Sequence[BaseMessage]) -> tuple[str, list[Observation]]:
    """The current question and the tool rounds since it was asked."""
    question = ""
    observations: list[Observation] = []
    pending: dict[str, Observation] = {}
    for message in messages:
        if isinstance(message, HumanMessage):
            question = str(message.content)
            observations, pending = [], {}
        elif isinstance(message, AIMessage):
            for call in message.tool_calls:
                observation = Observation(call["name"], dict(call["args"]))
                observations.append(observation)
                pending[str(call["id"])] = observation
        elif isinstance(message, ToolMessage) and message.tool_call_id in pending:
            observation = pending.pop(message.tool_call_id)
            observation.content = str(message.content)
            observation.ok = message.status != "error"
            observation.artifact = message.artifact
            if isinstance(message.artifact, list):
                observation.hits = [h for h in message.artifact if isinstance(h, dict)]
    return question, observations
