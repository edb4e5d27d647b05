"""`InProcessChatModel`: the base of the chat models that run in this process (no API)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool


class InProcessChatModel(BaseChatModel):
    """A chat model whose `bind_tools` returns a copy holding the tools it may call."""

    tools: list[Any] = []
    """The bound tools (the policy reads their schemas and indexes; others ignore them)."""

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """A copy of the model that may call `tools`."""
        return self.model_copy(update={"tools": list(tools)})
