"""`ScriptedModel`: a chat model that replays a list of turns, for tests and demos of wiring.

The turn it plays is chosen from the transcript (the number of AI messages since the last
question), not from a counter, so it is safe to share between threads, forks and replays.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from graph.models.base import InProcessChatModel

Turn = dict[str, Any]
"""One scripted turn: {"thought": str, "tool": name, "args": {...}} or {"content": str}."""


class ScriptExhausted(RuntimeError):
    """The script has no turn left for this call."""


def turn_to_message(turn: Turn | AIMessage, index: int) -> AIMessage:
    """An AIMessage for a scripted turn, with a stable tool call id (`call_<turn>`)."""
    if isinstance(turn, AIMessage):
        return turn
    if not isinstance(turn, dict):
        raise ValueError(f"scripted turn {index + 1} must be an object, got {type(turn).__name__}")
    content = str(turn.get("thought", turn.get("content", "")))
    if "tool" not in turn:
        return AIMessage(content=content)
    args = turn.get("args", {})
    if not isinstance(args, dict):
        raise ValueError(f"scripted turn {index + 1}: args must be an object")
    call = {"name": str(turn["tool"]), "args": args, "id": f"call_{index + 1}", "type": "tool_call"}
    return AIMessage(content=content, tool_calls=[call])


class ScriptedModel(InProcessChatModel):
    """Plays `turns` in order, one per model call in the current turn of the conversation."""

    turns: list[Any]
    """The turns to play (dicts as in `Turn`, or ready AIMessages)."""

    @property
    def _llm_type(self) -> str:
        """The model family name LangChain records in traces."""
        return "scripted"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """Return the turn whose position matches the number of model calls so far."""
        index = _calls_so_far(messages)
        if index >= len(self.turns):
            raise ScriptExhausted(f"the script has {len(self.turns)} turns; call {index + 1} asked")
        return ChatResult(
            generations=[ChatGeneration(message=turn_to_message(self.turns[index], index))]
        )


def _calls_so_far(messages: Sequence[BaseMessage]) -> int:
    """AI messages after the last human message: the model calls already made this turn."""
    count = 0
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            break
        if isinstance(message, AIMessage):
            count += 1
    return count


def load_script(path: str | Path) -> ScriptedModel:
    """A ScriptedModel from a JSON file holding a list of turns."""
    file = Path(path)
    try:
        turns = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{file}: script file not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{file}: cannot read the script: {error}") from None
    if not isinstance(turns, list) or not turns:
        raise ValueError(f"{file}: a script is a non-empty JSON list of turns")
    for index, turn in enumerate(turns):
        turn_to_message(turn, index)
    return ScriptedModel(turns=turns)
